//! Snapslide's JNI bridge between the Android activity and the game, with no Bevy in it.
//!
//! - Java → Rust: the `native` methods of the Android-free class `org.snapslide.Bridge`
//!   (`android/app/src/main/java/org/snapslide/Bridge.java`) are registered with
//!   `RegisterNatives` ([`Bridge::register`]) on the class found through the activity's class
//!   loader, never `FindClass` from a native thread. Each call becomes a [`BridgeEvent`] handed
//!   to the [`Sink`] the app installed.
//! - Rust → Java: [`Bridge::pick_photo`], [`Bridge::haptic`], [`Bridge::share_text`] and
//!   [`Bridge::share_file`] call the methods of the `org.snapslide.Host` interface on the
//!   activity object.
//!
//! The descriptors of both sides are listed by [`native_methods`] and [`host_methods`]; the JVM test
//! compares them with `javap -s` of the compiled classes.

mod error;
mod event;
mod host;
mod natives;

pub use error::BridgeError;
pub use event::{BridgeEvent, Insets, LogicalInsets, Origin, Preferences, Sink, Tap};
pub use host::{Bridge, host_methods};
pub use natives::native_methods;

/// The `jni` crate this bridge is built on (the one android-activity uses).
pub use jni;
