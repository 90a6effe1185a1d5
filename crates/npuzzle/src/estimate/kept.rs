//! The one incremental estimate the searches on Manhattan distance keep from board to board
//! ([`Kept`]): IDA* toward the goal and between two boards, weighted A* in each node, the wide
//! beams' rank (A* and greedy search keep a plain number, the stage searches their own
//! weighted sum). Manhattan distance
//! toward any target ([`Toward`]), with the line conflicts or the pattern databases' excess
//! as the searches choose ([`MANHATTAN`], [`CONFLICTS`], [`TABLES`]); a slide makes the next
//! one by value ([`Kept::slid`], [`Kept::after`], and [`Kept::repatterned`] for the tables).
//!
//! It is small (two bytes and the tables' excesses: 10 with room for four patterns, 64 with
//! room for 31), so a search carries it by value: IDA*
//! keeps the parent's beside the child's and puts it back on the way up, weighted A* and the
//! beams store it with each board.

use super::pdb::{PdbLookup, Positions};
use super::toward::{Slide, TileAt, Toward};

/// What a kept estimate counts (the `TERMS` of [`Kept`]'s methods): Manhattan distance alone,
/// consistent (a move changes it by one), as IDA* between two boards counts.
pub(crate) const MANHATTAN: u8 = 0;
/// Manhattan distance plus twice the tiles that must leave their lines (linear conflict).
pub(crate) const CONFLICTS: u8 = 1;
/// Manhattan distance plus twice the larger sum of the pattern databases' excesses, as is or
/// reflected (toward the goal).
pub(crate) const TABLES: u8 = 2;

/// The patterns a [`Kept`] of the searches' tables holds room for: the standard partitions
/// have at most four.
pub(crate) const FEW_PATTERNS: usize = 4;
/// The most patterns a database can have (its board has at most 31 tiles, and a pattern at
/// least one): the room IDA* keeps for a partition of more than [`FEW_PATTERNS`].
pub(crate) const MOST_PATTERNS: usize = 31;

/// One board's estimate toward a target, kept from board to board; `P` is the room for the
/// pattern databases' excesses (none when it counts no tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kept<const P: usize = 0> {
    /// Manhattan distance, plus twice the line removals when it counts [`CONFLICTS`].
    base: u16,
    /// Each pattern's half-excess over Manhattan, as is and on the reflected board (all zero
    /// when it counts no tables; the reflected row zero when the tables are not looked up
    /// reflected).
    excess: [[u8; P]; 2],
}

impl<const P: usize> Kept<P> {
    /// The estimate of a board on its target: zero.
    pub(crate) const ZERO: Kept<P> = Kept {
        base: 0,
        excess: [[0; P]; 2],
    };

    /// An estimate of `base` (Manhattan, plus twice the line removals), for tests of what
    /// ranks by it.
    #[cfg(test)]
    pub(crate) fn of_value(base: u16) -> Kept<P> {
        Kept { base, ..Kept::ZERO }
    }

    /// The estimate of the whole board `tiles` toward `toward`'s target, counting `TERMS`;
    /// with [`TABLES`], the tables' term is zero until [`Kept::with_patterns`].
    pub(crate) fn of<const TERMS: u8, T: TileAt + ?Sized>(toward: &Toward, tiles: &T) -> Kept<P> {
        let base = match TERMS {
            CONFLICTS => toward.estimate(tiles),
            _ => toward.manhattan(tiles),
        };
        Kept {
            base,
            excess: [[0; P]; 2],
        }
    }

    /// With the tables' term of the board whose tiles stand on `positions`: every pattern
    /// looked up (as is, and reflected when `lookup` reflects).
    ///
    /// # Panics
    ///
    /// When the database has more patterns than `P`.
    pub(crate) fn with_patterns(mut self, lookup: &PdbLookup, positions: &Positions) -> Kept<P> {
        assert!(lookup.patterns() <= P, "room for {P} patterns");
        for pattern in 0..lookup.patterns() {
            self.excess[0][pattern] = lookup.excess(pattern, positions.plain());
            if lookup.reflects() {
                self.excess[1][pattern] = lookup.excess(pattern, positions.reflected());
            }
        }
        self
    }

    /// The estimate, counting `TERMS`: admissible.
    #[inline(always)]
    pub(crate) fn value<const TERMS: u8>(&self) -> u32 {
        let base = u32::from(self.base);
        if TERMS != TABLES {
            return base;
        }
        let sum = |excess: &[u8; P]| excess.iter().map(|&e| u32::from(e)).sum::<u32>();
        base + 2 * sum(&self.excess[0]).max(sum(&self.excess[1]))
    }

    /// Whether the board is its target (every tile home: Manhattan distance 0).
    #[inline(always)]
    pub(crate) fn at_target(&self) -> bool {
        self.base == 0
    }

    /// After a slide that changes Manhattan distance (and the line removals) as `slide` says
    /// ([`Toward::slide`], or [`Toward::moved`] where no line is counted).
    #[inline(always)]
    pub(crate) fn after(self, slide: Slide) -> Kept<P> {
        debug_assert!(
            i32::from(self.base) + slide.estimate() >= 0,
            "an estimate under zero"
        );
        Kept {
            base: (i32::from(self.base) + slide.estimate()) as u16,
            ..self
        }
    }

    /// After the `tile` on `tile_at` slides into the blank on `blank_at` (a neighbour;
    /// `vertical` when they share a column) of the board `tiles` (before the slide), counting
    /// `TERMS`: Manhattan's step, and the lines' with [`CONFLICTS`]. With [`TABLES`] the
    /// tables' step is [`Kept::repatterned`].
    #[inline(always)]
    pub(crate) fn slid<const TERMS: u8, T: TileAt + ?Sized>(
        self,
        toward: &Toward,
        tiles: &T,
        tile: u8,
        tile_at: usize,
        blank_at: usize,
        vertical: bool,
    ) -> Kept<P> {
        self.after(match TERMS {
            CONFLICTS => toward.slide(tiles, tile, tile_at, blank_at, vertical),
            _ => toward.moved(tile, tile_at, blank_at),
        })
    }

    /// After `tile` moved, the tiles now on `positions`: its pattern's excess and its
    /// reflection's looked up again (a tile in no pattern changes none).
    #[inline(always)]
    pub(crate) fn repatterned(
        mut self,
        lookup: &PdbLookup,
        positions: &Positions,
        tile: u8,
    ) -> Kept<P> {
        if let Some(pattern) = lookup.pattern_of(tile as usize) {
            self.excess[0][pattern] = lookup.excess(pattern, positions.plain());
        }
        if lookup.reflects() {
            let plays = lookup.reflect_tile(tile as usize);
            if let Some(pattern) = lookup.pattern_of(plays) {
                self.excess[1][pattern] = lookup.excess(pattern, positions.reflected());
            }
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Move, Shape};
    use crate::estimate::linear_conflict;
    use crate::pdb::{Partition, PatternDatabase, cache::build};
    use crate::random::{SplitMix64, random_solvable};
    use crate::search::budget::Budget;

    /// The estimate of `board` made afresh, counting `TERMS` (with `tables`, [`TABLES`]).
    fn fresh<const P: usize, const TERMS: u8>(
        toward: &Toward,
        tables: Option<&PdbLookup>,
        board: &Board,
    ) -> Kept<P> {
        let kept = Kept::of::<TERMS, _>(toward, board.tiles());
        match tables {
            Some(lookup) => {
                let positions = Positions::of(lookup, board.tiles(), board.tiles().len());
                kept.with_patterns(lookup, &positions)
            }
            None => kept,
        }
    }

    /// Walks 600 random slides from `board` (moves back among them), the estimate kept by
    /// value by [`Kept::slid`] (and with `tables` [`Kept::repatterned`], the positions kept
    /// with the board): at each, the same as the one made afresh, and its value `expected`'s.
    /// Returns how many of the boards walked its value puts above Manhattan distance.
    fn walk_and_compare<const P: usize, const TERMS: u8>(
        toward: &Toward,
        tables: Option<&PdbLookup>,
        mut board: Board,
        expected: impl Fn(&Board) -> u32,
    ) -> usize {
        let shape = board.shape();
        let mut kept = fresh::<P, TERMS>(toward, tables, &board);
        let mut positions =
            tables.map(|lookup| Positions::of(lookup, board.tiles(), shape.cells()));
        let mut random = SplitMix64::new(11);
        let mut above = 0;
        for step in 0..600 {
            let mv = Move::ALL[random.below(4) as usize];
            let blank = board.blank();
            let Some(from) = shape.step(blank, mv) else {
                continue;
            };
            let (tile, vertical) = (board.tile_at(from), matches!(mv, Move::Up | Move::Down));
            kept = kept.slid::<TERMS, _>(toward, board.tiles(), tile, from, blank, vertical);
            board.apply(mv);
            if let (Some(lookup), Some(positions)) = (tables, &mut positions) {
                positions.moved(lookup, tile, blank);
                kept = kept.repatterned(lookup, positions, tile);
            }
            assert_eq!(
                kept,
                fresh::<P, TERMS>(toward, tables, &board),
                "{shape} step {step}"
            );
            assert_eq!(
                kept.value::<TERMS>(),
                expected(&board),
                "{shape} step {step}"
            );
            above +=
                usize::from(kept.value::<TERMS>() > u32::from(toward.manhattan(board.tiles())));
        }
        above
    }

    #[test]
    fn toward_the_goal_it_is_kept_as_manhattan_plus_linear_conflict() {
        for (width, height) in [(4, 4), (5, 5), (7, 5), (3, 9)] {
            let shape = Shape::new(width, height).unwrap();
            let expected = |board: &Board| linear_conflict(board) as u32;
            let board = random_solvable(shape, 5);
            let toward = Toward::goal(shape);
            let above = walk_and_compare::<0, CONFLICTS>(&toward, None, board, expected);
            assert!(above > 100, "{shape}: {above} boards with conflicts");
        }
    }

    /// `board` with the blank walked to the last cell (right, then down).
    fn blank_last(mut board: Board) -> Board {
        while board.apply(Move::Right) {}
        while board.apply(Move::Down) {}
        board
    }

    /// `board` relabelled so that `target` (its blank on the last cell) becomes the goal: each
    /// tile takes the number of the goal's tile on its cell of `target`.
    fn relabelled(board: &Board, target: &Board) -> Board {
        let label = |tile: u8| match tile {
            0 => 0,
            _ => target.tiles().iter().position(|&t| t == tile).unwrap() as u8 + 1,
        };
        let tiles = board.tiles().iter().map(|&tile| label(tile)).collect();
        Board::new(board.shape().width, board.shape().height, tiles).unwrap()
    }

    #[test]
    fn toward_another_board_it_is_kept_as_manhattan_alone_or_with_conflicts() {
        for (width, height) in [(4, 4), (5, 4), (7, 7), (3, 9)] {
            let shape = Shape::new(width, height).unwrap();
            let target = blank_last(random_solvable(shape, 3));
            let toward = Toward::board(shape, target.tiles());
            let cell_of = |board: &Board, tile| board.tiles().iter().position(|&t| t == tile);
            let manhattan = |board: &Board| {
                let tiles = 1..shape.cells() as u8;
                let distance =
                    |t| shape.distance(cell_of(board, t).unwrap(), cell_of(&target, t).unwrap());
                tiles.map(distance).sum::<usize>() as u32
            };
            let board = random_solvable(shape, 4);
            let above = walk_and_compare::<0, MANHATTAN>(&toward, None, board.clone(), manhattan);
            assert_eq!(above, 0);
            let conflicts = |board: &Board| linear_conflict(&relabelled(board, &target)) as u32;
            let above = walk_and_compare::<0, CONFLICTS>(&toward, None, board, conflicts);
            assert!(above > 100, "{shape}: {above} boards with conflicts");
        }
    }

    /// The tables of a partition of `shape` into `patterns`.
    fn database(shape: Shape, patterns: Vec<Vec<u8>>) -> PatternDatabase {
        let partition = Partition::new(shape, "t", patterns).unwrap();
        build(&partition, &Budget::default()).unwrap()
    }

    /// The tables' estimate of `board` on the board as is alone (not reflected).
    fn unreflected(db: &PatternDatabase, board: &Board) -> u32 {
        let shape = board.shape();
        let cell_of = |tile: &u8| board.tiles().iter().position(|t| t == tile).unwrap();
        let patterns = db.partition().patterns().iter().enumerate();
        let excess = patterns.map(|(pattern, tiles)| {
            let manhattan = tiles
                .iter()
                .map(|t| shape.distance(cell_of(t), shape.goal_cell(*t)));
            db.pattern_cost(pattern, board).unwrap() - manhattan.sum::<usize>()
        });
        (crate::estimate::manhattan(board) + excess.sum::<usize>()) as u32
    }

    /// Walks boards of `db`'s shape with its tables, reflected and not, room for `P` patterns.
    fn walk_with_tables<const P: usize>(db: &PatternDatabase) {
        let shape = db.shape();
        let toward = Toward::goal(shape);
        for reflect in [true, false] {
            let lookup = PdbLookup::new(db, reflect);
            let expected = |board: &Board| match reflect {
                true => db.heuristic(board).unwrap() as u32,
                false => unreflected(db, board),
            };
            let board = random_solvable(shape, 6);
            let above = walk_and_compare::<P, TABLES>(&toward, Some(&lookup), board, expected);
            assert!(above > 100, "{shape}: {above} boards above Manhattan");
        }
    }

    #[test]
    fn with_tables_it_is_kept_as_the_databases_estimate() {
        // Partitions that leave tiles out (those count Manhattan alone); a square board's
        // tables are looked up reflected too, unless asked not to.
        let four = Shape::new(4, 4).unwrap();
        let db = database(four, vec![vec![1, 2, 5], vec![3, 4, 8], vec![9, 13, 14]]);
        walk_with_tables::<FEW_PATTERNS>(&db);
        let three_by_four = Shape::new(3, 4).unwrap();
        let db = database(three_by_four, vec![vec![1, 2, 4, 5], vec![7, 8, 10]]);
        walk_with_tables::<FEW_PATTERNS>(&db);
        // More patterns than the standard partitions have (the room IDA* keeps for them),
        // most of the tiles in those past the fourth.
        let blocks = vec![
            vec![1],
            vec![2],
            vec![3],
            vec![4],
            vec![5, 6, 9, 10],
            vec![7, 8, 11, 12],
            vec![13, 14, 15],
        ];
        walk_with_tables::<MOST_PATTERNS>(&database(four, blocks));
    }
}
