//! Photos: decode (with limits against image bombs, refusing files cut short), turn upright by
//! the EXIF orientation, centre-crop to the board's shape, scale, and cut into tiles. Plain
//! Rust: the `tiles` module runs it in the background and makes textures of the tiles, and
//! the platform module brings the photos the player picks.

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
    /// A bundled photo the app does not have.
    #[error("there is no bundled photo called {0}")]
    UnknownBundled(String),
}

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

/// Decodes image bytes with limits, and turns it upright by its EXIF orientation.
pub fn decode(bytes: &[u8]) -> Result<DynamicImage, PhotoError> {
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| PhotoError::Decode(e.to_string()))?;
    match reader.format() {
        Some(image::ImageFormat::Jpeg) if !jpeg_is_complete(bytes) => {
            return Err(PhotoError::Truncated);
        }
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

/// Loads the photo a source names.
pub fn load(source: &PhotoSource) -> Result<DynamicImage, PhotoError> {
    match source {
        PhotoSource::Bundled(name) => {
            decode(bundled(name).ok_or_else(|| PhotoError::UnknownBundled(name.clone()))?)
        }
        PhotoSource::File(path) | PhotoSource::Picked(path) => load_file(path),
    }
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
}

/// Crops, scales and slices a decoded photo for a board of `width` × `height` tiles.
pub fn prepare(image: &DynamicImage, width: u32, height: u32) -> PreparedPhoto {
    let (w, h) = picture_size(width, height);
    let picture = crop_to(image, w, h);
    let (tiles, _) = slice(&picture, width, height);
    PreparedPhoto { picture, tiles }
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
        assert!(matches!(load(&unknown), Err(PhotoError::UnknownBundled(_))));
        assert_eq!(unknown.sanitized(), PhotoSource::default());
        let known = PhotoSource::Bundled(BUNDLED[1].0.into());
        assert_eq!(known.clone().sanitized(), known);
    }

    #[test]
    fn a_jpeg_cut_short_is_refused() {
        let whole = bundled("rocket.jpg").unwrap();
        assert!(jpeg_is_complete(whole));
        assert!(decode(whole).is_ok());
        for cut in [5_000, whole.len() / 2, whole.len() - 2] {
            assert!(
                matches!(decode(&whole[..cut]), Err(PhotoError::Truncated)),
                "the first {cut} bytes decoded"
            );
        }
    }
}
