//! The journal's file: read back line by line, appended to, cut back after a torn end, and
//! replaced whole when compacted.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use atomic_file::{Disk, Steps};

use crate::JournalError;
use crate::record::{decode, encode_into};

/// A line that could not be read back: its place, and its bytes as they are in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damaged {
    /// Its line number in the file, from 1.
    pub line: usize,
    /// How many good records come before it (where it sits among [`Loaded::records`]).
    pub after: usize,
    /// The line's bytes, without its newline.
    pub bytes: Vec<u8>,
}

/// What a journal held: its good records in order, and the lines that were not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    /// The payloads of the good records, oldest first.
    pub records: Vec<String>,
    /// Damaged lines before the last one: skipped, and left in the file.
    pub damaged: Vec<Damaged>,
    /// The last line, when it was torn (no newline, or a checksum that fails): dropped, and
    /// cut off the file before the next append.
    pub torn: Option<Damaged>,
    /// The length of the file without its torn end: where the next record goes.
    pub good_len: u64,
}

impl Loaded {
    /// Reads a journal's bytes.
    pub fn parse(bytes: &[u8]) -> Loaded {
        let mut loaded = Loaded::default();
        let mut start = 0;
        let mut line = 0;
        while start < bytes.len() {
            line += 1;
            let (body, end, whole) = match bytes[start..].iter().position(|&b| b == b'\n') {
                Some(at) => (&bytes[start..start + at], start + at + 1, true),
                None => (&bytes[start..], bytes.len(), false),
            };
            let last = end == bytes.len();
            match decode(body).filter(|_| whole) {
                Some(payload) => loaded.records.push(payload.to_string()),
                None => {
                    let damaged = Damaged {
                        line,
                        after: loaded.records.len(),
                        bytes: body.to_vec(),
                    };
                    if last {
                        loaded.torn = Some(damaged);
                        loaded.good_len = start as u64;
                        return loaded;
                    }
                    loaded.damaged.push(damaged);
                }
            }
            start = end;
        }
        loaded.good_len = bytes.len() as u64;
        loaded
    }

    /// Every line that could not be read, the torn end last.
    pub fn all_damaged(&self) -> impl Iterator<Item = &Damaged> {
        self.damaged.iter().chain(&self.torn)
    }
}

/// Reads the journal at `path` without opening it for writing; a file that does not exist is
/// an empty journal.
///
/// # Errors
///
/// [`JournalError::Read`] if the file exists but cannot be read.
pub fn read(path: &Path) -> Result<Loaded, JournalError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Loaded::parse(&bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Loaded::default()),
        Err(source) => Err(JournalError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// An append-only journal open for writing.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: File,
    /// The length of its whole records: where the next one goes.
    len: u64,
    /// Whether the file may hold bytes past `len` (a torn end, a failed append) to cut off
    /// before the next append.
    cut: bool,
    /// Bytes written through this journal: records appended, and files replaced.
    written: u64,
}

impl Journal {
    /// Opens the journal at `path` (created empty if missing; its folder must exist) and reads
    /// its records.
    ///
    /// # Errors
    ///
    /// [`JournalError::Open`] if the file cannot be opened for appending (a missing or
    /// read-only folder, a read-only file, a folder in its place); [`JournalError::Read`] if it
    /// cannot be read.
    pub fn open(path: &Path) -> Result<(Journal, Loaded), JournalError> {
        let mut file = open_append(path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|source| JournalError::Read {
                path: path.to_path_buf(),
                source,
            })?;
        let loaded = Loaded::parse(&bytes);
        let journal = Journal {
            path: path.to_path_buf(),
            file,
            len: loaded.good_len,
            cut: loaded.good_len != bytes.len() as u64,
            written: 0,
        };
        Ok((journal, loaded))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The length of the file's whole records, in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the journal holds no record.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes written through this journal so far: the records appended and the files that
    /// replaced it.
    pub fn bytes_written(&self) -> u64 {
        self.written
    }

    /// Appends one record, not synced: it is on disk when the system writes it out (a crash
    /// of the app loses nothing; a power cut may lose the newest records, never older ones).
    ///
    /// # Errors
    ///
    /// [`JournalError::LineBreak`] for a payload with a line break (nothing written);
    /// [`JournalError::Append`] if the write failed.
    pub fn append(&mut self, payload: &str) -> Result<(), JournalError> {
        self.append_all(&[payload], false)
    }

    /// Appends one record and syncs its data to disk before returning.
    ///
    /// # Errors
    ///
    /// As [`Journal::append`], and [`JournalError::Sync`] if the sync failed.
    pub fn append_synced(&mut self, payload: &str) -> Result<(), JournalError> {
        self.append_all(&[payload], true)
    }

    /// Appends several records with one `write` call, synced if `sync`; nothing is written if
    /// one of them holds a line break.
    ///
    /// # Errors
    ///
    /// As [`Journal::append_synced`].
    pub fn append_all<S: AsRef<str>>(
        &mut self,
        payloads: &[S],
        sync: bool,
    ) -> Result<(), JournalError> {
        self.append_all_with(&Disk, payloads, sync)
    }

    /// [`Journal::append_all`], the write and the sync taken through `steps` (a test's
    /// `atomic_file::Faulty` makes them fail: a write cut short, a sync refused).
    ///
    /// # Errors
    ///
    /// As [`Journal::append_synced`].
    pub fn append_all_with<S: AsRef<str>>(
        &mut self,
        steps: &impl Steps,
        payloads: &[S],
        sync: bool,
    ) -> Result<(), JournalError> {
        let mut lines = String::new();
        for payload in payloads {
            encode_into(&mut lines, payload.as_ref())?;
        }
        self.write_lines(steps, lines.as_bytes(), sync)
    }

    /// Writes whole lines at the end of the whole records, cutting off a torn end first.
    fn write_lines(
        &mut self,
        steps: &impl Steps,
        lines: &[u8],
        sync: bool,
    ) -> Result<(), JournalError> {
        let path = &self.path;
        let failed = |source| JournalError::Append {
            path: path.clone(),
            source,
        };
        if self.cut {
            self.file.set_len(self.len).map_err(failed)?;
            self.cut = false;
        }
        if let Err(source) = steps.write(&mut self.file, lines) {
            // Part of the lines may be in the file: cut them off before the next append.
            self.cut = true;
            return Err(failed(source));
        }
        if sync && let Err(source) = steps.sync(&self.file) {
            // The lines may not be on disk: they are not counted, and are cut off before the
            // next append, which writes them again if it is their retry (never twice).
            self.cut = true;
            return Err(JournalError::Sync {
                path: path.clone(),
                source,
            });
        }
        self.len += lines.len() as u64;
        self.written += lines.len() as u64;
        Ok(())
    }

    /// Replaces the file at `path` with these records, whole or not at all (through
    /// `atomic-file`: a temporary file, synced, renamed over it, the folder synced). Returns
    /// the bytes written.
    ///
    /// # Errors
    ///
    /// [`JournalError::LineBreak`] for a payload with a line break (nothing written);
    /// [`JournalError::Replace`] if the file could not be replaced (the old one is whole).
    pub fn replace<S: AsRef<str>>(path: &Path, payloads: &[S]) -> Result<u64, JournalError> {
        Journal::replace_with(&Disk, path, payloads)
    }

    /// [`Journal::replace`], each step of the atomic write taken through `steps` (a test's
    /// `atomic_file::Faulty` makes chosen steps fail).
    ///
    /// # Errors
    ///
    /// As [`Journal::replace`].
    pub fn replace_with<S: AsRef<str>>(
        steps: &impl Steps,
        path: &Path,
        payloads: &[S],
    ) -> Result<u64, JournalError> {
        let mut lines = String::new();
        for payload in payloads {
            encode_into(&mut lines, payload.as_ref())?;
        }
        atomic_file::write_with(steps, path, lines.as_bytes())?;
        Ok(lines.len() as u64)
    }

    /// Compacts this journal: its file replaced by these records (see [`Journal::replace`]),
    /// and reopened for the appends that follow.
    ///
    /// # Errors
    ///
    /// As [`Journal::replace`] (the journal then appends to the old file, as before), and
    /// [`JournalError::Open`] if the new file cannot be opened.
    pub fn compact<S: AsRef<str>>(&mut self, payloads: &[S]) -> Result<(), JournalError> {
        self.compact_with(&Disk, payloads)
    }

    /// [`Journal::compact`], each step of the atomic write taken through `steps`.
    ///
    /// # Errors
    ///
    /// As [`Journal::compact`].
    pub fn compact_with<S: AsRef<str>>(
        &mut self,
        steps: &impl Steps,
        payloads: &[S],
    ) -> Result<(), JournalError> {
        let written = Journal::replace_with(steps, &self.path, payloads)?;
        self.written += written;
        self.file = open_append(&self.path)?;
        self.len = written;
        self.cut = false;
        Ok(())
    }
}

/// The file at `path` opened to read and append, created if missing.
fn open_append(path: &Path) -> Result<File, JournalError> {
    OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(|source| JournalError::Open {
            path: path.to_path_buf(),
            source,
        })
}

/// Where a journal's damaged lines are kept: its path with `.damaged` added
/// (`game.journal.damaged`).
pub fn damaged_path(path: &Path) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(".damaged");
    PathBuf::from(name)
}

/// Appends damaged lines, as they were, one a line, to the side file `side` (created if
/// missing), synced; nothing is written for no lines.
///
/// # Errors
///
/// [`JournalError::Open`] or [`JournalError::Append`] if the side file cannot be written.
pub fn keep_damaged<'a>(
    side: &Path,
    lines: impl IntoIterator<Item = &'a Damaged>,
) -> Result<(), JournalError> {
    let mut bytes = Vec::new();
    for damaged in lines {
        bytes.extend_from_slice(&damaged.bytes);
        bytes.push(b'\n');
    }
    if bytes.is_empty() {
        return Ok(());
    }
    let failed = |source| JournalError::Append {
        path: side.to_path_buf(),
        source,
    };
    let mut file = open_append(side)?;
    file.write_all(&bytes).map_err(failed)?;
    file.sync_data().map_err(failed)
}
