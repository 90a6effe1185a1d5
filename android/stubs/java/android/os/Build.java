// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (the Android API). The real class's hierarchy
// and everything else are left out.
package android.os;

public class Build {
    public static class VERSION {
        public static final int SDK_INT = Integer.getInteger("stub.sdk", 36);
    }

    public static class VERSION_CODES {
        public static final int P = 28;
        public static final int R = 30;
    }
}
