//! The depth-first search of one bound: the board in fixed arrays that a move updates and its
//! undo restores (nothing is allocated per node), the heuristic's terms beside it (any
//! [`KeptTerms`]: toward the goal with or without tables, or Manhattan toward any board), the
//! path, and the counters the budget reads.

use std::sync::atomic::Ordering;

use super::Iteration;
use super::shared::{Counters, Shared, Subtree};
use super::terms::KeptTerms;
use crate::board::{Move, Shape};

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

/// Where a depth-first search stands: tiles, blank, heuristic terms, the path from the root, and
/// its counters.
#[derive(Clone)]
pub(super) struct DepthFirst<'a, T> {
    tiles: Vec<u8>,
    blank: usize,
    /// The neighbour of each cell in each direction (U, D, L, R), or `NO_CELL`: see
    /// [`neighbours`].
    neighbours: &'a [[u16; 4]],
    terms: T,
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

impl<'a, T: KeptTerms> DepthFirst<'a, T> {
    /// The root node of a search from the board `tiles` (its blank on `blank`), with the
    /// shape's [`neighbours`] and the board's terms; `moves` is room for the path.
    pub(super) fn new(
        tiles: &[u8],
        blank: usize,
        neighbours: &'a [[u16; 4]],
        terms: T,
        moves: usize,
    ) -> DepthFirst<'a, T> {
        DepthFirst {
            tiles: tiles.to_vec(),
            blank,
            neighbours,
            terms,
            path: Vec::with_capacity(moves),
            bpmx_from: 0,
            next_bound: u32::MAX,
            expanded: 0,
            counters: Counters::default(),
        }
    }

    /// Bytes the node holds: a rough figure for the budget.
    pub(super) fn memory(&self) -> usize {
        self.tiles.len() * 4 + self.neighbours.len() * 8 + self.terms.memory() + self.path.len()
    }

    /// The heuristic value here.
    #[inline(always)]
    pub(super) fn h(&self) -> u32 {
        self.terms.h()
    }

    /// Whether the blank can move in direction `m`.
    pub(super) fn can_play(&self, m: u8) -> bool {
        self.neighbours[self.blank][m as usize] != NO_CELL
    }

    /// Moves the blank in direction `m` and updates the heuristic terms; returns what undoes it.
    pub(super) fn play(&mut self, m: u8) -> T::Undo {
        match self.terms.has_tables() {
            true => self.play_of::<true>(m),
            false => self.play_of::<false>(m),
        }
    }

    /// Undoes the last move, given what [`DepthFirst::play`] returned for it.
    pub(super) fn unplay(&mut self, undo: T::Undo) {
        match self.terms.has_tables() {
            true => self.unplay_of::<true>(undo),
            false => self.unplay_of::<false>(undo),
        }
    }

    /// The tile on `to` slides to the blank's cell `from`, the terms following (in the build
    /// `TABLES`), the blank's cell and the path left as they were: the tile and what undoes it.
    #[inline(always)]
    fn slide<const TABLES: bool>(&mut self, m: u8, from: usize, to: usize) -> (u8, T::Undo) {
        let tile = self.tiles[to];
        self.tiles[from] = tile;
        self.tiles[to] = 0;
        (
            tile,
            self.terms.moved::<TABLES>(&self.tiles, tile, m, from, to),
        )
    }

    /// Undoes [`DepthFirst::slide`]: `tile` back on `to`, the blank on `from`.
    #[inline(always)]
    fn slide_back<const TABLES: bool>(&mut self, tile: u8, from: usize, to: usize, undo: T::Undo) {
        self.tiles[to] = tile;
        self.tiles[from] = 0;
        self.terms.restore::<TABLES>(tile, to, undo);
    }

    /// [`DepthFirst::play`] with the terms of [`KeptTerms::h_of`]'s `TABLES`.
    #[inline(always)]
    fn play_of<const TABLES: bool>(&mut self, m: u8) -> T::Undo {
        let from = self.blank;
        let to = self.neighbours[from][m as usize] as usize;
        let (_, undo) = self.slide::<TABLES>(m, from, to);
        self.blank = to;
        self.path.push(m);
        undo
    }

    /// [`DepthFirst::unplay`] with the terms of [`KeptTerms::h_of`]'s `TABLES`.
    #[inline(always)]
    fn unplay_of<const TABLES: bool>(&mut self, undo: T::Undo) {
        let Some(m) = self.path.pop() else {
            return;
        };
        let to = self.blank;
        let from = self.neighbours[to][(m ^ 1) as usize] as usize;
        let tile = self.tiles[from];
        self.slide_back::<TABLES>(tile, from, to, undo);
        self.blank = from;
    }

    /// Depth-first search below the current node, at depth `g` with heuristic `h`.
    ///
    /// Uses the CPU's population count instruction where it has one: the ranks of pattern
    /// placements and the linear conflicts count bits at every node. Compiled apart with
    /// tables and without (see [`KeptTerms::h_of`]).
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
            return match self.terms.has_tables() {
                true => self.descend::<true, true>(g, bound, last, h, index, shared),
                false => self.descend::<true, false>(g, bound, last, h, index, shared),
            };
        }
        match self.terms.has_tables() {
            true => self.descend::<false, true>(g, bound, last, h, index, shared),
            false => self.descend::<false, false>(g, bound, last, h, index, shared),
        }
    }

    /// [`DepthFirst::dfs`] compiled with the popcnt instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn dfs_popcnt<const TABLES: bool>(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        h: u32,
        index: usize,
        shared: &Shared,
    ) -> Subtree {
        self.dfs::<true, TABLES>(g, bound, last, h, index, shared)
    }

    /// [`DepthFirst::dfs`] without popcnt, as a function of its own for the recursion.
    fn dfs_plain<const TABLES: bool>(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        h: u32,
        index: usize,
        shared: &Shared,
    ) -> Subtree {
        self.dfs::<false, TABLES>(g, bound, last, h, index, shared)
    }

    /// The search below a node; `POPCNT` is true only when called from
    /// [`DepthFirst::dfs_popcnt`], whose recursion it then keeps to; `TABLES` is
    /// [`KeptTerms::has_tables`].
    #[inline(always)]
    fn dfs<const POPCNT: bool, const TABLES: bool>(
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
            let (tile, undo) = self.slide::<TABLES>(m, from, to);
            let child_h = self.terms.h_of::<TABLES>();
            // BPMX: a child far above its parent lifts the parent (moves cost one, both ways).
            // Tables that take the least cost over the blank's places are not consistent, so
            // this happens, and it cuts the rest of the parent's children.
            if !T::CONSISTENT && child_h > h + 1 && g >= self.bpmx_from {
                h = child_h - 1;
                if g + h > bound {
                    self.slide_back::<TABLES>(tile, from, to, undo);
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
                self.slide_back::<TABLES>(tile, from, to, undo);
                continue;
            }
            self.blank = to;
            self.path.push(m);
            match self.descend::<POPCNT, TABLES>(g + 1, bound, m, child_h, index, shared) {
                Subtree::NotFound => {}
                other => return other,
            }
            self.path.pop();
            self.blank = from;
            self.slide_back::<TABLES>(tile, from, to, undo);
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
    fn descend<const POPCNT: bool, const TABLES: bool>(
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
            return unsafe { self.dfs_popcnt::<TABLES>(g, bound, last, h, index, shared) };
        }
        self.dfs_plain::<TABLES>(g, bound, last, h, index, shared)
    }

    /// Ready for the next bound's search from this node: no next bound yet, nothing expanded.
    pub(super) fn start_iteration(&mut self) {
        self.next_bound = u32::MAX;
        self.expanded = 0;
    }

    /// The node's counters, and the path when `subtree` found the goal (taken from the node),
    /// as one iteration's result.
    pub(super) fn iteration(&mut self, subtree: Subtree) -> Iteration {
        let found = matches!(subtree, Subtree::Found);
        Iteration {
            moves: found.then(|| std::mem::take(&mut self.path)),
            next_bound: self.next_bound,
            stop: match subtree {
                Subtree::Stop(reason) => Some(reason),
                _ => None,
            },
            expanded: self.expanded,
        }
    }
}
