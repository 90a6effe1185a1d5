package org.snapslide;

import android.content.Intent;
import android.content.res.Configuration;
import android.os.Build;
import android.os.Bundle;
import android.view.HapticFeedbackConstants;
import android.view.KeyEvent;
import com.google.androidgamesdk.GameActivity;

/**
 * The game's activity: GameActivity runs the Rust game (libsnapslide_android.so), this class
 * only wires what the game asks ({@link Host}) and what the system says (back, insets, text size
 * and animations, a challenge link) to {@link Bridge}. The photo sources, back, sharing, the
 * system bars and the system's preferences live in classes of their own.
 */
public class MainActivity extends GameActivity implements Host {
    static {
        System.loadLibrary("snapslide_android");
    }

    private PhotoSources photos;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        // The result launchers must be registered before the activity starts.
        photos = new PhotoSources(this);
        super.onCreate(savedInstanceState);
        SystemBars.edgeToEdge(this);
        getOnBackPressedDispatcher().addCallback(this, new GameBack(this));
        if (savedInstanceState == null) {
            Sharing.sendLink(getIntent());
        }
    }

    /** A link opened while the game runs (singleTask: this activity receives it). */
    @Override
    protected void onNewIntent(Intent intent) {
        super.onNewIntent(intent);
        setIntent(intent);
        Sharing.sendLink(intent);
    }

    @Override
    protected void onResume() {
        super.onResume();
        SystemPreferences.send(this);
    }

    /** The manifest keeps the activity through a text size change ({@code fontScale}). */
    @Override
    public void onConfigurationChanged(Configuration newConfig) {
        super.onConfigurationChanged(newConfig);
        SystemPreferences.send(this);
    }

    /**
     * The back key goes to the dispatcher, not to the game as a key, so that back reaches the
     * game once, the same way on every Android version (predictive back sends no key).
     */
    @Override
    public boolean dispatchKeyEvent(KeyEvent event) {
        if (event.getKeyCode() != KeyEvent.KEYCODE_BACK) {
            return super.dispatchKeyEvent(event);
        }
        if (event.getAction() == KeyEvent.ACTION_UP && !event.isCanceled()) {
            getOnBackPressedDispatcher().onBackPressed();
        }
        return true;
    }

    @Override
    public void pickPhoto(int origin) {
        runOnUiThread(() -> photos.pick(origin));
    }

    @Override
    public void haptic(int kind) {
        int feedback = HapticFeedbackConstants.KEYBOARD_TAP;
        if (kind == Bridge.TAP_WIN) {
            feedback = Build.VERSION.SDK_INT >= Build.VERSION_CODES.R
                    ? HapticFeedbackConstants.CONFIRM
                    : HapticFeedbackConstants.LONG_PRESS;
        }
        int chosen = feedback;
        runOnUiThread(() -> getWindow().getDecorView().performHapticFeedback(chosen));
    }

    @Override
    public void shareText(String text) {
        runOnUiThread(() -> Sharing.text(this, text));
    }

    @Override
    public void shareFile(String path, String mime) {
        runOnUiThread(() -> Sharing.file(this, path, mime));
    }
}
