//! For the fuzz target only (not part of the API the app uses): inputs that reach the fields'
//! reader past the check, which random bytes almost never pass.

use crate::base32;
use crate::bits::BitWriter;
use crate::format;

/// The code whose bits before the check are `input`'s after its first byte, less as many of
/// the last bits as the first byte's low 3 bits say (so any bit count can be made).
pub fn seal(input: &[u8]) -> String {
    let Some((&first, payload)) = input.split_first() else {
        return format::seal(BitWriter::new());
    };
    let count = (payload.len() * 8).saturating_sub(usize::from(first & 7));
    let mut writer = BitWriter::new();
    for index in 0..count {
        writer.write_bit(payload[index / 8] >> (7 - index % 8) & 1 == 1);
    }
    format::seal(writer)
}

/// The input that [`seal`] turns into `code`, for seeds; `None` for text that is not a code's
/// characters or too short for a check.
pub fn unseal(code: &str) -> Option<Vec<u8>> {
    let bits = base32::decode(code).ok()?;
    let body = &bits[..bits.len().checked_sub(32)?];
    let dropped = (8 - body.len() % 8) % 8;
    let mut input = vec![dropped as u8];
    input.extend(
        body.chunks(8)
            .map(|byte| (0..8).fold(0u8, |v, i| v << 1 | u8::from(byte.get(i) == Some(&true)))),
    );
    Some(input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::challenge::decode;

    #[test]
    fn a_code_unsealed_seals_back_to_itself() {
        let code = "4SJMFVGPHFT3E4H4KV";
        let input = unseal(code).unwrap();
        assert_eq!(seal(&input), code);
        assert!(decode(&seal(&[0x80, 0xff, 0x00])).is_err());
        assert!(decode(&seal(&[])).is_err());
        assert_eq!(unseal("0"), None);
    }
}
