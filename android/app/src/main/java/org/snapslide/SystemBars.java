package org.snapslide;

import android.app.Activity;
import android.os.Build;
import android.view.View;
import android.view.Window;
import android.view.WindowManager;
import androidx.core.graphics.Insets;
import androidx.core.view.ViewCompat;
import androidx.core.view.WindowCompat;
import androidx.core.view.WindowInsetsCompat;
import androidx.core.view.WindowInsetsControllerCompat;

/**
 * Edge to edge: the game draws under the status bar, the cut-out and the gesture bar, and
 * hears how much of each edge they cover (winit 0.30 does not pass Android's insets on).
 */
final class SystemBars {
    private SystemBars() {}

    /** Draws behind the system bars and sends every change of their insets to the game. */
    static void edgeToEdge(Activity activity) {
        Window window = activity.getWindow();
        WindowCompat.setDecorFitsSystemWindows(window, false);
        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.P) {
            WindowManager.LayoutParams attributes = window.getAttributes();
            attributes.layoutInDisplayCutoutMode =
                    WindowManager.LayoutParams.LAYOUT_IN_DISPLAY_CUTOUT_MODE_SHORT_EDGES;
            window.setAttributes(attributes);
        }
        View decor = window.getDecorView();
        new WindowInsetsControllerCompat(window, decor).setAppearanceLightStatusBars(false);
        ViewCompat.setOnApplyWindowInsetsListener(decor, (view, insets) -> {
            Insets covered = insets.getInsets(
                    WindowInsetsCompat.Type.systemBars() | WindowInsetsCompat.Type.displayCutout());
            Bridge.insets(covered.top, covered.right, covered.bottom, covered.left);
            // Not consumed: GameActivity's own views still see them.
            return ViewCompat.onApplyWindowInsets(view, insets);
        });
        ViewCompat.requestApplyInsets(decor);
    }
}
