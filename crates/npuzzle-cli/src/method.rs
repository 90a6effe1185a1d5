//! The methods `--algorithm` names, for `solve` and `bench`.

use clap::ValueEnum;
use npuzzle::Algorithm;

/// The methods `--algorithm` names.
#[derive(Clone, Copy, ValueEnum)]
pub enum Method {
    /// A* on steps + Manhattan: optimal.
    Astar,
    /// Greedy best-first on Manhattan: fast, NOT optimal.
    Greedy,
    /// The constructive solver for any size, shortened: milliseconds, NOT optimal.
    Fast,
    /// The fast solution improved for --time seconds (default 1): NOT optimal in general.
    Anytime,
    /// IDA* with pattern databases (4x4, 5x5) or Manhattan + linear conflict: optimal.
    Idastar,
}

impl From<Method> for Algorithm {
    fn from(method: Method) -> Algorithm {
        match method {
            Method::Astar => Algorithm::AStar,
            Method::Greedy => Algorithm::Greedy,
            Method::Fast => Algorithm::Fast,
            Method::Anytime => Algorithm::Anytime,
            Method::Idastar => Algorithm::IdaStar,
        }
    }
}
