// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (the Android API). The real class's hierarchy
// and everything else are left out.
package android.content;

import android.net.Uri;

public class ClipData {
    public static ClipData newRawUri(CharSequence label, Uri uri) {
        return null;
    }
}
