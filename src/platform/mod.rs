//! The platform: the one small interface through which the app asks the phone or the desktop
//! for things, and hears back. The game, the HUD and the photo pipeline never ask which
//! platform they run on; they write [`PickPhoto`] and read [`PhotoArrived`], [`Back`] and
//! [`Notice`] messages, and the [`SafeArea`] resource, which this module owns.
//!
//! Answers come back through the [`Inbox`], from any thread (a file dialog's task, Android's
//! Java main thread, an iOS delegate). The inbox is read once a frame while the app runs;
//! while it is suspended, answers wait there, queued, not lost.
//!
//! - desktop: the file dialog and drag and drop, the clipboard (`desktop.rs`);
//! - Android: the system photo picker and the camera, the share sheet and challenge links
//!   through JNI (`android.rs`);
//! - iOS: PHPicker and the camera, the share sheet and challenge links through UIKit
//!   (`ios.rs`); the links' rules in `links.rs`.

#[cfg(target_os = "android")]
mod android;
#[cfg(any(target_os = "ios", test))]
mod content_size;
#[cfg(not(any(target_os = "android", target_os = "ios")))]
mod desktop;
// Linux's desktops only (`make phone-check` type-checks the phones' code on a Linux host).
#[cfg(all(
    target_os = "linux",
    not(any(target_os = "android", target_os = "ios"))
))]
pub mod desktop_notice;
// Desktops with local sockets: a second launch hands its challenge to the running copy.
#[cfg(all(unix, not(any(target_os = "android", target_os = "ios"))))]
pub mod handoff;
#[cfg(target_os = "ios")]
mod ios;
#[cfg(any(target_os = "android", target_os = "ios", test))]
mod links;
#[cfg(any(target_os = "ios", test))]
mod picker_slot;
#[cfg(any(target_os = "android", test))]
mod shared_file;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;

use crate::app::background::lock;
use crate::app::lifecycle::Suspended;
use crate::app::redraw::FrameRequest;
use crate::frame::AppSet;
use crate::messages::{
    Back, Change, GameChanged, NoFileDialog, Notice, OpenChallenge, PasteChallenge, PhotoArrived,
    PhotoOrigin, PickPhoto, ShareFile, ShareText,
};
use crate::play::settings::Settings;

/// The parts of the screen the platform draws over (status bar, notch, home indicator), in
/// logical pixels from each edge, as the platform last said.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct SafeArea {
    /// From the top edge.
    pub top: f32,
    /// From the right edge.
    pub right: f32,
    /// From the bottom edge.
    pub bottom: f32,
    /// From the left edge.
    pub left: f32,
}

/// What the device says of the player's needs: its text size (a scale, 1 for normal) and
/// whether it asks for less motion, where it tells them (`None` where it does not).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct SystemPreferences {
    /// The device's text scale.
    pub font_scale: Option<f32>,
    /// Whether the device asks for less motion.
    pub reduce_motion: Option<bool>,
}

/// A haptic tap, by what happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Haptic {
    /// A tile slid.
    Slide,
    /// The puzzle is solved.
    Win,
}

/// What the platform can do for the app. Each platform implements it once.
pub trait Platform: Send + Sync + 'static {
    /// The places a photo can come from here, in the order the menu offers them.
    fn photo_origins(&self) -> &'static [PhotoOrigin];
    /// Asks the player for a photo; the answer arrives later in the inbox.
    fn pick_photo(&self, origin: PhotoOrigin, inbox: Inbox);
    /// A haptic tap, where the device has haptics.
    fn haptic(&self, haptic: Haptic);
    /// Whether the app offers Quit (a phone's apps are left, not quit).
    fn offers_quit(&self) -> bool {
        false
    }
    /// Asks the device for its text size and motion settings; the answer comes to the inbox
    /// ([`PlatformEvent::Preferences`]). Nothing by default: a device that cannot tell.
    fn ask_preferences(&self, _inbox: Inbox) {}
    /// Hands text on to be sent (the clipboard on the desktop); whether it was. By default it
    /// is not, and the player copies it from the sheet that shows it.
    fn share_text(&self, _text: &str) -> Result<(), String> {
        Err("sharing is not built for this device yet".into())
    }
    /// Whether [`Platform::share_text`] opens the system's share sheet (phones) rather than
    /// copying the text (the desktop), for the words around it.
    fn shares_by_sheet(&self) -> bool {
        false
    }
    /// Hands a file on to be sent (the share sheet on phones: a replay's GIF, an export), with
    /// its MIME type; whether the sheet was handed it (a failure after that comes as
    /// [`PlatformEvent::ShareFailed`]). By default it is not: on the desktop the app writes
    /// such files where the player finds them.
    fn share_file(&self, _path: &Path, _mime: &str) -> Result<(), String> {
        Err("this device has no share sheet".into())
    }
    /// Saves a file for the player to keep where such files go (a desktop's Pictures or
    /// Documents folder); the path it was saved as. By default it is not: phones share it.
    fn save_file(&self, _name: &str, _bytes: &[u8], _mime: &str) -> Result<PathBuf, String> {
        Err("this device has no folder for the player's files".into())
    }
    /// The text on the clipboard, to paste a challenge code; `None` where none can be read.
    fn clipboard_text(&self) -> Option<String> {
        None
    }
}

/// What the platform tells the app.
#[derive(Clone, Debug, PartialEq)]
pub enum PlatformEvent {
    /// A photo the player chose, as an image file's bytes.
    Photo {
        /// The encoded image.
        bytes: Vec<u8>,
        /// A short name for it.
        name: String,
    },
    /// The player closed the picker without choosing.
    PhotoCancelled,
    /// The photo could not be had (no camera, a denied permission, an unreadable file).
    PhotoFailed(String),
    /// The system's file dialog could not open: the app's own is offered.
    NoFileDialog,
    /// The back button or gesture.
    Back,
    /// The parts of the screen the system draws over changed.
    SafeArea(SafeArea),
    /// The device's text size or motion setting, as it tells them.
    Preferences(SystemPreferences),
    /// The system asks the app to end (on the desktop a signal: Ctrl+C, SIGTERM): the game is
    /// saved and the app quits.
    Quit,
    /// A challenge link opened the app (`snapslide://c/CODE`, tapped in a message on a phone),
    /// as the system gave it: opened as a pasted code is.
    OpenLink(String),
    /// The share sheet could not be opened after all; the reason is for the player.
    ShareFailed(String),
}

/// The platform's answers, waiting for the next running frame. Cheap to clone; every clone
/// is the same queue. A push wakes the app when it sleeps between inputs.
#[derive(Resource, Clone, Default)]
pub struct Inbox {
    events: Arc<Mutex<VecDeque<PlatformEvent>>>,
    waker: Arc<Mutex<Option<Waker>>>,
}

/// Wakes the app's event loop.
pub type Waker = Box<dyn Fn() + Send>;

impl std::fmt::Debug for Inbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inbox")
            .field("waiting", &self.len())
            .finish()
    }
}

impl Inbox {
    /// Queues an event (from any thread) and wakes the app.
    pub fn push(&self, event: PlatformEvent) {
        lock(&self.events).push_back(event);
        if let Some(wake) = lock(&self.waker).as_ref() {
            wake();
        }
    }

    /// Takes every event queued so far, oldest first.
    pub fn take_all(&self) -> Vec<PlatformEvent> {
        lock(&self.events).drain(..).collect()
    }

    /// How many events wait.
    pub fn len(&self) -> usize {
        lock(&self.events).len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What wakes the app when an event arrives.
    pub fn set_waker(&self, waker: Waker) {
        *lock(&self.waker) = Some(waker);
    }
}

/// The platform the app runs on.
#[derive(Resource)]
pub struct PlatformHandle(pub Box<dyn Platform>);

/// A platform that offers nothing: for the headless tests, and a fallback.
pub struct Headless;

impl Platform for Headless {
    fn photo_origins(&self) -> &'static [PhotoOrigin] {
        &[]
    }
    fn pick_photo(&self, _origin: PhotoOrigin, inbox: Inbox) {
        inbox.push(PlatformEvent::PhotoFailed(
            "this device cannot pick photos".into(),
        ));
    }
    fn haptic(&self, _haptic: Haptic) {}
}

/// The folder for the app's files (settings, scores, the game, the player's photos):
/// `SNAPSLIDE_DATA_DIR` if set, else the platform's data folder for the app.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SNAPSLIDE_DATA_DIR") {
        return Some(PathBuf::from(dir));
    }
    platform_data_dir()
}

/// The folder for caches the app can rebuild (the solver's tables): on the desktop the
/// engine's folder (`$XDG_CACHE_HOME/npuzzle`), shared with the `npuzzle` command; on a phone
/// the app's cache folder.
pub fn cache_dir() -> Option<PathBuf> {
    platform_cache_dir()
}

#[cfg(not(any(target_os = "android", target_os = "ios")))]
fn platform_data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Snapslide", "snapslide")
        .map(|dirs| dirs.data_dir().to_path_buf())
}

#[cfg(not(any(target_os = "android", target_os = "ios")))]
fn platform_cache_dir() -> Option<PathBuf> {
    // The engine's folder, which the `npuzzle` command shares, else the app's cache folder
    // (Windows has no `HOME`).
    npuzzle::pdb::default_dir().or_else(|| {
        directories::ProjectDirs::from("org", "Snapslide", "snapslide")
            .map(|dirs| dirs.cache_dir().join("npuzzle"))
    })
}

#[cfg(target_os = "android")]
fn platform_data_dir() -> Option<PathBuf> {
    android::data_dir()
}

/// Android's cache folder is `cache` beside the app's internal `files` folder.
#[cfg(target_os = "android")]
fn platform_cache_dir() -> Option<PathBuf> {
    let data = android::data_dir()?;
    Some(data.parent()?.join("cache").join("npuzzle"))
}

#[cfg(target_os = "ios")]
fn platform_data_dir() -> Option<PathBuf> {
    ios::data_dir()
}

#[cfg(target_os = "ios")]
fn platform_cache_dir() -> Option<PathBuf> {
    ios::cache_dir().map(|dir| dir.join("npuzzle"))
}

/// The core of the platform: the inbox and its delivery, with a platform that offers nothing.
/// The app adds the real platform on top ([`plugin`]).
pub(super) fn core_plugin(app: &mut App) {
    app.init_resource::<Inbox>()
        .init_resource::<SafeArea>()
        .init_resource::<SystemPreferences>()
        .insert_resource(PlatformHandle(Box::new(Headless)))
        .add_systems(Update, deliver.in_set(AppSet::Input))
        .add_systems(
            Update,
            (ask_for_photos, share_and_paste, hand_files).in_set(AppSet::Decide),
        )
        .add_systems(Update, haptics.in_set(AppSet::Animate));
}

/// The platform the app runs on, with its own systems (the desktop's drag and drop).
pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, (wake_on_events, ask_preferences).chain())
        .add_systems(Update, ask_again_on_resume.in_set(AppSet::Input));
    #[cfg(not(any(target_os = "android", target_os = "ios")))]
    app.add_plugins(desktop::plugin);
    #[cfg(target_os = "android")]
    app.add_plugins(android::plugin);
    #[cfg(target_os = "ios")]
    app.add_plugins(ios::plugin);
}

/// A platform's answer wakes the event loop, which may be sleeping between inputs.
fn wake_on_events(inbox: Res<Inbox>, proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>) {
    let Some(proxy) = proxy else {
        return;
    };
    let proxy = Mutex::new((**proxy).clone());
    inbox.set_waker(Box::new(move || {
        let _ = lock(&proxy).send_event(bevy::winit::WinitUserEvent::WakeUp);
    }));
}

/// Asks the device for its text size and motion settings (at start).
fn ask_preferences(platform: Res<PlatformHandle>, inbox: Res<Inbox>) {
    platform.0.ask_preferences(inbox.clone());
}

/// Asks again when the app comes back from the background: the player may have changed them.
fn ask_again_on_resume(
    suspended: Res<Suspended>,
    platform: Res<PlatformHandle>,
    inbox: Res<Inbox>,
) {
    if suspended.is_changed() && !suspended.0 {
        platform.0.ask_preferences(inbox.clone());
    }
}

fn ask_for_photos(
    mut requests: MessageReader<PickPhoto>,
    platform: Res<PlatformHandle>,
    inbox: Res<Inbox>,
) {
    for PickPhoto(origin) in requests.read() {
        platform.0.pick_photo(*origin, inbox.clone());
    }
}

/// Hands shared text to the platform, and reads a pasted challenge code from the clipboard;
/// what happened is said.
fn share_and_paste(
    mut shares: MessageReader<ShareText>,
    mut pastes: MessageReader<PasteChallenge>,
    platform: Res<PlatformHandle>,
    mut open: MessageWriter<OpenChallenge>,
    mut notices: MessageWriter<Notice>,
) {
    for ShareText(text) in shares.read() {
        let shared = platform.0.share_text(text);
        if let Some(said) = share_notice(platform.0.shares_by_sheet(), shared) {
            notices.write(Notice(said));
        }
    }
    for PasteChallenge in pastes.read() {
        match platform.0.clipboard_text() {
            Some(text) => {
                open.write(OpenChallenge(text));
            }
            None => {
                notices.write(Notice(
                    "There is no text to paste: copy a code first.".into(),
                ));
            }
        }
    }
}

/// Saves the files made for the player (the desktop) or hands them to the share sheet (a
/// phone, from the cache folder); what happened is said.
fn hand_files(
    mut files: MessageReader<ShareFile>,
    platform: Res<PlatformHandle>,
    mut notices: MessageWriter<Notice>,
) {
    for file in files.read() {
        let said = if platform.0.shares_by_sheet() {
            sent_by_sheet(platform.0.as_ref(), file).err()
        } else {
            Some(
                match platform.0.save_file(&file.name, &file.bytes, file.mime) {
                    Ok(path) => format!("Saved as {}", path.display()),
                    Err(why) => format!("Could not save {} ({why}).", file.name),
                },
            )
        };
        if let Some(said) = said {
            notices.write(Notice(said));
        }
    }
}

/// A file written to the cache folder and handed to the share sheet; why not, in words.
fn sent_by_sheet(platform: &dyn Platform, file: &ShareFile) -> Result<(), String> {
    let dir = cache_dir().ok_or("Could not share it: there is no folder to put it in.")?;
    let path = dir.join(&file.name);
    atomic_file::write(&path, &file.bytes).map_err(|why| format!("Could not share it: {why}."))?;
    platform
        .share_file(&path, file.mime)
        .map_err(|why| format!("Could not share it ({why})."))
}

/// What the player is told of text handed on: copied (the desktop), or nothing when the share
/// sheet opened (it is on screen), or why not.
fn share_notice(by_sheet: bool, shared: Result<(), String>) -> Option<String> {
    match (by_sheet, shared) {
        (false, Ok(())) => Some("Copied: paste it in a message to your friend.".into()),
        (true, Ok(())) => None,
        (false, Err(why)) => Some(format!(
            "Could not copy it ({why}): copy the code from the sheet."
        )),
        (true, Err(why)) => Some(format!(
            "Could not share it ({why}): copy the code from the sheet."
        )),
    }
}

/// Everything the platform's answers become.
#[derive(bevy::ecs::system::SystemParam)]
struct Delivered<'w> {
    photos: MessageWriter<'w, PhotoArrived>,
    notices: MessageWriter<'w, Notice>,
    no_dialog: MessageWriter<'w, NoFileDialog>,
    back: MessageWriter<'w, Back>,
    exit: MessageWriter<'w, AppExit>,
    open: MessageWriter<'w, OpenChallenge>,
    frames: MessageWriter<'w, FrameRequest>,
    safe: ResMut<'w, SafeArea>,
    system: ResMut<'w, SystemPreferences>,
}

/// Hands the platform's answers to the app, unless it is suspended (then they wait).
fn deliver(inbox: Res<Inbox>, suspended: Res<Suspended>, mut out: Delivered) {
    if suspended.0 || inbox.is_empty() {
        return;
    }
    // What the events change is shown in the next frame (the layout follows the safe area
    // before input is read), which must come.
    out.frames.write(FrameRequest::OneMore);
    for event in inbox.take_all() {
        match event {
            PlatformEvent::Photo { bytes, name } => {
                out.photos.write(PhotoArrived { bytes, name });
            }
            PlatformEvent::PhotoCancelled => {}
            PlatformEvent::NoFileDialog => {
                out.no_dialog.write(NoFileDialog);
            }
            PlatformEvent::PhotoFailed(reason) => {
                out.notices.write(Notice(format!("No photo: {reason}")));
            }
            PlatformEvent::Back => {
                out.back.write(Back);
            }
            PlatformEvent::SafeArea(area) => {
                if *out.safe != area {
                    *out.safe = area;
                }
            }
            PlatformEvent::Preferences(preferences) => {
                if *out.system != preferences {
                    *out.system = preferences;
                }
            }
            PlatformEvent::Quit => {
                out.exit.write(AppExit::Success);
            }
            PlatformEvent::OpenLink(link) => {
                out.open.write(OpenChallenge(link));
            }
            PlatformEvent::ShareFailed(why) => {
                out.notices
                    .write(Notice(format!("Could not share it ({why}).")));
            }
        }
    }
}

fn haptics(
    mut changes: MessageReader<GameChanged>,
    settings: Res<Settings>,
    platform: Res<PlatformHandle>,
) {
    for changed in changes.read() {
        let haptic = match changed.change {
            Change::Slid { .. } => Haptic::Slide,
            Change::Won(_) => Haptic::Win,
            Change::Bumped(_) | Change::Reset(..) | Change::Helped | Change::Left(_) => continue,
        };
        if settings.haptics {
            platform.0.haptic(haptic);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_push_wakes_the_app() {
        let inbox = Inbox::default();
        let woken = Arc::new(Mutex::new(0));
        let count = Arc::clone(&woken);
        inbox.set_waker(Box::new(move || *lock(&count) += 1));
        inbox.push(PlatformEvent::Back);
        inbox.push(PlatformEvent::PhotoCancelled);
        assert_eq!(*lock(&woken), 2);
    }

    #[test]
    fn a_phone_that_shares_by_its_sheet_never_says_copied() {
        let said = |by_sheet, shared| share_notice(by_sheet, shared).unwrap_or_default();
        assert!(said(false, Ok(())).starts_with("Copied"));
        assert_eq!(
            share_notice(true, Ok(())),
            None,
            "the sheet on screen says it"
        );
        let refused = || Err::<(), _>("no window".to_string());
        assert!(said(false, refused()).starts_with("Could not copy it (no window)"));
        assert!(said(true, refused()).starts_with("Could not share it (no window)"));
        assert!(!said(true, refused()).contains("opied"));
    }

    #[test]
    fn a_link_is_opened_as_a_typed_code_and_a_failed_sheet_is_said() {
        let mut app = App::new();
        app.add_message::<PhotoArrived>()
            .add_message::<Notice>()
            .add_message::<NoFileDialog>()
            .add_message::<Back>()
            .add_message::<AppExit>()
            .add_message::<OpenChallenge>()
            .add_message::<FrameRequest>()
            .init_resource::<Inbox>()
            .init_resource::<SafeArea>()
            .init_resource::<SystemPreferences>()
            .init_resource::<Suspended>()
            .add_systems(Update, deliver);
        let inbox = app.world().resource::<Inbox>().clone();
        inbox.push(PlatformEvent::OpenLink("snapslide://c/7ZX3KQ".into()));
        inbox.push(PlatformEvent::ShareFailed("no app to share with".into()));
        app.update();
        let opened: Vec<_> = app
            .world_mut()
            .resource_mut::<Messages<OpenChallenge>>()
            .drain()
            .collect();
        assert_eq!(opened, [OpenChallenge("snapslide://c/7ZX3KQ".into())]);
        let said: Vec<_> = app
            .world_mut()
            .resource_mut::<Messages<Notice>>()
            .drain()
            .map(|notice| notice.0)
            .collect();
        assert_eq!(said, ["Could not share it (no app to share with)."]);
    }

    #[test]
    fn a_platform_without_a_share_sheet_refuses_a_file() {
        let file = Path::new("replay.gif");
        assert!(Headless.share_file(file, "image/gif").is_err());
        assert!(!Headless.shares_by_sheet());
    }

    #[test]
    fn the_inbox_keeps_events_in_order_across_clones_and_threads() {
        let inbox = Inbox::default();
        let sender = inbox.clone();
        std::thread::spawn(move || {
            sender.push(PlatformEvent::Back);
            sender.push(PlatformEvent::PhotoCancelled);
        })
        .join()
        .unwrap();
        assert_eq!(inbox.len(), 2);
        assert_eq!(
            inbox.take_all(),
            vec![PlatformEvent::Back, PlatformEvent::PhotoCancelled]
        );
        assert!(inbox.is_empty());
    }
}
