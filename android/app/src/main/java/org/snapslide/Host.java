package org.snapslide;

/**
 * What the game asks of the activity. Rust calls these methods on the activity object through
 * JNI, from the Java main thread; {@code MainActivity} implements them for Android, and the
 * bridge's JVM test implements them with a fake activity. Free of Android classes.
 */
public interface Host {
    /**
     * Asks the player for a photo. The answer arrives later through {@link Bridge#photo},
     * {@link Bridge#cancelled} or {@link Bridge#failed}.
     *
     * @param origin {@link Bridge#ORIGIN_GALLERY} or {@link Bridge#ORIGIN_CAMERA}
     */
    void pickPhoto(int origin);

    /**
     * A short haptic tap.
     *
     * @param kind {@link Bridge#TAP_SLIDE} or {@link Bridge#TAP_WIN}
     */
    void haptic(int kind);

    /**
     * Opens the system's share sheet for this text. A failure is told through
     * {@link Bridge#shareFailed}.
     */
    void shareText(String text);

    /**
     * Opens the system's share sheet for a file of the app's cache folder that its FileProvider
     * serves. A failure is told through {@link Bridge#shareFailed}.
     *
     * @param path the file's absolute path
     * @param mime its MIME type, such as {@code image/gif} or {@code text/csv}
     */
    void shareFile(String path, String mime);
}
