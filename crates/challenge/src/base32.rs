//! Crockford's base32: five bits a character, digits and the letters but I, L, O and U.
//!
//! Written here rather than taken from a crate because a code is a run of bits, not of bytes:
//! the byte-oriented encoders would pad it to a whole byte (up to two characters more).

use crate::error::CodeError;

/// The 32 characters, by value.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The characters for bits whose count is a multiple of 5.
pub fn encode(bits: &[bool]) -> String {
    debug_assert!(bits.len().is_multiple_of(5));
    bits.chunks(5)
        .map(|group| {
            let value = group.iter().fold(0, |v, &bit| v << 1 | usize::from(bit));
            char::from(ALPHABET[value])
        })
        .collect()
}

/// The value of one character, either case, reading I and L as 1 and O as 0.
fn value(c: char) -> Option<u8> {
    match c.to_ascii_uppercase() {
        'O' => Some(0),
        'I' | 'L' => Some(1),
        upper => ALPHABET
            .iter()
            .position(|&a| char::from(a) == upper)
            .map(|v| v as u8),
    }
}

/// The bits of a code's characters; hyphens and white space are skipped.
///
/// # Errors
///
/// [`CodeError::Damaged`] for any other character outside the alphabet.
pub fn decode(text: &str) -> Result<Vec<bool>, CodeError> {
    let mut bits = Vec::with_capacity(text.len() * 5);
    for c in text.chars().filter(|&c| c != '-' && !c.is_whitespace()) {
        let v = value(c).ok_or(CodeError::Damaged)?;
        bits.extend((0..5).rev().map(|shift| (v >> shift) & 1 == 1));
    }
    Ok(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_has_its_character() {
        let bits: Vec<bool> = (0..32u8)
            .flat_map(|v| (0..5).rev().map(move |s| (v >> s) & 1 == 1))
            .collect();
        let text = encode(&bits);
        assert_eq!(text, "0123456789ABCDEFGHJKMNPQRSTVWXYZ");
        assert_eq!(decode(&text), Ok(bits.clone()));
        assert_eq!(decode(&text.to_lowercase()), Ok(bits));
    }

    #[test]
    fn look_alikes_read_as_digits_and_separators_are_skipped() {
        assert_eq!(decode("O-i L\to"), decode("0110"));
        assert_eq!(decode("01 10").unwrap().len(), 20);
        for bad in ["U", "u", "*", "é", "0_1"] {
            assert_eq!(decode(bad), Err(CodeError::Damaged), "{bad}");
        }
    }
}
