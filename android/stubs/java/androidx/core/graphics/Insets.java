// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.core 1.x). The real class's hierarchy
// and everything else are left out.
package androidx.core.graphics;

public final class Insets {
    public final int left;
    public final int top;
    public final int right;
    public final int bottom;

    private Insets(int left, int top, int right, int bottom) {
        this.left = left;
        this.top = top;
        this.right = right;
        this.bottom = bottom;
    }
}
