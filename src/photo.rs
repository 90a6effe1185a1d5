//! Photos: decode (with limits against image bombs), EXIF orientation, centre-crop to a square,
//! scale, and cut into tiles. The decoding is plain Rust; the plugin turns tiles into textures
//! and runs the desktop file dialog and drag and drop.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder, ImageReader, Limits, RgbaImage};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The largest file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// The largest width or height a photo may declare.
pub const MAX_SIDE_PIXELS: u32 = 16_384;
/// The most memory the decoder may allocate.
pub const MAX_DECODE_BYTES: u64 = 512 << 20;
/// The side of the square the photo is scaled to before slicing (rounded down to a multiple of N).
pub const SQUARE_SIDE: u32 = 960;

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
}

/// Where the current photo comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PhotoSource {
    /// One of the photos built into the app, by file name.
    Bundled(String),
    /// A file the player chose.
    File(PathBuf),
}

impl Default for PhotoSource {
    fn default() -> Self {
        PhotoSource::Bundled(BUNDLED[0].0.to_string())
    }
}

impl PhotoSource {
    /// A short name for the HUD.
    pub fn label(&self) -> String {
        match self {
            PhotoSource::Bundled(name) => name.clone(),
            PhotoSource::File(path) => path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string()),
        }
    }
}

/// The photos built into the app: (file name, bytes).
pub const BUNDLED: [(&str, &[u8]); 3] = [
    (
        "chelsea.png",
        include_bytes!("../assets/photos/chelsea.png"),
    ),
    ("coffee.png", include_bytes!("../assets/photos/coffee.png")),
    ("rocket.jpg", include_bytes!("../assets/photos/rocket.jpg")),
];

/// Decodes image bytes with limits, and turns it upright by its EXIF orientation.
pub fn decode(bytes: &[u8]) -> Result<DynamicImage, PhotoError> {
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| PhotoError::Decode(e.to_string()))?;
    match reader.format() {
        Some(image::ImageFormat::Png | image::ImageFormat::Jpeg | image::ImageFormat::WebP) => {}
        _ => return Err(PhotoError::UnknownFormat),
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE_PIXELS);
    limits.max_image_height = Some(MAX_SIDE_PIXELS);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    let mut reader = reader;
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(classify)?;
    let orientation = decoder.orientation().map_err(classify)?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(classify)?;
    image.apply_orientation(orientation);
    if image.width() == 0 || image.height() == 0 {
        return Err(PhotoError::Empty);
    }
    Ok(image)
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

/// Loads the photo a source names.
pub fn load(source: &PhotoSource) -> Result<DynamicImage, PhotoError> {
    match source {
        PhotoSource::Bundled(name) => {
            let bytes = BUNDLED
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, b)| *b)
                .unwrap_or(BUNDLED[0].1);
            decode(bytes)
        }
        PhotoSource::File(path) => load_file(path),
    }
}

/// Centre-crops an image to a square and scales it to `side` pixels.
pub fn square(image: &DynamicImage, side: u32) -> RgbaImage {
    let (w, h) = (image.width(), image.height());
    let crop = w.min(h).max(1);
    let cropped = image.crop_imm((w - crop) / 2, (h - crop) / 2, crop, crop);
    let rgba = cropped.to_rgba8();
    if crop == side {
        rgba
    } else {
        image::imageops::resize(&rgba, side, side, FilterType::Triangle)
    }
}

/// Cuts a square image into `n`×`n` tiles in row-major order (tile `t` belongs on cell `t - 1`;
/// the last is the blank's cell, shown on the win). Returns the tiles and their side.
pub fn slice(square: &RgbaImage, n: u32) -> (Vec<RgbaImage>, u32) {
    let n = n.max(1);
    let side = square.width().min(square.height()) / n;
    let mut tiles = Vec::with_capacity((n * n) as usize);
    for row in 0..n {
        for column in 0..n {
            let view = image::imageops::crop_imm(square, column * side, row * side, side, side);
            tiles.push(view.to_image());
        }
    }
    (tiles, side)
}

/// The square side for `n` tiles a side: the largest multiple of `n` not over [`SQUARE_SIDE`].
pub fn square_side(n: u32) -> u32 {
    let n = n.max(1);
    (SQUARE_SIDE / n) * n
}

/// A photo ready for the board: the upright square and its tiles.
#[derive(Clone, Debug)]
pub struct PreparedPhoto {
    /// The centre-cropped, scaled square.
    pub square: RgbaImage,
    /// The tiles, row-major.
    pub tiles: Vec<RgbaImage>,
    /// Tiles per side.
    pub n: u32,
}

/// Crops, scales and slices a decoded photo for an `n`×`n` board.
pub fn prepare(image: &DynamicImage, n: u32) -> PreparedPhoto {
    let square = square(image, square_side(n));
    let (tiles, _) = slice(&square, n);
    PreparedPhoto { square, tiles, n }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_side_is_a_multiple_of_n() {
        for n in 3..=8 {
            let s = square_side(n);
            assert_eq!(s % n, 0);
            assert!(s <= SQUARE_SIDE && s > SQUARE_SIDE - n);
        }
    }

    #[test]
    fn bundled_photos_decode() {
        for (name, _) in BUNDLED {
            let image = load(&PhotoSource::Bundled(name.into())).unwrap();
            assert!(image.width() >= 300, "{name}");
        }
    }
}
