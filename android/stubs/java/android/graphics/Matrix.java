// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (the Android API). The real class's hierarchy
// and everything else are left out.
package android.graphics;

public class Matrix {
    public boolean isIdentity() {
        return true;
    }

    public boolean postScale(float sx, float sy) {
        return true;
    }

    public boolean postRotate(float degrees) {
        return true;
    }
}
