//! Snapslide for Android: `cargo ndk -t arm64-v8a -P 26 -o android/app/src/main/jniLibs build
//! -p snapslide-android` builds this crate into `libsnapslide_android.so`, the library that
//! `MainActivity` (GameActivity) loads. The game's `#[bevy_main]` (in `src/lib.rs`) defines the
//! `android_main` that android-activity calls; linking the game in is all this crate does.
//! On other targets it is empty.

#[cfg(target_os = "android")]
pub use snapslide as game;
