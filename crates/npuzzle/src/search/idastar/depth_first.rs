//! The depth-first search of one bound: the board in fixed arrays that a move updates and its
//! undo restores (nothing is allocated per node), the estimate beside it (the one
//! [`Kept`], by value: toward the goal with tables or linear conflicts, or Manhattan toward
//! any board), the path, and the counters the budget reads.

use std::sync::atomic::Ordering;

use super::Iteration;
use super::shared::{Counters, Shared, Subtree};
use crate::board::{Move, Shape};
use crate::estimate::kept::{CONFLICTS, Kept, MANHATTAN, TABLES};
use crate::estimate::pdb::{PdbLookup, Positions};
use crate::estimate::toward::Toward;

/// Nodes between two looks, in a parallel search, at whether an earlier path has a solution.
const ABANDON_CHECK_EVERY: u64 = 1 << 7;
/// No move: the last move of the root.
pub(super) const NONE: u8 = u8::MAX;
/// No neighbour in that direction (cells go up to 255 on a 16×16 board).
const NO_CELL: u16 = u16::MAX;

/// The neighbour of each cell of `shape` in each direction (U, D, L, R), or none: what a
/// depth-first search moves by, made once a search (or once a shape, and lent to many).
pub(crate) fn neighbours(shape: Shape) -> Vec<[u16; 4]> {
    (0..shape.cells())
        .map(|cell| Move::ALL.map(|mv| shape.step(cell, mv).map_or(NO_CELL, |to| to as u16)))
        .collect()
}

/// Where a depth-first search stands: tiles, blank, the estimate (with room for `P` patterns'
/// excesses), the path from the root, and its counters.
#[derive(Clone)]
pub(super) struct DepthFirst<'a, const P: usize> {
    tiles: Vec<u8>,
    blank: usize,
    /// The neighbour of each cell in each direction (U, D, L, R), or `NO_CELL`: see
    /// [`neighbours`].
    neighbours: &'a [[u16; 4]],
    /// The estimate's target.
    toward: &'a Toward,
    /// The pattern databases' lookups, when the estimate counts [`TABLES`].
    tables: Option<&'a PdbLookup<'a>>,
    /// Each tile's cell, for the tables (unused without them).
    positions: Positions,
    /// What the estimate counts ([`MANHATTAN`], [`CONFLICTS`] or [`TABLES`]): which build of
    /// the search runs (see [`DepthFirst::search`]).
    terms: u8,
    /// The estimate of the board here.
    kept: Kept<P>,
    /// The moves from the root, as indices into [`Move::ALL`].
    pub(super) path: Vec<u8>,
    /// The depth from which BPMX may lift a parent: the parallel frontier, so that one thread
    /// and several search the same tree.
    pub(super) bpmx_from: u32,
    pub(super) next_bound: u32,
    pub(super) expanded: u64,
    /// What this thread has not yet told the others.
    pub(super) counters: Counters,
}

impl<'a, const P: usize> DepthFirst<'a, P> {
    /// The root node of a search from the board `tiles` (its blank on `blank`), with the
    /// shape's [`neighbours`], the estimate toward `toward`'s target counting [`TABLES`] with
    /// `tables`, else `terms` ([`MANHATTAN`] or [`CONFLICTS`]); `moves` is room for the path.
    pub(super) fn new(
        tiles: &[u8],
        blank: usize,
        neighbours: &'a [[u16; 4]],
        toward: &'a Toward,
        tables: Option<&'a PdbLookup<'a>>,
        terms: u8,
        moves: usize,
    ) -> DepthFirst<'a, P> {
        let terms = if tables.is_some() { TABLES } else { terms };
        let kept = match terms {
            CONFLICTS => Kept::of::<CONFLICTS, _>(toward, tiles),
            _ => Kept::of::<MANHATTAN, _>(toward, tiles),
        };
        let positions = tables.map_or_else(Positions::default, |lookup| {
            Positions::of(lookup, tiles, tiles.len())
        });
        let kept = match tables {
            Some(lookup) => kept.with_patterns(lookup, &positions),
            None => kept,
        };
        DepthFirst {
            tiles: tiles.to_vec(),
            blank,
            neighbours,
            toward,
            tables,
            positions,
            terms,
            kept,
            path: Vec::with_capacity(moves),
            bpmx_from: 0,
            next_bound: u32::MAX,
            expanded: 0,
            counters: Counters::default(),
        }
    }

    /// Bytes the node holds: a rough figure for the budget.
    pub(super) fn memory(&self) -> usize {
        self.tiles.len() * 4 + self.neighbours.len() * 8 + self.toward.memory() + self.path.len()
    }

    /// The heuristic value here.
    #[inline(always)]
    pub(super) fn h(&self) -> u32 {
        // Only the tables add to the kept value; Manhattan's holds the conflicts when counted.
        match self.terms {
            TABLES => self.kept.value::<TABLES>(),
            _ => self.kept.value::<MANHATTAN>(),
        }
    }

    /// Whether the blank can move in direction `m`.
    pub(super) fn can_play(&self, m: u8) -> bool {
        self.neighbours[self.blank][m as usize] != NO_CELL
    }

    /// Moves the blank in direction `m` and updates the estimate; returns the estimate before,
    /// which undoes it.
    pub(super) fn play(&mut self, m: u8) -> Kept<P> {
        match self.terms {
            TABLES => self.play_of::<TABLES>(m),
            CONFLICTS => self.play_of::<CONFLICTS>(m),
            _ => self.play_of::<MANHATTAN>(m),
        }
    }

    /// Undoes the last move, given what [`DepthFirst::play`] returned for it.
    pub(super) fn unplay(&mut self, parent: Kept<P>) {
        match self.terms {
            TABLES => self.unplay_of::<TABLES>(parent),
            _ => self.unplay_of::<MANHATTAN>(parent),
        }
    }

    /// The tile on `to` slides to the blank's cell `from`, the estimate following (counting
    /// `TERMS`), the blank's cell and the path left as they were: the tile and the estimate
    /// before. The estimate's step reads the board before the slide is written, and the tile
    /// comes to the tables' step in a register: reading it back from `tiles` just written
    /// would put a store's forwarding on every node's critical path (3–4 % of IDA*'s time).
    #[inline(always)]
    fn slide<const TERMS: u8>(&mut self, m: u8, from: usize, to: usize) -> (u8, Kept<P>) {
        let tile = self.tiles[to];
        let parent = self.kept;
        self.kept = parent.slid::<TERMS, _>(self.toward, &self.tiles[..], tile, to, from, m < 2);
        self.tiles[from] = tile;
        self.tiles[to] = 0;
        if TERMS == TABLES
            && let Some(lookup) = self.tables
        {
            self.positions.moved(lookup, tile, from);
            self.kept = self.kept.repatterned(lookup, &self.positions, tile);
        }
        (tile, parent)
    }

    /// Undoes [`DepthFirst::slide`]: `tile` back on `to`, the blank on `from`, the estimate
    /// `parent`.
    #[inline(always)]
    fn slide_back<const TERMS: u8>(&mut self, tile: u8, from: usize, to: usize, parent: Kept<P>) {
        self.tiles[to] = tile;
        self.tiles[from] = 0;
        if TERMS == TABLES
            && let Some(lookup) = self.tables
        {
            self.positions.moved(lookup, tile, to);
        }
        self.kept = parent;
    }

    /// [`DepthFirst::play`] counting `TERMS`.
    #[inline(always)]
    fn play_of<const TERMS: u8>(&mut self, m: u8) -> Kept<P> {
        let from = self.blank;
        let to = self.neighbours[from][m as usize] as usize;
        let (_, parent) = self.slide::<TERMS>(m, from, to);
        self.blank = to;
        self.path.push(m);
        parent
    }

    /// [`DepthFirst::unplay`] counting `TERMS` (only [`TABLES`] has more than the estimate to
    /// put back).
    #[inline(always)]
    fn unplay_of<const TERMS: u8>(&mut self, parent: Kept<P>) {
        let Some(m) = self.path.pop() else {
            return;
        };
        let to = self.blank;
        let from = self.neighbours[to][(m ^ 1) as usize] as usize;
        let tile = self.tiles[from];
        self.slide_back::<TERMS>(tile, from, to, parent);
        self.blank = from;
    }

    /// Depth-first search below the current node, at depth `g` with heuristic `h`.
    ///
    /// Uses the CPU's population count instruction where it has one: the ranks of pattern
    /// placements and the linear conflicts count bits at every node. Compiled apart for each
    /// of the estimate's terms, so that none carries another's code (the conflicts' lines,
    /// inlined beside the tables' lookups, cost IDA* with tables 15 instructions a node in
    /// spilled registers).
    pub(super) fn search(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        h: u32,
        index: usize,
        shared: &Shared,
    ) -> Subtree {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            return match self.terms {
                TABLES => self.descend::<true, TABLES>(g, bound, last, h, index, shared),
                CONFLICTS => self.descend::<true, CONFLICTS>(g, bound, last, h, index, shared),
                _ => self.descend::<true, MANHATTAN>(g, bound, last, h, index, shared),
            };
        }
        match self.terms {
            TABLES => self.descend::<false, TABLES>(g, bound, last, h, index, shared),
            CONFLICTS => self.descend::<false, CONFLICTS>(g, bound, last, h, index, shared),
            _ => self.descend::<false, MANHATTAN>(g, bound, last, h, index, shared),
        }
    }

    /// [`DepthFirst::dfs`] compiled with the popcnt instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn dfs_popcnt<const TERMS: u8>(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        h: u32,
        index: usize,
        shared: &Shared,
    ) -> Subtree {
        self.dfs::<true, TERMS>(g, bound, last, h, index, shared)
    }

    /// [`DepthFirst::dfs`] without popcnt, as a function of its own for the recursion.
    fn dfs_plain<const TERMS: u8>(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        h: u32,
        index: usize,
        shared: &Shared,
    ) -> Subtree {
        self.dfs::<false, TERMS>(g, bound, last, h, index, shared)
    }

    /// The search below a node; `POPCNT` is true only when called from
    /// [`DepthFirst::dfs_popcnt`], whose recursion it then keeps to; `TERMS` is what the
    /// estimate counts.
    #[inline(always)]
    fn dfs<const POPCNT: bool, const TERMS: u8>(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        mut h: u32,
        index: usize,
        shared: &Shared,
    ) -> Subtree {
        self.counters.generated += 1;
        let f = g + h;
        if f > bound {
            self.next_bound = self.next_bound.min(f);
            return Subtree::NotFound;
        }
        if h == 0 {
            return Subtree::Found;
        }
        self.expanded += 1;
        self.counters.expanded += 1;
        if let Some(end) = self.look_up(index, shared) {
            return end;
        }
        let (neighbours, from) = (self.neighbours[self.blank], self.blank);
        for m in 0..4u8 {
            // Moves are U, D, L, R: each one's inverse is its index with the low bit flipped.
            if neighbours[m as usize] == NO_CELL || (last != NONE && m == (last ^ 1)) {
                continue;
            }
            let to = neighbours[m as usize] as usize;
            let (tile, parent) = self.slide::<TERMS>(m, from, to);
            let child_h = self.kept.value::<TERMS>();
            // BPMX: a child far above its parent lifts the parent (moves cost one, both ways).
            // Tables that take the least cost over the blank's places are not consistent, so
            // this happens, and it cuts the rest of the parent's children. Manhattan alone is
            // consistent: never.
            if TERMS != MANHATTAN && child_h > h + 1 && g >= self.bpmx_from {
                h = child_h - 1;
                if g + h > bound {
                    self.slide_back::<TERMS>(tile, from, to, parent);
                    self.next_bound = self.next_bound.min(g + h);
                    return Subtree::NotFound;
                }
            }
            // A child past the bound is cut here as its own search would cut it on entry,
            // without the call, the blank's move or the path's.
            let child_f = g + 1 + child_h;
            if child_f > bound {
                self.counters.generated += 1;
                self.next_bound = self.next_bound.min(child_f);
                self.slide_back::<TERMS>(tile, from, to, parent);
                continue;
            }
            self.blank = to;
            self.path.push(m);
            match self.descend::<POPCNT, TERMS>(g + 1, bound, m, child_h, index, shared) {
                Subtree::NotFound => {}
                other => return other,
            }
            self.path.pop();
            self.blank = from;
            self.slide_back::<TERMS>(tile, from, to, parent);
        }
        Subtree::NotFound
    }

    /// Every few thousand nodes, the budget and the other threads; more often, in a parallel
    /// search, whether an earlier path holds a solution (then the rest of this one is wasted
    /// work). An end to the search when there is one.
    #[inline(always)]
    fn look_up(&mut self, index: usize, shared: &Shared) -> Option<Subtree> {
        if self.counters.expanded >= self.counters.check_in {
            let memory = self.memory();
            return shared.check(&mut self.counters, memory, index);
        }
        let abandon = index != usize::MAX
            && self.counters.expanded.is_multiple_of(ABANDON_CHECK_EVERY)
            && shared.found_at.load(Ordering::Relaxed) < index;
        abandon.then_some(Subtree::Abandoned)
    }

    /// One level down, keeping to the popcnt build when in it.
    #[inline(always)]
    fn descend<const POPCNT: bool, const TERMS: u8>(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        h: u32,
        index: usize,
        shared: &Shared,
    ) -> Subtree {
        #[cfg(target_arch = "x86_64")]
        if POPCNT {
            // SAFETY: POPCNT is true only below `search`'s check that the CPU has popcnt.
            return unsafe { self.dfs_popcnt::<TERMS>(g, bound, last, h, index, shared) };
        }
        self.dfs_plain::<TERMS>(g, bound, last, h, index, shared)
    }

    /// Ready for the next bound's search from this node: no next bound yet, nothing expanded.
    pub(super) fn start_iteration(&mut self) {
        self.next_bound = u32::MAX;
        self.expanded = 0;
    }

    /// The node's counters, and the path when `subtree` found the goal (taken from the node),
    /// as one iteration's result.
    pub(super) fn iteration(&mut self, subtree: Subtree) -> Iteration {
        Iteration::ended(subtree, &mut self.path, self.next_bound, self.expanded)
    }
}
