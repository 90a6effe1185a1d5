//! The pull scan: the next layer found from the unseen states, for the late layers, when the
//! unseen states are fewer than the current layer's.
//!
//! Moves are reversible (a tile moved back into the blank's region undoes the move), so the
//! states a state reaches in one move are those that reach it: an unseen state is in layer
//! `depth + 1` exactly when one of its neighbours is in layer `depth`. A state's depth has the
//! parity of its tiles' Manhattan distance (each move changes that by one), so only the unseen
//! states of the next layer's parity look at their neighbours. Each looks first at those in its
//! order's block, at hand, and stops at the first in the layer; if none is, it waits for the
//! words of its others, fetched ahead of need, as a push's neighbours do.
//!
//! A pull writes only the states of its own block, so the workers share no write. It leaves the
//! layer of `depth` as it is, and the next pull's layer takes that layer's code: a neighbour of
//! an unseen state is in no layer before `depth`, so the layers of a code before the last are
//! never mistaken for it.

use std::sync::atomic::Ordering;

use super::{
    BLOCK, Builder, Child, LAG, LOW_BITS, Pending, Placed, between, code, first_of_kin, kin,
    prefetch,
};
use crate::packed::{pack_cells, unpack_cells};

/// The most neighbours of a state in other orders' blocks: a tile passes another only along a
/// column, up or down, and a pattern has at most 12 tiles.
const MOST_FAR: usize = 24;

/// An unseen state none of whose neighbours in its order's block is in the layer, waiting for
/// the words of the others.
#[derive(Clone, Copy, Default)]
struct Waiting {
    /// The state, its tiles' cells and its placement's entry, to claim if it is reached.
    child: Child,
    /// Its neighbours in other orders' blocks.
    far: [u64; MOST_FAR],
    fars: usize,
}

/// What a worker's pull of a block keeps: the states waiting, those reached waiting to be
/// recorded, the layer's code and the next's, and the counts of states reached and placements
/// first reached.
struct Pull {
    waiting: Pending<Waiting>,
    claimed: Pending,
    layer: u64,
    next: u64,
    counts: (u64, u64),
}

impl Builder<'_> {
    /// Puts in layer `depth + 1` the unseen states among the [`BLOCK`] from `first` that have a
    /// neighbour in layer `depth`. Adds to `counts` the states put in the layer and the
    /// placements first reached.
    ///
    /// # Safety
    ///
    /// With `BMI2` true the CPU must have BMI2 (see [`select_bit`](crate::rank::select_bit)).
    #[inline(always)]
    pub(super) unsafe fn pull_scan<const BMI2: bool, const K: usize>(
        &self,
        first: u64,
        depth: u32,
        counts: &mut (u64, u64),
    ) {
        let (states, slots) = (self.layout.states(), self.layout.slots());
        let words = (first / 32)..((first + BLOCK) / 32).min(self.seen.len() as u64);
        let mut ranks = (u64::MAX, [0u8; K]);
        let mut pull = Pull {
            waiting: Pending::new(),
            claimed: Pending::new(),
            layer: code(depth),
            next: code(depth + 1),
            counts: (0, 0),
        };
        for w in words {
            let word = &self.seen[w as usize];
            let old = word.load(Ordering::Relaxed);
            // The last word's states past the last are not states.
            let past = (w * 32 + 32).saturating_sub(states);
            let mut unseen = !(old | old >> 1) & LOW_BITS & (u64::MAX >> (2 * past));
            let mut reached = 0;
            let mut slot = w * 32 % slots;
            let mut at = 0;
            while unseen != 0 {
                let next_at = u64::from(unseen.trailing_zeros() / 2);
                unseen &= unseen - 1;
                // The slot of the state at `next_at`, from the last one's.
                slot += next_at - at;
                at = next_at;
                while slot >= slots {
                    slot -= slots;
                }
                let combination = self.layout.slot(slot as u32).0;
                if self.parity(combination) != (depth + 1) & 1 {
                    continue;
                }
                let child = Child {
                    state: w * 32 + at,
                    cells: 0,
                    value: 0,
                    kin: kin(slot as u32, self.layout.regions(combination)),
                };
                // SAFETY: this function's own promise about BMI2.
                if unsafe {
                    self.pull::<BMI2, K>(child, depth, old | reached, &mut ranks, &mut pull)
                } {
                    reached |= 1 << (2 * at);
                }
            }
            if reached != 0 {
                // Not a store: the states waiting may have reached some of this word's since.
                word.fetch_or(reached * pull.next, Ordering::Relaxed);
            }
        }
        while pull.waiting.len() > 0 {
            let waiting = pull.waiting.pop();
            self.resolve::<K>(waiting, &mut pull);
        }
        while pull.claimed.len() > 0 {
            self.record_child(pull.claimed.pop(), &mut pull.counts);
        }
        counts.0 += pull.counts.0;
        counts.1 += pull.counts.1;
    }

    /// The parity of the Manhattan distance of a combination's states (which is their depth's).
    #[inline(always)]
    fn parity(&self, combination: u32) -> u32 {
        let occupied = self.layout.occupied(combination);
        ((occupied & self.dark).count_ones() + self.goal_dark) & 1
    }

    /// Pulls an unseen state (`child`, its cells and entry to be filled in), of the next layer's
    /// parity: true if a neighbour in its order's block puts it in the next layer; else it
    /// waits for its others, if any. `word` is its word as the scan knows it, and `ranks` is
    /// [`Builder::place`]'s.
    ///
    /// # Safety
    ///
    /// With `BMI2` true the CPU must have BMI2 (see [`select_bit`](crate::rank::select_bit)).
    #[inline(always)]
    unsafe fn pull<const BMI2: bool, const K: usize>(
        &self,
        child: Child,
        depth: u32,
        word: u64,
        ranks: &mut (u64, [u8; K]),
        pull: &mut Pull,
    ) -> bool {
        // SAFETY: this function's own promise about BMI2.
        let placed = unsafe { self.place::<BMI2, K>(child.state, ranks) };
        let mut waiting = Waiting {
            child: Child {
                cells: pack_cells(&placed.positions),
                value: ((depth + 1).saturating_sub(placed.md) / 2).min(15) as u8,
                ..child
            },
            ..Waiting::default()
        };
        if self.near_parent(&placed, pull.layer, &mut waiting) {
            let first = first_of_kin(child.state, word, child.kin);
            self.claim_pulled::<K>(waiting.child, first, pull);
            return true;
        }
        if waiting.fars > 0 {
            pull.waiting.push(waiting);
            if pull.waiting.len() > LAG {
                let waiting = pull.waiting.pop();
                self.resolve::<K>(waiting, pull);
            }
        }
        false
    }

    /// Whether a neighbour of a state in its order's block has the code `layer`; until one
    /// has, writes its other neighbours into `waiting`, their words fetched ahead of need.
    #[inline(always)]
    fn near_parent<const K: usize>(
        &self,
        placed: &Placed<K>,
        layer: u64,
        waiting: &mut Waiting,
    ) -> bool {
        let layout = &self.layout;
        let slots = layout.slots();
        let (order, occupied, region) = (placed.order, placed.occupied, placed.region);
        let mut positions = placed.positions;
        for i in 0..K {
            let from = u32::from(positions[i]);
            let mut targets = layout.masks.near(from) & region;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let now_occupied = occupied ^ (1 << from) ^ (1 << to);
                let now_slot = layout.slot_of(layout.combination(now_occupied), from);
                if between(from, to) & occupied == 0 {
                    if self.code_of(order * slots + u64::from(now_slot)) == layer {
                        return true;
                    }
                    continue;
                }
                positions[i] = to as u8;
                let state = layout.orders.rank_order(&positions) * slots + u64::from(now_slot);
                positions[i] = from as u8;
                prefetch(&self.seen[(state >> 5) as usize]);
                waiting.far[waiting.fars] = state;
                waiting.fars += 1;
            }
        }
        false
    }

    /// Puts a waiting state in the next layer if one of its other neighbours is in the layer.
    #[inline(always)]
    fn resolve<const K: usize>(&self, waiting: Waiting, pull: &mut Pull) {
        let far = &waiting.far[..waiting.fars];
        if far.iter().any(|&state| self.code_of(state) == pull.layer) {
            let state = waiting.child.state;
            // Only this worker writes this block's states.
            let old = self.seen[(state >> 5) as usize]
                .fetch_or(pull.next << ((state & 31) * 2), Ordering::Relaxed);
            let first = first_of_kin(state, old, waiting.child.kin);
            self.claim_pulled::<K>(waiting.child, first, pull);
        }
    }

    /// Counts a state put in the next layer and, if it is the `first` of its placement's
    /// states reached (see [`first_of_kin`]), passes it on to be recorded with its placement's
    /// rank, its entry fetched ahead of need.
    #[inline(always)]
    fn claim_pulled<const K: usize>(&self, child: Child, first: bool, pull: &mut Pull) {
        pull.counts.0 += 1;
        if !first {
            return;
        }
        let rank = self.table_rank(&unpack_cells::<K>(child.cells));
        prefetch(&self.entries[(rank >> 1) as usize]);
        pull.claimed.push(Child {
            cells: rank,
            ..child
        });
        while pull.claimed.len() > LAG / 2 {
            self.record_child(pull.claimed.pop(), &mut pull.counts);
        }
    }

    /// A state's two bits.
    #[inline(always)]
    fn code_of(&self, state: u64) -> u64 {
        self.seen[(state >> 5) as usize].load(Ordering::Relaxed) >> ((state & 31) * 2) & 3
    }
}
