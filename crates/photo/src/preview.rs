//! The framing sheet's copy of a photo: small enough to draw at the screen's rate, sharp enough
//! for the largest sheet, and made in one pass over the photo's bytes, because the sheet waits
//! for it.

use image::{DynamicImage, RgbaImage};

/// The longer side the framing sheet's preview keeps at least (a photo no larger is shown as
/// it is): the whole photo drawn on a phone's or a desktop's screen.
pub const PREVIEW_SIDE: u32 = 1024;

/// A copy of the photo for the framing sheet: shrunk by the largest whole factor `k` that
/// keeps its longer side at least [`PREVIEW_SIDE`], each pixel the mean of the `k` × `k` photo
/// pixels it covers (narrower blocks at the right and bottom edges). A 12-megapixel photo
/// (4032 × 3024) becomes 1344 × 1008.
pub fn preview(photo: &DynamicImage) -> RgbaImage {
    let factor = (photo.width().max(photo.height()) / PREVIEW_SIDE).max(1) as usize;
    match photo {
        DynamicImage::ImageRgb8(rgb) => shrink::<3>(rgb.as_raw(), rgb.width(), factor),
        DynamicImage::ImageRgba8(rgba) if factor == 1 => rgba.clone(),
        DynamicImage::ImageRgba8(rgba) => shrink::<4>(rgba.as_raw(), rgba.width(), factor),
        other => {
            let rgba = other.to_rgba8();
            shrink::<4>(rgba.as_raw(), rgba.width(), factor)
        }
    }
}

/// `pixels` (rows of `width` pixels of `CHANNELS` bytes, red first) shrunk by `factor`: each
/// output pixel the rounded mean of its block. Opaque when the input has no alpha.
fn shrink<const CHANNELS: usize>(pixels: &[u8], width: u32, factor: usize) -> RgbaImage {
    let row_bytes = width as usize * CHANNELS;
    let height = pixels.len() / row_bytes.max(1);
    let (out_width, out_height) = ((width as usize).div_ceil(factor), height.div_ceil(factor));
    let mut out = Vec::with_capacity(out_width * out_height * 4);
    let mut sums = vec![0u32; out_width * CHANNELS];
    for band in pixels.chunks(row_bytes * factor) {
        sums.fill(0);
        for row in band.chunks_exact(row_bytes) {
            for (block, sum) in row
                .chunks(factor * CHANNELS)
                .zip(sums.chunks_exact_mut(CHANNELS))
            {
                for pixel in block.chunks_exact(CHANNELS) {
                    for (total, &byte) in sum.iter_mut().zip(pixel) {
                        *total += u32::from(byte);
                    }
                }
            }
        }
        let rows = band.len() / row_bytes;
        for (column, sum) in sums.chunks_exact(CHANNELS).enumerate() {
            let columns = factor.min(width as usize - column * factor);
            let count = (columns * rows) as u32;
            let mean = |c: usize| ((sum[c] + count / 2) / count) as u8;
            let alpha = if CHANNELS == 4 { mean(3) } else { u8::MAX };
            out.extend_from_slice(&[mean(0), mean(1), mean(2), alpha]);
        }
    }
    RgbaImage::from_raw(out_width as u32, out_height as u32, out).expect("one pixel for each block")
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage, Rgba};

    #[test]
    fn big_photos_are_shrunk_by_a_whole_factor_keeping_their_shape() {
        let sizes = [
            ((4032, 3024), (1344, 1008)),
            ((3024, 4032), (1008, 1344)),
            ((2048, 1000), (1024, 500)),
            ((2047, 1000), (2047, 1000)),
            ((640, 427), (640, 427)),
        ];
        for ((w, h), want) in sizes {
            let small = preview(&DynamicImage::new_rgb8(w, h));
            assert_eq!(small.dimensions(), want, "{w}×{h}");
        }
    }

    #[test]
    fn each_pixel_is_the_mean_of_the_block_it_covers() {
        // 3100 × 7: factor 3, so 1034 × 3 pixels, the last column and row from narrower blocks.
        let photo = RgbImage::from_fn(3100, 7, |x, y| Rgb([(x % 256) as u8, (y * 30) as u8, 9]));
        let small = preview(&DynamicImage::ImageRgb8(photo.clone()));
        assert_eq!(small.dimensions(), (1034, 3));
        for (x, y) in [(0, 0), (500, 1), (1033, 2), (1033, 0)] {
            let (x0, y0) = (x * 3, y * 3);
            let block: Vec<_> = (x0..(x0 + 3).min(3100))
                .flat_map(|px| (y0..(y0 + 3).min(7)).map(move |py| (px, py)))
                .collect();
            let mean = |c: usize| {
                let total: u32 = block
                    .iter()
                    .map(|&(px, py)| photo.get_pixel(px, py)[c] as u32)
                    .sum();
                ((total as f32 / block.len() as f32).round()) as u8
            };
            assert_eq!(
                *small.get_pixel(x, y),
                Rgba([mean(0), mean(1), mean(2), 255]),
                "at {x},{y}"
            );
        }
    }

    #[test]
    fn transparency_and_other_pixel_kinds_are_averaged_too() {
        let half_clear = RgbaImage::from_fn(2048, 2, |x, _| {
            Rgba([200, 100, 0, if x % 2 == 0 { 0 } else { 255 }])
        });
        let small = preview(&DynamicImage::ImageRgba8(half_clear));
        assert_eq!(small.dimensions(), (1024, 1));
        assert_eq!(*small.get_pixel(7, 0), Rgba([200, 100, 0, 128]));
        let grey =
            DynamicImage::ImageLuma8(image::GrayImage::from_pixel(3000, 10, image::Luma([77])));
        let small = preview(&grey);
        assert_eq!(*small.get_pixel(999, 3), Rgba([77, 77, 77, 255]));
    }
}
