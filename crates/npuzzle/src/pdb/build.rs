//! The backwards breadth-first build of one pattern's table.
//!
//! The abstract state is the placement of the pattern's tiles plus the region of empty cells
//! the blank is in: the other tiles are indistinguishable and their moves cost nothing, so the
//! blank roams its region for free. States are numbered by [`Layout`]: the tiles' order, the
//! cells they occupy and the blank's region, with no number unused. Each state holds two bits:
//! unseen, done, or in the layer of an even or an odd depth. The search runs layer by layer from
//! the goal: each layer is a scan over all states for those of the current depth, in blocks on
//! the rayon pool, which marks them done as it expands them; moving a pattern tile into the
//! blank's region costs one. The last layers, once the unseen states are fewer than 2.5 times
//! the current layer's, are pulled instead (see [`pull`]): each unseen state looks for a
//! neighbour in the current layer. A placement's entry is the first layer that reaches it in
//! any region, which is the least cost over all blank positions, so the tables of disjoint
//! patterns add up; only the first of a placement's states reached is recorded when its others
//! lie beside it.
//!
//! An entry holds `(cost - manhattan) / 2` of the pattern's tiles in 4 bits (the difference is
//! even; values above 15 are stored as 15, which keeps the table admissible).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

mod pull;

use super::layout::Layout;
use super::{PatternTable, PdbError, PdbEvent};
use crate::board::Shape;
use crate::packed::{pack_cells, unpack_cells};
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
    /// Its tiles' cells by their build numbers, 5 bits each (ranked only if it is unseen).
    cells: u64,
    /// Its placement's entry, if it is unseen.
    value: u8,
    /// Its place among its placement's states, see [`kin`].
    kin: u8,
}

/// A state's place among its placement's states (one a region of its combination, numbered
/// side by side from the combination's first slot): its slot's rank among them and their
/// number less one, 4 bits each. `regions` is [`Layout::regions`] of its combination.
#[inline(always)]
fn kin(slot: u32, regions: (u32, u32)) -> u8 {
    ((slot - regions.0) << 4 | (regions.1 - 1)) as u8
}

/// Whether a state just reached, its word `old` before, is the first of its placement's states
/// to be reached: none of those in its word was (those past its word are not looked at, and it
/// is taken as first: its record checks the entry). Only the first's record is needed: the
/// others' would find the entry set, by an earlier layer or by this one with the same value.
#[inline(always)]
fn first_of_kin(state: u64, old: u64, kin: u8) -> bool {
    let at = (state & 31) as u32;
    let (before, regions) = (u32::from(kin >> 4), u32::from(kin & 15) + 1);
    if before > at || at - before + regions > 32 {
        return true;
    }
    let kin = ((1u64 << (2 * regions)) - 1) << (2 * (at - before));
    old & kin == 0
}

/// A ring of the neighbours waiting to be claimed (or of a pull's states waiting for their
/// neighbours' words), oldest first.
struct Pending<T = Child> {
    ring: [T; 64],
    start: usize,
    end: usize,
}

impl<T: Copy + Default> Pending<T> {
    fn new() -> Pending<T> {
        Pending {
            ring: [T::default(); 64],
            start: 0,
            end: 0,
        }
    }

    fn len(&self) -> usize {
        self.end - self.start
    }

    /// Adds one (the caller keeps fewer than 64 waiting: [`LAG`] and a state's).
    #[inline(always)]
    fn push(&mut self, child: T) {
        self.ring[self.end % 64] = child;
        self.end += 1;
    }

    /// Takes the oldest (the caller checks there is one).
    #[inline(always)]
    fn pop(&mut self) -> T {
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
pub(crate) fn prefetch<T>(value: &T) {
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

/// The cells strictly between two cells, in the order of their numbers.
#[inline(always)]
fn between(a: u32, b: u32) -> u32 {
    let (low, high) = (a.min(b), a.max(b));
    ((1u32 << high) - 1) & !((2u32 << low) - 1)
}

/// Where a state's tiles lie: its tiles' order, the cells they occupy, the blank's region,
/// each tile's cell (all by the cells' build numbers) and their Manhattan distance.
struct Placed<const K: usize> {
    order: u64,
    occupied: u32,
    region: u32,
    positions: [u8; K],
    md: u32,
}

/// What one build shares with its workers.
struct Builder<'a> {
    layout: Layout,
    /// Manhattan distance of pattern tile `i` on a cell, by the cell's build number (see
    /// [`Snake`](super::layout::Snake)): `manhattan[i * cells + cell]`.
    manhattan: Vec<u8>,
    cells: usize,
    k: usize,
    /// Two bits a state (see [`code`]), 32 states a word.
    seen: Vec<AtomicU64>,
    /// 4 bits a placement, by its rank in the table.
    entries: Vec<AtomicU8>,
    /// Ranks the placements as the table does.
    ranker: Ranker,
    /// The cells (by build number) whose column and row add up to an odd number: a tile moved
    /// leaves or enters one of them, so a state's depth has the parity of its tiles on them ...
    dark: u32,
    /// ... and of the pattern's goal cells among them.
    goal_dark: u32,
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
    builder.search(pulls, &mut |newly| {
        placed += newly;
        events(&PdbEvent::BuildProgress {
            pattern,
            done: placed,
            total: placements,
        });
    })?;
    let table = builder.into_table(shape, tiles)?;
    events(&PdbEvent::BuildFinished {
        pattern,
        seconds: started.elapsed().as_secs_f64(),
        bytes: table.bytes() as u64,
    });
    Ok(table)
}

/// Whether the layer after one of `frontier` states is better found by pulling, with
/// `unseen` states in no layer yet: when they are fewer than two and a half times as many.
///
/// A pull looks at half the unseen states (those of the next layer's parity), a push at the
/// layer's, each for about as long. Measured on 4×4's 7-tile pattern, one thread, push against
/// pull: 2.44 s against 3.62 s at 2.7 times as many (layer 22), 2.15 s against 2.15 s at 2.0
/// (layer 23), 1.72 s against 1.28 s at 1.5; on its 8-tile pattern, 54 s against 35 s at 2.4,
/// and pulling from 3.2 on (its 25th layer, a threshold of 3.5) took it 121.3 and 121.8 s on
/// both cores against 113.9 and 115.3 s.
fn pulls(frontier: u64, unseen: u64) -> bool {
    2 * unseen < 5 * frontier
}

/// `n` values made by `value`, in huge pages where the system gives them on asking (Linux's
/// transparent huge pages in their `madvise` mode): with 4 kB pages, nearly every one of a
/// build's reads and writes at random over hundreds of megabytes misses the TLB.
pub(crate) fn in_huge_pages<T>(n: u64, value: impl Fn() -> T) -> Vec<T> {
    let mut values: Vec<T> = Vec::with_capacity(n as usize);
    advise_huge_pages(
        values.as_mut_ptr().cast(),
        values.capacity() * size_of::<T>(),
    );
    // The pages are touched only now, after the advice.
    values.extend((0..n).map(|_| value()));
    values
}

/// Asks for the whole 2 MB pages of the `bytes` from `start` to be huge ones.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    const HUGE: usize = 2 << 20;
    let begin = (start as usize).next_multiple_of(HUGE);
    let end = (start as usize + bytes) / HUGE * HUGE;
    if end > begin {
        // SAFETY: the range lies in an allocation of ours, and the advice changes no content
        // (a refusal leaves the pages as they were, so its result is not looked at).
        unsafe { libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE) };
    }
}

/// Huge pages are asked for on Linux only.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *mut u8, _: usize) {}

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
        let cell = |number: usize| usize::from(layout.snake.cell(number as u8));
        let manhattan = (tiles.iter())
            .flat_map(|&tile| (0..cells).map(move |number| (tile, number)))
            .map(|(tile, number)| shape.distance(cell(number), shape.goal_cell(tile)) as u8)
            .collect();
        let dark = (0..cells)
            .map(|number| (number, shape.column_row(cell(number))))
            .filter(|&(_, (column, row))| (column + row) % 2 == 1)
            .fold(0u32, |mask, (number, _)| mask | 1 << number);
        let goal_dark = (tiles.iter())
            .map(|&tile| layout.snake.number(shape.goal_cell(tile)))
            .filter(|&number| dark >> number & 1 == 1)
            .count() as u32;
        Builder {
            seen: in_huge_pages(layout.states().div_ceil(32), || AtomicU64::new(0)),
            entries: in_huge_pages(layout.placements().div_ceil(2), || AtomicU8::new(0xFF)),
            layout,
            ranker: Ranker::new(cells, k),
            manhattan,
            dark,
            goal_dark,
            cells,
            k,
            budget,
        }
    }

    /// Reaches the goal (every pattern tile home, the blank in its goal cell) at depth 0.
    fn start_at_goal(&self, shape: Shape, tiles: &[u8]) {
        let snake = &self.layout.snake;
        let goal: Vec<u8> = (tiles.iter())
            .map(|&t| snake.number(shape.goal_cell(t)))
            .collect();
        let occupied: u32 = goal.iter().fold(0, |m, &p| m | 1 << p);
        let combination = self.layout.combination(occupied);
        let blank = snake.number(shape.goal_cell(0));
        let slot = self.layout.slot_of(combination, u32::from(blank));
        let order = self.layout.orders.rank_order(&goal);
        self.claim(order * self.layout.slots() + u64::from(slot), code(0));
        self.record(self.table_rank(&goal), 0);
    }

    /// The table's rank of a placement, its tiles' cells given by their build numbers.
    #[inline(always)]
    fn table_rank(&self, positions: &[u8]) -> u64 {
        let mut on_board = [0u8; 32];
        for (cell, &number) in on_board.iter_mut().zip(positions) {
            *cell = self.layout.snake.cell(number);
        }
        self.ranker.rank(&on_board[..positions.len()])
    }

    /// Marks a state reached with `code`; its word before, if it was unseen.
    #[inline(always)]
    fn claim(&self, state: u64, code: u64) -> Option<u64> {
        let shift = (state & 31) * 2;
        let word = &self.seen[(state >> 5) as usize];
        // A plain load first: most states met are already known, and it spares the lock.
        if word.load(Ordering::Relaxed) >> shift & 3 != 0 {
            return None;
        }
        let old = word.fetch_or(code << shift, Ordering::Relaxed);
        (old >> shift & 3 == 0).then_some(old)
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

    /// Finds the layers one after the other from the goal's until one is empty, each by a pull
    /// if `pulls` says so of its parents and the states still unseen, else by a push (see
    /// [`pull`]), telling `reached` as [`Builder::expand_layer`] does.
    fn search(
        &self,
        pulls: fn(u64, u64) -> bool,
        reached: &mut dyn FnMut(u64),
    ) -> Result<(), PdbError> {
        // The current layer's states, and the states in no layer yet.
        let (mut frontier, mut unseen) = (1, self.layout.states() - 1);
        let mut pull = false;
        for depth in 0.. {
            // A pull leaves its parents in their layer rather than done, which only another pull
            // may follow; the unseen states fall faster than the layers anyway.
            pull = pull || pulls(frontier, unseen);
            let found = self.expand_layer(depth, pull, reached)?;
            if found == 0 {
                break;
            }
            (frontier, unseen) = (found, unseen - found);
        }
        Ok(())
    }

    /// Expands every state of layer `depth`, in blocks on the rayon pool, telling `reached`
    /// after each [`GROUP`] of blocks how many placements they reached first. How many states
    /// of the next layer it found.
    fn expand_layer(
        &self,
        depth: u32,
        pull: bool,
        reached: &mut dyn FnMut(u64),
    ) -> Result<u64, PdbError> {
        let blocks = self.layout.states().div_ceil(BLOCK);
        let mut found = 0;
        for group in (0..blocks).step_by(GROUP as usize) {
            let (states, placements) = (group..blocks.min(group + GROUP))
                .into_par_iter()
                .map(|block| {
                    self.budget.check(0, 0).map_err(PdbError::Stopped)?;
                    let mut counts = (0, 0);
                    self.expand_block(block * BLOCK, depth, pull, &mut counts);
                    Ok(counts)
                })
                .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
            found += states;
            reached(placements);
        }
        Ok(found)
    }

    /// Finds the states of layer `depth + 1` among the [`BLOCK`] from `first`, by pushing from
    /// layer `depth` or pulling from it, in a build for the pattern's number of tiles (its
    /// loops unrolled).
    fn expand_block(&self, first: u64, depth: u32, pull: bool, counts: &mut (u64, u64)) {
        macro_rules! for_tiles {
            ($($k:literal)*) => {
                match (self.k, pull) {
                    $(
                        ($k, false) => self.expand_block_of::<false, $k>(first, depth, counts),
                        ($k, true) => self.expand_block_of::<true, $k>(first, depth, counts),
                    )*
                    (k, _) => unreachable!(
                        "a table of {k} tiles: its build index would not fit 32 bits"
                    ),
                }
            };
        }
        for_tiles!(1 2 3 4 5 6 7 8 9 10 11);
    }

    /// [`Builder::expand_block`] for `K` tiles, in a popcnt and BMI2 build where the CPU has
    /// them.
    fn expand_block_of<const PULL: bool, const K: usize>(
        &self,
        first: u64,
        depth: u32,
        counts: &mut (u64, u64),
    ) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the CPU has popcnt and bmi2, as just checked.
            unsafe { self.expand_block_fast::<PULL, K>(first, depth, counts) };
            return;
        }
        // SAFETY: the portable expansion asks nothing of the CPU.
        unsafe { self.scan::<PULL, false, K>(first, depth, counts) };
    }

    /// [`Builder::expand_block_of`] compiled with the popcnt and BMI2 instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi2")]
    fn expand_block_fast<const PULL: bool, const K: usize>(
        &self,
        first: u64,
        depth: u32,
        counts: &mut (u64, u64),
    ) {
        // SAFETY: this function runs only where the CPU has BMI2 (its target feature).
        unsafe { self.scan::<PULL, true, K>(first, depth, counts) };
    }

    /// [`Builder::pull_scan`] if `PULL`, else [`Builder::push_scan`].
    ///
    /// # Safety
    ///
    /// With `BMI2` true the CPU must have BMI2 (see [`select_bit`]).
    #[inline(always)]
    unsafe fn scan<const PULL: bool, const BMI2: bool, const K: usize>(
        &self,
        first: u64,
        depth: u32,
        counts: &mut (u64, u64),
    ) {
        // SAFETY (both): this function's own promise about BMI2.
        if PULL {
            unsafe { self.pull_scan::<BMI2, K>(first, depth, counts) };
        } else {
            unsafe { self.push_scan::<BMI2, K>(first, depth, counts) };
        }
    }

    /// Finds the states of layer `depth` among the [`BLOCK`] from `first` and expands each.
    ///
    /// # Safety
    ///
    /// With `BMI2` true the CPU must have BMI2 (see [`select_bit`]).
    #[inline(always)]
    unsafe fn push_scan<const BMI2: bool, const K: usize>(
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

    /// Claims a neighbour for the next layer; if it was unseen, counts it and, if it is the
    /// first of its placement's states (see [`first_of_kin`]), passes it on to the claimed ones
    /// with its placement's rank (`rank` works it out), its entry fetched ahead of need.
    #[inline(always)]
    fn settle(&self, child: Child, rank: impl FnOnce() -> u64, work: &mut Work) {
        let Some(old) = self.claim(child.state, work.next) else {
            return;
        };
        work.counts.0 += 1;
        if first_of_kin(child.state, old, child.kin) {
            let rank = rank();
            prefetch(&self.entries[(rank >> 1) as usize]);
            work.claimed.push(Child {
                cells: rank,
                ..child
            });
        }
    }

    /// [`Builder::settle`] for a neighbour that waited, its cells packed.
    #[inline(always)]
    fn settle_waiting<const K: usize>(&self, child: Child, work: &mut Work) {
        let rank = || self.table_rank(&unpack_cells::<K>(child.cells));
        self.settle(child, rank, work);
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
        // SAFETY: this function's own promise about BMI2.
        let placed = unsafe { self.place::<BMI2, K>(state, ranks) };
        let Placed {
            order,
            occupied,
            region,
            mut positions,
            md,
        } = placed;
        for i in 0..K {
            let from = u32::from(positions[i]);
            let mut targets = layout.masks.near(from) & region;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let now_occupied = occupied ^ (1 << from) ^ (1 << to);
                let now_combination = layout.combination(now_occupied);
                let now_slot = layout.slot_of(now_combination, from);
                positions[i] = to as u8;
                // The tiles keep their order unless this one passes one of them (by the cells'
                // build numbers).
                let passed = between(from, to) & occupied;
                let now_order = if passed == 0 {
                    order
                } else {
                    layout.orders.rank_order(&positions)
                };
                let row = i * self.cells;
                let now_md = md + u32::from(self.manhattan[row + to as usize])
                    - u32::from(self.manhattan[row + from as usize]);
                let mut child = Child {
                    state: now_order * slots + u64::from(now_slot),
                    cells: 0,
                    value: ((depth + 1).saturating_sub(now_md) / 2).min(15) as u8,
                    kin: kin(now_slot, layout.regions(now_combination)),
                };
                if passed == 0 {
                    // In this order's block, which the scan has at hand.
                    self.settle(child, || self.table_rank(&positions), work);
                } else {
                    prefetch(&self.seen[(child.state >> 5) as usize]);
                    child.cells = pack_cells(&positions);
                    work.pending.push(child);
                }
                positions[i] = from as u8;
            }
        }
    }

    /// Where the tiles of `state` lie. `ranks` holds the last order unranked and its ranks of
    /// the tiles' cells among the occupied ones (the states of a block share few orders).
    ///
    /// # Safety
    ///
    /// With `BMI2` true the CPU must have BMI2 (see [`select_bit`]).
    #[inline(always)]
    unsafe fn place<const BMI2: bool, const K: usize>(
        &self,
        state: u64,
        ranks: &mut (u64, [u8; K]),
    ) -> Placed<K> {
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
        Placed {
            order,
            occupied,
            region,
            positions,
            md,
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

    /// The small shapes and patterns the builds are checked on.
    fn small_patterns() -> Vec<(Shape, Vec<u8>)> {
        let shape = |w, h| Shape::new(w, h).unwrap();
        vec![
            (shape(3, 3), vec![1, 2, 3, 4]),
            (shape(3, 3), vec![2, 5, 8]),
            (shape(3, 3), vec![1, 2, 3, 4, 5, 6, 7, 8]),
            (shape(4, 3), vec![1, 2, 5, 6, 9]),
            (shape(2, 4), vec![3, 4, 5, 6, 7]),
            (shape(5, 2), vec![1]),
        ]
    }

    /// Checks a table against [`by_brute_force`].
    fn check(table: &PatternTable, shape: Shape, tiles: &[u8], how: &str) {
        let truth = by_brute_force(shape, tiles);
        for (rank, &expected) in truth.iter().enumerate() {
            let excess = table.excess(rank as u64);
            assert_eq!(excess, expected, "{how}: {shape} {tiles:?} {rank}");
        }
    }

    #[test]
    fn the_build_agrees_with_a_brute_force_search() {
        for (shape, tiles) in small_patterns() {
            // What the memory cap is checked against is what a build holds.
            let budget = Budget::default();
            let builder = Builder::new(shape, &tiles, &budget);
            let held = builder.seen.len() * 8 + builder.entries.len();
            assert!(held.abs_diff(build_memory(shape, tiles.len()) as usize) < 8);
            let table = build_table(shape, &tiles, 0, &Budget::default(), &|_| {}).unwrap();
            check(&table, shape, &tiles, "the build");
        }
    }

    /// Every layer pushed, and every layer pulled (from the goal's on, each after a pull): the
    /// build's own choice pushes the first layers and pulls the last.
    #[test]
    fn pushing_and_pulling_give_the_same_tables() {
        let never: fn(u64, u64) -> bool = |_, _| false;
        let always: fn(u64, u64) -> bool = |_, _| true;
        for (shape, tiles) in small_patterns() {
            for (pulls, how) in [(never, "pushed"), (always, "pulled")] {
                let budget = Budget::default();
                let builder = Builder::new(shape, &tiles, &budget);
                builder.start_at_goal(shape, &tiles);
                builder.search(pulls, &mut |_| {}).unwrap();
                let table = builder.into_table(shape, &tiles).unwrap();
                check(&table, shape, &tiles, how);
            }
        }
    }
}
