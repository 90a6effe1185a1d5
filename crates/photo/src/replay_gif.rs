//! A replay as an animated GIF: the photo's tiles sliding from the start board through every
//! move to the solved picture, with the player's own timing (long pauses shortened), for the
//! places where a challenge code means nothing. Plain Rust, no Bevy, no engine.
//!
//! Small and quick by construction: the picture is scaled to at most [`GIF_SIDE`] pixels and
//! quantized once to one global palette, so every frame is drawn straight in palette indices
//! from the indexed picture (no frame is quantized); each frame after the first holds only the
//! rectangle that changed (drawn over the last, disposal Keep), and within it the pixels that
//! did not change are transparent when that compresses smaller.

use std::borrow::Cow;

use color_quant::NeuQuant;
use gif::{DisposalMethod, Encoder, Frame, Repeat};
use image::RgbaImage;
use thiserror::Error;

use crate::caption::{self, Caption};

/// The longest side of the GIF, in pixels.
pub const GIF_SIDE: u32 = 480;
/// The longest pause the GIF shows: a longer one between two moves is shortened to this.
pub const LONGEST_PAUSE_MS: u32 = 1000;
/// How long the start board shows before the first move.
pub const START_HOLD_MS: u32 = 1000;
/// How long the solved board (gap and lines still there) shows after the last move.
pub const SOLVED_HOLD_MS: u32 = 500;
/// How long the last frame (the whole picture, or the last board if unsolved) is held.
pub const END_HOLD_MS: u32 = 2000;
/// How long a slide takes at most: the tile moves over the frames in between.
pub const SLIDE_MS: u32 = 90;
/// The fewest pixels a tile's side may have in the GIF.
pub const MIN_TILE_SIDE: u32 = 4;

/// The bytes a GIF may take for each slide (2 MB for 100), and for any replay of fewer than
/// 100 slides, 100 slides' worth. A GIF over it is made again with fewer frames and colours.
pub const BYTES_PER_SLIDE: usize = 20_000;

/// The shortest frame, in centiseconds: browsers show shorter ones as 10.
const MIN_DELAY_CS: u32 = 2;
/// The palette index of the gap and the lines between tiles.
const DARK: u8 = 0;
/// The palette index of a pixel left as the frame before had it.
const CLEAR: u8 = 1;
/// The palette indices of the caption's text: full, and two blends with the dark (its edges).
const TEXT: [u8; 3] = [2, 3, 4];
/// The palette index of the photo's first colour.
const FIRST_PHOTO: u8 = 5;
/// The gap's and the lines' colour.
const DARK_RGB: [u8; 3] = [24, 24, 28];
/// The caption's colour, and its two blends with [`DARK_RGB`].
const TEXT_RGB: [[u8; 3]; 3] = [[236, 232, 226], [160, 157, 154], [92, 91, 92]];
/// The photo's colours: the palette's entries from [`FIRST_PHOTO`].
const PHOTO_COLOURS: usize = 256 - FIRST_PHOTO as usize;

/// How a replay is drawn: the frames in between a tile's two cells (at most), and how close
/// (in RGB, Euclidean) two of the quantizer's colours may be before they are merged into one.
/// Merging costs little to the eye and much to noise: a photo's grain otherwise flickers
/// between near colours that compress badly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Style {
    inbetweens: u32,
    merge: u32,
}

/// The styles tried in turn, until the GIF keeps within [`BYTES_PER_SLIDE`].
const STYLES: [Style; 3] = [
    Style {
        inbetweens: 2,
        merge: 12,
    },
    Style {
        inbetweens: 1,
        merge: 16,
    },
    Style {
        inbetweens: 0,
        merge: 24,
    },
];

/// One slide of a replay: the gap moves to the cell `gap_to` (row-major index), and the tile
/// that was there slides into the old gap, `at_ms` milliseconds after the first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slide {
    /// The cell the gap moves to, beside the gap.
    pub gap_to: u16,
    /// When, in milliseconds since the first move (never earlier than the slide before).
    pub at_ms: u32,
}

/// What a replay GIF shows.
#[derive(Clone, Copy, Debug)]
pub struct ReplaySpec<'a> {
    /// The framed photo, in the board's aspect (the solved picture); scaled down to fit
    /// [`GIF_SIDE`], never up.
    pub picture: &'a RgbaImage,
    /// The board's columns.
    pub columns: u32,
    /// The board's rows.
    pub rows: u32,
    /// The start board, row-major: tile numbers `1..n`, `0` the gap. Tile `k`'s picture is
    /// the `k`-th cell of the solved picture.
    pub start: &'a [u8],
    /// Every slide, in order.
    pub slides: &'a [Slide],
    /// A line of text under the board, for the whole GIF (none: the board alone).
    pub caption: Option<Caption<'a>>,
}

/// Why a replay could not be made into a GIF.
#[derive(Debug, Error)]
pub enum GifError {
    /// A board without a column or a row.
    #[error("a board of {columns} × {rows} has no cells")]
    ZeroSize {
        /// The columns given.
        columns: u32,
        /// The rows given.
        rows: u32,
    },
    /// More cells than tile numbers go up to (256).
    #[error("a board of {columns} × {rows} has more cells than a replay can number")]
    TooManyTiles {
        /// The columns given.
        columns: u32,
        /// The rows given.
        rows: u32,
    },
    /// The picture has too few pixels for the board's tiles.
    #[error("a picture of {width} × {height} pixels is too small for the board")]
    PictureTooSmall {
        /// The picture's width.
        width: u32,
        /// The picture's height.
        height: u32,
    },
    /// The start board has a different number of cells from the board's shape.
    #[error("the start board has {found} cells where the board has {expected}")]
    TileCount {
        /// The board's cells.
        expected: usize,
        /// The start board's.
        found: usize,
    },
    /// The start board is not each tile once and one gap.
    #[error("the start board has tile {tile} twice or out of range")]
    BadTile {
        /// The tile number.
        tile: u8,
    },
    /// A slide to a cell the board does not have.
    #[error("slide {slide} moves the gap to cell {cell}, off the board")]
    OffBoard {
        /// The slide's index.
        slide: usize,
        /// The cell.
        cell: u16,
    },
    /// A slide to a cell that is not beside the gap.
    #[error("slide {slide} moves the gap from cell {gap} to cell {cell}, not beside it")]
    NotBesideGap {
        /// The slide's index.
        slide: usize,
        /// The gap's cell before it.
        gap: usize,
        /// The cell.
        cell: u16,
    },
    /// A slide timed before the slide before it.
    #[error("slide {slide} is timed before the slide before it")]
    TimeGoesBack {
        /// The slide's index.
        slide: usize,
    },
    /// The caption's font could not be read.
    #[error(transparent)]
    Font(#[from] caption::FontError),
    /// The GIF encoder refused a frame.
    #[error("the GIF could not be written: {0}")]
    Encode(#[from] gif::EncodingError),
}

/// Makes a replay into an animated GIF that loops forever: the start board held
/// [`START_HOLD_MS`], each slide over a couple of frames, the pauses between moves as the
/// player made them up to [`LONGEST_PAUSE_MS`], then, if the moves solve the board, the
/// whole picture held [`END_HOLD_MS`] (otherwise the last board is held that long).
/// A GIF over [`BYTES_PER_SLIDE`] is made again with fewer frames a slide and fewer colours,
/// down to one frame a slide. Refuses a replay that does not hold together.
pub fn replay_gif(spec: &ReplaySpec) -> Result<Vec<u8>, GifError> {
    let side = check(spec)?;
    let budget = BYTES_PER_SLIDE * spec.slides.len().max(100);
    let mut gif = Vec::new();
    for style in STYLES {
        gif = encode(spec, side, style)?;
        if gif.len() <= budget {
            break;
        }
    }
    Ok(gif)
}

/// A checked replay's GIF in one style, at `side` pixels a tile.
fn encode(spec: &ReplaySpec, side: u32, style: Style) -> Result<Vec<u8>, GifError> {
    let art = Art::new(spec, side, style.merge)?;
    let solves = is_solved(&last_board(spec));
    let mut film = Film::new(&art)?;
    let mut board = spec.start.to_vec();
    let mut canvas = Vec::new();
    art.draw(&board, None, &mut canvas);
    film.shoot(&canvas, START_HOLD_MS)?;
    for (i, slide) in spec.slides.iter().enumerate() {
        let pause = match spec.slides.get(i + 1) {
            Some(next) => (next.at_ms - slide.at_ms).min(LONGEST_PAUSE_MS),
            None if solves => SOLVED_HOLD_MS,
            None => SLIDE_MS,
        };
        let gap = gap_of(&board);
        let cell = usize::from(slide.gap_to);
        let (inbetweens, step) = inbetweens(pause, style.inbetweens);
        for k in 1..=inbetweens {
            let motion = Motion {
                from: cell,
                to: gap,
                part: (k, inbetweens + 1),
            };
            art.draw(&board, Some(motion), &mut canvas);
            film.shoot(&canvas, step)?;
        }
        board.swap(gap, cell);
        art.draw(&board, None, &mut canvas);
        film.shoot(&canvas, pause - inbetweens * step)?;
    }
    if solves {
        film.shoot(&art.picture, END_HOLD_MS)?;
    } else {
        film.hold(END_HOLD_MS);
    }
    film.finish()
}

/// The board after every slide (of a replay that was checked).
fn last_board(spec: &ReplaySpec) -> Vec<u8> {
    let mut board = spec.start.to_vec();
    for slide in spec.slides {
        let gap = gap_of(&board);
        board.swap(gap, usize::from(slide.gap_to));
    }
    board
}

/// The frames in between a tile's two cells (`most` at most) for a slide followed by a pause
/// of `pause_ms` (the slide takes the first [`SLIDE_MS`] of it, at most), and how long each
/// shows.
fn inbetweens(pause_ms: u32, most: u32) -> (u32, u32) {
    let slide = pause_ms.min(SLIDE_MS);
    let frames = (slide / (MIN_DELAY_CS * 10)).saturating_sub(1).min(most);
    (frames, slide / (frames + 1))
}

/// Checks a replay holds together; returns the tile's side in the GIF.
fn check(spec: &ReplaySpec) -> Result<u32, GifError> {
    let (columns, rows) = (spec.columns, spec.rows);
    if columns == 0 || rows == 0 {
        return Err(GifError::ZeroSize { columns, rows });
    }
    let cells = u64::from(columns) * u64::from(rows);
    if cells > 256 {
        return Err(GifError::TooManyTiles { columns, rows });
    }
    let (width, height) = spec.picture.dimensions();
    let side = (GIF_SIDE / columns.max(rows))
        .min(width / columns)
        .min(height / rows);
    if side < MIN_TILE_SIDE {
        return Err(GifError::PictureTooSmall { width, height });
    }
    let cells = cells as usize;
    if spec.start.len() != cells {
        return Err(GifError::TileCount {
            expected: cells,
            found: spec.start.len(),
        });
    }
    let mut seen = [false; 256];
    for &tile in spec.start {
        if usize::from(tile) >= cells || seen[usize::from(tile)] {
            return Err(GifError::BadTile { tile });
        }
        seen[usize::from(tile)] = true;
    }
    check_slides(spec, cells)?;
    Ok(side)
}

/// Checks each slide moves the gap to a cell beside it, in time order.
fn check_slides(spec: &ReplaySpec, cells: usize) -> Result<(), GifError> {
    let columns = spec.columns as usize;
    let mut gap = gap_of(spec.start);
    let mut last_ms = 0;
    for (i, slide) in spec.slides.iter().enumerate() {
        let cell = usize::from(slide.gap_to);
        if cell >= cells {
            return Err(GifError::OffBoard {
                slide: i,
                cell: slide.gap_to,
            });
        }
        let beside = (gap / columns == cell / columns && gap.abs_diff(cell) == 1)
            || gap.abs_diff(cell) == columns;
        if !beside {
            return Err(GifError::NotBesideGap {
                slide: i,
                gap,
                cell: slide.gap_to,
            });
        }
        if slide.at_ms < last_ms {
            return Err(GifError::TimeGoesBack { slide: i });
        }
        (gap, last_ms) = (cell, slide.at_ms);
    }
    Ok(())
}

/// The gap's cell (the board was checked to hold one).
fn gap_of(board: &[u8]) -> usize {
    board.iter().position(|&t| t == 0).unwrap_or(0)
}

/// Whether every tile is on its own cell, the gap on the last.
fn is_solved(board: &[u8]) -> bool {
    let last = board.len() - 1;
    board[last] == 0
        && board[..last]
            .iter()
            .enumerate()
            .all(|(i, &t)| usize::from(t) == i + 1)
}

/// The quantizer's colours with those close to one kept merged into it: the colours kept, and
/// for each of the quantizer's its palette index (after [`DARK`] and [`CLEAR`]).
fn merge_close(colours: &[u8], merge: u32) -> (Vec<u8>, Vec<u8>) {
    let limit = (merge * merge) as i32;
    let mut kept: Vec<u8> = Vec::with_capacity(colours.len());
    let mut index = Vec::with_capacity(colours.len() / 3);
    for colour in colours.chunks_exact(3) {
        let near = kept.chunks_exact(3).position(|k| {
            let d = |c: usize| i32::from(k[c]) - i32::from(colour[c]);
            d(0) * d(0) + d(1) * d(1) + d(2) * d(2) <= limit
        });
        match near {
            Some(at) => index.push(at as u8 + FIRST_PHOTO),
            None => {
                index.push((kept.len() / 3) as u8 + FIRST_PHOTO);
                kept.extend_from_slice(colour);
            }
        }
    }
    (kept, index)
}

/// A tile on its way from one cell to another: `part.0 / part.1` of the way.
#[derive(Clone, Copy, Debug)]
struct Motion {
    from: usize,
    to: usize,
    part: (u32, u32),
}

/// The picture scaled and quantized once: the palette and the solved picture in its indices.
struct Art {
    columns: u32,
    side: u32,
    width: u32,
    height: u32,
    /// The board's height: the caption's strip (if any) lies below it.
    board_height: u32,
    /// Up to 256 colours, RGB: [`DARK`], [`CLEAR`], the caption's [`TEXT`], then the
    /// photo's (merged).
    palette: Vec<u8>,
    /// The solved picture, one palette index a pixel, row-major, the caption under it.
    picture: Vec<u8>,
}

impl Art {
    /// Scales the picture to the board's size at `side` pixels a tile and quantizes it, colours
    /// closer than `merge` merged.
    fn new(spec: &ReplaySpec, side: u32, merge: u32) -> Result<Self, GifError> {
        let (width, height) = (spec.columns * side, spec.rows * side);
        let scaled = if spec.picture.dimensions() == (width, height) {
            spec.picture.clone()
        } else {
            image::imageops::thumbnail(spec.picture, width, height)
        };
        let mut pixels = scaled.into_raw();
        for pixel in pixels.chunks_exact_mut(4) {
            pixel[3] = 255;
        }
        let quant = NeuQuant::new(10, PHOTO_COLOURS, &pixels);
        let (colours, merged) = merge_close(&quant.color_map_rgb(), merge);
        let mut palette = Vec::with_capacity(256 * 3);
        palette.extend_from_slice(&DARK_RGB);
        palette.extend_from_slice(&DARK_RGB);
        TEXT_RGB
            .iter()
            .for_each(|rgb| palette.extend_from_slice(rgb));
        palette.extend_from_slice(&colours);
        let mut picture: Vec<u8> = pixels
            .chunks_exact(4)
            .map(|pixel| merged[quant.index_of(pixel)])
            .collect();
        let mut strip_height = 0;
        if let Some(caption) = &spec.caption {
            strip_height = caption::strip_height(width);
            let strip = caption::draw_strip(caption, (width, strip_height), TEXT, DARK)?;
            picture.extend_from_slice(&strip);
        }
        Ok(Self {
            columns: spec.columns,
            side,
            width,
            height: height + strip_height,
            board_height: height,
            palette,
            picture,
        })
    }

    /// Draws a board into `canvas` (palette indices): each tile's part of the picture on its
    /// cell within thin dark lines, the gap dark, and the tile in `motion` on its way.
    fn draw(&self, board: &[u8], motion: Option<Motion>, canvas: &mut Vec<u8>) {
        canvas.clear();
        canvas.resize((self.width * self.height) as usize, DARK);
        let strip = (self.width * self.board_height) as usize;
        canvas[strip..].copy_from_slice(&self.picture[strip..]);
        for (cell, &tile) in board.iter().enumerate() {
            let moving = motion.is_some_and(|m| m.from == cell);
            if tile != 0 && !moving {
                self.draw_tile(tile, self.corner(cell), canvas);
            }
        }
        if let Some(Motion { from, to, part }) = motion {
            let (a, b) = (self.corner(from), self.corner(to));
            let between = |a: u32, b: u32| {
                let way = (i64::from(b) - i64::from(a)) * i64::from(part.0) / i64::from(part.1);
                (i64::from(a) + way) as u32
            };
            let at = (between(a.0, b.0), between(a.1, b.1));
            self.draw_tile(board[from], at, canvas);
        }
    }

    /// The top-left pixel of a cell.
    fn corner(&self, cell: usize) -> (u32, u32) {
        let cell = cell as u32;
        (
            (cell % self.columns) * self.side,
            (cell / self.columns) * self.side,
        )
    }

    /// Draws tile `tile`'s part of the picture with its top-left pixel at `at`, a dark line
    /// around it when the tile is large enough to spare one.
    fn draw_tile(&self, tile: u8, at: (u32, u32), canvas: &mut [u8]) {
        let (sx, sy) = self.corner(usize::from(tile) - 1);
        let (side, width) = (self.side as usize, self.width as usize);
        let line = usize::from(self.side >= 2 * MIN_TILE_SIDE);
        for y in line..side - line {
            let from = (sy as usize + y) * width + sx as usize;
            let to = (at.1 as usize + y) * width + at.0 as usize;
            canvas[to + line..to + side - line]
                .copy_from_slice(&self.picture[from + line..from + side - line]);
        }
    }
}

/// The GIF being written: the canvas as last shown, and the frame waiting for its delay
/// (known once the next frame differs from it).
struct Film {
    encoder: Encoder<Vec<u8>>,
    width: usize,
    shown: Vec<u8>,
    waiting: Option<Frame<'static>>,
    /// The time the frames so far should take, in milliseconds.
    ideal_ms: u64,
    /// The delays written so far, in centiseconds.
    written_cs: u64,
}

impl Film {
    /// A GIF of the art's size with its palette, looping forever.
    fn new(art: &Art) -> Result<Self, GifError> {
        let mut encoder = Encoder::new(
            Vec::new(),
            art.width as u16,
            art.height as u16,
            &art.palette,
        )?;
        encoder.set_repeat(Repeat::Infinite)?;
        Ok(Self {
            encoder,
            width: art.width as usize,
            shown: Vec::new(),
            waiting: None,
            ideal_ms: 0,
            written_cs: 0,
        })
    }

    /// Shows `canvas` for `ms` milliseconds: a frame of the rectangle that differs from the
    /// canvas shown before (none if nothing does: the frame before shows longer).
    fn shoot(&mut self, canvas: &[u8], ms: u32) -> Result<(), GifError> {
        let frame = if self.shown.is_empty() {
            Some(self.whole(canvas))
        } else {
            changed(&self.shown, canvas, self.width).map(|rect| self.part(canvas, rect))
        };
        if let Some(frame) = frame {
            self.flush()?;
            self.waiting = Some(frame);
            self.shown.clear();
            self.shown.extend_from_slice(canvas);
        }
        self.hold(ms);
        Ok(())
    }

    /// Shows the last frame `ms` milliseconds longer.
    fn hold(&mut self, ms: u32) {
        self.ideal_ms += u64::from(ms);
    }

    /// Writes the waiting frame with its delay: up to where the frames so far should end, so
    /// that rounding to centiseconds never adds up.
    fn flush(&mut self) -> Result<(), GifError> {
        if let Some(mut frame) = self.waiting.take() {
            let due = (self.ideal_ms + 5) / 10;
            let delay = due
                .saturating_sub(self.written_cs)
                .clamp(u64::from(MIN_DELAY_CS), u64::from(u16::MAX));
            self.written_cs += delay;
            frame.delay = delay as u16;
            self.encoder.write_lzw_pre_encoded_frame(&frame)?;
        }
        Ok(())
    }

    /// The GIF's bytes, after the last frame.
    fn finish(mut self) -> Result<Vec<u8>, GifError> {
        self.flush()?;
        Ok(self.encoder.into_inner()?)
    }

    /// A frame of the whole canvas.
    fn whole(&self, canvas: &[u8]) -> Frame<'static> {
        let height = canvas.len() / self.width;
        let mut frame = Frame {
            width: self.width as u16,
            height: height as u16,
            dispose: DisposalMethod::Keep,
            buffer: Cow::Owned(canvas.to_vec()),
            ..Frame::default()
        };
        frame.make_lzw_pre_encoded();
        frame
    }

    /// A frame of a rectangle of the canvas: its pixels, or, if most are unchanged and it is
    /// smaller once compressed, the changed ones with the rest [`CLEAR`]. (A tile that moves
    /// changes nearly every pixel it crosses; the picture after the solved board, few.)
    fn part(&self, canvas: &[u8], rect: Rect) -> Frame<'static> {
        let mut pixels = Vec::with_capacity(rect.width * rect.height);
        let mut changes = Vec::with_capacity(rect.width * rect.height);
        for y in rect.top..rect.top + rect.height {
            let row = y * self.width + rect.left..y * self.width + rect.left + rect.width;
            let (new, old) = (&canvas[row.clone()], &self.shown[row]);
            pixels.extend_from_slice(new);
            changes.extend(
                new.iter()
                    .zip(old)
                    .map(|(&n, &o)| if n == o { CLEAR } else { n }),
            );
        }
        let frame = |buffer: Vec<u8>, transparent: Option<u8>| {
            let mut frame = Frame {
                left: rect.left as u16,
                top: rect.top as u16,
                width: rect.width as u16,
                height: rect.height as u16,
                dispose: DisposalMethod::Keep,
                transparent,
                buffer: Cow::Owned(buffer),
                ..Frame::default()
            };
            frame.make_lzw_pre_encoded();
            frame
        };
        let unchanged = changes.iter().filter(|&&p| p == CLEAR).count();
        let opaque = frame(pixels, None);
        if unchanged * 2 < changes.len() {
            return opaque;
        }
        let clear = frame(changes, Some(CLEAR));
        if clear.buffer.len() < opaque.buffer.len() {
            clear
        } else {
            opaque
        }
    }
}

/// A rectangle of the canvas, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    left: usize,
    top: usize,
    width: usize,
    height: usize,
}

/// The smallest rectangle holding every pixel that differs between two canvases of the same
/// size, or `None` if none does.
fn changed(old: &[u8], new: &[u8], width: usize) -> Option<Rect> {
    let rows = old.chunks_exact(width).zip(new.chunks_exact(width));
    let (mut top, mut bottom, mut left, mut right) = (usize::MAX, 0, usize::MAX, 0);
    for (y, (a, b)) in rows.enumerate() {
        if a == b {
            continue;
        }
        let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0);
        let last = width
            - 1
            - a.iter()
                .rev()
                .zip(b.iter().rev())
                .position(|(p, q)| p != q)
                .unwrap_or(0);
        (top, bottom) = (top.min(y), y);
        (left, right) = (left.min(first), right.max(last));
    }
    (top != usize::MAX).then(|| Rect {
        left,
        top,
        width: right - left + 1,
        height: bottom - top + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slide_gets_frames_in_between_when_there_is_time() {
        assert_eq!(inbetweens(1000, 2), (2, 30));
        assert_eq!(inbetweens(90, 2), (2, 30));
        assert_eq!(inbetweens(1000, 1), (1, 45));
        assert_eq!(inbetweens(40, 2), (1, 20));
        assert_eq!(inbetweens(25, 2), (0, 25));
        assert_eq!(inbetweens(0, 2), (0, 0));
    }

    #[test]
    fn close_colours_are_merged_into_the_first_kept() {
        let colours = [0, 0, 0, 3, 4, 0, 100, 100, 100, 0, 0, 6, 104, 100, 97];
        let (kept, index) = merge_close(&colours, 5);
        assert_eq!(kept, [0, 0, 0, 100, 100, 100, 0, 0, 6]);
        // The photo's indices come after the dark, the clear and the caption's shades.
        let at = |i: u8| FIRST_PHOTO + i;
        assert_eq!(index, [at(0), at(0), at(1), at(2), at(1)]);
        let (kept, index) = merge_close(&colours, 0);
        assert_eq!((kept.len(), index), (15, (0..5).map(at).collect()));
    }

    #[test]
    fn the_changed_rectangle_is_the_smallest() {
        let old = vec![0u8; 6 * 4];
        let mut new = old.clone();
        assert_eq!(changed(&old, &new, 6), None);
        new[6 + 2] = 3;
        new[2 * 6 + 4] = 3;
        let rect = Rect {
            left: 2,
            top: 1,
            width: 3,
            height: 2,
        };
        assert_eq!(changed(&old, &new, 6), Some(rect));
    }
}
