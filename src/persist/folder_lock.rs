//! One copy of the desktop game on a data folder: the first copy holds atomic-file's [`Lock`]
//! on the folder for as long as it runs, and a second copy started on the same folder is
//! refused before it opens a window (it would otherwise write the same files as the first,
//! each overwriting the other's game). The operating system lets go of the lock when the
//! first copy ends, however it ends.

use std::path::Path;

use atomic_file::{Lock, LockError};
use thiserror::Error;

/// Why the data folder is not this copy's.
#[derive(Debug, Error)]
pub enum HoldError {
    /// Another copy of the game holds it: in the player's words.
    #[error(
        "Snapslide is already open on this computer{}. Only one copy can use your saved game \
         at a time: switch to the one that is open, or close it first.",
        process_words(*.holder)
    )]
    AlreadyOpen {
        /// The other copy's process, when it could be read.
        holder: Option<u32>,
    },
    /// The folder or its lock file could not be made or locked (a read-only disk): the game
    /// can still run, and its saves say if they fail.
    #[error("the data folder {path} could not be locked: {reason}")]
    Unavailable {
        /// The folder.
        path: std::path::PathBuf,
        /// What the system said.
        reason: String,
    },
}

/// "(process 1234)" when the process is known.
fn process_words(holder: Option<u32>) -> String {
    holder
        .map(|pid| format!(" (process {pid})"))
        .unwrap_or_default()
}

/// Makes the data folder if it is missing and locks it for this copy of the game; the lock
/// holds for as long as the returned value lives.
///
/// # Errors
///
/// [`HoldError::AlreadyOpen`] when another copy holds it; [`HoldError::Unavailable`] when it
/// cannot be made or locked.
pub fn hold_data_folder(dir: &Path) -> Result<Lock, HoldError> {
    let unavailable = |reason: String| HoldError::Unavailable {
        path: dir.to_path_buf(),
        reason,
    };
    std::fs::create_dir_all(dir).map_err(|e| unavailable(e.to_string()))?;
    Lock::acquire(dir).map_err(|error| match error {
        LockError::Held { holder, .. } => HoldError::AlreadyOpen { holder },
        other => unavailable(other.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_copy_is_refused_and_no_file_is_touched() {
        let dir = std::env::temp_dir().join(format!("snapslide-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = hold_data_folder(&dir).expect("the first copy holds the folder");
        let game = dir.join(crate::game::files::GAME_FILE);
        std::fs::write(&game, b"{\"game\": \"the first copy's\"}").unwrap();
        let names = |dir: &Path| {
            let mut names: Vec<_> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            names.sort();
            names
        };
        let before = names(&dir);
        match hold_data_folder(&dir) {
            Err(HoldError::AlreadyOpen { holder }) => {
                assert_eq!(holder, Some(std::process::id()));
            }
            other => panic!("a second copy: {other:?}"),
        }
        let said = HoldError::AlreadyOpen { holder: Some(7) }.to_string();
        assert!(said.starts_with("Snapslide is already open"), "{said}");
        assert!(!said.contains('/'), "{said}");
        assert_eq!(names(&dir), before);
        let kept = std::fs::read(&game).unwrap();
        assert_eq!(kept, b"{\"game\": \"the first copy's\"}");
        // The first copy ends: the folder is free for the next.
        drop(first);
        drop(hold_data_folder(&dir).expect("free once the first copy ended"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_unavailable_not_refused() {
        let file = std::env::temp_dir().join(format!("snapslide-nolock-{}", std::process::id()));
        std::fs::write(&file, b"a file where the folder should be").unwrap();
        let error = hold_data_folder(&file.join("data")).unwrap_err();
        assert!(matches!(error, HoldError::Unavailable { .. }), "{error:?}");
        std::fs::remove_file(file).unwrap();
    }
}
