//! Limits on a search: nodes, memory, a deadline, and a cancel flag; and the "gave up" report.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use crate::progress::SearchStatus;
use crate::progress::{Progress, ProgressEvent};

/// A flag another thread sets to stop a search. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    /// A flag that is not set.
    pub fn new() -> CancelFlag {
        CancelFlag::default()
    }

    /// Asks every search holding this flag to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag has been set.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// How much a search may spend before it gives up.
#[derive(Clone, Debug)]
pub struct Budget {
    /// The most nodes it may expand.
    pub max_nodes: Option<u64>,
    /// The most memory, in bytes, its tables may hold.
    pub max_memory: Option<usize>,
    /// When it must stop.
    pub deadline: Option<Instant>,
    /// Set by another thread to stop it.
    pub cancel: CancelFlag,
    /// Told how a long job goes: table builds, IDA*'s new bounds, the anytime solver's better
    /// solutions, a generator's candidates.
    pub progress: Option<Progress>,
}

/// The default memory cap: enough for any 8-puzzle, and far from a machine's limit.
pub const DEFAULT_MAX_MEMORY: usize = 2 << 30;

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_nodes: None,
            max_memory: Some(DEFAULT_MAX_MEMORY),
            deadline: None,
            cancel: CancelFlag::new(),
            progress: None,
        }
    }
}

impl Budget {
    /// No limit but the cancel flag. Use with care: a hard board can fill the memory.
    pub fn unlimited() -> Budget {
        Budget {
            max_memory: None,
            ..Budget::default()
        }
    }

    /// This budget with a node cap.
    pub fn with_max_nodes(mut self, nodes: u64) -> Budget {
        self.max_nodes = Some(nodes);
        self
    }

    /// This budget with a memory cap in bytes.
    pub fn with_max_memory(mut self, bytes: usize) -> Budget {
        self.max_memory = Some(bytes);
        self
    }

    /// This budget with a deadline this long from now.
    pub fn with_time_limit(mut self, limit: Duration) -> Budget {
        self.deadline = Some(Instant::now() + limit);
        self
    }

    /// This budget with a cancel flag.
    pub fn with_cancel(mut self, cancel: CancelFlag) -> Budget {
        self.cancel = cancel;
        self
    }

    /// This budget with a progress callback.
    pub fn with_progress(mut self, progress: Progress) -> Budget {
        self.progress = Some(progress);
        self
    }

    /// This budget without its progress callback: for a search inside a larger job, whose
    /// own figures would mislead.
    pub fn quiet(&self) -> Budget {
        Budget {
            progress: None,
            ..self.clone()
        }
    }

    /// Tells the progress callback, if there is one, where the search stands.
    pub fn report(&self, status: &SearchStatus) {
        self.report_event(&ProgressEvent::Search(*status));
    }

    /// Tells the progress callback, if there is one, of an event.
    pub fn report_event(&self, event: &ProgressEvent) {
        if let Some(progress) = &self.progress {
            progress.report(event);
        }
    }

    /// Why the search must stop now, if it must. Cheap enough to call every few thousand nodes.
    ///
    /// # Errors
    ///
    /// The [`StopReason`]: a node or memory limit reached, the deadline passed, or a cancel.
    pub fn check(&self, nodes: u64, memory: usize) -> Result<(), StopReason> {
        if self.cancel.is_cancelled() {
            return Err(StopReason::Cancelled);
        }
        if self.max_nodes.is_some_and(|max| nodes >= max) {
            return Err(StopReason::NodeLimit);
        }
        if self.max_memory.is_some_and(|max| memory >= max) {
            return Err(StopReason::MemoryLimit);
        }
        if self
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        {
            return Err(StopReason::Deadline);
        }
        Ok(())
    }
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The node cap was reached.
    NodeLimit,
    /// The memory cap was reached.
    MemoryLimit,
    /// The deadline passed.
    Deadline,
    /// The cancel flag was set.
    Cancelled,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::NodeLimit => "the node limit was reached",
            StopReason::MemoryLimit => "the memory limit was reached",
            StopReason::Deadline => "the time limit passed",
            StopReason::Cancelled => "it was cancelled",
        })
    }
}

/// What a search had done when it gave up.
#[derive(Clone, Debug, PartialEq)]
pub struct GaveUp {
    /// Which limit stopped it.
    pub reason: StopReason,
    /// Nodes expanded until then.
    pub nodes_expanded: u64,
    /// Seconds spent.
    pub seconds: f64,
    /// Bytes its tables held, as estimated.
    pub memory: usize,
    /// The best lower bound on the solution's length it had proved.
    pub lower_bound: usize,
}

impl GaveUp {
    /// A stop before any search ran (a table build cut short, a board not yet started): no
    /// nodes, no time, no memory, no bound.
    pub fn stopped(reason: StopReason) -> GaveUp {
        GaveUp {
            reason,
            nodes_expanded: 0,
            seconds: 0.0,
            memory: 0,
            lower_bound: 0,
        }
    }
}

impl fmt::Display for GaveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "gave up because {} after {} nodes in {:.3} s ({} MiB); the solution needs at least {} moves",
            self.reason,
            self.nodes_expanded,
            self.seconds,
            self.memory >> 20,
            self.lower_bound
        )
    }
}

/// A stopwatch for a search: elapsed seconds since it began.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch(Instant);

impl Stopwatch {
    /// Starts now.
    pub fn start() -> Stopwatch {
        Stopwatch(Instant::now())
    }

    /// Seconds since the start.
    pub fn seconds(&self) -> f64 {
        self.0.elapsed().as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_limit_stops() {
        let budget = Budget::unlimited();
        assert_eq!(budget.check(u64::MAX - 1, usize::MAX - 1), Ok(()));
        let budget = Budget::unlimited().with_max_nodes(10);
        assert_eq!(budget.check(9, 0), Ok(()));
        assert_eq!(budget.check(10, 0), Err(StopReason::NodeLimit));
        let budget = Budget::unlimited().with_max_memory(100);
        assert_eq!(budget.check(0, 100), Err(StopReason::MemoryLimit));
        let budget = Budget::unlimited().with_time_limit(Duration::ZERO);
        assert_eq!(budget.check(0, 0), Err(StopReason::Deadline));
        let flag = CancelFlag::new();
        let budget = Budget::unlimited().with_cancel(flag.clone());
        assert_eq!(budget.check(0, 0), Ok(()));
        std::thread::spawn(move || flag.cancel()).join().unwrap();
        assert_eq!(budget.check(0, 0), Err(StopReason::Cancelled));
    }
}
