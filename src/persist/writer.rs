//! Writes files off the frame: the frame hands over a [`Job`], a thread of its own carries it
//! out. A whole file (the settings) is written whole or not at all (atomic-file); when it is
//! handed over again before the last write began, only the newest bytes are written. A journal
//! (the game's save, the solve history) is written as it is handed over instead: its records
//! appended in order (synced when asked: the solves), or the file replaced whole, which makes
//! the writes queued before it moot. Each write's outcome goes back to the frame, with its
//! bytes (or its journal write's number), so a file that failed can be tried again.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use atomic_file::{Disk, Steps};
use journal::Journal;

use super::files::{StoreError, write_atomic_with};
use crate::game::save_log;

/// A write the writer finished: the file, the bytes, and whether they are on disk.
#[derive(Debug)]
pub struct Written {
    /// The file.
    pub path: PathBuf,
    /// The bytes it was given (none for a journal's write).
    pub bytes: Vec<u8>,
    /// For a journal, the number its write was handed over with.
    pub journal: Option<u64>,
    /// Whether they were written (else the file is as it was).
    pub result: Result<(), StoreError>,
}

/// What the frame hands the writer.
#[derive(Debug)]
pub enum Job {
    /// A whole file's new contents.
    File(PathBuf, Vec<u8>),
    /// A journal's write.
    Journal(JournalWrite),
}

impl Job {
    /// A journal's write, numbered so its outcome can be told from an older one's; its
    /// records synced to disk before it counts as done if `sync`.
    pub fn journal(path: PathBuf, number: u64, write: save_log::Write, sync: bool) -> Job {
        Job::Journal(JournalWrite::new(path, number, write, sync))
    }

    /// A journal's write that tries again after one failed: it is written even though the
    /// journal's last write failed (see [`Job::journal`]).
    pub fn journal_retry(path: PathBuf, number: u64, write: save_log::Write, sync: bool) -> Job {
        Job::Journal(JournalWrite {
            retry: true,
            ..JournalWrite::new(path, number, write, sync)
        })
    }
}

/// A journal's write waiting its turn: the journal, the write's number, the write, whether
/// its appended records are synced, and whether it is a retry.
///
/// Once a write to a journal fails, the appends to it that follow are not written (they would
/// follow a record that is not there): each fails in turn, until a replacement or a retry.
#[derive(Debug)]
pub struct JournalWrite {
    path: PathBuf,
    number: u64,
    write: save_log::Write,
    sync: bool,
    retry: bool,
}

impl JournalWrite {
    fn new(path: PathBuf, number: u64, write: save_log::Write, sync: bool) -> JournalWrite {
        JournalWrite {
            path,
            number,
            write,
            sync,
            retry: false,
        }
    }

    /// Whether it is written even after a failed write to its journal.
    fn starts_afresh(&self) -> bool {
        self.retry || matches!(self.write, save_log::Write::Replace(_))
    }
}

/// What waits to be written, and what was.
#[derive(Default)]
struct Queue {
    /// Journal writes, in the order they were handed over.
    journal: VecDeque<JournalWrite>,
    /// The newest bytes for each file not yet written.
    pending: BTreeMap<PathBuf, Vec<u8>>,
    /// A file is being written now.
    writing: bool,
    /// The writes finished since the frame last looked.
    finished: Vec<Written>,
    /// Files written so far.
    written: u64,
}

/// The steps of a write, shared with the writer's thread (the disk's, or a test's).
pub type SharedSteps = Arc<dyn Steps + Send + Sync>;

/// The steps to write each file with, by its path (the disk's for all, or a test's that makes
/// one file fail).
pub type SharedDisk = Arc<dyn Fn(&Path) -> SharedSteps + Send + Sync>;

/// [`SharedSteps`] as [`Steps`].
struct Through(SharedSteps);

impl Steps for Through {
    fn create(&self, path: &Path) -> io::Result<std::fs::File> {
        self.0.create(path)
    }
    fn write(&self, file: &mut std::fs::File, bytes: &[u8]) -> io::Result<()> {
        self.0.write(file, bytes)
    }
    fn sync(&self, file: &std::fs::File) -> io::Result<()> {
        self.0.sync(file)
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.0.rename(from, to)
    }
    fn sync_folder(&self, dir: &Path) -> io::Result<()> {
        self.0.sync_folder(dir)
    }
    fn remove(&self, path: &Path) -> io::Result<()> {
        self.0.remove(path)
    }
}

/// The writer's queue and the thread that drains it. Cheap to clone.
#[derive(Clone, Default)]
pub struct Writer {
    shared: Arc<(Mutex<Queue>, Condvar)>,
}

impl Writer {
    /// A writer with its thread running, writing to the disk.
    pub fn start() -> Writer {
        let disk: SharedSteps = Arc::new(Disk);
        Writer::start_with(Arc::new(move |_: &Path| disk.clone()))
    }

    /// A writer with its thread running, taking each step of a file's write through the steps
    /// `disk` gives for it (a test makes one file fail with atomic-file's `Faulty`).
    pub fn start_with(disk: SharedDisk) -> Writer {
        let writer = Writer::default();
        let worker = writer.clone();
        let spawned = std::thread::Builder::new()
            .name("snapslide-writer".into())
            .spawn(move || worker.run(&*disk));
        if let Err(error) = spawned {
            // Nothing is written then; the log says why.
            bevy::log::error!("cannot start the writer: {error}");
        }
        writer
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        crate::app::background::lock(&self.shared.0)
    }

    /// Hands over a job. A file's contents replace those still waiting for it; a journal's
    /// replacement drops the writes to the same journal still waiting before it.
    pub fn hand(&self, job: Job) {
        let mut queue = self.lock();
        match job {
            Job::File(path, bytes) => {
                queue.pending.insert(path, bytes);
            }
            Job::Journal(write) => {
                if matches!(write.write, save_log::Write::Replace(_)) {
                    queue.journal.retain(|waiting| waiting.path != write.path);
                }
                queue.journal.push_back(write);
            }
        }
        drop(queue);
        self.shared.1.notify_all();
    }

    /// Waits until everything handed over is written, or `limit` has passed; returns whether
    /// it all was.
    pub fn flush(&self, limit: Duration) -> bool {
        let ready = &self.shared.1;
        let queue = self.lock();
        let (queue, _) = ready
            .wait_timeout_while(queue, limit, |q| !q.idle())
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        queue.idle()
    }

    /// The writes finished since the last call, in the order they finished.
    pub fn take_finished(&self) -> Vec<Written> {
        std::mem::take(&mut self.lock().finished)
    }

    /// Files written so far.
    pub fn written(&self) -> u64 {
        self.lock().written
    }

    fn run(&self, disk: &(dyn Fn(&Path) -> SharedSteps + Send + Sync)) {
        let ready = &self.shared.1;
        // The journals open for appending, by path.
        let mut open = HashMap::new();
        // The journals whose last write failed.
        let mut failed = HashSet::new();
        loop {
            let next = {
                let mut queue = self.lock();
                queue.writing = false;
                ready.notify_all();
                queue = ready
                    .wait_while(queue, |q| q.pending.is_empty() && q.journal.is_empty())
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                let next = match queue.journal.pop_front() {
                    Some(write) => Next::Journal(write),
                    None => match queue.pending.pop_first() {
                        Some((path, bytes)) => Next::File(path, bytes),
                        None => continue,
                    },
                };
                queue.writing = true;
                next
            };
            let written = match next {
                Next::File(path, bytes) => {
                    let result = write_atomic_with(&Through(disk(&path)), &path, &bytes);
                    Written {
                        path,
                        bytes,
                        journal: None,
                        result,
                    }
                }
                Next::Journal(write) => {
                    let steps = Through(disk(&write.path));
                    let result = match failed.contains(&write.path) && !write.starts_afresh() {
                        true => Err(StoreError::AfterFailure(write.path.clone())),
                        false => write_journal(&steps, &mut open, &write),
                    };
                    match result {
                        Ok(()) => failed.remove(&write.path),
                        Err(_) => failed.insert(write.path.clone()),
                    };
                    Written {
                        path: write.path,
                        bytes: Vec::new(),
                        journal: Some(write.number),
                        result,
                    }
                }
            };
            let mut queue = self.lock();
            queue.written += u64::from(written.result.is_ok());
            queue.finished.push(written);
        }
    }
}

impl Queue {
    /// Nothing waits and nothing is being written.
    fn idle(&self) -> bool {
        self.pending.is_empty() && self.journal.is_empty() && !self.writing
    }
}

/// The writer's next job.
enum Next {
    File(PathBuf, Vec<u8>),
    Journal(JournalWrite),
}

/// Writes one journal write through `steps`: the records appended to the journal (opened at
/// its first append and kept open; synced if asked), or the file replaced (the next append
/// opens the new file).
fn write_journal(
    steps: &impl Steps,
    open: &mut HashMap<PathBuf, Journal>,
    write: &JournalWrite,
) -> Result<(), StoreError> {
    let path = &write.path;
    let result = match &write.write {
        save_log::Write::Replace(lines) => {
            // The next append opens the new file.
            open.remove(path);
            make_folder(path)?;
            Journal::replace_with(steps, path, lines).map(|_| ())
        }
        save_log::Write::Append(lines) => {
            if !open.contains_key(path) {
                make_folder(path)?;
                open.insert(path.clone(), Journal::open(path)?.0);
            }
            open.get_mut(path).map_or(Ok(()), |journal| {
                journal.append_all_with(steps, lines, write.sync)
            })
        }
    };
    // A journal whose append failed stays open: it knows to cut off what part of the records
    // reached the file before its next append (reopened, it would read them as whole).
    Ok(result?)
}

/// Makes a file's folder if it is missing.
fn make_folder(path: &Path) -> Result<(), StoreError> {
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => std::fs::create_dir_all(parent).map_err(|source| StoreError::Folder {
            path: parent.to_path_buf(),
            source,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_bytes_win_and_flush_waits_for_them() {
        let dir = std::env::temp_dir().join(format!("snapslide-writer-{}", std::process::id()));
        let writer = Writer::start();
        let path = dir.join("game.json");
        for i in 0..100 {
            writer.hand(Job::File(path.clone(), format!("version {i}").into_bytes()));
        }
        assert!(
            writer.flush(Duration::from_secs(30)),
            "the writer never finished"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "version 99");
        let finished = writer.take_finished();
        assert!(finished.iter().all(|w| w.result.is_ok()), "{finished:?}");
        assert_eq!(finished.last().unwrap().bytes, b"version 99");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_write_is_reported() {
        let writer = Writer::start();
        // A file inside a file cannot be made.
        let blocker = std::env::temp_dir().join(format!("snapslide-block-{}", std::process::id()));
        std::fs::write(&blocker, b"x").unwrap();
        writer.hand(Job::File(blocker.join("settings.json"), b"{}".to_vec()));
        assert!(writer.flush(Duration::from_secs(30)));
        let finished = writer.take_finished();
        assert_eq!(finished.len(), 1, "{finished:?}");
        assert!(matches!(finished[0].result, Err(StoreError::Folder { .. })));
        assert_eq!(writer.written(), 0);
        std::fs::remove_file(blocker).unwrap();
    }
}
