// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (the Android API). The real class's hierarchy
// and everything else are left out.
package android.view;

public class HapticFeedbackConstants {
    public static final int LONG_PRESS = 0;
    public static final int KEYBOARD_TAP = 3;
    public static final int CONFIRM = 16;
}
