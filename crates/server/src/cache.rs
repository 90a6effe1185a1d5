//! Pages, exports and rankings already made, kept while the day's results are the same.
//! Results are only ever added (never changed or removed), so a day's count of results says
//! whether what was made from them still holds: a reader asks for the count (one indexed query)
//! and is served what was made for it, or makes it again (a ranking from the one kept and the
//! results kept since). Each server keeps its own; nothing here is a fact servers share.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use axum::body::Bytes;

use crate::ranking::rank_in_place;
use crate::store::{DayResult, DayRows};

/// The most things kept of each kind (a few days' of each).
const KEPT: usize = 24;

/// What is kept: for a name (a day's page, export, CSV or ranking), the count of results it
/// was made from, when it was made (to drop the oldest), and what was made (bytes by default).
#[derive(Debug)]
pub struct Made<T = Bytes> {
    kept: Mutex<HashMap<String, (u64, u64, T)>>,
    made: Mutex<u64>,
}

impl<T> Default for Made<T> {
    fn default() -> Self {
        Made {
            kept: Mutex::default(),
            made: Mutex::default(),
        }
    }
}

impl<T: Clone> Made<T> {
    /// What was made under `name` from `count` results, if it was.
    pub fn get(&self, name: &str, count: u64) -> Option<T> {
        self.latest(name)
            .filter(|(made_from, _)| *made_from == count)
            .map(|(_, made)| made)
    }

    /// What was made last under `name`, and the count of results it was made from.
    pub fn latest(&self, name: &str) -> Option<(u64, T)> {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.get(name)
            .map(|(made_from, _, made)| (*made_from, made.clone()))
    }

    /// Keeps what was made under `name` from `count` results, dropping the oldest past [`KEPT`].
    pub fn put(&self, name: String, count: u64, made: T) {
        let tick = {
            let mut ticks = self.made.lock().unwrap_or_else(PoisonError::into_inner);
            *ticks += 1;
            *ticks
        };
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.insert(name, (count, tick, made));
        while kept.len() > KEPT {
            let oldest = kept
                .iter()
                .min_by_key(|(_, (_, tick, _))| *tick)
                .map(|(name, _)| name.clone());
            if let Some(oldest) = oldest {
                kept.remove(&oldest);
            }
        }
    }
}

/// A day's ranking as a server keeps it: its results ranked, and the highest of their numbers
/// (the order results were kept in), so that the results kept after them can be read alone
/// and merged in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DayRanking {
    /// The results, ranked.
    pub results: Vec<DayResult>,
    /// The highest number among them.
    pub last_seq: i64,
}

impl DayRanking {
    /// The ranking of a day's results.
    pub fn new(rows: DayRows) -> DayRanking {
        let mut results = rows.results;
        rank_in_place(&mut results);
        DayRanking {
            results,
            last_seq: rows.last_seq,
        }
    }

    /// This ranking with `newer` results merged in: the ranking of them all together (ties
    /// are ordered by the name's key, so there is one order whatever came first).
    pub fn merged(&self, newer: DayRows) -> DayRanking {
        let mut results = Vec::with_capacity(self.results.len() + newer.results.len());
        results.extend_from_slice(&self.results);
        results.extend(newer.results);
        rank_in_place(&mut results);
        DayRanking {
            results,
            last_seq: self.last_seq.max(newer.last_seq),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::name_key;

    fn day_result(name: &str, time_ms: u64, moves: u64) -> DayResult {
        DayResult {
            player_id: time_ms as i64,
            name_key: name_key(name),
            row: crate::ranking::tests::row(name, time_ms, moves),
        }
    }

    #[test]
    fn a_ranking_with_newer_results_merged_in_is_the_ranking_of_them_all() {
        let all = vec![
            day_result("dee", 9_000, 40),
            day_result("Bob", 5_000, 50),
            day_result("cat", 5_000, 40),
            day_result("al", 5_000, 50),
            day_result("eve", 12_000, 36),
        ];
        let whole = DayRanking::new(DayRows {
            results: all.clone(),
            last_seq: 5,
        });
        for split in 0..=all.len() {
            let (older, newer) = all.split_at(split);
            let kept = DayRanking::new(DayRows {
                results: older.to_vec(),
                last_seq: split as i64,
            });
            let newer = DayRows {
                results: newer.to_vec(),
                last_seq: 5,
            };
            assert_eq!(kept.merged(newer), whole, "{split} kept before");
        }
    }

    #[test]
    fn what_was_made_holds_while_the_count_is_the_same() {
        let made: Made = Made::default();
        made.put("page".into(), 3, Bytes::from_static(b"three"));
        assert_eq!(made.get("page", 3), Some(Bytes::from_static(b"three")));
        assert_eq!(made.get("page", 4), None, "a result more: made again");
        assert_eq!(made.get("csv", 3), None);
        assert_eq!(made.latest("page"), Some((3, Bytes::from_static(b"three"))));
        for n in 0..KEPT as u64 + 5 {
            made.put(format!("day {n}"), n, Bytes::new());
        }
        assert_eq!(made.get("page", 3), None, "the oldest dropped");
        assert!(
            made.get(&format!("day {}", KEPT as u64 + 4), KEPT as u64 + 4)
                .is_some()
        );
    }
}
