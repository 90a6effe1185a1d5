// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.activity 1.x). The real class's hierarchy
// and everything else are left out.
package androidx.activity.result.contract;

import android.net.Uri;
import androidx.activity.result.PickVisualMediaRequest;

public final class ActivityResultContracts {
    public static class PickVisualMedia extends ActivityResultContract<PickVisualMediaRequest, Uri> {
        public interface VisualMediaType {}

        public static final class ImageOnly implements VisualMediaType {
            public static final ImageOnly INSTANCE = new ImageOnly();
        }
    }

    public static class TakePicture extends ActivityResultContract<Uri, Boolean> {}
}
