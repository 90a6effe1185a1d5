package org.snapslide;

import androidx.activity.ComponentActivity;
import androidx.activity.OnBackPressedCallback;

/** Back closes the game's dialog or pauses it; before the game runs, the system decides. */
final class GameBack extends OnBackPressedCallback {
    private final ComponentActivity activity;

    GameBack(ComponentActivity activity) {
        super(true);
        this.activity = activity;
    }

    @Override
    public void handleOnBackPressed() {
        if (!Bridge.back()) {
            setEnabled(false);
            activity.getOnBackPressedDispatcher().onBackPressed();
            setEnabled(true);
        }
    }
}
