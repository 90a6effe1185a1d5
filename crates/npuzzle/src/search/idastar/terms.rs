//! The heuristic's terms, kept up to date move by move: each move changes one tile, so only
//! that tile's Manhattan term changes, and only the one pattern table (and one reflected table)
//! that holds it, or the linear conflicts of the one line of its target that it left or
//! entered. The estimates themselves are [`crate::estimate`]'s; this is IDA*'s state of them,
//! with what undoes a move.

use super::{Heuristic, IdaOptions};
use crate::board::Board;
use crate::estimate::pdb::{PdbTerms, PdbUndo};
use crate::estimate::toward::Toward;

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
    /// Linear conflict removals over every row and column (without tables only).
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
        let removals = match pdb {
            None => u32::from(toward.line_removals(board.tiles())),
            Some(_) => 0,
        };
        Terms {
            manhattan: u32::from(toward.manhattan(board.tiles())),
            toward,
            pdb,
            removals,
        }
    }

    /// Bytes the terms hold: a rough figure for the budget.
    pub(super) fn memory(&self) -> usize {
        self.toward.memory()
    }

    /// The heuristic value.
    #[inline(always)]
    pub(super) fn h(&self) -> u32 {
        match &self.pdb {
            Some(pdb) => self.manhattan + pdb.extra(),
            None => self.manhattan + 2 * self.removals,
        }
    }

    /// After `tile` slid from `to` to `from` (the blank's move `m` from `from` to `to`, the
    /// board now `tiles`): the new terms, and what undoes them. The tile comes in a register
    /// rather than from `tiles`, which was just written: reading it back would put a store's
    /// forwarding on every node's critical path (3–4 % of IDA*'s time).
    #[inline(always)]
    pub(super) fn moved(&mut self, tiles: &[u8], tile: u8, m: u8, from: usize, to: usize) -> Undo {
        let mut undo = Undo {
            manhattan: self.manhattan,
            removals: self.removals,
            pdb: PdbUndo::default(),
        };
        self.manhattan = self.manhattan + u32::from(self.toward.distance(tile, from))
            - u32::from(self.toward.distance(tile, to));
        match &mut self.pdb {
            Some(pdb) => undo.pdb = pdb.moved(tile as usize, from),
            None => {
                // Read on the board after the slide, the change is the one back: negated.
                let back = self.toward.removals_change(tiles, tile, from, to, m < 2);
                self.removals = (self.removals as i32 - back) as u32;
            }
        }
        undo
    }

    /// Back to the terms before [`Terms::moved`], `tile` back on `to`.
    #[inline(always)]
    pub(super) fn restore(&mut self, tile: u8, to: usize, undo: Undo) {
        self.manhattan = undo.manhattan;
        self.removals = undo.removals;
        if let Some(pdb) = &mut self.pdb {
            pdb.restore(tile as usize, to, undo.pdb);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Shape};
    use crate::pdb::{Partition, cache::build};
    use crate::search::budget::Budget;

    /// After any walk, with a partition that leaves tiles out, the incremental terms equal the
    /// terms computed afresh, and undo restores them; the same without tables.
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
            walk_and_compare(shape, &options);
        }
    }

    fn walk_and_compare(shape: Shape, options: &IdaOptions) {
        let mut board = Board::goal_of(shape);
        let mut terms = Terms::new(&board, options);
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
                    terms.restore(board.tile_at(to), to, undo);
                }
            } else if let Some(to) = shape.step(from, Move::ALL[m as usize]) {
                assert!(board.apply(Move::ALL[m as usize]));
                let tile = board.tile_at(from);
                undos.push((m, to, terms.moved(board.tiles(), tile, m, from, to)));
            }
            let fresh = Terms::new(&board, options);
            assert_eq!(terms.manhattan, fresh.manhattan, "step {step}");
            assert_eq!(terms.removals, fresh.removals, "step {step}");
            if let (Some(a), Some(b)) = (&terms.pdb, &fresh.pdb) {
                assert_eq!(a.parts(), b.parts(), "step {step}");
            }
            assert_eq!(terms.h(), fresh.h(), "step {step}");
        }
    }
}
