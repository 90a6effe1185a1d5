//! The player's preferences: the next game's difficulty, tile numbers and marks, the meter,
//! sound, haptics, the speed of the app's solutions, the theme. Every value is brought into
//! range here, and nowhere else.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::Difficulty;
use super::fields::{Fields, FileError, Read};

/// Dark or light.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Theme {
    /// Ink and warm white: photos glow on it.
    #[default]
    Dark,
    /// Paper and ink.
    Light,
}

impl Theme {
    /// The name shown to the player.
    pub fn label(self) -> &'static str {
        match self {
            Theme::Dark => "Dark",
            Theme::Light => "Light",
        }
    }
}

/// The speeds a solution plays at, in moves a second.
pub const SPEEDS: RangeInclusive<f32> = 0.5..=30.0;
/// The playback speed when none is set, in moves a second.
pub const DEFAULT_SPEED: f32 = 4.0;

/// A playback speed brought into [`SPEEDS`] (the default for one that is not a number).
pub fn speed_in_range(speed: f32) -> f32 {
    if speed.is_finite() {
        speed.clamp(*SPEEDS.start(), *SPEEDS.end())
    } else {
        DEFAULT_SPEED
    }
}

/// The player's preferences (kept in the settings file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preferences {
    /// The difficulty of new games.
    pub difficulty: Difficulty,
    /// Tile numbers: `None` follows the default (on from 6×6).
    pub show_numbers: Option<bool>,
    /// A mark on each tile already in its place.
    pub mark_correct: bool,
    /// The shortest-path meter: how far the board is from solved, after every move.
    pub meter: bool,
    /// Sound on.
    pub sound: bool,
    /// A tap of the phone's haptics on a slide and on the win.
    pub haptics: bool,
    /// Solution playback, in moves per second (within [`SPEEDS`]).
    pub speed: f32,
    /// Dark or light.
    pub theme: Theme,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences {
            difficulty: Difficulty::Medium,
            show_numbers: None,
            mark_correct: false,
            meter: false,
            sound: true,
            haptics: true,
            speed: DEFAULT_SPEED,
            theme: Theme::default(),
        }
    }
}

impl Preferences {
    /// Whether tile numbers are drawn on a board whose longer side is `n`.
    pub fn numbers_shown(&self, n: usize) -> bool {
        self.show_numbers.unwrap_or(n >= 6)
    }

    /// Reads the settings file field by field: a bad or missing field gets its default (a bad
    /// one is noted in `lost`), the others are kept; the speed is brought into range.
    pub fn read(bytes: &[u8]) -> Result<Read<Preferences>, FileError> {
        let mut fields = Fields::parse(bytes)?;
        let default = Preferences::default();
        let preferences = Preferences {
            difficulty: fields.or("difficulty", default.difficulty),
            show_numbers: fields.or("show_numbers", default.show_numbers),
            mark_correct: fields.or("mark_correct", default.mark_correct),
            meter: fields.or("meter", default.meter),
            sound: fields.or("sound", default.sound),
            haptics: fields.or("haptics", default.haptics),
            speed: speed_in_range(fields.or("speed", default.speed)),
            theme: fields.or("theme", default.theme),
        };
        Ok(Read {
            value: preferences,
            lost: fields.lost,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bad_setting_loses_that_setting_only() {
        let text = br#"{"speed": "fast", "theme": "Light", "meter": true, "sound": 3}"#;
        let read = Preferences::read(text).unwrap();
        assert_eq!(read.value.theme, Theme::Light);
        assert!(read.value.meter);
        assert_eq!(read.value.speed, DEFAULT_SPEED);
        assert!(read.value.sound, "a bad sound setting takes the default");
        assert_eq!(read.lost, vec!["sound", "speed"]);
    }

    #[test]
    fn speeds_are_brought_into_range_and_old_files_still_read() {
        assert_eq!(speed_in_range(f32::NAN), DEFAULT_SPEED);
        assert_eq!(speed_in_range(1e9), *SPEEDS.end());
        assert_eq!(speed_in_range(0.0), *SPEEDS.start());
        // A file from before the session had its own home: its photo and board are ignored,
        // and an old "Custom" difficulty is a bad value that takes the default.
        let old =
            br#"{"size": 6, "rows": 8, "photo": {"Bundled": "x.png"}, "difficulty": "Custom"}"#;
        let read = Preferences::read(old).unwrap();
        assert_eq!(read.value, Preferences::default());
        assert_eq!(read.lost, vec!["difficulty"]);
        assert!(!Preferences::default().numbers_shown(4));
        assert!(Preferences::default().numbers_shown(6));
    }
}
