//! The app's way to the `npuzzle` engine: where its tables are cached, how many threads it
//! may take (a core short of the machine, so the frame never stutters), and the 4×4 tables
//! built in the background from the first launch, so a Hint or the meter on 4×4 never waits
//! for them.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::tasks::AsyncComputeTaskPool;
use npuzzle::{Board, Budget, CancelFlag, Options, Shape};

/// Where the solver's pattern databases are cached (see [`crate::platform::cache_dir`]);
/// `None` builds them in memory each run.
pub fn tables_dir() -> Option<PathBuf> {
    crate::platform::cache_dir()
}

/// Threads for the engine: a core short of the machine.
pub fn threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_sub(1).max(1)
}

/// The engine's options for the app: its cache folder and threads, stopped by `cancel`.
pub fn options(cancel: &CancelFlag) -> Options {
    let mut options = Options::default()
        .with_budget(Budget::default().with_cancel(cancel.clone()))
        .with_threads(threads());
    if let Some(dir) = tables_dir() {
        options = options.with_pdb_dir(dir);
    }
    options
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, warm_up_tables);
}

/// Loads the 4×4 tables, or builds them once, on a background thread (about 10–30 s the
/// first time on one core; they are cached for every later launch).
fn warm_up_tables() {
    let Ok(shape) = Shape::new(4, 4) else {
        return;
    };
    let board = Board::goal_of(shape);
    let options = options(&CancelFlag::new()).with_threads(1);
    AsyncComputeTaskPool::get()
        .spawn(async move {
            match npuzzle::pattern_database(&board, &options) {
                Ok(_) => info!("the 4×4 solver's tables are ready"),
                Err(error) => warn!("the 4×4 solver's tables could not be had: {error}"),
            }
        })
        .detach();
}
