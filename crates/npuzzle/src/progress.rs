//! One progress channel for every long job: table loads and builds, searches, and the search
//! for a board at a distance all report [`ProgressEvent`]s to the [`Progress`] callback a
//! [`Budget`](crate::Budget) carries. The events of each kind of job live here too, so the
//! jobs depend on this module and it on none of them.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// What a long job says as it goes.
#[derive(Clone, Debug, PartialEq)]
pub enum ProgressEvent {
    /// A pattern database load or build went on.
    Table(PdbEvent),
    /// A search went on: IDA* proved a new bound, the anytime solver found a better solution.
    Search(SearchStatus),
    /// The search for a board at an exact distance solved another candidate.
    Generate {
        /// Candidates solved so far.
        candidates: u64,
        /// Seconds since it began.
        seconds: f64,
    },
}

/// A callback told of each [`ProgressEvent`]; clones share the callback. It is called on the
/// searching threads, so it should be quick.
#[derive(Clone)]
pub struct Progress(Arc<dyn Fn(&ProgressEvent) + Send + Sync>);

impl Progress {
    /// Wraps a closure.
    pub fn new(report: impl Fn(&ProgressEvent) + Send + Sync + 'static) -> Progress {
        Progress(Arc::new(report))
    }

    /// Passes an event on.
    pub fn report(&self, event: &ProgressEvent) {
        (self.0)(event)
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Progress(..)")
    }
}

/// What a load or build reports as it goes, for a progress bar or a log.
#[derive(Clone, Debug, PartialEq)]
pub enum PdbEvent {
    /// Tables were read from the cache.
    Loaded {
        /// The file read.
        path: PathBuf,
        /// Its size.
        bytes: u64,
        /// Seconds the read took.
        seconds: f64,
    },
    /// The cached file could not be used and the tables are being built.
    Rebuilding {
        /// The file that was missing or bad.
        path: PathBuf,
        /// Why it could not be used.
        reason: String,
    },
    /// One pattern's build began.
    BuildStarted {
        /// The pattern's index in the partition.
        pattern: usize,
        /// Its tiles.
        tiles: Vec<u8>,
        /// The entries its table will have.
        entries: u64,
    },
    /// A pattern's build went on: `done` of `total` entries are known.
    BuildProgress {
        /// The pattern's index.
        pattern: usize,
        /// Entries found.
        done: u64,
        /// Entries in all.
        total: u64,
    },
    /// A pattern's build finished.
    BuildFinished {
        /// The pattern's index.
        pattern: usize,
        /// Seconds it took.
        seconds: f64,
        /// Bytes its table takes.
        bytes: u64,
    },
    /// The tables were written to the cache.
    Saved {
        /// The file written.
        path: PathBuf,
        /// Its size.
        bytes: u64,
    },
    /// The tables could not be written; they are used from memory.
    SaveFailed {
        /// The file that could not be written.
        path: PathBuf,
        /// Why.
        message: String,
    },
}

/// Where a search stands, as it reports while it runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchStatus {
    /// Nodes expanded so far.
    pub nodes_expanded: u64,
    /// Seconds since the search began.
    pub seconds: f64,
    /// The length the solution is now proved to need at least.
    pub lower_bound: usize,
    /// The length of the best solution so far, from searches that improve on one (the
    /// anytime solver); `None` before any.
    pub best: Option<usize>,
}
