//! Photos for a sliding puzzle: decode (with limits against image bombs, refusing files cut
//! short), turn it upright by its EXIF orientation, frame the part to play (`frame`: the
//! player's frame, its rules, and where the subject most likely is: `subject`), and cut the
//! frame into square tiles, scaled down from the photo's own pixels; and a small copy for the
//! framing sheet (`preview`); a replay as an animated GIF (`replay_gif`). Plain Rust, no Bevy.
//!
//! A crate of its own so that it runs optimised even in the app's dev builds: the `image`
//! crate's generic code is compiled where it is called, and a phone's 12-megapixel photo must
//! reach the board within a second.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder, ImageReader, Limits, RgbaImage};
use thiserror::Error;

pub mod caption;
pub mod framing;
pub mod likeness;
pub mod preview;
pub mod replay_gif;
pub mod subject;

pub use caption::Caption;
pub use framing::{
    Crop, CropError, Framing, MIN_TILE_PIXELS, holds_a_board, turned_size, unturned,
};
pub use image;
pub use preview::{PREVIEW_SIDE, preview};
pub use replay_gif::{GifError, ReplaySpec, Slide, replay_gif};
pub use subject::subject_framing;

/// The largest file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// The largest width or height a photo may declare.
pub const MAX_SIDE_PIXELS: u32 = 16_384;
/// The most memory the decoder may allocate.
pub const MAX_DECODE_BYTES: u64 = 512 << 20;
/// The longer side of the picture the photo is scaled to before slicing (rounded down to a
/// multiple of the board's side).
pub const PICTURE_SIDE: u32 = 960;

/// Why a photo could not be used.
#[derive(Debug, Error)]
pub enum PhotoError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is larger than the app accepts.
    #[error("the file is too large ({bytes} bytes; the limit is {MAX_FILE_BYTES})")]
    FileTooLarge {
        /// Its size.
        bytes: u64,
    },
    /// The bytes are not an image the app reads (PNG, JPEG, WebP).
    #[error("not a PNG, JPEG or WebP image")]
    UnknownFormat,
    /// The image declares a size past the limits (an image bomb, or simply too big).
    #[error("the image is too large to decode: {0}")]
    TooLarge(String),
    /// The image is damaged.
    #[error("the image could not be decoded: {0}")]
    Decode(String),
    /// The image has no pixels.
    #[error("the image is empty")]
    Empty,
    /// The file ends before the image does (a download or copy cut short).
    #[error("the image is incomplete: the file ends before the picture does")]
    Truncated,
    /// A photo the app does not have (a bundled photo by a name it does not know).
    #[error("there is no photo called {0}")]
    NotFound(String),
    /// Too small, or too thin, for any board at the fewest pixels a tile.
    #[error("the photo is {width} × {height} pixels, too small for any board")]
    TooSmallToPlay {
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
    },
}

/// Decodes image bytes with limits and turns the image upright by its EXIF orientation, at
/// the photo's own size (the frame is cut from its pixels, never from a smaller copy).
pub fn decode(bytes: &[u8]) -> Result<DynamicImage, PhotoError> {
    file_extension(bytes)?;
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| PhotoError::Decode(e.to_string()))?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE_PIXELS);
    limits.max_image_height = Some(MAX_SIDE_PIXELS);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    let mut reader = reader;
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(classify)?;
    let orientation = decoder.orientation().map_err(classify)?;
    let image = DynamicImage::from_decoder(decoder).map_err(classify)?;
    if image.width() == 0 || image.height() == 0 {
        return Err(PhotoError::Empty);
    }
    let mut image = image;
    image.apply_orientation(orientation);
    Ok(image)
}

/// The file extension for image bytes the app reads (`jpg`, `png`, `webp`), after the cheap
/// checks: a known format, and for JPEG a whole file.
pub fn file_extension(bytes: &[u8]) -> Result<&'static str, PhotoError> {
    match image::guess_format(bytes) {
        Ok(image::ImageFormat::Jpeg) if jpeg_is_complete(bytes) => Ok("jpg"),
        Ok(image::ImageFormat::Jpeg) => Err(PhotoError::Truncated),
        Ok(image::ImageFormat::Png) => Ok("png"),
        Ok(image::ImageFormat::WebP) => Ok("webp"),
        _ => Err(PhotoError::UnknownFormat),
    }
}

/// Whether a JPEG file holds its whole picture: walks the marker segments from the start to
/// the first scan, then looks for the end-of-image marker after it. JPEG decoders fill a
/// picture cut short with grey without a word; this is how the app tells.
pub fn jpeg_is_complete(bytes: &[u8]) -> bool {
    let mut at = 2; // after the start-of-image marker
    while at + 4 <= bytes.len() {
        if bytes[at] != 0xFF {
            return false;
        }
        let marker = bytes[at + 1];
        if marker == 0xFF {
            at += 1; // fill byte
            continue;
        }
        let length = u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]) as usize;
        at += 2 + length;
        if marker == 0xDA {
            // The entropy-coded data never holds FF D9: a stuffed FF is followed by 00.
            return bytes
                .get(at.min(bytes.len())..)
                .is_some_and(|rest| rest.windows(2).any(|w| w == [0xFF, 0xD9]));
        }
    }
    false
}

fn classify(error: image::ImageError) -> PhotoError {
    match error {
        image::ImageError::Limits(e) => PhotoError::TooLarge(e.to_string()),
        image::ImageError::Unsupported(_) => PhotoError::UnknownFormat,
        other => PhotoError::Decode(other.to_string()),
    }
}

/// Reads and decodes a photo file (size-checked first).
pub fn load_file(path: &Path) -> Result<DynamicImage, PhotoError> {
    let read_error = |source| PhotoError::Read {
        path: path.to_path_buf(),
        source,
    };
    let bytes = std::fs::metadata(path).map_err(read_error)?.len();
    if bytes > MAX_FILE_BYTES {
        return Err(PhotoError::FileTooLarge { bytes });
    }
    let data = std::fs::read(path).map_err(read_error)?;
    decode(&data)
}

/// The picture's size for a board of `width` × `height` square tiles: the longer side at most
/// [`PICTURE_SIDE`], both sides multiples of the board's.
pub fn picture_size(width: u32, height: u32) -> (u32, u32) {
    let (width, height) = (width.max(1), height.max(1));
    let tile = (PICTURE_SIDE / width.max(height)).max(1);
    (width * tile, height * tile)
}

/// Centre-crops an image to the aspect of `width` × `height` and scales it to that size.
pub fn crop_to(image: &DynamicImage, width: u32, height: u32) -> RgbaImage {
    let (w, h) = (image.width() as u64, image.height() as u64);
    let (tw, th) = (width.max(1) as u64, height.max(1) as u64);
    // The largest tw:th rectangle inside the image.
    let (crop_w, crop_h) = if w * th > h * tw {
        (h * tw / th, h)
    } else {
        (w, w * th / tw)
    };
    let (crop_w, crop_h) = (crop_w.max(1) as u32, crop_h.max(1) as u32);
    let x = (image.width() - crop_w) / 2;
    let y = (image.height() - crop_h) / 2;
    let cropped = image.crop_imm(x, y, crop_w, crop_h);
    if (crop_w, crop_h) == (width, height) {
        cropped.to_rgba8()
    } else if crop_w > width {
        // Down: averaging areas is smooth and much faster than a filter.
        cropped.thumbnail_exact(width, height).to_rgba8()
    } else {
        cropped
            .resize_exact(width, height, FilterType::Triangle)
            .to_rgba8()
    }
}

/// Centre-crops an image to a square and scales it to `side` pixels.
pub fn square(image: &DynamicImage, side: u32) -> RgbaImage {
    crop_to(image, side, side)
}

/// Cuts a picture into `width` × `height` square tiles in row-major order (tile `t` belongs on
/// cell `t - 1`; the last is the blank's cell, shown on the win). Returns the tiles and their
/// side.
pub fn slice(picture: &RgbaImage, width: u32, height: u32) -> (Vec<RgbaImage>, u32) {
    let (width, height) = (width.max(1), height.max(1));
    let side = (picture.width() / width).min(picture.height() / height);
    let mut tiles = Vec::with_capacity((width * height) as usize);
    for row in 0..height {
        for column in 0..width {
            let view = image::imageops::crop_imm(picture, column * side, row * side, side, side);
            tiles.push(view.to_image());
        }
    }
    (tiles, side)
}

/// A photo ready for the board: the upright picture, cropped to the board's shape, and its
/// tiles.
#[derive(Clone, Debug)]
pub struct PreparedPhoto {
    /// The centre-cropped, scaled picture.
    pub picture: RgbaImage,
    /// The tiles, row-major.
    pub tiles: Vec<RgbaImage>,
    /// The whole photo's width over its height, upright (before the crop).
    pub aspect: f32,
}

/// Crops, scales and slices a decoded photo for a board of `width` × `height` tiles.
pub fn prepare(image: &DynamicImage, width: u32, height: u32) -> PreparedPhoto {
    prepare_framed(image, 0, None, width, height)
}

/// The photo turned `turns` quarters clockwise, the frame `crop` cut from it (a rectangle of
/// the turned photo; the largest centred one of the board's shape if `None`), scaled to the
/// picture's size and sliced for a board of `width` × `height` tiles. Only the frame's pixels
/// are scaled and turned, from the photo's own.
pub fn prepare_framed(
    image: &DynamicImage,
    turns: u8,
    crop: Option<Crop>,
    width: u32,
    height: u32,
) -> PreparedPhoto {
    let (w, h) = picture_size(width, height);
    let size = (image.width(), image.height());
    let turned = turned_size(size, turns);
    let picture = match crop {
        Some(crop) => {
            let source = unturned(crop, size, turns);
            let (pw, ph) = turned_size((w, h), turns);
            let cut = image.crop_imm(source.x, source.y, source.width, source.height);
            turn(scale_to(&cut, pw, ph), turns)
        }
        None if turns == 0 => crop_to(image, w, h),
        None => crop_to(&turn_image(image, turns), w, h),
    };
    let (tiles, _) = slice(&picture, width, height);
    let aspect = turned.0 as f32 / turned.1.max(1) as f32;
    PreparedPhoto {
        picture,
        tiles,
        aspect,
    }
}

/// An image scaled to exactly `width` × `height`: averaged down, or smoothly up.
fn scale_to(image: &DynamicImage, width: u32, height: u32) -> RgbaImage {
    if (image.width(), image.height()) == (width, height) {
        image.to_rgba8()
    } else if image.width() > width {
        image.thumbnail_exact(width, height).to_rgba8()
    } else {
        image
            .resize_exact(width, height, FilterType::Triangle)
            .to_rgba8()
    }
}

/// A picture turned `turns` quarters clockwise.
pub fn turn(picture: RgbaImage, turns: u8) -> RgbaImage {
    match turns % 4 {
        1 => image::imageops::rotate90(&picture),
        2 => image::imageops::rotate180(&picture),
        3 => image::imageops::rotate270(&picture),
        _ => picture,
    }
}

/// A whole image turned `turns` quarters clockwise.
pub fn turn_image(image: &DynamicImage, turns: u8) -> DynamicImage {
    match turns % 4 {
        1 => image.rotate90(),
        2 => image.rotate180(),
        3 => image.rotate270(),
        _ => image.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picture_sides_are_multiples_of_the_board() {
        for (w, h) in [(3, 3), (4, 4), (8, 8), (3, 4), (4, 3), (5, 7)] {
            let (pw, ph) = picture_size(w, h);
            assert_eq!((pw % w, ph % h), (0, 0), "{w}×{h}");
            assert_eq!(pw / w, ph / h, "square tiles on {w}×{h}");
            assert!(pw.max(ph) <= PICTURE_SIDE && pw.max(ph) > PICTURE_SIDE - w.max(h));
        }
    }

    /// A photo whose every pixel says where it came from: red the column, green the row (in
    /// steps of 4 pixels), blue the quadrant.
    fn gradient(width: u32, height: u32) -> DynamicImage {
        DynamicImage::ImageRgba8(RgbaImage::from_fn(width, height, |x, y| {
            let quadrant = (x * 2 / width) + 2 * (y * 2 / height);
            image::Rgba([(x / 4) as u8, (y / 4) as u8, (quadrant * 60) as u8, 255])
        }))
    }

    #[test]
    fn the_tiles_are_the_frames_pixels() {
        // 960 picture pixels a side for 3 × 3: a frame 960 wide is cut pixel for pixel.
        let photo = gradient(1000, 1000);
        let crop = Crop {
            x: 20,
            y: 36,
            width: 960,
            height: 960,
        };
        let prepared = prepare_framed(&photo, 0, Some(crop), 3, 3);
        let source = photo.to_rgba8();
        for (t, tile) in prepared.tiles.iter().enumerate() {
            let (column, row) = (t as u32 % 3, t as u32 / 3);
            for (x, y) in [(0, 0), (319, 0), (100, 200), (319, 319)] {
                let at = (crop.x + column * 320 + x, crop.y + row * 320 + y);
                assert_eq!(
                    tile.get_pixel(x, y),
                    source.get_pixel(at.0, at.1),
                    "tile {t} at {x},{y}"
                );
            }
        }
    }

    #[test]
    fn a_turned_photos_frame_is_cut_the_right_way_up() {
        // The photo turned a quarter clockwise: its left column becomes the top row.
        let photo = gradient(1200, 960);
        let turned = turn_image(&photo, 1).to_rgba8();
        let crop = Crop {
            x: 0,
            y: 100,
            width: 960,
            height: 960,
        };
        let prepared = prepare_framed(&photo, 1, Some(crop), 3, 3);
        for (x, y) in [(0, 0), (959, 0), (0, 959), (480, 300)] {
            let want = turned.get_pixel(crop.x + x, crop.y + y);
            assert_eq!(prepared.picture.get_pixel(x, y), want, "at {x},{y}");
        }
    }

    fn jpeg(width: u32, height: u32) -> Vec<u8> {
        let image = RgbaImage::from_fn(width, height, |x, y| {
            image::Rgba([(x * 7) as u8, (y * 5) as u8, ((x + y) * 3) as u8, 255])
        });
        let mut bytes = Vec::new();
        DynamicImage::ImageRgba8(image)
            .to_rgb8()
            .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Jpeg)
            .unwrap();
        bytes
    }

    #[test]
    fn a_jpeg_cut_short_is_refused() {
        let whole = jpeg(300, 200);
        assert!(jpeg_is_complete(&whole));
        assert!(decode(&whole).is_ok());
        for cut in [200, whole.len() / 2, whole.len() - 2] {
            assert!(
                matches!(decode(&whole[..cut]), Err(PhotoError::Truncated)),
                "the first {cut} bytes decoded"
            );
        }
    }

    #[test]
    fn extensions_follow_the_format_and_refuse_the_rest() {
        let whole = jpeg(40, 30);
        assert!(matches!(file_extension(&whole), Ok("jpg")));
        assert!(matches!(
            file_extension(&whole[..whole.len() - 2]),
            Err(PhotoError::Truncated)
        ));
        assert!(matches!(
            file_extension(b"hello"),
            Err(PhotoError::UnknownFormat)
        ));
    }

    #[test]
    fn a_crop_keeps_the_middle_in_the_boards_shape() {
        // 400 × 200, red left and right of a 200 × 200 green middle.
        let image = RgbaImage::from_fn(400, 200, |x, _| {
            if (100..300).contains(&x) {
                image::Rgba([0, 255, 0, 255])
            } else {
                image::Rgba([255, 0, 0, 255])
            }
        });
        let image = DynamicImage::ImageRgba8(image);
        let square = crop_to(&image, 100, 100);
        assert!(
            square.pixels().all(|p| p.0[1] > 200 && p.0[0] < 60),
            "red crept in"
        );
        let wide = crop_to(&image, 200, 100);
        assert_eq!((wide.width(), wide.height()), (200, 100));
    }
}
