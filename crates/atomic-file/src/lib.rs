//! Files replaced whole or not at all, and a folder kept to one process.
//!
//! [`write()`] replaces a file atomically: the bytes go to a temporary file in the same folder,
//! which is synced to disk and renamed over the file, and then (on Unix) the folder is synced
//! so that the rename itself survives a power cut. A reader sees the old file or the new one,
//! never a mix, and a failure at any step (a full disk, a folder that became a file) leaves
//! the old file whole and removes the temporary file. Each step goes through the [`Steps`]
//! trait: [`Disk`] does them, and [`Faulty`] makes chosen steps fail, so a test can see what
//! a failure at each one leaves behind. [`write_parts`] writes a file made of pieces (a table
//! cache's header, tables and checksum) without copying them into one buffer first.
//!
//! [`Lock`] holds an advisory lock on a file in a folder for as long as it lives: a second
//! [`Lock::acquire`] on that folder, from this process or another, fails with
//! [`LockError::Held`] until the first is dropped (or its process ends, however it ends).

#![warn(missing_docs)]

mod lock;
mod steps;
mod write;

pub use lock::{LOCK_FILE, Lock, LockError};
pub use steps::{Disk, Faulty, Step, Steps};
pub use write::{WriteError, write, write_parts, write_parts_with, write_with};
