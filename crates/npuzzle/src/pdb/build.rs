//! The backwards breadth-first build of one pattern's table.
//!
//! The abstract state is the placement of the pattern's tiles plus the region of empty cells
//! the blank is in: the other tiles are indistinguishable and their moves cost nothing, so the
//! blank roams its region for free. States are numbered by [`Layout`]: the tiles' order, the
//! cells they occupy and the blank's region, with no number unused. Each state holds two bits:
//! unseen, done, or in the layer of an even or an odd depth. The search runs layer by layer from
//! the goal: each layer is a scan over all states for those of the current depth, in blocks on
//! the rayon pool, which marks them done as it expands them; moving a pattern tile into the
//! blank's region costs one. A placement's entry is the first layer
//! that reaches it in any region, which is the least cost over all blank positions, so the
//! tables of disjoint patterns add up.
//!
//! An entry holds `(cost - manhattan) / 2` of the pattern's tiles in 4 bits (the difference is
//! even; values above 15 are stored as 15, which keeps the table admissible).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::layout::Layout;
use super::{PatternTable, PdbError, PdbEvent};
use crate::board::Shape;
use crate::rank::{Ranker, select_bit};
use crate::search::budget::Budget;

/// States scanned by one worker at a time (a multiple of 64, so blocks share no entry byte).
const BLOCK: u64 = 1 << 16;
/// Blocks between two progress reports (about 16 M states).
const GROUP: u64 = 256;
/// Every state's two bits set to `01`: a depth's code times this is that code in every state.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// The two-bit code of a state in the layer of `depth`: `10` or `11` by its parity (`00` is
/// unseen and `01` done).
fn code(depth: u32) -> u64 {
    2 + u64::from(depth & 1)
}

/// Neighbours found and not yet claimed, at most: enough of them for their words to arrive from
/// memory before they are read.
const LAG: usize = 24;

/// A neighbour of an expanded state, waiting to be claimed.
#[derive(Clone, Copy, Default)]
struct Child {
    state: u64,
    /// Its tiles' cells, 5 bits each (ranked only if it is unseen).
    cells: u64,
    /// Its placement's entry, if it is unseen.
    value: u8,
}

/// A ring of the neighbours waiting to be claimed, oldest first.
struct Pending {
    ring: [Child; 64],
    start: usize,
    end: usize,
}

impl Pending {
    fn new() -> Pending {
        Pending {
            ring: [Child::default(); 64],
            start: 0,
            end: 0,
        }
    }

    fn len(&self) -> usize {
        self.end - self.start
    }

    /// Adds a neighbour (the caller keeps fewer than 64 waiting: [`LAG`] and a state's).
    #[inline(always)]
    fn push(&mut self, child: Child) {
        self.ring[self.end % 64] = child;
        self.end += 1;
    }

    /// Takes the oldest neighbour (the caller checks there is one).
    #[inline(always)]
    fn pop(&mut self) -> Child {
        let child = self.ring[self.start % 64];
        self.start += 1;
        child
    }
}

/// What a worker's scan of a block keeps: the neighbours waiting to be claimed, those claimed
/// waiting to be recorded, the next layer's code, and the counts of states claimed and
/// placements first reached.
struct Work {
    pending: Pending,
    claimed: Pending,
    next: u64,
    counts: (u64, u64),
}

/// Asks for a value's cache line ahead of its use.
#[inline(always)]
fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints the cache; any address is allowed.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            std::ptr::from_ref(value).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Tiles' cells packed 5 bits each (at most 12 tiles: a table's build index fits 32 bits).
#[inline(always)]
fn pack(positions: &[u8]) -> u64 {
    (positions.iter().rev()).fold(0, |packed, &p| packed << 5 | u64::from(p))
}

/// The cells of `K` tiles [`pack`] packed.
#[inline(always)]
fn unpack<const K: usize>(packed: u64) -> [u8; K] {
    std::array::from_fn(|i| (packed >> (5 * i) & 31) as u8)
}

/// The cells strictly between two cells, in the order of their numbers.
#[inline(always)]
fn between(a: u32, b: u32) -> u32 {
    let (low, high) = (a.min(b), a.max(b));
    ((1u32 << high) - 1) & !((2u32 << low) - 1)
}

/// What one build shares with its workers.
struct Builder<'a> {
    layout: Layout,
    /// Manhattan distance of pattern tile `i` on `cell`: `manhattan[i * cells + cell]`.
    manhattan: Vec<u8>,
    cells: usize,
    k: usize,
    /// Two bits a state (see [`code`]), 32 states a word.
    seen: Vec<AtomicU64>,
    /// 4 bits a placement, by its rank in the table.
    entries: Vec<AtomicU8>,
    /// Ranks the placements as the table does.
    ranker: Ranker,
    budget: &'a Budget,
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
    let placements = builder.layout.placements();
    events(&PdbEvent::BuildStarted {
        pattern,
        tiles: tiles.to_vec(),
        entries: placements,
    });
    builder.start_at_goal(shape, tiles);
    let mut placed = 1u64;
    let mut depth = 0u32;
    loop {
        let found = builder.expand_layer(depth, &mut |newly| {
            placed += newly;
            events(&PdbEvent::BuildProgress {
                pattern,
                done: placed,
                total: placements,
            });
        })?;
        if found == 0 {
            break;
        }
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

/// The bytes a build of `k` tiles on a board of `shape` holds at its peak: the two bits of
/// each state and the table (7-8's 8-tile pattern: 615 MB, measured 604 MB). For the budget's
/// memory cap.
pub fn build_memory(shape: Shape, k: usize) -> u64 {
    let layout = Layout::new(shape, k);
    layout.states().div_ceil(4) + layout.placements().div_ceil(2)
}

impl<'a> Builder<'a> {
    /// Nothing reached yet, for the pattern `tiles` on `shape`.
    fn new(shape: Shape, tiles: &[u8], budget: &'a Budget) -> Builder<'a> {
        let cells = shape.cells();
        let k = tiles.len();
        let layout = Layout::new(shape, k);
        let manhattan = (tiles.iter())
            .flat_map(|&tile| (0..cells).map(move |cell| (tile, cell)))
            .map(|(tile, cell)| shape.distance(cell, shape.goal_cell(tile)) as u8)
            .collect();
        Builder {
            seen: (0..layout.states().div_ceil(32))
                .map(|_| AtomicU64::new(0))
                .collect(),
            entries: (0..layout.placements().div_ceil(2))
                .map(|_| AtomicU8::new(0xFF))
                .collect(),
            layout,
            ranker: Ranker::new(cells, k),
            manhattan,
            cells,
            k,
            budget,
        }
    }

    /// Reaches the goal (every pattern tile home, the blank in its goal cell) at depth 0.
    fn start_at_goal(&self, shape: Shape, tiles: &[u8]) {
        let goal: Vec<u8> = tiles.iter().map(|&t| shape.goal_cell(t) as u8).collect();
        let occupied: u32 = goal.iter().fold(0, |m, &p| m | 1 << p);
        let combination = self.layout.combination(occupied);
        let slot = self.layout.slot_of(combination, shape.goal_cell(0) as u32);
        let order = self.layout.order(&goal);
        self.claim(order * self.layout.slots() + u64::from(slot), code(0));
        self.record(self.ranker.rank(&goal), 0);
    }

    /// Marks a state reached with `code`; true if it was unseen.
    #[inline(always)]
    fn claim(&self, state: u64, code: u64) -> bool {
        let shift = (state & 31) * 2;
        let word = &self.seen[(state >> 5) as usize];
        // A plain load first: most states met are already known, and it spares the lock.
        word.load(Ordering::Relaxed) >> shift & 3 == 0
            && word.fetch_or(code << shift, Ordering::Relaxed) >> shift & 3 == 0
    }

    /// Sets the entry of the placement of `rank` to `value` if it is unset; true if it was.
    /// The first layer that reaches a placement gives its least value, and every state of a
    /// layer that reaches it gives the same (its depth less its Manhattan distance), so a set
    /// entry is never lowered.
    #[inline(always)]
    fn record(&self, rank: u64, value: u8) -> bool {
        let shift = (rank & 1) * 4;
        let byte = &self.entries[(rank >> 1) as usize];
        // 15 is what an unset entry holds already.
        if value == 0xF || (byte.load(Ordering::Relaxed) >> shift) & 0xF != 0xF {
            return false;
        }
        let old = byte.fetch_and(!(0xF << shift) | (value << shift), Ordering::Relaxed);
        (old >> shift) & 0xF == 0xF
    }

    /// Expands every state of layer `depth`, in blocks on the rayon pool, telling `reached`
    /// after each [`GROUP`] of blocks how many placements they reached first. How many states
    /// of the next layer it found.
    fn expand_layer(&self, depth: u32, reached: &mut dyn FnMut(u64)) -> Result<u64, PdbError> {
        let blocks = self.layout.states().div_ceil(BLOCK);
        let mut found = 0;
        for group in (0..blocks).step_by(GROUP as usize) {
            let (states, placements) = (group..blocks.min(group + GROUP))
                .into_par_iter()
                .map(|block| {
                    self.budget.check(0, 0).map_err(PdbError::Stopped)?;
                    let mut counts = (0, 0);
                    self.expand_block(block * BLOCK, depth, &mut counts);
                    Ok(counts)
                })
                .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
            found += states;
            reached(placements);
        }
        Ok(found)
    }

    /// Expands the states of layer `depth` among the [`BLOCK`] from `first`, in a build for the
    /// pattern's number of tiles (its loops unrolled).
    fn expand_block(&self, first: u64, depth: u32, counts: &mut (u64, u64)) {
        macro_rules! for_tiles {
            ($($k:literal)*) => {
                match self.k {
                    $($k => self.expand_block_of::<$k>(first, depth, counts),)*
                    k => unreachable!("a table of {k} tiles: its build index would not fit 32 bits"),
                }
            };
        }
        for_tiles!(1 2 3 4 5 6 7 8 9 10 11);
    }

    /// [`Builder::expand_block`] for `K` tiles, in a popcnt and BMI2 build where the CPU has
    /// them.
    fn expand_block_of<const K: usize>(&self, first: u64, depth: u32, counts: &mut (u64, u64)) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the CPU has popcnt and bmi2, as just checked.
            unsafe { self.expand_block_fast::<K>(first, depth, counts) };
            return;
        }
        // SAFETY: the portable expansion asks nothing of the CPU.
        unsafe { self.scan::<false, K>(first, depth, counts) };
    }

    /// [`Builder::expand_block_of`] compiled with the popcnt and BMI2 instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi2")]
    fn expand_block_fast<const K: usize>(&self, first: u64, depth: u32, counts: &mut (u64, u64)) {
        // SAFETY: this function runs only where the CPU has BMI2 (its target feature).
        unsafe { self.scan::<true, K>(first, depth, counts) };
    }

    /// Finds the states of layer `depth` among the [`BLOCK`] from `first` and expands each.
    ///
    /// # Safety
    ///
    /// With `BMI2` true the CPU must have BMI2 (see [`select_bit`]).
    #[inline(always)]
    unsafe fn scan<const BMI2: bool, const K: usize>(
        &self,
        first: u64,
        depth: u32,
        counts: &mut (u64, u64),
    ) {
        let wanted = code(depth) * LOW_BITS;
        let words = (first / 32)..((first + BLOCK) / 32).min(self.seen.len() as u64);
        // What turns the layer's code into done's, `01`.
        let done = code(depth) ^ 1;
        let mut work = Work {
            pending: Pending::new(),
            claimed: Pending::new(),
            next: code(depth + 1),
            counts: (0, 0),
        };
        // The states of a block share few orders: each is unranked once.
        let mut ranks = (u64::MAX, [0u8; K]);
        for w in words {
            let word = &self.seen[w as usize];
            let differs = word.load(Ordering::Relaxed) ^ wanted;
            // A state's low bit in `matching` is set where both its bits equal the code.
            let mut matching = !(differs | differs >> 1) & LOW_BITS;
            if matching == 0 {
                continue;
            }
            // Only this worker changes these states (the others claim only unseen ones).
            word.fetch_xor(matching * done, Ordering::Relaxed);
            while matching != 0 {
                let state = w * 32 + u64::from(matching.trailing_zeros() / 2);
                matching &= matching - 1;
                // SAFETY: this function's own promise about BMI2.
                unsafe { self.expand::<BMI2, K>(state, depth, &mut ranks, &mut work) };
                while work.pending.len() > LAG {
                    let child = work.pending.pop();
                    self.settle_waiting::<K>(child, &mut work);
                }
                while work.claimed.len() > LAG / 2 {
                    let child = work.claimed.pop();
                    self.record_child(child, &mut work.counts);
                }
            }
        }
        while work.pending.len() > 0 {
            let child = work.pending.pop();
            self.settle_waiting::<K>(child, &mut work);
        }
        while work.claimed.len() > 0 {
            let child = work.claimed.pop();
            self.record_child(child, &mut work.counts);
        }
        counts.0 += work.counts.0;
        counts.1 += work.counts.1;
    }

    /// Claims a neighbour for the next layer; if it was unseen, counts it and passes it on to
    /// the claimed ones with its placement's rank (`rank` works it out), its entry fetched
    /// ahead of need.
    #[inline(always)]
    fn settle(&self, state: u64, value: u8, rank: impl FnOnce() -> u64, work: &mut Work) {
        if self.claim(state, work.next) {
            work.counts.0 += 1;
            let rank = rank();
            prefetch(&self.entries[(rank >> 1) as usize]);
            work.claimed.push(Child {
                state,
                cells: rank,
                value,
            });
        }
    }

    /// [`Builder::settle`] for a neighbour that waited, its cells packed.
    #[inline(always)]
    fn settle_waiting<const K: usize>(&self, child: Child, work: &mut Work) {
        let rank = || self.ranker.rank(&unpack::<K>(child.cells));
        self.settle(child.state, child.value, rank, work);
    }

    /// Records a newly reached neighbour's placement (its `cells` replaced by its placement's
    /// rank); counts it if it was first.
    #[inline(always)]
    fn record_child(&self, child: Child, counts: &mut (u64, u64)) {
        if self.record(child.cells, child.value) {
            counts.1 += 1;
        }
    }

    /// Expands one state of layer `depth`: its neighbours in the same order's block are claimed
    /// at once, the others wait in `work`, their words fetched ahead of need. `ranks` holds the
    /// last order unranked and its ranks of the tiles' cells among the occupied ones.
    ///
    /// # Safety
    ///
    /// With `BMI2` true the CPU must have BMI2 (see [`select_bit`]).
    #[inline(always)]
    unsafe fn expand<const BMI2: bool, const K: usize>(
        &self,
        state: u64,
        depth: u32,
        ranks: &mut (u64, [u8; K]),
        work: &mut Work,
    ) {
        let layout = &self.layout;
        let slots = layout.slots();
        let (order, slot) = (state / slots, (state % slots) as u32);
        let (combination, region) = layout.slot(slot);
        let occupied = layout.occupied(combination);
        // SAFETY (both): this function's own promise about BMI2.
        let select = |mask, n| unsafe { select_bit::<BMI2>(mask, n) };
        if ranks.0 != order {
            layout.orders.unrank_with(order, &mut ranks.1, select);
            ranks.0 = order;
        }
        let mut positions = [0u8; K];
        for (p, &rank) in positions.iter_mut().zip(&ranks.1) {
            *p = select(occupied, u32::from(rank)) as u8;
        }
        let mut md: u32 = 0;
        for (i, &p) in positions.iter().enumerate() {
            md += u32::from(self.manhattan[i * self.cells + p as usize]);
        }
        for i in 0..K {
            let from = u32::from(positions[i]);
            let mut targets = layout.masks.around(1 << from) & region;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let now_occupied = occupied ^ (1 << from) ^ (1 << to);
                let now_combination = layout.combination(now_occupied);
                let now_slot = layout.slot_of(now_combination, from);
                positions[i] = to as u8;
                // The tiles keep their order unless this one passes one of them (in cell order).
                let passed = between(from, to) & occupied;
                let now_order = if passed == 0 {
                    order
                } else {
                    layout.order(&positions)
                };
                let row = i * self.cells;
                let now_md = md + u32::from(self.manhattan[row + to as usize])
                    - u32::from(self.manhattan[row + from as usize]);
                let state = now_order * slots + u64::from(now_slot);
                let value = ((depth + 1).saturating_sub(now_md) / 2).min(15) as u8;
                if passed == 0 {
                    // In this order's block, which the scan has at hand.
                    self.settle(state, value, || self.ranker.rank(&positions), work);
                } else {
                    prefetch(&self.seen[(state >> 5) as usize]);
                    work.pending.push(Child {
                        state,
                        cells: pack(&positions),
                        value,
                    });
                }
                positions[i] = from as u8;
            }
        }
    }

    /// The finished table (the states are dropped first).
    fn into_table(self, shape: Shape, tiles: &[u8]) -> Result<PatternTable, PdbError> {
        drop(self.seen);
        let data = (self.entries.into_iter())
            .map(AtomicU8::into_inner)
            .collect();
        PatternTable::from_parts(shape, tiles.to_vec(), data)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;

    /// A pattern's table the plain way: a 0-1 breadth-first search over the tiles' cells and
    /// the blank's (a move of a pattern tile costs one, of any other none), the least cost of
    /// each placement over the blank's cells, as the half-excess over Manhattan.
    fn by_brute_force(shape: Shape, tiles: &[u8]) -> Vec<u8> {
        let cells = shape.cells();
        let ranker = Ranker::new(cells, tiles.len());
        let state =
            |positions: &[u8], blank: usize| ranker.rank(positions) as usize * cells + blank;
        let mut cost = vec![u32::MAX; ranker.len() as usize * cells];
        let goal: Vec<u8> = tiles.iter().map(|&t| shape.goal_cell(t) as u8).collect();
        let mut queue = VecDeque::from([(goal.clone(), shape.goal_cell(0), 0u32)]);
        cost[state(&goal, shape.goal_cell(0))] = 0;
        while let Some((positions, blank, at)) = queue.pop_front() {
            if at > cost[state(&positions, blank)] {
                continue;
            }
            for next in (0..cells).filter(|&c| shape.distance(c, blank) == 1) {
                let mut moved = positions.clone();
                let tile = moved.iter().position(|&p| usize::from(p) == next);
                if let Some(i) = tile {
                    moved[i] = blank as u8;
                }
                let step = u32::from(tile.is_some());
                let entry = &mut cost[state(&moved, next)];
                if at + step < *entry {
                    *entry = at + step;
                    match step {
                        0 => queue.push_front((moved, next, at)),
                        _ => queue.push_back((moved, next, at + 1)),
                    }
                }
            }
        }
        let mut positions = vec![0u8; tiles.len()];
        (0..ranker.len())
            .map(|rank| {
                ranker.unrank(rank, &mut positions);
                let least = (0..cells)
                    .map(|b| cost[rank as usize * cells + b])
                    .min()
                    .unwrap();
                let md: usize = (tiles.iter().zip(&positions))
                    .map(|(&t, &p)| shape.distance(usize::from(p), shape.goal_cell(t)))
                    .sum();
                ((least as usize - md) / 2).min(15) as u8
            })
            .collect()
    }

    #[test]
    fn the_build_agrees_with_a_brute_force_search() {
        let shape = |w, h| Shape::new(w, h).unwrap();
        for (shape, tiles) in [
            (shape(3, 3), vec![1, 2, 3, 4]),
            (shape(3, 3), vec![2, 5, 8]),
            (shape(3, 3), vec![1, 2, 3, 4, 5, 6, 7, 8]),
            (shape(4, 3), vec![1, 2, 5, 6, 9]),
            (shape(2, 4), vec![3, 4, 5, 6, 7]),
            (shape(5, 2), vec![1]),
        ] {
            // What the memory cap is checked against is what a build holds.
            let budget = Budget::default();
            let builder = Builder::new(shape, &tiles, &budget);
            let held = builder.seen.len() * 8 + builder.entries.len();
            assert!(held.abs_diff(build_memory(shape, tiles.len()) as usize) < 8);
            let table = build_table(shape, &tiles, 0, &Budget::default(), &|_| {}).unwrap();
            let truth = by_brute_force(shape, &tiles);
            for (rank, &expected) in truth.iter().enumerate() {
                assert_eq!(
                    table.excess(rank as u64),
                    expected,
                    "{shape} {tiles:?} {rank}"
                );
            }
        }
    }
}
