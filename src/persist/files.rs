//! The files on disk: written whole or not at all (atomic-file), read back
//! field by field (the rules crate's readers). A file that cannot be read at all is moved aside
//! (`*.corrupt-<time>`); one with a few bad values keeps the rest. The player is told what was
//! lost and what was kept, in their words; the paths and the reasons go to the log.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use atomic_file::{Disk, Steps, WriteError};
use serde::Serialize;
use thiserror::Error;

use crate::game::files::{DAILY_FILE, GAME_FILE, SCORES_FILE, SETTINGS_FILE, read_state};
use crate::game::save_log::{self, SAVE_LOG_FILE, SaveLog, Write};
use crate::game::solves::{SOLVES_FILE, Solve, solves_in};
use crate::game::{BestScores, DailyResults, FileError, Game, Preferences, Read};
use crate::photo::FramedPhoto;

/// Why a file could not be written. In each case the file is as it was before.
#[derive(Debug, Error)]
pub enum StoreError {
    /// Its folder could not be made (a file in its place, a read-only or full disk).
    #[error("could not make the folder {path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A step of the atomic write failed (it names the step and the file).
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The value could not be written as JSON.
    #[error("could not encode {0}")]
    Encode(String),
    /// A journal could not be opened, appended to or replaced.
    #[error(transparent)]
    Journal(#[from] journal::JournalError),
    /// Not written: the journal's write before it failed, and this one would follow it.
    #[error("{0}: not written after a failed write")]
    AfterFailure(PathBuf),
}

impl StoreError {
    /// The operating system's error, if it refused something.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        match self {
            StoreError::Folder { source, .. } => Some(source),
            StoreError::Write(error) => error.io_error(),
            StoreError::Encode(_) | StoreError::AfterFailure(_) => None,
            StoreError::Journal(error) => error.io_error(),
        }
    }
}

/// Something about a file the player should know: what they read, and what the log gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// In the player's words: what was lost and what was kept.
    pub player: String,
    /// For the log: the file, the reason, where it was moved.
    pub log: String,
    /// The file read in part, which is to be written once with what was kept (so the same
    /// damage is not found, copied and said again at every launch).
    pub rewrite: Option<&'static str>,
}

/// Writes bytes to `path` atomically (see [`write_atomic_with`]), on the disk.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    write_atomic_with(&Disk, path, bytes)
}

/// Writes bytes to `path` whole or not at all, taking each step through `steps` (atomic-file:
/// a temporary file, its bytes, a sync, a rename, a sync of the folder), after making the
/// folder if it is missing. On an error the old file is whole; a folder that could not be
/// synced after the rename is only logged, since the file holds the new bytes.
pub fn write_atomic_with(steps: &impl Steps, path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|source| StoreError::Folder {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    match atomic_file::write_with(steps, path, bytes) {
        Err(error) if error.replaced() => {
            bevy::log::warn!("{error}");
            Ok(())
        }
        result => Ok(result?),
    }
}

/// Writes a value as JSON, atomically.
pub fn save_json<T: Serialize>(path: &Path, value: &T) -> Result<(), StoreError> {
    let bytes = serde_json::to_vec_pretty(value).map_err(|e| StoreError::Encode(e.to_string()))?;
    write_atomic(path, &bytes)
}

/// What was found in the data folder at start.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The settings, if a file was there.
    pub settings: Option<Preferences>,
    /// The best scores, if a file was there.
    pub scores: Option<BestScores>,
    /// The puzzles of the day played, if a file was there.
    pub days: Option<DailyResults>,
    /// The game in progress (or the last one finished), and its photo (with the player's frame
    /// of it) if that could be read.
    pub game: Option<(Game, Option<FramedPhoto>)>,
    /// The solve history, oldest first, if its file was there; and the history to write in its
    /// place first when lines of it could not be read (they are kept aside once).
    pub solves: Option<(Vec<Solve>, Option<Write>)>,
    /// The save journal it was read from, to go on writing: what it holds, and a compaction
    /// to write first when part of it was lost. `None` for a game read from an older version's
    /// `game.json` (the first save starts the journal).
    pub journal: Option<(SaveLog, Option<Write>)>,
    /// What the player should know about files that could not be read whole.
    pub problems: Vec<Problem>,
}

/// One of the player's files, by what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum File {
    Settings,
    Scores,
    Days,
    Game,
}

impl File {
    fn name(self) -> &'static str {
        match self {
            File::Settings => SETTINGS_FILE,
            File::Scores => SCORES_FILE,
            File::Days => DAILY_FILE,
            File::Game => GAME_FILE,
        }
    }
}

/// Reads every file in a folder; nothing here fails, problems are collected.
pub fn load_all(dir: &Path) -> Loaded {
    let mut loaded = Loaded::default();
    let problems = &mut loaded.problems;
    loaded.settings = load(dir, File::Settings, Preferences::read, problems);
    loaded.scores = load(dir, File::Scores, BestScores::read, problems);
    loaded.days = load(dir, File::Days, DailyResults::read, problems);
    loaded.solves = load_solves(dir, problems);
    match load_journal(dir, problems) {
        Some((game, photo, journal)) => {
            loaded.game = Some((game, Some(photo)));
            loaded.journal = Some(journal);
            // An older version's save, now in the journal.
            let _ = std::fs::remove_file(dir.join(GAME_FILE));
        }
        None => loaded.game = load(dir, File::Game, read_state, problems),
    }
    loaded
}

/// Reads a journal, if there is one; one that cannot be read is moved aside, and the player
/// reads `unreadable`.
fn read_journal(
    path: &Path,
    unreadable: &str,
    problems: &mut Vec<Problem>,
) -> Option<journal::Loaded> {
    if !path.exists() {
        return None;
    }
    match journal::read(path) {
        Ok(loaded) => Some(loaded),
        Err(error) => {
            problems.push(Problem {
                player: unreadable.into(),
                log: set_aside(path, &error),
                rewrite: None,
            });
            None
        }
    }
}

/// Reads the solve history, if there is one. Lines that could not be read are kept aside
/// (`solves.journal.damaged`) and said; the history is then to be written without them.
fn load_solves(dir: &Path, problems: &mut Vec<Problem>) -> Option<(Vec<Solve>, Option<Write>)> {
    let path = dir.join(SOLVES_FILE);
    let unreadable = "Your solve history could not be read: it is kept aside, and new solves \
                      start a new one.";
    let loaded = read_journal(&path, unreadable, problems)?;
    let damaged: Vec<_> = loaded.all_damaged().collect();
    let mut rewrite = None;
    if !damaged.is_empty() {
        let kept = journal::keep_damaged(&journal::damaged_path(&path), damaged.iter().copied());
        problems.push(Problem {
            player: format!(
                "{} of your solve history could not be read and {} kept aside; the rest is \
                 kept.",
                match damaged.len() {
                    1 => "A solve".to_string(),
                    n => format!("{n} solves"),
                },
                if damaged.len() == 1 { "is" } else { "are" },
            ),
            log: format!("{}: damaged lines kept aside ({kept:?})", path.display()),
            rewrite: None,
        });
        rewrite = Some(Write::Replace(loaded.records.clone()));
    }
    Some((solves_in(&loaded).solves, rewrite))
}

/// Reads the game back from its save journal, if there is one: the game, its photo, and the
/// log to go on with. Lines that could not be read are kept aside (`game.journal.damaged`),
/// and the game goes on from the last move before them; a journal that holds no game is moved
/// aside.
fn load_journal(
    dir: &Path,
    problems: &mut Vec<Problem>,
) -> Option<(Game, FramedPhoto, (SaveLog, Option<Write>))> {
    let path = dir.join(SAVE_LOG_FILE);
    let loaded = read_journal(&path, &unreadable(File::Game), problems)?;
    // A torn last line is what a kill in the middle of a move leaves: that move is lost, and
    // only the log hears of it. A line damaged before it is said.
    let side = journal::damaged_path(&path);
    if let Some(torn) = &loaded.torn {
        let kept = journal::keep_damaged(&side, [torn]);
        bevy::log::info!("{}: a torn last line dropped ({kept:?})", path.display());
    }
    if !loaded.damaged.is_empty() {
        let kept = journal::keep_damaged(&side, &loaded.damaged);
        let lines: Vec<String> = loaded.damaged.iter().map(|d| d.line.to_string()).collect();
        problems.push(Problem {
            player: "Part of your last game could not be read: it goes on from the last move \
                     that could."
                .into(),
            log: format!(
                "{}: lines {} could not be read; kept aside: {kept:?}",
                path.display(),
                lines.join(", ")
            ),
            rewrite: None,
        });
    }
    match save_log::load(&loaded) {
        Ok(opened) => {
            let replayed = opened.replayed;
            Some((replayed.game, replayed.photo, (opened.log, opened.rewrite)))
        }
        Err(error) => {
            problems.push(Problem {
                player: unreadable(File::Game),
                log: set_aside(&path, &error),
                rewrite: None,
            });
            None
        }
    }
}

/// Reads one file with its reader: `None` if there is none or it cannot be read at all (then
/// it is moved aside); a file read with parts lost is kept as read, and said so.
fn load<T>(
    dir: &Path,
    file: File,
    reader: impl Fn(&[u8]) -> Result<Read<T>, FileError>,
    problems: &mut Vec<Problem>,
) -> Option<T> {
    let path = dir.join(file.name());
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        // No file, or no folder (a file in its place): nothing was saved there to lose.
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return None;
        }
        Err(e) => {
            // Kept aside, so that the file the app writes in its place does not replace it.
            problems.push(Problem {
                player: unreadable(file),
                log: set_aside(&path, &e),
                rewrite: None,
            });
            return None;
        }
    };
    match reader(&bytes) {
        Ok(read) => {
            if !read.lost.is_empty() {
                // The file as it was is kept beside the one the app will write in its place.
                let kept = copy_aside(&path, &bytes);
                problems.push(Problem {
                    player: partly_read(file, &read.lost),
                    log: format!(
                        "{}: could not read {}; {kept}",
                        path.display(),
                        read.lost.join(", ")
                    ),
                    rewrite: Some(file.name()),
                });
            }
            Some(read.value)
        }
        Err(error) => {
            problems.push(Problem {
                player: unreadable(file),
                log: set_aside(&path, &error),
                rewrite: None,
            });
            None
        }
    }
}

/// Where a damaged file is kept: beside it, named by the time.
fn aside(path: &Path) -> PathBuf {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut moved = path.as_os_str().to_owned();
    moved.push(format!(".corrupt-{stamp}"));
    PathBuf::from(moved)
}

/// Keeps a copy of a file read in part, and says where for the log.
fn copy_aside(path: &Path, bytes: &[u8]) -> String {
    let copy = aside(path);
    match write_atomic(&copy, bytes) {
        Ok(()) => format!("the file as it was is kept as {}", copy.display()),
        Err(e) => format!("no copy of it could be kept: {e}"),
    }
}

/// Moves an unreadable file aside, and says so for the log.
fn set_aside(path: &Path, error: &dyn std::fmt::Display) -> String {
    let moved_to = aside(path);
    match std::fs::rename(path, &moved_to) {
        Ok(()) => format!(
            "{} was unreadable ({error}); it was moved to {}",
            path.display(),
            moved_to.display()
        ),
        Err(e) => format!(
            "{} was unreadable ({error}) and could not be moved aside: {e}",
            path.display()
        ),
    }
}

/// A file that could not be read at all, in the player's words.
fn unreadable(file: File) -> String {
    match file {
        File::Settings => "Your settings could not be read: they are back to the defaults.",
        File::Scores => "Your best scores could not be read: the list starts again.",
        File::Days => "Your results of the puzzles of the day could not be read.",
        File::Game => "Your last game could not be read: a new one starts.",
    }
    .into()
}

/// A file read with some parts lost, in the player's words: what was lost, and that the rest
/// was kept.
fn partly_read(file: File, lost: &[String]) -> String {
    match file {
        File::Settings => {
            let names: Vec<&str> = lost.iter().map(|field| setting_name(field)).collect();
            format!(
                "Some settings could not be read and are back to the default: {}. The others \
                 are kept.",
                names.join(", ")
            )
        }
        File::Scores => format!(
            "{} of your best scores could not be read; the others are kept.",
            lost.len()
        ),
        File::Days => format!(
            "The results of {} of your puzzles of the day could not be read; the others are kept.",
            crate::words::days_text(lost.len())
        ),
        File::Game => "Part of your last game could not be read (its clock or its photo); the \
                       board and your moves are kept."
            .into(),
    }
}

/// A setting's name as the menu says it.
fn setting_name(field: &str) -> &str {
    match field {
        "difficulty" => "difficulty",
        "show_numbers" => "tile numbers",
        "mark_correct" => "marks on tiles in place",
        "meter" => "shortest-path meter",
        "sound" => "sound",
        "haptics" => "vibration",
        "speed" => "speed of solutions",
        "theme" => "theme",
        "hover" => "hover",
        "instant" => "instant slides",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::files::SavedState;
    use crate::game::{Difficulty, Theme};
    use crate::photo::PhotoSource;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "snapslide-persist-{name}-{}-{}",
            std::process::id(),
            crate::game::clock_seed()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names_in(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn files_round_trip_atomically() {
        let dir = temp_dir("round");
        let settings = Preferences {
            meter: true,
            sound: false,
            ..Preferences::default()
        };
        save_json(&dir.join(SETTINGS_FILE), &settings).unwrap();
        let shape = npuzzle::Shape::new(3, 3).unwrap();
        let recipe = crate::game::Recipe::Shuffle(9);
        let board = crate::game::make_board(shape, recipe, 5, &npuzzle::Options::default());
        let game = Game::new(board.unwrap(), Difficulty::Easy);
        let state = SavedState {
            game: game.to_saved(),
            photo: PhotoSource::File("/tmp/x.png".into()),
            framing: None,
        };
        save_json(&dir.join(GAME_FILE), &state).unwrap();
        let loaded = load_all(&dir);
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        assert_eq!(loaded.settings, Some(settings));
        let (restored, photo) = loaded.game.unwrap();
        assert_eq!(restored.board(), game.board());
        let photo = photo.map(|photo| photo.source);
        assert_eq!(photo, Some(PhotoSource::File("/tmp/x.png".into())));
        // No temporary file is left behind.
        let names = names_in(&dir);
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
        let names = names_in(&dir);
        assert!(
            names
                .iter()
                .any(|n| n.starts_with("settings.json.corrupt-"))
        );
        assert!(names.iter().any(|n| n.starts_with("game.json.corrupt-")));
        assert!(!names.contains(&SETTINGS_FILE.to_string()));
        // The player reads what was lost, without paths or parser words; the log has them.
        for problem in &loaded.problems {
            assert!(!problem.player.contains('/'), "{problem:?}");
            assert!(
                problem.log.contains(&dir.display().to_string()),
                "{problem:?}"
            );
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn one_bad_setting_keeps_the_others_and_a_copy_of_the_file() {
        let dir = temp_dir("one-bad");
        std::fs::write(
            dir.join(SETTINGS_FILE),
            br#"{"speed": "fast", "theme": "Light", "meter": true}"#,
        )
        .unwrap();
        let loaded = load_all(&dir);
        let settings = loaded.settings.unwrap();
        assert_eq!((settings.theme, settings.meter), (Theme::Light, true));
        assert_eq!(loaded.problems.len(), 1);
        assert!(loaded.problems[0].player.contains("speed of solutions"));
        let names = names_in(&dir);
        assert!(names.contains(&SETTINGS_FILE.to_string()), "{names:?}");
        assert!(
            names
                .iter()
                .any(|n| n.starts_with("settings.json.corrupt-"))
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_file_that_cannot_be_read_is_moved_aside_not_written_over() {
        let dir = temp_dir("unreadable");
        // Something the app cannot read where its settings should be.
        std::fs::create_dir(dir.join(SETTINGS_FILE)).unwrap();
        std::fs::write(dir.join(SETTINGS_FILE).join("inside"), b"kept").unwrap();
        let loaded = load_all(&dir);
        assert!(loaded.settings.is_none());
        assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
        let problem = &loaded.problems[0];
        assert!(
            problem
                .player
                .starts_with("Your settings could not be read")
        );
        assert!(problem.log.contains("moved to"), "{problem:?}");
        // The settings the app writes next replace nothing of the player's.
        save_json(&dir.join(SETTINGS_FILE), &Preferences::default()).unwrap();
        let aside = names_in(&dir)
            .into_iter()
            .find(|n| n.starts_with("settings.json.corrupt-"))
            .expect("moved aside");
        assert_eq!(
            std::fs::read(dir.join(aside).join("inside")).unwrap(),
            b"kept"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_file_where_the_folder_should_be_is_no_damaged_file() {
        let dir = temp_dir("folder-is-a-file");
        let blocker = dir.join("data");
        std::fs::write(&blocker, b"x").unwrap();
        let loaded = load_all(&blocker);
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_no_problem() {
        let loaded = load_all(Path::new("/nonexistent/snapslide/dir"));
        assert!(loaded.problems.is_empty());
        assert!(loaded.settings.is_none() && loaded.game.is_none());
    }
}
