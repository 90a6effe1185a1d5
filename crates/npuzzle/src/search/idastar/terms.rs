//! The heuristic's terms, kept up to date move by move: each move changes one tile, so only
//! that tile's Manhattan term changes, and only the one pattern table (and one reflected table)
//! that holds it, or the linear conflicts of the two lines it left and entered.

use super::{Heuristic, IdaOptions};
use crate::board::Board;
use crate::estimate::{Increasing, manhattan_table};
use crate::pdb::{NO_PATTERN, PatternDatabase};

/// What undoes a move: the terms it replaced.
#[derive(Clone, Copy)]
pub(super) struct Undo {
    manhattan: u32,
    excess: u8,
    reflected_excess: u8,
    removals: u32,
}

/// The heuristic's terms for one board.
#[derive(Clone)]
pub(super) struct Terms<'a> {
    cells: usize,
    width: usize,
    /// Manhattan distance of tile `t` on cell `c`: `distance[t * cells + c]`.
    distance: Vec<u8>,
    manhattan: u32,
    pdb: Option<PdbTerms<'a>>,
    /// Linear conflict removals per row and per column (without tables only).
    row_removals: Vec<u8>,
    column_removals: Vec<u8>,
    removals: u32,
}

impl<'a> Terms<'a> {
    /// The terms of `board` under the options' heuristic.
    pub(super) fn new(board: &Board, options: &IdaOptions<'a>) -> Terms<'a> {
        let shape = board.shape();
        let cells = shape.cells();
        let distance: Vec<u8> = manhattan_table(shape)
            .into_iter()
            .map(|d| d.min(255) as u8)
            .collect();
        let manhattan = (board.tiles().iter().enumerate())
            .map(|(cell, &t)| distance[t as usize * cells + cell] as u32)
            .sum();
        let pdb = match options.heuristic {
            Heuristic::Pdb(db) if db.shape() == shape => {
                Some(PdbTerms::new(db, board, options.reflect))
            }
            _ => None,
        };
        let mut terms = Terms {
            cells,
            width: shape.width,
            distance,
            manhattan,
            pdb,
            row_removals: Vec::new(),
            column_removals: Vec::new(),
            removals: 0,
        };
        if terms.pdb.is_none() {
            terms.count_conflicts(board.tiles(), shape.height);
        }
        terms
    }

    /// The linear conflicts of every line, counted afresh.
    fn count_conflicts(&mut self, tiles: &[u8], height: usize) {
        self.row_removals = (0..height).map(|r| self.row_conflicts(tiles, r)).collect();
        self.column_removals = (0..self.width)
            .map(|c| self.column_conflicts(tiles, c))
            .collect();
        self.removals = (self.row_removals.iter().chain(&self.column_removals))
            .map(|&r| r as u32)
            .sum();
    }

    /// Bytes the terms hold: a rough figure for the budget.
    pub(super) fn memory(&self) -> usize {
        self.distance.len()
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
        let tile = tile as usize;
        let base = tile * self.cells;
        let mut undo = Undo {
            manhattan: self.manhattan,
            excess: 0,
            reflected_excess: 0,
            removals: self.removals,
        };
        self.manhattan =
            self.manhattan + self.distance[base + from] as u32 - self.distance[base + to] as u32;
        match &mut self.pdb {
            Some(pdb) => pdb.moved(tile, from, &mut undo),
            None => self.update_conflicts(tiles, m, from, to),
        }
        undo
    }

    /// Back to the terms before [`Terms::moved`], `tile` back on `to` (the board `tiles`).
    #[inline(always)]
    pub(super) fn restore(
        &mut self,
        tiles: &[u8],
        tile: u8,
        m: u8,
        from: usize,
        to: usize,
        undo: Undo,
    ) {
        self.manhattan = undo.manhattan;
        match &mut self.pdb {
            Some(pdb) => pdb.restore(tile as usize, to, undo),
            None => {
                self.removals = undo.removals;
                let vertical = m < 2;
                for cell in [from, to] {
                    if vertical {
                        let r = cell / self.width;
                        self.row_removals[r] = self.row_conflicts(tiles, r);
                    } else {
                        let c = cell % self.width;
                        self.column_removals[c] = self.column_conflicts(tiles, c);
                    }
                }
            }
        }
    }

    /// The fewest tiles that must leave row `row` for the rest of its own tiles to stand in
    /// goal order.
    fn row_conflicts(&self, tiles: &[u8], row: usize) -> u8 {
        let w = self.width;
        let mut run = Increasing::default();
        for &t in &tiles[row * w..(row + 1) * w] {
            if t != 0 && (t as usize - 1) / w == row {
                run.push(((t as usize - 1) % w) as u8);
            }
        }
        run.removals() as u8
    }

    /// The same for column `column`.
    fn column_conflicts(&self, tiles: &[u8], column: usize) -> u8 {
        let w = self.width;
        let mut run = Increasing::default();
        for &t in tiles[column..].iter().step_by(w) {
            if t != 0 && (t as usize - 1) % w == column {
                run.push(((t as usize - 1) / w) as u8);
            }
        }
        run.removals() as u8
    }

    /// After a move, recounts the two lines the tile left and entered.
    fn update_conflicts(&mut self, tiles: &[u8], m: u8, from: usize, to: usize) {
        let vertical = m < 2;
        let (a, b) = if vertical {
            (from / self.width, to / self.width)
        } else {
            (from % self.width, to % self.width)
        };
        for line in [a, b] {
            let (old, new) = if vertical {
                (self.row_removals[line], self.row_conflicts(tiles, line))
            } else {
                (
                    self.column_removals[line],
                    self.column_conflicts(tiles, line),
                )
            };
            self.removals = self.removals + new as u32 - old as u32;
            if vertical {
                self.row_removals[line] = new;
            } else {
                self.column_removals[line] = new;
            }
        }
    }
}

/// The pattern database part of the terms.
#[derive(Clone)]
struct PdbTerms<'a> {
    db: &'a PatternDatabase,
    /// Each tile's cell.
    position: Vec<u8>,
    /// Each reflected tile's cell on the reflected board.
    reflected: Vec<u8>,
    /// Each pattern's current half-excess, and the reflected ones.
    excess: Vec<u8>,
    reflected_excess: Vec<u8>,
    sum: u32,
    reflected_sum: u32,
    reflect: bool,
    /// Reflected tile of each tile, reflected cell of each cell.
    reflect_tile: Vec<u8>,
    reflect_cell: Vec<u8>,
}

impl<'a> PdbTerms<'a> {
    fn new(db: &'a PatternDatabase, board: &Board, reflect: bool) -> PdbTerms<'a> {
        let cells = board.shape().cells();
        let (position, reflected) = db.positions(board);
        let reflect = reflect && reflected.is_some();
        let reflected = reflected.unwrap_or_else(|| position.clone());
        let patterns = db.tables().len();
        let excess: Vec<u8> = (0..patterns)
            .map(|p| PdbTerms::lookup(db, p, &position))
            .collect();
        let reflected_excess: Vec<u8> = match reflect {
            true => (0..patterns)
                .map(|p| PdbTerms::lookup(db, p, &reflected))
                .collect(),
            false => vec![0; patterns],
        };
        PdbTerms {
            db,
            sum: excess.iter().map(|&e| e as u32).sum(),
            reflected_sum: reflected_excess.iter().map(|&e| e as u32).sum(),
            position,
            reflected,
            excess,
            reflected_excess,
            reflect,
            reflect_tile: (0..cells as u8)
                .map(|t| db.reflect_tile(t).unwrap_or(t))
                .collect(),
            reflect_cell: (db.reflect_cell())
                .map(<[u8]>::to_vec)
                .unwrap_or_else(|| (0..cells as u8).collect()),
        }
    }

    #[inline(always)]
    fn lookup(db: &PatternDatabase, pattern: usize, position: &[u8]) -> u8 {
        let table = &db.tables()[pattern];
        let mut cells = [0u8; 32];
        let tiles = table.tiles();
        for (slot, &tile) in tiles.iter().enumerate() {
            cells[slot] = position[tile as usize];
        }
        table.excess_at(&cells[..tiles.len()])
    }

    /// The excess term: twice the larger sum.
    #[inline(always)]
    fn extra(&self) -> u32 {
        2 * self.sum.max(self.reflected_sum)
    }

    /// After `tile` moved to `cell`: its pattern's excess and its reflection's, looked up
    /// again, the old ones kept in `undo`.
    #[inline(always)]
    fn moved(&mut self, tile: usize, cell: usize, undo: &mut Undo) {
        self.position[tile] = cell as u8;
        // A tile in no pattern (a partial partition) changes no table.
        let pattern = self.db.pattern_of()[tile] as usize;
        if pattern != usize::from(NO_PATTERN) {
            let e = PdbTerms::lookup(self.db, pattern, &self.position);
            undo.excess = self.excess[pattern];
            self.sum = self.sum + e as u32 - self.excess[pattern] as u32;
            self.excess[pattern] = e;
        }
        let rt = self.reflect_tile[tile] as usize;
        let pattern = self.db.pattern_of()[rt] as usize;
        if self.reflect {
            self.reflected[rt] = self.reflect_cell[cell];
        }
        if self.reflect && pattern != usize::from(NO_PATTERN) {
            let e = PdbTerms::lookup(self.db, pattern, &self.reflected);
            undo.reflected_excess = self.reflected_excess[pattern];
            self.reflected_sum =
                self.reflected_sum + e as u32 - self.reflected_excess[pattern] as u32;
            self.reflected_excess[pattern] = e;
        }
    }

    /// `tile` back on `cell`, with the excesses `undo` kept.
    #[inline(always)]
    fn restore(&mut self, tile: usize, cell: usize, undo: Undo) {
        self.position[tile] = cell as u8;
        let pattern = self.db.pattern_of()[tile] as usize;
        if pattern != usize::from(NO_PATTERN) {
            self.sum = self.sum + undo.excess as u32 - self.excess[pattern] as u32;
            self.excess[pattern] = undo.excess;
        }
        let rt = self.reflect_tile[tile] as usize;
        let pattern = self.db.pattern_of()[rt] as usize;
        if self.reflect {
            self.reflected[rt] = self.reflect_cell[cell];
        }
        if self.reflect && pattern != usize::from(NO_PATTERN) {
            self.reflected_sum = self.reflected_sum + undo.reflected_excess as u32
                - self.reflected_excess[pattern] as u32;
            self.reflected_excess[pattern] = undo.reflected_excess;
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
                if let Some((m, from, to, undo)) = undos.pop() {
                    assert!(board.apply(Move::ALL[m as usize ^ 1]));
                    terms.restore(board.tiles(), board.tile_at(to), m, from, to, undo);
                }
            } else if let Some(to) = shape.step(from, Move::ALL[m as usize]) {
                assert!(board.apply(Move::ALL[m as usize]));
                let tile = board.tile_at(from);
                undos.push((m, from, to, terms.moved(board.tiles(), tile, m, from, to)));
            }
            let fresh = Terms::new(&board, options);
            assert_eq!(terms.manhattan, fresh.manhattan, "step {step}");
            assert_eq!(terms.removals, fresh.removals, "step {step}");
            if let (Some(a), Some(b)) = (&terms.pdb, &fresh.pdb) {
                assert_eq!(a.excess, b.excess, "step {step}");
                assert_eq!(a.reflected_excess, b.reflected_excess, "step {step}");
                assert_eq!(
                    (a.sum, a.reflected_sum),
                    (b.sum, b.reflected_sum),
                    "step {step}"
                );
            }
            assert_eq!(terms.h(), fresh.h(), "step {step}");
        }
    }
}
