//! What can go wrong between Rust and Java.

/// A failure of the bridge.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    /// A JNI call failed (a missing class or method, a Java exception, a detached thread).
    #[error("JNI: {0}")]
    Jni(#[from] jni::errors::Error),
    /// A raw pointer handed to the bridge was null.
    #[error("the {0} pointer is null")]
    NullPointer(&'static str),
}
