//! Where the photo's subject most likely is: the framing of the board's shape that holds the
//! most detail, weighted toward the photo's centre, found on a small copy of the photo. A face,
//! a cat or a building has edges; a sky, a wall or a blurred background has few. When no place
//! stands out from the middle, the framing stays in the middle.

use image::{DynamicImage, GrayImage};

use crate::framing::Framing;

/// The longer side of the copy the detail is measured on, in pixels.
pub const DETAIL_SIDE: u32 = 256;
/// How much more detail (weighted) a place must hold than the middle to be chosen over it.
pub const STANDS_OUT: f32 = 1.15;
/// The spread of the weight toward the centre, as a fraction of the photo's side: a place a
/// third of the way out counts a little less than the middle, the edges much less.
const CENTRE_SPREAD: f32 = 0.45;

/// How much detail each pixel of a small copy of the photo holds (the size of its brightness
/// gradient), weighted toward the centre, as a table of sums (an integral image) so that any
/// rectangle's total is four look-ups.
struct Detail {
    width: usize,
    height: usize,
    /// `sums[(y * (width + 1)) + x]`: the total of the pixels above and left of (x, y).
    sums: Vec<f64>,
}

impl Detail {
    fn of(gray: &GrayImage) -> Detail {
        let (width, height) = (gray.width() as usize, gray.height() as usize);
        let mut sums = vec![0.0; (width + 1) * (height + 1)];
        let level = |x: usize, y: usize| gray.get_pixel(x as u32, y as u32).0[0] as f32;
        for y in 0..height {
            let mut row = 0.0;
            for x in 0..width {
                let dx = level((x + 1).min(width - 1), y) - level(x.saturating_sub(1), y);
                let dy = level(x, (y + 1).min(height - 1)) - level(x, y.saturating_sub(1));
                let weight = centre_weight(x as f32 / width as f32, y as f32 / height as f32);
                row += ((dx * dx + dy * dy).sqrt() * weight) as f64;
                sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1] + row;
            }
        }
        Detail {
            width,
            height,
            sums,
        }
    }

    /// The total in a rectangle of the copy (clamped to it).
    fn total(&self, x0: f32, y0: f32, x1: f32, y1: f32) -> f64 {
        let clamp = |v: f32, side: usize| (v.round().max(0.0) as usize).min(side);
        let (x0, x1) = (clamp(x0, self.width), clamp(x1, self.width));
        let (y0, y1) = (clamp(y0, self.height), clamp(y1, self.height));
        let at = |x: usize, y: usize| self.sums[y * (self.width + 1) + x];
        at(x1, y1) - at(x0, y1) - at(x1, y0) + at(x0, y0)
    }
}

/// The weight of a place at `(u, v)` (fractions of the photo's width and height).
fn centre_weight(u: f32, v: f32) -> f32 {
    let (du, dv) = ((u - 0.5) / CENTRE_SPREAD, (v - 0.5) / CENTRE_SPREAD);
    (-(du * du + dv * dv) / 2.0).exp()
}

/// The framing most likely to hold the photo's subject, for a framing of `framing`'s board and
/// size: slid along the photo to the place with the most detail (weighted toward the centre),
/// or left in the middle when no place has [`STANDS_OUT`] times the middle's.
pub fn subject_framing(photo: &DynamicImage, framing: Framing) -> Framing {
    let small = photo.thumbnail(DETAIL_SIDE, DETAIL_SIDE).to_luma8();
    if small.width() < 3 || small.height() < 3 {
        return framing;
    }
    let detail = Detail::of(&small);
    let scale = small.width() as f32 / framing.photo.0 as f32;
    let half = (framing.width * scale / 2.0, framing.height() * scale / 2.0);
    let score = |centre: (f32, f32)| {
        let (cx, cy) = (centre.0 * scale, centre.1 * scale);
        detail.total(cx - half.0, cy - half.1, cx + half.0, cy + half.1)
    };
    let middle = Framing {
        center: (framing.photo.0 as f32 / 2.0, framing.photo.1 as f32 / 2.0),
        ..framing
    }
    .panned(0.0, 0.0);
    let steps = 24;
    let mut best = (score(middle.center), middle);
    for i in 0..=steps {
        for j in 0..=steps {
            let at = (
                framing.photo.0 as f32 * i as f32 / steps as f32,
                framing.photo.1 as f32 * j as f32 / steps as f32,
            );
            let candidate = middle.panned(at.0 - middle.center.0, at.1 - middle.center.1);
            let total = score(candidate.center);
            if total > best.0 {
                best = (total, candidate);
            }
        }
    }
    let middle_score = score(middle.center);
    if best.0 > middle_score * STANDS_OUT as f64 {
        best.1
    } else {
        middle
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage};

    /// A flat photo with a busy patch (a fine checkerboard) in `patch` (x0, y0, x1, y1).
    fn photo_with_patch(width: u32, height: u32, patch: (u32, u32, u32, u32)) -> DynamicImage {
        DynamicImage::ImageRgb8(RgbImage::from_fn(width, height, |x, y| {
            let inside = (patch.0..patch.2).contains(&x) && (patch.1..patch.3).contains(&y);
            if inside && (x / 4 + y / 4) % 2 == 0 {
                Rgb([250, 240, 230])
            } else if inside {
                Rgb([20, 30, 40])
            } else {
                Rgb([120, 160, 200])
            }
        }))
    }

    #[test]
    fn a_subject_left_of_centre_is_framed_not_cut_off() {
        // A landscape photo on a square board: a person on the left third.
        let photo = photo_with_patch(1200, 600, (60, 150, 360, 550));
        let centred = Framing::centred((1200, 600), (4, 4)).unwrap();
        assert_eq!(
            centred.crop().x,
            300,
            "the centre crop cuts the subject in half"
        );
        let framed = subject_framing(&photo, centred);
        let crop = framed.crop();
        assert!(
            crop.x <= 60 && crop.x + crop.width >= 360,
            "{crop:?} misses the subject"
        );
        assert_eq!(crop.width, 600, "the framing keeps its size");
    }

    #[test]
    fn a_face_at_the_top_of_a_portrait_is_kept() {
        // A portrait on a square board: the face near the top, a plain body below.
        let photo = photo_with_patch(600, 1000, (200, 40, 400, 260));
        let framed = subject_framing(&photo, Framing::centred((600, 1000), (3, 3)).unwrap());
        let crop = framed.crop();
        assert!(crop.y <= 40, "{crop:?} cuts the face");
    }

    #[test]
    fn when_nothing_stands_out_the_frame_stays_in_the_middle() {
        let flat = photo_with_patch(1200, 600, (0, 0, 0, 0));
        let centred = Framing::centred((1200, 600), (4, 4)).unwrap();
        assert_eq!(subject_framing(&flat, centred).crop(), centred.crop());
        // Detail everywhere alike: the middle, not an edge.
        let busy = photo_with_patch(1200, 600, (0, 0, 1200, 600));
        assert_eq!(subject_framing(&busy, centred).crop(), centred.crop());
        // Grain a little thicker on the left than on the right: nothing a person would call
        // the subject, so the middle still.
        let mut seed = 7u32;
        let grain = DynamicImage::ImageRgb8(RgbImage::from_fn(1200, 600, |x, _| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let spread = if x < 600 { 70 } else { 60 };
            let level = 100 + (seed >> 24) % spread;
            Rgb([level as u8; 3])
        }));
        assert_eq!(subject_framing(&grain, centred).crop(), centred.crop());
    }

    #[test]
    fn a_subject_in_the_corner_of_a_zoomed_frame_is_reached() {
        let photo = photo_with_patch(1600, 1200, (1250, 850, 1550, 1150));
        let small = Framing::centred((1600, 1200), (4, 4))
            .unwrap()
            .zoomed(3.0, (800.0, 600.0));
        let crop = subject_framing(&photo, small).crop();
        assert!(
            crop.x + crop.width >= 1500 && crop.y + crop.height >= 1100,
            "{crop:?}"
        );
    }
}
