//! Statistics as speedsolvers count them: the best single, the mean, and the averages of 5, 12,
//! 50 and 100 (current and best) for time, moves (STM and MTM) and TPS, per category (board
//! size × mode, helped games apart), under WCA's rules.
//!
//! Statistics see a solve as an [`Attempt`] (a time or a DNF, and its move counts), so they fit
//! any record of solves: the app turns its records into attempts, in the order they were
//! played, oldest first.
//!
//! **The averages** ([`average_of`]): an average of N sorts the N results, drops the best and
//! the worst ⌈5 % of N⌉ (one each for ao5 and ao12, three for ao50, five for ao100) and means the
//! rest. A DNF sorts as the worst; more DNFs than the worst dropped make the average a DNF.
//!
//! **TPS** (moves a second, STM) is worked out per solve (its moves ÷ its seconds), then averaged
//! like the times: the same trimming, the highest TPS the best, a DNF the worst. TPS is counted
//! to a millionth of a move a second, so that its sums, like those of times and moves, are
//! exact. A time under 1 ms counts as 1 ms for TPS: a time of 0 gives a large TPS rather than
//! an infinite one.
//!
//! **Moves** of a DNF do not count: a DNF is the worst result in every metric.
//!
//! **The mean** is over the finished solves; DNFs are left out of it and counted apart
//! ([`Statistics::dnfs`]).
//!
//! **Use.** [`StatsReport::new`] over every solve keyed by its [`Category`] gives the
//! statistics of each category, for the Statistics sheet and, as JSON, for `snapslide --stats`
//! (`{}` when [`StatsReport::is_empty`]: say "No solves yet"). [`new_bests`] compares a
//! category's [`Statistics`] before and after a win, for the win card; [`format_figure`] writes
//! a figure for the player.
//!
//! ```
//! use snapslide_game::stats::{Attempt, Category, Metric, Mode, StatsReport, format_figure};
//!
//! let single = Category::new(4, 4, Mode::Single);
//! let times = [14_210, 15_000, 13_000, 16_000, 14_000];
//! let report = StatsReport::new(times.map(|ms| (single, Attempt::solved(ms, 60, 40))));
//! let ao5 = report.get(&single).unwrap().time_ms.average(5).unwrap();
//! assert_eq!(format_figure(Metric::Time, ao5.current).unwrap(), "14.40");
//! let json = serde_json::to_value(&report).unwrap();
//! assert_eq!(json["4x4 single"]["time_ms"]["ao5"]["best"], 14_403);
//! ```
//!
//! One category in the JSON (a figure without enough solves is left out, a DNF is `"DNF"`;
//! times in whole milliseconds, other figures to 3 decimals):
//!
//! ```json
//! {"solves": 6, "dnf": 1,
//!  "time_ms": {"single": {"current": "DNF", "best": 13000}, "mean": 14442,
//!              "ao5": {"current": 15000, "best": 14403}},
//!  "moves": {…}, "moves_mtm": {…}, "tps": {"single": {…}, "mean": 4.175, "ao5": {…}}}
//! ```

mod average;
mod category;
mod figures;
mod format;
mod record;

#[cfg(test)]
mod tests;

pub use average::{
    average_of, best_average, best_single, current_average, mean, rolling_average, trimmed,
};
pub use category::{Category, Mode, ParseCategoryError, StatsReport, group};
pub use figures::{AVERAGES, Figures, Pair, Statistics};
pub use format::{format_centis, format_figure, format_moves, format_time, format_tps};
pub use record::{Figure, NewBest, NewBests, new_bests};

/// One result as statistics see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attempt {
    /// The time in milliseconds; `None` for a DNF (did not finish).
    pub time_ms: Option<u64>,
    /// Moves in STM (each tile moved counts once).
    pub moves: u32,
    /// Moves in MTM (a slide of several tiles in one line counts once); `None` when unknown
    /// (a solve imported with its STM count only): such a result is left out of the MTM
    /// figures ([`Figures::of`]), and counts in the others.
    pub moves_mtm: Option<u32>,
}

impl Attempt {
    /// A finished solve.
    pub fn solved(time_ms: u64, moves: u32, moves_mtm: u32) -> Attempt {
        Attempt {
            time_ms: Some(time_ms),
            moves,
            moves_mtm: Some(moves_mtm),
        }
    }

    /// A DNF (did not finish), with the moves made.
    pub fn dnf(moves: u32, moves_mtm: u32) -> Attempt {
        Attempt {
            time_ms: None,
            moves,
            moves_mtm: Some(moves_mtm),
        }
    }

    /// Whether this is a DNF.
    pub fn is_dnf(&self) -> bool {
        self.time_ms.is_none()
    }

    /// This result in a metric, `None` for a DNF. TPS is the moves ÷ the seconds to a millionth
    /// of a move a second, a time under 1 ms counted as 1 ms.
    pub fn value(&self, metric: Metric) -> Option<f64> {
        Some(self.units(metric)? as f64 / metric.units_per_value())
    }

    /// This result in whole units of a metric (milliseconds, moves, or millionths of a move a
    /// second), `None` for a DNF (and for an unknown MTM, which [`Figures::of`] leaves out):
    /// sums of units are exact, so are averages and their order.
    fn units(&self, metric: Metric) -> Option<i64> {
        let time_ms = self.time_ms?;
        Some(match metric {
            Metric::Time => i64::try_from(time_ms).unwrap_or(i64::MAX - 1),
            Metric::Moves => i64::from(self.moves),
            Metric::MovesMtm => i64::from(self.moves_mtm?),
            Metric::Tps => {
                // At most 2³² × 10⁹: within an i64.
                let ms = u128::from(time_ms.max(1));
                ((u128::from(self.moves) * 1_000_000_000 + ms / 2) / ms) as i64
            }
        })
    }
}

/// What is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Metric {
    /// The time, in milliseconds (fewer is better).
    Time,
    /// Moves in STM (fewer is better).
    Moves,
    /// Moves in MTM (fewer is better).
    MovesMtm,
    /// Moves (STM) a second (more is better).
    Tps,
}

impl Metric {
    /// Every metric, in the order statistics list them.
    pub const ALL: [Metric; 4] = [Metric::Time, Metric::Moves, Metric::MovesMtm, Metric::Tps];

    /// The name of the metric in the statistics' JSON (`time_ms`, `moves`, `moves_mtm`, `tps`).
    pub fn key(self) -> &'static str {
        match self {
            Metric::Time => "time_ms",
            Metric::Moves => "moves",
            Metric::MovesMtm => "moves_mtm",
            Metric::Tps => "tps",
        }
    }

    /// How many of the metric's whole units make one of its values: 10⁶ for TPS (counted in
    /// millionths), 1 for the others.
    fn units_per_value(self) -> f64 {
        if self == Metric::Tps { 1e6 } else { 1.0 }
    }

    /// Whether a higher value is better (TPS); otherwise a lower one is.
    pub fn higher_is_better(self) -> bool {
        self == Metric::Tps
    }

    /// Whether `a` is strictly better than `b` in this metric.
    pub fn better(self, a: f64, b: f64) -> bool {
        if self.higher_is_better() {
            a > b
        } else {
            a < b
        }
    }
}

/// An average, a mean or a single: a value, a DNF, or not enough results to have one.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Average {
    /// The value, in the metric's unit (milliseconds, moves, or moves a second).
    Value(f64),
    /// Did not finish: too many DNFs (or only DNFs).
    Dnf,
    /// Not enough results for this figure.
    #[default]
    NotEnough,
}

impl Average {
    /// The value, if there is one.
    pub fn value(self) -> Option<f64> {
        match self {
            Average::Value(value) => Some(value),
            _ => None,
        }
    }

    /// Whether there are not enough results for this figure.
    pub fn is_not_enough(&self) -> bool {
        *self == Average::NotEnough
    }

    /// Whether this is strictly better than `other` in `metric`: any value beats a DNF, and
    /// anything beats not enough results.
    pub fn better_than(self, other: Average, metric: Metric) -> bool {
        match (self, other) {
            (Average::Value(a), Average::Value(b)) => metric.better(a, b),
            (Average::Value(_), _) => true,
            (Average::Dnf, Average::NotEnough) => true,
            _ => false,
        }
    }
}
