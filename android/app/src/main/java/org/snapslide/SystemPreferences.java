package org.snapslide;

import android.app.Activity;
import android.provider.Settings;

/**
 * The device's text size and animation setting, for the game's "Device" text size and calm
 * motion. Read at start, on resume (the player may have changed them in Settings) and when the
 * configuration changes (the text size does not restart the activity).
 */
final class SystemPreferences {
    private SystemPreferences() {}

    /** Reads the text scale and whether animations are off, and sends them to the game. */
    static void send(Activity activity) {
        float fontScale = activity.getResources().getConfiguration().fontScale;
        // Settings → Accessibility → "Remove animations" sets the animator duration scale to 0.
        float animatorScale = Settings.Global.getFloat(
                activity.getContentResolver(), Settings.Global.ANIMATOR_DURATION_SCALE, 1f);
        Bridge.preferences(fontScale, animatorScale == 0f);
    }
}
