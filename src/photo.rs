//! Where the photo comes from: the photos built into the app, a file, or one the player
//! picked; loaded and cut by the `snapslide-photo` crate (decode with limits, EXIF, crop,
//! slice), which runs optimised even in dev builds. The `tiles` module runs it in the
//! background; the platform module brings the photos the player picks.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use snapslide_photo::image::DynamicImage;

pub use snapslide_photo::*;

/// Where the current photo comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PhotoSource {
    /// One of the photos built into the app, by file name.
    Bundled(String),
    /// A file named on the command line.
    File(PathBuf),
    /// A photo the player picked (from the gallery, the camera, a file dialog or a drop),
    /// kept in the app's data folder.
    Picked(PathBuf),
}

impl Default for PhotoSource {
    fn default() -> Self {
        PhotoSource::Bundled(BUNDLED[0].0.to_string())
    }
}

impl PhotoSource {
    /// This source, or the default photo if it names a bundled photo the app does not have.
    pub fn sanitized(self) -> PhotoSource {
        match &self {
            PhotoSource::Bundled(name) if bundled(name).is_none() => PhotoSource::default(),
            _ => self,
        }
    }

    /// A short name for the HUD.
    pub fn label(&self) -> String {
        match self {
            PhotoSource::Bundled(name) => bundled_title(name),
            PhotoSource::File(path) => path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string()),
            PhotoSource::Picked(_) => "Your photo".into(),
        }
    }
}

/// The photos built into the app: (file name, bytes).
pub const BUNDLED: [(&str, &[u8]); 5] = [
    (
        "chelsea.png",
        include_bytes!("../assets/photos/chelsea.png"),
    ),
    ("coffee.png", include_bytes!("../assets/photos/coffee.png")),
    ("rocket.jpg", include_bytes!("../assets/photos/rocket.jpg")),
    (
        "astronaut.png",
        include_bytes!("../assets/photos/astronaut.png"),
    ),
    (
        "hubble_deep_field.jpg",
        include_bytes!("../assets/photos/hubble_deep_field.jpg"),
    ),
];

/// A bundled photo's name for the player ("Hubble deep field").
pub fn bundled_title(name: &str) -> String {
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let words = stem.replace(['_', '-'], " ");
    let mut chars = words.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The bytes of a bundled photo.
pub fn bundled(name: &str) -> Option<&'static [u8]> {
    BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

/// Loads the photo a source names.
pub fn load(source: &PhotoSource) -> Result<DynamicImage, PhotoError> {
    match source {
        PhotoSource::Bundled(name) => {
            decode(bundled(name).ok_or_else(|| PhotoError::NotFound(name.clone()))?)
        }
        PhotoSource::File(path) | PhotoSource::Picked(path) => load_file(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_photos_decode() {
        for (name, _) in BUNDLED {
            let image = load(&PhotoSource::Bundled(name.into())).unwrap();
            assert!(image.width() >= 300, "{name}");
        }
    }

    #[test]
    fn an_unknown_bundled_photo_is_named_and_falls_back() {
        let unknown = PhotoSource::Bundled("no-such.png".into());
        assert!(matches!(load(&unknown), Err(PhotoError::NotFound(_))));
        assert_eq!(unknown.sanitized(), PhotoSource::default());
        let known = PhotoSource::Bundled(BUNDLED[1].0.into());
        assert_eq!(known.clone().sanitized(), known);
        assert_eq!(known.label(), "Coffee");
        assert_eq!(bundled_title("hubble_deep_field.jpg"), "Hubble deep field");
    }

    #[test]
    fn a_bundled_jpeg_cut_short_is_refused() {
        let whole = bundled("rocket.jpg").unwrap();
        assert!(matches!(
            decode(&whole[..5_000]),
            Err(PhotoError::Truncated)
        ));
    }
}
