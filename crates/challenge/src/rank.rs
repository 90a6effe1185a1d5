//! A board's tiles as their Lehmer code, packed without big integers.
//!
//! Digit `i` of a permutation of `n` counts the later entries smaller than entry `i`, in base
//! `n - i` (the engine's [`npuzzle::rank::lehmer_digits`]: these digits as one number are its
//! rank of the permutation). Runs of digits whose bases multiply to at most 2^64 are each one
//! mixed-radix number (the first digit most significant), written in as few bits as its
//! largest value needs: a 4×4 board's 16 digits are one number under 16! < 2^45, an 8×8
//! board's take 298 bits (log2 64! is 296).

use npuzzle::rank::{from_lehmer_digits, lehmer_digits};

use crate::bits::{BitReader, BitWriter};
use crate::error::CodeError;

/// The runs of digit indices of a permutation of `n`, each with the product of its bases.
fn runs(n: usize) -> Vec<(std::ops::Range<usize>, u64)> {
    let mut runs = Vec::new();
    let mut start = 0;
    let mut product = 1u64;
    for i in 0..n {
        let base = (n - i) as u64;
        match product.checked_mul(base) {
            Some(p) => product = p,
            None => {
                runs.push((start..i, product));
                start = i;
                product = base;
            }
        }
    }
    runs.push((start..n, product));
    runs
}

/// The bits that hold any number below `product`.
fn width(product: u64) -> u32 {
    64 - (product - 1).leading_zeros()
}

/// Writes the permutation `tiles` (each of 0..n once).
pub fn write_permutation(writer: &mut BitWriter, tiles: &[u8]) {
    let n = tiles.len();
    let digits = lehmer_digits(tiles);
    for (range, product) in runs(n) {
        let mut value = 0u64;
        for i in range {
            value = value * (n - i) as u64 + u64::from(digits[i]);
        }
        writer.write(value, width(product));
    }
}

/// Reads a permutation of `n` written by [`write_permutation`].
///
/// # Errors
///
/// [`CodeError::Damaged`] if the bits run out, [`CodeError::NotABoard`] for a number past its
/// run's last (no permutation has it).
pub fn read_permutation(reader: &mut BitReader, n: usize) -> Result<Vec<u8>, CodeError> {
    let mut digits = vec![0u8; n];
    for (range, product) in runs(n) {
        let mut value = reader.read(width(product))?;
        if value >= product {
            return Err(CodeError::NotABoard);
        }
        for i in range.rev() {
            let base = (n - i) as u64;
            digits[i] = (value % base) as u8;
            value /= base;
        }
    }
    // Each digit is below its base, as the run's number is below the bases' product.
    from_lehmer_digits(&digits).ok_or(CodeError::NotABoard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(tiles: &[u8]) -> usize {
        let mut writer = BitWriter::new();
        write_permutation(&mut writer, tiles);
        let length = writer.len();
        let bits = writer.into_bits();
        assert_eq!(
            read_permutation(&mut BitReader::new(&bits), tiles.len()),
            Ok(tiles.to_vec())
        );
        length
    }

    #[test]
    fn permutations_read_back_in_the_expected_bits() {
        assert_eq!(round_trip(&[0, 1, 2, 3]), 5, "4! = 24 ranks");
        assert_eq!(round_trip(&[3, 2, 1, 0]), 5);
        let fifteen: Vec<u8> = (0..16).rev().collect();
        assert_eq!(round_trip(&fifteen), 45, "16! < 2^45");
        let sixty_four: Vec<u8> = (0..64).map(|t| (t * 37 % 64) as u8).collect();
        assert_eq!(round_trip(&sixty_four), 298);
    }

    #[test]
    fn a_rank_past_the_last_is_not_a_board() {
        let mut writer = BitWriter::new();
        writer.write(24, 5);
        let bits = writer.into_bits();
        assert_eq!(
            read_permutation(&mut BitReader::new(&bits), 4),
            Err(CodeError::NotABoard)
        );
        assert_eq!(
            read_permutation(&mut BitReader::new(&bits[..4]), 4),
            Err(CodeError::Damaged)
        );
    }
}
