// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (the Android API). The real class's hierarchy
// and everything else are left out.
package android.app;

import android.content.ContentResolver;
import android.content.Context;
import android.content.Intent;
import android.content.res.Configuration;
import android.content.res.Resources;
import android.os.Bundle;
import android.view.KeyEvent;
import android.view.Window;
import java.io.File;

public class Activity extends Context {
    @Override
    public ContentResolver getContentResolver() {
        return null;
    }

    @Override
    public File getCacheDir() {
        return null;
    }

    @Override
    public Resources getResources() {
        return null;
    }

    public Window getWindow() {
        return null;
    }

    public final void runOnUiThread(Runnable action) {}

    public Intent getIntent() {
        return null;
    }

    public void setIntent(Intent newIntent) {}

    public void startActivity(Intent intent) {}

    protected void onCreate(Bundle savedInstanceState) {}

    protected void onNewIntent(Intent intent) {}

    protected void onResume() {}

    public void onConfigurationChanged(Configuration newConfig) {}

    public boolean dispatchKeyEvent(KeyEvent event) {
        return false;
    }
}
