//! The player on the board: the name and token the server gave, kept in the data folder
//! (`board-player.json`), written whole or not at all; and the name's rules, checked before
//! asking the server. The token is never logged: `Debug` hides it.

use std::io::ErrorKind;
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The player's file in the data folder.
pub const PLAYER_FILE: &str = "board-player.json";

/// The longest name, in characters.
pub const MAX_NAME: usize = 24;

/// The player, as the server knows them.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The name as the server keeps it.
    pub name: String,
    /// The token to post with.
    pub token: String,
}

impl std::fmt::Debug for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Player")
            .field("name", &self.name)
            .field("token", &"(hidden)")
            .finish()
    }
}

/// Why the player's file could not be read or written.
#[derive(Debug, Error)]
pub enum PlayerFileError {
    /// It could not be read.
    #[error("could not read {PLAYER_FILE}: {0}")]
    Read(std::io::Error),
    /// It is not a player's file (damaged): the player gives a name again.
    #[error("{PLAYER_FILE} is damaged: {0}")]
    Damaged(String),
    /// It could not be written.
    #[error("could not keep {PLAYER_FILE}: {0}")]
    Write(#[from] atomic_file::WriteError),
}

/// The player kept in `dir`, if any.
///
/// # Errors
///
/// [`PlayerFileError::Read`], [`PlayerFileError::Damaged`].
pub fn load(dir: &Path) -> Result<Option<Player>, PlayerFileError> {
    match std::fs::read(dir.join(PLAYER_FILE)) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| PlayerFileError::Damaged(e.to_string())),
        Err(error) if error.kind() == ErrorKind::NotFound => Ok(None),
        Err(error) => Err(PlayerFileError::Read(error)),
    }
}

/// Keeps `player` in `dir`, whole or not at all.
///
/// # Errors
///
/// [`PlayerFileError::Write`].
pub fn save(dir: &Path, player: &Player) -> Result<(), PlayerFileError> {
    let json = serde_json::to_vec_pretty(player).expect("a player is JSON");
    atomic_file::write(&dir.join(PLAYER_FILE), &json)?;
    Ok(())
}

/// Forgets the player kept in `dir` (the server no longer knows their token).
///
/// # Errors
///
/// [`PlayerFileError::Read`] when the file is there and cannot be removed.
pub fn forget(dir: &Path) -> Result<(), PlayerFileError> {
    match std::fs::remove_file(dir.join(PLAYER_FILE)) {
        Err(error) if error.kind() != ErrorKind::NotFound => Err(PlayerFileError::Read(error)),
        _ => Ok(()),
    }
}

/// A name outside the rules, in the player's words.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum NameError {
    /// Nothing but spaces.
    #[error("Give a name: 1 to 24 letters, digits, spaces, or - _ .")]
    Empty,
    /// Longer than [`MAX_NAME`].
    #[error("A name is at most 24 characters: this one has {0}")]
    TooLong(usize),
    /// A character the rules do not take.
    #[error("A name holds only letters, digits, spaces, and - _ . (not “{0}”)")]
    BadCharacter(char),
    /// It does not begin with a letter or digit.
    #[error("A name begins with a letter or a digit")]
    BadStart,
}

/// The name as it will be sent (trimmed), if it keeps the board's rules: 1–24 letters, digits,
/// spaces or `-_.`, beginning with a letter or digit. The server checks again (and NFC-
/// normalises it).
///
/// # Errors
///
/// The [`NameError`] that says what to change.
pub fn check_name(name: &str) -> Result<String, NameError> {
    let name = name.trim();
    let count = name.chars().count();
    if count == 0 {
        return Err(NameError::Empty);
    }
    if count > MAX_NAME {
        return Err(NameError::TooLong(count));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || " -_.".contains(*c) || is_combining(*c)))
    {
        return Err(NameError::BadCharacter(bad));
    }
    if !name.starts_with(char::is_alphanumeric) {
        return Err(NameError::BadStart);
    }
    Ok(name.to_string())
}

/// A combining mark (an accent typed as its own character, as in "Zoe\u{308}"), which the
/// server's NFC folds into its letter.
fn is_combining(c: char) -> bool {
    matches!(c, '\u{300}'..='\u{36f}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_the_boards_rules() {
        assert_eq!(check_name("  Zoë 2.0 "), Ok("Zoë 2.0".to_string()));
        assert_eq!(check_name("Zoe\u{308}"), Ok("Zoe\u{308}".to_string()));
        assert_eq!(check_name("   "), Err(NameError::Empty));
        assert_eq!(check_name(&"a".repeat(25)), Err(NameError::TooLong(25)));
        assert!(check_name(&"é".repeat(24)).is_ok());
        assert_eq!(check_name("a/b"), Err(NameError::BadCharacter('/')));
        assert_eq!(check_name("=cmd"), Err(NameError::BadCharacter('=')));
        assert_eq!(check_name("-ann"), Err(NameError::BadStart));
    }

    #[test]
    fn the_player_reads_back_and_the_token_is_never_shown() {
        let dir = std::env::temp_dir().join(format!("board-player-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let _ = std::fs::remove_file(dir.join(PLAYER_FILE));
        assert!(load(&dir).unwrap().is_none());
        let player = Player {
            name: "Ann".into(),
            token: "secret-token-1234".into(),
        };
        save(&dir, &player).unwrap();
        assert_eq!(load(&dir).unwrap(), Some(player.clone()));
        assert!(!format!("{player:?}").contains("secret"));
        std::fs::write(dir.join(PLAYER_FILE), "{").unwrap();
        assert!(matches!(load(&dir), Err(PlayerFileError::Damaged(_))));
    }
}
