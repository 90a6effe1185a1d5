package org.snapslide;

/**
 * The one door from the Java side into the Rust game. Its {@code native} methods are registered
 * by Rust with {@code RegisterNatives} (so no {@code Java_...} symbol names must stay in step),
 * through the activity's class loader. Free of Android classes, so that it compiles and runs on
 * any JVM: the bridge's test loads this very file into a JVM started from Rust.
 *
 * <p>Calls may come from any thread. Until Rust has registered the natives, results are dropped,
 * except the latest insets, preferences and link, which are kept and sent on registration (the
 * first layout, the first resume and the link that launched the app come before the game starts).
 */
public final class Bridge {
    /** The system photo picker. */
    public static final int ORIGIN_GALLERY = 0;
    /** The camera. */
    public static final int ORIGIN_CAMERA = 1;
    /** The tap for a tile that slid. */
    public static final int TAP_SLIDE = 0;
    /** The tap for a solved puzzle. */
    public static final int TAP_WIN = 1;

    private static final Object LOCK = new Object();
    private static boolean registered;
    private static int[] lastInsets;
    private static boolean havePreferences;
    private static float lastFontScale;
    private static boolean lastAnimationsOff;
    private static String waitingLink;

    private Bridge() {}

    /** A photo the player chose, as JPEG bytes, with a short name for it. */
    public static void photo(byte[] jpeg, String name) {
        if (isRegistered()) {
            nativePhoto(jpeg, name);
        }
    }

    /** The player closed the picker or the camera without a photo. */
    public static void cancelled() {
        if (isRegistered()) {
            nativeCancelled();
        }
    }

    /** No photo could be had; the reason is shown to the player. */
    public static void failed(String reason) {
        if (isRegistered()) {
            nativeFailed(reason);
        }
    }

    /**
     * The back button or gesture.
     *
     * @return whether the game took it (false before the game runs)
     */
    public static boolean back() {
        if (!isRegistered()) {
            return false;
        }
        nativeBack();
        return true;
    }

    /** The parts of the window the system draws over, in physical pixels from each edge. */
    public static void insets(int top, int right, int bottom, int left) {
        synchronized (LOCK) {
            lastInsets = new int[] {top, right, bottom, left};
            if (registered) {
                nativeInsets(top, right, bottom, left);
            }
        }
    }

    /**
     * The device's text size and whether animations are off, as the activity read them.
     *
     * @param fontScale the text scale, 1 for the normal size
     * @param animationsOff whether the animator duration scale is 0
     */
    public static void preferences(float fontScale, boolean animationsOff) {
        synchronized (LOCK) {
            havePreferences = true;
            lastFontScale = fontScale;
            lastAnimationsOff = animationsOff;
            if (registered) {
                nativePreferences(fontScale, animationsOff);
            }
        }
    }

    /**
     * A link that opened the app ({@code snapslide://c/CODE}), as the intent's data string. Before
     * the game runs, the latest one waits; it is sent once.
     */
    public static void link(String uri) {
        synchronized (LOCK) {
            if (registered) {
                nativeLink(uri);
            } else {
                waitingLink = uri;
            }
        }
    }

    /** The share sheet could not be opened; the reason is shown to the player. */
    public static void shareFailed(String reason) {
        if (isRegistered()) {
            nativeShareFailed(reason);
        }
    }

    /** Called by Rust once it has registered the natives: sends what waited. */
    static void onRegistered() {
        synchronized (LOCK) {
            registered = true;
            if (lastInsets != null) {
                nativeInsets(lastInsets[0], lastInsets[1], lastInsets[2], lastInsets[3]);
            }
            if (havePreferences) {
                nativePreferences(lastFontScale, lastAnimationsOff);
            }
            if (waitingLink != null) {
                nativeLink(waitingLink);
                waitingLink = null;
            }
        }
    }

    private static boolean isRegistered() {
        synchronized (LOCK) {
            return registered;
        }
    }

    private static native void nativePhoto(byte[] jpeg, String name);

    private static native void nativeCancelled();

    private static native void nativeFailed(String reason);

    private static native void nativeBack();

    private static native void nativeInsets(int top, int right, int bottom, int left);

    private static native void nativePreferences(float fontScale, boolean animationsOff);

    private static native void nativeLink(String uri);

    private static native void nativeShareFailed(String reason);
}
