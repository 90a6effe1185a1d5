// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.activity 1.x). The real class's hierarchy
// and everything else are left out.
package androidx.activity;

import androidx.lifecycle.LifecycleOwner;

public final class OnBackPressedDispatcher {
    public final void addCallback(LifecycleOwner owner, OnBackPressedCallback onBackPressedCallback) {}

    public final void onBackPressed() {}
}
