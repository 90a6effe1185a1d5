//! The pictures the page shows, each made once and kept on disk in the data folder: the day's
//! board cut from its photo, the photo whole, and each result's replay as a GIF (crates/photo's
//! `replay_gif`, as the app makes it).

use std::path::{Path, PathBuf};

use challenge::Challenge;
use snapslide_photo::image::{ImageFormat, Rgba, RgbaImage, imageops};
use snapslide_photo::{Caption, ReplaySpec, Slide, replay_gif, slice, square};
use tokio::sync::Semaphore;

use crate::daily::{DayBoard, unavailable};
use crate::date::format_date;
use crate::error::ApiError;

/// The side of the board's picture and of the GIF, in pixels.
pub const PICTURE_SIDE: u32 = 480;
/// The side of the photo shown whole, in pixels.
pub const PHOTO_SIDE: u32 = 160;
/// The lines between tiles, in pixels.
const LINE: u32 = 2;
/// The gap's and the lines' colour (the replay GIF's).
const DARK: Rgba<u8> = Rgba([24, 24, 28, 255]);
/// The pictures made at the same time at most (each takes a core for a moment).
const MAKING_AT_ONCE: usize = 2;

/// The daily's photos, built into the server from the app's `assets/photos`.
const PHOTOS: [(&str, &[u8]); 4] = [
    (
        "chelsea.png",
        include_bytes!("../../../assets/photos/chelsea.png"),
    ),
    (
        "coffee.png",
        include_bytes!("../../../assets/photos/coffee.png"),
    ),
    (
        "rocket.jpg",
        include_bytes!("../../../assets/photos/rocket.jpg"),
    ),
    (
        "astronaut.png",
        include_bytes!("../../../assets/photos/astronaut.png"),
    ),
];

/// The pictures' folder on disk, and the turns to make them.
#[derive(Debug)]
pub struct Images {
    dir: PathBuf,
    making: Semaphore,
}

impl Images {
    /// Pictures kept under `dir`.
    pub fn new(dir: PathBuf) -> Images {
        Images {
            dir,
            making: Semaphore::new(MAKING_AT_ONCE),
        }
    }

    /// The day's start board drawn with its photo's tiles, as PNG.
    ///
    /// # Errors
    ///
    /// [`ApiError::Unavailable`] when it cannot be made or kept.
    pub async fn board_png(&self, daily: &DayBoard) -> Result<Vec<u8>, ApiError> {
        let path = self
            .dir
            .join("boards")
            .join(format!("{}.png", format_date(daily.day)));
        let (photo, tiles) = (daily.photo, daily.board.tiles().to_vec());
        let (columns, rows) = (daily.board.width() as u32, daily.board.height() as u32);
        self.made_once(&path, move || {
            let picture = picture(photo, PICTURE_SIDE)?;
            png(&draw_board(&picture, columns, rows, &tiles))
        })
        .await
    }

    /// The day's photo whole, small, as PNG.
    ///
    /// # Errors
    ///
    /// [`ApiError::Unavailable`] when it cannot be made or kept.
    pub async fn photo_png(&self, daily: &DayBoard) -> Result<Vec<u8>, ApiError> {
        let photo = daily.photo;
        let path = self.dir.join("photos").join(format!("{photo}.png"));
        self.made_once(&path, move || png(&picture(photo, PHOTO_SIDE)?))
            .await
    }

    /// A result's replay as a GIF, kept under its day and player (a result never changes).
    ///
    /// # Errors
    ///
    /// [`ApiError::Unavailable`] when it cannot be made or kept.
    pub async fn replay(
        &self,
        daily: &DayBoard,
        player_id: i64,
        solve: Challenge,
    ) -> Result<Vec<u8>, ApiError> {
        let date = format_date(daily.day);
        let path = self
            .dir
            .join("replays")
            .join(date)
            .join(format!("{player_id}.gif"));
        let photo = daily.photo;
        self.made_once(&path, move || {
            let picture = picture(photo, PICTURE_SIDE)?;
            replay_of(&picture, &solve)
        })
        .await
    }

    /// The file at `path`, made by `make` (off the async threads, a few at a time) and written
    /// whole when it is not there yet.
    async fn made_once<F>(&self, path: &Path, make: F) -> Result<Vec<u8>, ApiError>
    where
        F: FnOnce() -> Result<Vec<u8>, String> + Send + 'static,
    {
        if let Ok(bytes) = tokio::fs::read(path).await {
            return Ok(bytes);
        }
        let _turn = self
            .making
            .acquire()
            .await
            .map_err(|e| unavailable("images", &e))?;
        if let Ok(bytes) = tokio::fs::read(path).await {
            return Ok(bytes);
        }
        let path = path.to_path_buf();
        tokio::task::spawn_blocking(move || {
            let bytes = make()?;
            if let Some(folder) = path.parent() {
                std::fs::create_dir_all(folder).map_err(|e| e.to_string())?;
            }
            atomic_file::write(&path, &bytes).map_err(|e| e.to_string())?;
            Ok::<_, String>(bytes)
        })
        .await
        .map_err(|error| unavailable("making a picture panicked", &error))?
        .map_err(|error| unavailable("a picture could not be made", &error))
    }
}

/// The day's photo, centre-cropped square and scaled to `side` pixels.
fn picture(photo: &str, side: u32) -> Result<RgbaImage, String> {
    let (_, bytes) = PHOTOS
        .iter()
        .find(|(name, _)| *name == photo)
        .ok_or_else(|| format!("no photo called {photo}"))?;
    let image = snapslide_photo::decode(bytes).map_err(|e| e.to_string())?;
    Ok(square(&image, side))
}

/// The start board `tiles` (row-major, 0 the gap) drawn with the picture's tiles, dark lines
/// between them and a dark gap.
pub fn draw_board(picture: &RgbaImage, columns: u32, rows: u32, tiles: &[u8]) -> RgbaImage {
    let (pieces, side) = slice(picture, columns, rows);
    let mut board = RgbaImage::from_pixel(side * columns, side * rows, DARK);
    for (cell, &tile) in tiles.iter().enumerate() {
        let Some(piece) = (tile as usize).checked_sub(1).and_then(|i| pieces.get(i)) else {
            continue;
        };
        let inner = imageops::crop_imm(piece, LINE / 2, LINE / 2, side - LINE, side - LINE);
        let (column, row) = (cell as u32 % columns, cell as u32 / columns);
        let (x, y) = (column * side + LINE / 2, row * side + LINE / 2);
        imageops::replace(&mut board, &inner.to_image(), i64::from(x), i64::from(y));
    }
    board
}

/// A solve's replay GIF with the picture's tiles, at the player's own pace.
fn replay_of(picture: &RgbaImage, solve: &Challenge) -> Result<Vec<u8>, String> {
    let mut board = solve.start().clone();
    let times = solve.times_ms().unwrap_or_default();
    let slides: Vec<Slide> = (solve.moves().iter().enumerate())
        .map(|(i, &mv)| {
            board.apply(mv);
            let at_ms = times.get(i).copied().unwrap_or(0).min(u64::from(u32::MAX)) as u32;
            Slide {
                gap_to: board.blank() as u16,
                at_ms,
            }
        })
        .collect();
    let start = solve.start();
    replay_gif(&ReplaySpec {
        picture,
        columns: start.width() as u32,
        rows: start.height() as u32,
        start: start.tiles(),
        slides: &slides,
        caption: Some(Caption {
            text: &caption_of(solve),
            font: FONT,
        }),
    })
    .map_err(|e| e.to_string())
}

/// The font of a replay's caption: the app's own (Manrope, SIL Open Font License).
const FONT: &[u8] = include_bytes!("../../../assets/fonts/Manrope-Medium.ttf");

/// A replay's caption: "4×4 · 38 moves · 25.460 s", the time as the board ranks it.
fn caption_of(solve: &Challenge) -> String {
    let shape = solve.start().shape();
    let moves = solve.moves().len();
    let time = crate::ranking::time_text(solve.time_ms());
    format!("{}×{} · {moves} moves · {time}", shape.width, shape.height)
}

/// A picture as PNG bytes.
fn png(picture: &RgbaImage) -> Result<Vec<u8>, String> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    picture
        .write_to(&mut bytes, ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(bytes.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_daily_photo_is_built_in() {
        for name in snapslide_game::DAILY_PHOTOS {
            assert!(picture(name, 32).is_ok(), "{name}");
        }
    }

    #[test]
    fn the_board_puts_each_tile_in_its_cell_and_the_gap_dark() {
        // A picture whose four quarters are four colours.
        let colours = [[200, 0, 0], [0, 200, 0], [0, 0, 200], [200, 200, 0]];
        let picture = RgbaImage::from_fn(40, 40, |x, y| {
            let [r, g, b] = colours[(y / 20 * 2 + x / 20) as usize];
            Rgba([r, g, b, 255])
        });
        let board = draw_board(&picture, 2, 2, &[3, 1, 0, 2]);
        assert_eq!(board.get_pixel(10, 10), &Rgba([0, 0, 200, 255]), "tile 3");
        assert_eq!(board.get_pixel(30, 10), &Rgba([200, 0, 0, 255]), "tile 1");
        assert_eq!(board.get_pixel(10, 30), &DARK, "the gap");
        assert_eq!(board.get_pixel(30, 30), &Rgba([0, 200, 0, 255]), "tile 2");
        assert_eq!(board.get_pixel(20, 10), &DARK, "a line");
    }
}
