//! New personal bests, for the win card ("New best ao5: 14.21").

use std::fmt;

use super::figures::{AVERAGES, Statistics};
use super::{Average, Metric};

/// A figure that can be a personal best: the single or an average of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Figure {
    /// The best single.
    Single,
    /// The best average of this many (5, 12, 50 or 100).
    Average(usize),
}

/// `single`, `ao5`, `ao12`, …: the figure's name as speedsolvers write it.
impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Figure::Single => f.write_str("single"),
            Figure::Average(n) => write!(f, "ao{n}"),
        }
    }
}

/// One figure that is better after the new solve than it has ever been.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewBest {
    /// What is counted.
    pub metric: Metric,
    /// Which figure.
    pub figure: Figure,
    /// Its new best value.
    pub value: f64,
    /// Its best before: a value or a DNF beaten, or [`Average::NotEnough`] when this is the
    /// first of its kind (the first ao5 comes with the fifth solve).
    pub previous: Average,
}

impl NewBest {
    /// Whether this is the first figure of its kind rather than a better one (no record: the
    /// win card says "New best" only when this is false).
    pub fn is_first(&self) -> bool {
        self.previous.is_not_enough()
    }
}

/// What one new solve did to a category's personal bests.
#[derive(Clone, Debug, PartialEq)]
pub enum NewBests {
    /// The category's very first solve: a first, not a record.
    FirstSolve,
    /// The figures whose best improved (metric by metric, the single then the averages), or
    /// none; firsts of a kind are among them, told by [`NewBest::is_first`].
    Figures(Vec<NewBest>),
}

impl NewBests {
    /// The records only: figures better than a best there was before (firsts left out).
    pub fn records(&self) -> impl Iterator<Item = &NewBest> {
        let figures = match self {
            NewBests::FirstSolve => &[][..],
            NewBests::Figures(figures) => &figures[..],
        };
        figures.iter().filter(|best| !best.is_first())
    }
}

/// Which bests a category's latest solve improved: `before` is the category's statistics
/// without it, `after` with it. A figure is a new best when its best value is strictly better
/// than before (a tie is no record) or beats a DNF. The first solve of a category is
/// [`NewBests::FirstSolve`].
pub fn new_bests(before: &Statistics, after: &Statistics) -> NewBests {
    if before.is_empty() && !after.is_empty() {
        return NewBests::FirstSolve;
    }
    let mut found = Vec::new();
    for metric in Metric::ALL {
        let (was, now) = (before.figures(metric), after.figures(metric));
        let singles = [(Figure::Single, was.single.best, now.single.best)];
        let averages = AVERAGES
            .iter()
            .zip(was.averages.iter().zip(&now.averages))
            .map(|(&n, (was, now))| (Figure::Average(n), was.best, now.best));
        for (figure, previous, best) in singles.into_iter().chain(averages) {
            if let Average::Value(value) = best
                && best.better_than(previous, metric)
            {
                found.push(NewBest {
                    metric,
                    figure,
                    value,
                    previous,
                });
            }
        }
    }
    NewBests::Figures(found)
}

#[cfg(test)]
mod tests {
    use super::super::Attempt;
    use super::*;

    /// What the last of `times` (ms; `None` a DNF) did to the bests, 40 moves each.
    fn last_of(times: &[Option<u64>]) -> NewBests {
        let attempts: Vec<Attempt> = times
            .iter()
            .map(|&time_ms| Attempt {
                time_ms,
                moves: 40,
                moves_mtm: Some(20),
            })
            .collect();
        let before = Statistics::of(&attempts[..attempts.len() - 1]);
        new_bests(&before, &Statistics::of(&attempts))
    }

    /// The (metric, figure, previous) of each new best.
    fn summary(bests: &NewBests) -> Vec<(Metric, String, Average)> {
        match bests {
            NewBests::FirstSolve => panic!("a first solve"),
            NewBests::Figures(figures) => figures
                .iter()
                .map(|b| (b.metric, b.figure.to_string(), b.previous))
                .collect(),
        }
    }

    #[test]
    fn a_first_solve_is_a_first_not_a_record() {
        assert_eq!(last_of(&[Some(20_000)]), NewBests::FirstSolve);
        assert_eq!(last_of(&[None]), NewBests::FirstSolve);
        assert_eq!(last_of(&[Some(1)]).records().count(), 0);
    }

    #[test]
    fn a_faster_solve_is_a_new_best_single_in_time_and_tps() {
        let bests = last_of(&[Some(20_000), Some(15_000)]);
        let previous_tps = Average::Value(2.0);
        assert_eq!(
            summary(&bests),
            [
                (Metric::Time, "single".into(), Average::Value(20_000.0)),
                (Metric::Tps, "single".into(), previous_tps)
            ]
        );
        assert_eq!(bests.records().next().map(|b| b.value), Some(15_000.0));
        assert_eq!(summary(&last_of(&[Some(20_000), Some(20_000)])), []);
        assert_eq!(summary(&last_of(&[Some(20_000), Some(25_000)])), []);
    }

    #[test]
    fn a_solve_after_only_dnfs_beats_them() {
        let bests = last_of(&[None, Some(30_000)]);
        let metrics: Vec<Metric> = bests.records().map(|b| b.metric).collect();
        assert_eq!(metrics, Metric::ALL);
        assert!(bests.records().all(|b| b.previous == Average::Dnf));
    }

    #[test]
    fn the_first_ao5_is_a_first_and_a_better_one_a_record() {
        let five = [
            Some(30_000),
            Some(21_000),
            Some(22_000),
            Some(23_000),
            Some(20_000),
        ];
        let first = last_of(&five);
        let ao5s: Vec<&NewBest> = match &first {
            NewBests::Figures(figures) => figures
                .iter()
                .filter(|b| b.figure == Figure::Average(5))
                .collect(),
            NewBests::FirstSolve => panic!("not the first solve"),
        };
        assert_eq!(ao5s.len(), 4);
        assert!(ao5s.iter().all(|b| b.is_first()));
        // The fifth is a best single too (20 s after 21 s), and only that is a record.
        let records: Vec<Figure> = first.records().map(|b| b.figure).collect();
        assert_eq!(records, [Figure::Single, Figure::Single]);
        // Then 21, 22, 23, 20, 19: an ao5 of 21 s after 22 s.
        let sixth = [&five[..], &[Some(19_000)]].concat();
        let records: Vec<(Metric, String)> = last_of(&sixth)
            .records()
            .map(|b| (b.metric, b.figure.to_string()))
            .collect();
        let expected = [
            (Metric::Time, "single"),
            (Metric::Time, "ao5"),
            (Metric::Tps, "single"),
            (Metric::Tps, "ao5"),
        ];
        assert_eq!(records, expected.map(|(m, f)| (m, f.to_owned())));
    }
}
