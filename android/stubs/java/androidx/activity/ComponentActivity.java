// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.activity 1.x). The real class's hierarchy
// and everything else are left out.
package androidx.activity;

import android.app.Activity;
import androidx.activity.result.ActivityResultCallback;
import androidx.activity.result.ActivityResultLauncher;
import androidx.activity.result.contract.ActivityResultContract;
import androidx.lifecycle.LifecycleOwner;

public class ComponentActivity extends Activity implements LifecycleOwner {
    public final OnBackPressedDispatcher getOnBackPressedDispatcher() {
        return null;
    }

    public final <I, O> ActivityResultLauncher<I> registerForActivityResult(
            ActivityResultContract<I, O> contract, ActivityResultCallback<O> callback) {
        return null;
    }
}
