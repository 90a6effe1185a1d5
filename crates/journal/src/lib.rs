//! An append-only file of records, one a line, in the spirit of SQLite's journal: each line is
//! `<CRC-32 of the payload as 8 hex digits> <payload>\n`, and the payload is one line of text
//! (its callers put compact JSON there).
//!
//! - [`Journal::append`] writes one record with one `write` call at the end of the file
//!   ([`Journal::append_synced`] syncs it to disk too); the records before it are never
//!   touched.
//! - [`Journal::open`] reads the records back. A torn last line (cut short by a crash, or one
//!   whose checksum fails at the very end) is dropped, and the file is cut back to the whole
//!   records before the next append. A damaged line in the middle is skipped and handed back
//!   in [`Loaded::damaged`]; the rest load. [`keep_damaged`] appends such lines to a side file.
//! - [`Journal::replace`] (compaction) writes a whole new file through `atomic-file`: a crash
//!   in the middle leaves the old file whole.
//!
//! docs/journal.md describes the format and its two uses (the save journal and the solves).

#![warn(missing_docs)]

mod file;
mod record;

use std::io;
use std::path::PathBuf;

use thiserror::Error;

pub use file::{Damaged, Journal, Loaded, damaged_path, keep_damaged, read};
pub use record::{decode, encode, encode_into};

/// Why a journal could not be read or written.
#[derive(Debug, Error)]
pub enum JournalError {
    /// A payload held a line break: a record is one line. Nothing was written.
    #[error("a journal record cannot hold a line break")]
    LineBreak,
    /// The file could not be opened or created (a missing or read-only folder, a folder where
    /// the file should be).
    #[error("could not open the journal {path}: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The file could not be read.
    #[error("could not read the journal {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// A record could not be written, or the torn end before it cut off; the next append cuts
    /// the file back to its last whole record first.
    #[error("could not append to the journal {path}: {source}")]
    Append {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The record was written but could not be synced to disk.
    #[error("could not sync the journal {path}: {source}")]
    Sync {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The compacted file could not replace the old one (which is as it was, unless only the
    /// folder's sync failed: see [`atomic_file::WriteError::replaced`]).
    #[error(transparent)]
    Replace(#[from] atomic_file::WriteError),
}

impl JournalError {
    /// The operating system's error, if it refused something.
    pub fn io_error(&self) -> Option<&io::Error> {
        match self {
            JournalError::LineBreak => None,
            JournalError::Open { source, .. }
            | JournalError::Read { source, .. }
            | JournalError::Append { source, .. }
            | JournalError::Sync { source, .. } => Some(source),
            JournalError::Replace(error) => error.io_error(),
        }
    }
}
