//! A file to share on Android, copied first into the one folder the app's FileProvider serves
//! for sharing (`cache/shared/`, `android/app/src/main/res/xml/photo_paths.xml`), so that the
//! provider exposes nothing else of the app's (its settings, scores, photos). Plain Rust, so
//! that it is tested on any machine.

use std::path::{Path, PathBuf};

/// The folder under the app's cache folder that the FileProvider serves for sharing;
/// `android/check_project.py` checks the paths file names the same.
pub(super) const SHARED_DIR: &str = "shared";

/// Copies `file` into `cache/`[`SHARED_DIR`] under its own name (replacing an older copy) and
/// returns the copy's path; a file already there is shared as it is. Errors are in the
/// player's words.
pub(super) fn copy_to_shared(file: &Path, cache: &Path) -> Result<PathBuf, String> {
    let name = file
        .file_name()
        .ok_or_else(|| format!("{} names no file", file.display()))?;
    let folder = cache.join(SHARED_DIR);
    let shared = folder.join(name);
    if file.parent() == Some(folder.as_path()) {
        return if file.is_file() {
            Ok(shared)
        } else {
            Err(format!("{} is missing", file.display()))
        };
    }
    std::fs::create_dir_all(&folder)
        .and_then(|()| std::fs::copy(file, &shared))
        .map_err(|error| format!("the file could not be copied to be shared: {error}"))?;
    Ok(shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("snapslide-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_is_copied_into_the_shared_folder_under_its_name() {
        let dir = scratch("share-copy");
        let file = dir.join("files").join("solves.csv");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "day,moves\n").unwrap();
        let cache = dir.join("cache");
        let shared = copy_to_shared(&file, &cache).unwrap();
        assert_eq!(shared, cache.join("shared").join("solves.csv"));
        assert_eq!(std::fs::read_to_string(&shared).unwrap(), "day,moves\n");
        // Again, newer: the older copy is replaced.
        std::fs::write(&file, "day,moves\n1,40\n").unwrap();
        copy_to_shared(&file, &cache).unwrap();
        assert_eq!(
            std::fs::read_to_string(&shared).unwrap(),
            "day,moves\n1,40\n"
        );
        // A file written into the shared folder is shared as it is, not copied onto itself.
        assert_eq!(copy_to_shared(&shared, &cache).unwrap(), shared);
        assert_eq!(
            std::fs::read_to_string(&shared).unwrap(),
            "day,moves\n1,40\n"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_file_is_refused_in_words() {
        let dir = scratch("share-missing");
        let cache = dir.join("cache");
        let missing = copy_to_shared(&dir.join("replay.gif"), &cache).unwrap_err();
        assert!(
            missing.starts_with("the file could not be copied to be shared: "),
            "{missing}"
        );
        let gone = copy_to_shared(&cache.join("shared").join("gone.gif"), &cache).unwrap_err();
        assert!(gone.ends_with("gone.gif is missing"), "{gone}");
        assert!(
            copy_to_shared(Path::new("/"), &cache).is_err(),
            "no file name"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
