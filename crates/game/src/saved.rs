//! A game's saved form, and the game read back from it: every part checked, and a part that
//! cannot be read (the clock, the help mark) taken as its default rather than losing the game.
//! The board, its history and where the history stands are what the game is: without them
//! there is no game to bring back.

use std::time::Duration;

use npuzzle::{Board, Move};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::fields::{Fields, FileError, Read};
use super::{Day, Difficulty, Game, GameKind, playable};

/// What kind of game was saved (the names older versions wrote as its "difficulty").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SavedKind {
    /// [`Difficulty::Easy`].
    Easy,
    /// [`Difficulty::Medium`].
    Medium,
    /// [`Difficulty::Hard`].
    Hard,
    /// [`Difficulty::Expert`].
    Expert,
    /// [`Difficulty::Random`].
    Random,
    /// A board the player set up.
    Custom,
    /// The puzzle of the day (its day is saved beside it).
    Daily,
}

impl SavedKind {
    fn of(kind: &GameKind) -> SavedKind {
        match kind {
            GameKind::Shuffled(Difficulty::Easy) => SavedKind::Easy,
            GameKind::Shuffled(Difficulty::Medium) => SavedKind::Medium,
            GameKind::Shuffled(Difficulty::Hard) => SavedKind::Hard,
            GameKind::Shuffled(Difficulty::Expert) => SavedKind::Expert,
            GameKind::Shuffled(Difficulty::Random) => SavedKind::Random,
            GameKind::Daily(_) => SavedKind::Daily,
            // A review is saved as the finished game it holds, never as itself.
            GameKind::Custom | GameKind::Review(_) | GameKind::Replay(_) | GameKind::Event(_) => {
                SavedKind::Custom
            }
        }
    }

    fn kind(self, day: Option<Day>) -> GameKind {
        match (self, day) {
            (SavedKind::Easy, _) => Difficulty::Easy.into(),
            (SavedKind::Medium, _) => Difficulty::Medium.into(),
            (SavedKind::Hard, _) => Difficulty::Hard.into(),
            (SavedKind::Expert, _) => Difficulty::Expert.into(),
            (SavedKind::Random, _) => Difficulty::Random.into(),
            (SavedKind::Daily, Some(day)) => GameKind::Daily(day),
            (SavedKind::Custom | SavedKind::Daily, _) => GameKind::Custom,
        }
    }
}

/// The serialisable form of a game, for the save file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The start board, row-major, 0 for the blank.
    pub start: Vec<u8>,
    /// The history as U/D/L/R letters.
    pub history: String,
    /// How many moves each player action of the history made (one undo step each); older
    /// files have none: one move an action.
    pub actions: Vec<usize>,
    /// How many moves of the history are in effect.
    pub cursor: usize,
    /// Time played, in milliseconds.
    pub elapsed_ms: u64,
    /// What kind of game it is.
    pub difficulty: SavedKind,
    /// Whether the app helped (a hint or a solution was shown).
    pub helped: bool,
    /// The start board's shortest solution, when it is known.
    pub shortest: Option<usize>,
    /// The day whose puzzle this is, for the puzzle of the day.
    pub day: Option<Day>,
}

/// Why a saved game could not be brought back.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RestoreError {
    /// The start board is not a valid board.
    #[error("the saved board is invalid: {0}")]
    Board(#[from] npuzzle::BoardError),
    /// The history does not fit the board.
    #[error("the saved history does not fit the board")]
    History,
    /// A save journal holds no start of a game (no line of it restores one).
    #[error("the save journal holds no game")]
    NoStart,
    /// A board of a shape the app does not play.
    #[error("the saved board is {width}×{height}, a shape the app does not play")]
    Shape {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
}

impl Game {
    /// The save-file form of this game.
    pub fn to_saved(&self) -> SavedGame {
        SavedGame {
            width: self.start.width(),
            height: self.start.height(),
            start: self.start.tiles().to_vec(),
            history: npuzzle::moves_to_string(&self.history.concat()),
            actions: self.history.iter().map(Vec::len).collect(),
            cursor: self.history[..self.cursor].iter().map(Vec::len).sum(),
            elapsed_ms: self.elapsed.as_millis().min(u64::MAX as u128) as u64,
            difficulty: SavedKind::of(&self.kind),
            helped: self.helped,
            shortest: self.shortest,
            day: self.kind.day(),
        }
    }

    /// Brings a game back from its save-file form, checking every part: the history must fit
    /// the board, all of it (the moves that can be redone too), and the board is then where
    /// the cursor says. The clock waits for the player's next move.
    pub fn from_saved(saved: &SavedGame) -> Result<Game, RestoreError> {
        let start = Board::new(saved.width, saved.height, saved.start.clone())?;
        if !playable(saved.width, saved.height) {
            return Err(RestoreError::Shape {
                width: saved.width,
                height: saved.height,
            });
        }
        let moves = npuzzle::moves_from_str(&saved.history)?;
        let history = split_actions(moves, &saved.actions);
        let cursor = actions_before(&history, saved.cursor).ok_or(RestoreError::History)?;
        let kind = saved.difficulty.kind(saved.day);
        let mut game = Game::new(start, kind);
        game.shortest = saved.shortest;
        for action in &history {
            game.steps(action).ok_or(RestoreError::History)?;
        }
        for action in history[cursor..].iter().rev() {
            let back: Vec<Move> = action.iter().rev().map(|mv| mv.inverse()).collect();
            game.steps(&back).ok_or(RestoreError::History)?;
        }
        // The save holds no action's time: each is taken as the clock then (all were made by
        // that time).
        game.elapsed = Duration::from_millis(saved.elapsed_ms);
        game.times = vec![game.elapsed; history.len()];
        game.history = history;
        game.cursor = cursor;
        game.helped = saved.helped;
        game.won = game.completes();
        Ok(game)
    }
}

/// The history cut into actions of these lengths; one move an action where the lengths do
/// not fit the history (an older file, or a damaged list).
fn split_actions(moves: Vec<Move>, lengths: &[usize]) -> Vec<Vec<Move>> {
    let fits = lengths.iter().all(|&n| n > 0) && lengths.iter().sum::<usize>() == moves.len();
    if !fits {
        return moves.into_iter().map(|mv| vec![mv]).collect();
    }
    let mut rest = moves.as_slice();
    lengths
        .iter()
        .map(|&n| {
            let (action, after) = rest.split_at(n);
            rest = after;
            action.to_vec()
        })
        .collect()
}

/// How many whole actions make up the first `moves` moves; `None` if that falls inside one.
fn actions_before(history: &[Vec<Move>], moves: usize) -> Option<usize> {
    let mut counted = 0;
    for (i, action) in history.iter().enumerate() {
        if counted == moves {
            return Some(i);
        }
        counted += action.len();
    }
    (counted == moves).then_some(history.len())
}

/// A saved game read field by field: the board, the history and the cursor must be read; the
/// rest gets its default when it cannot be (noted in `lost`).
pub fn read_saved_game(fields: &mut Fields) -> Result<SavedGame, FileError> {
    let unusable = |what: &str| FileError::Unusable(format!("the saved game has no {what}"));
    let width = fields.get("width").ok_or_else(|| unusable("width"))?;
    let height = fields.get("height").ok_or_else(|| unusable("height"))?;
    let start = fields.get("start").ok_or_else(|| unusable("board"))?;
    let history = fields.get("history").ok_or_else(|| unusable("history"))?;
    let cursor = fields.get("cursor").ok_or_else(|| unusable("cursor"))?;
    let day = fields.or("day", None);
    let difficulty = fields.or("difficulty", SavedKind::Custom);
    Ok(SavedGame {
        width,
        height,
        start,
        history,
        cursor,
        actions: fields.or("actions", Vec::new()),
        elapsed_ms: fields.or("elapsed_ms", 0),
        difficulty,
        helped: fields
            .first_of(&["helped", "solved_by_app"])
            .unwrap_or(false),
        shortest: fields.or("shortest", None),
        day,
    })
}

/// A game read back from a saved game's bytes (see [`read_saved_game`]).
pub fn read_game(bytes: &[u8]) -> Result<Read<Game>, FileError> {
    let mut fields = Fields::parse(bytes)?;
    let saved = read_saved_game(&mut fields)?;
    let game = Game::from_saved(&saved).map_err(|e| FileError::Unusable(e.to_string()))?;
    Ok(Read {
        value: game,
        lost: fields.lost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::parse_board;

    fn game(text: &str) -> Game {
        Game::new(parse_board(text).unwrap(), Difficulty::Easy)
    }

    #[test]
    fn a_saved_game_round_trips_and_bad_saves_are_refused() {
        let mut g = game("1 2 3 / 4 0 5 / 7 8 6");
        g.apply(&[Move::Up]);
        g.apply(&[Move::Left]);
        g.undo();
        g.tick(Duration::from_millis(700));
        let saved = g.to_saved();
        let back = Game::from_saved(&saved).unwrap();
        assert_eq!(back.board(), g.board());
        assert_eq!(back.moves(), 1);
        assert!(back.can_redo());
        assert_eq!(back.elapsed(), Duration::from_millis(700));

        let mut bad = saved.clone();
        bad.start = vec![1, 1, 2, 3, 4, 5, 6, 7, 8];
        assert!(Game::from_saved(&bad).is_err());
        let mut bad = saved.clone();
        bad.history = "UUUU".into();
        bad.actions.clear();
        assert!(Game::from_saved(&bad).is_err());
        let mut bad = saved.clone();
        bad.cursor = 9;
        assert!(Game::from_saved(&bad).is_err());
        // A valid board of a shape the app does not play (2×2) is refused too.
        let mut bad = saved;
        (bad.width, bad.height, bad.start) = (2, 2, vec![1, 2, 0, 3]);
        bad.history = String::new();
        bad.actions.clear();
        bad.cursor = 0;
        assert!(matches!(
            Game::from_saved(&bad),
            Err(RestoreError::Shape { .. })
        ));
    }

    #[test]
    fn a_tap_of_three_tiles_is_one_undo_step_after_a_restore_too() {
        let mut g = game("0 1 2 / 3 4 5 / 6 7 8");
        g.tap(2);
        g.tap(5);
        let mut back = Game::from_saved(&g.to_saved()).unwrap();
        assert_eq!((back.board(), back.moves()), (g.board(), 3));
        back.undo();
        assert_eq!(back.moves(), 2, "the second tap, one tile, is undone alone");
        back.undo();
        assert_eq!(back.moves(), 0, "the first tap, two tiles, is undone whole");
    }

    #[test]
    fn older_files_still_load() {
        let g = game("1 2 3 / 4 0 5 / 7 8 6");
        let mut json = serde_json::to_value(g.to_saved()).unwrap();
        let object = json.as_object_mut().unwrap();
        object.remove("helped");
        object.remove("actions");
        object.insert("solved_by_app".into(), true.into());
        let bytes = serde_json::to_vec(&json).unwrap();
        let read = read_game(&bytes).unwrap();
        assert!(read.value.helped());
        assert!(read.lost.is_empty(), "{:?}", read.lost);
    }

    #[test]
    fn a_bad_clock_loses_the_clock_not_the_game() {
        let mut g = game("1 2 3 / 4 0 5 / 7 8 6");
        g.apply(&[Move::Up]);
        let mut json = serde_json::to_value(g.to_saved()).unwrap();
        json["elapsed_ms"] = "a while".into();
        json["difficulty"] = "Impossible".into();
        let read = read_game(&serde_json::to_vec(&json).unwrap()).unwrap();
        assert_eq!(read.value.board(), g.board());
        assert_eq!(read.value.elapsed(), Duration::ZERO);
        assert_eq!(read.value.kind(), &GameKind::Custom);
        assert_eq!(read.lost, vec!["difficulty", "elapsed_ms"]);
        json["history"] = 7.into();
        assert!(read_game(&serde_json::to_vec(&json).unwrap()).is_err());
    }
}
