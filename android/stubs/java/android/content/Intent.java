// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (the Android API). The real class's hierarchy
// and everything else are left out.
package android.content;

import android.os.Parcelable;

public class Intent {
    public static final String ACTION_VIEW = "android.intent.action.VIEW";
    public static final String ACTION_SEND = "android.intent.action.SEND";
    public static final String EXTRA_TEXT = "android.intent.extra.TEXT";
    public static final String EXTRA_STREAM = "android.intent.extra.STREAM";
    public static final int FLAG_GRANT_READ_URI_PERMISSION = 0x00000001;
    public static final int FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY = 0x00100000;

    public Intent(String action) {}

    public static Intent createChooser(Intent target, CharSequence title) {
        return null;
    }

    public String getAction() {
        return null;
    }

    public String getDataString() {
        return null;
    }

    public int getFlags() {
        return 0;
    }

    public Intent setType(String type) {
        return this;
    }

    public Intent putExtra(String name, String value) {
        return this;
    }

    public Intent putExtra(String name, Parcelable value) {
        return this;
    }

    public Intent addFlags(int flags) {
        return this;
    }

    public void setClipData(ClipData clip) {}
}
