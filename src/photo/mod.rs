//! Where the photo comes from: the photos built into the app, a file, or one the player
//! picked; loaded and cut by the `snapslide-photo` crate (decode with limits, EXIF, framing,
//! slice), which runs optimised even in dev builds. The `framing` and `tiles` modules run it
//! in the background, sharing the last photo decoded; the platform module brings the photos
//! the player picks.

pub mod framing;

use std::sync::{Arc, Mutex};

use snapslide_photo::image::DynamicImage;

use crate::app::background::lock;
use crate::game::{DailyPuzzle, Day, PhotoFraming};

pub use crate::game::{FramedPhoto, PhotoSource};
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
        include_bytes!("../../assets/photos/chelsea.png"),
    ),
    (
        "coffee.png",
        include_bytes!("../../assets/photos/coffee.png"),
    ),
    (
        "rocket.jpg",
        include_bytes!("../../assets/photos/rocket.jpg"),
    ),
    (
        "astronaut.png",
        include_bytes!("../../assets/photos/astronaut.png"),
    ),
    (
        "hubble_deep_field.jpg",
        include_bytes!("../../assets/photos/hubble_deep_field.jpg"),
    ),
];

/// The bundled photos the puzzle of the day is drawn from (the rules' list, which the
/// leaderboard's server shares).
pub use crate::game::DAILY_PHOTOS;

/// The photo on the board: the day's for the puzzle of the day, else the one the player chose
/// (the day's never replaces the player's choice).
pub fn photo_for(day: Option<Day>, chosen: &FramedPhoto) -> FramedPhoto {
    match day {
        Some(day) => {
            let name = DailyPuzzle::of(day, DAILY_PHOTOS.len()).photo_name();
            FramedPhoto::whole(PhotoSource::Bundled(name.to_string()))
        }
        None => chosen.clone(),
    }
}

/// The part of a photo (of this size, upright) a board of `board` is cut from, and the photo's
/// quarter turns: the player's framing when it is the board's shape; for another shape the framing
/// of that shape about the same centre and of about the same area; the largest centred one
/// when there is no framing (or it is not on this photo).
pub fn crop_for(photo: &FramedPhoto, size: (u32, u32), board: (u32, u32)) -> (u8, Option<Crop>) {
    let Some(framing) = photo.framing else {
        return (0, None);
    };
    let turns = framing.turns % 4;
    let turned = if turns % 2 == 0 {
        size
    } else {
        (size.1, size.0)
    };
    let crop = Crop {
        x: framing.x,
        y: framing.y,
        width: framing.width,
        height: framing.height,
    };
    let inside = crop.width > 0
        && crop.height > 0
        && crop
            .x
            .checked_add(crop.width)
            .is_some_and(|r| r <= turned.0)
        && crop
            .y
            .checked_add(crop.height)
            .is_some_and(|b| b <= turned.1);
    if !inside {
        return (0, None);
    }
    if let Ok(exact) = Framing::from_crop(turned, board, crop) {
        return (turns, Some(exact.crop()));
    }
    let Some(largest) = Framing::centred(turned, board) else {
        return (turns, None);
    };
    let area = crop.width as f32 * crop.height as f32;
    let reshaped = Framing {
        center: (
            crop.x as f32 + crop.width as f32 / 2.0,
            crop.y as f32 + crop.height as f32 / 2.0,
        ),
        width: (area * board.0 as f32 / board.1 as f32).sqrt(),
        ..largest
    }
    .panned(0.0, 0.0);
    (turns, Some(reshaped.crop()))
}

/// The player's framing as saved, from the framing drawn over a photo turned `turns` quarters.
pub fn photo_framing(framing: &Framing, turns: u8) -> PhotoFraming {
    let crop = framing.crop();
    PhotoFraming {
        turns: turns % 4,
        x: crop.x,
        y: crop.y,
        width: crop.width,
        height: crop.height,
    }
}

/// The last photo decoded, shared: the framing sheet decodes a photo once, and the board's
/// cut (and a restart, or the next game on the same photo) takes it from here.
static LAST_DECODED: Mutex<Option<(PhotoSource, Arc<DynamicImage>)>> = Mutex::new(None);

/// Loads the photo a source names, or takes it from the last one decoded if it is the same.
pub fn load_shared(source: &PhotoSource) -> Result<Arc<DynamicImage>, PhotoError> {
    if let Some((kept, image)) = lock(&LAST_DECODED).as_ref()
        && kept == source
    {
        return Ok(Arc::clone(image));
    }
    let image = Arc::new(load(source)?);
    *lock(&LAST_DECODED) = Some((source.clone(), Arc::clone(&image)));
    Ok(image)
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
    fn a_frame_follows_the_board_shape_about_its_centre() {
        let framed = |x, y, width, height| FramedPhoto {
            source: default_photo(),
            framing: Some(PhotoFraming {
                turns: 0,
                x,
                y,
                width,
                height,
            }),
        };
        // The board the framing was drawn for: the framing itself.
        let square = framed(100, 200, 800, 800);
        let crop = Crop {
            x: 100,
            y: 200,
            width: 800,
            height: 800,
        };
        assert_eq!(crop_for(&square, (2000, 1500), (4, 4)), (0, Some(crop)));
        assert_eq!(crop_for(&square, (2000, 1500), (6, 6)), (0, Some(crop)));
        // A portrait board: about the same centre (500, 600), of the board's shape.
        let (_, tall) = crop_for(&square, (2000, 1500), (3, 4));
        let tall = tall.unwrap();
        assert_eq!(tall.width * 4, tall.height * 3);
        let centre = (tall.x + tall.width / 2, tall.y + tall.height / 2);
        assert!(
            centre.0.abs_diff(500) <= 1 && centre.1.abs_diff(600) <= 1,
            "{tall:?}"
        );
        // A framing that is not on this photo (another photo's, a hand-edited file): centred.
        assert_eq!(
            crop_for(&framed(1900, 0, 800, 800), (2000, 1500), (4, 4)),
            (0, None)
        );
        assert_eq!(
            crop_for(&FramedPhoto::whole(default_photo()), (2000, 1500), (4, 4)),
            (0, None)
        );
    }

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
        let chosen = FramedPhoto::whole(PhotoSource::Bundled("hubble_deep_field.jpg".into()));
        assert_eq!(photo_for(None, &chosen), chosen);
        let mut seen = std::collections::BTreeSet::new();
        for day in 20_000..20_200 {
            let PhotoSource::Bundled(name) = photo_for(Some(day), &chosen).source else {
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
