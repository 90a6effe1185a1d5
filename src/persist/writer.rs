//! Writes files off the frame: the frame hands over the bytes, a thread of its own writes them
//! atomically. When a file is handed over again before the last write began (a solution
//! playing at 30 moves a second), only the newest bytes are written.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use super::files::write_atomic;

/// What waits to be written, and what went wrong.
#[derive(Default)]
struct Queue {
    /// The newest bytes for each file not yet written.
    pending: BTreeMap<PathBuf, Vec<u8>>,
    /// A file is being written now.
    writing: bool,
    /// Errors to tell the player about.
    errors: Vec<String>,
    /// Files written so far.
    written: u64,
}

/// The writer's queue and the thread that drains it. Cheap to clone.
#[derive(Clone, Default)]
pub struct Writer {
    shared: Arc<(Mutex<Queue>, Condvar)>,
}

impl Writer {
    /// A writer with its thread running.
    pub fn start() -> Writer {
        let writer = Writer::default();
        let worker = writer.clone();
        let spawned = std::thread::Builder::new()
            .name("snapslide-writer".into())
            .spawn(move || worker.run());
        if let Err(error) = spawned {
            writer
                .lock()
                .errors
                .push(format!("cannot start the writer: {error}"));
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

    /// The errors since the last call.
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut self.lock().errors)
    }

    /// Files written so far.
    pub fn written(&self) -> u64 {
        self.lock().written
    }

    fn run(&self) {
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
            let result = write_atomic(&path, &bytes);
            let mut queue = self.lock();
            queue.written += 1;
            if let Err(error) = result {
                queue.errors.push(error.to_string());
            }
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
        assert!(writer.take_errors().is_empty());
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
        let errors = writer.take_errors();
        assert_eq!(errors.len(), 1, "{errors:?}");
        std::fs::remove_file(blocker).unwrap();
    }
}
