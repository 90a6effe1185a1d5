// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (games-activity 4.4). The real class's hierarchy
// and everything else are left out.
package com.google.androidgamesdk;

public class GameActivity extends androidx.activity.ComponentActivity {}
