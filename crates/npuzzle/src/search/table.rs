//! The closed set of best-first search: an open-addressing hash table of node indices.
//!
//! The states themselves live in the node arena. A slot holds a node's index beside the high
//! half of its state's hash (the tag), which also picks the slot: so a slot is eight bytes
//! whatever the board, a probe reads the arena only when tags agree, and growing never reads
//! the arena. Linear probing over a power-of-two table kept at most half full; an all-zero slot
//! is empty, so a new table is zeroed memory. Callers hash states with [`hash_of`].

use std::hash::{BuildHasher, Hash};

use rustc_hash::FxBuildHasher;

const EMPTY: u64 = 0;
const INDEX_BITS: u64 = 0xFFFF_FFFF;

/// The hash the table expects for a state.
pub(crate) fn hash_of<K: Hash>(key: &K) -> u64 {
    FxBuildHasher.hash_one(key)
}

/// The hash the table expects for a state packed into a `u128` whose information sits in its
/// low bytes (the large-board searches' keys): mixed so that the high half, which picks the
/// slot, depends on every bit. [`hash_of`] on such keys crowded the table (measured: the whole
/// best-of construction 20–45 % slower than with a hash map, against 15 % faster with this).
pub(crate) fn hash_u128(key: u128) -> u64 {
    let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    let mixed = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed ^ (mixed >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// Maps states to the arena index of their best node.
pub(crate) struct StateTable {
    /// `tag << 32 | (index + 1)`, or `EMPTY`.
    slots: Vec<u64>,
    len: usize,
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
}
