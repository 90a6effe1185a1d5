//! Large boards: a constructive solver that answers in milliseconds for any board up to 16×16,
//! shortening of its moves, and anytime improvement within a deadline.
//!
//! The improvement, on boards over 25 cells: beam searches presort the board (see `beam`), the
//! best-of construction finishes from where each stalls, and the shortest is kept; its end is
//! re-solved the same way from where only a smaller region is left, then windows of it and its
//! last 5×5 are re-solved (optimally, or by weighted A* on the 5×5 pattern databases when they
//! are cached). On up to 25 cells, windows and then weighted A* with falling weights.
//!
//! ```
//! use npuzzle::{Board, Budget, random::random_solvable, large::solve_fast};
//!
//! let board = random_solvable(npuzzle::Shape::new(8, 8).unwrap(), 1);
//! let solution = solve_fast(&board, &Budget::default()).unwrap();
//! assert!(solution.solves(&board));
//! assert!(solution.lower_bound <= solution.len());
//! ```

mod beam;
mod construct;
mod shorten;
mod stage;
mod weighted;

pub use shorten::cancel_inverse_pairs;

use std::time::Instant;

use rayon::prelude::*;
use thiserror::Error;

use crate::analysis::{Solvability, linear_conflict};
use crate::board::{Board, Move, Shape};
use crate::search::budget::{Budget, GaveUp, SearchStatus, StopReason, Stopwatch};
use crate::solution::{Algorithm, Solution};

use construct::{Config, Plan, StageOption, construct};
use shorten::Shortener;

/// Why a large-board solver returned no solution.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LargeError {
    /// The goal cannot be reached from this board.
    #[error("the board is unsolvable: {0}")]
    Unsolvable(Solvability),
    /// The budget ran out (or the search was cancelled) before a first solution.
    #[error("{0}")]
    GaveUp(GaveUp),
    /// The constructive method found no route for a tile (a bug: it should not happen).
    #[error("the constructive solver could not route tile {tile}")]
    Stuck {
        /// The tile that could not move (0 for the blank).
        tile: u8,
    },
}

impl LargeError {
    /// A stop by the budget, before the figures are known (see [`LargeError::with_figures`]).
    fn stopped(reason: StopReason) -> LargeError {
        LargeError::GaveUp(GaveUp::stopped(reason))
    }

    /// A stop with the time spent and the board's lower bound filled in.
    fn with_figures(self, seconds: f64, lower_bound: usize) -> LargeError {
        match self {
            LargeError::GaveUp(gave_up) => LargeError::GaveUp(GaveUp {
                seconds,
                lower_bound: gave_up.lower_bound.max(lower_bound),
                ..gave_up
            }),
            other => other,
        }
    }
}

/// The best admissible lower bound the engine has for a board: Manhattan plus linear conflict.
pub fn lower_bound(board: &Board) -> usize {
    linear_conflict(board)
}

/// The pattern-database heuristic of a board whose shape has default databases, if they are
/// already loaded or cached on disk (never built here): admissible, often above
/// [`lower_bound`].
pub fn pdb_bound(board: &Board, budget: &Budget) -> Option<usize> {
    cached_pdb(board, budget)?.heuristic(board)
}

/// The default pattern databases of the board's shape, if loaded or cached on disk.
fn cached_pdb(
    board: &Board,
    budget: &Budget,
) -> Option<std::sync::Arc<crate::pdb::PatternDatabase>> {
    let partition = crate::pdb::Partition::default_for(board.shape())?;
    let dir = crate::pdb::default_dir()?;
    if !crate::pdb::cache::file_path(&dir, &partition).is_file() {
        return None;
    }
    crate::pdb::load_or_build(&partition, Some(&dir), budget, None).ok()
}

/// Settings of the anytime improvement.
#[derive(Clone, Debug)]
pub struct Improve {
    /// Window lengths tried in turn by the windowed re-solves, shortest first.
    pub windows: Vec<usize>,
    /// Nodes each window's IDA* may expand.
    pub window_nodes: u64,
    /// Nodes each weighted A* run may expand (boards of up to 25 cells).
    pub weighted_nodes: u64,
    /// Threads for the presorted constructions on boards over 25 cells: `None` uses every
    /// core, 1 works on the calling thread alone.
    pub threads: Option<usize>,
}

impl Default for Improve {
    fn default() -> Improve {
        Improve {
            windows: vec![12, 16, 20, 24, 28, 32, 36, 40],
            window_nodes: 20_000,
            weighted_nodes: 3_000_000,
            threads: None,
        }
    }
}

fn checked(board: &Board) -> Result<(), LargeError> {
    let solvability = Solvability::of(board);
    if solvability.solvable {
        Ok(())
    } else {
        Err(LargeError::Unsolvable(solvability))
    }
}

/// The largest boards (in cells) whose fast solution fills lines from the cheaper end.
const CHOOSE_ENDS_CELLS: usize = 100;

/// The constructive moves with inverse pairs cancelled and a quick windowed pass.
fn first_moves(board: &Board, budget: &Budget) -> Result<Vec<Move>, LargeError> {
    // Choosing the cheaper end of each line saves about 2% of the moves but costs a second
    // search per tile: worth it only where that is cheap.
    let config = Config {
        choose_ends: board.tiles().len() <= CHOOSE_ENDS_CELLS,
        ..Config::FAST
    };
    constructed(board, &config, budget)
}

/// The constructive moves of one variant, with inverse pairs cancelled and a quick windowed pass.
fn constructed(board: &Board, config: &Config, budget: &Budget) -> Result<Vec<Move>, LargeError> {
    let moves = cancel_inverse_pairs(&construct(board, config, budget)?);
    let shortener = Shortener::new(board.shape());
    match shortener.pass(board, &moves, 10, 5, 500, budget) {
        Ok((moves, _)) => Ok(moves),
        Err((moves, _)) => Ok(moves),
    }
}

/// Solves any solvable board in milliseconds: the constructive method, then the quick
/// shortenings. Not optimal; the solution carries the admissible lower bound.
pub fn solve_fast(board: &Board, budget: &Budget) -> Result<Solution, LargeError> {
    let clock = Stopwatch::start();
    checked(board)?;
    let moves = first_moves(board, budget)
        .map_err(|e| e.with_figures(clock.seconds(), lower_bound(board)))?;
    Ok(Solution {
        moves,
        algorithm: Algorithm::Fast,
        optimal: false,
        nodes_expanded: 0,
        seconds: clock.seconds(),
        lower_bound: lower_bound(board),
    })
}

/// The best solution so far during an anytime run, and who hears of improvements.
struct Best<'a, F: FnMut(&Solution)> {
    board: &'a Board,
    solution: Solution,
    clock: Stopwatch,
    on_improve: F,
}

impl<F: FnMut(&Solution)> Best<'_, F> {
    /// Takes `moves` if they solve the board in fewer moves than the best.
    fn offer(&mut self, moves: Vec<Move>, algorithm: Algorithm) -> bool {
        if moves.len() >= self.solution.len() {
            return false;
        }
        let mut replay = self.board.clone();
        if replay.apply_all(&moves).is_err() || !replay.is_goal() {
            return false;
        }
        self.solution.moves = moves;
        self.solution.algorithm = algorithm;
        self.solution.seconds = self.clock.seconds();
        self.solution.optimal = self.solution.len() <= self.solution.lower_bound;
        (self.on_improve)(&self.solution);
        true
    }

    /// Whether the best is proved shortest.
    fn done(&self) -> bool {
        self.solution.len() <= self.solution.lower_bound
    }
}

/// Windowed re-solves with each window length in turn, each repeated while it gains.
fn improve_by_windows<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    windows: &[usize],
    nodes: u64,
    budget: &Budget,
) -> Result<(), StopReason> {
    for &length in windows {
        loop {
            if best.done() {
                return Ok(());
            }
            let result = shortener.pass(
                best.board,
                &best.solution.moves,
                length,
                (length / 2).max(1),
                nodes,
                budget,
            );
            match result {
                Ok((moves, improved)) => {
                    best.offer(moves, Algorithm::Anytime);
                    if !improved {
                        break;
                    }
                }
                Err((moves, reason)) => {
                    best.offer(moves, Algorithm::Anytime);
                    return Err(reason);
                }
            }
        }
    }
    Ok(())
}

/// [`improve_by_windows`] with the two shortest window lengths only: quick, for a new best.
fn improve_by_short_windows<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
) -> Result<(), StopReason> {
    let short = &improve.windows[..2.min(improve.windows.len())];
    improve_by_windows(best, shortener, short, improve.window_nodes, budget)
}

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
    let db = cached_pdb(best.board, budget);
    let heuristic = match db
        .as_deref()
        .and_then(|db| weighted::PdbEstimate::new(shape, db))
    {
        Some(pdb) => weighted::Estimator::Pdb(pdb),
        None => weighted::Estimator::LinearConflict(weighted::Heuristic::new(shape)),
    };
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

/// Solves fast, then improves the solution until the budget's deadline or cancel flag stops it
/// (or nothing more is found), calling `on_improve` with each better solution, the first
/// included. Returns the best. Without a deadline, it stops when a round finds nothing shorter.
///
/// Boards of up to 25 cells (5×5) also run weighted A* on Manhattan + linear conflict with
/// falling weights; if it rules out anything shorter, the solution is marked optimal.
pub fn solve_anytime(
    board: &Board,
    budget: &Budget,
    improve: &Improve,
    mut on_improve: impl FnMut(&Solution),
) -> Result<Solution, LargeError> {
    // The budget's progress callback hears of each better solution too.
    let on_improve = move |solution: &Solution| {
        budget.report(&SearchStatus {
            nodes_expanded: solution.nodes_expanded,
            seconds: solution.seconds,
            lower_bound: solution.lower_bound,
            best: Some(solution.len()),
        });
        on_improve(solution);
    };
    let clock = Stopwatch::start();
    checked(board)?;
    let bound = lower_bound(board);
    let first = Solution {
        moves: first_moves(board, budget).map_err(|e| e.with_figures(clock.seconds(), bound))?,
        algorithm: Algorithm::Fast,
        optimal: false,
        nodes_expanded: 0,
        seconds: clock.seconds(),
        lower_bound: bound,
    };
    let mut best = Best {
        board,
        solution: first,
        clock,
        on_improve,
    };
    best.solution.optimal = best.done();
    (best.on_improve)(&best.solution);
    // The pattern databases' bound, where they are cached: loading them may take a moment, so
    // only after the first solution is out.
    if let Some(pdb) = pdb_bound(board, budget)
        && pdb > best.solution.lower_bound
    {
        best.solution.lower_bound = pdb;
        best.solution.optimal = best.done();
    }
    let shortener = Shortener::new(board.shape());
    let _ = run_improvements(&mut best, &shortener, improve, budget);
    let mut solution = best.solution;
    solution.seconds = clock.seconds();
    Ok(solution)
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

/// The ways each line is placed by the best-of construction.
const BEST_OF: &[StageOption] = &[
    StageOption {
        chunk: 6,
        weight: (3, 2),
        nodes: 20_000,
        exact: true,
    },
    StageOption {
        chunk: 6,
        weight: (3, 2),
        nodes: 20_000,
        exact: false,
    },
    StageOption {
        chunk: 4,
        weight: (1, 1),
        nodes: 20_000,
        exact: true,
    },
    StageOption {
        chunk: 5,
        weight: (2, 1),
        nodes: 20_000,
        exact: true,
    },
    StageOption {
        chunk: 8,
        weight: (2, 1),
        nodes: 20_000,
        exact: true,
    },
    StageOption {
        chunk: 6,
        weight: (1, 1),
        nodes: 20_000,
        exact: true,
    },
    StageOption {
        chunk: 6,
        weight: (3, 1),
        nodes: 20_000,
        exact: true,
    },
    StageOption {
        chunk: 15,
        weight: (3, 2),
        nodes: 20_000,
        exact: false,
    },
];

/// Whether the 4×4 pattern databases are at hand (loaded, or in the cache folder), so that a
/// 4×4 remainder can be solved optimally without building them.
fn pdb_4x4_cached() -> bool {
    let Ok(shape) = crate::board::Shape::new(4, 4) else {
        return false;
    };
    let (Some(partition), Some(dir)) = (
        crate::pdb::Partition::default_for(shape),
        crate::pdb::default_dir(),
    ) else {
        return false;
    };
    crate::pdb::cache::file_path(&dir, &partition).is_file()
}

/// Single-setting constructive variants the anytime solver tries on boards over 25 cells when
/// time is left: multi-tile stages of several sizes and weights, each with both plans.
fn variants() -> Vec<Config> {
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

/// The improvement schedule; stops early with the reason the budget gave.
fn run_improvements<F: FnMut(&Solution)>(
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
    if best.board.tiles().len() <= weighted::MAX_CELLS {
        improve_by_short_windows(best, shortener, improve, budget)?;
        improve_by_weighted(best, improve, budget)?;
    } else {
        // Presorted constructions first (see `beam`), then the windows on the best.
        improve_by_presorting(best, shortener, improve, budget)?;
        improve_by_short_windows(best, shortener, improve, budget)?;
        improve_last_5x5(best, &SUFFIX_QUICK, budget)?;
    }
    improve_by_windows(
        best,
        shortener,
        &improve.windows,
        improve.window_nodes,
        budget,
    )?;
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
                finish_4x4: pdb_4x4_cached(),
                ..Config::FAST
            };
            if let Ok(moves) = constructed(best.board, &config, budget)
                && best.offer(moves, Algorithm::Anytime)
            {
                improve_by_short_windows(best, shortener, improve, budget)?;
            }
            budget.check(0, 0)?;
        }
        improve_last_5x5(best, &SUFFIX_LONG, budget)?;
        // Still time: the single-setting constructions, for variety (they seldom win, so last).
        for config in &all {
            if let Ok(moves) = constructed(best.board, config, budget) {
                best.offer(moves, Algorithm::Anytime);
            }
            budget.check(0, 0)?;
        }
    }
    Ok(())
}

/// How fast each presorting beam lets the weights of earlier lines grow (as `num / den` a
/// line), in the order they are tried: each gives a different presorted board, and the
/// construction's length varies enough between them that the best of several wins.
const GROWTHS: [(u32, u32); 8] = [
    (3, 2),
    (8, 5),
    (7, 5),
    (13, 10),
    (5, 4),
    (17, 10),
    (2, 1),
    (11, 10),
];

/// Where the construction takes over from a presorting beam, as a fraction of the depth of the
/// beam's best board (the last stretch before the beam's best gains little per move).
const HANDOVER: f64 = 0.9;

/// A solution by presorting (a beam with weights growing by `growth`) and then the best-of
/// construction from the board the beam handed over.
fn presorted(board: &Board, growth: (u32, u32), budget: &Budget) -> Option<Vec<Move>> {
    let settings = beam::BeamSettings {
        growth,
        ..beam::BeamSettings::DEFAULT
    };
    let beam = beam::presort(board, &settings, budget).ok()?;
    let mut moves = beam.path_to((beam.best_depth as f64 * HANDOVER).round() as usize);
    let mut start = board.clone();
    start.apply_all(&moves).ok()?;
    let config = Config {
        options: BEST_OF,
        finish_4x4: pdb_4x4_cached(),
        ..Config::FAST
    };
    moves.extend(constructed(&start, &config, budget).ok()?);
    Some(cancel_inverse_pairs(&moves))
}

/// Runs [`presorted`] on `board` with each of [`GROWTHS`], `threads` at a time, and hands each
/// solution to `take`; starts no round after `stop_at`.
fn each_presorted(
    board: &Board,
    threads: usize,
    stop_at: Option<Instant>,
    budget: &Budget,
    mut take: impl FnMut(Vec<Move>) -> Result<(), StopReason>,
) -> Result<(), StopReason> {
    for round in GROWTHS.chunks(threads.max(1)) {
        if stop_at.is_some_and(|stop| Instant::now() >= stop) {
            break;
        }
        let found: Vec<Option<Vec<Move>>> = if round.len() == 1 {
            vec![presorted(board, round[0], budget)]
        } else {
            round
                .par_iter()
                .map(|&growth| presorted(board, growth, budget))
                .collect()
        };
        for moves in found.into_iter().flatten() {
            take(moves)?;
        }
        budget.check(0, 0)?;
    }
    Ok(())
}

/// The moment when `share` of the time left before the budget's deadline has passed (none
/// without a deadline).
fn share_of_time_left(budget: &Budget, share: f64) -> Option<Instant> {
    budget.deadline.map(|deadline| {
        let now = Instant::now();
        now + deadline.saturating_duration_since(now).mul_f64(share)
    })
}

/// The regions whose ends [`improve_by_presorting`] re-solves: the bottom-right regions the
/// construction passes (the longer side goes first) when about two thirds and two fifths of
/// the cells are left, if those have more than 25 cells (5×5 and under have their own
/// re-solve).
fn suffix_regions(shape: Shape) -> Vec<(usize, usize)> {
    let (mut width, mut height) = (shape.width, shape.height);
    let mut regions = Vec::new();
    for share in SUFFIX_SHARES {
        let cells = (shape.cells() as f64 * share) as usize;
        while width * height > cells && width > 2 && height > 2 {
            if height > width {
                height -= 1;
            } else {
                width -= 1;
            }
        }
        if width * height > weighted::MAX_CELLS && width * height < shape.cells() {
            regions.push((width, height));
        }
    }
    regions
}

/// See [`suffix_regions`].
const SUFFIX_SHARES: [f64; 2] = [0.67, 0.4];

/// The share of the time left that presorting the whole board takes, and then the share of
/// what is left that re-solving the ends takes; the rest goes to the shortenings.
const PRESORT_SHARE: f64 = 0.55;
const SUFFIX_SHARE: f64 = 0.7;

/// Presorts the whole board by beams and constructs from where each stopped, shortening each
/// new best by short windows; then re-solves the ends of the best the same way (see
/// [`suffix_regions`]), keeping the best end each time. A construction's length varies enough
/// between beams that the best of several wins, for the whole and for each end.
fn improve_by_presorting<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
) -> Result<(), StopReason> {
    let board = best.board;
    let threads = improve
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .max(1);
    let stop_at = share_of_time_left(budget, PRESORT_SHARE);
    each_presorted(board, threads, stop_at, budget, |moves| {
        if best.offer(moves, Algorithm::Anytime) {
            improve_by_short_windows(best, shortener, improve, budget)?;
        }
        Ok(())
    })?;
    let stop_at = share_of_time_left(budget, SUFFIX_SHARE);
    for (width, height) in suffix_regions(board.shape()) {
        let Some((start, region)) = last_region(board, &best.solution.moves, width, height) else {
            continue;
        };
        let prefix = best.solution.moves[..start].to_vec();
        each_presorted(&region, threads, stop_at, budget, |tail| {
            let mut moves = prefix.clone();
            moves.extend(tail);
            best.offer(cancel_inverse_pairs(&moves), Algorithm::Anytime);
            Ok(())
        })?;
    }
    Ok(())
}

/// Extra best-of constructions when time is left.
const MORE_ROUNDS: usize = 12;

/// Weighted-A* runs (weight as `num / den`, nodes) on the last 5×5 of a large board: a quick
/// pass early, a longer one once the constructions are done.
const SUFFIX_QUICK: [(u32, u32, u64); 2] = [(2, 1, 100_000), (3, 2, 200_000)];
const SUFFIX_LONG: [(u32, u32, u64); 3] = [(3, 2, 300_000), (4, 3, 500_000), (6, 5, 800_000)];

/// Where a solution is left with only the bottom-right `width` × `height` region to solve: the
/// first move after which every board has all tiles outside the region home and the blank
/// inside, and that region then as a board of its own (tiles renumbered). `None` if the
/// region is not smaller than the board, or the solution never gets there before its end.
fn last_region(
    board: &Board,
    moves: &[Move],
    width: usize,
    height: usize,
) -> Option<(usize, Board)> {
    let shape = board.shape();
    if shape.width < width || shape.height < height || shape.cells() <= width * height {
        return None;
    }
    let (column0, row0) = (shape.width - width, shape.height - height);
    let inside = |cell: usize| {
        let (column, row) = shape.column_row(cell);
        column >= column0 && row >= row0
    };
    let reduced = |board: &Board| {
        inside(board.blank())
            && board
                .tiles()
                .iter()
                .enumerate()
                .all(|(cell, &tile)| inside(cell) || tile as usize == cell + 1)
    };
    let mut replay = board.clone();
    let mut start = None;
    let mut at_start = board.clone();
    for (i, &mv) in moves.iter().enumerate() {
        if reduced(&replay) {
            if start.is_none() {
                start = Some(i);
                at_start = replay.clone();
            }
        } else {
            start = None;
        }
        replay.apply(mv);
    }
    let start = start?;
    let mut local = Vec::with_capacity(width * height);
    for row in row0..shape.height {
        for column in column0..shape.width {
            let tile = at_start.tiles()[shape.cell(column, row)];
            local.push(if tile == 0 {
                0
            } else {
                let (gc, gr) = shape.column_row(tile as usize - 1);
                ((gr - row0) * width + (gc - column0) + 1) as u8
            });
        }
    }
    Some((start, Board::new(width, height, local).ok()?))
}

/// Re-solves the end of the best solution where only the bottom-right 5×5 still moves, by
/// anytime weighted A* on the 5×5 pattern databases (only where they are cached), bounded by
/// that end's length.
fn improve_last_5x5<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    schedule: &[(u32, u32, u64)],
    budget: &Budget,
) -> Result<(), StopReason> {
    const SIDE: usize = 5;
    let Some((start, region)) = last_region(best.board, &best.solution.moves, SIDE, SIDE) else {
        return Ok(());
    };
    let suffix = best.solution.moves.len() - start;
    // Loading the databases from disk takes a moment: not when the deadline is near.
    static LOADED_5X5: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let loaded = LOADED_5X5.load(std::sync::atomic::Ordering::Relaxed);
    if !loaded
        && budget.deadline.is_some_and(|deadline| {
            deadline.saturating_duration_since(Instant::now())
                < std::time::Duration::from_millis(250)
        })
    {
        return Ok(());
    }
    let Some(db) = cached_pdb(&region, budget) else {
        return Ok(());
    };
    LOADED_5X5.store(true, std::sync::atomic::Ordering::Relaxed);
    let Some(estimate) = weighted::PdbEstimate::new(region.shape(), &db) else {
        return Ok(());
    };
    let heuristic = weighted::Estimator::Pdb(estimate);
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
    use crate::board::Shape;
    use crate::random::random_solvable;

    #[test]
    fn the_last_5x5_re_solve_keeps_a_solution() {
        // Does something only where the 5x5 databases are cached (never built here).
        for (width, height, seed) in [(6, 6, 3), (7, 5, 4), (4, 8, 5)] {
            let board = random_solvable(Shape::new(width, height).unwrap(), seed);
            let budget = Budget::default();
            let first = solve_fast(&board, &budget).unwrap();
            let length = first.len();
            let mut best = Best {
                board: &board,
                solution: first,
                clock: Stopwatch::start(),
                on_improve: |_: &Solution| {},
            };
            improve_last_5x5(&mut best, &SUFFIX_QUICK, &budget).unwrap();
            assert!(best.solution.len() <= length);
            assert!(best.solution.solves(&board));
        }
    }

    #[test]
    fn the_fast_solution_passes_every_suffix_region_and_its_end_solves_the_region() {
        for (width, height, seed) in [(11, 11, 1), (8, 8, 2), (6, 10, 3), (10, 7, 4)] {
            let shape = Shape::new(width, height).unwrap();
            let board = random_solvable(shape, seed);
            let moves = solve_fast(&board, &Budget::default()).unwrap().moves;
            let regions = suffix_regions(shape);
            assert!(!regions.is_empty(), "{shape}");
            for (w, h) in regions {
                assert!(w * h > weighted::MAX_CELLS && w * h < shape.cells());
                let (start, mut region) = last_region(&board, &moves, w, h)
                    .unwrap_or_else(|| panic!("{shape}: {w}x{h} never reached"));
                // Outside the region everything is home from `start` on.
                let mut replay = board.clone();
                replay.apply_all(&moves[..start]).unwrap();
                for (cell, &tile) in replay.tiles().iter().enumerate() {
                    let (column, row) = shape.column_row(cell);
                    if column < width - w || row < height - h {
                        assert_eq!(tile as usize, cell + 1, "{shape} {w}x{h}");
                    }
                }
                // The same blank moves solve the region as a board of its own.
                region.apply_all(&moves[start..]).unwrap();
                assert!(region.is_goal(), "{shape} {w}x{h}");
            }
        }
        assert!(suffix_regions(Shape::new(6, 6).unwrap()).is_empty());
    }

    #[test]
    fn presorted_solutions_solve_every_shape() {
        let budget = Budget::default();
        for (width, height) in [(6, 6), (9, 4), (4, 9), (11, 11), (3, 12)] {
            let board = random_solvable(Shape::new(width, height).unwrap(), 8);
            for growth in [GROWTHS[0], GROWTHS[GROWTHS.len() - 1]] {
                let moves = presorted(&board, growth, &budget).unwrap();
                let mut replay = board.clone();
                replay.apply_all(&moves).unwrap();
                assert!(replay.is_goal(), "{width}x{height} {growth:?}");
            }
        }
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
                let moves = construct(&board, &config, &budget).unwrap();
                let mut replay = board.clone();
                replay.apply_all(&moves).unwrap();
                assert!(replay.is_goal(), "{shape} {config:?}");
            }
        }
    }
}
