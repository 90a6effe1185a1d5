// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.exifinterface 1.x). The real class's hierarchy
// and everything else are left out.
package androidx.exifinterface.media;

import java.io.IOException;
import java.io.InputStream;

public class ExifInterface {
    public static final String TAG_ORIENTATION = "Orientation";
    public static final int ORIENTATION_NORMAL = 1;

    public ExifInterface(InputStream inputStream) throws IOException {}

    public int getAttributeInt(String tag, int defaultValue) {
        return defaultValue;
    }
}
