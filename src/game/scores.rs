//! Best scores and the win's bookkeeping: what a finished game is worth.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{Difficulty, Game};

/// A best result for one board shape and difficulty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Best {
    /// Fewest moves.
    pub moves: usize,
    /// Shortest time, in milliseconds.
    pub millis: u64,
    /// Games won alone (older score files have none: 1 then).
    #[serde(default = "one")]
    pub wins: u32,
}

fn one() -> u32 {
    1
}

/// Best results per board shape and difficulty (kept in the scores file).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BestScores(pub BTreeMap<String, Best>);

impl BestScores {
    /// The key for a board shape and difficulty.
    pub fn key(width: usize, height: usize, difficulty: Difficulty) -> String {
        format!("{width}x{height}-{}", difficulty.label().to_lowercase())
    }

    /// The best for a key, if any.
    pub fn get(&self, key: &str) -> Option<Best> {
        self.0.get(key).copied()
    }

    /// Records a result; returns the best after it and whether it set a record.
    pub fn record(&mut self, key: String, moves: usize, millis: u64) -> (Best, bool) {
        match self.0.get_mut(&key) {
            Some(best) => {
                let record = moves < best.moves || millis < best.millis;
                best.moves = best.moves.min(moves);
                best.millis = best.millis.min(millis);
                best.wins = best.wins.saturating_add(1);
                (*best, record)
            }
            None => {
                let best = Best {
                    moves,
                    millis,
                    wins: 1,
                };
                self.0.insert(key, best);
                (best, true)
            }
        }
    }
}

/// A finished game's result, as the win dialog shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WinResult {
    /// Moves made.
    pub moves: usize,
    /// Time taken.
    pub time: Duration,
    /// The best for this shape and difficulty after this game (none for custom boards).
    pub best: Option<Best>,
    /// Whether this game set a record.
    pub record: bool,
    /// Whether the app helped (a hint or a solution): no score then.
    pub helped: bool,
    /// Whether the player set the board up: custom boards keep no records.
    pub custom: bool,
}

/// Books a won game: a record if the player solved a shuffle alone; a game the app helped
/// with, or a board the player set up, leaves the scores as they were.
pub fn record_win(game: &Game, scores: &mut BestScores) -> WinResult {
    let board = game.board();
    let custom = game.difficulty() == Difficulty::Custom;
    let key = BestScores::key(board.width(), board.height(), game.difficulty());
    let millis = game.elapsed().as_millis().min(u64::MAX as u128) as u64;
    let (best, record) = if custom {
        (None, false)
    } else if game.helped() {
        (scores.get(&key), false)
    } else {
        let (best, record) = scores.record(key, game.moves(), millis);
        (Some(best), record)
    };
    WinResult {
        moves: game.moves(),
        time: game.elapsed(),
        best,
        record,
        helped: game.helped(),
        custom,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::{Move, parse_board};

    #[test]
    fn best_scores_keep_the_fewest_moves_and_time() {
        let mut scores = BestScores::default();
        let key = BestScores::key(4, 4, Difficulty::Easy);
        assert!(scores.record(key.clone(), 30, 9000).1);
        let (best, record) = scores.record(key.clone(), 40, 5000);
        assert!(record);
        assert_eq!(
            best,
            Best {
                moves: 30,
                millis: 5000,
                wins: 2,
            }
        );
        assert!(!scores.record(key, 50, 6000).1);
    }

    fn won(difficulty: Difficulty, helped: bool) -> Game {
        let mut game = Game::new(parse_board("1 2 3 / 4 5 6 / 7 0 8").unwrap(), difficulty);
        if helped {
            game.mark_helped();
        }
        game.apply(&[Move::Right]);
        assert!(game.is_won());
        game
    }

    #[test]
    fn only_a_shuffle_solved_alone_sets_a_record() {
        let mut scores = BestScores::default();
        let alone = record_win(&won(Difficulty::Easy, false), &mut scores);
        assert!(alone.record && !alone.helped);
        assert_eq!(alone.best.map(|b| b.moves), Some(1));

        let mut scores = BestScores::default();
        let helped = record_win(&won(Difficulty::Easy, true), &mut scores);
        assert!(!helped.record && helped.helped && helped.best.is_none());
        assert!(scores.0.is_empty(), "a helped game booked {scores:?}");

        let custom = record_win(&won(Difficulty::Custom, false), &mut scores);
        assert!(!custom.record && custom.custom && custom.best.is_none());
        assert!(scores.0.is_empty(), "a custom board booked {scores:?}");
    }
}
