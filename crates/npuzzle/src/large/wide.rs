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
//! Memory grows with width × depth (one parent link a board kept), so the width is capped (see
//! [`max_width`]); at the cap more time cannot help this search.

use rayon::prelude::*;

use crate::analysis::{Increasing, manhattan_table_toward};
use crate::board::{Board, Move, Shape};
use crate::search::budget::{Budget, StopReason};

use super::beam::zobrist;

/// How much one move of the estimate outweighs one unit of the spread in a board's rank.
///
/// Of two boards with the same estimate, the one whose tiles are nearer home on the whole but
/// with none far off is nearer the goal in fact: a far tile costs more than its distance, and
/// a tile parked home early is moved again. Measured on the first 20 of DeepCubeA's states a
/// size, one beam 8,000 wide, mean length ÷ DeepCubeA's, the spread then the sum of squares
/// weighted a sixth of a move: 5×5 1.092 → 1.055, 6×6 1.160 → 1.099, 7×7 1.266 → 1.185 (and
/// 6×6 at 64,000 wide 1.100 → 1.065) against the estimate alone. The spread only breaking
/// ties gave half the gain; weighted a quarter of a move, some 7×7 beams wandered until they
/// ran out of memory. See [`spread`] for the cubes.
const SPREAD_WEIGHT: u64 = 24;

/// A tile's share of the spread at `distance` cells from its target: the cube, so that far
/// tiles weigh more than the sum of squares weighed them.
///
/// One beam 16,000 wide, mean length ÷ DeepCubeA's, squares (weighted a sixth of a move) →
/// cubes (a 24th): 7×7 states 40–159 1.1257 → 1.1111 (and first 40 1.1243 → 1.1088), 6×6 first
/// 100 1.0721 → 1.0642, 5×5 first 100 1.0309 → 1.0266; 7×7 64,000 wide, first 30, 1.0939 →
/// 1.0894. Powers of 2.5 and 2.75 and cubes weighted a 20th or with a linear term did as well
/// within a run's spread (1.105–1.111 on 7×7 states 40–159); a power of 1.5 did worse (1.148
/// on the first 40).
fn spread(distance: u16) -> u32 {
    u32::from(distance).pow(3)
}

/// What each line removal adds to a board's rank beyond the two moves the estimate counts for
/// it, in units of the spread: two more moves' worth, so a tile that must leave its line and
/// come back ranks as four moves.
///
/// On a large board a conflict costs more than the two moves that keep the estimate
/// admissible: the blank must come round to let the tile out and back. Measured with one beam
/// on DeepCubeA's states, mean length ÷ DeepCubeA's, without it → with it: 7×7, first 20
/// states and next 20, 8,000 wide 1.190 → 1.162 and 1.184 → 1.142, 32,000 wide 1.127 → 1.121
/// and 1.137 → 1.123, 64,000 wide 1.113 → 1.102 and 1.108 → 1.094; 6×6 and 5×5, first 40
/// states, 8,000 wide, 1.107 → 1.095 and 1.051 → 1.043 (the spread then the sum of squares).
/// A move and a third did about as well (64,000 wide 1.101 and 1.105); four moves no better on
/// the first 20 7×7 states and worse on the others, three let some 7×7 beams wander until they
/// died out.
const LINE_SURCHARGE: u32 = 2 * SPREAD_WEIGHT as u32;

/// What a board adds to its rank, in units of the spread, when its blank is stalled: no tile
/// next to it but the one just moved gets nearer its target by sliding in. Two moves' worth:
/// its next move takes a tile away, so its Manhattan sum must rise by one before it can fall,
/// and as a rule it is two moves further than a board of the same estimate with a good move.
///
/// A look one move ahead, at one table read a neighbour (see [`nearer_steps`]). A beam's time
/// at a given width: 7×7, 32,000 wide, 10 states, three runs each in turn, 7.8, 7.9 and 8.5 s
/// without, 7.9, 8.3 and 9.2 s with (means 8.07 and 8.47 s, the runs' ranges overlapping).
/// Measured with one beam on DeepCubeA's states, mean length ÷ DeepCubeA's, without → with:
/// 7×7 64,000 wide, first 20 states 1.1022 → 1.0910 and next 20 1.0936 → 1.0881; 7×7 16,000
/// wide, first 40, 1.1301 → 1.1243; 7×7 8,000 wide, first 40, 1.1523 → 1.1463; 6×6 64,000
/// wide, first 20, 1.0596 → 1.0556 (the spread then the sum of squares). A move's worth
/// gained half as much; 2⅔ and 3⅓ moves' worth about as much as two (7×7 64,000 wide, first
/// 40: 1.0892 and 1.0894 against 1.0896). Looking a second move ahead (a stall after any step
/// of the blank) gained nothing beyond a run's spread.
const STALL_SURCHARGE: u64 = 2 * SPREAD_WEIGHT;

/// The most memory (bytes) a beam's parent links and boards may take.
const MEMORY: usize = 768 << 20;

/// Depths a board's hash is remembered to drop repeated boards (cycles of the blank).
const MEMORY_DEPTHS: u32 = 24;

/// The most slots of the table of boards seen (8 bytes each).
const MAX_SEEN_SLOTS: usize = 1 << 23;

/// How many children's slots of the table of boards seen are read ahead of their admission
/// ([`Seen::keep_new`]): few enough that their cache lines stay in the first-level cache. On
/// 7×7 32,000 wide the beam took 10–12 % less time with it.
const TOUCH_AHEAD: usize = 256;

/// The boards kept in the last [`MEMORY_DEPTHS`] depths, by hash, in a direct-mapped table that
/// forgets a board when another takes its slot (a repeated board then goes unnoticed, which
/// costs a place in the beam, never a wrong answer). A slot holds the hash's high 48 bits and
/// the depth in the low 16.
struct Seen {
    slots: Vec<u64>,
    mask: usize,
}

impl Seen {
    /// A table sized for a beam of `width`.
    fn new(width: usize) -> Seen {
        let len = (width * 8)
            .next_power_of_two()
            .clamp(1 << 10, MAX_SEEN_SLOTS);
        Seen {
            slots: vec![u64::MAX; len],
            mask: len - 1,
        }
    }

    /// Bytes held.
    fn bytes(&self) -> usize {
        self.slots.len() * 8
    }

    fn slot(&self, hash: u64) -> usize {
        (hash >> 16) as usize & self.mask
    }

    /// The children that are not repeats (nor [`Child::NONE`]), into `kept`, admitted in order
    /// as [`Seen::admit`] admits them. [`TOUCH_AHEAD`] children at a time, their slots are read
    /// first in a loop of loads that do not wait for each other, so that the table's cache
    /// misses overlap instead of coming one after another.
    fn keep_new(&mut self, children: &[Child], depth: u32, kept: &mut Vec<Child>) {
        kept.clear();
        for block in children.chunks(TOUCH_AHEAD) {
            let touched = block
                .iter()
                .fold(0, |all, c| all ^ self.slots[self.slot(c.hash)]);
            std::hint::black_box(touched);
            for child in block {
                if !child.is_none() && self.admit(child.hash, depth) {
                    kept.push(*child);
                }
            }
        }
    }

    /// Marks the board as kept at `depth`, unless it was kept in the last [`MEMORY_DEPTHS`]
    /// depths before or at `depth` itself: then false, a repeat.
    fn admit(&mut self, hash: u64, depth: u32) -> bool {
        let at = self.slot(hash);
        let entry = self.slots[at];
        if entry >> 16 == hash >> 16 && (entry & 0xFFFF) as u32 + MEMORY_DEPTHS >= depth {
            return false;
        }
        self.slots[at] = (hash & !0xFFFF) | u64::from(depth & 0xFFFF);
        true
    }
}

/// The widest beams of a pair (see `both_ways`) that fit [`MEMORY`] between them for
/// solutions up to `depth` moves on `shape`.
pub(super) fn max_width(shape: Shape, depth: usize) -> usize {
    let per_board = 4 * depth.max(1) + 4 * (shape.cells() + 24) + 8 * 8;
    MEMORY / 2 / per_board
}

/// Per-shape tables: Manhattan distance per (tile, cell), Zobrist keys, neighbours, lines.
pub(super) struct Estimator {
    shape: Shape,
    manhattan: Vec<u16>,
    keys: Vec<u64>,
    steps: Vec<[u16; 4]>,
    /// Per (tile, cell): bit `m` set when the tile gets nearer its target by taking the step
    /// the blank's move `m` (an index in [`Move::ALL`]) would take from that cell.
    nearer_steps: Vec<u8>,
    /// Each cell's row and column.
    row: Vec<u8>,
    column: Vec<u8>,
    /// Each tile's goal row and column (the blank's are out of range).
    goal_row: Vec<u8>,
    goal_column: Vec<u8>,
}

const NONE: u16 = u16::MAX;

/// A line of the board: a row or a column, by its index.
#[derive(Clone, Copy)]
struct Line {
    row: bool,
    index: usize,
}

/// What a beam knows of one board beside its tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Scores {
    /// Manhattan + 2 × line removals: a lower bound on the moves to the target.
    estimate: u16,
    /// What the rank adds to the estimate, kept from board to board: the spread (the sum of
    /// the cubes of the tiles' distances from their target cells) plus [`LINE_SURCHARGE`] a
    /// line removal. The stall ([`STALL_SURCHARGE`]) is not in it: a child carries it.
    surcharge: u32,
    /// The board's Zobrist hash.
    hash: u64,
}

impl Scores {
    /// What orders boards in the beam, smaller first: the estimate weighted
    /// [`SPREAD_WEIGHT`] to one of the surcharge (and [`STALL_SURCHARGE`] if the board's
    /// blank is `stalled`), then `salt`ed hash bits to break ties.
    fn rank(&self, stalled: bool, salt: u64) -> u64 {
        let weighted = u64::from(self.estimate) * SPREAD_WEIGHT
            + u64::from(self.surcharge)
            + STALL_SURCHARGE * u64::from(stalled);
        (weighted << 24) | ((self.hash ^ salt) >> 40)
    }

    /// The surcharge of a board ranked `rank` with this estimate and stall: the inverse of
    /// [`Scores::rank`].
    fn surcharge_of(rank: u64, estimate: u16, stalled: bool) -> u32 {
        let weighted = rank >> 24;
        (weighted - u64::from(estimate) * SPREAD_WEIGHT - STALL_SURCHARGE * u64::from(stalled))
            as u32
    }
}

impl Estimator {
    /// Tables for a shape, toward its goal.
    #[cfg(test)]
    pub(super) fn new(shape: Shape) -> Estimator {
        Estimator::toward(shape, Board::goal_of(shape).tiles())
    }

    /// Tables for a shape, toward the board `target` (its tiles, cell by cell): a board's
    /// estimate is 0 there alone.
    pub(super) fn toward(shape: Shape, target: &[u8]) -> Estimator {
        let cells = shape.cells();
        let mut home = vec![0; cells];
        for (cell, &tile) in target.iter().enumerate() {
            home[tile as usize] = cell;
        }
        let manhattan = manhattan_table_toward(shape, |tile| home[tile as usize]);
        let steps: Vec<[u16; 4]> = (0..cells)
            .map(|cell| Move::ALL.map(|mv| shape.step(cell, mv).map_or(NONE, |c| c as u16)))
            .collect();
        let nearer_steps = nearer_steps(&manhattan, &steps);
        let goal = |tile: usize| shape.column_row(home[tile]);
        Estimator {
            shape,
            manhattan,
            keys: zobrist(cells),
            steps,
            nearer_steps,
            row: (0..cells).map(|c| shape.column_row(c).1 as u8).collect(),
            column: (0..cells).map(|c| shape.column_row(c).0 as u8).collect(),
            goal_row: (0..cells)
                .map(|t| if t == 0 { u8::MAX } else { goal(t).1 as u8 })
                .collect(),
            goal_column: (0..cells)
                .map(|t| if t == 0 { u8::MAX } else { goal(t).0 as u8 })
                .collect(),
        }
    }

    fn key(&self, tile: u8, cell: usize) -> u64 {
        self.keys[tile as usize * self.shape.cells() + cell]
    }

    /// Tiles that must leave `line` so the rest stand in order, before and after the cell
    /// `swap.0` is read as holding tile `swap.1`.
    fn removals(&self, tiles: &[u8], line: Line, swap: (usize, u8)) -> (u16, u16) {
        let (first, stride, count) = if line.row {
            (line.index * self.shape.width, 1, self.shape.width)
        } else {
            (line.index, self.shape.width, self.shape.height)
        };
        let (goal_line, goal_place) = if line.row {
            (&self.goal_row, &self.goal_column)
        } else {
            (&self.goal_column, &self.goal_row)
        };
        // The blank's goal line is out of range: it is never in a line.
        let index = line.index as u8;
        let (mut before, mut after) = (Increasing::default(), Increasing::default());
        for at in (0..count).map(|i| first + i * stride) {
            let tile = usize::from(tiles[at]);
            before.push_if(goal_line[tile] == index, goal_place[tile]);
            let tile = if at == swap.0 {
                usize::from(swap.1)
            } else {
                tile
            };
            after.push_if(goal_line[tile] == index, goal_place[tile]);
        }
        (before.removals(), after.removals())
    }

    /// The scores of a whole board.
    fn full(&self, tiles: &[u8]) -> Scores {
        let (width, height) = (self.shape.width, self.shape.height);
        let mut h = 0;
        let mut surcharge = 0;
        let mut hash = 0;
        for (cell, &tile) in tiles.iter().enumerate() {
            hash ^= self.key(tile, cell);
            if tile != 0 {
                let distance = self.manhattan[tile as usize * tiles.len() + cell];
                h += distance;
                surcharge += spread(distance);
            }
        }
        let none = (usize::MAX, 0);
        let rows = (0..height).map(|index| Line { row: true, index });
        let columns = (0..width).map(|index| Line { row: false, index });
        for line in rows.chain(columns) {
            let removals = self.removals(tiles, line, none).0;
            h += 2 * removals;
            surcharge += LINE_SURCHARGE * u32::from(removals);
        }
        Scores {
            estimate: h,
            surcharge,
            hash,
        }
    }

    /// Whether the blank is stalled after it moves from `blank` to `from` on the board
    /// `tiles` (before the move): no tile next to `from` but the one just moved (now at
    /// `blank`) gets nearer its target by sliding into `from`.
    fn stalls(&self, tiles: &[u8], blank: usize, from: usize) -> bool {
        debug_assert_eq!(tiles[blank], 0, "the board before the move");
        let cells = tiles.len();
        let mut gain = 0u8;
        for (m, &next) in self.steps[from].iter().enumerate() {
            let next = next as usize;
            // At `blank` this board holds the blank, which has no step nearer: the tile just
            // moved is not read.
            if next != NONE as usize {
                let tile = tiles[next] as usize;
                // The tile at `next` slides the opposite way to the blank's move, into `from`.
                let step = Move::ALL[m].inverse().index();
                gain |= self.nearer_steps[tile * cells + next] & (1 << step);
            }
        }
        gain == 0
    }

    /// The scores after the blank at `blank` takes move `mv` (an index in [`Move::ALL`]) and
    /// swaps with the tile at `from`, given the board before (`tiles`, `scores`).
    fn after(&self, tiles: &[u8], scores: Scores, blank: usize, mv: usize) -> Scores {
        let from = self.steps[blank][mv] as usize;
        let tile = tiles[from];
        let cells = tiles.len();
        let (was, now) = (
            self.manhattan[tile as usize * cells + from],
            self.manhattan[tile as usize * cells + blank],
        );
        let md = i32::from(now) - i32::from(was);
        let spread_change = spread(now) as i32 - spread(was) as i32;
        let hash = scores.hash
            ^ self.key(tile, from)
            ^ self.key(tile, blank)
            ^ self.key(0, blank)
            ^ self.key(0, from);
        // A vertical move changes the rows of both cells, a horizontal one their columns; only
        // the tile's own goal line can change its count.
        let vertical = matches!(Move::ALL[mv], Move::Up | Move::Down);
        let (goal_line, line_of) = if vertical {
            (self.goal_row[tile as usize], &self.row)
        } else {
            (self.goal_column[tile as usize], &self.column)
        };
        let line = Line {
            row: vertical,
            index: goal_line as usize,
        };
        let mut change = 0i32;
        for (cell, now) in [(from, (from, 0u8)), (blank, (blank, tile))] {
            if line_of[cell] == goal_line {
                let (before, after) = self.removals(tiles, line, now);
                change += after as i32 - before as i32;
            }
        }
        let estimate = i32::from(scores.estimate) + md + 2 * change;
        let surcharge = scores.surcharge as i32 + spread_change + LINE_SURCHARGE as i32 * change;
        Scores {
            estimate: estimate as u16,
            surcharge: surcharge as u32,
            hash,
        }
    }
}

/// Per (tile, cell), the moves of the blank (bits by index in [`Move::ALL`]) whose step from
/// that cell would bring the tile nearer its target, from the distances per (tile, cell) and
/// the steps per cell ([`NONE`] off the board). The blank (tile 0) has none.
fn nearer_steps(manhattan: &[u16], steps: &[[u16; 4]]) -> Vec<u8> {
    let cells = steps.len();
    (0..cells * cells)
        .map(|at| {
            let (tile, from) = (at / cells, at % cells);
            let distance = |cell: usize| manhattan[tile * cells + cell];
            (steps[from].iter().enumerate())
                .filter(|&(_, &to)| to != NONE && distance(to as usize) < distance(from))
                .fold(0, |bits, (m, _)| bits | 1 << m)
        })
        .collect()
}

/// The boards kept at one depth.
#[derive(Default)]
struct Layer {
    tiles: Vec<u8>,
    blanks: Vec<u16>,
    estimates: Vec<u16>,
    surcharges: Vec<u32>,
    hashes: Vec<u64>,
    /// The move that led to each board (an index into [`Move::ALL`]; 4 for none).
    last: Vec<u8>,
}

/// What a beam runs with: the shape's tables, and whether it may use the rayon pool.
pub(super) struct Search<'a> {
    /// The estimate's tables.
    pub(super) estimator: &'a Estimator,
    /// Whether children are generated on the current rayon pool's threads.
    pub(super) parallel: bool,
    /// Mixed into the hash bits that order boards of equal estimate: another salt keeps
    /// other boards among the many that tie, and gives another solution as good on the whole.
    pub(super) salt: u64,
}

impl Layer {
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
        self.tiles.len() + self.blanks.len() * 19
    }
}

/// A child before it is kept: its rank (which also holds its surcharge), estimate, hash, parent,
/// move, and whether its blank is stalled (see [`STALL_SURCHARGE`]).
#[derive(Clone, Copy)]
struct Child {
    rank: u64,
    hash: u64,
    parent: u32,
    estimate: u16,
    mv: u8,
    stalled: bool,
}

impl Child {
    /// A place left empty in the children of a depth: it ranks after every child.
    const NONE: Child = Child {
        rank: u64::MAX,
        hash: 0,
        parent: 0,
        estimate: 0,
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
pub(super) fn wide_beam(
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
    let mut links: Vec<Vec<u32>> = Vec::new();
    let mut seen = Seen::new(width);
    seen.admit(scores.hash, 0);
    for depth in 0..upper.saturating_sub(1) as u32 {
        if let Some(at) = layer.estimates.iter().position(|&h| h == 0) {
            return Ok(Some(path(&links, at)));
        }
        let links_bytes: usize = links.iter().map(|l| l.len() * 4).sum();
        let buffers = next.bytes() + (places.capacity() + children.capacity()) * size_of::<Child>();
        budget.check(0, links_bytes + layer.bytes() + buffers + seen.bytes())?;
        let made = expand(&layer, search, depth + 1, upper, &mut places);
        let mut best = &mut places[..made];
        if best.len() > width {
            best.select_nth_unstable_by_key(width, |c| c.rank);
            best = &mut best[..width];
        }
        // Repeats go after the selection: the table is far larger than the caches, and read
        // at every child it was a miss each, half the beam's time on 7×7 32,000 wide; read at
        // the boards kept alone the beams came out as short.
        seen.keep_new(best, depth + 1, &mut children);
        if children.is_empty() {
            return Ok(None);
        }
        links.push(
            children
                .iter()
                .map(|c| c.parent << 2 | c.mv as u32)
                .collect(),
        );
        materialise(&layer, &children, search, &mut next);
        std::mem::swap(&mut layer, &mut next);
    }
    Ok(layer
        .estimates
        .iter()
        .position(|&h| h == 0)
        .map(|at| path(&links, at)))
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
        if depth as usize + child.estimate as usize >= upper {
            continue;
        }
        // The target itself is not held back: every tile round its blank is home.
        let stalled = child.estimate != 0 && estimator.stalls(tiles, blank, from as usize);
        keep(Child {
            rank: child.rank(stalled, search.salt),
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

/// The moves to board `at` of the last layer, from the parent links.
fn path(links: &[Vec<u32>], mut at: usize) -> Vec<Move> {
    let mut moves = Vec::with_capacity(links.len());
    for layer in links.iter().rev() {
        let link = layer[at];
        moves.push(Move::ALL[(link & 3) as usize]);
        at = (link >> 2) as usize;
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::random_solvable;

    #[test]
    fn seen_boards_are_remembered_for_the_memory_depths_and_repeats_refused() {
        let mut seen = Seen::new(100);
        let hash = 0xDEAD_BEEF_1234_5678;
        assert!(seen.admit(hash, 5));
        assert!(!seen.admit(hash, 5), "the same board twice at one depth");
        assert!(
            !seen.admit(hash, 5 + MEMORY_DEPTHS),
            "met again within the memory"
        );
        assert!(seen.admit(hash, 6 + MEMORY_DEPTHS), "met again, later");
        // Another board in the same slot (the same bits below 40) takes its place.
        assert!(
            seen.admit(hash ^ (1 << 40), 7 + MEMORY_DEPTHS),
            "another board"
        );
        assert!(seen.admit(hash, 8 + MEMORY_DEPTHS), "forgotten");
    }

    #[test]
    fn the_children_kept_are_those_admitted_one_by_one_less_the_empty_places() {
        let child = |hash| Child {
            hash,
            rank: hash % 7,
            ..Child::NONE
        };
        // 1,000 children over four blocks: repeats within and across blocks, empty places.
        let children: Vec<Child> = (0..1000u64)
            .map(|i| match i % 10 {
                9 => Child::NONE,
                _ => child((i % 370).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            })
            .collect();
        let mut one_by_one = Seen::new(100);
        let expected: Vec<u64> = (children.iter())
            .filter(|c| !c.is_none() && one_by_one.admit(c.hash, 3))
            .map(|c| c.hash)
            .collect();
        let mut kept = vec![child(1)];
        Seen::new(100).keep_new(&children, 3, &mut kept);
        let kept: Vec<u64> = kept.iter().map(|c| c.hash).collect();
        assert_eq!(kept, expected);
        assert!(kept.len() < 900, "of 900 children, repeats are dropped");
    }

    #[test]
    fn of_two_boards_as_near_the_one_with_no_tile_far_off_ranks_first() {
        let scores = |estimate, surcharge, hash| Scores {
            estimate,
            surcharge,
            hash,
        };
        // Two tiles two cells off (spread 16) against one tile four off (spread 64).
        let spread_out = scores(4, 2 * spread(2), u64::MAX);
        let one_far = scores(4, spread(4), 0);
        assert_eq!((spread_out.surcharge, one_far.surcharge), (16, 64));
        assert!(spread_out.rank(false, 0) < one_far.rank(false, 0));
        // A move less of the estimate outweighs less than SPREAD_WEIGHT of spread, no more.
        let weight = SPREAD_WEIGHT as u32;
        assert!(scores(3, 16 + weight - 1, 0).rank(false, 0) < spread_out.rank(false, 0));
        assert!(scores(3, 16 + weight + 1, 0).rank(false, 0) > spread_out.rank(false, 0));
        // A stalled board ranks as two moves more of the estimate.
        let two_further = scores(6, 16, u64::MAX);
        assert_eq!(spread_out.rank(true, 0), two_further.rank(false, 0));
        // Equal scores are ordered by the salted hash, and each rank gives its surcharge back.
        let (a, b) = (scores(4, 16, 1 << 50), scores(4, 16, 2 << 50));
        assert!(
            a.rank(false, 0) < b.rank(false, 0) && a.rank(false, 3 << 50) > b.rank(false, 3 << 50)
        );
        for s in [spread_out, one_far, a, scores(7_000, 230_000, u64::MAX)] {
            for stalled in [false, true] {
                let rank = s.rank(stalled, 0x5EED);
                assert_eq!(Scores::surcharge_of(rank, s.estimate, stalled), s.surcharge);
            }
        }
    }

    #[test]
    fn a_blank_is_stalled_when_no_tile_but_the_one_just_moved_gets_nearer_by_sliding_in() {
        let estimator = Estimator::new(Shape::new(4, 4).unwrap());
        let goal: Vec<u8> = (1..16).chain([0]).collect();
        // From the goal every slide takes a tile away (the tile just moved would come back
        // home, but that is the move back, and the board before the move has the blank there).
        assert!(estimator.stalls(&goal, 15, 11));
        assert!(estimator.stalls(&goal, 15, 14));
        // Tiles 8 and 7 swapped in the second row, the blank at cell 10 (come up from the
        // corner and left). When 8 comes down (the blank goes up to cell 6), 7 can slide left
        // toward home; when 10 slides right instead, the blank at cell 9 has only tiles at home
        // around it.
        let swapped = [1, 2, 3, 4, 5, 6, 8, 7, 9, 10, 0, 11, 13, 14, 15, 12];
        assert!(!estimator.stalls(&swapped, 10, 6));
        assert!(estimator.stalls(&swapped, 10, 9));
        // On other shapes, the same as reading the distances one by one.
        for (width, height) in [(6, 6), (7, 5), (3, 9)] {
            let shape = Shape::new(width, height).unwrap();
            let estimator = Estimator::new(shape);
            let distance =
                |tile: u8, cell: usize| estimator.manhattan[tile as usize * shape.cells() + cell];
            for seed in 0..20 {
                let board = random_solvable(shape, seed);
                let (tiles, blank) = (board.tiles(), board.blank());
                for from in Move::ALL.iter().filter_map(|&mv| shape.step(blank, mv)) {
                    let gains = Move::ALL.iter().filter_map(|&mv| shape.step(from, mv));
                    let stalled = gains
                        .filter(|&next| next != blank)
                        .all(|next| distance(tiles[next], from) > distance(tiles[next], next));
                    assert_eq!(estimator.stalls(tiles, blank, from), stalled);
                }
            }
        }
    }

    #[test]
    fn the_boards_kept_carry_their_scores_from_depth_to_depth_and_no_stall() {
        let shape = Shape::new(6, 6).unwrap();
        let estimator = Estimator::new(shape);
        let search = Search {
            estimator: &estimator,
            parallel: false,
            salt: 0,
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
    fn the_incremental_estimate_matches_the_whole_board_one() {
        for (width, height) in [(6, 6), (7, 5), (3, 9)] {
            let shape = Shape::new(width, height).unwrap();
            let estimator = Estimator::new(shape);
            let mut board = random_solvable(shape, 7);
            let mut scores = estimator.full(board.tiles());
            for step in 0..400 {
                let mv = Move::ALL[(step * 7 + step / 3) % 4];
                let blank = board.blank();
                if shape.step(blank, mv).is_none() {
                    continue;
                }
                scores = estimator.after(board.tiles(), scores, blank, mv.index());
                board.apply(mv);
                assert_eq!(scores, estimator.full(board.tiles()), "{shape} step {step}");
                let rank = scores.rank(false, 0x5EED);
                assert_eq!(
                    Scores::surcharge_of(rank, scores.estimate, false),
                    scores.surcharge
                );
            }
        }
    }

    #[test]
    fn of_two_boards_as_near_the_one_with_a_line_conflict_ranks_after() {
        let estimator = Estimator::new(Shape::new(4, 4).unwrap());
        let scores = |tiles: &[u8]| estimator.full(tiles);
        // Tiles 1 and 2 swapped in their row: Manhattan 2 and one line removal (estimate 4,
        // spread 2); four tiles one cell off, in order (estimate 4, spread 4).
        let swapped = scores(&[2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]);
        let shifted = scores(&[1, 2, 3, 4, 5, 6, 7, 8, 0, 10, 11, 12, 9, 13, 14, 15]);
        assert_eq!((swapped.estimate, shifted.estimate), (4, 4));
        assert_eq!(swapped.surcharge, 2 + LINE_SURCHARGE);
        assert_eq!(shifted.surcharge, 4);
        assert!(shifted.rank(false, 0) < swapped.rank(false, 0));
        // The conflict weighs as two more moves of the estimate: the swapped board ranks with
        // a board of the same spread, no conflict and an estimate two moves higher.
        let conflict_free = Scores {
            estimate: 6,
            surcharge: 2,
            ..swapped
        };
        assert_eq!(swapped.rank(false, 0), conflict_free.rank(false, 0));
        // Tiles 1 and 3 swapped: each two cells off, their cubes 8, and two line removals.
        let far = scores(&[3, 2, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]);
        assert_eq!(far.surcharge, 2 * 8 + 2 * LINE_SURCHARGE);
    }

    #[test]
    fn a_beam_solves_and_a_wider_one_is_no_worse_on_the_whole() {
        let shape = Shape::new(6, 6).unwrap();
        let estimator = Estimator::new(shape);
        let search = Search {
            estimator: &estimator,
            parallel: true,
            salt: 0,
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
