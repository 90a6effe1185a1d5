//! What is saved and whether saving works: each file's newest bytes, handed to the writer only
//! when they change. A write that fails is said once, in the player's words, with the path and
//! the operating system's error in the log; while saving fails, the files wait and are tried
//! again quietly, after 1 s, then 2, 4… up to a minute (on a frame: a move, the clock), and
//! at once when the app closes; the first time they are all written, the player is told that
//! saving works again.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::log::{info, warn};
use bevy::prelude::Resource;
use serde::Serialize;

use super::files::StoreError;
use super::writer::{SharedSteps, Writer, Written};
use crate::game::Game;
use crate::game::save_log::{SAVE_LOG_FILE, SaveLog, Write};
use crate::game::solves::{SOLVES_FILE, Solve};
use crate::photo::FramedPhoto;

/// The wait before the first quiet retry.
const FIRST_RETRY: Duration = Duration::from_secs(1);
/// The longest wait between retries.
const LONGEST_RETRY: Duration = Duration::from_secs(60);
/// What the player reads when saving works again.
pub const SAVING_WORKS: &str = "Saving works again.";

/// The writer, the bytes each file last had, and the files that wait while saving fails.
#[derive(Resource)]
pub struct Saver {
    /// Writes the files off the frame.
    pub writer: Writer,
    /// The newest bytes of each file (written, on their way, or waiting).
    last: HashMap<PathBuf, Vec<u8>>,
    /// Set while saving fails.
    trouble: Option<Trouble>,
    /// The game's save journal, once the game has been saved or read back.
    game: Option<GameJournal>,
    /// The solve history's journal, once it has been read or written.
    solves: Option<SolvesJournal>,
}

/// The solve history's journal: its file, how many solves it was handed, and the records of
/// writes not yet known to have landed (by number) or that failed (to append again).
#[derive(Default)]
struct SolvesJournal {
    path: PathBuf,
    handed: usize,
    number: u64,
    in_flight: BTreeMap<u64, Vec<String>>,
    failed: Vec<String>,
}

/// The game's save journal: its file, what it holds (the log, which says what to write next),
/// and the number of the newest write handed over.
struct GameJournal {
    path: PathBuf,
    log: SaveLog,
    number: u64,
}

/// Saving fails: the files not saved, and when to try again.
#[derive(Debug)]
struct Trouble {
    /// The files whose newest bytes are not on disk.
    unsaved: BTreeSet<PathBuf>,
    /// When to try them again.
    retry_at: Instant,
    /// The wait after the next try, if it fails.
    backoff: Duration,
}

impl Default for Saver {
    fn default() -> Self {
        Saver::with_writer(Writer::start())
    }
}

impl Saver {
    /// A saver whose writer takes each step of a write through `steps` (for tests: atomic-file's
    /// `Faulty` makes chosen steps fail).
    pub fn with_steps(steps: SharedSteps) -> Saver {
        Saver::with_writer(Writer::start_with(steps))
    }

    fn with_writer(writer: Writer) -> Saver {
        Saver {
            writer,
            last: HashMap::new(),
            trouble: None,
            game: None,
            solves: None,
        }
    }

    /// Goes on with the solve history read at start, which holds `count` solves; `first` is
    /// written before anything else (the history without lines that could not be read, so
    /// they are set aside once).
    pub fn resume_solves(&mut self, dir: &Path, count: usize, first: Option<Write>) {
        self.solves = Some(SolvesJournal {
            path: dir.join(SOLVES_FILE),
            handed: count,
            ..SolvesJournal::default()
        });
        if let Some(write) = first {
            self.hand_solves(write, Vec::new());
        }
    }

    /// Appends the solves the history has gained since it was last written, one record each;
    /// the history is never rewritten.
    pub fn save_solves(&mut self, dir: &Path, history: &[Solve]) {
        let journal = self.solves.get_or_insert_with(|| SolvesJournal {
            path: dir.join(SOLVES_FILE),
            ..SolvesJournal::default()
        });
        let new: Vec<String> = history
            .iter()
            .skip(journal.handed)
            .map(Solve::encode)
            .collect();
        journal.handed = history.len();
        if !new.is_empty() {
            self.hand_solves(Write::Append(new.clone()), new);
        }
    }

    /// Hands a write to the solve history to the writer (`records`: the records it appends,
    /// kept until it lands); while saving fails, the records wait for the retry.
    fn hand_solves(&mut self, write: Write, records: Vec<String>) {
        let Some(journal) = &mut self.solves else {
            return;
        };
        if let Some(trouble) = &mut self.trouble {
            journal.failed.extend(records);
            trouble.unsaved.insert(journal.path.clone());
            return;
        }
        journal.number += 1;
        journal.in_flight.insert(journal.number, records);
        let path = journal.path.clone();
        self.writer.write_journal(path, journal.number, write);
    }

    /// Goes on with a save journal read at start (`log`: what it holds), writing `first`
    /// before anything else (a compaction, when part of it could not be read).
    pub fn resume_game(&mut self, dir: &Path, log: SaveLog, first: Option<Write>) {
        let path = dir.join(SAVE_LOG_FILE);
        self.game = Some(GameJournal {
            path,
            log,
            number: 0,
        });
        if let Some(write) = first {
            self.hand_journal(write);
        }
    }

    /// Saves the game: what changed since the journal was last written is appended (a move,
    /// an undo, the clock), or the journal is started anew (a new game) or compacted, as the
    /// log says; nothing when nothing changed.
    pub fn save_game(&mut self, dir: &Path, game: &Game, photo: &FramedPhoto) {
        let write = match &mut self.game {
            Some(journal) => journal.log.sync(game, photo),
            None => {
                let (log, write) = SaveLog::new(game, photo);
                let path = dir.join(SAVE_LOG_FILE);
                self.game = Some(GameJournal {
                    path,
                    log,
                    number: 0,
                });
                Some(write)
            }
        };
        if let Some(write) = write {
            self.hand_journal(write);
        }
    }

    /// Compacts the game's journal to one snapshot of the game (the game is won, the app
    /// closes), so the next start reads one record.
    pub fn compact_game(&mut self) {
        if let Some(journal) = &mut self.game
            && journal.log.entries_since_snapshot() > 0
        {
            let write = journal.log.compact();
            self.hand_journal(write);
        }
    }

    /// Hands a journal write to the writer, numbered; while saving fails, it waits for the
    /// retry instead, which writes the whole game.
    fn hand_journal(&mut self, write: Write) {
        let Some(journal) = &mut self.game else {
            return;
        };
        match &mut self.trouble {
            Some(trouble) => {
                journal.log.write_failed();
                trouble.unsaved.insert(journal.path.clone());
            }
            None => {
                journal.number += 1;
                let path = journal.path.clone();
                self.writer.write_journal(path, journal.number, write);
            }
        }
    }

    /// Whether a write that landed holds the newest of its file.
    fn newest(&self, written: &Written) -> bool {
        let path = &written.path;
        match written.journal {
            None => self.last.get(path) == Some(&written.bytes),
            Some(number) => match (&self.game, &self.solves) {
                (Some(game), _) if &game.path == path => number == game.number,
                (_, Some(solves)) if &solves.path == path => {
                    solves.failed.is_empty() && solves.in_flight.keys().all(|&n| n == number)
                }
                _ => true,
            },
        }
    }

    /// Notes how a write to the solve history ended: its records landed, or wait to be
    /// appended again.
    fn solves_written(&mut self, written: &Written) {
        let (Some(journal), Some(number)) = (&mut self.solves, written.journal) else {
            return;
        };
        if journal.path != written.path {
            return;
        }
        let records = journal.in_flight.remove(&number).unwrap_or_default();
        if written.result.is_err() {
            journal.failed.extend(records);
        }
    }

    /// Whether saving is failing now.
    pub fn failing(&self) -> bool {
        self.trouble.is_some()
    }

    /// Saves a file's contents if they differ from what it last had: at once, or, while
    /// saving fails, at the next retry.
    pub fn save<T: Serialize>(&mut self, dir: &Path, name: &str, value: &T) {
        let Ok(bytes) = serde_json::to_vec_pretty(value) else {
            return;
        };
        let path = dir.join(name);
        if self.last.get(&path) == Some(&bytes) {
            return;
        }
        self.last.insert(path.clone(), bytes.clone());
        match &mut self.trouble {
            Some(trouble) => {
                trouble.unsaved.insert(path);
            }
            None => self.writer.write(path, bytes),
        }
    }

    /// Notes what a file holds already, so it is not written again unchanged.
    pub fn holds<T: Serialize>(&mut self, dir: &Path, name: &str, value: &T) {
        if let Ok(bytes) = serde_json::to_vec_pretty(value) {
            self.last.insert(dir.join(name), bytes);
        }
    }

    /// Notes what a file read at start holds, so it is not written again unchanged; a file
    /// named in `rewrite` (read in part) is written once with what was kept.
    pub fn restored<T: Serialize>(&mut self, dir: &Path, name: &str, value: &T, rewrite: &[&str]) {
        if rewrite.contains(&name) {
            self.save(dir, name, value);
        } else {
            self.holds(dir, name, value);
        }
    }

    /// Takes the writes finished since the last call and retries the files that wait if it is
    /// time (or at once when `closing`); returns what the player should read: that saving
    /// fails, once, and that it works again.
    pub fn check(&mut self, now: Instant, closing: bool) -> Vec<String> {
        let mut said = Vec::new();
        for written in self.writer.take_finished() {
            said.extend(self.finished(written, now));
        }
        if let Some(trouble) = &mut self.trouble
            && (closing || now >= trouble.retry_at)
        {
            trouble.retry_at = now + trouble.backoff;
            trouble.backoff = (trouble.backoff * 2).min(LONGEST_RETRY);
            let unsaved: Vec<PathBuf> = trouble.unsaved.iter().cloned().collect();
            for path in unsaved {
                self.retry(path);
            }
        }
        said
    }

    /// Writes a file that waits again: its newest bytes, or for the game's journal, the whole
    /// game (the journal may hold part of what failed).
    fn retry(&mut self, path: PathBuf) {
        if let Some(solves) = self.solves.as_mut().filter(|j| j.path == path) {
            let records = std::mem::take(&mut solves.failed);
            solves.number += 1;
            solves.in_flight.insert(solves.number, records.clone());
            let write = Write::Append(records);
            self.writer.write_journal(path, solves.number, write);
            return;
        }
        match &mut self.game {
            Some(journal) if journal.path == path => {
                let write = journal.log.compact();
                journal.number += 1;
                self.writer.write_journal(path, journal.number, write);
            }
            _ => {
                if let Some(bytes) = self.last.get(&path) {
                    self.writer.write(path, bytes.clone());
                }
            }
        }
    }

    /// Takes one finished write into account; what the player should read about it.
    fn finished(&mut self, written: Written, now: Instant) -> Option<String> {
        self.solves_written(&written);
        let newest = self.newest(&written);
        let Written { path, result, .. } = written;
        match result {
            Err(error) => {
                warn!("saving failed: {error}");
                if let Some(journal) = self.game.as_mut().filter(|j| j.path == path) {
                    journal.log.write_failed();
                }
                match &mut self.trouble {
                    Some(trouble) => {
                        trouble.unsaved.insert(path);
                        None
                    }
                    None => {
                        self.trouble = Some(Trouble {
                            unsaved: BTreeSet::from([path]),
                            retry_at: now + FIRST_RETRY,
                            backoff: FIRST_RETRY * 2,
                        });
                        Some(cannot_save(&error))
                    }
                }
            }
            Ok(()) => {
                let trouble = self.trouble.as_mut()?;
                // An older write that landed does not make the newest bytes saved.
                if newest {
                    trouble.unsaved.remove(&path);
                }
                if !trouble.unsaved.is_empty() {
                    return None;
                }
                self.trouble = None;
                info!("saving works again ({} written)", path.display());
                Some(SAVING_WORKS.into())
            }
        }
    }
}

/// That saving fails, in the player's words, with a short reason.
fn cannot_save(error: &StoreError) -> String {
    format!(
        "Your progress can't be saved on this device right now: {}. You can keep playing; \
         saving will be tried again.",
        short_reason(error)
    )
}

/// Why a write failed, as a player would say it.
fn short_reason(error: &StoreError) -> &'static str {
    match error.io_error().map(std::io::Error::kind) {
        Some(ErrorKind::StorageFull | ErrorKind::QuotaExceeded | ErrorKind::FileTooLarge) => {
            "the storage is full"
        }
        Some(ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem) => {
            "the game isn't allowed to write there"
        }
        Some(
            ErrorKind::AlreadyExists
            | ErrorKind::NotADirectory
            | ErrorKind::IsADirectory
            | ErrorKind::NotFound,
        ) => "the folder it saves in is missing or blocked",
        _ => "the device refused to write",
    }
}
