//! Settings, best scores, the game in progress and the player's photos, in the platform's data
//! folder (`~/.local/share/snapslide` on Linux, the app's internal storage on a phone).
//!
//! A file is written only when its contents change, off the frame (see `writer`), and always
//! atomically; while the player only looks at the board, nothing is written. The game is saved
//! after every move, and at once when the app is closed or goes to the background.

mod files;
mod writer;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::prelude::*;
use bevy::window::WindowCloseRequested;
use serde::Serialize;

pub use files::{
    DAILY_FILE, GAME_FILE, Loaded, SCORES_FILE, SETTINGS_FILE, SavedState, StoreError, load_all,
    load_json, save_json, write_atomic,
};
pub use writer::Writer;

use crate::frame::AppSet;
use crate::lifecycle::Suspended;
use crate::messages::{GameCommand, NewGame, Notice, PhotoArrived};
use crate::photo::PhotoSource;
use crate::play::{CurrentGame, Days, Position, Scores};
use crate::session::{Session, SessionCommand};
use crate::settings::Settings;

/// The folder the player's photos are kept in, inside the data folder.
pub const PHOTOS_DIR: &str = "photos";
/// How long closing or suspending waits for the last writes.
const FLUSH_LIMIT: Duration = Duration::from_secs(2);

/// The folder the files live in; `None` keeps nothing (for screenshots and tests).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct DataDir(pub Option<PathBuf>);

impl DataDir {
    /// The platform's data folder for the app, overridable with `SNAPSLIDE_DATA_DIR`.
    pub fn platform() -> DataDir {
        DataDir(crate::platform::data_dir())
    }
}

/// The writer, the bytes each file last had (by file name), and where the game stood when it
/// was last saved.
#[derive(Resource)]
pub struct Saver {
    /// Writes the files off the frame.
    pub writer: Writer,
    last: HashMap<&'static str, Vec<u8>>,
    game_at: Option<Position>,
}

impl Default for Saver {
    fn default() -> Self {
        Saver {
            writer: Writer::start(),
            last: Default::default(),
            game_at: None,
        }
    }
}

impl Saver {
    /// Hands a file's contents to the writer if they differ from what it last had.
    fn save<T: Serialize>(&mut self, dir: &Path, name: &'static str, value: &T) {
        let Ok(bytes) = serde_json::to_vec_pretty(value) else {
            return;
        };
        if self.last.get(name) != Some(&bytes) {
            self.last.insert(name, bytes.clone());
            self.writer.write(dir.join(name), bytes);
        }
    }
}

/// Restores the files at start, keeps picked photos, and saves what changes.
pub fn plugin(app: &mut App) {
    app.add_message::<WindowCloseRequested>()
        .init_resource::<DataDir>()
        .init_resource::<Saver>()
        .add_systems(Startup, restore)
        .add_systems(Update, keep_photo.in_set(AppSet::Queue))
        // Last: what the views changed (egui's pass runs after Update) and a quit from the
        // menu are saved in the same frame, which for a quit is the last one.
        .add_systems(Last, save_changes);
}

/// What the files fill in at start.
#[derive(bevy::ecs::system::SystemParam)]
struct Restored<'w> {
    settings: ResMut<'w, Settings>,
    scores: ResMut<'w, Scores>,
    days: ResMut<'w, Days>,
    saver: ResMut<'w, Saver>,
}

impl Restored<'_> {
    /// Takes in what was read; the writer learns that the files hold it already.
    fn take(&mut self, loaded: &mut Loaded) {
        if let Some(saved) = loaded.settings.take() {
            *self.settings = saved;
        }
        if let Some(saved) = loaded.scores.take() {
            self.scores.0 = saved;
        }
        if let Some(saved) = loaded.days.take() {
            self.days.0 = saved;
        }
        let read = [
            serde_json::to_vec_pretty(&*self.settings),
            serde_json::to_vec_pretty(&self.scores.0),
            serde_json::to_vec_pretty(&self.days.0),
        ];
        for (name, bytes) in [SETTINGS_FILE, SCORES_FILE, DAILY_FILE]
            .into_iter()
            .zip(read)
        {
            if let Ok(bytes) = bytes {
                self.saver.last.insert(name, bytes);
            }
        }
    }
}

/// Loads the files and starts the first game: the one the player had (in progress or
/// finished), or a new one.
fn restore(
    dir: Res<DataDir>,
    options: Res<crate::cli::CliOptions>,
    mut restored: Restored,
    mut commands: MessageWriter<GameCommand>,
    mut new_game: MessageWriter<NewGame>,
    mut session: MessageWriter<SessionCommand>,
    mut notices: MessageWriter<Notice>,
) {
    let mut loaded = dir.0.as_deref().map(load_all).unwrap_or_default();
    for problem in loaded.problems.drain(..) {
        warn!("{problem}");
        notices.write(Notice(problem));
    }
    restored.take(&mut loaded);
    let fresh = options.size.is_some() || options.seed.is_some() || options.photo.is_some();
    if let Some((columns, rows)) = options.size {
        session.write(SessionCommand::SetBoard(columns, rows));
    }
    if let Some(photo) = &options.photo {
        session.write(SessionCommand::UsePhoto(PhotoSource::File(photo.clone())));
    }
    match loaded.game {
        // The game the player had, finished or not (a finished one shows its result); not a
        // review's board, which older versions saved in place of the finished game.
        Some((game, photo)) if !fresh && !game.is_review() => {
            session.write(SessionCommand::UsePhoto(photo));
            commands.write(GameCommand::Start(Box::new(game)));
        }
        _ => {
            new_game.write(NewGame::Settings { seed: options.seed });
        }
    }
}

/// Keeps a photo the player picked in the data folder (so the game in progress still has it
/// after a restart), and makes it the photo.
fn keep_photo(
    mut arrived: MessageReader<PhotoArrived>,
    dir: Res<DataDir>,
    mut session: MessageWriter<SessionCommand>,
    mut notices: MessageWriter<Notice>,
) {
    for photo in arrived.read() {
        let folder = dir
            .0
            .clone()
            .unwrap_or_else(std::env::temp_dir)
            .join(PHOTOS_DIR);
        match store_photo(&folder, &photo.bytes) {
            Ok(path) => {
                session.write(SessionCommand::UsePhoto(PhotoSource::Picked(path)));
            }
            Err(reason) => {
                notices.write(Notice(format!("Could not use {}: {reason}", photo.name)));
            }
        }
    }
}

/// Checks that the bytes are a whole image the app reads, writes them to `folder` named by
/// their contents, and removes the photos picked before. Returns the new file.
pub fn store_photo(folder: &Path, bytes: &[u8]) -> Result<PathBuf, String> {
    let extension = crate::photo::file_extension(bytes).map_err(|e| e.to_string())?;
    let path = folder.join(format!("{:016x}.{extension}", fnv1a(bytes)));
    if !path.exists() {
        write_atomic(&path, bytes).map_err(|e| e.to_string())?;
    }
    if let Ok(entries) = std::fs::read_dir(folder) {
        for entry in entries.flatten() {
            if entry.path() != path {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    Ok(path)
}

/// A 64-bit FNV-1a hash, to name a photo by its contents.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// What `save_changes` reads.
#[derive(bevy::ecs::system::SystemParam)]
struct SaveInputs<'w, 's> {
    settings: Res<'w, Settings>,
    session: Res<'w, Session>,
    scores: Res<'w, Scores>,
    days: Res<'w, Days>,
    current: Res<'w, CurrentGame>,
    suspended: Res<'w, Suspended>,
    closing: MessageReader<'w, 's, WindowCloseRequested>,
    exit: MessageReader<'w, 's, AppExit>,
}

/// Hands the writer every file whose contents changed: the game after a move (or when the app
/// closes, quits or is suspended, with the clock as it is then, waiting for the write to land).
fn save_changes(
    dir: Res<DataDir>,
    mut saver: ResMut<Saver>,
    mut inputs: SaveInputs,
    mut notices: MessageWriter<Notice>,
) {
    // The game is saved when its board moved on (its position, not its contents, tells; the
    // board on show before the first game is none of the player's).
    let position = inputs.current.position();
    let moved = position.game > 0 && saver.game_at != Some(position);
    let closing = inputs.closing.read().count() > 0
        || inputs.exit.read().count() > 0
        || (inputs.suspended.is_changed() && inputs.suspended.0);
    let Some(dir) = dir.0.as_deref() else {
        return;
    };
    if inputs.settings.is_changed() {
        saver.save(dir, SETTINGS_FILE, &*inputs.settings);
    }
    if inputs.scores.is_changed() {
        saver.save(dir, SCORES_FILE, &inputs.scores.0);
    }
    if inputs.days.is_changed() {
        saver.save(dir, DAILY_FILE, &inputs.days.0);
    }
    if moved || closing {
        saver.game_at = Some(position);
        let state = SavedState {
            // During a review, the finished game it replays.
            game: inputs.current.game.kept().to_saved(),
            photo: inputs.session.photo.clone(),
        };
        saver.save(dir, GAME_FILE, &state);
    }
    if closing && !saver.writer.flush(FLUSH_LIMIT) {
        warn!("the last save did not finish in {FLUSH_LIMIT:?}");
    }
    for error in saver.writer.take_errors() {
        warn!("{error}");
        notices.write(Notice(format!("Could not save: {error}")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picked_photo_is_kept_by_its_contents_and_replaces_the_last() {
        let folder = std::env::temp_dir().join(format!("snapslide-photos-{}", std::process::id()));
        let first = crate::photo::bundled("rocket.jpg").unwrap();
        let second = crate::photo::bundled("chelsea.png").unwrap();
        let a = store_photo(&folder, first).unwrap();
        assert_eq!(
            store_photo(&folder, first).unwrap(),
            a,
            "the same photo, the same file"
        );
        assert_eq!(a.extension().unwrap(), "jpg");
        let b = store_photo(&folder, second).unwrap();
        assert_eq!(std::fs::read(&b).unwrap(), second);
        assert!(!a.exists(), "the photo picked before is gone");
        // Not an image, or a JPEG cut short: refused, and nothing is written.
        assert!(store_photo(&folder, b"hello").is_err());
        assert!(store_photo(&folder, &first[..first.len() / 2]).is_err());
        let names: Vec<_> = std::fs::read_dir(&folder).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
        std::fs::remove_dir_all(folder).unwrap();
    }
}
