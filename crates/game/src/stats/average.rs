//! WCA's averages, the single and the mean, over attempts in the order they were played.
//!
//! Every result is first turned into a *key*: a number where lower is better (a time, a move
//! count, or a TPS negated) and a DNF is `+∞`, the worst. An average sorts keys, drops the
//! ends and means the rest; a window with more DNFs than it drops has `+∞` among the kept keys.

use super::{Attempt, Average, Metric};

/// How many of the best results, and as many of the worst, an average of `n` drops:
/// ⌈5 % of `n`⌉ (1 for ao5 and ao12, 3 for ao50, 5 for ao100).
pub fn trimmed(n: usize) -> usize {
    n.div_ceil(20)
}

/// A result's key in a metric: lower is better, a DNF is `+∞`.
pub(super) fn key(attempt: &Attempt, metric: Metric) -> f64 {
    match attempt.value(metric) {
        None => f64::INFINITY,
        Some(value) if metric.higher_is_better() => -value,
        Some(value) => value,
    }
}

/// The value a key stands for (the inverse of [`key`] for a finished result).
fn unkey(key: f64, metric: Metric) -> f64 {
    if metric.higher_is_better() { -key } else { key }
}

/// The keys of every attempt in a metric, in order.
pub(super) fn keys(results: &[Attempt], metric: Metric) -> Vec<f64> {
    results.iter().map(|attempt| key(attempt, metric)).collect()
}

/// The average of sorted keys as a key: the mean of the keys left once `drop` are taken off
/// each end; `None` for a DNF (a DNF is among those left) or when none are left.
fn sorted_average(sorted: &[f64], drop: usize) -> Option<f64> {
    let kept = sorted.get(drop..sorted.len().checked_sub(drop)?)?;
    match kept.last() {
        Some(last) if last.is_finite() => Some(kept.iter().sum::<f64>() / kept.len() as f64),
        _ => None,
    }
}

/// WCA's average of every result given (N of them): sorts them, drops the best and the worst
/// ⌈5 % of N⌉, and means the rest. A DNF sorts as the worst; more DNFs than the worst dropped
/// make it [`Average::Dnf`]. Fewer than 3 results (nothing would be left) are
/// [`Average::NotEnough`].
pub fn average_of(results: &[Attempt], metric: Metric) -> Average {
    let drop = trimmed(results.len());
    if results.len() <= 2 * drop {
        return Average::NotEnough;
    }
    let mut sorted = keys(results, metric);
    sorted.sort_unstable_by(f64::total_cmp);
    match sorted_average(&sorted, drop) {
        Some(key) => Average::Value(unkey(key, metric)),
        None => Average::Dnf,
    }
}

/// The average of the last `n` results ([`Average::NotEnough`] with fewer than `n`).
pub fn current_average(results: &[Attempt], n: usize, metric: Metric) -> Average {
    match results.len().checked_sub(n) {
        Some(start) => average_of(&results[start..], metric),
        None => Average::NotEnough,
    }
}

/// The best average of `n` over every window of `n` consecutive results: a DNF if every
/// window is, [`Average::NotEnough`] with fewer than `n` results (or `n` under 3).
pub fn best_average(results: &[Attempt], n: usize, metric: Metric) -> Average {
    best_average_of_keys(&keys(results, metric), n, metric)
}

/// [`best_average`] over keys worked out once: the window slides along a sorted copy of its
/// keys, the key that leaves taken out and the one that comes in put in by binary search, so
/// each window costs O(n) rather than a sort.
pub(super) fn best_average_of_keys(keys: &[f64], n: usize, metric: Metric) -> Average {
    let drop = trimmed(n);
    if n <= 2 * drop || keys.len() < n {
        return Average::NotEnough;
    }
    let mut window = keys[..n].to_vec();
    window.sort_unstable_by(f64::total_cmp);
    let mut best = sorted_average(&window, drop);
    for (&leaving, &coming) in keys.iter().zip(&keys[n..]) {
        let at = window.partition_point(|k| k.total_cmp(&leaving).is_lt());
        window.remove(at);
        let at = window.partition_point(|k| k.total_cmp(&coming).is_lt());
        window.insert(at, coming);
        if let Some(average) = sorted_average(&window, drop) {
            best = Some(best.map_or(average, |best: f64| best.min(average)));
        }
    }
    match best {
        Some(key) => Average::Value(unkey(key, metric)),
        None => Average::Dnf,
    }
}

/// The best single: the best finished result, a DNF if all are DNFs, not enough if none.
pub fn best_single(results: &[Attempt], metric: Metric) -> Average {
    let best = results
        .iter()
        .map(|attempt| key(attempt, metric))
        .min_by(f64::total_cmp);
    match best {
        None => Average::NotEnough,
        Some(key) if key.is_infinite() => Average::Dnf,
        Some(key) => Average::Value(unkey(key, metric)),
    }
}

/// The mean of the finished results, DNFs left out: a DNF if all are DNFs, not enough if none.
pub fn mean(results: &[Attempt], metric: Metric) -> Average {
    let (sum, count) = results
        .iter()
        .filter_map(|attempt| attempt.value(metric))
        .fold((0.0, 0usize), |(sum, count), value| {
            (sum + value, count + 1)
        });
    match (results.is_empty(), count) {
        (true, _) => Average::NotEnough,
        (false, 0) => Average::Dnf,
        _ => Average::Value(sum / count as f64),
    }
}
