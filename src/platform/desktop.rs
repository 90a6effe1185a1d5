//! The desktop: photos from a file dialog (rfd, asynchronous) or dropped on the window; no
//! camera and no haptics. `SNAPSLIDE_SAFE_AREA=top,right,bottom,left` (logical pixels)
//! simulates a phone's insets, to try the phone layout on the desktop.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::IoTaskPool;
use bevy::window::FileDragAndDrop;

use super::SafeArea;
use super::{Haptic, Inbox, Platform, PlatformEvent, PlatformHandle, SystemPreferences};
use crate::messages::{PhotoFileChosen, PhotoOrigin};
use crate::photo::MAX_FILE_BYTES;

/// A dialog that comes back empty faster than this never opened (no portal, no zenity).
const NO_DIALOG: Duration = Duration::from_millis(400);

/// The desktop platform.
#[derive(Default)]
pub struct Desktop {
    /// A file dialog is open (only one at a time).
    dialog_open: Arc<AtomicBool>,
    /// The clipboard, kept open while the app runs: on X11 what was copied is served by the
    /// app that copied it, and goes when its clipboard is dropped.
    clipboard: std::sync::Mutex<Option<arboard::Clipboard>>,
}

impl Desktop {
    /// Runs `act` on the clipboard, opened at its first use and kept.
    fn with_clipboard<T>(
        &self,
        act: impl FnOnce(&mut arboard::Clipboard) -> Result<T, arboard::Error>,
    ) -> Result<T, String> {
        let mut kept = crate::app::background::lock(&self.clipboard);
        if kept.is_none() {
            *kept = Some(arboard::Clipboard::new().map_err(|e| e.to_string())?);
        }
        let clipboard = kept.as_mut().ok_or("no clipboard")?;
        act(clipboard).map_err(|e| e.to_string())
    }
}

impl Platform for Desktop {
    fn photo_origins(&self) -> &'static [PhotoOrigin] {
        &[PhotoOrigin::Gallery]
    }

    fn offers_quit(&self) -> bool {
        true
    }

    fn pick_photo(&self, origin: PhotoOrigin, inbox: Inbox) {
        if origin == PhotoOrigin::Camera {
            inbox.push(PlatformEvent::PhotoFailed(
                "this computer has no camera".into(),
            ));
            return;
        }
        if self.dialog_open.swap(true, Ordering::SeqCst) {
            return;
        }
        let open = Arc::clone(&self.dialog_open);
        IoTaskPool::get()
            .spawn(async move {
                let opened = Instant::now();
                let picked = rfd::AsyncFileDialog::new()
                    .set_title("Choose a photo")
                    .add_filter("Photos", &["png", "jpg", "jpeg", "webp"])
                    .pick_file()
                    .await;
                open.store(false, Ordering::SeqCst);
                inbox.push(match picked {
                    Some(file) => read_photo(file.path()),
                    // No dialog came (no portal and no zenity): the app's own is offered.
                    None if opened.elapsed() < NO_DIALOG => PlatformEvent::NoFileDialog,
                    None => PlatformEvent::PhotoCancelled,
                });
            })
            .detach();
    }

    fn haptic(&self, _haptic: Haptic) {}

    /// The clipboard (X11 or Wayland's, through arboard).
    fn share_text(&self, text: &str) -> Result<(), String> {
        self.with_clipboard(|clipboard| clipboard.set_text(text))
    }

    fn save_file(&self, name: &str, bytes: &[u8], mime: &str) -> Result<PathBuf, String> {
        let dir = keeping_dir(mime).ok_or("there is no home folder")?;
        std::fs::create_dir_all(&dir).map_err(|why| why.to_string())?;
        let path = free_name(&dir, name);
        atomic_file::write(&path, bytes).map_err(|why| why.to_string())?;
        Ok(path)
    }

    fn clipboard_text(&self) -> Option<String> {
        self.with_clipboard(|clipboard| clipboard.get_text()).ok()
    }

    /// On Linux, GNOME's text scaling and animation settings (`gsettings`), where the desktop
    /// has them; elsewhere nothing.
    fn ask_preferences(&self, inbox: Inbox) {
        let spawned = std::thread::Builder::new()
            .name("snapslide-preferences".into())
            .spawn(move || {
                let font_scale = gsettings("text-scaling-factor").and_then(|v| v.parse().ok());
                let animations = gsettings("enable-animations");
                let reduce_motion = animations.map(|on| on == "false");
                if font_scale.is_some() || reduce_motion.is_some() {
                    inbox.push(PlatformEvent::Preferences(SystemPreferences {
                        font_scale,
                        reduce_motion,
                    }));
                }
            });
        if let Err(error) = spawned {
            warn!("the desktop's text size and motion settings are not read: {error}");
        }
    }
}

/// A key of GNOME's interface settings, as `gsettings` prints it (`None` without gsettings or
/// the key).
fn gsettings(key: &str) -> Option<String> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let output = std::process::Command::new("gsettings")
        .args(["get", "org.gnome.desktop.interface", key])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// A photo file's bytes, size-checked, or why not.
pub fn read_photo(path: &Path) -> PlatformEvent {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let bytes = std::fs::metadata(path).and_then(|meta| {
        if meta.len() > MAX_FILE_BYTES {
            Err(std::io::Error::other(format!(
                "the file is too large ({} MB; the limit is {} MB)",
                meta.len() >> 20,
                MAX_FILE_BYTES >> 20
            )))
        } else {
            std::fs::read(path)
        }
    });
    match bytes {
        Ok(bytes) => PlatformEvent::Photo { bytes, name },
        Err(error) => PlatformEvent::PhotoFailed(format!("cannot read {name}: {error}")),
    }
}

/// The simulated safe area, from `top,right,bottom,left`.
pub fn parse_safe_area(text: &str) -> Option<SafeArea> {
    let values: Vec<f32> = text
        .split(',')
        .map(|v| {
            v.trim()
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
        })
        .collect::<Option<_>>()?;
    let [top, right, bottom, left] = values[..] else {
        return None;
    };
    Some(SafeArea {
        top,
        right,
        bottom,
        left,
    })
}

/// Where the player's files of this type go: `SNAPSLIDE_EXPORT_DIR` if set, else the
/// Pictures folder for a picture and the Documents folder for the rest, else the home folder.
fn keeping_dir(mime: &str) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SNAPSLIDE_EXPORT_DIR") {
        return Some(PathBuf::from(dir));
    }
    let user = directories::UserDirs::new()?;
    let kind = if mime.starts_with("image/") {
        user.picture_dir()
    } else {
        user.document_dir()
    };
    Some(kind.unwrap_or(user.home_dir()).to_path_buf())
}

/// `name` in `dir`, or with " (2)", " (3)", … before its extension if that is taken: a file
/// saved before is never replaced.
pub fn free_name(dir: &Path, name: &str) -> PathBuf {
    let (stem, extension) = name.rsplit_once('.').unwrap_or((name, ""));
    let dot = if extension.is_empty() { "" } else { "." };
    (1..)
        .map(|n| match n {
            1 => dir.join(name),
            n => dir.join(format!("{stem} ({n}){dot}{extension}")),
        })
        .find(|path| !path.exists())
        .expect("some name is free")
}

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(PlatformHandle(Box::new(Desktop::default())))
        .add_systems(
            Startup,
            (simulated_safe_area, quit_on_signals, take_handed_codes),
        )
        .add_systems(Update, (dropped_files, chosen_files));
}

/// Codes handed over by a later launch (`snapslide --open CODE` while this copy runs) open
/// here, as a tapped link does on a phone.
fn take_handed_codes(dir: Option<Res<crate::persist::DataDir>>, inbox: Res<Inbox>) {
    #[cfg(unix)]
    if let Some(dir) = dir.as_ref().and_then(|dir| dir.0.as_deref()) {
        super::handoff::listen(dir, inbox.clone());
    }
    #[cfg(not(unix))]
    let _ = (dir, inbox);
}

/// Ctrl+C in the terminal, and SIGTERM or SIGHUP (a logout, `kill`), end the app as the menu's
/// Quit does: the game is saved with its clock as it is. The handler wakes the app, which may
/// be sleeping between inputs; a second signal ends it at once.
fn quit_on_signals(inbox: Res<Inbox>) {
    let inbox = inbox.clone();
    let asked = AtomicBool::new(false);
    let installed = ctrlc::set_handler(move || {
        if asked.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        inbox.push(PlatformEvent::Quit);
    });
    if let Err(error) = installed {
        warn!("signals will not save the game: {error}");
    }
}

fn simulated_safe_area(inbox: Res<Inbox>) {
    let Some(text) = std::env::var_os("SNAPSLIDE_SAFE_AREA") else {
        return;
    };
    match parse_safe_area(&text.to_string_lossy()) {
        Some(area) => inbox.push(PlatformEvent::SafeArea(area)),
        None => warn!("SNAPSLIDE_SAFE_AREA takes top,right,bottom,left in pixels"),
    }
}

/// A photo file chosen in the app's own file dialog, read as a dropped one is.
fn chosen_files(mut chosen: MessageReader<PhotoFileChosen>, inbox: Res<Inbox>) {
    for PhotoFileChosen(path) in chosen.read() {
        read_in_background(path.clone(), &inbox);
    }
}

fn dropped_files(mut drops: MessageReader<FileDragAndDrop>, inbox: Res<Inbox>) {
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            read_in_background(path_buf.clone(), &inbox);
        }
    }
}

/// Reads a photo file off the frame; its bytes (or why not) arrive in the inbox.
fn read_in_background(path: PathBuf, inbox: &Inbox) {
    let inbox = inbox.clone();
    IoTaskPool::get()
        .spawn(async move { inbox.push(read_photo(&path)) })
        .detach();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_file_never_replaces_one_saved_before() {
        let dir = std::env::temp_dir().join(format!("snapslide-free-name-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = free_name(&dir, "replay.gif");
        assert_eq!(first, dir.join("replay.gif"));
        std::fs::write(&first, b"one").unwrap();
        assert_eq!(free_name(&dir, "replay.gif"), dir.join("replay (2).gif"));
        std::fs::write(dir.join("replay (2).gif"), b"two").unwrap();
        assert_eq!(free_name(&dir, "replay.gif"), dir.join("replay (3).gif"));
        assert_eq!(free_name(&dir, "notes"), dir.join("notes"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_safe_area_is_read_in_css_order() {
        assert_eq!(
            parse_safe_area("48, 0, 34,0"),
            Some(SafeArea {
                top: 48.0,
                right: 0.0,
                bottom: 34.0,
                left: 0.0
            })
        );
        assert_eq!(parse_safe_area("1,2,3"), None);
        assert_eq!(parse_safe_area("1,2,3,x"), None);
        assert_eq!(parse_safe_area("1,2,3,-4"), None);
    }

    #[test]
    fn a_file_chosen_in_the_app_s_own_dialog_arrives_as_a_photo() {
        let dir = std::env::temp_dir().join(format!("snapslide-chosen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("chosen.png");
        std::fs::write(&path, b"the photo's bytes").unwrap();
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_message::<PhotoFileChosen>()
            .init_resource::<Inbox>()
            .add_systems(Update, chosen_files);
        app.world_mut().write_message(PhotoFileChosen(path));
        let inbox = app.world().resource::<Inbox>().clone();
        let started = Instant::now();
        while inbox.is_empty() && started.elapsed() < Duration::from_secs(30) {
            app.update();
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(
            inbox.take_all(),
            [PlatformEvent::Photo {
                bytes: b"the photo's bytes".to_vec(),
                name: "chosen.png".into()
            }]
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_photo_file_is_read_or_explained() {
        let dir = std::env::temp_dir().join(format!("snapslide-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tiny.png");
        std::fs::write(&path, b"not really a png").unwrap();
        assert_eq!(
            read_photo(&path),
            PlatformEvent::Photo {
                bytes: b"not really a png".to_vec(),
                name: "tiny.png".into()
            }
        );
        let missing = read_photo(&dir.join("missing.jpg"));
        assert!(
            matches!(&missing, PlatformEvent::PhotoFailed(why) if why.contains("missing.jpg")),
            "{missing:?}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
