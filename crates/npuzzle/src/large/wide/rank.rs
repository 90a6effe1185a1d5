//! A wide beam's rank of a board (see [`Scores::rank`]): an admissible estimate toward a
//! target board (Manhattan + linear conflict, the one kept estimate every search keeps,
//! [`Kept`]), a surcharge (the spread of the tiles' distances and the line conflicts counted
//! again), both kept incrementally from board to board by the same step ([`Toward::slide`]),
//! and a look one move ahead (whether the blank is stalled, see [`STALL_SURCHARGE`]).

use crate::board::{Move, Shape};
use crate::estimate::kept::{CONFLICTS, Kept};
use crate::estimate::toward::Toward;
use crate::hash::zobrist;

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

/// Per-shape tables: the estimate toward the target, Zobrist keys, neighbours, nearer steps.
pub(super) struct Estimator {
    pub(super) shape: Shape,
    /// Manhattan + linear conflict toward the target.
    toward: Toward,
    keys: Vec<u64>,
    pub(super) steps: Vec<[u16; 4]>,
    /// Per (tile, cell): bit `m` set when the tile gets nearer its target by taking the step
    /// the blank's move `m` (an index in [`Move::ALL`]) would take from that cell.
    nearer_steps: Vec<u8>,
}

pub(super) const NONE: u16 = u16::MAX;

/// What a beam knows of one board beside its tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Scores {
    /// Manhattan + 2 × line removals: a lower bound on the moves to the target.
    pub(super) estimate: Kept,
    /// What the rank adds to the estimate, kept from board to board: the spread (the sum of
    /// the cubes of the tiles' distances from their target cells) plus [`LINE_SURCHARGE`] a
    /// line removal. The stall ([`STALL_SURCHARGE`]) is not in it: a child carries it.
    pub(super) surcharge: u32,
    /// The board's Zobrist hash.
    pub(super) hash: u64,
}

impl Scores {
    /// What orders boards in the beam, smaller first: the estimate weighted
    /// [`SPREAD_WEIGHT`] to one of the surcharge (and [`STALL_SURCHARGE`] if the board's
    /// blank is `stalled`), then hash bits to break ties.
    ///
    /// Which of the boards tied at the cut are kept changes nothing that shows: with the hash
    /// bits salted three ways, one pair of beams gave the same length on each of DeepCubeA's
    /// first 60 5×5 states (20,000 wide) and 4,045, 4,047 and 4,047 moves on its first 30 6×6
    /// (8,000 wide). The boards tied at the cut are the beam's worst, whose lines seldom lead.
    pub(super) fn rank(&self, stalled: bool) -> u64 {
        let weighted = u64::from(self.estimate.value::<CONFLICTS>()) * SPREAD_WEIGHT
            + u64::from(self.surcharge)
            + STALL_SURCHARGE * u64::from(stalled);
        (weighted << 24) | (self.hash >> 40)
    }

    /// The surcharge of a board ranked `rank` with this estimate and stall: the inverse of
    /// [`Scores::rank`].
    pub(super) fn surcharge_of(rank: u64, estimate: Kept, stalled: bool) -> u32 {
        let weighted = rank >> 24;
        let estimate = u64::from(estimate.value::<CONFLICTS>());
        (weighted - estimate * SPREAD_WEIGHT - STALL_SURCHARGE * u64::from(stalled)) as u32
    }
}

impl Estimator {
    /// Tables for a shape, toward its goal.
    #[cfg(test)]
    pub(super) fn new(shape: Shape) -> Estimator {
        Estimator::toward(shape, crate::board::Board::goal_of(shape).tiles())
    }

    /// Tables for a shape, toward the board `target` (its tiles, cell by cell): a board's
    /// estimate is 0 there alone.
    pub(super) fn toward(shape: Shape, target: &[u8]) -> Estimator {
        let cells = shape.cells();
        let toward = Toward::board(shape, target);
        let steps: Vec<[u16; 4]> = (0..cells)
            .map(|cell| Move::ALL.map(|mv| shape.step(cell, mv).map_or(NONE, |c| c as u16)))
            .collect();
        let nearer_steps = nearer_steps(toward.distances(), &steps);
        Estimator {
            shape,
            toward,
            keys: zobrist(cells),
            steps,
            nearer_steps,
        }
    }

    fn key(&self, tile: u8, cell: usize) -> u64 {
        self.keys[tile as usize * self.shape.cells() + cell]
    }

    /// The scores of a whole board.
    pub(super) fn full(&self, tiles: &[u8]) -> Scores {
        let mut surcharge = 0;
        let mut hash = 0;
        for (cell, &tile) in tiles.iter().enumerate() {
            hash ^= self.key(tile, cell);
            if tile != 0 {
                surcharge += spread(self.toward.distance(tile, cell));
            }
        }
        surcharge += LINE_SURCHARGE * u32::from(self.toward.line_removals(tiles));
        Scores {
            estimate: Kept::of::<CONFLICTS, _>(&self.toward, tiles),
            surcharge,
            hash,
        }
    }

    /// Whether the blank is stalled after it moves from `blank` to `from` on the board
    /// `tiles` (before the move): no tile next to `from` but the one just moved (now at
    /// `blank`) gets nearer its target by sliding into `from`.
    pub(super) fn stalls(&self, tiles: &[u8], blank: usize, from: usize) -> bool {
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
    pub(super) fn after(&self, tiles: &[u8], scores: Scores, blank: usize, mv: usize) -> Scores {
        let from = self.steps[blank][mv] as usize;
        let tile = tiles[from];
        let vertical = matches!(Move::ALL[mv], Move::Up | Move::Down);
        let slide = self.toward.slide(tiles, tile, from, blank, vertical);
        let spread_change = spread(slide.now) as i32 - spread(slide.was) as i32;
        let hash = scores.hash
            ^ self.key(tile, from)
            ^ self.key(tile, blank)
            ^ self.key(0, blank)
            ^ self.key(0, from);
        let surcharge =
            scores.surcharge as i32 + spread_change + LINE_SURCHARGE as i32 * slide.removals;
        Scores {
            estimate: scores.estimate.after(slide),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::random_solvable;

    #[test]
    fn of_two_boards_as_near_the_one_with_no_tile_far_off_ranks_first() {
        let scores = |estimate, surcharge, hash| Scores {
            estimate: Kept::of_value(estimate),
            surcharge,
            hash,
        };
        // Two tiles two cells off against one tile four off: the same distance in all, but the
        // spread weighs the far one more.
        let near = 2 * spread(2);
        let spread_out = scores(4, near, u64::MAX);
        let one_far = scores(4, spread(4), 0);
        assert!(one_far.surcharge > spread_out.surcharge);
        assert!(spread_out.rank(false) < one_far.rank(false));
        // A move less of the estimate outweighs less than SPREAD_WEIGHT of spread, no more.
        let weight = SPREAD_WEIGHT as u32;
        assert!(scores(3, near + weight - 1, 0).rank(false) < spread_out.rank(false));
        assert!(scores(3, near + weight + 1, 0).rank(false) > spread_out.rank(false));
        // A stalled board ranks as two moves more of the estimate.
        let two_further = scores(6, near, u64::MAX);
        assert_eq!(spread_out.rank(true), two_further.rank(false));
        // Equal scores are ordered by the hash, and each rank gives its surcharge back.
        let (a, b) = (scores(4, near, 1 << 50), scores(4, near, 2 << 50));
        assert!(
            a.rank(false) < b.rank(false) && b.rank(false) < scores(4, near + 1, 0).rank(false)
        );
        for s in [spread_out, one_far, a, scores(7_000, 230_000, u64::MAX)] {
            for stalled in [false, true] {
                let rank = s.rank(stalled);
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
            let distance = |tile: u8, cell: usize| estimator.toward.distance(tile, cell);
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
                let rank = scores.rank(false);
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
        assert_eq!(
            (swapped.estimate, shifted.estimate),
            (Kept::of_value(4), Kept::of_value(4))
        );
        assert_eq!(swapped.surcharge, 2 + LINE_SURCHARGE);
        assert_eq!(shifted.surcharge, 4);
        assert!(shifted.rank(false) < swapped.rank(false));
        // The conflict weighs as two more moves of the estimate: the swapped board ranks with
        // a board of the same spread, no conflict and an estimate two moves higher.
        let conflict_free = Scores {
            estimate: Kept::of_value(6),
            surcharge: 2,
            ..swapped
        };
        assert_eq!(swapped.rank(false), conflict_free.rank(false));
        // Tiles 1 and 3 swapped: each two cells off, their cubes 8, and two line removals.
        let far = scores(&[3, 2, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]);
        assert_eq!(far.surcharge, 2 * 8 + 2 * LINE_SURCHARGE);
    }
}
