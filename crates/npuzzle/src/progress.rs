//! One progress channel for every long job: table loads and builds, searches, and the search
//! for a board at a distance all report [`ProgressEvent`]s to the [`Progress`] callback a
//! [`Budget`](crate::Budget) carries.

use std::fmt;
use std::sync::Arc;

use crate::pdb::PdbEvent;
use crate::search::budget::SearchStatus;

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
