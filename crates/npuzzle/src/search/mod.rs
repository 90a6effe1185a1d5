//! The solvers: best-first search (A*, greedy), with budgets.

pub(crate) mod arena;
pub mod astar;
pub(crate) mod best_first;
pub mod bfs;
pub mod budget;
pub mod greedy;
pub mod heap;
pub mod idastar;
pub mod key;
pub mod rank;
pub(crate) mod ranked;
pub(crate) mod table;
