//! Wide beam search to the goal on any board: at each depth the children of the boards kept,
//! ranked (see [`Scores::rank`]) by an admissible estimate (Manhattan + linear conflict) and
//! a surcharge (the spread of the tiles' distances, the sum of their cubes, and the line
//! conflicts counted again), both kept incrementally, and a look one move ahead (whether the
//! blank is stalled, see [`STALL_SURCHARGE`]); the best `width` kept, until a board is the
//! goal. Each doubling of the width gives a shorter solution as a rule, so the anytime
//! schedule runs beams of growing width until its time is up. The estimate may be toward
//! another board of the shape ([`Estimator::toward`]): then the beam ends there
//! (`long_windows` re-solves stretches of a path so).
//!
//! Memory grows with width × depth (half a byte a board kept, see `links`), so the width is
//! capped (see [`max_width`]); at the cap more time cannot help this search.
//!
//! Here: the beam itself; how it reached each board (`links`); its rank of a board (`rank`:
//! the estimate toward a target board and the surcharges, kept incrementally); the table of
//! boards kept lately (`seen`); beams in pairs, one each way between two boards (`both_ways`);
//! and the driver that widens them to the deadline (`widening`).

pub(super) mod both_ways;
mod links;
mod rank;
mod seen;
pub(super) mod widening;

use rayon::prelude::*;

use crate::board::{Board, Move, Shape};
use crate::estimate::kept::{CONFLICTS, Kept};
use crate::search::budget::{Budget, StopReason};

use links::Links;
use rank::{Estimator, NONE, Scores};
use seen::Seen;

/// The most memory (bytes) a beam's parent links and boards may take.
const MEMORY: usize = 768 << 20;

/// The widest beams of a pair (see `both_ways`) that fit [`MEMORY`] between them for
/// solutions up to `depth` moves on `shape`.
pub(super) fn max_width(shape: Shape, depth: usize) -> usize {
    // The parent links; two layers; three places for children, the kept children and the
    // places' ranks; the table of boards seen.
    let per_board = depth.max(1).div_ceil(2)
        + 2 * (shape.cells() + Layer::BYTES_A_BOARD)
        + 4 * size_of::<Child>()
        + 3 * 8
        + 8 * 8;
    MEMORY / 2 / per_board
}

/// The boards kept at one depth.
#[derive(Default)]
struct Layer {
    tiles: Vec<u8>,
    blanks: Vec<u16>,
    estimates: Vec<Kept>,
    surcharges: Vec<u32>,
    hashes: Vec<u64>,
    /// The move that led to each board (an index into [`Move::ALL`]; 4 for none).
    last: Vec<u8>,
}

/// What a beam runs with: the shape's tables, and whether it may use the rayon pool.
struct Search<'a> {
    /// The estimate's tables.
    estimator: &'a Estimator,
    /// Whether children are generated on the current rayon pool's threads.
    parallel: bool,
}

impl Layer {
    /// Bytes a board takes besides its tiles.
    const BYTES_A_BOARD: usize = 2 + 2 + 4 + 8 + 1;

    /// The layer of one board, the first of a beam.
    fn of(board: &Board, scores: Scores) -> Layer {
        Layer {
            tiles: board.tiles().to_vec(),
            blanks: vec![board.blank() as u16],
            estimates: vec![scores.estimate],
            surcharges: vec![scores.surcharge],
            hashes: vec![scores.hash],
            last: vec![4],
        }
    }

    /// Bytes held.
    fn bytes(&self) -> usize {
        self.tiles.len() + self.blanks.len() * Layer::BYTES_A_BOARD
    }
}

/// A child before it is kept: its rank (which also holds its surcharge), estimate, hash, parent,
/// move, and whether its blank is stalled (see [`STALL_SURCHARGE`]).
#[derive(Clone, Copy)]
struct Child {
    rank: u64,
    hash: u64,
    parent: u32,
    estimate: Kept,
    mv: u8,
    stalled: bool,
}

impl Child {
    /// A place left empty in the children of a depth: it ranks after every child.
    const NONE: Child = Child {
        rank: u64::MAX,
        hash: 0,
        parent: 0,
        estimate: Kept::ZERO,
        mv: 0,
        stalled: false,
    };

    /// Whether this is a place left empty ([`Child::NONE`]).
    fn is_none(&self) -> bool {
        self.rank == Child::NONE.rank
    }
}

/// A beam of `width` from `board`; the moves to the goal (the board the estimator is toward)
/// if it finds a path shorter than `upper` moves. `Ok(None)` when the beam dies out or every
/// board left is pruned by `upper`.
fn wide_beam(
    board: &Board,
    search: &Search<'_>,
    width: usize,
    upper: usize,
    budget: &Budget,
) -> Result<Option<Vec<Move>>, StopReason> {
    let estimator = search.estimator;
    let scores = estimator.full(board.tiles());
    let mut layer = Layer::of(board, scores);
    // Kept from depth to depth: a depth allocates nothing but its parent links.
    let (mut places, mut children, mut next) = (Vec::new(), Vec::new(), Layer::default());
    let (mut ranks, mut links) = (Vec::new(), Links::default());
    let mut seen = Seen::new(width);
    seen.admit(scores.hash, 0);
    for depth in 0..upper.saturating_sub(1) as u32 {
        if let Some(at) = layer.estimates.iter().position(Kept::at_target) {
            return Ok(Some(links.path(at)));
        }
        let buffers = next.bytes()
            + (places.capacity() + children.capacity()) * size_of::<Child>()
            + ranks.capacity() * 8;
        budget.check(0, links.bytes() + layer.bytes() + buffers + seen.bytes())?;
        let made = expand(&layer, search, depth + 1, upper, &mut places);
        let best = best_in_order(&mut places[..made], width, &mut ranks);
        // Repeats go after the selection: the table is far larger than the caches, and read
        // at every child it was a miss each, half the beam's time on 7×7 32,000 wide; read at
        // the boards kept alone the beams came out as short.
        seen.keep_new(best, depth + 1, &mut children);
        if children.is_empty() {
            return Ok(None);
        }
        links.push(layer.blanks.len(), &children);
        materialise(&layer, &children, search, &mut next);
        std::mem::swap(&mut layer, &mut next);
    }
    Ok(layer
        .estimates
        .iter()
        .position(Kept::at_target)
        .map(|at| links.path(at)))
}

/// One beam `width` wide from `board` to the goal on the calling thread, with no bound but
/// the budget: a fixed amount of work for instruction counts (see [`crate::large::beam_work`]).
pub(super) fn beam_to_goal(
    board: &Board,
    width: usize,
    budget: &Budget,
) -> Result<Option<Vec<Move>>, StopReason> {
    let estimator = Estimator::toward(board.shape(), Board::goal_of(board.shape()).tiles());
    let search = Search {
        estimator: &estimator,
        parallel: false,
    };
    wide_beam(board, &search, width, usize::MAX, budget)
}

/// The best `width` of the children by rank, moved to the front in the order they came (their
/// parents', then their moves', as [`Links`] needs them), with `ranks` to select in; a few more
/// where boards tie with the last (as a rule only a board's repeats do). Returns them.
fn best_in_order<'a>(children: &'a mut [Child], width: usize, ranks: &mut Vec<u64>) -> &'a [Child] {
    if children.len() <= width {
        return children;
    }
    ranks.clear();
    ranks.extend(children.iter().map(|c| c.rank));
    let last = *ranks.select_nth_unstable(width - 1).1;
    // Without a branch: which children pass is as good as random.
    let mut kept = 0;
    for i in 0..children.len() {
        let child = children[i];
        children[kept] = child;
        kept += usize::from(child.rank <= last);
    }
    &children[..kept]
}

/// The fewest boards whose children one task of the rayon pool makes: a layer of fewer is
/// expanded on the calling thread.
const BOARDS_A_TASK: usize = 2048;

/// Every child of every board in the layer (never the move back) that can still beat `upper`,
/// in `places`, which grows as needed: as many places a board as it has moves but the one
/// back (four at the first board, three after), each written by the thread that makes the
/// board's children, and those it does not fill [`Child::NONE`]. Returns the places used.
fn expand(
    layer: &Layer,
    search: &Search<'_>,
    depth: u32,
    upper: usize,
    places: &mut Vec<Child>,
) -> usize {
    let count = layer.blanks.len();
    let per_board = if depth == 1 { 4 } else { 3 };
    let used = count * per_board;
    if places.len() < used {
        places.resize(used, Child::NONE);
    }
    let fill = |(i, places): (usize, &mut [Child])| {
        let mut places = places.iter_mut();
        let mut place = |child| *places.next().expect("a place for every move") = child;
        children_of(layer, search, i, depth, upper, &mut place);
        places.for_each(|place| *place = Child::NONE);
    };
    let places = &mut places[..used];
    if search.parallel && count > BOARDS_A_TASK {
        let boards = places.par_chunks_mut(per_board).enumerate();
        boards.with_min_len(BOARDS_A_TASK).for_each(fill);
    } else {
        places.chunks_mut(per_board).enumerate().for_each(fill);
    }
    used
}

/// Gives `keep` each child of board `i` of the layer (never the move back) that can still
/// beat `upper` at `depth`.
fn children_of(
    layer: &Layer,
    search: &Search<'_>,
    i: usize,
    depth: u32,
    upper: usize,
    keep: &mut impl FnMut(Child),
) {
    let estimator = search.estimator;
    let cells = estimator.shape.cells();
    let tiles = &layer.tiles[i * cells..(i + 1) * cells];
    let blank = layer.blanks[i] as usize;
    let back = Move::ALL
        .get(layer.last[i] as usize)
        .map(|m| m.inverse().index());
    let parent = Scores {
        estimate: layer.estimates[i],
        surcharge: layer.surcharges[i],
        hash: layer.hashes[i],
    };
    for (m, &from) in estimator.steps[blank].iter().enumerate() {
        if from == NONE || back == Some(m) {
            continue;
        }
        let child = estimator.after(tiles, parent, blank, m);
        if depth as usize + child.estimate.value::<CONFLICTS>() as usize >= upper {
            continue;
        }
        // The target itself is not held back: every tile round its blank is home.
        let stalled = !child.estimate.at_target() && estimator.stalls(tiles, blank, from as usize);
        keep(Child {
            rank: child.rank(stalled),
            hash: child.hash,
            parent: i as u32,
            estimate: child.estimate,
            mv: m as u8,
            stalled,
        });
    }
}

/// The kept children as the next layer's boards, into `out`.
fn materialise(layer: &Layer, children: &[Child], search: &Search<'_>, out: &mut Layer) {
    let estimator = search.estimator;
    let cells = estimator.shape.cells();
    let from = |child: &Child| {
        let blank = layer.blanks[child.parent as usize] as usize;
        estimator.steps[blank][child.mv as usize] as usize
    };
    let fill = |(out, child): (&mut [u8], &Child)| {
        let i = child.parent as usize;
        out.copy_from_slice(&layer.tiles[i * cells..(i + 1) * cells]);
        out.swap(layer.blanks[i] as usize, from(child));
    };
    out.tiles.resize(children.len() * cells, 0);
    if search.parallel && children.len() > 4096 {
        (out.tiles.par_chunks_mut(cells))
            .zip(children.par_iter())
            .for_each(fill);
    } else {
        out.tiles.chunks_mut(cells).zip(children).for_each(fill);
    }
    let kept = || children.iter();
    refill(&mut out.blanks, kept().map(|c| from(c) as u16));
    refill(&mut out.estimates, kept().map(|c| c.estimate));
    refill(
        &mut out.surcharges,
        kept().map(|c| Scores::surcharge_of(c.rank, c.estimate, c.stalled)),
    );
    refill(&mut out.hashes, kept().map(|c| c.hash));
    refill(&mut out.last, kept().map(|c| c.mv));
}

/// Replaces what `column` holds with `values`, in the memory it has.
fn refill<T>(column: &mut Vec<T>, values: impl Iterator<Item = T>) {
    column.clear();
    column.extend(values);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::random_solvable;

    #[test]
    fn the_boards_kept_carry_their_scores_from_depth_to_depth_and_no_stall() {
        let shape = Shape::new(6, 6).unwrap();
        let estimator = Estimator::new(shape);
        let search = Search {
            estimator: &estimator,
            parallel: false,
        };
        let board = random_solvable(shape, 11);
        let mut layer = Layer::of(&board, estimator.full(board.tiles()));
        let (mut places, mut next, mut stalled) = (Vec::new(), Layer::default(), 0);
        // Every child kept, eight depths (3^7 × 4 boards at the last).
        for depth in 1..=8 {
            let made = expand(&layer, &search, depth, usize::MAX, &mut places);
            let children: Vec<Child> = (places[..made].iter())
                .filter(|c| !c.is_none())
                .copied()
                .collect();
            stalled += children.iter().filter(|c| c.stalled).count();
            materialise(&layer, &children, &search, &mut next);
            std::mem::swap(&mut layer, &mut next);
            for (i, tiles) in layer.tiles.chunks(shape.cells()).enumerate() {
                let kept = (layer.estimates[i], layer.surcharges[i], layer.hashes[i]);
                let full = estimator.full(tiles);
                assert_eq!(
                    kept,
                    (full.estimate, full.surcharge, full.hash),
                    "depth {depth}"
                );
            }
        }
        assert!(stalled > 0, "some children were stalled");
    }

    #[test]
    fn the_best_children_are_kept_in_the_order_they_came() {
        // Ranks from a permutation of 0..300, so no two tie; parents and moves in order.
        let ranks = (0..300u64).map(|i| i * 7919 % 300);
        let children: Vec<Child> = (ranks.enumerate())
            .map(|(i, rank)| Child {
                rank,
                parent: i as u32 / 3,
                mv: (i % 3) as u8,
                ..Child::NONE
            })
            .collect();
        let mut places = children.clone();
        let kept = best_in_order(&mut places, 100, &mut Vec::new());
        let expected: Vec<(u32, u8)> = (children.iter())
            .filter(|c| c.rank < 100)
            .map(|c| (c.parent, c.mv))
            .collect();
        let kept: Vec<(u32, u8)> = kept.iter().map(|c| (c.parent, c.mv)).collect();
        assert_eq!(kept, expected);
    }

    #[test]
    fn a_beam_solves_and_a_wider_one_is_no_worse_on_the_whole() {
        let shape = Shape::new(6, 6).unwrap();
        let estimator = Estimator::new(shape);
        let search = Search {
            estimator: &estimator,
            parallel: true,
        };
        let (mut narrow, mut wide) = (0, 0);
        for seed in 0..3 {
            let board = random_solvable(shape, seed);
            let budget = Budget::default();
            let run = |width| {
                let moves = wide_beam(&board, &search, width, 4000, &budget)
                    .unwrap()
                    .expect("a beam this wide reaches the goal");
                let mut replay = board.clone();
                replay.apply_all(&moves).unwrap();
                assert!(replay.is_goal());
                moves.len()
            };
            narrow += run(500);
            wide += run(4000);
        }
        assert!(wide <= narrow, "{wide} > {narrow}");
    }
}
