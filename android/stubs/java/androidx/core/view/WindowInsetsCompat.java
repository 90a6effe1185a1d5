// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.core 1.x). The real class's hierarchy
// and everything else are left out.
package androidx.core.view;

import androidx.core.graphics.Insets;

public class WindowInsetsCompat {
    public Insets getInsets(int typeMask) {
        return null;
    }

    public static final class Type {
        public static int systemBars() {
            return 0;
        }

        public static int displayCutout() {
            return 0;
        }
    }
}
