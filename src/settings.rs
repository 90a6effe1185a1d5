//! The player's preferences: difficulty, tile numbers and marks, the meter, sound, haptics,
//! playback speed, the theme. Kept in the settings file by `persist`; every value is brought
//! into range when read. What the player plays with now (the photo, the next game's board) is
//! the session's (`session`).

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::game::Difficulty;
use crate::theme::Theme;

/// The player's settings (kept in the settings file).
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
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
    /// Solution playback, in moves per second.
    pub speed: f32,
    /// Dark or light.
    pub theme: Theme,
}

/// The playback speed when none is set, in moves per second.
pub const DEFAULT_SPEED: f32 = 4.0;

impl Default for Settings {
    fn default() -> Self {
        Settings {
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

impl Settings {
    /// Whether tile numbers are drawn on a board whose longer side is `n`.
    pub fn numbers_shown(&self, n: usize) -> bool {
        self.show_numbers.unwrap_or(n >= 6)
    }

    /// The settings with every value brought into range.
    pub fn sanitized(mut self) -> Settings {
        if self.difficulty == Difficulty::Custom {
            self.difficulty = Difficulty::Medium;
        }
        if !self.speed.is_finite() {
            self.speed = DEFAULT_SPEED;
        }
        self.speed = self.speed.clamp(0.5, 30.0);
        self
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Settings>();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_brought_into_range() {
        let s = Settings {
            speed: f32::NAN,
            difficulty: Difficulty::Custom,
            ..Settings::default()
        }
        .sanitized();
        assert_eq!(s.speed, DEFAULT_SPEED);
        assert_eq!(s.difficulty, Difficulty::Medium);
        // A file written before the session had its own home still reads (its photo and
        // board are left to the session).
        let old: Settings =
            serde_json::from_str(r#"{"size": 6, "rows": 8, "photo": {"Bundled": "x.png"}}"#)
                .unwrap();
        assert_eq!(old, Settings::default());
        assert!(!Settings::default().numbers_shown(4));
        assert!(Settings::default().numbers_shown(6));
    }
}
