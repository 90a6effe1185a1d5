package org.snapslide;

import android.app.Activity;
import android.content.ActivityNotFoundException;
import android.content.ClipData;
import android.content.Intent;
import android.net.Uri;
import androidx.core.content.FileProvider;
import java.io.File;

/**
 * The system's share sheet ({@code ACTION_SEND} through the chooser) for text and for a file, and
 * the challenge link that opened the activity. Main thread. What fails is told through {@link
 * Bridge#shareFailed}.
 */
final class Sharing {
    private Sharing() {}

    /** Opens the share sheet for plain text. */
    static void text(Activity activity, String text) {
        Intent send = new Intent(Intent.ACTION_SEND);
        send.setType("text/plain");
        send.putExtra(Intent.EXTRA_TEXT, text);
        start(activity, send);
    }

    /**
     * Opens the share sheet for a file the FileProvider serves (res/xml/photo_paths.xml), the
     * receiving app allowed to read it.
     */
    static void file(Activity activity, String path, String mime) {
        Uri uri;
        try {
            uri = FileProvider.getUriForFile(activity, PhotoSources.AUTHORITY, new File(path));
        } catch (IllegalArgumentException e) {
            Bridge.shareFailed("the file is not in a folder the app shares");
            return;
        }
        Intent send = new Intent(Intent.ACTION_SEND);
        send.setType(mime);
        send.putExtra(Intent.EXTRA_STREAM, uri);
        // The chooser hands the read permission on only with the URI in the ClipData.
        send.setClipData(ClipData.newRawUri("", uri));
        send.addFlags(Intent.FLAG_GRANT_READ_URI_PERMISSION);
        start(activity, send);
    }

    /**
     * Hands the game the link of an intent that opened the activity ({@code snapslide://c/CODE}),
     * unless it is the old intent of an activity relaunched from the recent apps.
     */
    static void sendLink(Intent intent) {
        if (intent == null || !Intent.ACTION_VIEW.equals(intent.getAction())) {
            return;
        }
        String link = intent.getDataString();
        if (link != null && (intent.getFlags() & Intent.FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY) == 0) {
            Bridge.link(link);
        }
    }

    private static void start(Activity activity, Intent send) {
        try {
            activity.startActivity(Intent.createChooser(send, null));
        } catch (ActivityNotFoundException e) {
            Bridge.shareFailed("this phone has no app to share with");
        }
    }
}
