//! One process at a time in a folder: an advisory lock on a file in it, held for as long as
//! the [`Lock`] lives, and let go by the operating system when its process ends, however it
//! ends.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// The lock file's name in the folder it keeps.
pub const LOCK_FILE: &str = ".lock";

/// Why a folder could not be locked.
#[derive(Debug, Error)]
pub enum LockError {
    /// Another lock holds the folder: another process (or this one) has it.
    #[error("{path} is held by another process{}", holder_words(*.holder))]
    Held {
        /// The lock file.
        path: PathBuf,
        /// The process that holds it, as it wrote itself in the file (when that can be read).
        holder: Option<u32>,
    },
    /// The lock file could not be opened or locked (a missing or read-only folder).
    #[error("could not lock {path}: {source}")]
    Io {
        /// The lock file.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
}

/// The process named in a [`LockError::Held`] message.
fn holder_words(holder: Option<u32>) -> String {
    holder
        .map(|pid| format!(" (process {pid})"))
        .unwrap_or_default()
}

/// A folder held by this process: while it lives, [`Lock::acquire`] on the same folder fails
/// with [`LockError::Held`], in this process and in any other. Dropping it lets go. The lock
/// file stays in the folder (removing it would let two processes lock two different files).
#[derive(Debug)]
pub struct Lock {
    file: File,
    path: PathBuf,
}

impl Lock {
    /// Locks the folder `dir` (which must exist) without waiting, and writes this process's
    /// id in the lock file.
    ///
    /// # Errors
    ///
    /// [`LockError::Held`] when another lock holds it; [`LockError::Io`] when the lock file
    /// cannot be opened or locked.
    pub fn acquire(dir: &Path) -> Result<Lock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let holder = read_holder(&mut file);
                return Err(LockError::Held { path, holder });
            }
            Err(TryLockError::Error(source)) => return Err(io(source)),
        }
        // Who holds it is a note for whoever finds it held; the lock does not depend on it.
        let _ = write_holder(&mut file);
        Ok(Lock { file, path })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Closing the file would let go as well; unlocking first says so plainly.
        let _ = self.file.unlock();
    }
}

/// Writes this process's id over the lock file's contents.
fn write_holder(file: &mut File) -> io::Result<()> {
    file.set_len(0)?;
    file.rewind()?;
    write!(file, "{}", std::process::id())
}

/// The process id written in a lock file, if it can be read (it may be mid-write, or the
/// system may refuse to read a locked file).
fn read_holder(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.rewind().ok()?;
    file.take(16).read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;
    use std::process::{Command, Stdio};

    /// The variable that makes [`child_holds_the_lock`] lock a folder: its path.
    const CHILD_FOLDER: &str = "ATOMIC_FILE_LOCK_CHILD";
    /// What the child prints once it holds the lock.
    const LOCKED: &str = "child-locked-the-folder";

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("atomic-lock-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_second_lock_is_refused_until_the_first_is_dropped() {
        let dir = folder("twice");
        let first = Lock::acquire(&dir).unwrap();
        assert_eq!(first.path(), dir.join(LOCK_FILE));
        match Lock::acquire(&dir) {
            Err(LockError::Held { path, holder }) => {
                assert_eq!(path, dir.join(LOCK_FILE));
                assert_eq!(holder, Some(std::process::id()));
            }
            other => panic!("a second lock: {other:?}"),
        }
        drop(first);
        let again = Lock::acquire(&dir).expect("let go on drop");
        drop(again);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_an_error_not_a_lock() {
        let dir = folder("missing").join("not-there");
        let error = Lock::acquire(&dir).unwrap_err();
        assert!(matches!(&error, LockError::Io { path, .. } if path == &dir.join(LOCK_FILE)));
        assert!(error.to_string().contains("not-there"), "{error}");
    }

    /// Not a test: the other process of the next test. It locks the folder named by
    /// [`CHILD_FOLDER`], says so, and holds it until its input closes.
    #[test]
    #[ignore = "run in a child process by another_process_holds_the_folder_until_it_ends"]
    fn child_holds_the_lock() {
        let Some(dir) = std::env::var_os(CHILD_FOLDER) else {
            return;
        };
        let _lock = Lock::acquire(Path::new(&dir)).unwrap();
        // On the line libtest began with the test's name: the parent looks for the word.
        println!("{LOCKED}");
        io::stdout().flush().unwrap();
        let _ = io::stdin().read_to_end(&mut Vec::new());
    }

    #[test]
    fn another_process_holds_the_folder_until_it_ends() {
        let dir = folder("child");
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "lock::tests::child_holds_the_lock"])
            .args(["--ignored", "--nocapture", "--test-threads=1"])
            .env(CHILD_FOLDER, &dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = io::BufReader::new(child.stdout.take().unwrap()).lines();
        let said = lines.find(|line| line.as_ref().is_ok_and(|l| l.contains(LOCKED)));
        assert!(said.is_some(), "the child never locked the folder");
        match Lock::acquire(&dir) {
            Err(LockError::Held { holder, .. }) => assert_eq!(holder, Some(child.id())),
            other => panic!("the folder is another process's: {other:?}"),
        }
        // Killed, as kill -9 would: the system lets go of its lock.
        child.kill().unwrap();
        child.wait().unwrap();
        drop(Lock::acquire(&dir).expect("let go when the process ended"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
