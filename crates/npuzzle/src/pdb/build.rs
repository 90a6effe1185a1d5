//! The backwards breadth-first build of one pattern's table.
//!
//! The abstract state is the placement of the pattern's tiles plus the region of empty cells
//! the blank is in: the other tiles are indistinguishable and their moves cost nothing, so the
//! blank roams its region for free. A state is named by its placement's rank and the region's
//! lowest cell, counted among the free cells; that name fits a `u32`. The search runs layer by
//! layer from the goal; moving a pattern tile into the blank's region costs one. A placement's
//! entry is the first layer that reaches it in any region, which is the least cost over all
//! blank positions, so the tables of disjoint patterns add up.
//!
//! An entry holds `(cost - manhattan) / 2` of the pattern's tiles in 4 bits (the difference is
//! even; values above 15 are stored as 15, which keeps the table admissible).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::index::{Ranker, select_bit};
use super::{PatternTable, PdbError, PdbEvent};
use crate::board::Shape;
use crate::search::budget::Budget;

/// States handed to one worker at a time.
const CHUNK: usize = 1 << 14;
/// States between two progress reports.
const BATCH: usize = 1 << 22;

/// The 32-bit masks of a board's cells, for flood fills.
#[derive(Clone, Copy)]
struct Masks {
    width: u32,
    all: u32,
    not_first_column: u32,
    not_last_column: u32,
}

impl Masks {
    fn new(shape: Shape) -> Masks {
        let mut not_first_column = 0u32;
        let mut not_last_column = 0u32;
        for cell in 0..shape.cells() {
            let (column, _) = shape.column_row(cell);
            if column > 0 {
                not_first_column |= 1 << cell;
            }
            if column + 1 < shape.width {
                not_last_column |= 1 << cell;
            }
        }
        let cells = shape.cells() as u32;
        Masks {
            width: shape.width as u32,
            all: if cells == 32 {
                u32::MAX
            } else {
                (1 << cells) - 1
            },
            not_first_column,
            not_last_column,
        }
    }

    /// The cells next to any cell of `m`.
    #[inline]
    fn around(&self, m: u32) -> u32 {
        (((m & self.not_last_column) << 1)
            | ((m & self.not_first_column) >> 1)
            | (m << self.width)
            | (m >> self.width))
            & self.all
    }

    /// The cells of `free` reachable from `start` through `free`.
    #[inline]
    fn flood(&self, start: u32, free: u32) -> u32 {
        let mut region = start;
        loop {
            let grown = (region | self.around(region)) & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

/// The index among free cells of `cell`, given the occupied cells.
#[inline]
fn free_index(cell: u32, occupied: u32) -> u32 {
    cell - (occupied & ((1u32 << cell) - 1)).count_ones()
}

/// The empty regions of every placement's occupied cells, by the colex rank of the cells:
/// `region[rank * cells + cell]` is the region of free cells holding `cell`.
struct Regions {
    cells: usize,
    /// `binomial[n][j]`: n choose j.
    binomial: Vec<[u32; 33]>,
    region: Vec<u32>,
}

impl Regions {
    fn new(masks: &Masks, cells: usize, k: usize) -> Regions {
        let mut binomial = vec![[0u32; 33]; cells + 1];
        for n in 0..=cells {
            binomial[n][0] = 1;
            for j in 1..=n.min(32) {
                binomial[n][j] =
                    binomial[n - 1][j - 1] + if j < n { binomial[n - 1][j] } else { 0 };
            }
        }
        let count = binomial[cells][k] as usize;
        let mut regions = Regions {
            cells,
            binomial,
            region: vec![0; count * cells],
        };
        // Every mask of k cells, by Gosper's hack.
        let mut occupied: u64 = (1u64 << k) - 1;
        while occupied < (1u64 << cells) {
            let occ = occupied as u32;
            let base = regions.rank(occ) * cells;
            let free = masks.all & !occ;
            let mut left = free;
            while left != 0 {
                let region = masks.flood(left & left.wrapping_neg(), free);
                let mut cells_of = region;
                while cells_of != 0 {
                    regions.region[base + cells_of.trailing_zeros() as usize] = region;
                    cells_of &= cells_of - 1;
                }
                left &= !region;
            }
            if k == 0 {
                break;
            }
            let c = occupied & occupied.wrapping_neg();
            let r = occupied + c;
            occupied = (((r ^ occupied) >> 2) / c) | r;
        }
        regions
    }

    /// The colex rank of a set of cells among sets of its size.
    #[inline(always)]
    fn rank(&self, mut occupied: u32) -> usize {
        let mut rank = 0u32;
        let mut j = 1;
        while occupied != 0 {
            rank += self.binomial[occupied.trailing_zeros() as usize][j];
            j += 1;
            occupied &= occupied - 1;
        }
        rank as usize
    }

    /// The free region holding `cell` when `occupied` cells are taken.
    #[inline(always)]
    fn of(&self, occupied: u32, cell: u32) -> u32 {
        self.region[self.rank(occupied) * self.cells + cell as usize]
    }
}

/// What one build needs to share with its workers.
struct Builder<'a> {
    masks: Masks,
    regions: Regions,
    ranker: Ranker,
    /// Free cells per placement.
    free_cells: u64,
    /// Manhattan distance of pattern tile `i` on `cell`: `manhattan[i * cells + cell]`.
    manhattan: Vec<u8>,
    cells: usize,
    k: usize,
    visited: Vec<AtomicU64>,
    entries: Vec<AtomicU8>,
    budget: &'a Budget,
}

impl Builder<'_> {
    /// Marks a state reached; true if it was not already.
    #[inline]
    fn claim(&self, state: u64) -> bool {
        let bit = 1u64 << (state & 63);
        let word = &self.visited[(state >> 6) as usize];
        // A plain load first: most states met are already known, and it spares the lock.
        word.load(Ordering::Relaxed) & bit == 0 && word.fetch_or(bit, Ordering::Relaxed) & bit == 0
    }

    /// Lowers a placement's entry to `value` if it is higher; true if it was unset.
    #[inline]
    fn record(&self, rank: u64, value: u8) -> bool {
        let shift = (rank & 1) * 4;
        let byte = &self.entries[(rank >> 1) as usize];
        let mut first = false;
        let _ = byte.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
            let current = (old >> shift) & 0xF;
            if value < current {
                first = current == 0xF;
                Some((old & !(0xF << shift)) | (value << shift))
            } else {
                None
            }
        });
        first
    }

    /// The entry value of a placement first reached at `depth`.
    #[inline]
    fn value(&self, positions: &[u8], depth: u32) -> u8 {
        let md: u32 = positions
            .iter()
            .enumerate()
            .map(|(i, &p)| self.manhattan[i * self.cells + p as usize] as u32)
            .sum();
        (depth.saturating_sub(md) / 2).min(15) as u8
    }

    /// Expands a chunk of layer `depth`, in a popcnt and BMI2 build where the CPU has them.
    fn expand_chunk(&self, chunk: &[u32], depth: u32, next: &mut Vec<u32>, placed: &mut u64) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the CPU has popcnt and bmi2, as just checked.
            unsafe { self.expand_chunk_fast(chunk, depth, next, placed) };
            return;
        }
        for &state in chunk {
            // SAFETY: the portable expansion asks nothing of the CPU.
            unsafe { self.expand::<false>(state, depth, next, placed) };
        }
    }

    /// [`Builder::expand_chunk`] compiled with the popcnt and BMI2 instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi2")]
    fn expand_chunk_fast(&self, chunk: &[u32], depth: u32, next: &mut Vec<u32>, placed: &mut u64) {
        for &state in chunk {
            // SAFETY: this function runs only where the CPU has BMI2 (its target feature).
            unsafe { self.expand::<true>(state, depth, next, placed) };
        }
    }

    /// Expands one state of layer `depth`, pushing newly reached states of the next layer.
    ///
    /// # Safety
    ///
    /// With `BMI2` true the CPU must have BMI2 (see [`select_bit`]).
    #[inline(always)]
    unsafe fn expand<const BMI2: bool>(
        &self,
        state: u32,
        depth: u32,
        next: &mut Vec<u32>,
        placed: &mut u64,
    ) {
        // States fit 32 bits (the build refuses larger tables), so 32-bit division.
        let free_cells = self.free_cells as u32;
        let rank = u64::from(state / free_cells);
        let free_index_of_blank = state % free_cells;
        let mut positions = [0u8; 32];
        let positions = &mut positions[..self.k];
        // SAFETY (both): this function's own promise about BMI2.
        let select = |mask, n| unsafe { select_bit::<BMI2>(mask, n) };
        self.ranker.unrank_with(rank, positions, select);
        let occupied: u32 = positions.iter().fold(0, |m, &p| m | 1 << p);
        let blank = select(!occupied, free_index_of_blank);
        let region = self.regions.of(occupied, blank);
        for i in 0..self.k {
            let from = positions[i] as u32;
            let mut targets = self.masks.around(1 << from) & region;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let now_occupied = occupied ^ (1 << from) ^ (1 << to);
                let now_region = self.regions.of(now_occupied, from);
                let lowest = now_region.trailing_zeros();
                positions[i] = to as u8;
                let child_rank = self.ranker.rank(positions);
                let child = child_rank * self.free_cells + free_index(lowest, now_occupied) as u64;
                if self.claim(child) {
                    next.push(child as u32);
                    if self.record(child_rank, self.value(positions, depth + 1)) {
                        *placed += 1;
                    }
                }
                positions[i] = from as u8;
            }
        }
    }
}

/// Takes pieces off the end of a layer until they hold about [`BATCH`] states.
fn take_batch(layer: &mut Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    let mut batch = Vec::new();
    let mut states = 0;
    while states < BATCH {
        let Some(piece) = layer.pop() else { break };
        states += piece.len();
        batch.push(piece);
    }
    batch
}

/// The bytes a build of `k` tiles on `cells` cells holds at its peak, at most: the visited
/// bits, the table, and the layers of 4-byte states. Measured peaks: 7-8 on 4×4 1.55 GB (2.17 GB
/// before the layers were kept in pieces; this gives 2.08 GB), 6-6-6-6 on 5×5 0.80 GB before
/// that change (this gives 0.69 GB): kept on the high side, for the budget's memory cap.
pub fn build_memory(cells: usize, k: usize) -> u64 {
    let entries = super::index::entries(cells, k);
    let states = entries * (cells - k) as u64;
    states / 8 + entries / 2 + entries * 5 / 2
}

/// Builds the table of one pattern: `tiles` sorted, on a board of `shape`.
///
/// Runs on the current rayon pool, checks the budget's cancel flag and deadline as it goes,
/// and reports progress through `events`.
///
/// # Errors
///
/// [`PdbError::Stopped`] when the budget's cancel flag or deadline stops the build.
pub fn build_table(
    shape: Shape,
    tiles: &[u8],
    pattern: usize,
    budget: &Budget,
    events: &dyn Fn(&PdbEvent),
) -> Result<PatternTable, PdbError> {
    let started = Instant::now();
    let builder = Builder::new(shape, tiles, budget);
    let placements = builder.ranker.len();
    events(&PdbEvent::BuildStarted {
        pattern,
        tiles: tiles.to_vec(),
        entries: placements,
    });
    let start = builder.start_at_goal(shape, tiles);
    let mut placed = 1u64;
    // A layer is kept as the pieces its chunks found, each sized to fit: no list doubles as it
    // grows, and each batch of the layer is freed as soon as it is expanded, so a layer and the
    // next are not both held whole.
    let mut layer: Vec<Vec<u32>> = vec![vec![start as u32]];
    let mut depth = 0u32;
    while !layer.is_empty() {
        let mut next: Vec<Vec<u32>> = Vec::new();
        while !layer.is_empty() {
            let batch = take_batch(&mut layer);
            for (found, newly) in builder.expand_batch(&batch, depth)? {
                placed += newly;
                if !found.is_empty() {
                    next.push(found);
                }
            }
            drop(batch);
            events(&PdbEvent::BuildProgress {
                pattern,
                done: placed,
                total: placements,
            });
        }
        layer = next;
        depth += 1;
    }
    let table = builder.into_table(shape, tiles)?;
    events(&PdbEvent::BuildFinished {
        pattern,
        seconds: started.elapsed().as_secs_f64(),
        bytes: table.bytes() as u64,
    });
    Ok(table)
}

impl<'a> Builder<'a> {
    /// Nothing reached yet, for the pattern `tiles` on `shape`.
    fn new(shape: Shape, tiles: &[u8], budget: &'a Budget) -> Builder<'a> {
        let cells = shape.cells();
        let k = tiles.len();
        let ranker = Ranker::new(cells, k);
        let placements = ranker.len();
        let free_cells = (cells - k) as u64;
        let states = placements * free_cells;
        let manhattan = (tiles.iter())
            .flat_map(|&tile| (0..cells).map(move |cell| (tile, cell)))
            .map(|(tile, cell)| shape.distance(cell, shape.goal_cell(tile)) as u8)
            .collect();
        let masks = Masks::new(shape);
        Builder {
            regions: Regions::new(&masks, cells, k),
            masks,
            ranker,
            free_cells,
            manhattan,
            cells,
            k,
            visited: (0..states.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            entries: (0..placements.div_ceil(2))
                .map(|_| AtomicU8::new(0xFF))
                .collect(),
            budget,
        }
    }

    /// Reaches the goal (every pattern tile home, the blank in its goal cell) at cost 0;
    /// its state.
    fn start_at_goal(&self, shape: Shape, tiles: &[u8]) -> u64 {
        let goal: Vec<u8> = tiles.iter().map(|&t| shape.goal_cell(t) as u8).collect();
        let occupied: u32 = goal.iter().fold(0, |m, &p| m | 1 << p);
        let blank = shape.goal_cell(0) as u32;
        let region = self.masks.flood(1 << blank, self.masks.all & !occupied);
        let rank = self.ranker.rank(&goal);
        let start = rank * self.free_cells + free_index(region.trailing_zeros(), occupied) as u64;
        self.claim(start);
        self.record(rank, 0);
        start
    }

    /// Expands a batch of one layer (at `depth`) in parallel: per chunk, the next layer's
    /// states it found and how many placements it reached first.
    fn expand_batch(
        &self,
        batch: &[Vec<u32>],
        depth: u32,
    ) -> Result<Vec<(Vec<u32>, u64)>, PdbError> {
        batch
            .par_iter()
            .flat_map(|piece| piece.par_chunks(CHUNK))
            .map(|chunk| {
                self.budget.check(0, 0).map_err(PdbError::Stopped)?;
                let mut found = Vec::with_capacity(chunk.len());
                let mut newly = 0u64;
                self.expand_chunk(chunk, depth, &mut found, &mut newly);
                found.shrink_to_fit();
                Ok((found, newly))
            })
            .collect()
    }

    /// The finished table (the visited states are dropped first).
    fn into_table(self, shape: Shape, tiles: &[u8]) -> Result<PatternTable, PdbError> {
        drop(self.visited);
        let data = (self.entries.into_iter())
            .map(AtomicU8::into_inner)
            .collect();
        PatternTable::from_parts(shape, tiles.to_vec(), data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::index::nth_set_bit;

    #[test]
    fn pdep_and_the_loop_select_the_same_bit() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            let mut mask = 0x9E37_79B9u32;
            for _ in 0..2_000 {
                mask = mask.rotate_left(7) ^ mask.wrapping_mul(0x2545_F491);
                for n in 0..mask.count_ones() {
                    // SAFETY: the CPU has BMI2, as just checked.
                    let pdep = unsafe { select_bit::<true>(mask, n) };
                    assert_eq!(pdep, nth_set_bit(mask, n));
                }
            }
        }
    }

    #[test]
    fn flood_and_free_cells() {
        let shape = Shape::new(3, 3).unwrap();
        let masks = Masks::new(shape);
        // A wall down the middle column leaves the left column alone.
        let occupied = 0b010_010_010;
        let left = masks.flood(1, masks.all & !occupied);
        assert_eq!(left, 0b001_001_001);
        assert_eq!(free_index(2, occupied), 1);
        assert_eq!(nth_set_bit(!occupied, 1), 2);
        assert_eq!(nth_set_bit(!occupied, 0), 0);
    }
}
