//! What is saved and whether saving works, file by file. Each file's newest contents are handed
//! to the writer only when they change: the game's journal as what the game told (a move is
//! one record appended), the solve history as the solves it gained (appended and synced), the
//! other files whole.
//!
//! Each file is its own trouble: a write that fails is said once, by the file's name in the
//! player's words (the path and the operating system's error go to the log), and that file
//! alone waits and is tried again quietly, after 1 s, then 2, 4… up to a minute (on a frame:
//! a move, the clock), and at once when the app closes. The other files go on being written
//! as if nothing happened; the game's moves above all. When the file lands, the player is told
//! it is saved again.

use std::collections::{BTreeMap, HashMap};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::log::{info, warn};
use bevy::prelude::Resource;
use serde::Serialize;

use super::files::StoreError;
use super::writer::{Job, SharedDisk, Writer, Written};
use crate::game::Game;
use crate::game::files::{DAILY_FILE, SCORES_FILE, SETTINGS_FILE};
use crate::game::save_log::{SAVE_LOG_FILE, SaveLog, Told, Write};
use crate::game::solves::{HistoryRecord, SOLVES_FILE};
use crate::photo::FramedPhoto;

/// The wait before a failed file's first quiet retry.
const FIRST_RETRY: Duration = Duration::from_secs(1);
/// The longest wait between retries.
const LONGEST_RETRY: Duration = Duration::from_secs(60);

/// What the saver has to say after a frame: to the player, and to the win card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// A notice for the player (a file that cannot be saved, or is saved again).
    Notice(String),
    /// Every change of the solve history told so far is on disk, synced.
    SolvesKept,
}

/// The writer, the bytes each file last had, each failing file's retry, and the journals.
#[derive(Resource)]
pub struct Saver {
    /// Writes the files off the frame.
    pub writer: Writer,
    /// The newest bytes of each whole file (written, on their way, or waiting).
    last: HashMap<PathBuf, Vec<u8>>,
    /// The files whose newest contents are not on disk, each with its own retry.
    trouble: BTreeMap<PathBuf, Retry>,
    /// The game's save journal, once the game has been saved or read back.
    game: Option<GameJournal>,
    /// The solve history's journal, once it has been read or written.
    solves: Option<SolvesJournal>,
}

/// When a failing file is tried again, and the wait after that try if it fails too.
#[derive(Clone, Copy, Debug)]
struct Retry {
    at: Duration,
    backoff: Duration,
}

/// The game's save journal: its file, the log that says what to write, and the number of the
/// newest write handed over.
struct GameJournal {
    path: PathBuf,
    log: SaveLog,
    number: u64,
}

/// The solve history's journal: its file, the records handed over but not yet known to be on
/// disk (oldest first), how many of those handed since start are, and each write on its way
/// (by number) with the count of records on disk once it lands.
#[derive(Default)]
struct SolvesJournal {
    path: PathBuf,
    unkept: Vec<String>,
    kept: usize,
    number: u64,
    in_flight: BTreeMap<u64, usize>,
}

impl SolvesJournal {
    /// The records handed over since start.
    fn handed(&self) -> usize {
        self.kept + self.unkept.len()
    }

    /// A numbered write of these records, synced (a retry is written after a failed write).
    fn job(&mut self, records: Vec<String>, retry: bool) -> Job {
        self.number += 1;
        self.in_flight.insert(self.number, self.handed());
        let (path, write) = (self.path.clone(), Write::Append(records));
        match retry {
            true => Job::journal_retry(path, self.number, write, true),
            false => Job::journal(path, self.number, write, true),
        }
    }
}

impl Default for Saver {
    fn default() -> Self {
        Saver::with_writer(Writer::start())
    }
}

impl Saver {
    /// A saver whose writer takes each step of a write through `disk` (for tests: make a
    /// chosen file fail at a chosen step).
    pub fn with_disk(disk: SharedDisk) -> Saver {
        Saver::with_writer(Writer::start_with(disk))
    }

    fn with_writer(writer: Writer) -> Saver {
        Saver {
            writer,
            last: HashMap::new(),
            trouble: BTreeMap::new(),
            game: None,
            solves: None,
        }
    }

    /// Whether any file is failing now.
    pub fn failing(&self) -> bool {
        !self.trouble.is_empty()
    }

    /// Goes on with the solve history read at start; `first` is written before anything else
    /// (the history without lines that could not be read, so they are set aside once).
    pub fn resume_solves(&mut self, dir: &Path, first: Option<Write>) {
        let journal = self.solves.insert(SolvesJournal {
            path: dir.join(SOLVES_FILE),
            ..SolvesJournal::default()
        });
        if let Some(write) = first {
            journal.number += 1;
            journal.in_flight.insert(journal.number, 0);
            let job = Job::journal(journal.path.clone(), journal.number, write, true);
            self.writer.hand(job);
        }
    }

    /// Appends what the history was told to change (a solve kept, removed or brought back),
    /// one record each, synced; the records already there are never rewritten. While the
    /// history fails, they wait for its retry.
    pub fn save_solves(&mut self, dir: &Path, changes: &[HistoryRecord]) {
        if changes.is_empty() {
            return;
        }
        let journal = self.solves.get_or_insert_with(|| SolvesJournal {
            path: dir.join(SOLVES_FILE),
            ..SolvesJournal::default()
        });
        let new: Vec<String> = changes.iter().map(HistoryRecord::encode).collect();
        journal.unkept.extend(new.iter().cloned());
        if !self.trouble.contains_key(&journal.path) {
            let job = journal.job(new, false);
            self.writer.hand(job);
        }
    }

    /// Goes on with a save journal read at start (`log`: what it holds), writing `first`
    /// before anything else (a compaction, when part of it could not be read).
    pub fn resume_game(&mut self, dir: &Path, log: SaveLog, first: Option<Write>) {
        self.game = Some(GameJournal {
            path: dir.join(SAVE_LOG_FILE),
            log,
            number: 0,
        });
        if let Some(write) = first {
            self.hand_game(write);
        }
    }

    /// Saves what the game told in a frame (in order), with the game and its photo as they
    /// stand after it: each change appended as its record, a new game as its start, a won
    /// game as its snapshot; nothing when nothing changed.
    pub fn save_game(&mut self, dir: &Path, told: &[Told], game: &Game, photo: &FramedPhoto) {
        let journal = self.game.get_or_insert_with(|| GameJournal {
            path: dir.join(SAVE_LOG_FILE),
            log: SaveLog::default(),
            number: 0,
        });
        let writes = journal.log.writes_for(told, game, photo);
        writes.into_iter().for_each(|write| self.hand_game(write));
    }

    /// The app closes or goes to the background: the game is written as one snapshot with
    /// its clock, unless the journal holds it already.
    pub fn close_game(&mut self, game: &Game, photo: &FramedPhoto) {
        if let Some(write) = self.game.as_mut().and_then(|j| j.log.closing(game, photo)) {
            self.hand_game(write);
        }
    }

    /// Hands a write of the game's journal to the writer, numbered; while the journal fails,
    /// the write waits for the retry instead, which writes the whole game.
    fn hand_game(&mut self, write: Write) {
        let Some(journal) = &mut self.game else {
            return;
        };
        if self.trouble.contains_key(&journal.path) {
            journal.log.write_failed();
            return;
        }
        journal.number += 1;
        let job = Job::journal(journal.path.clone(), journal.number, write, false);
        self.writer.hand(job);
    }

    /// Saves a whole file's contents if they differ from what it last had: at once, or while
    /// that file fails, at its next retry.
    pub fn save<T: Serialize>(&mut self, dir: &Path, name: &str, value: &T) {
        let Ok(bytes) = serde_json::to_vec_pretty(value) else {
            return;
        };
        let path = dir.join(name);
        if self.last.get(&path) == Some(&bytes) {
            return;
        }
        self.last.insert(path.clone(), bytes.clone());
        if !self.trouble.contains_key(&path) {
            self.writer.hand(Job::File(path, bytes));
        }
    }

    /// Notes what a file read at start holds, so it is not written again unchanged; a file
    /// named in `rewrite` (read in part) is written once with what was kept.
    pub fn restored<T: Serialize>(&mut self, dir: &Path, name: &str, value: &T, rewrite: &[&str]) {
        if rewrite.contains(&name) {
            self.save(dir, name, value);
        } else if let Ok(bytes) = serde_json::to_vec_pretty(value) {
            self.last.insert(dir.join(name), bytes);
        }
    }

    /// Takes the writes finished since the last call, and tries again each failing file whose
    /// wait is over (every one at once when `closing`), the game's journal as a snapshot of
    /// `game`. Returns what there is to say.
    pub fn check(
        &mut self,
        now: Duration,
        closing: bool,
        game: &Game,
        photo: &FramedPhoto,
    ) -> Vec<Said> {
        let mut said = Vec::new();
        for written in self.writer.take_finished() {
            said.extend(self.finished(written, now));
        }
        let due: Vec<PathBuf> = self
            .trouble
            .iter_mut()
            .filter(|(_, retry)| closing || now >= retry.at)
            .map(|(path, retry)| {
                retry.at = now + retry.backoff;
                retry.backoff = (retry.backoff * 2).min(LONGEST_RETRY);
                path.clone()
            })
            .collect();
        for path in due {
            self.retry(path, game, photo);
        }
        said
    }

    /// Writes a failing file again: its newest bytes; for the game's journal, the whole game
    /// (the file may hold part of what failed); for the solves, the records that wait.
    fn retry(&mut self, path: PathBuf, game: &Game, photo: &FramedPhoto) {
        if let Some(journal) = self.game.as_mut().filter(|j| j.path == path) {
            let write = journal.log.compact(game.kept(), photo);
            journal.number += 1;
            let job = Job::journal_retry(path, journal.number, write, false);
            self.writer.hand(job);
        } else if let Some(journal) = self.solves.as_mut().filter(|j| j.path == path) {
            let job = journal.job(journal.unkept.clone(), true);
            self.writer.hand(job);
        } else if let Some(bytes) = self.last.get(&path) {
            self.writer.hand(Job::File(path, bytes.clone()));
        }
    }

    /// Whether a write that landed holds its file's newest contents.
    fn newest(&self, written: &Written) -> bool {
        let path = &written.path;
        match written.journal {
            None => self.last.get(path) == Some(&written.bytes),
            Some(number) => match (&self.game, &self.solves) {
                (Some(game), _) if &game.path == path => number == game.number,
                (_, Some(solves)) if &solves.path == path => {
                    solves.unkept.is_empty() && solves.in_flight.is_empty()
                }
                _ => true,
            },
        }
    }

    /// Notes how a write to the solve history ended: when it landed, the records it holds are
    /// kept (records that failed stay, for the retry). Says so when every change told is on
    /// disk.
    fn solves_written(&mut self, written: &Written) -> Option<Said> {
        let journal = self.solves.as_mut().filter(|j| j.path == written.path)?;
        let count = journal.in_flight.remove(&written.journal?)?;
        if written.result.is_err() {
            return None;
        }
        if count > journal.kept {
            journal.unkept.drain(..count - journal.kept);
            journal.kept = count;
        }
        (journal.unkept.is_empty() && journal.in_flight.is_empty()).then_some(Said::SolvesKept)
    }

    /// Takes one finished write into account; what to say about it.
    fn finished(&mut self, written: Written, now: Duration) -> Vec<Said> {
        let mut said: Vec<Said> = self.solves_written(&written).into_iter().collect();
        let newest = self.newest(&written);
        let Written { path, result, .. } = written;
        match result {
            Err(error) => {
                warn!("saving {} failed: {error}", path.display());
                if let Some(journal) = self.game.as_mut().filter(|j| j.path == path) {
                    journal.log.write_failed();
                }
                if !self.trouble.contains_key(&path) {
                    said.push(Said::Notice(cannot_save(&path, &error)));
                }
                let retry = Retry {
                    at: now + FIRST_RETRY,
                    backoff: FIRST_RETRY * 2,
                };
                self.trouble.entry(path).or_insert(retry);
            }
            // An older write that landed does not make the newest contents saved.
            Ok(()) if newest && self.trouble.remove(&path).is_some() => {
                info!("{} is written again", path.display());
                said.push(Said::Notice(saved_again(&path)));
            }
            Ok(()) => {}
        }
        said
    }
}

/// A file of the data folder as the player knows it, and the verb that goes with it.
fn known_as(path: &Path) -> (&'static str, &'static str) {
    match path.file_name().and_then(|name| name.to_str()) {
        Some(SETTINGS_FILE) => ("Your settings", "are"),
        Some(SCORES_FILE) => ("Your best scores", "are"),
        Some(DAILY_FILE) => ("Your puzzles of the day", "are"),
        Some(SAVE_LOG_FILE) => ("Your game in progress", "is"),
        Some(SOLVES_FILE) => ("Your solve history", "is"),
        _ => ("A file of yours", "is"),
    }
}

/// That a file cannot be saved, in the player's words, with a short reason.
fn cannot_save(path: &Path, error: &StoreError) -> String {
    let (what, _) = known_as(path);
    format!(
        "{what} can't be saved on this device right now: {}. The rest is saved as usual; \
         this will be tried again.",
        short_reason(error)
    )
}

/// That a file that failed is saved again, in the player's words.
pub fn saved_again(path: &Path) -> String {
    let (what, verb) = known_as(path);
    format!("{what} {verb} saved again.")
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
