//! Where the photo on the board comes from, and the part of it the player framed, as the save
//! file keeps them.

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

/// The part of a photo the player framed for the board: the photo turned `turns` quarters
/// clockwise (after its own EXIF orientation), then the rectangle `x, y, width, height` of it,
/// in the photo's pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PhotoFraming {
    /// Quarter turns clockwise, 0 to 3.
    pub turns: u8,
    /// The rectangle's left edge.
    pub x: u32,
    /// Its top edge.
    pub y: u32,
    /// Its width.
    pub width: u32,
    /// Its height.
    pub height: u32,
}

/// A photo and the part of it the board is cut from: the framing the player chose, or none (the
/// app frames it: the largest centred rectangle of the board's shape).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FramedPhoto {
    /// Where the photo comes from.
    pub source: PhotoSource,
    /// The player's framing, if any (`frame` in the files).
    #[serde(rename = "frame")]
    pub framing: Option<PhotoFraming>,
}

impl FramedPhoto {
    /// The whole photo, framed by the app.
    pub fn whole(source: PhotoSource) -> FramedPhoto {
        FramedPhoto {
            source,
            framing: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_framed_photo_reads_and_writes_the_key_its_files_have_always_had() {
        let saved = r#"{"source":{"Picked":"photos/a.jpg"},"frame":{"turns":1,"x":2,"y":3,"width":40,"height":30}}"#;
        let photo: FramedPhoto = serde_json::from_str(saved).unwrap();
        let framing = photo.framing.expect("the framing was lost");
        assert_eq!((framing.turns, framing.x, framing.width), (1, 2, 40));
        assert_eq!(serde_json::to_string(&photo).unwrap(), saved);
    }
}
