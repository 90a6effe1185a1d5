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

/// The text sizes the player can choose, in percent of the normal size.
pub const TEXT_SIZES: [u16; 4] = [100, 125, 150, 200];

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
    /// The distance tone after each move (a board you can hear); `None` plays it while a
    /// screen reader listens.
    #[serde(default)]
    pub tone: Option<bool>,
    /// A tap of the phone's haptics on a slide and on the win.
    pub haptics: bool,
    /// Solution playback, in moves per second (within [`SPEEDS`]).
    pub speed: f32,
    /// Dark or light.
    pub theme: Theme,
    /// The text size, in percent of the normal size (one of [`TEXT_SIZES`]); `None` follows the
    /// device's own text size where it tells it, else 100 %.
    pub text_size: Option<u16>,
    /// Calm motion: slides without the spring's overshoot and shorter, no confetti, no shake;
    /// `None` follows the device's setting where it tells it, else full motion.
    pub reduce_motion: Option<bool>,
    /// Hover (the speedsolvers' control, with a mouse): a tile slides when the pointer enters
    /// it, if it is in line with the gap, with no click.
    #[serde(default)]
    pub hover: bool,
    /// Instant slides: tiles jump to their cells, with no slide shown (speedsolvers set the
    /// animation to 0).
    #[serde(default)]
    pub instant: bool,
    /// The daily's shared board's server (`https://host`), when the player uses one; none
    /// keeps every result on the device (`SNAPSLIDE_SERVER` wins over it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences {
            difficulty: Difficulty::Medium,
            show_numbers: None,
            mark_correct: false,
            meter: false,
            sound: true,
            tone: None,
            haptics: true,
            speed: DEFAULT_SPEED,
            theme: Theme::default(),
            text_size: None,
            reduce_motion: None,
            hover: false,
            instant: false,
            server: None,
        }
    }
}

impl Preferences {
    /// The text's scale (1 for 100 %): the player's choice, else the device's (`system`, where
    /// it tells it, within 1 and 2), else 1.
    pub fn text_scale(&self, system: Option<f32>) -> f32 {
        match (self.text_size, system) {
            (Some(percent), _) => percent as f32 / 100.0,
            (None, Some(scale)) => device_text_scale(scale).unwrap_or(1.0),
            _ => 1.0,
        }
    }

    /// Whether motion is calmed: the player's choice, else the device's, else not.
    pub fn calm_motion(&self, system: Option<bool>) -> bool {
        self.reduce_motion.or(system).unwrap_or(false)
    }

    /// Whether tile numbers are drawn on a board whose longer side is `n`, cut from a photo
    /// whose tiles are `alike` (too alike to be placed by eye): the player's choice, else
    /// on for large boards and alike tiles.
    pub fn numbers_shown(&self, n: usize, alike: bool) -> bool {
        self.show_numbers.unwrap_or(n >= 6 || alike)
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
            tone: fields.or("tone", default.tone),
            haptics: fields.or("haptics", default.haptics),
            speed: speed_in_range(fields.or("speed", default.speed)),
            theme: fields.or("theme", default.theme),
            text_size: fields
                .or("text_size", default.text_size)
                .filter(|size| TEXT_SIZES.contains(size)),
            reduce_motion: fields.or("reduce_motion", default.reduce_motion),
            hover: fields.or("hover", default.hover),
            instant: fields.or("instant", default.instant),
            server: fields.or("server", default.server),
        };
        Ok(Read {
            value: preferences,
            lost: fields.lost,
        })
    }
}

/// The scale the app draws at for the device's own text scale: 100 % to 200 % (a phone's
/// largest accessibility sizes reach 312 %, more than the panel can hold); `None` for a
/// scale that is not a number.
pub fn device_text_scale(system: f32) -> Option<f32> {
    system.is_finite().then(|| system.clamp(1.0, 2.0))
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
    fn the_boards_server_is_read_and_a_file_without_one_is_written_as_before() {
        let read = Preferences::read(br#"{"server": "https://board.example"}"#).unwrap();
        assert_eq!(read.value.server.as_deref(), Some("https://board.example"));
        assert!(read.lost.is_empty());
        let json = serde_json::to_string(&Preferences::default()).unwrap();
        assert!(!json.contains("server"), "{json}");
    }

    #[test]
    fn text_size_and_motion_follow_the_player_then_the_device() {
        let mut preferences = Preferences::default();
        assert_eq!(preferences.text_scale(None), 1.0);
        assert_eq!(
            preferences.text_scale(Some(1.3)),
            1.3,
            "the phone's own font scale"
        );
        assert_eq!(
            preferences.text_scale(Some(0.85)),
            1.0,
            "never smaller than normal"
        );
        preferences.text_size = Some(200);
        assert_eq!(
            preferences.text_scale(Some(1.3)),
            2.0,
            "the player's choice first"
        );
        assert!(!preferences.calm_motion(None));
        assert!(preferences.calm_motion(Some(true)));
        preferences.reduce_motion = Some(false);
        assert!(!preferences.calm_motion(Some(true)));
        // A size not offered is a bad value: the device's again.
        let read = Preferences::read(br#"{"text_size": 175, "reduce_motion": true}"#).unwrap();
        assert_eq!(
            (read.value.text_size, read.value.reduce_motion),
            (None, Some(true))
        );
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
        assert!(!Preferences::default().numbers_shown(4, false));
        assert!(Preferences::default().numbers_shown(6, false));
        assert!(
            Preferences::default().numbers_shown(3, true),
            "tiles too alike"
        );
        let off = Preferences {
            show_numbers: Some(false),
            ..Preferences::default()
        };
        assert!(!off.numbers_shown(3, true), "the player's choice stands");
    }
}
