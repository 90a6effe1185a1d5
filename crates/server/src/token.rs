//! A player's token: 256 random bits shown once, and its SHA-256, the only thing kept.

use rand::TryRng;
use rand::rngs::SysRng;
use sha2::{Digest, Sha256};

/// The random bytes of a token (256 bits).
pub const TOKEN_BYTES: usize = 32;

/// A new token: [`TOKEN_BYTES`] from the system's generator, as lower-case hex.
///
/// # Panics
///
/// When the system has no random generator to read (the server cannot run safely then).
pub fn new_token() -> String {
    let mut bytes = [0u8; TOKEN_BYTES];
    SysRng
        .try_fill_bytes(&mut bytes)
        .expect("the system's random generator");
    hex(&bytes)
}

/// A new player id: 63 random bits, positive.
///
/// # Panics
///
/// As [`new_token`].
pub fn new_player_id() -> i64 {
    let mut bytes = [0u8; 8];
    SysRng
        .try_fill_bytes(&mut bytes)
        .expect("the system's random generator");
    (u64::from_le_bytes(bytes) >> 1) as i64
}

/// What is kept of a token: its SHA-256, as hex.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `text` has a token's form (so that no other text reaches the database).
pub fn looks_like_token(text: &str) -> bool {
    text.len() == TOKEN_BYTES * 2 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Bytes as lower-case hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_new_each_time_and_kept_only_as_their_hash() {
        let (one, two) = (new_token(), new_token());
        assert_ne!(one, two);
        assert!(looks_like_token(&one), "{one}");
        let hash = token_hash(&one);
        assert_eq!(hash.len(), 64);
        assert_ne!(hash, one);
        assert_eq!(hash, token_hash(&one));
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(!looks_like_token("ABC"));
        assert!(new_player_id() >= 0);
    }
}
