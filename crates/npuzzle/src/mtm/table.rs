//! Pattern tables in the multi-tile metric: for a set of tiles, the fewest multi-tile moves
//! that bring them and the blank home, by a breadth-first search over their placements (the
//! blank's cell kept exactly, the other tiles unnamed). Every real move is a move of that
//! abstraction of cost 1, so each table is admissible; a move slides tiles of several tables
//! at once, so tables combine by their maximum, not their sum.

use std::convert::Infallible;
use std::io::{self, Read};
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::board::{Board, Move, Shape};
use crate::hash::MtmChecksum;
use crate::pdb::build::{in_huge_pages, prefetch};
use crate::progress::{PdbEvent, ProgressEvent};
use crate::rank::Ranker;
use crate::search::budget::{Budget, StopReason};

/// An entry not reached yet.
const UNSEEN: u8 = u8::MAX;

/// One table: its tiles (the blank last, as 0) and the distance of each placement.
#[derive(Debug)]
pub struct MtmTable {
    tiles: Vec<u8>,
    ranker: Ranker,
    /// The ranker's weights in 32 bits (every table's ranks fit), for the search's lookups.
    weights: [u32; 16],
    /// The distances, in huge pages where the system gives them: the search reads them at
    /// random, and with 4 kB pages nearly every read missed the TLB.
    distances: Vec<u8>,
}

/// States of a layer expanded between two looks at the budget (and two progress reports):
/// about a tenth of a second on one core.
const GROUP: usize = 1 << 18;

impl MtmTable {
    /// Builds the table of `tiles` (not the blank) on `shape`, each layer of the search
    /// spread over the current rayon pool. It cannot be stopped: see [`MtmTable::build_within`].
    pub fn build(shape: Shape, tiles: &[u8]) -> MtmTable {
        let Ok(table) = MtmTable::search(shape, tiles, &mut |_| Ok::<(), Infallible>(()));
        table
    }

    /// [`MtmTable::build`] within a budget: it reports [`PdbEvent`]s (the build's start, its
    /// progress every [`GROUP`] states expanded, its end, `pattern` the table's index among
    /// its shape's) to the budget's progress callback, and looks at the budget's cancel flag
    /// and deadline as often.
    ///
    /// # Errors
    ///
    /// The [`StopReason`] when the budget stops the build.
    pub fn build_within(
        shape: Shape,
        tiles: &[u8],
        pattern: usize,
        budget: &Budget,
    ) -> Result<MtmTable, StopReason> {
        let started = Instant::now();
        let report = |event: PdbEvent| budget.report_event(&ProgressEvent::Table(event));
        let placements = Ranker::new(shape.cells(), tiles.len() + 1).len();
        // With at most one tile unnamed, only the placements of the goal's parity are reached.
        let total = if tiles.len() + 2 >= shape.cells() {
            placements / 2
        } else {
            placements
        };
        report(PdbEvent::BuildStarted {
            pattern,
            tiles: tiles.to_vec(),
            entries: total,
        });
        budget.check(0, 0)?;
        let table = MtmTable::search(shape, tiles, &mut |done| {
            report(PdbEvent::BuildProgress {
                pattern,
                done,
                total,
            });
            budget.check(0, 0)
        })?;
        report(PdbEvent::BuildFinished {
            pattern,
            seconds: started.elapsed().as_secs_f64(),
            bytes: table.bytes() as u64,
        });
        Ok(table)
    }

    /// The breadth-first search from the goal, telling `went_on` the entries reached so far
    /// after each [`GROUP`] of a layer's states, and stopping at its first error.
    fn search<E>(
        shape: Shape,
        tiles: &[u8],
        went_on: &mut dyn FnMut(u64) -> Result<(), E>,
    ) -> Result<MtmTable, E> {
        let mut tiles = tiles.to_vec();
        tiles.push(0);
        let ranker = Ranker::new(shape.cells(), tiles.len());
        let distances = in_huge_pages(ranker.len(), || AtomicU8::new(UNSEEN));
        let goal: Vec<u8> = tiles.iter().map(|&t| shape.goal_cell(t) as u8).collect();
        let start = ranker.rank(&goal);
        distances[start as usize].store(0, Ordering::Relaxed);
        let steps = shape.step_table();
        let (mut frontier, mut reached) = (vec![start as u32], 1u64);
        let mut depth = 0u8;
        while !frontier.is_empty() {
            depth += 1;
            let layer = Layer {
                ranker: &ranker,
                steps: &steps,
                distances: &distances,
                depth,
            };
            let mut next = Vec::new();
            for group in frontier.chunks(GROUP) {
                let found: Vec<u32> = group
                    .par_chunks(1 << 12)
                    .flat_map_iter(|chunk| layer.expand(chunk))
                    .collect();
                reached += found.len() as u64;
                next.extend(found);
                went_on(reached)?;
            }
            frontier = next;
        }
        Ok(MtmTable::new(
            tiles,
            ranker,
            distances.into_iter().map(AtomicU8::into_inner).collect(),
        ))
    }

    /// The table's entries, a byte each, as a file holds them (the tiles are the caller's to
    /// write).
    pub fn entries(&self) -> &[u8] {
        &self.distances
    }

    /// Reads the entries of the table of `tiles` on `shape`, as a file holds them ([`MtmTable::entries`]).
    ///
    /// # Errors
    ///
    /// The reader's error, such as a file that ends too soon.
    pub fn read(
        shape: Shape,
        tiles: &[u8],
        input: &mut impl Read,
        sum: &mut MtmChecksum,
    ) -> io::Result<MtmTable> {
        let mut tiles = tiles.to_vec();
        tiles.push(0);
        let ranker = Ranker::new(shape.cells(), tiles.len());
        let mut distances = in_huge_pages(ranker.len(), || 0u8);
        input.read_exact(&mut distances)?;
        sum.add(&distances);
        Ok(MtmTable::new(tiles, ranker, distances))
    }

    fn new(tiles: Vec<u8>, ranker: Ranker, distances: Vec<u8>) -> MtmTable {
        let mut weights = [0u32; 16];
        for (to, &from) in weights.iter_mut().zip(ranker.weights()) {
            *to = from as u32;
        }
        MtmTable {
            tiles,
            ranker,
            weights,
            distances,
        }
    }

    /// The table's distance for a board: a lower bound on its multi-tile distance.
    pub fn lookup(&self, cell_of: &[u8]) -> u8 {
        let mut positions = [0u8; 16];
        for (place, &tile) in positions.iter_mut().zip(&self.tiles) {
            *place = cell_of[tile as usize];
        }
        self.distances[self.ranker.rank(&positions[..self.tiles.len()]) as usize]
    }

    /// The entry of a board given as each tile's cell (`cell_of[tile]`): its rank, computed as
    /// [`Ranker::rank`] does, in 32 bits.
    #[inline(always)]
    pub(crate) fn index(&self, cell_of: &[u8; 16]) -> usize {
        let (mut seen, mut rank) = (0u32, 0u32);
        for (&tile, &weight) in self.tiles.iter().zip(&self.weights) {
            let p = u32::from(cell_of[usize::from(tile) & 15]);
            let below = (seen & ((1 << p) - 1)).count_ones();
            rank += (p - below) * weight;
            seen |= 1 << p;
        }
        rank as usize
    }

    /// The cells of the table's tiles but the blank, a bit each.
    pub(crate) fn tiles_mask(&self, cell_of: &[u8; 16]) -> u16 {
        let named = &self.tiles[..self.tiles.len() - 1];
        named.iter().fold(0, |mask, &tile| {
            mask | 1 << (cell_of[usize::from(tile) & 15] & 15)
        })
    }

    /// Whether the table names the tile (the blank is in every table).
    pub(crate) fn names(&self, tile: u8) -> bool {
        tile != 0 && self.tiles.contains(&tile)
    }

    /// The distance at an entry [`MtmTable::index`] gave.
    #[inline(always)]
    pub(crate) fn at(&self, index: usize) -> u8 {
        self.distances[index]
    }

    /// Asks for an entry's cache line ahead of its use.
    #[inline(always)]
    pub(crate) fn prefetch(&self, index: usize) {
        if let Some(entry) = self.distances.get(index) {
            prefetch(entry);
        }
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> usize {
        self.distances.len()
    }
}

/// One layer of the breadth-first search: what it reads, and the depth it writes.
struct Layer<'a> {
    ranker: &'a Ranker,
    steps: &'a [[usize; 4]],
    distances: &'a [AtomicU8],
    depth: u8,
}

impl Layer<'_> {
    /// The placements one multi-tile move from those in `frontier` not seen before, marked
    /// seen at this layer's depth.
    fn expand(&self, frontier: &[u32]) -> Vec<u32> {
        let (ranker, steps) = (self.ranker, self.steps);
        let k = ranker.weights().len();
        let mut next = Vec::new();
        let mut positions = [0u8; 16];
        for &rank in frontier {
            ranker.unrank(u64::from(rank), &mut positions[..k]);
            // Which of the table's tiles is on each cell (k for none).
            let mut at = [k as u8; 16];
            for (index, &cell) in positions[..k].iter().enumerate() {
                at[cell as usize] = index as u8;
            }
            for mv in Move::ALL {
                let mut moved = positions;
                let mut blank = moved[k - 1] as usize;
                while steps[blank][mv.index()] != usize::MAX {
                    let target = steps[blank][mv.index()];
                    let index = at[target] as usize;
                    if index < k {
                        moved[index] = blank as u8;
                    }
                    blank = target;
                    moved[k - 1] = blank as u8;
                    let rank = ranker.rank(&moved[..k]) as usize;
                    let entry = &self.distances[rank];
                    if entry.load(Ordering::Relaxed) == UNSEEN
                        && entry
                            .compare_exchange(
                                UNSEEN,
                                self.depth,
                                Ordering::Relaxed,
                                Ordering::Relaxed,
                            )
                            .is_ok()
                    {
                        next.push(rank as u32);
                    }
                }
            }
        }
        next
    }
}

/// Each tile's cell on a board, indexed by tile (0 the blank).
pub fn cells_of(board: &Board) -> [u8; 16] {
    let mut cell_of = [0u8; 16];
    for (cell, &tile) in board.tiles().iter().enumerate() {
        cell_of[tile as usize] = cell as u8;
    }
    cell_of
}
