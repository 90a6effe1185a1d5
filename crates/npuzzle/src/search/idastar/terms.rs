//! The heuristic's terms, kept up to date move by move: each move changes one tile, so only
//! that tile's Manhattan term changes, and only the one pattern table (and one reflected table)
//! that holds it, or the linear conflicts of the one line of its target that it left or
//! entered. The estimates themselves are [`crate::estimate`]'s; this is IDA*'s state of them,
//! with what undoes a move. What the depth-first search asks of any terms is [`KeptTerms`]:
//! these toward the goal, or [`super::toward::ManhattanToward`] toward any board.

use super::{Heuristic, IdaOptions};
use crate::board::Board;
use crate::estimate::pdb::{PdbTerms, PdbUndo};
use crate::estimate::toward::Toward;

/// What the depth-first search asks of a heuristic kept move by move, with what undoes a
/// move. `TABLES` is [`KeptTerms::has_tables`], a constant in each of the search's two builds
/// (see [`Terms::h_of`]).
pub(super) trait KeptTerms: Clone + Send + Sync {
    /// What undoes a move.
    type Undo: Copy;
    /// Whether a child's value never exceeds its parent's by more than one: then the search
    /// leaves BPMX out.
    const CONSISTENT: bool;

    /// Whether the terms hold pattern databases: which build of the search runs.
    fn has_tables(&self) -> bool;

    /// The heuristic value in the build `TABLES`.
    fn h_of<const TABLES: bool>(&self) -> u32;

    /// After `tile` slid from `to` to `from` (the blank's move `m` from `from` to `to`, the
    /// board now `tiles`): the new terms, and what undoes them.
    fn moved<const TABLES: bool>(
        &mut self,
        tiles: &[u8],
        tile: u8,
        m: u8,
        from: usize,
        to: usize,
    ) -> Self::Undo;

    /// Back to the terms before [`KeptTerms::moved`], `tile` back on `to`.
    fn restore<const TABLES: bool>(&mut self, tile: u8, to: usize, undo: Self::Undo);

    /// Bytes the terms hold: a rough figure for the budget.
    fn memory(&self) -> usize;

    /// The heuristic value.
    #[inline(always)]
    fn h(&self) -> u32 {
        match self.has_tables() {
            true => self.h_of::<true>(),
            false => self.h_of::<false>(),
        }
    }
}

/// What undoes a move: the terms it replaced.
#[derive(Clone, Copy)]
pub(super) struct Undo {
    manhattan: u32,
    removals: u32,
    pdb: PdbUndo,
}

/// The heuristic's terms for one board.
#[derive(Clone)]
pub(super) struct Terms<'a> {
    /// Manhattan + linear conflict toward the goal.
    toward: Toward,
    manhattan: u32,
    pdb: Option<PdbTerms<'a>>,
    /// Linear conflict removals over every row and column (kept without tables only).
    removals: u32,
}

impl<'a> Terms<'a> {
    /// The terms of `board` under the options' heuristic.
    pub(super) fn new(board: &Board, options: &IdaOptions<'a>) -> Terms<'a> {
        let shape = board.shape();
        let toward = Toward::goal(shape);
        let pdb = match options.heuristic {
            Heuristic::Pdb(db) if db.shape() == shape => {
                Some(PdbTerms::new(db, board, options.reflect))
            }
            _ => None,
        };
        Terms {
            manhattan: u32::from(toward.manhattan(board.tiles())),
            removals: u32::from(toward.line_removals(board.tiles())),
            toward,
            pdb,
        }
    }
}

impl KeptTerms for Terms<'_> {
    type Undo = Undo;
    const CONSISTENT: bool = false;

    /// Bytes the terms hold: a rough figure for the budget.
    fn memory(&self) -> usize {
        self.toward.memory()
    }

    /// Whether the terms hold pattern databases: which of the two kinds of terms
    /// ([`KeptTerms::h_of`]'s `TABLES`) is kept.
    #[inline(always)]
    fn has_tables(&self) -> bool {
        self.pdb.is_some()
    }

    /// The heuristic value, `TABLES` being [`KeptTerms::has_tables`]: Manhattan and the tables'
    /// excess, or Manhattan and the linear conflicts (either admissible on any board: with
    /// `TABLES` and no tables it is Manhattan alone). The depth-first search is compiled once
    /// for each, so that neither carries the other's code (the conflicts' lines, inlined beside
    /// the tables' lookups, cost IDA* with tables 15 instructions a node in spilled registers).
    #[inline(always)]
    fn h_of<const TABLES: bool>(&self) -> u32 {
        match (TABLES, &self.pdb) {
            (true, Some(pdb)) => self.manhattan + pdb.extra(),
            (true, None) => self.manhattan,
            (false, _) => self.manhattan + 2 * self.removals,
        }
    }

    /// After `tile` slid from `to` to `from` (the blank's move `m` from `from` to `to`, the
    /// board now `tiles`): the new terms, and what undoes them. The tile comes in a register
    /// rather than from `tiles`, which was just written: reading it back would put a store's
    /// forwarding on every node's critical path (3–4 % of IDA*'s time).
    #[inline(always)]
    fn moved<const TABLES: bool>(
        &mut self,
        tiles: &[u8],
        tile: u8,
        m: u8,
        from: usize,
        to: usize,
    ) -> Undo {
        let mut undo = Undo {
            manhattan: self.manhattan,
            removals: self.removals,
            pdb: PdbUndo::default(),
        };
        if !TABLES {
            // Read on the board after the slide, the slide is the one back: negated.
            let back = self.toward.slide(tiles, tile, from, to, m < 2);
            self.manhattan = self.manhattan + u32::from(back.was) - u32::from(back.now);
            self.removals = (self.removals as i32 - back.removals) as u32;
            return undo;
        }
        self.manhattan = self.manhattan + u32::from(self.toward.distance(tile, from))
            - u32::from(self.toward.distance(tile, to));
        if let Some(pdb) = &mut self.pdb {
            undo.pdb = pdb.moved(tile as usize, from);
        }
        undo
    }

    /// Back to the terms before [`KeptTerms::moved`], `tile` back on `to`.
    #[inline(always)]
    fn restore<const TABLES: bool>(&mut self, tile: u8, to: usize, undo: Undo) {
        self.manhattan = undo.manhattan;
        if !TABLES {
            self.removals = undo.removals;
        } else if let Some(pdb) = &mut self.pdb {
            pdb.restore(tile as usize, to, undo.pdb);
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::board::{Move, Shape};
    use crate::pdb::{Partition, cache::build};
    use crate::search::budget::Budget;

    /// After any walk, with a partition that leaves tiles out, the incremental terms equal the
    /// terms computed afresh, and undo restores them; the same without tables (between.rs's
    /// tests walk Manhattan toward another board the same way).
    #[test]
    fn incremental_terms_match_fresh_ones() {
        let shape = Shape::new(4, 4).unwrap();
        let patterns = vec![vec![1, 2, 5], vec![3, 4, 8], vec![9, 13, 14]];
        let partition = Partition::new(shape, "t", patterns).unwrap();
        let db = build(&partition, &Budget::default()).unwrap();
        for options in [
            IdaOptions::with_tables(Some(&db), Some(1)),
            IdaOptions::with_tables(None, Some(1)),
        ] {
            let fresh = |board: &Board| Terms::new(board, &options);
            let same = |a: &Terms, b: &Terms, step| {
                assert_eq!(a.manhattan, b.manhattan, "step {step}");
                if !a.has_tables() {
                    assert_eq!(a.removals, b.removals, "step {step}");
                }
                if let (Some(a), Some(b)) = (&a.pdb, &b.pdb) {
                    assert_eq!(a.parts(), b.parts(), "step {step}");
                }
            };
            match matches!(options.heuristic, Heuristic::Pdb(_)) {
                true => walk_and_compare::<_, true>(shape, fresh, same),
                false => walk_and_compare::<_, false>(shape, fresh, same),
            }
        }
    }

    /// A walk from the goal with moves taken back now and then, the terms kept by `moved` and
    /// `restore` compared at each step with those `fresh` makes of the board (by `same`, and by
    /// their values).
    pub(in crate::search::idastar) fn walk_and_compare<T: KeptTerms, const TABLES: bool>(
        shape: Shape,
        fresh: impl Fn(&Board) -> T,
        same: impl Fn(&T, &T, usize),
    ) {
        let mut board = Board::goal_of(shape);
        let mut terms = fresh(&board);
        let mut undos = Vec::new();
        let mut seed = 12345u64;
        for step in 0..400 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = (seed >> 33) as u8 % 4;
            let from = board.blank();
            if step % 7 == 6 {
                if let Some((m, to, undo)) = undos.pop() {
                    assert!(board.apply(Move::ALL[m as usize ^ 1]));
                    terms.restore::<TABLES>(board.tile_at(to), to, undo);
                }
            } else if let Some(to) = shape.step(from, Move::ALL[m as usize]) {
                assert!(board.apply(Move::ALL[m as usize]));
                let tile = board.tile_at(from);
                let undo = terms.moved::<TABLES>(board.tiles(), tile, m, from, to);
                undos.push((m, to, undo));
            }
            let now = fresh(&board);
            same(&terms, &now, step);
            assert_eq!(terms.has_tables(), TABLES);
            assert_eq!(terms.h_of::<TABLES>(), now.h(), "step {step}");
        }
    }
}
