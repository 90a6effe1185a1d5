//! What is saved and whether saving works: each file's newest bytes, handed to the writer only
//! when they change. A write that fails is said once, in the player's words, with the path and
//! the operating system's error in the log; while saving fails, the files wait and are tried
//! again quietly, after 1 s, then 2, 4… up to a minute (on a frame: a move, the clock), and
//! at once when the app closes; the first time they are all written, the player is told that
//! saving works again.

use std::collections::{BTreeSet, HashMap};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::log::{info, warn};
use bevy::prelude::Resource;
use serde::Serialize;

use super::files::StoreError;
use super::writer::{SharedSteps, Writer, Written};

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
            for path in &trouble.unsaved {
                if let Some(bytes) = self.last.get(path) {
                    self.writer.write(path.clone(), bytes.clone());
                }
            }
        }
        said
    }

    /// Takes one finished write into account; what the player should read about it.
    fn finished(&mut self, written: Written, now: Instant) -> Option<String> {
        let Written {
            path,
            bytes,
            result,
        } = written;
        match result {
            Err(error) => {
                warn!("saving failed: {error}");
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
                if self.last.get(&path) == Some(&bytes) {
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
