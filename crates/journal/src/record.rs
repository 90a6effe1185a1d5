//! One record's line: `<CRC-32 of the payload, 8 lowercase hex digits> <payload>\n`.

use crate::JournalError;

/// The bytes before a payload: 8 hex digits and a space.
const HEADER: usize = 9;

/// The line that holds `payload`, its newline included.
///
/// # Errors
///
/// [`JournalError::LineBreak`] if the payload holds a line break (`\n` or `\r`): a record is
/// one line.
pub fn encode(payload: &str) -> Result<String, JournalError> {
    let mut line = String::with_capacity(HEADER + payload.len() + 1);
    encode_into(&mut line, payload)?;
    Ok(line)
}

/// Appends the line that holds `payload` (its newline included) to `out`; on an error, `out`
/// is as it was.
///
/// # Errors
///
/// [`JournalError::LineBreak`] if the payload holds a line break.
pub fn encode_into(out: &mut String, payload: &str) -> Result<(), JournalError> {
    if payload.bytes().any(|b| b == b'\n' || b == b'\r') {
        return Err(JournalError::LineBreak);
    }
    let crc = crc32fast::hash(payload.as_bytes());
    out.push_str(&format!("{crc:08x} "));
    out.push_str(payload);
    out.push('\n');
    Ok(())
}

/// The payload of one line (without its newline), if the line is whole: a header of 8 hex
/// digits and a space, a payload in UTF-8, and a checksum that matches it.
pub fn decode(line: &[u8]) -> Option<&str> {
    if line.len() < HEADER || line[HEADER - 1] != b' ' {
        return None;
    }
    let hex = std::str::from_utf8(&line[..HEADER - 1]).ok()?;
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let crc = u32::from_str_radix(hex, 16).ok()?;
    let payload = &line[HEADER..];
    if crc32fast::hash(payload) != crc {
        return None;
    }
    std::str::from_utf8(payload).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_decodes_to_its_payload_and_a_changed_line_does_not() {
        let line = encode(r#"{"a":"R","c":120}"#).unwrap();
        assert_eq!(line.len(), 9 + 17 + 1);
        assert!(line.ends_with('\n'));
        let body = &line.as_bytes()[..line.len() - 1];
        assert_eq!(decode(body), Some(r#"{"a":"R","c":120}"#));
        // Any one byte changed anywhere (the checksum, the space, the payload) is refused.
        for at in 0..body.len() {
            let mut bad = body.to_vec();
            bad[at] ^= 0x01;
            assert_eq!(decode(&bad), None, "byte {at} changed");
        }
        assert_eq!(decode(b""), None);
        assert_eq!(decode(b"0000000"), None);
        // The empty payload is a record too.
        let empty = encode("").unwrap();
        assert_eq!(decode(&empty.as_bytes()[..9]), Some(""));
    }

    #[test]
    fn a_payload_with_a_line_break_is_refused() {
        assert!(matches!(encode("a\nb"), Err(JournalError::LineBreak)));
        assert!(matches!(encode("a\rb"), Err(JournalError::LineBreak)));
        let mut out = String::from("kept");
        assert!(encode_into(&mut out, "x\n").is_err());
        assert_eq!(out, "kept");
    }
}
