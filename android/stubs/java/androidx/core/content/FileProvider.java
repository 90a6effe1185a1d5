// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.core 1.x). The real class's hierarchy
// and everything else are left out.
package androidx.core.content;

import android.content.Context;
import android.net.Uri;
import java.io.File;

public class FileProvider {
    public static Uri getUriForFile(Context context, String authority, File file) {
        return null;
    }
}
