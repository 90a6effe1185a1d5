// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.core 1.x). The real class's hierarchy
// and everything else are left out.
package androidx.core.view;

import android.view.Window;

public final class WindowCompat {
    public static void setDecorFitsSystemWindows(Window window, boolean decorFitsSystemWindows) {}
}
