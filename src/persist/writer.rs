//! Writes files off the frame: the frame hands over the bytes, a thread of its own writes them
//! whole or not at all (atomic-file). When a file is handed over again before the last write
//! began (a solution playing at 30 moves a second), only the newest bytes are written. Each
//! write's outcome goes back to the frame, with its bytes, so a file that failed can be tried
//! again.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use atomic_file::{Disk, Steps};

use super::files::{StoreError, write_atomic_with};

/// A write the writer finished: the file, the bytes, and whether they are on disk.
#[derive(Debug)]
pub struct Written {
    /// The file.
    pub path: PathBuf,
    /// The bytes it was given.
    pub bytes: Vec<u8>,
    /// Whether they were written (else the file is as it was).
    pub result: Result<(), StoreError>,
}

/// What waits to be written, and what was.
#[derive(Default)]
struct Queue {
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

    /// Waits until everything handed over is written, or `limit` has passed; returns whether
    /// it all was.
    pub fn flush(&self, limit: Duration) -> bool {
        let ready = &self.shared.1;
        let queue = self.lock();
        let (queue, _) = ready
            .wait_timeout_while(queue, limit, |q| !q.pending.is_empty() || q.writing)
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        queue.pending.is_empty() && !queue.writing
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
        loop {
            let (path, bytes) = {
                let mut queue = self.lock();
                queue.writing = false;
                ready.notify_all();
                queue = ready
                    .wait_while(queue, |q| q.pending.is_empty())
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                let Some(next) = queue.pending.pop_first() else {
                    continue;
                };
                queue.writing = true;
                next
            };
            let result = write_atomic_with(steps, &path, &bytes);
            let mut queue = self.lock();
            queue.written += u64::from(result.is_ok());
            queue.finished.push(Written {
                path,
                bytes,
                result,
            });
        }
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
        assert!(writer.written() <= 100);
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
