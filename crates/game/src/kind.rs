//! What kind of game is on the board: how its board was made, and what its result counts for.

use super::event::Run;
use super::{Day, Difficulty, Game};

/// What kind of game this is: one truth for how its board was made and where its result goes.
#[derive(Clone, Debug, PartialEq)]
pub enum GameKind {
    /// A shuffle at a difficulty: solved alone, it can set a best score.
    Shuffled(Difficulty),
    /// A board the player set up: it keeps no records.
    Custom,
    /// The puzzle of a day: its result goes to the days' list.
    Daily(Day),
    /// A finished game's start, replayed along the best line the app knows: a viewer that
    /// holds the finished game (what is saved, and what Done brings back).
    Review(Box<Game>),
    /// A solve watched again from its start, at the player's own pace: a viewer that holds
    /// the game the player has.
    Replay(Box<Game>),
    /// A leg of a run of boards on one clock (a marathon, a relay).
    Event(Run),
}

impl From<Difficulty> for GameKind {
    fn from(difficulty: Difficulty) -> GameKind {
        GameKind::Shuffled(difficulty)
    }
}

impl GameKind {
    /// The shuffle's difficulty, for a shuffled game.
    pub fn difficulty(&self) -> Option<Difficulty> {
        match self {
            GameKind::Shuffled(difficulty) => Some(*difficulty),
            _ => None,
        }
    }

    /// The day whose puzzle this is, for the puzzle of the day.
    pub fn day(&self) -> Option<Day> {
        match self {
            GameKind::Daily(day) => Some(*day),
            _ => None,
        }
    }

    /// The name shown to the player: the difficulty, "Custom", "Puzzle of the day", "Review",
    /// "Marathon ×10 · board 3 of 10".
    pub fn label(&self) -> String {
        match self {
            GameKind::Shuffled(difficulty) => difficulty.label().into(),
            GameKind::Custom => "Custom".into(),
            GameKind::Daily(_) => "Puzzle of the day".into(),
            GameKind::Review(_) => "Review".into(),
            GameKind::Replay(_) => "Replay".into(),
            GameKind::Event(run) if run.legs() == 1 => run.event.label(),
            GameKind::Event(run) => format!("{} · {}", run.event.label(), run.progress()),
        }
    }
}
