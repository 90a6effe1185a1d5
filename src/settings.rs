//! The player's settings: board size, difficulty, photo, sound, haptics, playback speed. Kept in
//! the settings file by `persist`; every value is brought into range when read.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::game::{Difficulty, MAX_SIDE, MIN_SIDE};
use crate::photo::PhotoSource;
use crate::theme::Theme;

/// The player's settings (kept in the settings file).
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Columns of the next game's board, 3 to 8.
    pub size: usize,
    /// Rows of the next game's board, when it is not square (a board shaped like the photo).
    pub rows: Option<usize>,
    /// The difficulty of new games.
    pub difficulty: Difficulty,
    /// Tile numbers: `None` follows the default (on from 6×6).
    pub show_numbers: Option<bool>,
    /// A mark on each tile already in its place.
    pub mark_correct: bool,
    /// Sound on.
    pub sound: bool,
    /// A tap of the phone's haptics on a slide and on the win.
    pub haptics: bool,
    /// The photo.
    pub photo: PhotoSource,
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
            size: 4,
            rows: None,
            difficulty: Difficulty::Medium,
            show_numbers: None,
            mark_correct: false,
            sound: true,
            haptics: true,
            photo: PhotoSource::default(),
            speed: DEFAULT_SPEED,
            theme: Theme::default(),
        }
    }
}

impl Settings {
    /// The next game's board: columns and rows.
    pub fn board(&self) -> (usize, usize) {
        (self.size, self.rows.unwrap_or(self.size))
    }

    /// Makes this the next game's board.
    pub fn set_board(&mut self, width: usize, height: usize) {
        self.size = width;
        self.rows = (height != width).then_some(height);
    }

    /// Whether tile numbers are drawn on a board whose longer side is `n`.
    pub fn numbers_shown(&self, n: usize) -> bool {
        self.show_numbers.unwrap_or(n >= 6)
    }

    /// The settings with every value brought into range.
    pub fn sanitized(mut self) -> Settings {
        self.size = self.size.clamp(MIN_SIDE, MAX_SIDE);
        self.rows = self
            .rows
            .map(|rows| rows.clamp(MIN_SIDE, MAX_SIDE))
            .filter(|&rows| rows != self.size);
        if self.difficulty == Difficulty::Custom {
            self.difficulty = Difficulty::Medium;
        }
        if !self.speed.is_finite() {
            self.speed = DEFAULT_SPEED;
        }
        self.speed = self.speed.clamp(0.5, 30.0);
        self.photo = self.photo.sanitized();
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
            size: 99,
            rows: Some(1),
            speed: f32::NAN,
            difficulty: Difficulty::Custom,
            photo: PhotoSource::Bundled("no-such-photo.png".into()),
            ..Settings::default()
        }
        .sanitized();
        assert_eq!(s.board(), (MAX_SIDE, MIN_SIDE));
        assert_eq!(s.speed, DEFAULT_SPEED);
        assert_eq!(s.difficulty, Difficulty::Medium);
        assert_eq!(s.photo, PhotoSource::default());
        assert!(!Settings::default().numbers_shown(4));
        assert!(Settings::default().numbers_shown(6));
    }
}
