// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.activity 1.x). The real class's hierarchy
// and everything else are left out.
package androidx.activity;

public abstract class OnBackPressedCallback {
    public OnBackPressedCallback(boolean enabled) {}

    public final void setEnabled(boolean enabled) {}

    public abstract void handleOnBackPressed();
}
