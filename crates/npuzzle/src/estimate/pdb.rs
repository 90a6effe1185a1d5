//! The pattern-database term of an estimate: each pattern's excess over Manhattan read from
//! the tiles' cells, as is and on the board reflected about the main diagonal, and what a
//! tile's move changes in it (only its own pattern, and its reflection's). IDA* keeps the
//! term move by move with undo ([`PdbTerms`]); weighted A* keeps the excesses in its nodes and
//! reads them with [`PdbLookup`].

use crate::board::Board;
use crate::pdb::{NO_PATTERN, PatternDatabase};

/// The most tiles a pattern holds here (the placements' cells are gathered on the stack).
const MAX_PATTERN_TILES: usize = 32;

/// A pattern database's lookups.
#[derive(Clone, Debug)]
pub(crate) struct PdbLookup<'a> {
    db: &'a PatternDatabase,
    /// The tile that plays each tile's part on the reflected board (itself without one).
    reflect_tile: Vec<u8>,
    /// Each cell's reflection (itself without one).
    reflect_cell: Vec<u8>,
    /// Whether the database reflects (square boards).
    reflects: bool,
}

impl<'a> PdbLookup<'a> {
    /// The lookups of a database.
    pub(crate) fn new(db: &'a PatternDatabase) -> PdbLookup<'a> {
        let cells = db.shape().cells() as u8;
        PdbLookup {
            db,
            reflect_tile: (0..cells)
                .map(|t| db.reflect_tile(t).unwrap_or(t))
                .collect(),
            reflect_cell: (db.reflect_cell())
                .map(<[u8]>::to_vec)
                .unwrap_or_else(|| (0..cells).collect()),
            reflects: db.reflect_cell().is_some(),
        }
    }

    /// How many patterns it has.
    pub(crate) fn patterns(&self) -> usize {
        self.db.tables().len()
    }

    /// Whether the database reflects (square boards).
    pub(crate) fn reflects(&self) -> bool {
        self.reflects
    }

    /// The pattern of `tile`, if it is in one (a partial partition leaves tiles out).
    #[inline(always)]
    pub(crate) fn pattern_of(&self, tile: usize) -> Option<usize> {
        let pattern = self.db.pattern_of()[tile];
        (pattern != NO_PATTERN).then_some(usize::from(pattern))
    }

    /// The tile that plays `tile`'s part on the reflected board.
    #[inline(always)]
    pub(crate) fn reflect_tile(&self, tile: usize) -> usize {
        usize::from(self.reflect_tile[tile])
    }

    /// The reflection of `cell`.
    #[inline(always)]
    pub(crate) fn reflect_cell(&self, cell: usize) -> u8 {
        self.reflect_cell[cell]
    }

    /// A pattern's excess with each tile `t` on `position[t]`.
    #[inline(always)]
    pub(crate) fn excess(&self, pattern: usize, position: &[u8]) -> u8 {
        let table = &self.db.tables()[pattern];
        let mut cells = [0u8; MAX_PATTERN_TILES];
        let tiles = table.tiles();
        for (slot, &tile) in tiles.iter().enumerate() {
            cells[slot] = position[tile as usize];
        }
        table.excess_at(&cells[..tiles.len()])
    }

    /// A pattern's excess on the reflected board, with each tile `t` on `position[t]` on the
    /// board as is.
    #[inline(always)]
    pub(crate) fn reflected_excess(&self, pattern: usize, position: &[u8]) -> u8 {
        let table = &self.db.tables()[pattern];
        let mut cells = [0u8; MAX_PATTERN_TILES];
        let tiles = table.tiles();
        for (slot, &tile) in tiles.iter().enumerate() {
            let plays = self.reflect_tile[tile as usize];
            cells[slot] = self.reflect_cell[position[plays as usize] as usize];
        }
        table.excess_at(&cells[..tiles.len()])
    }
}

/// What undoes a move in [`PdbTerms`]: the excesses it replaced.
#[derive(Clone, Copy, Default)]
pub(crate) struct PdbUndo {
    excess: u8,
    reflected_excess: u8,
}

/// The pattern-database term of one board, kept move by move (depth-first searches).
#[derive(Clone)]
pub(crate) struct PdbTerms<'a> {
    lookup: PdbLookup<'a>,
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
}

impl<'a> PdbTerms<'a> {
    /// The terms of `board` (of the database's shape), with reflected lookups if `reflect`
    /// and the database reflects.
    pub(crate) fn new(db: &'a PatternDatabase, board: &Board, reflect: bool) -> PdbTerms<'a> {
        let lookup = PdbLookup::new(db);
        let (position, reflected) = db.positions(board);
        let reflect = reflect && reflected.is_some();
        let reflected = reflected.unwrap_or_else(|| position.clone());
        let patterns = lookup.patterns();
        let excess: Vec<u8> = (0..patterns).map(|p| lookup.excess(p, &position)).collect();
        let reflected_excess: Vec<u8> = match reflect {
            true => (0..patterns)
                .map(|p| lookup.excess(p, &reflected))
                .collect(),
            false => vec![0; patterns],
        };
        PdbTerms {
            sum: excess.iter().map(|&e| e as u32).sum(),
            reflected_sum: reflected_excess.iter().map(|&e| e as u32).sum(),
            lookup,
            position,
            reflected,
            excess,
            reflected_excess,
            reflect,
        }
    }

    /// The excess term: twice the larger sum.
    #[inline(always)]
    pub(crate) fn extra(&self) -> u32 {
        2 * self.sum.max(self.reflected_sum)
    }

    /// Each pattern's excess and each reflected one's, and their sums.
    #[cfg(test)]
    pub(crate) fn parts(&self) -> (&[u8], &[u8], u32, u32) {
        let (excess, reflected) = (&self.excess, &self.reflected_excess);
        (excess, reflected, self.sum, self.reflected_sum)
    }

    /// After `tile` moved to `cell`: its pattern's excess and its reflection's, looked up
    /// again; what undoes it.
    #[inline(always)]
    pub(crate) fn moved(&mut self, tile: usize, cell: usize) -> PdbUndo {
        let mut undo = PdbUndo::default();
        self.position[tile] = cell as u8;
        if let Some(pattern) = self.lookup.pattern_of(tile) {
            let e = self.lookup.excess(pattern, &self.position);
            undo.excess = self.excess[pattern];
            self.sum = self.sum + e as u32 - self.excess[pattern] as u32;
            self.excess[pattern] = e;
        }
        if self.reflect {
            let rt = self.lookup.reflect_tile(tile);
            self.reflected[rt] = self.lookup.reflect_cell(cell);
            if let Some(pattern) = self.lookup.pattern_of(rt) {
                let e = self.lookup.excess(pattern, &self.reflected);
                undo.reflected_excess = self.reflected_excess[pattern];
                self.reflected_sum =
                    self.reflected_sum + e as u32 - self.reflected_excess[pattern] as u32;
                self.reflected_excess[pattern] = e;
            }
        }
        undo
    }

    /// `tile` back on `cell`, with the excesses `undo` kept.
    #[inline(always)]
    pub(crate) fn restore(&mut self, tile: usize, cell: usize, undo: PdbUndo) {
        self.position[tile] = cell as u8;
        if let Some(pattern) = self.lookup.pattern_of(tile) {
            self.sum = self.sum + undo.excess as u32 - self.excess[pattern] as u32;
            self.excess[pattern] = undo.excess;
        }
        if self.reflect {
            let rt = self.lookup.reflect_tile(tile);
            self.reflected[rt] = self.lookup.reflect_cell(cell);
            if let Some(pattern) = self.lookup.pattern_of(rt) {
                self.reflected_sum = self.reflected_sum + undo.reflected_excess as u32
                    - self.reflected_excess[pattern] as u32;
                self.reflected_excess[pattern] = undo.reflected_excess;
            }
        }
    }
}
