//! Where the photo on the board comes from, as the save file keeps it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Where a photo comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PhotoSource {
    /// One of the photos built into the app, by file name.
    Bundled(String),
    /// A file named on the command line.
    File(PathBuf),
    /// A photo the player picked (from the gallery, the camera, a file dialog or a drop),
    /// kept in the app's data folder.
    Picked(PathBuf),
}
