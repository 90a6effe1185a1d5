//! Writes files off the frame: the frame hands over the bytes, a thread of its own writes them
//! whole or not at all (atomic-file). When a file is handed over again before the last write
//! began (a solution playing at 30 moves a second), only the newest bytes are written. A
//! journal (the game's save) is written as it is handed over instead: its records appended in
//! order, or the file replaced whole, which makes the writes queued before it moot. Each
//! write's outcome goes back to the frame, with its bytes (or its journal write's number), so a
//! file that failed can be tried again.

use std::collections::{BTreeMap, HashMap, VecDeque};
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

/// A journal's write waiting its turn: the journal, the write's number, and the write.
#[derive(Debug)]
struct JournalWrite {
    path: PathBuf,
    number: u64,
    write: save_log::Write,
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
        Writer::start_with(Arc::new(Disk))
    }

    /// A writer with its thread running, taking each step of a write through `steps` (a test
    /// makes them fail with atomic-file's `Faulty`).
    pub fn start_with(steps: SharedSteps) -> Writer {
        let writer = Writer::default();
        let worker = writer.clone();
        let spawned = std::thread::Builder::new()
            .name("snapslide-writer".into())
            .spawn(move || worker.run(&Through(steps)));
        if let Err(error) = spawned {
            // Nothing is written then; the log says why.
            bevy::log::error!("cannot start the writer: {error}");
        }
        writer
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        crate::background::lock(&self.shared.0)
    }

    /// Hands over a file's new contents.
    pub fn write(&self, path: PathBuf, bytes: Vec<u8>) {
        self.lock().pending.insert(path, bytes);
        self.shared.1.notify_all();
    }

    /// Hands over a journal's write, numbered so its outcome can be told from an older one's.
    /// A replacement drops the writes to the same journal still waiting before it.
    pub fn write_journal(&self, path: PathBuf, number: u64, write: save_log::Write) {
        let mut queue = self.lock();
        if matches!(write, save_log::Write::Replace(_)) {
            queue.journal.retain(|waiting| waiting.path != path);
        }
        queue.journal.push_back(JournalWrite {
            path,
            number,
            write,
        });
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

    fn run(&self, steps: &impl Steps) {
        let ready = &self.shared.1;
        // The journals open for appending, by path.
        let mut open = HashMap::new();
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
                    let result = write_atomic_with(steps, &path, &bytes);
                    Written {
                        path,
                        bytes,
                        journal: None,
                        result,
                    }
                }
                Next::Journal(write) => {
                    let result = write_journal(steps, &mut open, &write);
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

/// Writes one journal write: the records appended to the journal (opened at its first
/// append, and again after a failure), or the file replaced through `steps`.
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
                open.insert(path.clone(), Journal::open(path)?.0);
            }
            open.get_mut(path)
                .map_or(Ok(()), |journal| journal.append_all(lines, false))
        }
    };
    if result.is_err() {
        open.remove(path);
    }
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
            writer.write(path.clone(), format!("version {i}").into_bytes());
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
        writer.write(blocker.join("settings.json"), b"{}".to_vec());
        assert!(writer.flush(Duration::from_secs(30)));
        let finished = writer.take_finished();
        assert_eq!(finished.len(), 1, "{finished:?}");
        assert!(matches!(finished[0].result, Err(StoreError::Folder { .. })));
        assert_eq!(writer.written(), 0);
        std::fs::remove_file(blocker).unwrap();
    }
}
