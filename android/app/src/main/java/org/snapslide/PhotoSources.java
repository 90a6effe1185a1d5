package org.snapslide;

import android.content.ActivityNotFoundException;
import android.content.ContentResolver;
import android.net.Uri;
import androidx.activity.ComponentActivity;
import androidx.activity.result.ActivityResultLauncher;
import androidx.activity.result.PickVisualMediaRequest;
import androidx.activity.result.contract.ActivityResultContracts;
import androidx.core.content.FileProvider;
import java.io.File;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The two places a photo comes from: the system photo picker (no storage permission) and the
 * camera app (no CAMERA permission: the camera app takes the photo into a file of ours). The
 * chosen photo is read off the main thread and handed to {@link Bridge}.
 */
final class PhotoSources {
    /** The FileProvider's authority, as the manifest declares it. */
    static final String AUTHORITY = "org.snapslide.photos";
    /** Where the camera app writes, under the cache folder (res/xml/photo_paths.xml). */
    private static final String CAMERA_DIR = "camera";

    private final ComponentActivity activity;
    private final ActivityResultLauncher<PickVisualMediaRequest> gallery;
    private final ActivityResultLauncher<Uri> camera;
    private final ExecutorService reader = Executors.newSingleThreadExecutor();

    PhotoSources(ComponentActivity activity) {
        this.activity = activity;
        gallery = activity.registerForActivityResult(
                new ActivityResultContracts.PickVisualMedia(), this::picked);
        camera = activity.registerForActivityResult(
                new ActivityResultContracts.TakePicture(), this::taken);
    }

    /** Opens the picker or the camera; the answer goes to {@link Bridge}. Main thread. */
    void pick(int origin) {
        try {
            if (origin == Bridge.ORIGIN_CAMERA) {
                camera.launch(captureUri());
            } else {
                gallery.launch(new PickVisualMediaRequest.Builder()
                        .setMediaType(ActivityResultContracts.PickVisualMedia.ImageOnly.INSTANCE)
                        .build());
            }
        } catch (ActivityNotFoundException e) {
            Bridge.failed(origin == Bridge.ORIGIN_CAMERA
                    ? "this phone has no camera app"
                    : "this phone has no photo picker");
        } catch (IllegalArgumentException | SecurityException e) {
            Bridge.failed("the camera could not be opened");
        }
    }

    private void picked(Uri uri) {
        if (uri == null) {
            Bridge.cancelled();
            return;
        }
        read(uri, null, null);
    }

    private void taken(Boolean saved) {
        File file = captureFile();
        if (!Boolean.TRUE.equals(saved)) {
            file.delete();
            Bridge.cancelled();
            return;
        }
        read(captureUri(), "Camera photo", file);
    }

    /**
     * Reads the photo off the main thread (named by its provider when {@code name} is null),
     * then deletes the camera's file, if any.
     */
    private void read(Uri uri, String name, File temporary) {
        ContentResolver resolver = activity.getContentResolver();
        reader.execute(() -> {
            String shown = name != null ? name : PhotoReader.displayName(resolver, uri);
            PhotoReader.deliver(resolver, uri, shown);
            if (temporary != null) {
                temporary.delete();
            }
        });
    }

    private File captureFile() {
        File dir = new File(activity.getCacheDir(), CAMERA_DIR);
        dir.mkdirs();
        return new File(dir, "capture.jpg");
    }

    private Uri captureUri() {
        return FileProvider.getUriForFile(activity, AUTHORITY, captureFile());
    }
}
