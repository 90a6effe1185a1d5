//! Work off the frame, on threads of its own: the engine's searches and table builds, and the
//! decoding of photos. Not on Bevy's task pools: on a small machine they have a thread or
//! two, which also compile the renderer's pipelines, and a table build there would hold the
//! first frame back for seconds.

use std::sync::{Arc, Mutex, MutexGuard};

use npuzzle::CancelFlag;

/// Locks `mutex`, and takes its value even if a thread panicked while it held it (the values
/// shared here are plain data, never left half-changed).
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A result being worked out on a thread of its own. Dropping it stops a search started with
/// [`Background::cancellable`] (a new board, a new request, the app closing).
pub struct Background<T> {
    /// Where the thread leaves its result; the thread holds the other reference while it works.
    slot: Arc<Mutex<Option<T>>>,
    lost: bool,
    taken: bool,
    cancel: Option<CancelFlag>,
}

impl<T> Drop for Background<T> {
    fn drop(&mut self) {
        if let Some(cancel) = &self.cancel {
            cancel.cancel();
        }
    }
}

impl<T: Send + 'static> Background<T> {
    /// Starts `work` on a new thread named `name`.
    pub fn spawn(name: &str, work: impl FnOnce() -> T + Send + 'static) -> Background<T> {
        let slot = Arc::new(Mutex::new(None));
        let result = Arc::clone(&slot);
        let spawned = std::thread::Builder::new()
            .name(format!("snapslide-{name}"))
            .spawn(move || {
                let value = work();
                *lock(&result) = Some(value);
            });
        Background {
            slot,
            lost: spawned.is_err(),
            taken: false,
            cancel: None,
        }
    }

    /// Starts `work`, which stops when `cancel` is set; dropping the handle sets it.
    pub fn cancellable(
        name: &str,
        cancel: &CancelFlag,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Background<T> {
        let mut job = Background::spawn(name, work);
        job.cancel = Some(cancel.clone());
        job
    }

    /// The result, once it is ready (and only once).
    pub fn poll(&mut self) -> Option<T> {
        // Whether the thread has let go of the slot, read before the slot: it writes its result
        // first, so a slot empty after that means it never will. (Read after, the thread could
        // write and let go in between, and a result waiting in the slot would count as lost.)
        let thread_done = Arc::strong_count(&self.slot) == 1;
        // Pairs with the release in the thread's drop of its `Arc`: its write is seen below.
        std::sync::atomic::fence(std::sync::atomic::Ordering::Acquire);
        let taken = lock(&self.slot).take();
        // No result, and nobody left to write one: the thread panicked.
        if taken.is_none() && !self.taken && thread_done {
            self.lost = true;
        }
        self.taken |= taken.is_some();
        taken
    }

    /// Whether the work ended without a result (its thread could not start, or panicked).
    pub fn is_lost(&self) -> bool {
        self.lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn wait<T: Send + 'static>(job: &mut Background<T>) -> Option<T> {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            if let Some(result) = job.poll() {
                return Some(result);
            }
            if job.is_lost() {
                return None;
            }
            std::thread::yield_now();
        }
        None
    }

    #[test]
    fn a_result_arrives_once() {
        let mut job = Background::spawn("test", || 6 * 7);
        assert_eq!(wait(&mut job), Some(42));
        assert_eq!(job.poll(), None);
        assert!(!job.is_lost());
    }

    #[test]
    fn a_result_that_arrives_between_two_looks_is_not_lost() {
        // Polled as fast as it can be, a job's result must never count as lost: the thread
        // writes it and lets go of the slot, perhaps between the poll's two looks.
        for n in 0..5_000u32 {
            let mut job = Background::spawn("test-race", move || n);
            assert_eq!(wait(&mut job), Some(n), "job {n}");
        }
    }

    #[test]
    fn dropping_a_cancellable_job_cancels_it() {
        let cancel = CancelFlag::new();
        let seen = cancel.clone();
        let job = Background::cancellable("test-cancel", &cancel, move || {
            let start = Instant::now();
            while !seen.is_cancelled() && start.elapsed() < Duration::from_secs(30) {
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        assert!(!cancel.is_cancelled());
        drop(job);
        assert!(cancel.is_cancelled());
    }

    #[test]
    fn a_panic_is_a_lost_result_not_a_hang() {
        let mut job: Background<u8> = Background::spawn("test-panic", || panic!("on purpose"));
        assert_eq!(wait(&mut job), None);
        assert!(job.is_lost());
    }
}
