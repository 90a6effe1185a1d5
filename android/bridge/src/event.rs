//! What crosses from Java to Rust, and the small vocabularies of the calls the other way.

use std::sync::Arc;

/// The system's bars and cut-outs, in physical pixels from each edge of the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Insets {
    /// From the top edge (status bar, cut-out).
    pub top: u32,
    /// From the right edge.
    pub right: u32,
    /// From the bottom edge (navigation or gesture bar).
    pub bottom: u32,
    /// From the left edge.
    pub left: u32,
}

impl Insets {
    /// Insets from Java's ints; a negative value (never sent by Android) counts as zero.
    pub fn from_java(top: i32, right: i32, bottom: i32, left: i32) -> Insets {
        let clamp = |v: i32| u32::try_from(v).unwrap_or(0);
        Insets {
            top: clamp(top),
            right: clamp(right),
            bottom: clamp(bottom),
            left: clamp(left),
        }
    }
}

/// Insets in logical pixels (physical pixels over the window's scale factor).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LogicalInsets {
    /// From the top edge.
    pub top: f32,
    /// From the right edge.
    pub right: f32,
    /// From the bottom edge.
    pub bottom: f32,
    /// From the left edge.
    pub left: f32,
}

impl Insets {
    /// These insets in logical pixels, for a window of this scale factor (Android's density);
    /// a scale factor that is not a positive number counts as 1.
    pub fn logical(&self, scale_factor: f32) -> LogicalInsets {
        let scale = if scale_factor.is_finite() && scale_factor > 0.0 {
            scale_factor
        } else {
            1.0
        };
        let to_logical = |px: u32| px as f32 / scale;
        LogicalInsets {
            top: to_logical(self.top),
            right: to_logical(self.right),
            bottom: to_logical(self.bottom),
            left: to_logical(self.left),
        }
    }
}

/// The device's text size and motion setting, as the activity read them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Preferences {
    /// The text scale (`Configuration.fontScale`: 1 for the normal size); `None` when Java's
    /// value is not a positive number.
    pub font_scale: Option<f32>,
    /// Whether the player turned animations off (the animator duration scale is 0).
    pub animations_off: bool,
}

impl Preferences {
    /// Preferences from Java's values; a font scale that is not a positive number (never sent
    /// by Android) is unknown.
    pub fn from_java(font_scale: f32, animations_off: bool) -> Preferences {
        let known = font_scale.is_finite() && font_scale > 0.0;
        Preferences {
            font_scale: known.then_some(font_scale),
            animations_off,
        }
    }
}

/// What the Java side tells the game.
#[derive(Clone, Debug, PartialEq)]
pub enum BridgeEvent {
    /// A photo the player chose, as JPEG bytes (already oriented and scaled down).
    Photo {
        /// The encoded image.
        bytes: Vec<u8>,
        /// A short name for it.
        name: String,
    },
    /// The player closed the picker or the camera without a photo.
    Cancelled,
    /// No photo could be had (no camera app, an unreadable file); the reason is for the player.
    Failed(String),
    /// The back button or gesture.
    Back,
    /// The window's insets changed.
    Insets(Insets),
    /// The device's text size or animation setting, read at start, on resume and when the
    /// configuration changes.
    Preferences(Preferences),
    /// A link that opened the app (an intent's data, `snapslide://c/CODE`), as Android gave it.
    Link(String),
    /// The share sheet could not be opened; the reason is for the player.
    ShareFailed(String),
}

/// Where the bridge hands its events: called from whatever Java thread delivers them.
pub type Sink = Arc<dyn Fn(BridgeEvent) + Send + Sync>;

/// Where a photo comes from; the values are `Bridge.ORIGIN_*` in Java.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The system photo picker.
    Gallery = 0,
    /// The camera.
    Camera = 1,
}

/// A haptic tap, by what happened; the values are `Bridge.TAP_*` in Java.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tap {
    /// A tile slid.
    Slide = 0,
    /// The puzzle is solved.
    Win = 1,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insets_are_divided_by_the_scale_factor() {
        let phone = Insets {
            top: 144,
            right: 0,
            bottom: 63,
            left: 30,
        };
        assert_eq!(
            phone.logical(3.0),
            LogicalInsets {
                top: 48.0,
                right: 0.0,
                bottom: 21.0,
                left: 10.0
            }
        );
        for bad in [0.0, -2.0, f32::NAN, f32::INFINITY] {
            assert_eq!(phone.logical(bad).top, 144.0, "scale factor {bad}");
        }
    }

    #[test]
    fn negative_insets_count_as_zero() {
        assert_eq!(
            Insets::from_java(96, -1, 48, 0),
            Insets {
                top: 96,
                right: 0,
                bottom: 48,
                left: 0
            }
        );
    }

    #[test]
    fn a_font_scale_that_is_not_a_positive_number_is_unknown() {
        let larger = Preferences::from_java(1.3, true);
        assert_eq!(larger.font_scale, Some(1.3));
        assert!(larger.animations_off);
        for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let read = Preferences::from_java(bad, false);
            assert_eq!(read.font_scale, None, "font scale {bad}");
            assert!(!read.animations_off);
        }
    }
}
