//! The steps of an atomic write, each one call that can fail: [`Disk`] takes them on the
//! file system, [`Faulty`] makes the chosen ones fail.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::{Mutex, PoisonError};

/// One step of an atomic write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Creating the temporary file (it must not exist yet).
    Create,
    /// Writing the bytes to it.
    Write,
    /// Syncing it to disk.
    Sync,
    /// Renaming it over the file.
    Rename,
    /// Syncing the folder, so that the rename is on disk too (Unix; elsewhere it does nothing).
    SyncFolder,
    /// Removing the temporary file after a failure.
    Remove,
}

impl Step {
    /// Every step, in the order a write takes them (removal last: only after a failure).
    pub const ALL: [Step; 6] = [
        Step::Create,
        Step::Write,
        Step::Sync,
        Step::Rename,
        Step::SyncFolder,
        Step::Remove,
    ];
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Step::Create => "create",
            Step::Write => "write",
            Step::Sync => "sync",
            Step::Rename => "rename",
            Step::SyncFolder => "sync the folder",
            Step::Remove => "remove",
        })
    }
}

/// The steps of an atomic write, one method each, so that a test can make any of them fail.
pub trait Steps {
    /// Creates a new file at `path` for writing; an error if it exists already.
    fn create(&self, path: &Path) -> io::Result<File>;
    /// Writes all of `bytes` to the file.
    fn write(&self, file: &mut File, bytes: &[u8]) -> io::Result<()>;
    /// Syncs the file's contents and size to disk.
    fn sync(&self, file: &File) -> io::Result<()>;
    /// Renames `from` to `to`, replacing `to` if it exists.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Syncs the folder `dir`, so that the names in it are on disk (Unix only).
    fn sync_folder(&self, dir: &Path) -> io::Result<()>;
    /// Removes the file at `path`.
    fn remove(&self, path: &Path) -> io::Result<()>;
}

/// The steps taken on the file system, with `std::fs`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Disk;

impl Steps for Disk {
    fn create(&self, path: &Path) -> io::Result<File> {
        OpenOptions::new().write(true).create_new(true).open(path)
    }

    fn write(&self, file: &mut File, bytes: &[u8]) -> io::Result<()> {
        file.write_all(bytes)
    }

    fn sync(&self, file: &File) -> io::Result<()> {
        file.sync_all()
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }

    #[cfg(unix)]
    fn sync_folder(&self, dir: &Path) -> io::Result<()> {
        File::open(dir)?.sync_all()
    }

    #[cfg(not(unix))]
    fn sync_folder(&self, _dir: &Path) -> io::Result<()> {
        // Windows cannot open a folder as a file; its renames are journalled (NTFS).
        Ok(())
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_file(path)
    }
}

/// The steps of [`Disk`], except that the chosen ones fail (each time they are taken) with an
/// I/O error that names the step; a failing write writes half the bytes first, as a disk that
/// fills up does. It keeps the list of the steps it was asked to take. For tests: a full disk
/// at any step, or a rename that cannot happen, on demand.
#[derive(Debug, Default)]
pub struct Faulty {
    failing: Vec<Step>,
    /// The operating system's error number a failing step gives; none for a plain error.
    os_error: Option<i32>,
    taken: Mutex<Vec<Step>>,
}

impl Faulty {
    /// Steps that fail at each of `failing`, and take the others on the disk.
    pub fn failing(failing: &[Step]) -> Faulty {
        Faulty {
            failing: failing.to_vec(),
            os_error: None,
            taken: Mutex::default(),
        }
    }

    /// Steps that fail at each of `failing` with the operating system's error `code` (as
    /// `ENOSPC`, 28, for a full disk, or `EIO`, 5, for a disk that fails a sync).
    pub fn failing_as(failing: &[Step], code: i32) -> Faulty {
        Faulty {
            os_error: Some(code),
            ..Faulty::failing(failing)
        }
    }

    /// The steps asked for so far, in order (the failed ones included).
    pub fn taken(&self) -> Vec<Step> {
        self.taken
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Notes the step, and fails if it is one of the failing ones.
    fn take(&self, step: Step) -> io::Result<()> {
        self.taken
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(step);
        if self.failing.contains(&step) {
            return Err(match self.os_error {
                Some(code) => io::Error::from_raw_os_error(code),
                None => io::Error::other(format!("injected failure at {step}")),
            });
        }
        Ok(())
    }
}

impl Steps for Faulty {
    fn create(&self, path: &Path) -> io::Result<File> {
        self.take(Step::Create)?;
        Disk.create(path)
    }

    fn write(&self, file: &mut File, bytes: &[u8]) -> io::Result<()> {
        // A disk that fills up fails half-way: half the bytes are written first.
        if let Err(full) = self.take(Step::Write) {
            Disk.write(file, &bytes[..bytes.len() / 2])?;
            return Err(full);
        }
        Disk.write(file, bytes)
    }

    fn sync(&self, file: &File) -> io::Result<()> {
        self.take(Step::Sync)?;
        Disk.sync(file)
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.take(Step::Rename)?;
        Disk.rename(from, to)
    }

    fn sync_folder(&self, dir: &Path) -> io::Result<()> {
        self.take(Step::SyncFolder)?;
        Disk.sync_folder(dir)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        self.take(Step::Remove)?;
        Disk.remove(path)
    }
}
