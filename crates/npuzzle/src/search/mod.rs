//! The searches for any board small enough to solve optimally, and what every search shares.
//!
//! Here: A* and greedy (`astar`, `greedy`, over `best_first`), IDA* (`idastar`), breadth-first
//! ground truth (`bfs`); the best-first core they and the large-board searches share (`arena`,
//! `heap`, the closed sets `table` and `ranked`; the packed states are [`crate::packed`]); the
//! one weighted A* (`weighted`), which the large boards' weighted A* and stage search run;
//! budgets (`budget`).
//!
//! The large-board searches live in [`crate::large`], one module each: the wide beams
//! (`wide`), the presorting beam (`beam`), weighted A* on whole boards (`weighted`), the stage
//! search (`stage`)
//! and the windowed IDA* re-solves (`shorten`).

pub(crate) mod arena;
pub mod astar;
pub(crate) mod best_first;
pub mod bfs;
pub mod budget;
pub mod greedy;
pub mod heap;
pub mod idastar;
pub(crate) mod ranked;
pub(crate) mod table;
pub(crate) mod weighted;
