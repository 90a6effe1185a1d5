//! The anytime improvement's schedule: which methods run, in which order, with which settings
//! (the best solution they share is `best`'s).

use std::time::{Duration, Instant};

use crate::board::{Move, Shape};
use crate::search::budget::{Budget, StopReason};
use crate::solution::{Algorithm, Solution};

use super::best::{Best, improve_by_all_windows, improve_by_short_windows};
use super::construct::{BEST_OF, Config, Plan};
use super::long_windows::improve_by_long_windows;
use super::presort::improve_by_presorting;
use super::regions::last_region;
use super::shorten::Shortener;
use super::wide::widening::{Pace, Widening, improve_by_wide_beams};
use super::{Improve, Tables, constructed, weighted};

/// Weights (as `num / den`) tried in turn by the anytime weighted A* on small boards, each with
/// the nodes it may expand (at most [`Improve::weighted_nodes`]; the last run gets all of those).
/// Small steps down with short runs at the high weights: each run's best bounds the next, so
/// the low weights start with a tight upper bound and prune hard (on the Korf 24-puzzles this
/// took the mean length after 1 s from 1.21 to about 1.09 × optimal, against `[2, 1.5, 1]`
/// with equal node budgets).
const WEIGHTS: [(u32, u32, u64); 5] = [
    (2, 1, 200_000),
    (3, 2, 500_000),
    (4, 3, 800_000),
    (6, 5, 1_500_000),
    (1, 1, u64::MAX),
];

/// Anytime weighted A* with falling weights, each bounded by the best length so far.
fn improve_by_weighted<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    improve: &Improve,
    budget: &Budget,
) -> Result<(), StopReason> {
    let shape = best.board.shape();
    let heuristic = (improve.tables.for_shape(shape))
        .and_then(|db| weighted::WeightedEstimate::with_tables(shape, db))
        .unwrap_or_else(|| weighted::WeightedEstimate::linear_conflict(shape));
    for (num, den, nodes) in WEIGHTS {
        if best.done() {
            return Ok(());
        }
        let outcome = weighted::weighted_astar(
            best.board,
            &heuristic,
            (num, den),
            best.solution.len(),
            nodes.min(improve.weighted_nodes),
            budget,
            &mut |moves| {
                best.offer(moves, Algorithm::Anytime);
            },
        );
        match outcome {
            Ok(_) => {
                // Every shorter path was ruled out: the best is optimal.
                best.solution.lower_bound = best.solution.len();
                best.solution.optimal = true;
                return Ok(());
            }
            Err(StopReason::NodeLimit) => continue,
            Err(reason) => return Err(reason),
        }
    }
    Ok(())
}

/// Multi-tile stage settings the anytime solver tries on boards over 25 cells, in order:
/// (cells a stage places at once, weight as `num / den`, nodes a stage may expand).
const STAGES: [(usize, (u32, u32), u64); 9] = [
    (6, (3, 2), 20_000),
    (15, (3, 2), 20_000),
    (4, (3, 2), 20_000),
    (8, (5, 4), 50_000),
    (6, (1, 1), 100_000),
    (4, (1, 1), 100_000),
    (15, (1, 1), 300_000),
    (6, (2, 1), 20_000),
    (8, (1, 1), 300_000),
];

/// Single-setting constructive variants the anytime solver tries on boards over 25 cells when
/// time is left: multi-tile stages of several sizes and weights, each with both plans.
fn variants() -> Vec<Config<'static>> {
    let mut out = Vec::new();
    for (chunk, weight, nodes) in STAGES {
        for plan in [Plan::LongerSide, Plan::Alternate] {
            out.push(Config {
                plan,
                line_stage: Some((weight, nodes)),
                chunk,
                ..Config::FAST
            });
        }
    }
    out
}

/// The run times (seconds) whose results a longer run never does worse than: a run given `T`
/// seconds first runs the whole schedule for the longest of these at most half of `T`, its
/// best kept, then its own schedule for `T` (see [`run_on_rungs`]). None is under 10 s, so
/// `--time 1` and `--time 10` and the app's 2 s run as before.
pub(super) const RUNGS: [f64; 6] = [10.0, 30.0, 100.0, 300.0, 1_000.0, 3_000.0];

/// [`run_improvements`] so that more time never gives a longer solution than one of the
/// [`RUNGS`]: with a deadline at least twice a rung's time from `started`, the schedule of the
/// longest such rung runs first (itself on the rungs below it), and the best it leaves is the
/// one the full schedule must beat. The schedule plans its beams and windows to its deadline,
/// so without this a longer run could take another road and end longer (7×7: 275 moves at
/// `--time 10`, 283 at `--time 60`).
pub(super) fn run_on_rungs<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
    started: Instant,
) -> Result<(), StopReason> {
    on_rungs(budget, started, &RUNGS, &mut |budget| {
        run_improvements(best, shortener, improve, budget)
    })
}

/// Runs `run` within the budget, first within the longest of `rungs` (seconds from `started`)
/// at most half the time to the deadline, recursively; a stop by the rung's deadline goes on
/// to the full run, any other stop ends it.
fn on_rungs(
    budget: &Budget,
    started: Instant,
    rungs: &[f64],
    run: &mut dyn FnMut(&Budget) -> Result<(), StopReason>,
) -> Result<(), StopReason> {
    if let Some(deadline) = budget.deadline {
        let total = deadline.saturating_duration_since(started).as_secs_f64();
        if let Some(&rung) = rungs.iter().rev().find(|&&rung| rung <= total / 2.0) {
            let shorter = Budget {
                deadline: Some(started + Duration::from_secs_f64(rung)),
                ..budget.clone()
            };
            match on_rungs(&shorter, started, rungs, run) {
                Ok(()) | Err(StopReason::Deadline) => {}
                Err(reason) => return Err(reason),
            }
        }
    }
    run(budget)
}

/// The improvement schedule. `Err` with the budget's reason when the budget cut it, or a
/// method in it, short (the wide beams planned to the deadline count: more time would have
/// widened them); `Ok` when every method ran its course.
pub(super) fn run_improvements<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
) -> Result<(), StopReason> {
    let all = if best.board.tiles().len() <= weighted::MAX_CELLS {
        Vec::new()
    } else {
        variants()
    };
    let mut cut_short = None;
    if best.board.tiles().len() <= weighted::MAX_CELLS {
        improve_by_short_windows(best, shortener, improve, budget)?;
        widen_then_windows(best, shortener, improve, budget, &mut cut_short)?;
        improve_by_weighted(best, improve, budget)?;
    } else {
        let cells = best.board.tiles().len();
        if cells <= WIDE_FIRST_CELLS {
            widen_then_windows(best, shortener, improve, budget, &mut cut_short)?;
        }
        // Presorted constructions (see `beam`), then the windows on the best.
        improve_by_presorting(best, shortener, improve, budget)?;
        improve_by_short_windows(best, shortener, improve, budget)?;
        improve_last_5x5(best, &SUFFIX_QUICK, &improve.tables, budget)?;
        if wide_early(best.board.shape()) {
            widen_then_windows(best, shortener, improve, budget, &mut cut_short)?;
        }
    }
    improve_by_all_windows(best, shortener, improve, budget)?;
    if best.board.tiles().len() > weighted::MAX_CELLS {
        // Time left: best-of constructions from the board itself, with other charges and plans.
        for round in 0..MORE_ROUNDS {
            let config = Config {
                options: BEST_OF,
                plan: if round % 2 == 0 {
                    Plan::LongerSide
                } else {
                    Plan::Alternate
                },
                leftover: [2, 1, 3, 0][(round / 2) % 4],
                either_line: round >= 8,
                finish_4x4: improve.tables.four.as_deref(),
                ..Config::FAST
            };
            if let Ok(moves) = constructed(best.board, &config, budget)
                && best.offer(moves, Algorithm::Anytime)
            {
                improve_by_short_windows(best, shortener, improve, budget)?;
            }
            budget.check(0, 0)?;
        }
        improve_last_5x5(best, &SUFFIX_LONG, &improve.tables, budget)?;
        // Still time: the single-setting constructions, for variety (they seldom win, so last).
        for config in &all {
            if let Ok(moves) = constructed(best.board, config, budget) {
                best.offer(moves, Algorithm::Anytime);
            }
            budget.check(0, 0)?;
        }
        if best.board.tiles().len() > WIDE_FIRST_CELLS && !wide_early(best.board.shape()) {
            widen(best, shortener, improve, budget, &mut cut_short)?;
        }
    }
    cut_short.map_or(Ok(()), Err)
}

/// Wide beams to the goal (see `widening`), then the windows of the best: short ones by IDA*,
/// then long ones by beams (see `long_windows`) planned from the widest goal beam's pace.
fn widen_then_windows<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
    cut_short: &mut Option<StopReason>,
) -> Result<(), StopReason> {
    let pace = widen(best, shortener, improve, budget, cut_short)?;
    improve_by_all_windows(best, shortener, improve, budget)?;
    improve_by_long_windows(best, shortener, improve, budget, pace)
}

/// The wide beams (see `widening`), noting in `cut_short` when the time left or the budget's
/// memory, not our cap, set the last beam's width. The pace of the widest beam that reached the
/// goal, if any.
fn widen<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
    cut_short: &mut Option<StopReason>,
) -> Result<Option<Pace>, StopReason> {
    let (widening, pace) = improve_by_wide_beams(best, shortener, improve, budget)?;
    let reason = match widening {
        Widening::OutOfTime => Some(StopReason::Deadline),
        Widening::OutOfMemory => Some(StopReason::MemoryLimit),
        Widening::AtMemoryCap | Widening::Untimed | Widening::Proved => None,
    };
    if let Some(reason) = reason {
        cut_short.get_or_insert(reason);
    }
    Ok(pace)
}

/// The largest boards (in cells) on which the wide beams run first: up to 7×7 they beat the
/// presorted constructions within a second.
const WIDE_FIRST_CELLS: usize = 49;

/// Whether the wide beams (and the windows after them) run right after the presorted
/// constructions on a board larger than [`WIDE_FIRST_CELLS`]: on up to 64 cells with no side
/// under 5 (8×8, 7×8, 5×12). Elsewhere they only take the time left. At `--time 1` they gained
/// on 8×8 605.5 → 521.5 moves (12 boards), 7×8 491.8 → 415.8 and 5×12 685.5 → 602.0 (4 each),
/// but lost on 4×16, 993.1 → 1,008.9 (8 boards), where the paths are long and the beams slow.
fn wide_early(shape: Shape) -> bool {
    let cells = shape.cells();
    cells > WIDE_FIRST_CELLS && cells <= 64 && shape.width.min(shape.height) >= 5
}

/// Extra best-of constructions when time is left.
const MORE_ROUNDS: usize = 12;

/// Weighted-A* runs (weight as `num / den`, nodes) on the last 5×5 of a large board: a quick
/// pass early, a longer one once the constructions are done.
const SUFFIX_QUICK: [(u32, u32, u64); 2] = [(2, 1, 100_000), (3, 2, 200_000)];
const SUFFIX_LONG: [(u32, u32, u64); 3] = [(3, 2, 300_000), (4, 3, 500_000), (6, 5, 800_000)];

/// Re-solves the end of the best solution where only the bottom-right 5×5 still moves, by
/// anytime weighted A* on the 5×5 pattern databases (only where `tables` has them), bounded by
/// that end's length.
fn improve_last_5x5<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    schedule: &[(u32, u32, u64)],
    tables: &Tables,
    budget: &Budget,
) -> Result<(), StopReason> {
    const SIDE: usize = 5;
    let Some(db) = tables.five.as_deref() else {
        return Ok(());
    };
    let Some((start, region)) = last_region(best.board, &best.solution.moves, SIDE, SIDE) else {
        return Ok(());
    };
    let suffix = best.solution.moves.len() - start;
    let Some(heuristic) = weighted::WeightedEstimate::with_tables(region.shape(), db) else {
        return Ok(());
    };
    let mut upper = suffix;
    for &(num, den, nodes) in schedule {
        let prefix = &best.solution.moves[..start];
        let mut found: Option<Vec<Move>> = None;
        let outcome = weighted::weighted_astar(
            &region,
            &heuristic,
            (num, den),
            upper,
            nodes,
            budget,
            &mut |moves| found = Some(moves),
        );
        if let Some(tail) = found {
            upper = tail.len();
            let mut moves = prefix.to_vec();
            moves.extend(tail);
            best.offer(moves, Algorithm::Anytime);
        }
        match outcome {
            Ok(_) => return Ok(()),
            Err(StopReason::NodeLimit) => continue,
            Err(reason) => return Err(reason),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::random_solvable;

    #[test]
    fn a_longer_run_first_runs_each_rung_it_passes_twice_over() {
        // Runs that take no time: each records its deadline (seconds from the start).
        let runs = |seconds: f64| {
            let started = Instant::now();
            let budget = Budget {
                deadline: Some(started + Duration::from_secs_f64(seconds)),
                ..Budget::default()
            };
            let mut deadlines = Vec::new();
            on_rungs(&budget, started, &[1.0, 3.0, 10.0], &mut |budget| {
                let deadline = budget.deadline.unwrap().duration_since(started);
                deadlines.push((deadline.as_secs_f64() * 10.0).round() / 10.0);
                Ok(())
            })
            .unwrap();
            deadlines
        };
        assert_eq!(runs(1.5), [1.5]);
        assert_eq!(runs(2.5), [1.0, 2.5]);
        assert_eq!(runs(9.0), [1.0, 3.0, 9.0]);
        assert_eq!(runs(25.0), [1.0, 3.0, 10.0, 25.0]);
        // A stop other than the rung's deadline ends the whole run.
        let budget = Budget::default().with_time_limit(Duration::from_secs(60));
        let mut calls = 0;
        let stopped = on_rungs(&budget, Instant::now(), &[1.0, 3.0, 10.0], &mut |_| {
            calls += 1;
            Err(StopReason::Cancelled)
        });
        assert_eq!((stopped, calls), (Err(StopReason::Cancelled), 1));
    }

    #[test]
    fn more_time_never_gives_a_longer_solution_than_a_rung() {
        // A schedule whose result is no better with more time: the length it finds is a
        // function of its deadline that rises and falls, as the real one may.
        let length_for = |seconds: f64| 100 + ((seconds * 7.0) as usize * 37) % 23;
        let started = Instant::now();
        let best_with = |seconds: f64| {
            let budget = Budget {
                deadline: Some(started + Duration::from_secs_f64(seconds)),
                ..Budget::default()
            };
            let mut best = usize::MAX;
            on_rungs(&budget, started, &[1.0, 3.0, 10.0], &mut |budget| {
                let deadline = budget.deadline.unwrap().duration_since(started);
                best = best.min(length_for(deadline.as_secs_f64()));
                Ok(())
            })
            .unwrap();
            best
        };
        for rung in [1.0, 3.0, 10.0] {
            let at_rung = best_with(rung);
            for tenth in 20..400 {
                let seconds = rung * f64::from(tenth) / 10.0;
                assert!(
                    best_with(seconds) <= at_rung,
                    "{seconds} s against {rung} s"
                );
            }
        }
        // Without the rungs the same schedule does worse with more time somewhere.
        assert!((20..400).any(|t| length_for(f64::from(t) / 10.0) > length_for(1.0)));
    }

    #[test]
    fn the_wide_beams_run_early_on_8x8_and_boards_like_it_only() {
        let early = |width, height| wide_early(Shape::new(width, height).unwrap());
        assert!(early(8, 8) && early(7, 8) && early(12, 5));
        // Up to 7x7 they run first, from 9x9 up last, and on boards 4 wide last.
        assert!(!early(7, 7) && !early(6, 8) && !early(9, 9) && !early(4, 16) && !early(16, 4));
    }

    #[test]
    fn the_last_5x5_re_solve_keeps_a_solution_and_uses_the_tables() {
        // Small 5x5 tables made here: four patterns of three tiles (the rest Manhattan only).
        let five = Shape::new(5, 5).unwrap();
        let patterns = vec![
            vec![1, 2, 6],
            vec![3, 4, 5],
            vec![16, 21, 22],
            vec![19, 23, 24],
        ];
        let partition = crate::pdb::Partition::new(five, "3-3-3-3", patterns).unwrap();
        let db = crate::pdb::cache::build(&partition, &Budget::default()).unwrap();
        let tables = Tables {
            four: None,
            five: Some(std::sync::Arc::new(db)),
        };
        let mut improved = 0;
        for (width, height, seed) in [(6, 6, 3), (7, 5, 4), (5, 8, 5), (6, 7, 6)] {
            let board = random_solvable(Shape::new(width, height).unwrap(), seed);
            let budget = Budget::default();
            let first = crate::large::solve_fast(&board, &budget).unwrap();
            let length = first.len();
            let mut best = Best::quiet(&board, first);
            // A high weight: these small tables guide the search less than 6-6-6-6 would.
            improve_last_5x5(&mut best, &[(3, 1, 1_000_000)], &tables, &budget).unwrap();
            assert!(best.solution.len() <= length);
            assert!(best.solution.solves(&board));
            improved += usize::from(best.solution.len() < length);
        }
        assert!(improved > 0, "the re-solve never shortened a fast solution");
    }

    #[test]
    fn every_variant_solves_every_shape() {
        let budget = Budget::default();
        for (width, height) in [
            (4, 4),
            (5, 7),
            (7, 5),
            (6, 6),
            (4, 9),
            (9, 4),
            (8, 8),
            (2, 9),
            (11, 3),
        ] {
            let shape = Shape::new(width, height).unwrap();
            let board = random_solvable(shape, (width * 31 + height) as u64);
            for config in variants() {
                let moves = super::super::construct::construct(&board, &config, &budget).unwrap();
                let mut replay = board.clone();
                replay.apply_all(&moves).unwrap();
                assert!(replay.is_goal(), "{shape} {config:?}");
            }
        }
    }
}
