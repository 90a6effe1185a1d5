//! Best scores and the win's bookkeeping: what a finished game is worth.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{DailyResult, DailyResults, Difficulty, Game, GameKind};

/// A best result for one board shape and difficulty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
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

impl Record {
    /// The shortest time.
    pub fn time(&self) -> Duration {
        Duration::from_millis(self.millis)
    }
}

/// The best results per board shape and difficulty (kept in the scores file).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BestScores(pub BTreeMap<String, Record>);

impl BestScores {
    /// The key for a board shape and difficulty.
    pub fn key(width: usize, height: usize, difficulty: Difficulty) -> String {
        format!("{width}x{height}-{}", difficulty.label().to_lowercase())
    }

    /// The best for a key, if any.
    pub fn get(&self, key: &str) -> Option<Record> {
        self.0.get(key).copied()
    }

    /// Records a result; returns the best after it and whether it set a record.
    pub fn record(&mut self, key: String, moves: usize, millis: u64) -> (Record, bool) {
        match self.0.get_mut(&key) {
            Some(best) => {
                let record = moves < best.moves || millis < best.millis;
                best.moves = best.moves.min(moves);
                best.millis = best.millis.min(millis);
                best.wins = best.wins.saturating_add(1);
                (*best, record)
            }
            None => {
                let best = Record {
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
    pub best: Option<Record>,
    /// Whether this game set a record (beat a best kept before: a first win is not one).
    pub record: bool,
    /// Whether this is the first win kept for this shape and difficulty.
    pub first: bool,
    /// Whether the app helped (a hint or a solution): no score then.
    pub helped: bool,
    /// Whether the player set the board up: custom boards keep no records.
    pub custom: bool,
    /// The puzzle of the day's result, kept with the other days' (not with the best scores).
    pub daily: Option<DailyResult>,
}

impl WinResult {
    /// Whether this is the result of that game (its moves and time).
    pub fn is_of(&self, game: &Game) -> bool {
        (self.moves, self.time) == (game.moves(), game.elapsed())
    }
}

/// Books a won game: a record if the player solved a shuffle alone; the puzzle of the day goes
/// to its own list; a game the app helped with, or a board the player set up, leaves the
/// scores as they were.
pub fn record_win(game: &Game, scores: &mut BestScores, days: &mut DailyResults) -> WinResult {
    let key = key_of(game);
    let millis = game.elapsed().as_millis().min(u64::MAX as u128) as u64;
    let mut result = unbooked(game);
    if let Some(day) = game.kind().day() {
        let daily = DailyResult {
            moves: game.moves(),
            millis,
            shortest: game.shortest().unwrap_or(0),
            helped: game.helped(),
        };
        days.record(day, daily);
        result.daily = Some(daily);
    } else if let Some(key) = key {
        if game.helped() {
            result.best = scores.get(&key);
        } else {
            result.first = scores.get(&key).is_none();
            let (best, record) = scores.record(key, game.moves(), millis);
            (result.best, result.record) = (Some(best), record && !result.first);
        }
    }
    result
}

/// A won game's result as it was booked before (a finished game brought back after a restart
/// of the app): the best and the day's result as they are kept; no record is claimed.
pub fn booked_result(game: &Game, scores: &BestScores, days: &DailyResults) -> WinResult {
    let mut result = unbooked(game);
    if let Some(day) = game.kind().day() {
        result.daily = days.0.get(&day).copied();
    } else if let Some(key) = key_of(game) {
        result.best = scores.get(&key);
    }
    result
}

/// The result's own numbers, before any booking.
fn unbooked(game: &Game) -> WinResult {
    WinResult {
        moves: game.moves(),
        time: game.elapsed(),
        helped: game.helped(),
        custom: game.kind() == &GameKind::Custom,
        ..WinResult::default()
    }
}

/// The best scores' key of a game: its board's shape and difficulty (`None` for a game that
/// is no shuffle).
fn key_of(game: &Game) -> Option<String> {
    let board = game.board();
    let difficulty = game.kind().difficulty()?;
    Some(BestScores::key(board.width(), board.height(), difficulty))
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
            Record {
                moves: 30,
                millis: 5000,
                wins: 2,
            }
        );
        assert!(!scores.record(key, 50, 6000).1);
    }

    fn won(kind: impl Into<GameKind>, helped: bool) -> Game {
        let mut game = Game::new(parse_board("1 2 3 / 4 5 6 / 7 0 8").unwrap(), kind);
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
        let mut days = DailyResults::default();
        let alone = record_win(&won(Difficulty::Easy, false), &mut scores, &mut days);
        // The first win is a first, not a record (play-test 59: "A new record!" on the first).
        assert!(alone.first && !alone.record && !alone.helped);
        assert_eq!(alone.best.map(|b| b.moves), Some(1));
        let mut longer = Game::new(
            parse_board("1 2 3 / 4 5 6 / 0 7 8").unwrap(),
            Difficulty::Easy,
        );
        longer.apply(&[Move::Right, Move::Right]);
        let mut two = BestScores::default();
        let first = record_win(&longer, &mut two, &mut days);
        let second = record_win(&won(Difficulty::Easy, false), &mut two, &mut days);
        assert!(first.first && !first.record);
        assert!(!second.first && second.record, "{second:?}");

        let mut scores = BestScores::default();
        let helped = record_win(&won(Difficulty::Easy, true), &mut scores, &mut days);
        assert!(!helped.record && helped.helped && helped.best.is_none());
        assert!(scores.0.is_empty(), "a helped game booked {scores:?}");

        let custom = record_win(&won(GameKind::Custom, false), &mut scores, &mut days);
        assert!(!custom.record && custom.custom && custom.best.is_none());
        assert!(scores.0.is_empty(), "a custom board booked {scores:?}");
        assert!(days.0.is_empty());
    }

    #[test]
    fn a_booked_win_reads_back_as_booked_without_booking_again() {
        let (mut scores, mut days) = (BestScores::default(), DailyResults::default());
        let game = won(Difficulty::Easy, false);
        let first = record_win(&game, &mut scores, &mut days);
        let again = booked_result(&game, &scores, &days);
        assert_eq!(again.best, first.best);
        assert!(!again.record, "a record claimed twice");
        assert_eq!(scores.0.values().map(|b| b.wins).sum::<u32>(), 1);
        let mut daily = Game::daily(parse_board("1 2 3 / 4 5 6 / 7 0 8").unwrap(), 20_787, 1);
        daily.apply(&[Move::Right]);
        record_win(&daily, &mut scores, &mut days);
        assert_eq!(
            booked_result(&daily, &scores, &days).daily,
            Some(days.0[&20_787])
        );
    }

    #[test]
    fn the_puzzle_of_the_day_goes_to_its_own_list() {
        let mut game = Game::daily(parse_board("1 2 3 / 4 5 6 / 7 0 8").unwrap(), 20_787, 1);
        game.apply(&[Move::Right]);
        let (mut scores, mut days) = (BestScores::default(), DailyResults::default());
        let result = record_win(&game, &mut scores, &mut days);
        assert!(scores.0.is_empty());
        assert_eq!(days.0[&20_787].moves, 1);
        assert_eq!(result.daily.map(|d| d.extra()), Some(0));
    }
}
