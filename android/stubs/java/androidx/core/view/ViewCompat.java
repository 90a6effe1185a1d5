// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.core 1.x). The real class's hierarchy
// and everything else are left out.
package androidx.core.view;

import android.view.View;

public class ViewCompat {
    public static void setOnApplyWindowInsetsListener(View v, OnApplyWindowInsetsListener listener) {}

    public static WindowInsetsCompat onApplyWindowInsets(View view, WindowInsetsCompat insets) {
        return insets;
    }

    public static void requestApplyInsets(View view) {}
}
