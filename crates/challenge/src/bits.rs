//! Bits written and read most significant first, and the exponential-Golomb code for numbers.

use crate::error::CodeError;

/// The largest value an exponential-Golomb field holds: below 2^56, so no shift overflows.
pub const MAX_GOLOMB: u64 = (1 << 56) - 1;

/// Bits in the order they are written.
#[derive(Debug, Default, Clone)]
pub struct BitWriter {
    bits: Vec<bool>,
}

impl BitWriter {
    /// An empty writer.
    pub fn new() -> BitWriter {
        BitWriter::default()
    }

    /// Writes the low `width` bits of `value` (width ≤ 64), most significant first.
    pub fn write(&mut self, value: u64, width: u32) {
        for shift in (0..width).rev() {
            self.bits.push((value >> shift) & 1 == 1);
        }
    }

    /// Writes one bit.
    pub fn write_bit(&mut self, bit: bool) {
        self.bits.push(bit);
    }

    /// Writes `value` (≤ [`MAX_GOLOMB`]) in the exponential-Golomb code of order `k` (≤ 10):
    /// `x = value + 2^k` in its own length, after as many zeros as that length passes `k + 1`.
    pub fn write_golomb(&mut self, value: u64, k: u32) {
        debug_assert!(value <= MAX_GOLOMB && k <= 10);
        let x = value + (1 << k);
        let length = 64 - x.leading_zeros();
        self.write(0, length - k - 1);
        self.write(x, length);
    }

    /// Writes `value` as its length in bits (in `length_bits` bits) and then its bits after the
    /// leading 1: short for large numbers, such as a time in ms (an hour takes 6 + 21 bits).
    pub fn write_sized(&mut self, value: u64, length_bits: u32) {
        let length = 64 - value.leading_zeros();
        debug_assert!(u64::from(length) < 1 << length_bits);
        self.write(u64::from(length), length_bits);
        self.write(value, length.saturating_sub(1));
    }

    /// The number of bits written.
    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// The bits written.
    pub fn into_bits(self) -> Vec<bool> {
        self.bits
    }
}

/// Reads bits in order; running out is a damaged code.
#[derive(Debug, Clone)]
pub struct BitReader<'a> {
    bits: &'a [bool],
    at: usize,
}

impl<'a> BitReader<'a> {
    /// A reader at the first bit.
    pub fn new(bits: &'a [bool]) -> BitReader<'a> {
        BitReader { bits, at: 0 }
    }

    /// The bits not yet read.
    pub fn remaining(&self) -> usize {
        self.bits.len() - self.at
    }

    /// The bits not yet read, as a slice.
    pub fn rest(&self) -> &'a [bool] {
        &self.bits[self.at..]
    }

    /// Reads one bit.
    pub fn read_bit(&mut self) -> Result<bool, CodeError> {
        let bit = *self.bits.get(self.at).ok_or(CodeError::Damaged)?;
        self.at += 1;
        Ok(bit)
    }

    /// Reads `width` bits (≤ 64) as a number, most significant first.
    pub fn read(&mut self, width: u32) -> Result<u64, CodeError> {
        if self.remaining() < width as usize {
            return Err(CodeError::Damaged);
        }
        let mut value = 0;
        for _ in 0..width {
            value = value << 1 | u64::from(self.read_bit()?);
        }
        Ok(value)
    }

    /// Reads a number written by [`BitWriter::write_golomb`] with the same `k`; a prefix too
    /// long for [`MAX_GOLOMB`] is a damaged code.
    pub fn read_golomb(&mut self, k: u32) -> Result<u64, CodeError> {
        let mut zeros = 0;
        while !self.read_bit()? {
            zeros += 1;
            if zeros + k + 1 > 57 {
                return Err(CodeError::Damaged);
            }
        }
        let rest = self.read(zeros + k)?;
        Ok(((1 << (zeros + k)) | rest) - (1 << k))
    }
}

impl BitReader<'_> {
    /// Reads a number written by [`BitWriter::write_sized`] with the same `length_bits` (≤ 6).
    pub fn read_sized(&mut self, length_bits: u32) -> Result<u64, CodeError> {
        debug_assert!(length_bits <= 6);
        match self.read(length_bits)? as u32 {
            0 => Ok(0),
            length => Ok(1 << (length - 1) | self.read(length - 1)?),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_back_in_their_widths() {
        let mut writer = BitWriter::new();
        writer.write(0b101, 3);
        writer.write(u64::MAX, 64);
        writer.write_bit(false);
        let bits = writer.into_bits();
        assert_eq!(bits.len(), 68);
        assert_eq!(&bits[..3], &[true, false, true]);
        let mut reader = BitReader::new(&bits);
        assert_eq!(reader.read(3), Ok(0b101));
        assert_eq!(reader.read(64), Ok(u64::MAX));
        assert_eq!(reader.read_bit(), Ok(false));
        assert_eq!(reader.read_bit(), Err(CodeError::Damaged));
    }

    #[test]
    fn golomb_lengths_grow_with_the_value() {
        let cases = [
            (0, 8, 9),
            (255, 8, 9),
            (256, 8, 11),
            (600, 8, 11),
            (0, 0, 1),
            (1, 0, 3),
        ];
        for (value, k, length) in cases {
            let mut writer = BitWriter::new();
            writer.write_golomb(value, k);
            assert_eq!(writer.len(), length, "{value} at order {k}");
            let bits = writer.into_bits();
            assert_eq!(BitReader::new(&bits).read_golomb(k), Ok(value));
        }
        let mut writer = BitWriter::new();
        writer.write_golomb(MAX_GOLOMB, 0);
        let bits = writer.into_bits();
        assert_eq!(BitReader::new(&bits).read_golomb(0), Ok(MAX_GOLOMB));
    }

    #[test]
    fn sized_numbers_read_back_in_their_length_and_six_bits() {
        for (value, length) in [
            (0, 6),
            (1, 6),
            (2, 7),
            (60_000, 21),
            (3_600_000, 27),
            (u64::MAX, 69),
        ] {
            let mut writer = BitWriter::new();
            writer.write_sized(value, 7);
            assert_eq!(writer.len(), length + 1, "{value}");
            let mut six = BitWriter::new();
            if value < 1 << 62 {
                six.write_sized(value, 6);
                assert_eq!(six.len(), length, "{value}");
                let bits = six.into_bits();
                assert_eq!(BitReader::new(&bits).read_sized(6), Ok(value));
            }
        }
        assert_eq!(
            BitReader::new(&[true; 6]).read_sized(6),
            Err(CodeError::Damaged)
        );
    }

    #[test]
    fn a_prefix_past_the_largest_value_is_damaged() {
        let mut bits = vec![false; 57];
        bits.extend([true; 64]);
        assert_eq!(
            BitReader::new(&bits).read_golomb(0),
            Err(CodeError::Damaged)
        );
        assert_eq!(
            BitReader::new(&[false; 5]).read_golomb(2),
            Err(CodeError::Damaged)
        );
    }
}
