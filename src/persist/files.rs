//! The files: written atomically (a temporary file, an fsync, a rename), read back with every
//! part checked; a file that cannot be read is moved aside (`*.corrupt-<time>`) with a message,
//! and the others are used anyway.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::game::{BestScores, DailyResults, Game, SavedGame};
use crate::photo::PhotoSource;
use crate::settings::Settings;

/// The settings file's name.
pub const SETTINGS_FILE: &str = "settings.json";
/// The best scores file's name.
pub const SCORES_FILE: &str = "scores.json";
/// The puzzle of the day's results file's name.
pub const DAILY_FILE: &str = "daily.json";
/// The game in progress file's name.
pub const GAME_FILE: &str = "game.json";

/// Why a file could not be read or written.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The file system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not what the app wrote; it was moved aside.
    #[error("{path} was unreadable ({reason}); it was moved to {moved_to}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        reason: String,
        /// Where it is now.
        moved_to: PathBuf,
    },
    /// The value could not be written as JSON.
    #[error("could not encode {0}")]
    Encode(String),
}

/// The game in progress as saved: the game and its photo.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedState {
    /// The game.
    pub game: SavedGame,
    /// Its photo.
    pub photo: PhotoSource,
}

/// Writes bytes to `path` atomically: a temporary file in the same folder, then a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    use std::io::Write;
    let io = |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    let mut temp = path.as_os_str().to_owned();
    temp.push(format!(".tmp-{}", std::process::id()));
    let temp = PathBuf::from(temp);
    let mut file = std::fs::File::create(&temp).map_err(io)?;
    file.write_all(bytes).map_err(io)?;
    file.sync_all().map_err(io)?;
    drop(file);
    std::fs::rename(&temp, path).map_err(|source| {
        let _ = std::fs::remove_file(&temp);
        io(source)
    })
}

/// Writes a value as JSON, atomically.
pub fn save_json<T: Serialize>(path: &Path, value: &T) -> Result<(), StoreError> {
    let bytes = serde_json::to_vec_pretty(value).map_err(|e| StoreError::Encode(e.to_string()))?;
    write_atomic(path, &bytes)
}

/// Reads a JSON file: `Ok(None)` if there is none; a file that does not parse is moved aside
/// and reported as [`StoreError::Corrupt`].
pub fn load_json<T: DeserializeOwned>(path: &Path) -> Result<Option<T>, StoreError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(StoreError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    match serde_json::from_slice(&bytes) {
        Ok(value) => Ok(Some(value)),
        Err(e) => Err(set_aside(path, e.to_string())),
    }
}

/// Moves an unreadable file aside and says so.
fn set_aside(path: &Path, reason: String) -> StoreError {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut moved = path.as_os_str().to_owned();
    moved.push(format!(".corrupt-{stamp}"));
    let moved_to = PathBuf::from(moved);
    if let Err(source) = std::fs::rename(path, &moved_to) {
        return StoreError::Io {
            path: path.to_path_buf(),
            source,
        };
    }
    StoreError::Corrupt {
        path: path.to_path_buf(),
        reason,
        moved_to,
    }
}

/// What was found in the data folder at start.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The settings, if a file was there.
    pub settings: Option<Settings>,
    /// The best scores, if a file was there.
    pub scores: Option<BestScores>,
    /// The puzzles of the day played, if a file was there.
    pub days: Option<DailyResults>,
    /// The game in progress, if one was saved and is valid.
    pub game: Option<(Game, PhotoSource)>,
    /// Messages for the player about files that could not be used.
    pub problems: Vec<String>,
}

/// Reads every file in a folder; nothing here fails, problems are collected.
pub fn load_all(dir: &Path) -> Loaded {
    let mut loaded = Loaded::default();
    match load_json::<Settings>(&dir.join(SETTINGS_FILE)) {
        Ok(settings) => loaded.settings = settings.map(Settings::sanitized),
        Err(e) => loaded.problems.push(e.to_string()),
    }
    match load_json::<BestScores>(&dir.join(SCORES_FILE)) {
        Ok(scores) => loaded.scores = scores,
        Err(e) => loaded.problems.push(e.to_string()),
    }
    match load_json::<DailyResults>(&dir.join(DAILY_FILE)) {
        Ok(days) => loaded.days = days,
        Err(e) => loaded.problems.push(e.to_string()),
    }
    let game_path = dir.join(GAME_FILE);
    match load_json::<SavedState>(&game_path) {
        Ok(Some(state)) => match Game::from_saved(&state.game) {
            Ok(game) => loaded.game = Some((game, state.photo.sanitized())),
            Err(e) => loaded
                .problems
                .push(set_aside(&game_path, e.to_string()).to_string()),
        },
        Ok(None) => {}
        Err(e) => loaded.problems.push(e.to_string()),
    }
    loaded
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Difficulty;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "snapslide-persist-{name}-{}-{}",
            std::process::id(),
            crate::play::clock_seed()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn files_round_trip_atomically() {
        let dir = temp_dir("round");
        let settings = Settings {
            meter: true,
            sound: false,
            ..Settings::default()
        };
        save_json(&dir.join(SETTINGS_FILE), &settings).unwrap();
        let shape = npuzzle::Shape::new(3, 3).unwrap();
        let recipe = crate::game::Recipe::Shuffle(9);
        let board = crate::game::make_board(shape, recipe, 5, &npuzzle::Options::default());
        let game = Game::new(board.unwrap(), Difficulty::Easy);
        let state = SavedState {
            game: game.to_saved(),
            photo: PhotoSource::File("/tmp/x.png".into()),
        };
        save_json(&dir.join(GAME_FILE), &state).unwrap();
        let loaded = load_all(&dir);
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        assert_eq!(loaded.settings, Some(settings));
        let (restored, photo) = loaded.game.unwrap();
        assert_eq!(restored.board(), game.board());
        assert_eq!(photo, PhotoSource::File("/tmp/x.png".into()));
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.contains(".tmp-")), "{names:?}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_corrupt_file_is_set_aside_and_the_others_survive() {
        let dir = temp_dir("corrupt");
        std::fs::write(dir.join(SETTINGS_FILE), b"{ not json").unwrap();
        let mut scores = BestScores::default();
        scores.record("4x4-easy".into(), 10, 1000);
        save_json(&dir.join(SCORES_FILE), &scores).unwrap();
        // A game file that parses but does not make a valid game.
        std::fs::write(
            dir.join(GAME_FILE),
            br#"{"game":{"width":3,"height":3,"start":[1,1,1,1,1,1,1,1,1],"history":"","cursor":0,"moves_made":0,"elapsed_ms":0,"difficulty":"Easy","solved_by_app":false},"photo":{"Bundled":"chelsea.png"}}"#,
        )
        .unwrap();
        let loaded = load_all(&dir);
        assert_eq!(loaded.problems.len(), 2, "{:?}", loaded.problems);
        assert!(loaded.settings.is_none());
        assert!(loaded.game.is_none());
        assert_eq!(loaded.scores, Some(scores));
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names
                .iter()
                .any(|n| n.starts_with("settings.json.corrupt-"))
        );
        assert!(names.iter().any(|n| n.starts_with("game.json.corrupt-")));
        assert!(!names.contains(&SETTINGS_FILE.to_string()));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_no_problem() {
        let loaded = load_all(Path::new("/nonexistent/snapslide/dir"));
        assert!(loaded.problems.is_empty());
        assert!(loaded.settings.is_none() && loaded.game.is_none());
    }
}
