// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.activity 1.x). The real class's hierarchy
// and everything else are left out.
package androidx.activity.result;

import androidx.activity.result.contract.ActivityResultContracts;

public final class PickVisualMediaRequest {
    public static final class Builder {
        public Builder setMediaType(ActivityResultContracts.PickVisualMedia.VisualMediaType mediaType) {
            return this;
        }

        public PickVisualMediaRequest build() {
            return new PickVisualMediaRequest();
        }
    }
}
