//! The closed set of best-first search: an open-addressing hash table of node indices.
//!
//! The states themselves live in the node arena. A slot holds a node's index beside the high
//! half of its state's hash (the tag), which also picks the slot: so a slot is eight bytes
//! whatever the board, a probe reads the arena only when tags agree, and growing never reads
//! the arena. Linear probing over a power-of-two table kept at most half full; an all-zero slot
//! is empty, so a new table is zeroed memory. Callers hash states with
//! [`crate::hash::hash_of`].

const EMPTY: u64 = 0;
const INDEX_BITS: u64 = 0xFFFF_FFFF;

/// A closed set: each state's best node in the arena.
pub(crate) trait Closed {
    /// Makes node `at` the best for its state (found by `hash` and `is_it`) unless a known node
    /// is as good: `beats(known)` says whether `at` is better than the known node.
    fn admit(
        &mut self,
        hash: u64,
        is_it: impl Fn(u32) -> bool,
        beats: impl Fn(u32) -> bool,
        at: u32,
    ) -> Admitted;

    /// Bytes held.
    fn memory(&self) -> usize;
}

impl Closed for StateTable {
    #[inline]
    fn admit(
        &mut self,
        hash: u64,
        is_it: impl Fn(u32) -> bool,
        beats: impl Fn(u32) -> bool,
        at: u32,
    ) -> Admitted {
        StateTable::admit(self, hash, is_it, beats, at)
    }

    fn memory(&self) -> usize {
        StateTable::memory(self)
    }
}

/// Maps states to the arena index of their best node.
pub(crate) struct StateTable {
    /// `tag << 32 | (index + 1)`, or `EMPTY`.
    slots: Vec<u64>,
    len: usize,
}

/// What [`StateTable::admit`] did with a node.
pub(crate) enum Admitted {
    /// A known node for the same state is as good: the new one is not needed.
    No,
    /// The state was new.
    New,
    /// The node replaced this one, now stale.
    Instead(u32),
}

/// Where a state stands in the table.
pub(crate) enum Slot {
    /// The state is known: its node's index, and the slot that holds it.
    Found(u32, usize),
    /// The state is new; insert it with [`StateTable::fill`] at this slot.
    Vacant(usize),
}

impl StateTable {
    /// A table with room for about `states` states before it grows.
    pub fn with_capacity(states: usize) -> StateTable {
        StateTable {
            slots: vec![EMPTY; (states * 2).next_power_of_two().max(16)],
            len: 0,
        }
    }

    /// A table holding the search's first node (index 0), whose state has this hash.
    pub fn with_root(states: usize, hash: u64) -> StateTable {
        let mut table = StateTable::with_capacity(states);
        table.fill(table.home(hash >> 32), hash, 0);
        table
    }

    /// Bytes held.
    pub fn memory(&self) -> usize {
        self.slots.len() * size_of::<u64>()
    }

    fn home(&self, tag: u64) -> usize {
        tag as usize & (self.slots.len() - 1)
    }

    /// Finds the state with this hash that `is_it` recognises by its node index.
    #[inline]
    pub fn find(&self, hash: u64, is_it: impl Fn(u32) -> bool) -> Slot {
        let tag = hash >> 32;
        let mask = self.slots.len() - 1;
        let mut slot = self.home(tag);
        loop {
            let entry = self.slots[slot];
            if entry == EMPTY {
                return Slot::Vacant(slot);
            }
            let index = ((entry & INDEX_BITS) - 1) as u32;
            if entry >> 32 == tag && is_it(index) {
                return Slot::Found(index, slot);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Makes node `at` the best for its state (found by `hash` and `is_it`) unless a known node
    /// is as good: `beats(known)` says whether `at` is better than the known node.
    #[inline]
    pub fn admit(
        &mut self,
        hash: u64,
        is_it: impl Fn(u32) -> bool,
        beats: impl Fn(u32) -> bool,
        at: u32,
    ) -> Admitted {
        match self.find(hash, is_it) {
            Slot::Found(known, _) if !beats(known) => Admitted::No,
            Slot::Found(known, slot) => {
                self.replace(slot, at);
                Admitted::Instead(known)
            }
            Slot::Vacant(slot) => {
                self.fill(slot, hash, at);
                Admitted::New
            }
        }
    }

    /// Points a found slot at a new node for the same state.
    pub fn replace(&mut self, slot: usize, index: u32) {
        self.slots[slot] = (self.slots[slot] & !INDEX_BITS) | (u64::from(index) + 1);
    }

    /// Fills a vacant slot, found with this hash, with a node index. The table may grow,
    /// which invalidates slots found before.
    #[inline]
    pub fn fill(&mut self, slot: usize, hash: u64, index: u32) {
        self.slots[slot] = (hash & !INDEX_BITS) | (u64::from(index) + 1);
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let grown = vec![EMPTY; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, grown);
        let mask = self.slots.len() - 1;
        for entry in old.into_iter().filter(|&e| e != EMPTY) {
            let mut slot = self.home(entry >> 32);
            while self.slots[slot] != EMPTY {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = entry;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{hash_of, hash_u128};

    #[test]
    fn finds_what_was_filled_through_growth() {
        let keys: Vec<u64> = (0..10_000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let mut table = StateTable::with_capacity(4);
        for (index, key) in keys.iter().enumerate() {
            match table.find(hash_of(key), |i| keys[i as usize] == *key) {
                Slot::Vacant(slot) => table.fill(slot, hash_of(key), index as u32),
                Slot::Found(..) => panic!("{key} found before it was added"),
            }
        }
        for (index, key) in keys.iter().enumerate() {
            let found = table.find(hash_of(key), |i| keys[i as usize] == *key);
            assert!(matches!(found, Slot::Found(i, _) if i as usize == index));
        }
        assert!(matches!(
            table.find(hash_of(&7u64), |i| keys[i as usize] == 7),
            Slot::Vacant(_)
        ));
        let Slot::Found(_, slot) = table.find(hash_of(&keys[5]), |i| keys[i as usize] == keys[5])
        else {
            panic!("keys[5] is in the table");
        };
        table.replace(slot, 9_999);
        assert!(matches!(
            table.find(hash_of(&keys[5]), |i| i == 9_999),
            Slot::Found(9_999, _)
        ));
    }

    #[test]
    fn admits_a_state_once_unless_a_better_node_comes() {
        // States packed in the low bytes of a u128, as the large-board searches do, with the
        // cost of each node.
        let states: Vec<u128> = vec![0x0102, 0x0201, 0x0102, 0x0102];
        let costs = [5u16, 5, 7, 3];
        let mut table = StateTable::with_capacity(4);
        let mut admit = |at: usize| {
            table.admit(
                hash_u128(states[at]),
                |known| states[known as usize] == states[at],
                |known| costs[at] < costs[known as usize],
                at as u32,
            )
        };
        assert!(matches!(admit(0), Admitted::New));
        assert!(matches!(admit(1), Admitted::New));
        assert!(matches!(admit(2), Admitted::No), "costs more than node 0");
        assert!(
            matches!(admit(3), Admitted::Instead(0)),
            "costs less than node 0"
        );
    }

    #[test]
    fn the_u128_hash_spreads_low_byte_keys_over_the_high_half() {
        // Keys like the stage search's: a few cells in the low bytes.
        let mut homes = std::collections::HashSet::new();
        for a in 0..64u128 {
            for b in 0..64u128 {
                homes.insert(hash_u128(a | b << 8) >> 52);
            }
        }
        // 4,096 keys into 4,096 high-half buckets: a good hash fills most of them (about 63 %;
        // FxHash filled 34 % here, which is what made the table slow on these keys).
        assert!(homes.len() > 2_400, "{}", homes.len());
    }
}
