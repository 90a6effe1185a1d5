//! A line of text under a replay's GIF (the board, the moves, the time), drawn with the
//! app's own font in a few shades of one light colour, so that a GIF shared without its
//! message still says what it shows.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use thiserror::Error;

/// A line of text shown under the board for the whole GIF.
#[derive(Clone, Copy, Debug)]
pub struct Caption<'a> {
    /// The words: "4×4 · 38 moves · 25.46 s".
    pub text: &'a str,
    /// The font, as a TrueType or OpenType file's bytes.
    pub font: &'a [u8],
}

/// The caption's font could not be read.
#[derive(Debug, Error)]
#[error("the caption's font could not be read")]
pub struct FontError;

/// The strip's height for a GIF `width` pixels wide: the text a twentieth of the width, at
/// least legible, at most modest.
pub fn strip_height(width: u32) -> u32 {
    (width / 16).clamp(14, 32)
}

/// The caption drawn on a strip `width` × `height`, one palette index a pixel, row-major:
/// `dark` where there is no text, and the text in `shades` (the full colour, then two lighter
/// blends with the dark), centred; a line too long for the width is set smaller to fit.
pub fn draw_strip(
    caption: &Caption,
    (width, height): (u32, u32),
    shades: [u8; 3],
    dark: u8,
) -> Result<Vec<u8>, FontError> {
    let font = FontRef::try_from_slice(caption.font).map_err(|_| FontError)?;
    let mut strip = vec![dark; (width * height) as usize];
    let mut px = height as f32 * 0.6;
    let room = width as f32 * 0.94;
    // Advances and kerning scale with the size: a line set smaller to fit is `room` wide.
    let wide = advance(&font, caption.text, px);
    if wide > room {
        px *= room / wide;
    }
    let scaled = font.as_scaled(PxScale::from(px));
    let mut x = (width as f32 - wide.min(room)) / 2.0;
    let baseline = (height as f32 + scaled.ascent() + scaled.descent()) / 2.0;
    let mut before = None;
    for c in caption.text.chars() {
        let id = font.glyph_id(c);
        if let Some(before) = before {
            x += scaled.kern(before, id);
        }
        let glyph = id.with_scale_and_position(px, point(x, baseline));
        if let Some(outlined) = font.outline_glyph(glyph) {
            let bounds = outlined.px_bounds();
            outlined.draw(|gx, gy, coverage| {
                let (px_x, px_y) = (
                    bounds.min.x as i64 + gx as i64,
                    bounds.min.y as i64 + gy as i64,
                );
                if (0..width as i64).contains(&px_x) && (0..height as i64).contains(&px_y) {
                    let at = (px_y as u32 * width + px_x as u32) as usize;
                    strip[at] = shade(coverage, shades).unwrap_or(strip[at]);
                }
            });
        }
        x += scaled.h_advance(id);
        before = Some(id);
    }
    Ok(strip)
}

/// The width of a line at `px` pixels, kerned.
fn advance(font: &FontRef, text: &str, px: f32) -> f32 {
    let scaled = font.as_scaled(PxScale::from(px));
    let ids: Vec<_> = text.chars().map(|c| font.glyph_id(c)).collect();
    let kerning: f32 = ids.windows(2).map(|w| scaled.kern(w[0], w[1])).sum();
    ids.iter().map(|&id| scaled.h_advance(id)).sum::<f32>() + kerning
}

/// The shade for a pixel the glyph covers this much of; `None` for too little to show.
fn shade(coverage: f32, shades: [u8; 3]) -> Option<u8> {
    match coverage {
        c if c >= 0.7 => Some(shades[0]),
        c if c >= 0.4 => Some(shades[1]),
        c if c >= 0.15 => Some(shades[2]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FONT: &[u8] = include_bytes!("../../../assets/fonts/Manrope-Medium.ttf");

    /// The columns of a strip that hold any text.
    fn inked_columns(strip: &[u8], width: u32) -> Vec<u32> {
        (0..width)
            .filter(|&x| {
                strip
                    .iter()
                    .skip(x as usize)
                    .step_by(width as usize)
                    .any(|&p| p != 0)
            })
            .collect()
    }

    #[test]
    fn the_caption_is_drawn_centred_in_the_text_s_shades_and_fits_the_width() {
        let caption = Caption {
            text: "4×4 · 38 moves · 25.46 s",
            font: FONT,
        };
        let (width, height) = (480, strip_height(480));
        let strip = draw_strip(&caption, (width, height), [2, 3, 4], 0).unwrap();
        assert!(strip.iter().all(|p| [0, 2, 3, 4].contains(p)));
        assert!(strip.contains(&2), "no pixel in the full colour");
        let inked = inked_columns(&strip, width);
        let (left, right) = (inked[0], width - 1 - inked[inked.len() - 1]);
        assert!(
            left.abs_diff(right) <= 3,
            "not centred: {left} left, {right} right"
        );
        // A line far too long for a small GIF is set smaller, not cut off.
        let long = Caption {
            text: "8×8 · 1234 moves · 12:34.56 · a long name",
            font: FONT,
        };
        let strip = draw_strip(&long, (96, strip_height(96)), [2, 3, 4], 0).unwrap();
        let inked = inked_columns(&strip, 96);
        assert!(
            inked[0] > 0 && inked[inked.len() - 1] < 95,
            "the line runs off the strip"
        );
    }

    #[test]
    fn a_font_that_is_not_one_is_refused() {
        let caption = Caption {
            text: "4×4",
            font: b"not a font",
        };
        assert!(draw_strip(&caption, (100, 20), [2, 3, 4], 0).is_err());
    }
}
