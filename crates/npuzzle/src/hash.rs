//! FNV-1a, the engine's one hash of plain bytes: stable across runs and machines (unlike the
//! hash maps' hashers), for keys built from a few bytes and for checksums in reports.

const OFFSET: u64 = 0xCBF2_9CE4_8422_2325;
const PRIME: u64 = 0x0100_0000_01B3;

/// The 64-bit FNV-1a hash of `bytes`.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(OFFSET, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    })
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
