//! Boards shaped like the photo: a phone's photo is 3:4 or 9:16, and cutting it square throws a
//! quarter of it away. These are the boards whose tiles come out about square.

use super::{MAX_SIDE, MIN_SIDE};

/// The boards (columns, rows) whose tiles are about square on a photo of this aspect (width
/// over height), shortest side first: for a 3:4 portrait photo 3×4, 4×5, 5×7 and 6×8. None for
/// a photo close to square (the square boards serve it).
pub fn photo_shapes(aspect: f32) -> Vec<(usize, usize)> {
    if !aspect.is_finite() || aspect <= 0.0 {
        return Vec::new();
    }
    let long_over_short = aspect.max(1.0 / aspect);
    let mut shapes = Vec::new();
    for short in MIN_SIDE..=MAX_SIDE {
        let long = (short as f32 * long_over_short).round() as usize;
        if long <= short || long > MAX_SIDE {
            continue;
        }
        let shape = if aspect < 1.0 {
            (short, long)
        } else {
            (long, short)
        };
        if !shapes.contains(&shape) {
            shapes.push(shape);
        }
    }
    shapes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portrait_photos_get_tall_boards_with_square_tiles() {
        assert_eq!(
            photo_shapes(3.0 / 4.0),
            vec![(3, 4), (4, 5), (5, 7), (6, 8)]
        );
        assert_eq!(photo_shapes(9.0 / 16.0), vec![(3, 5), (4, 7)]);
        for (w, h) in photo_shapes(3.0 / 4.0) {
            let tile_aspect = (3.0 / 4.0) / (w as f32 / h as f32);
            assert!(
                (0.85..1.15).contains(&tile_aspect),
                "{w}×{h}: {tile_aspect}"
            );
        }
    }

    #[test]
    fn landscape_photos_get_wide_boards_and_square_photos_none() {
        assert_eq!(
            photo_shapes(4.0 / 3.0),
            vec![(4, 3), (5, 4), (7, 5), (8, 6)]
        );
        assert!(photo_shapes(1.0).is_empty());
        assert!(photo_shapes(1.05).is_empty());
        assert!(photo_shapes(f32::NAN).is_empty());
        assert!(photo_shapes(0.0).is_empty());
    }
}
