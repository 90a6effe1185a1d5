// STUB for android/check.sh, never shipped: only what the app's Java uses, with the
// signatures published for it (androidx.lifecycle 2.x). The real class's hierarchy
// and everything else are left out.
package androidx.lifecycle;

public interface LifecycleOwner {}
