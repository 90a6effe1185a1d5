//! The pattern-database term of an estimate: each pattern's excess over Manhattan read from
//! the tiles' cells ([`Positions`]), as is and on the board reflected about the main diagonal
//! ([`PdbLookup`]). What a tile's move changes in it (only its own pattern, and its
//! reflection's) is kept by [`super::kept::Kept`], the one estimate every search keeps.

use super::toward::TileAt;
use crate::pdb::{NO_PATTERN, PatternDatabase};

/// The most tiles a pattern holds here (the placements' cells are gathered on the stack), and
/// the most cells a board with pattern databases has.
const MAX_PATTERN_TILES: usize = 32;

/// A pattern database's lookups.
#[derive(Clone, Debug)]
pub(crate) struct PdbLookup<'a> {
    db: &'a PatternDatabase,
    /// The tile that plays each tile's part on the reflected board (itself without one).
    reflect_tile: Vec<u8>,
    /// Each cell's reflection (itself without one).
    reflect_cell: Vec<u8>,
    /// Whether the reflected board is looked up too (square boards, when asked).
    reflects: bool,
}

impl<'a> PdbLookup<'a> {
    /// The lookups of a database, on the reflected board too if `reflect` and the database
    /// reflects (square boards).
    pub(crate) fn new(db: &'a PatternDatabase, reflect: bool) -> PdbLookup<'a> {
        let cells = db.shape().cells() as u8;
        PdbLookup {
            db,
            reflect_tile: (0..cells)
                .map(|t| db.reflect_tile(t).unwrap_or(t))
                .collect(),
            reflect_cell: (db.reflect_cell())
                .map(<[u8]>::to_vec)
                .unwrap_or_else(|| (0..cells).collect()),
            reflects: reflect && db.reflect_cell().is_some(),
        }
    }

    /// How many patterns it has.
    pub(crate) fn patterns(&self) -> usize {
        self.db.tables().len()
    }

    /// Whether the reflected board is looked up too.
    #[inline(always)]
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
}

/// Each tile's cell, as is and on the board reflected about the main diagonal (where each
/// tile plays its reflection's part): what [`PdbLookup::excess`] reads, kept with the board
/// from move to move (a move writes the moved tile's two entries; the move back writes them
/// again, so nothing needs undoing). The blank's entry is not kept: no pattern holds it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Positions {
    plain: [u8; MAX_PATTERN_TILES],
    reflected: [u8; MAX_PATTERN_TILES],
}

impl Positions {
    /// The positions of the board `tiles` of `cells` cells (the database's shape).
    pub(crate) fn of<T: TileAt + ?Sized>(lookup: &PdbLookup, tiles: &T, cells: usize) -> Positions {
        let mut positions = Positions {
            plain: [0; MAX_PATTERN_TILES],
            reflected: [0; MAX_PATTERN_TILES],
        };
        for cell in 0..cells {
            positions.moved(lookup, tiles.tile_at(cell), cell);
        }
        positions
    }

    /// `tile` now on `cell`.
    #[inline(always)]
    pub(crate) fn moved(&mut self, lookup: &PdbLookup, tile: u8, cell: usize) {
        self.plain[tile as usize] = cell as u8;
        if lookup.reflects() {
            self.reflected[lookup.reflect_tile(tile as usize)] = lookup.reflect_cell(cell);
        }
    }

    /// Each tile's cell on the board as is.
    #[inline(always)]
    pub(crate) fn plain(&self) -> &[u8] {
        &self.plain
    }

    /// Each tile's cell on the reflected board (the tile that plays its part there).
    #[inline(always)]
    pub(crate) fn reflected(&self) -> &[u8] {
        &self.reflected
    }
}
