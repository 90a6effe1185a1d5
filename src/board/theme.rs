//! The look: a warm palette in dark and light, shared by the board (Bevy) and the controls
//! (egui, see `hud::style`). The photo is the star: the frame around it stays quiet, and one
//! warm accent marks what can be tapped.

use bevy::prelude::*;

pub use crate::game::Theme;

/// The app's font (Manrope, SIL Open Font License): the controls' text, and a replay GIF's
/// caption.
pub const FONT: &[u8] = include_bytes!("../../assets/fonts/Manrope-Medium.ttf");
/// Its bold weight, for headings and figures.
pub const FONT_BOLD: &[u8] = include_bytes!("../../assets/fonts/Manrope-ExtraBold.ttf");

/// The colours of a theme, as sRGB bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Behind everything.
    pub background: [u8; 3],
    /// The panel and dialogs.
    pub surface: [u8; 3],
    /// Buttons and fields on the surface.
    pub raised: [u8; 3],
    /// Lines between things.
    pub stroke: [u8; 3],
    /// Text.
    pub text: [u8; 3],
    /// Captions and quiet text.
    pub muted: [u8; 3],
    /// What can be tapped first: the main action, the hint, the selection.
    pub accent: [u8; 3],
    /// Text on the accent.
    pub on_accent: [u8; 3],
    /// Closer, solved, correct.
    pub good: [u8; 3],
    /// Further, careful.
    pub warning: [u8; 3],
    /// Wrong, unsolvable.
    pub bad: [u8; 3],
    /// Between the tiles, and the empty cell: a mid tone, so the gap shows on a dark photo
    /// and on a bright one.
    pub backdrop: [u8; 3],
    /// A control that cannot be used now: flatter than `raised`, nearer the surface.
    pub disabled_fill: [u8; 3],
    /// Its label: quieter than `muted`.
    pub disabled_text: [u8; 3],
}

impl Palette {
    /// The dark theme.
    pub const DARK: Palette = Palette {
        background: [0x12, 0x14, 0x19],
        surface: [0x1b, 0x1e, 0x25],
        raised: [0x2a, 0x2e, 0x38],
        stroke: [0x36, 0x3b, 0x47],
        text: [0xf3, 0xef, 0xe7],
        muted: [0x9b, 0xa1, 0xac],
        accent: [0xff, 0x8a, 0x3d],
        on_accent: [0x1a, 0x10, 0x08],
        good: [0x58, 0xd3, 0xa5],
        warning: [0xff, 0xc2, 0x4b],
        bad: [0xff, 0x6f, 0x61],
        backdrop: [0x3a, 0x3f, 0x4b],
        disabled_fill: [0x20, 0x23, 0x2b],
        disabled_text: [0x80, 0x85, 0x8f],
    };

    /// The light theme.
    pub const LIGHT: Palette = Palette {
        background: [0xf4, 0xef, 0xe6],
        surface: [0xff, 0xfc, 0xf7],
        raised: [0xe3, 0xd8, 0xc6],
        stroke: [0xd9, 0xcf, 0xc0],
        text: [0x1d, 0x1f, 0x24],
        muted: [0x6a, 0x6f, 0x79],
        accent: [0xbf, 0x4d, 0x14],
        on_accent: [0xff, 0xfa, 0xf4],
        good: [0x1f, 0x9e, 0x74],
        warning: [0xb0, 0x72, 0x10],
        bad: [0xd0, 0x40, 0x30],
        backdrop: [0xb4, 0xa9, 0x98],
        disabled_fill: [0xf6, 0xf2, 0xeb],
        disabled_text: [0x7a, 0x76, 0x70],
    };

    /// The palette of a theme.
    pub fn of(theme: Theme) -> Palette {
        match theme {
            Theme::Dark => Palette::DARK,
            Theme::Light => Palette::LIGHT,
        }
    }

    /// A colour for Bevy.
    pub fn color(rgb: [u8; 3]) -> Color {
        Color::srgb_u8(rgb[0], rgb[1], rgb[2])
    }
}

/// WCAG's relative luminance of an sRGB colour.
fn luminance(rgb: [u8; 3]) -> f64 {
    let channel = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])
}

/// WCAG's contrast ratio of two sRGB colours: 1 (the same) to 21 (black on white); 4.5 is
/// the least for text, 3 for large text and shapes.
pub fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (a, b) = (luminance(a), luminance(b));
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_legible_in_both_themes() {
        for palette in [Palette::DARK, Palette::LIGHT] {
            // WCAG AA: 4.5 for body text, 3 for large text and controls.
            assert!(contrast(palette.text, palette.surface) >= 7.0);
            assert!(contrast(palette.text, palette.raised) >= 4.5);
            assert!(contrast(palette.muted, palette.surface) >= 4.5);
            assert!(contrast(palette.on_accent, palette.accent) >= 4.5);
            assert!(contrast(palette.good, palette.surface) >= 3.0);
            assert!(contrast(palette.warning, palette.surface) >= 3.0);
            assert!(contrast(palette.bad, palette.surface) >= 3.0);
        }
    }

    #[test]
    fn an_enabled_control_stands_out_more_than_a_disabled_one_in_both_themes() {
        for palette in [Palette::DARK, Palette::LIGHT] {
            // The control's body against what it sits on (the window, the panel).
            for under in [palette.background, palette.surface] {
                let enabled = contrast(palette.raised, under);
                let disabled = contrast(palette.disabled_fill, under);
                assert!(enabled > disabled + 0.05, "{enabled:.2} vs {disabled:.2}");
                assert!(enabled >= 1.15, "an enabled control is lost: {enabled:.2}");
            }
            // Its label: an enabled one reads clearly, a disabled one visibly less.
            let enabled = contrast(palette.text, palette.raised);
            let disabled = contrast(palette.disabled_text, palette.disabled_fill);
            assert!(
                enabled >= 4.5 && disabled < enabled / 1.5,
                "{enabled:.2} vs {disabled:.2}"
            );
            assert!(
                disabled >= 3.0,
                "a disabled label cannot be read: {disabled:.2}"
            );
        }
    }
}
