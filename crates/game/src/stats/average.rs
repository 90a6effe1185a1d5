//! WCA's averages, the single and the mean, over attempts in the order they were played.
//!
//! Every result is first turned into a *key*: whole units where lower is better (milliseconds,
//! moves, or millionths of a move a second negated) and a DNF [`DNF`], above every other. An
//! average sorts keys, drops the ends and sums the rest exactly; every average of N keeps as
//! many, so the lowest sum is the best average.

use super::{Attempt, Average, Metric};

/// A DNF's key: the worst.
const DNF: i64 = i64::MAX;

/// How many of the best results, and as many of the worst, an average of `n` drops:
/// ⌈5 % of `n`⌉ (1 for ao5 and ao12, 3 for ao50, 5 for ao100).
pub fn trimmed(n: usize) -> usize {
    n.div_ceil(20)
}

/// A result's key in a metric: lower is better, a DNF is [`DNF`].
fn key(attempt: &Attempt, metric: Metric) -> i64 {
    match attempt.units(metric) {
        None => DNF,
        Some(units) if metric.higher_is_better() => -units,
        Some(units) => units,
    }
}

/// The keys of every attempt in a metric, in order.
pub(super) fn keys(results: &[Attempt], metric: Metric) -> Vec<i64> {
    results.iter().map(|attempt| key(attempt, metric)).collect()
}

/// The value of `count` keys summing to `sum`: their mean in the metric's unit.
fn value(sum: i128, count: usize, metric: Metric) -> f64 {
    let mean = sum as f64 / count as f64 / metric.units_per_value();
    if metric.higher_is_better() {
        -mean
    } else {
        mean
    }
}

/// The sum of the keys of a DNF-free `drop` at each end of sorted keys.
fn ends(sorted: &[i64], drop: usize) -> i128 {
    let worst = &sorted[sorted.len() - drop..];
    let finite = sorted[..drop].iter().chain(worst).filter(|&&k| k != DNF);
    finite.map(|&k| i128::from(k)).sum()
}

/// A window's average of sorted keys, given the sum of its finite keys and its DNFs: the sum
/// of the keys kept once `drop` are taken off each end, `None` for a DNF (one is kept).
fn kept_sum(sorted: &[i64], drop: usize, finite_sum: i128, dnfs: usize) -> Option<i128> {
    (dnfs <= drop).then(|| finite_sum - ends(sorted, drop))
}

/// An average of keys (at least 3): sorts them and keeps all but the ends.
fn average_of_keys(mut keys: Vec<i64>, metric: Metric) -> Average {
    let drop = trimmed(keys.len());
    if keys.len() <= 2 * drop {
        return Average::NotEnough;
    }
    keys.sort_unstable();
    let dnfs = keys.iter().filter(|&&k| k == DNF).count();
    let finite_sum = keys[..keys.len() - dnfs]
        .iter()
        .map(|&k| i128::from(k))
        .sum();
    match kept_sum(&keys, drop, finite_sum, dnfs) {
        Some(sum) => Average::Value(value(sum, keys.len() - 2 * drop, metric)),
        None => Average::Dnf,
    }
}

/// WCA's average of every result given (N of them): sorts them, drops the best and the worst
/// ⌈5 % of N⌉, and means the rest. A DNF sorts as the worst; more DNFs than the worst dropped
/// make it [`Average::Dnf`]. Fewer than 3 results (nothing would be left) are
/// [`Average::NotEnough`].
pub fn average_of(results: &[Attempt], metric: Metric) -> Average {
    average_of_keys(keys(results, metric), metric)
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

/// Puts `coming` in the place of `leaving` in sorted keys, keeping them sorted: moves only
/// the keys between the two places, by one.
fn replace(sorted: &mut [i64], leaving: i64, coming: i64) {
    let from = sorted.partition_point(|&k| k < leaving);
    let to = sorted.partition_point(|&k| k < coming);
    if to > from {
        // `coming` is above `leaving`: the keys between them move down.
        sorted.copy_within(from + 1..to, from);
        sorted[to - 1] = coming;
    } else {
        sorted.copy_within(to..from, to + 1);
        sorted[to] = coming;
    }
}

/// Calls `each` with the kept sum of every window of `n` keys in turn (`None` for a DNF),
/// given `n` above `2 × ⌈5 % of n⌉` and at least `n` keys. The window slides along a sorted
/// copy of its keys: the key that comes in takes the place of the one that leaves (found by
/// binary search), and the sum of its finite keys and its count of DNFs are kept up to date,
/// so a window costs a move of at most `n` keys and the sum of the `2 × ⌈5 % of n⌉` at its ends.
fn each_window(keys: &[i64], n: usize, mut each: impl FnMut(Option<i128>)) {
    let drop = trimmed(n);
    let mut window = keys[..n].to_vec();
    window.sort_unstable();
    let mut dnfs = window.iter().filter(|&&k| k == DNF).count();
    let mut finite_sum: i128 = window[..n - dnfs].iter().map(|&k| i128::from(k)).sum();
    each(kept_sum(&window, drop, finite_sum, dnfs));
    for (&leaving, &coming) in keys.iter().zip(&keys[n..]) {
        match leaving {
            DNF => dnfs -= 1,
            k => finite_sum -= i128::from(k),
        }
        match coming {
            DNF => dnfs += 1,
            k => finite_sum += i128::from(k),
        }
        replace(&mut window, leaving, coming);
        each(kept_sum(&window, drop, finite_sum, dnfs));
    }
}

/// The average of a window of `n` with this kept sum (`None` for a DNF).
fn window_average(sum: Option<i128>, n: usize, metric: Metric) -> Average {
    match sum {
        Some(sum) => Average::Value(value(sum, n - 2 * trimmed(n), metric)),
        None => Average::Dnf,
    }
}

/// Whether there are enough keys for an average of `n` (and `n` keeps some: at least 3).
fn enough(keys: usize, n: usize) -> bool {
    n > 2 * trimmed(n) && keys >= n
}

/// [`best_average`] over keys worked out once.
pub(super) fn best_average_of_keys(keys: &[i64], n: usize, metric: Metric) -> Average {
    if !enough(keys.len(), n) {
        return Average::NotEnough;
    }
    let mut best: Option<i128> = None;
    each_window(keys, n, |sum| {
        if let Some(sum) = sum {
            best = Some(best.map_or(sum, |best| best.min(sum)));
        }
    });
    window_average(best, n, metric)
}

/// The average of `n` ending at each result, for a chart's ao5 and ao12 lines: one a result,
/// [`Average::NotEnough`] for the first `n - 1` (all of them if `n` is under 3). The last 100
/// solves' averages need only the last `99 + n` results.
pub fn rolling_average(results: &[Attempt], n: usize, metric: Metric) -> Vec<Average> {
    let keys = keys(results, metric);
    if !enough(keys.len(), n) {
        return vec![Average::NotEnough; keys.len()];
    }
    let mut rolling = vec![Average::NotEnough; n - 1];
    each_window(&keys, n, |sum| rolling.push(window_average(sum, n, metric)));
    rolling
}

/// The best single: the best finished result, a DNF if all are DNFs, not enough if none.
pub fn best_single(results: &[Attempt], metric: Metric) -> Average {
    match results.iter().map(|attempt| key(attempt, metric)).min() {
        None => Average::NotEnough,
        Some(DNF) => Average::Dnf,
        Some(best) => Average::Value(value(i128::from(best), 1, metric)),
    }
}

/// The mean of the finished results, DNFs left out: a DNF if all are DNFs, not enough if none.
pub fn mean(results: &[Attempt], metric: Metric) -> Average {
    let finished = results.iter().map(|attempt| key(attempt, metric));
    let finished: Vec<i64> = finished.filter(|&k| k != DNF).collect();
    match (results.is_empty(), finished.len()) {
        (true, _) => Average::NotEnough,
        (false, 0) => Average::Dnf,
        (false, count) => {
            let sum = finished.iter().map(|&k| i128::from(k)).sum();
            Average::Value(value(sum, count, metric))
        }
    }
}
