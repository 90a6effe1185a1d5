//! Where the photo comes from: the photos built into the app, a file, or one the player
//! picked; loaded and cut by the `snapslide-photo` crate (decode with limits, EXIF, crop,
//! slice), which runs optimised even in dev builds. The `tiles` module runs it in the
//! background; the platform module brings the photos the player picks.

use snapslide_photo::image::DynamicImage;

use crate::game::{DailyPuzzle, Day};

pub use crate::game::PhotoSource;
pub use snapslide_photo::*;

/// The photo the app starts with: the first bundled one.
pub fn default_photo() -> PhotoSource {
    PhotoSource::Bundled(BUNDLED[0].0.to_string())
}

/// This source, or the default photo if it names a bundled photo the app does not have.
pub fn sanitized(source: PhotoSource) -> PhotoSource {
    match &source {
        PhotoSource::Bundled(name) if bundled(name).is_none() => default_photo(),
        _ => source,
    }
}

/// A short name for the HUD.
pub fn label(source: &PhotoSource) -> String {
    match source {
        PhotoSource::Bundled(name) => bundled_title(name),
        PhotoSource::File(path) => path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string()),
        PhotoSource::Picked(_) => "Your photo".into(),
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

/// The bundled photos the puzzle of the day is drawn from: each has shapes and colours to
/// find a tile's place by eye (the Hubble Deep Field, galaxies alike on black, is left out).
pub const DAILY_PHOTOS: [&str; 4] = ["chelsea.png", "coffee.png", "rocket.jpg", "astronaut.png"];

/// The photo on the board: the day's for the puzzle of the day, else the one the player chose
/// (the day's never replaces the player's choice).
pub fn photo_for(day: Option<Day>, chosen: &PhotoSource) -> PhotoSource {
    match day {
        Some(day) => {
            let index = DailyPuzzle::of(day, DAILY_PHOTOS.len()).photo;
            PhotoSource::Bundled(DAILY_PHOTOS[index % DAILY_PHOTOS.len()].to_string())
        }
        None => chosen.clone(),
    }
}

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
        assert_eq!(sanitized(unknown), default_photo());
        let known = PhotoSource::Bundled(BUNDLED[1].0.into());
        assert_eq!(sanitized(known.clone()), known);
        assert_eq!(label(&known), "Coffee");
        assert_eq!(bundled_title("hubble_deep_field.jpg"), "Hubble deep field");
    }

    #[test]
    fn the_days_photo_is_one_to_solve_by_eye_and_leaves_the_players_alone() {
        let chosen = PhotoSource::Bundled("hubble_deep_field.jpg".into());
        assert_eq!(photo_for(None, &chosen), chosen);
        let mut seen = std::collections::BTreeSet::new();
        for day in 20_000..20_200 {
            let PhotoSource::Bundled(name) = photo_for(Some(day), &chosen) else {
                panic!("the day's photo is not bundled");
            };
            assert!(bundled(&name).is_some(), "{name}");
            assert_ne!(name, "hubble_deep_field.jpg");
            seen.insert(name);
        }
        assert_eq!(seen.len(), DAILY_PHOTOS.len(), "some photo never comes");
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
