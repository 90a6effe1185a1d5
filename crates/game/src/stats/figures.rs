//! The statistics of one category: every figure for every metric, and their JSON.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::average::{self, best_average_of_keys, best_single, current_average, mean};
use super::{Attempt, Average, Metric};

/// The averages counted: ao5, ao12, ao50 and ao100.
pub const AVERAGES: [usize; 4] = [5, 12, 50, 100];

/// A figure now and at its best.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pair {
    /// Over the latest results (the last solve for a single, the last N for an aoN).
    pub current: Average,
    /// The best there has been.
    pub best: Average,
}

/// Every figure of one metric.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// The metric these figures count.
    pub metric: Metric,
    /// The last solve (`current`) and the best single (`best`).
    pub single: Pair,
    /// The mean of the finished solves (DNFs left out).
    pub mean: Average,
    /// ao5, ao12, ao50 and ao100, in the order of [`AVERAGES`].
    pub averages: [Pair; 4],
}

impl Figures {
    /// The figures of `results` (oldest first) in `metric`; in MTM, of the results whose MTM
    /// is known (a solve imported without it has none: it is left out, not counted as its STM).
    pub fn of(results: &[Attempt], metric: Metric) -> Figures {
        let known: Vec<Attempt>;
        let results = match metric {
            Metric::MovesMtm if results.iter().any(|r| r.moves_mtm.is_none()) => {
                known = results
                    .iter()
                    .filter(|r| r.moves_mtm.is_some())
                    .copied()
                    .collect();
                &known
            }
            _ => results,
        };
        let keys = average::keys(results, metric);
        let current_single = match results.last() {
            Some(last) => last.value(metric).map_or(Average::Dnf, Average::Value),
            None => Average::NotEnough,
        };
        Figures {
            metric,
            single: Pair {
                current: current_single,
                best: best_single(results, metric),
            },
            mean: mean(results, metric),
            averages: AVERAGES.map(|n| Pair {
                current: current_average(results, n, metric),
                best: best_average_of_keys(&keys, n, metric),
            }),
        }
    }

    /// The aoN for `n` in [`AVERAGES`]; `None` for another `n`.
    pub fn average(&self, n: usize) -> Option<Pair> {
        let index = AVERAGES.iter().position(|&counted| counted == n)?;
        Some(self.averages[index])
    }
}

/// The statistics of one category.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Statistics {
    /// How many solves, DNFs included.
    pub solves: usize,
    /// How many of them are DNFs.
    #[serde(rename = "dnf")]
    pub dnfs: usize,
    /// Times, in milliseconds.
    pub time_ms: Figures,
    /// Moves, STM.
    pub moves: Figures,
    /// Moves, MTM.
    pub moves_mtm: Figures,
    /// Moves (STM) a second.
    pub tps: Figures,
}

impl Statistics {
    /// The statistics of `results`, oldest first.
    pub fn of(results: &[Attempt]) -> Statistics {
        Statistics {
            solves: results.len(),
            dnfs: results.iter().filter(|attempt| attempt.is_dnf()).count(),
            time_ms: Figures::of(results, Metric::Time),
            moves: Figures::of(results, Metric::Moves),
            moves_mtm: Figures::of(results, Metric::MovesMtm),
            tps: Figures::of(results, Metric::Tps),
        }
    }

    /// Whether there are no solves at all (every figure is then missing).
    pub fn is_empty(&self) -> bool {
        self.solves == 0
    }

    /// The figures of a metric.
    pub fn figures(&self, metric: Metric) -> &Figures {
        match metric {
            Metric::Time => &self.time_ms,
            Metric::Moves => &self.moves,
            Metric::MovesMtm => &self.moves_mtm,
            Metric::Tps => &self.tps,
        }
    }
}

/// A figure as the JSON gives it: times in whole milliseconds, other values to 3 decimals, a
/// whole number without decimals, a DNF as `"DNF"`, not enough results as `null`.
struct Shown(Metric, Average);

impl Serialize for Shown {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.1 {
            Average::Value(value) => {
                let rounded = match self.0 {
                    Metric::Time => value.round(),
                    _ => (value * 1000.0).round() / 1000.0,
                };
                if rounded.fract() == 0.0 && rounded.abs() < 2f64.powi(53) {
                    serializer.serialize_i64(rounded as i64)
                } else {
                    serializer.serialize_f64(rounded)
                }
            }
            Average::Dnf => serializer.serialize_str("DNF"),
            Average::NotEnough => serializer.serialize_none(),
        }
    }
}

/// A pair as the JSON gives it: `current` and `best`, each left out when there are not enough
/// results for it.
struct ShownPair(Metric, Pair);

impl Serialize for ShownPair {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let ShownPair(metric, pair) = *self;
        let entries = [("current", pair.current), ("best", pair.best)];
        let present = entries.iter().filter(|(_, figure)| !figure.is_not_enough());
        let mut map = serializer.serialize_map(None)?;
        for &(name, figure) in present {
            map.serialize_entry(name, &Shown(metric, figure))?;
        }
        map.end()
    }
}

/// `single`, `mean`, `ao5`, `ao12`, `ao50` and `ao100`, each left out when there are not
/// enough results for it.
impl Serialize for Figures {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let metric = self.metric;
        let mut map = serializer.serialize_map(None)?;
        if !self.single.best.is_not_enough() {
            map.serialize_entry("single", &ShownPair(metric, self.single))?;
        }
        if !self.mean.is_not_enough() {
            map.serialize_entry("mean", &Shown(metric, self.mean))?;
        }
        for (n, pair) in AVERAGES.iter().zip(self.averages) {
            if !pair.current.is_not_enough() || !pair.best.is_not_enough() {
                map.serialize_entry(&format!("ao{n}"), &ShownPair(metric, pair))?;
            }
        }
        map.end()
    }
}
