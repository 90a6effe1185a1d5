//! The app's way to the `npuzzle` engine: where its tables are cached, how many threads it
//! may take (a core short of the machine, so the frame never stutters), and the 4×4 tables
//! built in the background from the first launch, so a Hint or the meter on 4×4 never waits
//! for them.

use bevy::prelude::*;
use npuzzle::pdb::cache;
use npuzzle::{Board, Budget, CancelFlag, Options, Partition, Shape};

use crate::app::background::Background;

/// Threads for the engine: a core short of the machine.
pub fn threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_sub(1).max(1)
}

/// The small 4×4 tables, built in under a second: used until the stronger ones are ready.
pub const QUICK_4X4: &str = "5-5-5";

/// The engine's options for the app on a board of this shape: its cache folder and threads,
/// stopped by `cancel`. On 4×4, until stronger tables are loaded or cached, the small ones
/// (a search never waits for a long build).
pub fn options(shape: Shape, cancel: &CancelFlag) -> Options {
    let dir = crate::platform::cache_dir();
    let mut options = Options::default()
        .with_budget(Budget::default().with_cancel(cancel.clone()))
        .with_threads(threads());
    if (shape.width, shape.height) == (4, 4) && !strong_tables_at_hand(shape, dir.as_deref()) {
        options = options.with_partition(QUICK_4X4);
    }
    if let Some(dir) = dir {
        options = options.with_pdb_dir(dir);
    }
    options
}

/// Whether tables stronger than the quick ones are loaded in this process or cached.
fn strong_tables_at_hand(shape: Shape, dir: Option<&std::path::Path>) -> bool {
    Partition::strongest_first(shape)
        .iter()
        .filter(|partition| partition.name() != QUICK_4X4)
        .any(|partition| {
            cache::loaded(partition).is_some()
                || dir.is_some_and(|dir| cache::file_path(dir, partition).is_file())
        })
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, warm_up_once_shown);
}

/// How long after the app's start the tables' warm-up waits for the first board at most.
const WARM_UP_AT_THE_LATEST: std::time::Duration = std::time::Duration::from_secs(3);

/// Starts the tables' warm-up once the first board is on screen (or 3 s after the start if
/// none is by then): on a two-core machine a build from the start took a core from the first
/// frame and the photo's cutting. A game asked for before then builds the quick tables it
/// needs itself (`options`).
fn warm_up_once_shown(
    on_screen: Res<crate::board::view::OnScreen>,
    time: Res<Time<Real>>,
    mut started: Local<bool>,
) {
    if *started || (on_screen.tiles.is_empty() && time.elapsed() < WARM_UP_AT_THE_LATEST) {
        return;
    }
    *started = true;
    warm_up_tables();
}

/// Loads the 4×4 tables, or builds them once, on a thread of their own: the quick ones first
/// (under a second), then the shape's default (longer, in the background); both are cached
/// for every later launch.
fn warm_up_tables() {
    let Ok(shape) = Shape::new(4, 4) else {
        return;
    };
    let board = Board::goal_of(shape);
    let mut options = Options::default().with_threads(1);
    if let Some(dir) = crate::platform::cache_dir() {
        options = options.with_pdb_dir(dir);
    }
    let Some(full) = Partition::default_for(shape) else {
        return;
    };
    let full = options.clone().with_partition(full.name());
    // The thread runs on by itself; its result is only logged.
    drop(Background::spawn("tables", move || {
        let quick = options.with_partition(QUICK_4X4);
        for (what, options) in [("quick", quick), ("full", full)] {
            match npuzzle::pattern_database(&board, &options) {
                Ok(_) => info!("the 4×4 solver's {what} tables are ready"),
                Err(error) => warn!("the 4×4 solver's {what} tables could not be had: {error}"),
            }
        }
    }));
}
