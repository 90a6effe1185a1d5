//! Every hash the engine computes, in one place:
//!
//! - [`fnv1a`], the one hash of plain bytes: stable across runs and machines (unlike the hash
//!   maps' hashers), for keys built from a few bytes, checksums in reports, and the app's photo
//!   names;
//! - [`hash_of`] and [`hash_u128`], the closed sets' hashes of packed states (fast, not stable
//!   across versions of `rustc-hash`: nothing stored keeps them);
//! - [`zobrist`], the keys of the beams' incremental board hashes, from a fixed seed;
//! - [`PdbChecksum`] and [`MtmChecksum`], the checksums the table caches' files end with. Each
//!   is fixed by its file format (the files on disk carry it), so they stay two.

use std::hash::{BuildHasher, Hash};

use rustc_hash::FxBuildHasher;

use crate::random::SplitMix64;

const OFFSET: u64 = 0xCBF2_9CE4_8422_2325;
const PRIME: u64 = 0x0100_0000_01B3;

/// The 64-bit FNV-1a hash of `bytes`.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(OFFSET, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    })
}

/// The hash the closed sets' table (`search::table`) expects for a state.
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

/// Zobrist keys, one per (tile, cell), from a fixed seed ([`SplitMix64`]: the keys also break
/// ties between equal boards, so they are fixed here rather than left to a library's generator).
pub(crate) fn zobrist(cells: usize) -> Vec<u64> {
    let mut rng = SplitMix64::new(0x853C_49E6_748F_EA9B);
    (0..cells * cells).map(|_| rng.next_u64()).collect()
}

/// The checksum a pattern database's cached file ends with (`pdb::cache`): a fast 64-bit sum
/// over whole words, not cryptographic (it catches damage).
#[derive(Clone, Copy, Debug)]
pub struct PdbChecksum(pub u64);

impl PdbChecksum {
    /// A checksum of nothing yet.
    pub fn new() -> PdbChecksum {
        PdbChecksum(0x243F_6A88_85A3_08D3)
    }

    /// Adds bytes, eight at a time (the last few one by one).
    pub fn add(&mut self, bytes: &[u8]) {
        let mut h = self.0 ^ bytes.len() as u64;
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let w = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            h = (h.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        for &b in words.remainder() {
            h = (h.rotate_left(23) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        self.0 = h ^ (h >> 29);
    }
}

impl Default for PdbChecksum {
    fn default() -> PdbChecksum {
        PdbChecksum::new()
    }
}

/// The checksum the MTM tables' cached file ends with (`mtm::cache`): FNV-1a's constants over
/// zero-padded words, with a shift (it catches damage, not tampering).
#[derive(Clone, Copy, Debug)]
pub struct MtmChecksum(pub u64);

impl MtmChecksum {
    /// A checksum of nothing yet.
    pub fn new() -> MtmChecksum {
        MtmChecksum(OFFSET)
    }

    /// Adds bytes, eight at a time.
    pub fn add(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0 ^ u64::from_le_bytes(word)).wrapping_mul(PRIME);
            self.0 ^= self.0 >> 29;
        }
    }
}

impl Default for MtmChecksum {
    fn default() -> MtmChecksum {
        MtmChecksum::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_gives_its_published_values() {
        assert_eq!(fnv1a([]), 0xCBF2_9CE4_8422_2325);
        assert_eq!(fnv1a(*b"a"), 0xAF63_DC4C_8601_EC8C);
        assert_eq!(fnv1a(*b"foobar"), 0x8594_4171_F739_67E8);
    }
}
