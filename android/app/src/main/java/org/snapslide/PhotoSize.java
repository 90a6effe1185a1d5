package org.snapslide;

/**
 * How far to shrink a photo before it crosses to the game: phone cameras take 12 to 50
 * megapixels, the board needs about 2048 pixels on the long side. Free of Android classes, so
 * that it is checked on any JVM.
 */
public final class PhotoSize {
    /** The long side of the photo handed to the game, in pixels. */
    public static final int MAX_SIDE = 2048;

    private PhotoSize() {}

    /**
     * The largest power of two to subsample by while decoding, so that the decoded image still
     * has at least {@code maxSide} pixels on its long side (1 for small photos or bad sizes).
     */
    public static int sampleSize(int width, int height, int maxSide) {
        int longSide = Math.max(width, height);
        if (width <= 0 || height <= 0 || maxSide <= 0) {
            return 1;
        }
        int sample = 1;
        while (longSide / (sample * 2) >= maxSide) {
            sample *= 2;
        }
        return sample;
    }

    /**
     * The size to scale a decoded image to: the same shape, the long side at most
     * {@code maxSide}, never larger than it is, never below one pixel.
     *
     * @return {width, height}
     */
    public static int[] scaledSize(int width, int height, int maxSide) {
        int longSide = Math.max(width, height);
        if (longSide <= maxSide || width <= 0 || height <= 0) {
            return new int[] {Math.max(width, 1), Math.max(height, 1)};
        }
        double scale = (double) maxSide / longSide;
        int w = (int) Math.max(1, Math.round(width * scale));
        int h = (int) Math.max(1, Math.round(height * scale));
        return new int[] {w, h};
    }

    /**
     * The clockwise rotation, in degrees, that an EXIF orientation (1 to 8) asks for, applied
     * after the mirroring that orientations 2, 4, 5 and 7 also need ({@link #exifMirrored}).
     */
    public static int exifRotation(int orientation) {
        switch (orientation) {
            case 3: // rotated 180
            case 4: // flipped vertically: mirrored, then 180
                return 180;
            case 6: // rotated 90 clockwise
            case 7: // transverse: mirrored, then 90
                return 90;
            case 5: // transpose: mirrored, then 270
            case 8: // rotated 270 clockwise
                return 270;
            default:
                return 0;
        }
    }

    /** Whether an EXIF orientation mirrors the image (before its rotation). */
    public static boolean exifMirrored(int orientation) {
        return orientation == 2 || orientation == 4 || orientation == 5 || orientation == 7;
    }
}
