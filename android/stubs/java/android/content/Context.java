// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (the Android API). The real class's hierarchy
// and everything else are left out.
package android.content;

import android.content.ContentResolver;
import android.content.res.Resources;
import java.io.File;

public abstract class Context {
    public abstract ContentResolver getContentResolver();

    public abstract File getCacheDir();

    public abstract Resources getResources();
}
