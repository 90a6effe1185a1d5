//! The framing the player chooses over a photo: a rectangle of the board's shape, in the
//! photo's pixels (upright, then turned by the player's quarter turns), that never leaves the
//! photo and never gets so small that a tile would be cut from fewer than
//! [`MIN_TILE_PIXELS`] pixels on its side. Panning, zooming about a point, changing the
//! board's shape and turning the photo all keep those two rules.

/// The fewest photo pixels on a tile's side: a tile cut from fewer would look soft on a
/// phone's screen.
pub const MIN_TILE_PIXELS: u32 = 64;
/// The fewest tiles on a board's side (the app's smallest board is 3 × 3).
pub const MIN_BOARD_SIDE: u32 = 3;

/// A rectangle of a photo, in whole pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Crop {
    /// The left edge.
    pub x: u32,
    /// The top edge.
    pub y: u32,
    /// The width.
    pub width: u32,
    /// The height.
    pub height: u32,
}

/// Why a rectangle cannot be the board's framing on a photo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CropError {
    /// It reaches past the photo's edge.
    #[error("the rectangle reaches past the photo, which is {width} × {height} pixels")]
    OutsidePhoto {
        /// The photo's width.
        width: u32,
        /// Its height.
        height: u32,
    },
    /// It is not the board's shape (more than a pixel off).
    #[error(
        "the rectangle is not the board's shape ({columns} × {rows} tiles): {want} pixels tall for that width"
    )]
    WrongShape {
        /// The board's columns.
        columns: u32,
        /// Its rows.
        rows: u32,
        /// The height the width asks for.
        want: u32,
    },
    /// A tile would be cut from too few pixels.
    #[error(
        "the rectangle is too small: each tile needs at least {MIN_TILE_PIXELS} pixels on its side"
    )]
    TooSmall,
}

/// Whether a photo of this size can hold any board: the smallest board at the fewest pixels a
/// tile (a 1 × 1 image, or a 4000 × 50 strip, cannot).
pub fn holds_a_board(width: u32, height: u32) -> bool {
    width.min(height) >= MIN_BOARD_SIDE * MIN_TILE_PIXELS
}

/// Whether a board of `columns` × `rows` tiles fits a photo of this size at the fewest pixels
/// a tile.
pub fn fits(photo: (u32, u32), (columns, rows): (u32, u32)) -> bool {
    photo.0 >= columns * MIN_TILE_PIXELS && photo.1 >= rows * MIN_TILE_PIXELS
}

/// A framing of a board's shape over a photo: its centre and width in photo pixels (its height
/// follows from the board's shape).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Framing {
    /// The photo's width and height, in pixels.
    pub photo: (u32, u32),
    /// The board's columns and rows.
    pub board: (u32, u32),
    /// The framing's centre, in photo pixels.
    pub center: (f32, f32),
    /// The framing's width, in photo pixels.
    pub width: f32,
}

impl Framing {
    /// The largest framing of the board's shape, in the middle of the photo; `None` if the board
    /// does not fit the photo at [`MIN_TILE_PIXELS`] a tile.
    pub fn centred(photo: (u32, u32), board: (u32, u32)) -> Option<Framing> {
        let board = (board.0.max(1), board.1.max(1));
        if !fits(photo, board) {
            return None;
        }
        let center = (photo.0 as f32 / 2.0, photo.1 as f32 / 2.0);
        let framing = Framing {
            photo,
            board,
            center,
            width: f32::MAX,
        };
        Some(framing.kept_in())
    }

    /// The framing's height, in photo pixels.
    pub fn height(&self) -> f32 {
        self.width * self.board.1 as f32 / self.board.0 as f32
    }

    /// The narrowest the framing may be: [`MIN_TILE_PIXELS`] a tile.
    pub fn min_width(&self) -> f32 {
        (self.board.0 * MIN_TILE_PIXELS) as f32
    }

    /// The widest the framing may be: as wide as the photo, or as tall.
    pub fn max_width(&self) -> f32 {
        let (w, h) = (self.photo.0 as f32, self.photo.1 as f32);
        w.min(h * self.board.0 as f32 / self.board.1 as f32)
    }

    /// The framing with its size and place brought within the rules: no smaller than a tile
    /// allows, no larger than the photo, wholly on the photo.
    fn kept_in(mut self) -> Framing {
        let (low, high) = (self.min_width(), self.max_width());
        self.width = if self.width.is_finite() {
            self.width.clamp(low, high.max(low))
        } else {
            high
        };
        let half = (self.width / 2.0, self.height() / 2.0);
        let (w, h) = (self.photo.0 as f32, self.photo.1 as f32);
        let keep = |c: f32, half: f32, side: f32| {
            let c = if c.is_finite() { c } else { side / 2.0 };
            c.clamp(half, (side - half).max(half))
        };
        self.center = (
            keep(self.center.0, half.0, w),
            keep(self.center.1, half.1, h),
        );
        self
    }

    /// The framing moved by `(dx, dy)` photo pixels, stopping at the photo's edges.
    pub fn panned(self, dx: f32, dy: f32) -> Framing {
        Framing {
            center: (self.center.0 + dx, self.center.1 + dy),
            ..self
        }
        .kept_in()
    }

    /// The framing zoomed by `factor` (above 1 zooms in: a smaller framing) about a point of the
    /// photo, which stays where it is in the framing.
    pub fn zoomed(self, factor: f32, about: (f32, f32)) -> Framing {
        if !factor.is_finite() || factor <= 0.0 {
            return self;
        }
        let width = (self.width / factor).clamp(self.min_width(), self.max_width());
        let scale = width / self.width;
        let center = (
            about.0 + (self.center.0 - about.0) * scale,
            about.1 + (self.center.1 - about.1) * scale,
        );
        Framing {
            center,
            width,
            ..self
        }
        .kept_in()
    }

    /// The framing for another board's shape, keeping its centre and its area as near as the
    /// rules allow; `None` if that board does not fit the photo.
    pub fn for_board(self, board: (u32, u32)) -> Option<Framing> {
        let board = (board.0.max(1), board.1.max(1));
        if !fits(self.photo, board) {
            return None;
        }
        let area = self.width * self.height();
        let width = (area * board.0 as f32 / board.1 as f32).sqrt();
        Some(
            Framing {
                board,
                width,
                ..self
            }
            .kept_in(),
        )
    }

    /// The framing on the photo turned a quarter clockwise: the same part of the photo, framed
    /// the same way round on the board (so the board's shape turns with it).
    pub fn turned(self) -> Framing {
        let (w, h) = self.photo;
        let center = (h as f32 - self.center.1, self.center.0);
        Framing {
            photo: (h, w),
            board: (self.board.1, self.board.0),
            center,
            width: self.height(),
        }
        .kept_in()
    }

    /// The framing in whole pixels: inside the photo, of the board's shape to within a pixel.
    pub fn crop(&self) -> Crop {
        let width = (self.width.round() as u32).clamp(1, self.photo.0.max(1));
        let height = ((width as f32 * self.board.1 as f32 / self.board.0 as f32).round() as u32)
            .clamp(1, self.photo.1.max(1));
        let x = (self.center.0 - width as f32 / 2.0).round().max(0.0) as u32;
        let y = (self.center.1 - height as f32 / 2.0).round().max(0.0) as u32;
        Crop {
            x: x.min(self.photo.0 - width),
            y: y.min(self.photo.1 - height),
            width,
            height,
        }
    }

    /// The framing a crop stands for, after checking it: on the photo, of the board's shape to
    /// within a pixel, and no smaller than [`MIN_TILE_PIXELS`] a tile.
    pub fn from_crop(
        photo: (u32, u32),
        board: (u32, u32),
        crop: Crop,
    ) -> Result<Framing, CropError> {
        let (columns, rows) = (board.0.max(1), board.1.max(1));
        let inside = crop.width > 0
            && crop.height > 0
            && crop.x.checked_add(crop.width).is_some_and(|r| r <= photo.0)
            && crop
                .y
                .checked_add(crop.height)
                .is_some_and(|b| b <= photo.1);
        if !inside {
            return Err(CropError::OutsidePhoto {
                width: photo.0,
                height: photo.1,
            });
        }
        let want = (crop.width as f64 * rows as f64 / columns as f64).round() as u32;
        if want.abs_diff(crop.height) > 1 {
            return Err(CropError::WrongShape {
                columns,
                rows,
                want,
            });
        }
        if crop.width < columns * MIN_TILE_PIXELS || crop.height < rows * MIN_TILE_PIXELS {
            return Err(CropError::TooSmall);
        }
        Ok(Framing {
            photo,
            board: (columns, rows),
            center: (
                crop.x as f32 + crop.width as f32 / 2.0,
                crop.y as f32 + crop.height as f32 / 2.0,
            ),
            width: crop.width as f32,
        })
    }
}

/// The size of a photo of `size` turned `turns` quarters clockwise.
pub fn turned_size(size: (u32, u32), turns: u8) -> (u32, u32) {
    if turns % 2 == 1 {
        (size.1, size.0)
    } else {
        size
    }
}

/// A rectangle of a photo turned `turns` quarters clockwise, in the photo before the turns
/// (whose size is `photo`).
pub fn unturned(crop: Crop, photo: (u32, u32), turns: u8) -> Crop {
    let mut crop = crop;
    // Each step undoes one clockwise turn: the turned photo is (h, w) of the one before.
    for step in (0..turns % 4).rev() {
        let before = if step % 2 == 0 {
            photo
        } else {
            (photo.1, photo.0)
        };
        crop = Crop {
            x: crop.y,
            y: before.1 - crop.x - crop.width,
            width: crop.height,
            height: crop.width,
        };
    }
    crop
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_rules(framing: &Framing) {
        let crop = framing.crop();
        assert!(
            crop.x + crop.width <= framing.photo.0,
            "{framing:?} {crop:?}"
        );
        assert!(
            crop.y + crop.height <= framing.photo.1,
            "{framing:?} {crop:?}"
        );
        assert!(
            crop.width >= framing.board.0 * MIN_TILE_PIXELS,
            "{framing:?} {crop:?}"
        );
        assert!(
            crop.height + 1 >= framing.board.1 * MIN_TILE_PIXELS,
            "{framing:?} {crop:?}"
        );
        let want = crop.width as f64 * framing.board.1 as f64 / framing.board.0 as f64;
        assert!(
            (crop.height as f64 - want).abs() <= 1.0,
            "{framing:?} {crop:?}"
        );
    }

    #[test]
    fn the_largest_frame_is_centred_and_fills_the_short_side() {
        let framing = Framing::centred((4000, 3000), (4, 4)).unwrap();
        assert_eq!(
            framing.crop(),
            Crop {
                x: 500,
                y: 0,
                width: 3000,
                height: 3000
            }
        );
        let portrait = Framing::centred((3000, 4000), (3, 4)).unwrap();
        assert_eq!(
            portrait.crop(),
            Crop {
                x: 0,
                y: 0,
                width: 3000,
                height: 4000
            }
        );
        assert_rules(&portrait);
    }

    #[test]
    fn a_photo_too_small_or_too_thin_holds_no_board() {
        assert!(!holds_a_board(1, 1));
        assert!(!holds_a_board(4000, 50));
        assert!(holds_a_board(192, 192));
        assert!(Framing::centred((4000, 50), (3, 3)).is_none());
        assert!(
            Framing::centred((400, 400), (8, 8)).is_none(),
            "8 × 64 > 400"
        );
        assert!(Framing::centred((512, 512), (8, 8)).is_some());
    }

    #[test]
    fn no_pan_or_zoom_leaves_the_photo_or_cuts_a_tile_too_small() {
        let mut framing = Framing::centred((2000, 1500), (4, 4)).unwrap();
        let moves: [(f32, f32, f32); 7] = [
            (1e6, 0.0, 1.0),
            (0.0, -1e6, 1.0),
            (0.0, 0.0, 50.0),
            (-300.0, 200.0, 1.0),
            (0.0, 0.0, 0.01),
            (f32::NAN, 3.0, 2.0),
            (5.0, 5.0, f32::INFINITY),
        ];
        for (dx, dy, zoom) in moves {
            framing = framing.panned(dx, dy).zoomed(zoom, framing.center);
            assert_rules(&framing);
        }
        // About the framing's top-left corner: the corner stays put as the framing shrinks.
        let centred = Framing::centred((2000, 1500), (4, 4)).unwrap();
        let tight = centred.zoomed(1000.0, (250.0, 0.0));
        assert_eq!(tight.crop().width, 4 * MIN_TILE_PIXELS);
        assert_eq!(
            (tight.crop().x, tight.crop().y),
            (250, 0),
            "it did not zoom toward the corner"
        );
    }

    #[test]
    fn zooming_keeps_the_point_under_the_fingers() {
        let framing = Framing::centred((2000, 2000), (4, 4)).unwrap();
        let about = (800.0, 900.0);
        let zoomed = framing.zoomed(2.0, about);
        // The point was 0.4 and 0.45 of the way across the framing; it still is.
        let at = |f: &Framing, p: f32, axis: usize| {
            let (c, side) = if axis == 0 {
                (f.center.0, f.width)
            } else {
                (f.center.1, f.height())
            };
            (p - (c - side / 2.0)) / side
        };
        assert!((at(&zoomed, about.0, 0) - at(&framing, about.0, 0)).abs() < 1e-4);
        assert!((at(&zoomed, about.1, 1) - at(&framing, about.1, 1)).abs() < 1e-4);
        assert!((zoomed.width - 1000.0).abs() < 1e-3);
    }

    #[test]
    fn another_board_keeps_the_centre() {
        let framing = Framing::centred((3000, 4000), (4, 4))
            .unwrap()
            .zoomed(2.0, (1000.0, 1200.0));
        let tall = framing.for_board((3, 4)).unwrap();
        assert_eq!(tall.board, (3, 4));
        assert!((tall.center.0 - framing.center.0).abs() < 1.0);
        assert!((tall.center.1 - framing.center.1).abs() < 1.0);
        assert_rules(&tall);
        assert!(framing.for_board((8, 8)).is_some());
        assert!(
            Framing::centred((300, 300), (3, 3))
                .unwrap()
                .for_board((8, 8))
                .is_none()
        );
    }

    #[test]
    fn a_turn_frames_the_same_part_of_the_photo() {
        let framing = Framing::centred((4000, 3000), (4, 3))
            .unwrap()
            .zoomed(2.0, (1000.0, 1000.0));
        let crop = framing.crop();
        let turned = framing.turned();
        assert_eq!(turned.photo, (3000, 4000));
        assert_eq!(turned.board, (3, 4));
        // Turned back, the turned framing's crop is the same rectangle of the original photo.
        assert_eq!(unturned(turned.crop(), (4000, 3000), 1), crop);
        let four = framing.turned().turned().turned().turned();
        assert_eq!(four.crop(), crop);
        assert_eq!(
            unturned(framing.turned().turned().crop(), (4000, 3000), 2),
            crop
        );
    }

    #[test]
    fn a_crop_is_checked_before_it_is_used() {
        let photo = (1000, 800);
        let good = Crop {
            x: 100,
            y: 100,
            width: 600,
            height: 600,
        };
        assert_eq!(
            Framing::from_crop(photo, (4, 4), good).unwrap().crop(),
            good
        );
        let off = Crop { x: 500, ..good };
        assert!(matches!(
            Framing::from_crop(photo, (4, 4), off),
            Err(CropError::OutsidePhoto { .. })
        ));
        let skew = Crop {
            height: 590,
            ..good
        };
        assert!(matches!(
            Framing::from_crop(photo, (4, 4), skew),
            Err(CropError::WrongShape { .. })
        ));
        let almost = Crop {
            height: 601,
            ..good
        };
        assert!(
            Framing::from_crop(photo, (4, 4), almost).is_ok(),
            "a pixel off is the board's shape"
        );
        let small = Crop {
            x: 0,
            y: 0,
            width: 200,
            height: 200,
        };
        assert_eq!(
            Framing::from_crop(photo, (4, 4), small),
            Err(CropError::TooSmall)
        );
        let huge = Crop {
            x: u32::MAX,
            y: 0,
            width: 600,
            height: 600,
        };
        assert!(Framing::from_crop(photo, (4, 4), huge).is_err());
    }
}
