//! The averages against a plain reference written here (sort, drop, mean), with DNFs at the
//! edges of the windows; and the edge cases: no solves, fewer than N, all DNFs, times of 0
//! and of a year.

use proptest::prelude::*;

use super::*;

/// A result's value as the reference reads it: TPS is moves ÷ seconds, a time under 1 ms
/// counted as 1 ms.
fn plain_value(attempt: &Attempt, metric: Metric) -> Option<f64> {
    let ms = attempt.time_ms?;
    Some(match metric {
        Metric::Time => ms as f64,
        Metric::Moves => attempt.moves as f64,
        Metric::MovesMtm => attempt.moves_mtm? as f64,
        Metric::Tps => attempt.moves as f64 / (ms.max(1) as f64 / 1000.0),
    })
}

/// WCA's average as written in the rules: sort the N results best first with the DNFs last,
/// drop ⌈5 % of N⌉ from each end, DNF if a DNF is left, else the mean of the rest.
fn reference_average(results: &[Attempt], metric: Metric) -> Average {
    let n = results.len();
    let drop = (n * 5).div_ceil(100);
    if n < 2 * drop + 1 {
        return Average::NotEnough;
    }
    let mut finished: Vec<f64> = results
        .iter()
        .filter_map(|a| plain_value(a, metric))
        .collect();
    finished.sort_by(|a, b| a.partial_cmp(b).unwrap());
    if metric == Metric::Tps {
        finished.reverse();
    }
    let mut sorted: Vec<Option<f64>> = finished.into_iter().map(Some).collect();
    sorted.resize(n, None);
    let kept = &sorted[drop..n - drop];
    if kept.contains(&None) {
        return Average::Dnf;
    }
    Average::Value(kept.iter().flatten().sum::<f64>() / kept.len() as f64)
}

/// The best of the reference's averages over every window of `n`.
fn reference_best(results: &[Attempt], n: usize, metric: Metric) -> Average {
    if results.len() < n {
        return Average::NotEnough;
    }
    let averages = results.windows(n).map(|w| reference_average(w, metric));
    let values = averages.filter_map(Average::value);
    let best = if metric == Metric::Tps {
        values.reduce(f64::max)
    } else {
        values.reduce(f64::min)
    };
    best.map_or(Average::Dnf, Average::Value)
}

/// Equal; TPS (counted by the statistics to a millionth of a move a second, each solve's
/// rounded by at most half of one) to 10⁻⁶.
fn same(ours: Average, reference: Average, metric: Metric) -> bool {
    match (ours, reference) {
        (Average::Value(a), Average::Value(b)) if metric == Metric::Tps => {
            (a - b).abs() <= 1e-6 + 1e-12 * b.abs()
        }
        _ => ours == reference,
    }
}

/// A finished solve: times and moves from small ranges (ties are common), now and then a
/// time of 0 or of a year.
fn finished() -> impl Strategy<Value = Attempt> {
    let time = prop_oneof![
        8 => 0u64..3_000,
        1 => Just(0u64),
        1 => Just(YEAR_MS),
    ];
    (time, 0u32..120, 0u32..120).prop_map(|(time, moves, mtm)| Attempt::solved(time, moves, mtm))
}

const YEAR_MS: u64 = 365 * 24 * 60 * 60 * 1000;

/// A history for an aoN with DNFs at the windows' edges: `n`, and `n` to `n + 30` solves with
/// DNFs at some of the first, the last, the `n`-th and `n + 1`-th, the `n`-th and `n + 1`-th
/// from the end, and a number of other places near the count an average drops (⌈5 % of n⌉).
fn history() -> impl Strategy<Value = (usize, Vec<Attempt>)> {
    (prop::sample::select(AVERAGES.to_vec()), 0usize..=30).prop_flat_map(|(n, extra)| {
        let len = n + extra;
        let edges = vec![
            0,
            n - 1,
            n.min(len - 1),
            len - n,
            (len - n).saturating_sub(1),
            len - 1,
        ];
        let others = prop::collection::vec(0..len, 0..=trimmed(n) + 2);
        let chosen = prop::sample::subsequence(edges, 0..=6);
        (
            Just(n),
            prop::collection::vec(finished(), len),
            chosen,
            others,
        )
            .prop_map(|(n, mut results, edges, others)| {
                for at in edges.into_iter().chain(others) {
                    results[at] = Attempt {
                        time_ms: None,
                        ..results[at]
                    };
                }
                (n, results)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn averages_agree_with_the_reference((n, results) in history()) {
        for metric in Metric::ALL {
            let best = best_average(&results, n, metric);
            let expected = reference_best(&results, n, metric);
            prop_assert!(same(best, expected, metric), "best ao{n} {metric:?}: {best:?} ≠ {expected:?}");
            let current = current_average(&results, n, metric);
            let expected = reference_average(&results[results.len() - n..], metric);
            prop_assert!(same(current, expected, metric), "current ao{n} {metric:?}: {current:?} ≠ {expected:?}");
            let rolling = rolling_average(&results, n, metric);
            prop_assert_eq!(rolling.len(), results.len());
            for (end, &ours) in rolling.iter().enumerate().skip(n - 1) {
                let expected = reference_average(&results[end + 1 - n..=end], metric);
                prop_assert!(same(ours, expected, metric), "ao{n} {metric:?} to {end}: {ours:?} ≠ {expected:?}");
            }
        }
    }

    #[test]
    fn an_average_of_any_window_agrees_with_the_reference(
        (n, results) in history(),
        start in any::<prop::sample::Index>(),
    ) {
        let start = start.index(results.len() - n + 1);
        let window = &results[start..start + n];
        for metric in Metric::ALL {
            let ours = average_of(window, metric);
            let expected = reference_average(window, metric);
            prop_assert!(same(ours, expected, metric), "ao{n} {metric:?}: {ours:?} ≠ {expected:?}");
        }
    }

    #[test]
    fn statistics_never_hold_a_number_that_is_not_one((_, results) in history()) {
        let json = serde_json::to_value(Statistics::of(&results)).unwrap();
        for metric in Metric::ALL {
            for (name, figure) in json[metric.key()].as_object().unwrap() {
                let values = match figure.as_object() {
                    Some(pair) => pair.values().cloned().collect(),
                    None => vec![figure.clone()],
                };
                for value in values {
                    prop_assert!(value.is_number() || value == "DNF", "{name}: {value}");
                }
            }
        }
    }
}

/// Finished solves of these times (ms), with 50 moves (STM) and 30 (MTM) each.
fn times(times: &[u64]) -> Vec<Attempt> {
    times
        .iter()
        .map(|&ms| Attempt::solved(ms, 50, 30))
        .collect()
}

const DNF: Attempt = Attempt {
    time_ms: None,
    moves: 50,
    moves_mtm: Some(30),
};

#[test]
fn an_average_drops_five_percent_from_each_end_rounded_up() {
    let drops: Vec<usize> = [3, 5, 12, 20, 21, 50, 100].map(trimmed).to_vec();
    assert_eq!(drops, [1, 1, 1, 1, 2, 3, 5]);
}

#[test]
fn an_ao5_drops_the_best_and_the_worst_and_a_dnf_is_the_worst() {
    let ao5 = |results: &[Attempt]| average_of(results, Metric::Time);
    assert_eq!(
        ao5(&times(&[10_000, 12_000, 11_000, 9_000, 20_000])),
        Average::Value(11_000.0)
    );
    let mut one_dnf = times(&[10_000, 12_000, 11_000, 9_000]);
    one_dnf.push(DNF);
    assert_eq!(ao5(&one_dnf), Average::Value(11_000.0));
    one_dnf[0] = DNF;
    assert_eq!(ao5(&one_dnf), Average::Dnf);
}

#[test]
fn an_ao100_takes_five_dnfs_and_not_six() {
    let mut results = times(&(1..=100).map(|s| s * 1000).collect::<Vec<_>>());
    for at in [0, 10, 20, 30, 99] {
        results[at] = DNF;
    }
    // Left: 2 … 100 s without 11, 21, 31 and 100 (DNFs) and the best five, 2 … 6 s.
    let kept: Vec<u64> = (7..=99).filter(|s| ![11, 21, 31].contains(s)).collect();
    let expected = kept.iter().sum::<u64>() as f64 * 1000.0 / kept.len() as f64;
    assert_eq!(kept.len(), 90);
    assert_eq!(average_of(&results, Metric::Time), Average::Value(expected));
    results[50] = DNF;
    assert_eq!(average_of(&results, Metric::Time), Average::Dnf);
}

#[test]
fn for_tps_the_highest_is_best_and_a_dnf_the_lowest() {
    // 50 moves in 10, 5, 20, 25 s: 5, 10, 2.5, 2 TPS, and a DNF.
    let mut results = times(&[10_000, 5_000, 20_000, 25_000]);
    results.push(DNF);
    assert_eq!(best_single(&results, Metric::Tps), Average::Value(10.0));
    // Drops 10 (the best) and the DNF: (5 + 2.5 + 2) / 3.
    assert_eq!(average_of(&results, Metric::Tps), Average::Value(9.5 / 3.0));
    assert_eq!(mean(&results, Metric::Tps), Average::Value(19.5 / 4.0));
}

#[test]
fn the_best_average_is_the_best_window_not_the_last() {
    let results = times(&[9_000, 9_000, 9_000, 9_000, 9_000, 30_000, 30_000, 30_000]);
    assert_eq!(
        best_average(&results, 5, Metric::Time),
        Average::Value(9_000.0)
    );
    assert_eq!(
        current_average(&results, 5, Metric::Time),
        Average::Value(23_000.0)
    );
    assert_eq!(
        best_average(&results, 5, Metric::Moves),
        Average::Value(50.0)
    );
}

#[test]
fn no_solves_give_no_figures_and_an_empty_report() {
    for metric in Metric::ALL {
        assert_eq!(best_single(&[], metric), Average::NotEnough);
        assert_eq!(mean(&[], metric), Average::NotEnough);
        assert_eq!(average_of(&[], metric), Average::NotEnough);
        assert_eq!(best_average(&[], 5, metric), Average::NotEnough);
        assert_eq!(current_average(&[], 5, metric), Average::NotEnough);
    }
    let statistics = Statistics::of(&[]);
    assert!(statistics.is_empty());
    let json = serde_json::to_string(&statistics).unwrap();
    assert_eq!(
        json,
        r#"{"solves":0,"dnf":0,"time_ms":{},"moves":{},"moves_mtm":{},"tps":{}}"#
    );
    let report = StatsReport::new([]);
    assert!(report.is_empty());
    assert_eq!(serde_json::to_string(&report).unwrap(), "{}");
}

#[test]
fn fewer_than_n_solves_have_no_average_of_n() {
    let results = times(&[10_000, 11_000, 12_000, 13_000]);
    let statistics = Statistics::of(&results);
    assert_eq!(statistics.time_ms.average(5), Some(Pair::default()));
    assert_eq!(best_average(&results, 5, Metric::Time), Average::NotEnough);
    assert_eq!(average_of(&results[..2], Metric::Time), Average::NotEnough);
    let json = serde_json::to_string(&statistics.time_ms).unwrap();
    assert_eq!(
        json,
        r#"{"single":{"current":13000,"best":10000},"mean":11500}"#
    );
}

#[test]
fn all_dnfs_are_dnf_everywhere() {
    let results = vec![DNF; 12];
    let statistics = Statistics::of(&results);
    assert_eq!(statistics.dnfs, 12);
    for metric in Metric::ALL {
        let figures = statistics.figures(metric);
        assert_eq!(figures.single.best, Average::Dnf);
        assert_eq!(figures.single.current, Average::Dnf);
        assert_eq!(figures.mean, Average::Dnf);
        for n in [5, 12] {
            let dnf = Pair {
                current: Average::Dnf,
                best: Average::Dnf,
            };
            assert_eq!(figures.average(n), Some(dnf), "{metric:?} ao{n}");
        }
    }
    let json = serde_json::to_value(&statistics).unwrap();
    assert_eq!(json["tps"]["ao12"]["best"], "DNF");
    assert_eq!(json["time_ms"]["mean"], "DNF");
}

#[test]
fn times_of_zero_and_of_a_year_are_counted_exactly() {
    let results = times(&[0, YEAR_MS, YEAR_MS, YEAR_MS, 0]);
    // Drops one 0 and one year: (0 + 2 years) / 3.
    let ao5 = 2.0 * YEAR_MS as f64 / 3.0;
    assert_eq!(average_of(&results, Metric::Time), Average::Value(ao5));
    // A time of 0 counts as 1 ms for TPS: 50 moves in 1 ms.
    assert_eq!(best_single(&results, Metric::Tps), Average::Value(50_000.0));
    let json = serde_json::to_value(Statistics::of(&results)).unwrap();
    assert_eq!(json["time_ms"]["ao5"]["current"], (ao5.round() as u64));
    assert_eq!(json["time_ms"]["single"]["best"], 0);
    assert_eq!(json["tps"]["single"]["best"], 50_000);
    assert_eq!(format_time(ao5), "350400:00.00");
}

#[test]
fn the_report_names_each_figure_as_speedsolvers_do() {
    let single = Category::new(4, 4, Mode::Single);
    let mut attempts: Vec<(Category, Attempt)> = [14_210, 15_000, 13_000, 16_000, 14_000]
        .map(|ms| (single, Attempt::solved(ms, 60, 40)))
        .to_vec();
    attempts.insert(2, (single.helped(), Attempt::solved(5_000, 30, 20)));
    attempts.push((single, DNF));
    let json = serde_json::to_value(StatsReport::new(attempts)).unwrap();
    let categories: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(categories, ["4x4 single", "4x4 single helped"]);
    let unhelped = &json["4x4 single"];
    assert_eq!(
        (&unhelped["solves"], &unhelped["dnf"]),
        (&6.into(), &1.into())
    );
    let time = &unhelped["time_ms"];
    assert_eq!(
        time["single"],
        serde_json::json!({"current": "DNF", "best": 13_000})
    );
    assert_eq!(time["mean"], 14_442);
    // Best: the first five, (14.21 + 15 + 14) / 3; now: 15, 13, 16, 14 and a DNF.
    assert_eq!(
        time["ao5"],
        serde_json::json!({"current": 15_000, "best": 14_403})
    );
    assert!(time.get("ao12").is_none());
    assert_eq!(unhelped["moves"]["ao5"]["best"], 60);
    assert_eq!(unhelped["moves_mtm"]["single"]["best"], 40);
    // TPS of each solve, averaged: 60 moves in 14.21, 15, 13, 16 and 14 s are 4.222…, 4,
    // 4.615…, 3.75 and 4.285… TPS; the first five drop 4.615… and 3.75.
    assert_eq!(unhelped["tps"]["ao5"]["best"], 4.169);
    assert_eq!(
        json["4x4 single helped"]["time_ms"]["single"]["best"],
        5_000
    );
}

#[test]
fn tps_is_counted_to_the_nearest_millionth() {
    // 2 moves in 3 ms: 666.666 666… TPS.
    let tps = |ms, moves| Attempt::solved(ms, moves, moves).value(Metric::Tps);
    assert_eq!(tps(3, 2), Some(666.666_667));
    assert_eq!(tps(3, 1), Some(333.333_333));
    assert_eq!(tps(u64::MAX, u32::MAX), Some(0.0));
    assert_eq!(tps(0, u32::MAX), Some(4_294_967_295_000.0));
}

#[test]
fn dnfs_on_either_side_of_the_count_dropped_at_each_edge_of_the_windows() {
    for n in AVERAGES {
        let drop = trimmed(n);
        // N + 2 solves, all different: three windows.
        let base: Vec<Attempt> = (0..n as u64 + 2)
            .map(|i| Attempt::solved(10_000 + (i * 7_919) % 1_000, 40 + i as u32 % 7, 30))
            .collect();
        for dnfs in [drop - 1, drop, drop + 1] {
            let len = base.len();
            let placements: [Vec<usize>; 4] = [
                (0..dnfs).collect(),
                (len - dnfs..len).collect(),
                (0..dnfs)
                    .map(|i| if i % 2 == 0 { i / 2 } else { len - 1 - i / 2 })
                    .collect(),
                (0..dnfs).map(|i| n - 1 - i).collect(),
            ];
            for at in placements {
                let mut results = base.clone();
                for &i in &at {
                    results[i] = DNF;
                }
                for metric in Metric::ALL {
                    let best = best_average(&results, n, metric);
                    let expected = reference_best(&results, n, metric);
                    assert!(
                        same(best, expected, metric),
                        "ao{n} {metric:?} DNFs at {at:?}"
                    );
                    let current = current_average(&results, n, metric);
                    let expected = reference_average(&results[len - n..], metric);
                    assert!(
                        same(current, expected, metric),
                        "ao{n} {metric:?} DNFs at {at:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn rolling_averages_are_the_averages_ending_at_each_solve() {
    let mut results = times(&[12_000, 9_000, 11_000, 10_000, 13_000, 8_000, 14_000]);
    results.insert(5, DNF);
    results.insert(6, DNF);
    let ao5 = rolling_average(&results, 5, Metric::Time);
    let expected: Vec<Average> = (0..results.len())
        .map(|i| match i {
            0..4 => Average::NotEnough,
            _ => reference_average(&results[i - 4..=i], Metric::Time),
        })
        .collect();
    assert_eq!(ao5, expected);
    assert_eq!(ao5[4], Average::Value(11_000.0));
    assert_eq!(ao5[6], Average::Dnf);
    assert_eq!(
        rolling_average(&results[..3], 5, Metric::Time),
        [Average::NotEnough; 3]
    );
    assert_eq!(
        rolling_average(&results, 2, Metric::Time),
        vec![Average::NotEnough; 9]
    );
}
