// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (the Android API). The real class's hierarchy
// and everything else are left out.
package android.view;

public class KeyEvent {
    public static final int KEYCODE_BACK = 4;
    public static final int ACTION_UP = 1;

    public final int getKeyCode() {
        return 0;
    }

    public final int getAction() {
        return 0;
    }

    public final boolean isCanceled() {
        return false;
    }
}
