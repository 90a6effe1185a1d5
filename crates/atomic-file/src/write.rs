//! The atomic write: a temporary file beside the target, its bytes, a sync, a rename over the
//! target, a sync of the folder; on a failure before the rename, the temporary file removed.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

use crate::steps::{Disk, Step, Steps};

/// Why a file could not be replaced. Each names the step that failed and the file; in all but
/// [`WriteError::SyncFolder`] the old file is as it was.
#[derive(Debug, Error)]
pub enum WriteError {
    /// The path names no file (it ends in `..`, or is a root or empty).
    #[error("{path} names no file to write")]
    NoFileName {
        /// The path given.
        path: PathBuf,
    },
    /// The temporary file could not be created (a missing or read-only folder, a full disk).
    #[error("could not write {path}: creating the temporary file {temp} failed: {source}")]
    Create {
        /// The file being replaced.
        path: PathBuf,
        /// The temporary file.
        temp: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The bytes could not be written to the temporary file (a full disk).
    #[error("could not write {path}: writing the temporary file {temp} failed: {source}")]
    Write {
        /// The file being replaced.
        path: PathBuf,
        /// The temporary file.
        temp: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The temporary file could not be synced to disk.
    #[error("could not write {path}: syncing the temporary file {temp} failed: {source}")]
    Sync {
        /// The file being replaced.
        path: PathBuf,
        /// The temporary file.
        temp: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The temporary file could not be renamed over the file.
    #[error("could not write {path}: renaming {temp} over it failed: {source}")]
    Rename {
        /// The file being replaced.
        path: PathBuf,
        /// The temporary file.
        temp: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The file was replaced (it holds the new bytes, whole), but its folder could not be
    /// synced: after a power cut the old file may be back.
    #[error("{path} was replaced, but syncing its folder failed: {source}")]
    SyncFolder {
        /// The file replaced.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
}

impl WriteError {
    /// The step that failed (`None` for a path that names no file: no step was taken).
    pub fn step(&self) -> Option<Step> {
        match self {
            WriteError::NoFileName { .. } => None,
            WriteError::Create { .. } => Some(Step::Create),
            WriteError::Write { .. } => Some(Step::Write),
            WriteError::Sync { .. } => Some(Step::Sync),
            WriteError::Rename { .. } => Some(Step::Rename),
            WriteError::SyncFolder { .. } => Some(Step::SyncFolder),
        }
    }

    /// The file that was being written.
    pub fn path(&self) -> &Path {
        match self {
            WriteError::NoFileName { path }
            | WriteError::Create { path, .. }
            | WriteError::Write { path, .. }
            | WriteError::Sync { path, .. }
            | WriteError::Rename { path, .. }
            | WriteError::SyncFolder { path, .. } => path,
        }
    }

    /// Whether the file holds the new bytes all the same (only when syncing the folder
    /// failed, after the rename).
    pub fn replaced(&self) -> bool {
        matches!(self, WriteError::SyncFolder { .. })
    }

    /// The operating system's error, if a step failed.
    pub fn io_error(&self) -> Option<&io::Error> {
        match self {
            WriteError::NoFileName { .. } => None,
            WriteError::Create { source, .. }
            | WriteError::Write { source, .. }
            | WriteError::Sync { source, .. }
            | WriteError::Rename { source, .. }
            | WriteError::SyncFolder { source, .. } => Some(source),
        }
    }
}

/// Replaces the file at `path` with `bytes`, atomically, on the disk (see [`write_with`]).
///
/// # Errors
///
/// A [`WriteError`] naming the step that failed; the old file is then as it was (unless only
/// the folder's sync failed, see [`WriteError::SyncFolder`]).
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_with(&Disk, path, bytes)
}

/// Replaces the file at `path` with `bytes`, atomically, taking each step through `steps`: a
/// new temporary file in the same folder (`.<name>.tmp-<process>-<count>`), the bytes, a sync,
/// a rename over `path`, and a sync of the folder. Before the rename, a failure removes the
/// temporary file and leaves the old file as it was; if that removal fails too, the temporary
/// file stays (the error still names the first failure). The folder must exist: it is not
/// made here. The new file gets the default permissions, not the old file's.
///
/// # Errors
///
/// A [`WriteError`] naming the step that failed and the file.
pub fn write_with(steps: &impl Steps, path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_parts_with(steps, path, &[bytes])
}

/// Replaces the file at `path` with `parts` one after another, atomically, on the disk (see
/// [`write_parts_with`]): a large file made of pieces is written without a copy of them all.
///
/// # Errors
///
/// As [`write`].
pub fn write_parts(path: &Path, parts: &[&[u8]]) -> Result<(), WriteError> {
    write_parts_with(&Disk, path, parts)
}

/// [`write_with`] for a file made of `parts`, written one after another (each a write step)
/// into the temporary file.
///
/// # Errors
///
/// A [`WriteError`] naming the step that failed and the file.
pub fn write_parts_with(
    steps: &impl Steps,
    path: &Path,
    parts: &[&[u8]],
) -> Result<(), WriteError> {
    let Some(name) = path.file_name() else {
        return Err(WriteError::NoFileName {
            path: path.to_path_buf(),
        });
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let (mut file, temp) = create_temp(steps, path, dir, name)?;
    let failed = |step: Step, source: io::Error| {
        let (path, temp) = (path.to_path_buf(), temp.clone());
        match step {
            Step::Write => WriteError::Write { path, temp, source },
            Step::Sync => WriteError::Sync { path, temp, source },
            _ => WriteError::Rename { path, temp, source },
        }
    };
    let written = parts
        .iter()
        .try_for_each(|part| steps.write(&mut file, part))
        .map_err(|e| failed(Step::Write, e))
        .and_then(|()| steps.sync(&file).map_err(|e| failed(Step::Sync, e)))
        .and_then(|()| {
            // Closed before the rename: Windows renames no open file.
            drop(file);
            steps
                .rename(&temp, path)
                .map_err(|e| failed(Step::Rename, e))
        });
    if let Err(error) = written {
        // Nothing more can be done if this fails too: the first error is the one to report.
        let _ = steps.remove(&temp);
        return Err(error);
    }
    steps
        .sync_folder(dir)
        .map_err(|source| WriteError::SyncFolder {
            path: path.to_path_buf(),
            source,
        })
}

/// Creates a temporary file in `dir` for the file `name`, with a name not taken yet (one left
/// by a process that ended mid-write is passed over).
fn create_temp(
    steps: &impl Steps,
    path: &Path,
    dir: &Path,
    name: &std::ffi::OsStr,
) -> Result<(std::fs::File, PathBuf), WriteError> {
    let mut tries = 0;
    loop {
        let temp = dir.join(temp_name(name));
        match steps.create(&temp) {
            Ok(file) => return Ok((file, temp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 8 => tries += 1,
            Err(source) => {
                let path = path.to_path_buf();
                return Err(WriteError::Create { path, temp, source });
            }
        }
    }
}

/// A fresh name for a temporary file beside `name`: hidden, and unique in this process.
fn temp_name(name: &std::ffi::OsStr) -> OsString {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let mut temp = OsString::from(".");
    temp.push(name);
    temp.push(format!(
        ".tmp-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    temp
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::steps::Faulty;

    /// A fresh empty folder for one test.
    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("atomic-file-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The names in a folder, sorted.
    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    const OLD: &[u8] = b"{\"theme\": \"Light\"}";
    const NEW: &[u8] = b"{\"theme\": \"Dark\", \"meter\": true, \"sound\": false}";

    #[test]
    fn a_write_takes_every_step_in_order_and_replaces_the_file() {
        let dir = folder("steps");
        let path = dir.join("settings.json");
        std::fs::write(&path, OLD).unwrap();
        let steps = Faulty::failing(&[]);
        write_with(&steps, &path, NEW).unwrap();
        let order = [
            Step::Create,
            Step::Write,
            Step::Sync,
            Step::Rename,
            Step::SyncFolder,
        ];
        assert_eq!(steps.taken(), order);
        assert_eq!(std::fs::read(&path).unwrap(), NEW);
        assert_eq!(names_in(&dir), ["settings.json"]);
        // `write` takes the same steps on the disk.
        write(&path, OLD).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), OLD);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn parts_are_written_in_order_and_a_failed_one_leaves_the_old_file_whole() {
        let dir = folder("parts");
        let path = dir.join("table.bin");
        write_parts(&path, &[b"head ", b"", b"tables ", b"sum"]).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"head tables sum");
        let steps = Faulty::failing(&[Step::Write]);
        assert!(write_parts_with(&steps, &path, &[NEW, OLD]).is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"head tables sum");
        assert_eq!(names_in(&dir), ["table.bin"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failure_before_the_rename_leaves_the_old_file_whole_and_nothing_else() {
        let dir = folder("fail");
        let path = dir.join("game.json");
        for step in [Step::Create, Step::Write, Step::Sync, Step::Rename] {
            for old in [Some(OLD), None] {
                let _ = std::fs::remove_file(&path);
                if let Some(old) = old {
                    std::fs::write(&path, old).unwrap();
                }
                let error = write_with(&Faulty::failing(&[step]), &path, NEW).unwrap_err();
                assert_eq!(error.step(), Some(step));
                assert_eq!(error.path(), path);
                assert!(!error.replaced());
                let message = error.to_string();
                assert!(message.contains(&path.display().to_string()), "{message}");
                assert!(message.contains(&format!("failure at {step}")), "{message}");
                assert_eq!(std::fs::read(&path).ok().as_deref(), old, "after {step}");
                let left: &[&str] = if old.is_some() { &["game.json"] } else { &[] };
                assert_eq!(names_in(&dir), left, "after a failure at {step}");
            }
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_folder_sync_comes_after_the_new_file_is_whole_in_place() {
        let dir = folder("sync-folder");
        let path = dir.join("scores.json");
        std::fs::write(&path, OLD).unwrap();
        let error = write_with(&Faulty::failing(&[Step::SyncFolder]), &path, NEW).unwrap_err();
        assert_eq!(error.step(), Some(Step::SyncFolder));
        assert_eq!(error.path(), path);
        assert!(error.replaced());
        assert_eq!(std::fs::read(&path).unwrap(), NEW);
        assert_eq!(names_in(&dir), ["scores.json"]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_cleanup_still_reports_the_first_failure_and_keeps_the_old_file() {
        let dir = folder("cleanup");
        let path = dir.join("daily.json");
        std::fs::write(&path, OLD).unwrap();
        let steps = Faulty::failing(&[Step::Write, Step::Remove]);
        let error = write_with(&steps, &path, NEW).unwrap_err();
        assert_eq!(error.step(), Some(Step::Write));
        assert_eq!(steps.taken(), [Step::Create, Step::Write, Step::Remove]);
        assert_eq!(std::fs::read(&path).unwrap(), OLD);
        // The half-written temporary file could not be removed: it is there, hidden, by name.
        let names = names_in(&dir);
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names[0].starts_with(".daily.json.tmp-"), "{names:?}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_folder_that_is_a_file_fails_at_create_naming_the_file() {
        let dir = folder("not-a-folder");
        let blocker = dir.join("data");
        std::fs::write(&blocker, b"a file where the folder should be").unwrap();
        let path = blocker.join("game.json");
        let error = write(&path, NEW).unwrap_err();
        assert_eq!(error.step(), Some(Step::Create));
        assert_eq!(error.path(), path);
        assert!(error.io_error().is_some());
        assert_eq!(names_in(&dir), ["data"]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_path_that_names_no_file_is_refused_before_any_step() {
        for path in ["", "/", "some/folder/.."] {
            let steps = Faulty::failing(&[]);
            let error = write_with(&steps, Path::new(path), NEW).unwrap_err();
            assert!(matches!(error, WriteError::NoFileName { .. }), "{path:?}");
            assert_eq!((error.step(), error.path()), (None, Path::new(path)));
            assert!(steps.taken().is_empty(), "{path:?}");
        }
    }

    /// Steps whose first `taken` temporary names are taken already (left by processes that
    /// ended mid-write).
    struct Leftovers {
        taken: std::sync::atomic::AtomicUsize,
    }

    impl Steps for Leftovers {
        fn create(&self, path: &Path) -> io::Result<std::fs::File> {
            let left = self.taken.load(Ordering::Relaxed);
            if left > 0 {
                self.taken.store(left - 1, Ordering::Relaxed);
                return Err(io::ErrorKind::AlreadyExists.into());
            }
            Disk.create(path)
        }
        fn write(&self, file: &mut std::fs::File, bytes: &[u8]) -> io::Result<()> {
            Disk.write(file, bytes)
        }
        fn sync(&self, file: &std::fs::File) -> io::Result<()> {
            Disk.sync(file)
        }
        fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
            Disk.rename(from, to)
        }
        fn sync_folder(&self, dir: &Path) -> io::Result<()> {
            Disk.sync_folder(dir)
        }
        fn remove(&self, path: &Path) -> io::Result<()> {
            Disk.remove(path)
        }
    }

    #[test]
    fn temporary_names_left_by_ended_processes_are_passed_over() {
        let dir = folder("leftovers");
        let path = dir.join("game.json");
        let leftovers = |taken| Leftovers {
            taken: std::sync::atomic::AtomicUsize::new(taken),
        };
        write_with(&leftovers(3), &path, NEW).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), NEW);
        // Not for ever: a folder where no name is free is an error at create.
        let error = write_with(&leftovers(1000), &path, OLD).unwrap_err();
        assert_eq!(error.step(), Some(Step::Create));
        assert_eq!(std::fs::read(&path).unwrap(), NEW);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn writers_at_once_never_leave_a_mixed_file() {
        let dir = folder("racing");
        let path = dir.join("game.json");
        let whole = |byte: u8| vec![byte; 64 << 10];
        std::fs::write(&path, whole(0)).unwrap();
        std::thread::scope(|scope| {
            for writer in 1..=3u8 {
                let path = &path;
                scope.spawn(move || {
                    for _ in 0..30 {
                        write(path, &whole(writer)).unwrap();
                    }
                });
            }
            for _ in 0..300 {
                let bytes = std::fs::read(&path).unwrap();
                assert_eq!(bytes.len(), 64 << 10, "a file cut short");
                assert!(bytes.iter().all(|&b| b == bytes[0]), "a mixed file");
            }
        });
        assert_eq!(names_in(&dir), ["game.json"]);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
