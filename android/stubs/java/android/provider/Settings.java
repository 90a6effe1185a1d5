// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (the Android API). The real class's hierarchy
// and everything else are left out.
package android.provider;

import android.content.ContentResolver;

public final class Settings {
    public static final class Global {
        public static final String ANIMATOR_DURATION_SCALE = "animator_duration_scale";

        public static float getFloat(ContentResolver cr, String name, float def) {
            return def;
        }
    }
}
