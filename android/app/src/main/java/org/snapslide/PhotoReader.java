package org.snapslide;

import android.content.ContentResolver;
import android.database.Cursor;
import android.graphics.Bitmap;
import android.graphics.BitmapFactory;
import android.graphics.Matrix;
import android.net.Uri;
import android.provider.OpenableColumns;
import androidx.exifinterface.media.ExifInterface;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a chosen photo, turns it upright (EXIF orientation), scales it down to what the board
 * needs ({@link PhotoSize}) and encodes it as JPEG, so that 12 to 50 megapixels never cross to
 * Rust. Runs off the main thread.
 */
final class PhotoReader {
    private static final int JPEG_QUALITY = 90;

    private PhotoReader() {}

    /** Hands the photo, or why it could not be read, to {@link Bridge}. */
    static void deliver(ContentResolver resolver, Uri uri, String name) {
        try {
            Bridge.photo(uprightJpeg(resolver, uri), name);
        } catch (IOException | RuntimeException e) {
            Bridge.failed("the photo could not be read");
        } catch (OutOfMemoryError e) {
            Bridge.failed("the photo is too large for this phone");
        }
    }

    /** The photo's name for the game, or "Photo". */
    static String displayName(ContentResolver resolver, Uri uri) {
        String[] columns = {OpenableColumns.DISPLAY_NAME};
        try (Cursor cursor = resolver.query(uri, columns, null, null, null)) {
            if (cursor != null && cursor.moveToFirst() && !cursor.isNull(0)) {
                return cursor.getString(0);
            }
        } catch (RuntimeException e) {
            // Some providers refuse the query; the name is only for show.
        }
        return "Photo";
    }

    private static byte[] uprightJpeg(ContentResolver resolver, Uri uri) throws IOException {
        BitmapFactory.Options bounds = new BitmapFactory.Options();
        bounds.inJustDecodeBounds = true;
        try (InputStream in = open(resolver, uri)) {
            BitmapFactory.decodeStream(in, null, bounds);
        }
        if (bounds.outWidth <= 0 || bounds.outHeight <= 0) {
            throw new IOException("not an image");
        }
        BitmapFactory.Options options = new BitmapFactory.Options();
        options.inSampleSize =
                PhotoSize.sampleSize(bounds.outWidth, bounds.outHeight, PhotoSize.MAX_SIDE);
        Bitmap decoded;
        try (InputStream in = open(resolver, uri)) {
            decoded = BitmapFactory.decodeStream(in, null, options);
        }
        if (decoded == null) {
            throw new IOException("the image could not be decoded");
        }
        Bitmap upright = transform(decoded, orientation(resolver, uri));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (!upright.compress(Bitmap.CompressFormat.JPEG, JPEG_QUALITY, out)) {
            throw new IOException("the image could not be encoded");
        }
        return out.toByteArray();
    }

    /** Scales to at most {@link PhotoSize#MAX_SIDE}, mirrors and rotates as EXIF says. */
    private static Bitmap transform(Bitmap bitmap, int orientation) {
        int width = bitmap.getWidth();
        int height = bitmap.getHeight();
        int[] size = PhotoSize.scaledSize(width, height, PhotoSize.MAX_SIDE);
        Matrix matrix = new Matrix();
        matrix.postScale((float) size[0] / width, (float) size[1] / height);
        if (PhotoSize.exifMirrored(orientation)) {
            matrix.postScale(-1f, 1f);
        }
        matrix.postRotate(PhotoSize.exifRotation(orientation));
        if (matrix.isIdentity()) {
            return bitmap;
        }
        return Bitmap.createBitmap(bitmap, 0, 0, width, height, matrix, true);
    }

    private static int orientation(ContentResolver resolver, Uri uri) {
        try (InputStream in = open(resolver, uri)) {
            return new ExifInterface(in).getAttributeInt(
                    ExifInterface.TAG_ORIENTATION, ExifInterface.ORIENTATION_NORMAL);
        } catch (IOException | RuntimeException e) {
            return ExifInterface.ORIENTATION_NORMAL;
        }
    }

    private static InputStream open(ContentResolver resolver, Uri uri) throws IOException {
        InputStream in = resolver.openInputStream(uri);
        if (in == null) {
            throw new FileNotFoundException(uri.toString());
        }
        return in;
    }
}
