//! Android: the system photo picker and the camera, back, insets, haptics, the device's text
//! size and animation setting, the share sheet (`ACTION_SEND` through the chooser, for text and
//! for a file) and challenge links (the manifest's intent filter for `snapslide://c/…`, the
//! intent's data sent by `MainActivity` at launch and on `onNewIntent`), through the JNI bridge
//! (`android/bridge`, no Bevy in it) to `MainActivity`. Every JNI call runs on Java's main
//! thread (`run_on_java_main_thread`), so Bevy's threads never attach to the JVM.
//!
//! A file to share is first copied into the cache folder that the FileProvider serves
//! ([`copy_to_shared`]).
//!
//! The activity sends the text size and animations unasked (at start, on resume, when the
//! configuration changes), so [`Platform::ask_preferences`] keeps its default here.
//!
//! Insets arrive in physical pixels; [`safe_area`] divides them by the window's scale factor
//! and hands the app a [`SafeArea`] in logical pixels whenever either changes.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use bevy::android::ANDROID_APP;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use snapslide_android_bridge::{
    Bridge, BridgeError, BridgeEvent, Insets, Origin, Preferences, Tap,
};

use super::links::link_event;
use super::shared_file::copy_to_shared;
use super::{Haptic, Inbox, Platform, PlatformEvent, PlatformHandle};
use super::{SafeArea, SystemPreferences};
use crate::frame::AppSet;
use crate::messages::PhotoOrigin;

/// The bridge, once made and registered on Java's main thread.
type SharedBridge = Arc<OnceLock<Bridge>>;

/// The Android platform.
pub struct Android {
    bridge: SharedBridge,
    /// Where a share that fails on Java's main thread is told.
    inbox: Inbox,
}

impl Android {
    /// Runs `call` with the bridge on Java's main thread; a failure there is told as
    /// [`PlatformEvent::ShareFailed`]. Refused at once before the bridge is connected.
    fn share_on_java_main_thread(
        &self,
        call: impl FnOnce(&Bridge) -> Result<(), BridgeError> + Send + 'static,
    ) -> Result<(), String> {
        if self.bridge.get().is_none() {
            return Err("the game is not connected to Android yet".into());
        }
        let bridge = Arc::clone(&self.bridge);
        let inbox = self.inbox.clone();
        on_java_main_thread(move || {
            let called = bridge.get().map(call);
            if let Some(Err(error)) = called {
                warn!("the share sheet did not open: {error}");
                inbox.push(PlatformEvent::ShareFailed(
                    "the share sheet did not open".into(),
                ));
            }
        });
        Ok(())
    }
}

impl Platform for Android {
    fn photo_origins(&self) -> &'static [PhotoOrigin] {
        &[PhotoOrigin::Gallery, PhotoOrigin::Camera]
    }

    fn pick_photo(&self, origin: PhotoOrigin, inbox: Inbox) {
        let origin = match origin {
            PhotoOrigin::Gallery => Origin::Gallery,
            PhotoOrigin::Camera => Origin::Camera,
        };
        let bridge = Arc::clone(&self.bridge);
        on_java_main_thread(move || {
            let asked = match bridge.get() {
                Some(bridge) => bridge.pick_photo(origin).map_err(|e| e.to_string()),
                None => Err("the game is not connected to Android yet".into()),
            };
            if let Err(why) = asked {
                inbox.push(PlatformEvent::PhotoFailed(why));
            }
        });
    }

    fn haptic(&self, haptic: Haptic) {
        let tap = match haptic {
            Haptic::Slide => Tap::Slide,
            Haptic::Win => Tap::Win,
        };
        let bridge = Arc::clone(&self.bridge);
        on_java_main_thread(move || {
            if let Some(Err(error)) = bridge.get().map(|bridge| bridge.haptic(tap)) {
                warn!("no haptic tap: {error}");
            }
        });
    }

    /// The system's share sheet (`ACTION_SEND`, `text/plain`, through the chooser).
    fn share_text(&self, text: &str) -> Result<(), String> {
        let text = text.to_owned();
        self.share_on_java_main_thread(move |bridge| bridge.share_text(&text))
    }

    fn shares_by_sheet(&self) -> bool {
        true
    }

    /// The share sheet for a copy of the file in the FileProvider's shared folder
    /// (`ACTION_SEND` with `EXTRA_STREAM`, the receiver allowed to read it).
    fn share_file(&self, path: &Path, mime: &str) -> Result<(), String> {
        let cache = cache_dir().ok_or("the app's cache folder is unknown")?;
        let shared = copy_to_shared(path, &cache)?;
        let shared = shared
            .to_str()
            .ok_or("the file's name cannot be handed to Android")?
            .to_owned();
        let mime = mime.to_owned();
        self.share_on_java_main_thread(move |bridge| bridge.share_file(&shared, &mime))
    }
}

/// Runs `work` on Java's main thread (where JNI calls belong and the activity lives).
fn on_java_main_thread(work: impl FnOnce() + Send + 'static) {
    match ANDROID_APP.get() {
        Some(app) => app.run_on_java_main_thread(Box::new(work)),
        None => warn!("no AndroidApp: the game was not started by android_main"),
    }
}

/// The app's data folder: Android's internal storage for the app. (The `directories` crate
/// answers from `$HOME`, which Android apps do not have.)
pub(super) fn data_dir() -> Option<PathBuf> {
    ANDROID_APP.get()?.internal_data_path()
}

/// The app's cache folder (`Context.getCacheDir()`): `cache` beside the internal `files`
/// folder.
fn cache_dir() -> Option<PathBuf> {
    Some(data_dir()?.parent()?.join("cache"))
}

/// The last insets the activity reported, in physical pixels.
#[derive(Resource, Clone, Default)]
struct PhysicalInsets(Arc<Mutex<Option<Insets>>>);

impl PhysicalInsets {
    fn set(&self, insets: Insets) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(insets);
    }

    fn get(&self) -> Option<Insets> {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

pub(super) fn plugin(app: &mut App) {
    let inbox = Inbox::clone(&app.world_mut().get_resource_or_init::<Inbox>());
    let insets = PhysicalInsets::default();
    let bridge = SharedBridge::default();
    connect(Arc::clone(&bridge), inbox.clone(), insets.clone());
    app.insert_resource(PlatformHandle(Box::new(Android { bridge, inbox })))
        .insert_resource(insets)
        .add_systems(Update, safe_area.in_set(AppSet::Input));
}

/// Makes the bridge and registers the natives, on Java's main thread; from then on the
/// activity's answers go to the inbox (insets to [`PhysicalInsets`]).
fn connect(cell: SharedBridge, inbox: Inbox, insets: PhysicalInsets) {
    on_java_main_thread(move || {
        let Some(app) = ANDROID_APP.get() else {
            return;
        };
        // SAFETY: android-activity hands out the process's JavaVM and a live global reference
        // to the activity, which implements org.snapslide.Host (MainActivity).
        let made = unsafe { Bridge::from_raw(app.vm_as_ptr(), app.activity_as_ptr()) };
        let bridge = match made {
            Ok(bridge) => bridge,
            Err(error) => {
                error!("no Android bridge: {error}");
                return;
            }
        };
        let sink = move |event: BridgeEvent| match event {
            BridgeEvent::Photo { bytes, name } => inbox.push(PlatformEvent::Photo { bytes, name }),
            BridgeEvent::Cancelled => inbox.push(PlatformEvent::PhotoCancelled),
            BridgeEvent::Failed(reason) => inbox.push(PlatformEvent::PhotoFailed(reason)),
            BridgeEvent::Back => inbox.push(PlatformEvent::Back),
            BridgeEvent::Insets(physical) => insets.set(physical),
            BridgeEvent::Preferences(read) => {
                inbox.push(PlatformEvent::Preferences(system_preferences(read)));
            }
            BridgeEvent::Link(uri) => match link_event(&uri) {
                Some(event) => inbox.push(event),
                None => warn!("not a challenge link, ignored: {uri:.80}"),
            },
            BridgeEvent::ShareFailed(reason) => inbox.push(PlatformEvent::ShareFailed(reason)),
        };
        match bridge.register(Arc::new(sink)) {
            Ok(()) => {
                let _ = cell.set(bridge);
            }
            Err(error) => error!("the Android bridge's natives could not be registered: {error}"),
        }
    });
}

/// The activity's reading as the app's: a font scale where Android gave one, and calm motion
/// when animations are off (Android always tells whether they are).
fn system_preferences(read: Preferences) -> SystemPreferences {
    SystemPreferences {
        font_scale: read.font_scale,
        reduce_motion: Some(read.animations_off),
    }
}

/// Hands the app the safe area in logical pixels when the insets or the scale factor change.
fn safe_area(
    insets: Res<PhysicalInsets>,
    window: Query<&Window, With<PrimaryWindow>>,
    inbox: Res<Inbox>,
    mut sent: Local<Option<(Insets, f32)>>,
) {
    let (Some(physical), Ok(window)) = (insets.get(), window.single()) else {
        return;
    };
    let now = (physical, window.scale_factor());
    if *sent == Some(now) {
        return;
    }
    *sent = Some(now);
    let logical = physical.logical(now.1);
    inbox.push(PlatformEvent::SafeArea(SafeArea {
        top: logical.top,
        right: logical.right,
        bottom: logical.bottom,
        left: logical.left,
    }));
}
