//! Additive disjoint pattern databases: tables of the least moves a pattern's own tiles need,
//! built backwards from the goal, cached on disk, and summed into an admissible heuristic.
//!
//! The tiles are split into disjoint patterns ([`Partition`]). Each pattern's table holds, for
//! every placement of its tiles, the fewest moves of those tiles that bring them home, whatever
//! the other tiles do. Since no move moves two tiles, the tables of disjoint patterns add up.
//! On square boards the lookup is also made on the board reflected about the main diagonal, and
//! the larger sum is taken.

pub mod build;
pub mod cache;
mod layout;
pub mod partition;

use std::fmt;
use std::path::PathBuf;

use thiserror::Error;

use crate::board::{Board, Shape};
pub use crate::progress::PdbEvent;
use crate::rank::Ranker;
use crate::search::budget::StopReason;
pub use cache::{default_dir, load_or_build};
pub use partition::Partition;

/// Why a pattern database could not be had.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PdbError {
    /// No standard partition of that name for the shape.
    #[error(
        "there is no partition '{name}' for a {shape} board (4x4: 7-8, 6-6-3, 5-5-5; 3x4 and 4x3: 6-5; 5x5: 6-6-6-6)"
    )]
    UnknownPartition {
        /// The board shape.
        shape: Shape,
        /// The name asked for.
        name: String,
    },
    /// A custom partition that breaks a rule.
    #[error("partition '{name}' is invalid: {reason}")]
    InvalidPartition {
        /// Its name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A table whose size does not match its pattern.
    #[error("a table for {tiles} tiles on {shape} needs {expected} bytes, found {found}")]
    WrongSize {
        /// The board shape.
        shape: Shape,
        /// The pattern's tile count.
        tiles: usize,
        /// The bytes expected.
        expected: u64,
        /// The bytes given.
        found: u64,
    },
    /// The build was cancelled or ran out of time.
    #[error("the table build stopped because {0}")]
    Stopped(StopReason),
    /// A cached table is there but cannot be used (damaged, of another version), where the
    /// caller asked only for cached tables.
    #[error(
        "the cached table {path} cannot be used ({message}); `npuzzle pdb build --force` rebuilds it"
    )]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// The table could not be written to the cache.
    #[error("could not save {path}: {message}")]
    Save {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// One pattern's table: 4 bits a placement, holding (cost − Manhattan of its tiles) / 2.
#[derive(Clone, PartialEq, Eq)]
pub struct PatternTable {
    tiles: Vec<u8>,
    ranker: Ranker,
    data: Vec<u8>,
}

impl fmt::Debug for PatternTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PatternTable")
            .field("tiles", &self.tiles)
            .field("bytes", &self.data.len())
            .finish()
    }
}

impl PatternTable {
    /// A table from its packed entries, checked for size.
    ///
    /// # Errors
    ///
    /// [`PdbError::WrongSize`] when the entries do not fit the pattern's table.
    pub fn from_parts(
        shape: Shape,
        tiles: Vec<u8>,
        data: Vec<u8>,
    ) -> Result<PatternTable, PdbError> {
        let ranker = Ranker::new(shape.cells(), tiles.len());
        let expected = ranker.len().div_ceil(2);
        if data.len() as u64 != expected {
            return Err(PdbError::WrongSize {
                shape,
                tiles: tiles.len(),
                expected,
                found: data.len() as u64,
            });
        }
        Ok(PatternTable {
            tiles,
            ranker,
            data,
        })
    }

    /// The pattern's tiles, sorted.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The packed entries.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The bytes the entries take.
    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    /// The ranker of its placements.
    pub fn ranker(&self) -> &Ranker {
        &self.ranker
    }

    /// The stored half-excess over Manhattan for a placement rank.
    #[inline(always)]
    pub fn excess(&self, rank: u64) -> u8 {
        (self.data[(rank >> 1) as usize] >> ((rank & 1) * 4)) & 0xF
    }

    /// The half-excess over Manhattan for the tiles on the given cells (pattern order).
    #[inline(always)]
    pub fn excess_at(&self, positions: &[u8]) -> u8 {
        self.excess(self.ranker.rank(positions))
    }
}

/// A tile's entry in [`PatternDatabase::pattern_of`] when it is in no pattern (the blank, or
/// any tile a partial partition leaves out).
pub(crate) const NO_PATTERN: u8 = u8::MAX;

/// A partition's tables, ready to give a heuristic.
#[derive(Debug)]
pub struct PatternDatabase {
    partition: Partition,
    tables: Vec<PatternTable>,
    /// For each tile, its pattern ([`NO_PATTERN`] for the blank).
    pattern_of: Vec<u8>,
    /// For each tile, its place in its pattern.
    slot_of: Vec<u8>,
    /// For each cell, the cell reflected about the main diagonal (square boards only).
    reflect_cell: Option<Vec<u8>>,
}

impl PatternDatabase {
    /// A database from a partition and its tables (in the partition's order).
    ///
    /// # Errors
    ///
    /// [`PdbError::WrongSize`] (or [`PdbError::InvalidPartition`]) when the tables do not fit the
    /// partition.
    pub fn new(
        partition: Partition,
        tables: Vec<PatternTable>,
    ) -> Result<PatternDatabase, PdbError> {
        let shape = partition.shape();
        if tables.len() != partition.patterns().len()
            || tables
                .iter()
                .zip(partition.patterns())
                .any(|(t, p)| t.tiles() != p.as_slice())
        {
            return Err(PdbError::InvalidPartition {
                name: partition.name().to_string(),
                reason: "the tables do not match its patterns".into(),
            });
        }
        let cells = shape.cells();
        let mut pattern_of = vec![NO_PATTERN; cells];
        let mut slot_of = vec![0u8; cells];
        for (p, pattern) in partition.patterns().iter().enumerate() {
            for (slot, &tile) in pattern.iter().enumerate() {
                pattern_of[tile as usize] = p as u8;
                slot_of[tile as usize] = slot as u8;
            }
        }
        let reflect_cell = (shape.width == shape.height).then(|| {
            (0..cells)
                .map(|cell| {
                    let (column, row) = shape.column_row(cell);
                    shape.cell(row, column) as u8
                })
                .collect()
        });
        Ok(PatternDatabase {
            partition,
            tables,
            pattern_of,
            slot_of,
            reflect_cell,
        })
    }

    /// The partition.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.partition.shape()
    }

    /// The tables, in the partition's order.
    pub fn tables(&self) -> &[PatternTable] {
        &self.tables
    }

    /// The bytes all tables take.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(PatternTable::bytes).sum()
    }

    /// Each tile's pattern (`u8::MAX` for the blank).
    pub fn pattern_of(&self) -> &[u8] {
        &self.pattern_of
    }

    /// Each tile's place within its pattern.
    pub fn slot_of(&self) -> &[u8] {
        &self.slot_of
    }

    /// The main-diagonal reflection of each cell, on square boards.
    pub fn reflect_cell(&self) -> Option<&[u8]> {
        self.reflect_cell.as_deref()
    }

    /// The tile that plays `tile`'s part on the reflected board: the one whose goal cell is
    /// the reflection of `tile`'s.
    pub fn reflect_tile(&self, tile: u8) -> Option<u8> {
        let reflect = self.reflect_cell.as_ref()?;
        if tile == 0 {
            return Some(0);
        }
        Some(reflect[tile as usize - 1] + 1)
    }

    /// The sum of half-excesses over the patterns for tiles at `positions` (indexed by tile).
    fn excess_sum(&self, positions: &[u8]) -> u32 {
        let mut scratch = [0u8; 32];
        self.tables
            .iter()
            .map(|table| {
                let cells = &mut scratch[..table.tiles.len()];
                for (slot, &tile) in table.tiles.iter().enumerate() {
                    cells[slot] = positions[tile as usize];
                }
                table.excess_at(cells) as u32
            })
            .sum()
    }

    /// The heuristic of a board of this shape: Manhattan plus twice the larger of the two
    /// half-excess sums (as is and reflected). `None` if the shape differs.
    pub fn heuristic(&self, board: &Board) -> Option<usize> {
        if board.shape() != self.shape() {
            return None;
        }
        let (positions, reflected) = self.positions(board);
        let mut excess = self.excess_sum(&positions);
        if let Some(reflected) = reflected {
            excess = excess.max(self.excess_sum(&reflected));
        }
        Some(crate::estimate::manhattan(board) + 2 * excess as usize)
    }

    /// The heuristic from one pattern's table alone, in moves: its tiles' Manhattan distance
    /// plus twice the stored excess.
    pub fn pattern_cost(&self, pattern: usize, board: &Board) -> Option<usize> {
        let table = self.tables.get(pattern)?;
        if board.shape() != self.shape() {
            return None;
        }
        let shape = board.shape();
        let (positions, _) = self.positions(board);
        let cells: Vec<u8> = table.tiles.iter().map(|&t| positions[t as usize]).collect();
        let md: usize = table
            .tiles
            .iter()
            .map(|&t| shape.distance(positions[t as usize] as usize, shape.goal_cell(t)))
            .sum();
        Some(md + 2 * table.excess_at(&cells) as usize)
    }

    /// Each tile's cell, and the same for the reflected board.
    fn positions(&self, board: &Board) -> (Vec<u8>, Option<Vec<u8>>) {
        let cells = board.shape().cells();
        let mut positions = vec![0u8; cells];
        for (cell, &tile) in board.tiles().iter().enumerate() {
            positions[tile as usize] = cell as u8;
        }
        let reflected = self.reflect_cell.as_ref().map(|reflect| {
            let mut reflected = vec![0u8; cells];
            for (tile, &cell) in positions.iter().enumerate() {
                let t = self.reflect_tile(tile as u8).unwrap_or(0);
                reflected[t as usize] = reflect[cell as usize];
            }
            reflected
        });
        (positions, reflected)
    }
}
