//! Any bytes as a photo: decoded within the limits or refused, never a panic, a hang or an
//! allocation past the limits. A photo that decodes is cut for a 3×3 and a 4×3 board as
//! `prepare` cuts it (`picture_size`, `crop_to`, `slice`), at a small picture's size rather
//! than `PICTURE_SIDE`, whose scaling would take most of the time.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snapslide_photo::{crop_to, decode, file_extension, picture_size, slice};

/// The side of a tile in the small pictures cut here.
const TILE: u32 = 8;

fuzz_target!(|data: &[u8]| {
    let Ok(image) = decode(data) else {
        return;
    };
    assert!(image.width() > 0 && image.height() > 0);
    assert!(
        file_extension(data).is_ok(),
        "decoded, yet refused by extension"
    );
    for (width, height) in [(3, 3), (4, 3)] {
        let (w, h) = picture_size(width, height);
        assert_eq!((w % width, h % height), (0, 0));
        let picture = crop_to(&image, width * TILE, height * TILE);
        assert_eq!(picture.dimensions(), (width * TILE, height * TILE));
        let (tiles, side) = slice(&picture, width, height);
        assert_eq!((tiles.len(), side), ((width * height) as usize, TILE));
    }
});
