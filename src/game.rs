//! The game's rules: the board, its history, the counters and the win; the shuffle for a
//! difficulty, best scores, and the check of a set-up board. Plain Rust, no Bevy: the app's
//! systems call these, and the tests drive them directly.
//!
//! Like Simon Tatham's `execute_move`, every move that changes the board goes through one
//! place, `Game::step`: the player's and the app's moves ([`Game::apply`], [`Game::tap`]),
//! undo and redo, and the history of a saved game as it is restored. Each answers with the
//! steps it made (the tile, the cell it left, the cell it reached) and whether the game is
//! won, so nobody works them out again; input, hints, solutions and saved games all come here
//! as lists of moves.

mod compare;
mod daily;
mod difficulty;
mod scores;
mod setup;
mod shapes;

use std::time::Duration;

use npuzzle::{Board, Move, hamming};
use serde::{Deserialize, Serialize};

pub use compare::{Summary, summarize};
pub use daily::{
    DAILY_DISTANCE, DAILY_SHAPE, DailyPuzzle, DailyResult, DailyResults, Day, date_text, today,
};
pub use difficulty::{Difficulty, Recipe, make_board};
pub use scores::{BestScores, Record, WinResult, booked_result, record_win};
pub use setup::{SetupError, SetupGrid, check_setup, example_text};
pub use shapes::photo_shapes;

/// The shortest side of a board the app plays.
pub const MIN_SIDE: usize = 3;
/// The longest side of a board the app plays.
pub const MAX_SIDE: usize = 8;

/// "1 move", "2 moves".
pub fn moves_text(count: usize) -> String {
    if count == 1 {
        "1 move".into()
    } else {
        format!("{count} moves")
    }
}

/// "1 day", "2 days".
pub fn days_text(count: usize) -> String {
    if count == 1 {
        "1 day".into()
    } else {
        format!("{count} days")
    }
}

/// The article before a number read aloud: "an" for 8, 11, 18, 80…, else "a".
pub fn article(number: usize) -> &'static str {
    let spoken = number.to_string();
    let eleven_or_eighteen =
        spoken.len() % 3 == 2 && ["11", "18"].iter().any(|p| spoken.starts_with(p));
    if spoken.starts_with('8') || eleven_or_eighteen {
        "an"
    } else {
        "a"
    }
}

/// The day's results in a line for the records: how many played, the streak, how many in the
/// fewest moves possible; `None` before the first.
pub fn days_summary(days: &DailyResults, today: Day) -> Option<String> {
    if days.0.is_empty() {
        return None;
    }
    let played = days.0.len();
    let fewest = days.0.values().filter(|r| r.extra() == 0).count();
    let streak = days.streak(today);
    Some(format!(
        "Puzzles of the day: {} played, {fewest} in the fewest moves possible; streak: {}.",
        played,
        days_text(streak)
    ))
}

/// Whether the app plays a board of this shape (any sides from [`MIN_SIDE`] to [`MAX_SIDE`]).
pub fn playable(width: usize, height: usize) -> bool {
    (MIN_SIDE..=MAX_SIDE).contains(&width) && (MIN_SIDE..=MAX_SIDE).contains(&height)
}

/// One tile's slide: the blank move that made it, the tile, and the cells it left and reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The blank move.
    pub mv: Move,
    /// The tile that slid.
    pub tile: u8,
    /// The cell it left (where the blank is now).
    pub from: usize,
    /// The cell it reached (where the blank was).
    pub to: usize,
}

/// What one call to [`Game::apply`], [`Game::tap`], [`Game::undo`] or [`Game::redo`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Tiles slid, in order.
    Moved {
        /// Each tile's slide.
        steps: Vec<Step>,
        /// Whether this completed the board.
        won: bool,
    },
    /// Nothing changed: the move was not legal here, or the game is already won.
    Illegal,
}

impl Outcome {
    /// The blank moves made, in order (none if nothing changed).
    pub fn moves(&self) -> Vec<Move> {
        match self {
            Outcome::Moved { steps, .. } => steps.iter().map(|s| s.mv).collect(),
            Outcome::Illegal => Vec::new(),
        }
    }
}

/// A game in progress: the board, where it started, its history and counters.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    board: Board,
    start: Board,
    difficulty: Difficulty,
    /// Moves made, oldest first; `history[..cursor]` are in effect, the rest can be redone.
    history: Vec<Move>,
    cursor: usize,
    moves_made: usize,
    elapsed: Duration,
    running: bool,
    won: bool,
    helped: bool,
    moves_since_help: usize,
    /// The start board's shortest solution, when it is known (made at an exact distance).
    shortest: Option<usize>,
    /// The day whose puzzle this is, for the puzzle of the day.
    day: Option<Day>,
    /// For a review, the finished game it replays.
    reviewed: Option<Box<Game>>,
    /// Counts the changes of the board: whoever remembers something about it (a hint, a
    /// reading, a save) compares this instead of the board.
    revision: u64,
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
    /// How much of the history is in effect.
    pub cursor: usize,
    /// The move counter.
    pub moves_made: usize,
    /// Time played, in milliseconds.
    pub elapsed_ms: u64,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// Whether the app helped (a hint or a solution was shown).
    #[serde(alias = "solved_by_app")]
    pub helped: bool,
    /// The start board's shortest solution, when it is known.
    #[serde(default)]
    pub shortest: Option<usize>,
    /// The day whose puzzle this is, for the puzzle of the day.
    #[serde(default)]
    pub day: Option<Day>,
}

/// Why a saved game could not be restored.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// The start board is not a valid board.
    #[error("the saved board is invalid: {0}")]
    Board(#[from] npuzzle::BoardError),
    /// The history does not fit the board.
    #[error("the saved history does not fit the board")]
    History,
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
    /// A new game from a start board.
    pub fn new(start: Board, difficulty: Difficulty) -> Game {
        let mut game = Game {
            board: start.clone(),
            start,
            difficulty,
            history: Vec::new(),
            cursor: 0,
            moves_made: 0,
            elapsed: Duration::ZERO,
            running: false,
            won: false,
            helped: false,
            moves_since_help: 0,
            shortest: None,
            day: None,
            reviewed: None,
            revision: 0,
        };
        game.won = game.completes();
        game
    }

    /// A finished game's start board, to replay along the shortest solution: it never counts
    /// as won (so steps back stay possible), its clock does not run, and it takes the app's
    /// moves only, never the player's (it is a viewer).
    pub fn review(finished: &Game) -> Game {
        Game {
            reviewed: Some(Box::new(finished.kept().clone())),
            ..Game::with_shortest(
                finished.start().clone(),
                Difficulty::Review,
                finished.shortest().unwrap_or(0),
            )
        }
    }

    /// Whether this is a review of a finished game.
    pub fn is_review(&self) -> bool {
        self.difficulty == Difficulty::Review
    }

    /// The game the player has: this one, or for a review the finished game it replays (what
    /// is saved, and what Done brings back).
    pub fn kept(&self) -> &Game {
        self.reviewed.as_deref().unwrap_or(self)
    }

    /// Whether replacing this game loses something: moves made, not yet won (a review loses
    /// nothing: the finished game is kept).
    pub fn has_progress(&self) -> bool {
        self.moves_made > 0 && !self.won && !self.is_review()
    }

    /// Whether the board is complete and that ends this game (a review never ends).
    fn completes(&self) -> bool {
        self.board.is_goal() && !self.is_review()
    }

    /// A new game whose start board is known to be `shortest` moves from solved.
    pub fn with_shortest(start: Board, difficulty: Difficulty, shortest: usize) -> Game {
        Game {
            shortest: Some(shortest),
            ..Game::new(start, difficulty)
        }
    }

    /// The start board's shortest solution, when it is known.
    pub fn shortest(&self) -> Option<usize> {
        self.shortest
    }

    /// The puzzle of `day`: its board, `shortest` moves from solved.
    pub fn daily(start: Board, day: Day, shortest: usize) -> Game {
        Game {
            day: Some(day),
            ..Game::with_shortest(start, Difficulty::Daily, shortest)
        }
    }

    /// The day whose puzzle this is, if it is the puzzle of the day.
    pub fn day(&self) -> Option<Day> {
        self.day
    }

    /// How many times the board has changed (every step, a restart): the same number, the
    /// same board.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board the game started from (Restart returns here).
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The difficulty the game was made with.
    pub fn difficulty(&self) -> Difficulty {
        self.difficulty
    }

    /// The move counter: moves in effect (undo lowers it).
    pub fn moves(&self) -> usize {
        self.moves_made
    }

    /// Time played: runs from the first move (after a restart of the app, from the next) until
    /// the win.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// Whether the timer is running.
    pub fn timer_running(&self) -> bool {
        self.running
    }

    /// Tiles not on their goal cell.
    pub fn tiles_out_of_place(&self) -> usize {
        hamming(&self.board)
    }

    /// Whether the board is complete.
    pub fn is_won(&self) -> bool {
        self.won
    }

    /// Whether the app helped with this game: a hint or a solution was shown (it then sets
    /// no best score, and a restart keeps the mark).
    pub fn helped(&self) -> bool {
        self.helped
    }

    /// Moves the player made since the app last helped, like Tatham's counter.
    pub fn moves_since_help(&self) -> usize {
        self.moves_since_help
    }

    /// Marks the game as helped: a hint or solution was shown, or the app played a move.
    pub fn mark_helped(&mut self) {
        self.helped = true;
        self.moves_since_help = 0;
    }

    /// The moves in effect, from the start board to the board now.
    pub fn history_in_effect(&self) -> &[Move] {
        &self.history[..self.cursor]
    }

    /// Whether undo would change anything.
    pub fn can_undo(&self) -> bool {
        self.cursor > 0 && !self.won
    }

    /// Whether redo would change anything.
    pub fn can_redo(&self) -> bool {
        self.cursor < self.history.len() && !self.won
    }

    /// Adds real time to the timer if it is running.
    pub fn tick(&mut self, delta: Duration) {
        if self.running && !self.won {
            self.elapsed += delta;
        }
    }

    /// The one place a move changes the board: the blank moves, and the tile beside it slides
    /// into its cell. `None`, and nothing changed, off the board's edge.
    fn step(&mut self, mv: Move) -> Option<Step> {
        let to = self.board.blank();
        let tile = self.board.tile_moved_by(mv)?;
        self.board.apply(mv);
        self.revision += 1;
        Some(Step {
            mv,
            tile,
            from: self.board.blank(),
            to,
        })
    }

    /// Makes blank moves in order, as one player action; all or nothing.
    pub fn apply(&mut self, moves: &[Move]) -> Outcome {
        if self.won || moves.is_empty() {
            return Outcome::Illegal;
        }
        let mut steps = Vec::with_capacity(moves.len());
        for &mv in moves {
            match self.step(mv) {
                Some(step) => steps.push(step),
                None => {
                    // Not all legal: the board goes back as it was.
                    for made in steps.iter().rev() {
                        self.step(made.mv.inverse());
                    }
                    return Outcome::Illegal;
                }
            }
        }
        self.history.truncate(self.cursor);
        self.history.extend_from_slice(moves);
        self.cursor = self.history.len();
        self.moves_made += moves.len();
        if self.helped {
            self.moves_since_help += moves.len();
        }
        self.start_clock();
        self.settle_win();
        Outcome::Moved {
            steps,
            won: self.won,
        }
    }

    /// Whether the board is now complete, which ends the game and stops its clock.
    fn settle_win(&mut self) {
        self.won = self.completes();
        if self.won {
            self.running = false;
        }
    }

    /// A tap on a cell: slides the segment between it and the blank, if it is in line.
    pub fn tap(&mut self, cell: usize) -> Outcome {
        match self.board.moves_to_slide_cell(cell) {
            Some(moves) => self.apply(&moves),
            None => Outcome::Illegal,
        }
    }

    /// The player acted on the board: the clock runs (a review's never does).
    fn start_clock(&mut self) {
        self.running = !self.is_review();
    }

    /// Undoes the last move (its step is the blank move that undid it).
    pub fn undo(&mut self) -> Outcome {
        if !self.can_undo() {
            return Outcome::Illegal;
        }
        let Some(step) = self.step(self.history[self.cursor - 1].inverse()) else {
            return Outcome::Illegal;
        };
        self.cursor -= 1;
        self.moves_made = self.moves_made.saturating_sub(1);
        self.start_clock();
        Outcome::Moved {
            steps: vec![step],
            won: false,
        }
    }

    /// Redoes the last undone move.
    pub fn redo(&mut self) -> Outcome {
        if !self.can_redo() {
            return Outcome::Illegal;
        }
        let Some(step) = self.step(self.history[self.cursor]) else {
            return Outcome::Illegal;
        };
        self.cursor += 1;
        self.moves_made += 1;
        self.start_clock();
        self.settle_win();
        Outcome::Moved {
            steps: vec![step],
            won: self.won,
        }
    }

    /// Returns to the start board with fresh counters (the same shuffle). A shuffle whose
    /// solution the app showed stays marked as helped.
    pub fn restart(&mut self) {
        let reviewed = self.reviewed.take();
        let (helped, shortest, day) = (self.helped, self.shortest, self.day);
        let revision = self.revision + 1;
        *self = Game::new(self.start.clone(), self.difficulty);
        self.revision = revision;
        self.helped = helped;
        self.shortest = shortest;
        self.day = day;
        self.reviewed = reviewed;
    }

    /// The save-file form of this game.
    pub fn to_saved(&self) -> SavedGame {
        SavedGame {
            width: self.start.width(),
            height: self.start.height(),
            start: self.start.tiles().to_vec(),
            history: npuzzle::moves_to_string(&self.history),
            cursor: self.cursor,
            moves_made: self.moves_made,
            elapsed_ms: self.elapsed.as_millis().min(u64::MAX as u128) as u64,
            difficulty: self.difficulty,
            helped: self.helped,
            shortest: self.shortest,
            day: self.day,
        }
    }

    /// Restores a game from its save-file form, checking every part.
    pub fn from_saved(saved: &SavedGame) -> Result<Game, RestoreError> {
        let start = Board::new(saved.width, saved.height, saved.start.clone())?;
        if !playable(saved.width, saved.height) {
            return Err(RestoreError::Shape {
                width: saved.width,
                height: saved.height,
            });
        }
        let history = npuzzle::moves_from_str(&saved.history)?;
        if saved.cursor > history.len() {
            return Err(RestoreError::History);
        }
        let mut game = Game {
            board: start.clone(),
            start,
            difficulty: saved.difficulty,
            history,
            cursor: saved.cursor,
            moves_made: saved.moves_made,
            elapsed: Duration::from_millis(saved.elapsed_ms),
            running: false,
            won: false,
            helped: saved.helped,
            moves_since_help: 0,
            shortest: saved.shortest,
            day: saved.day,
            reviewed: None,
            revision: 0,
        };
        // The whole history must fit the board (the moves that can be redone too); the board
        // is then where the cursor says.
        for &mv in &game.history.clone() {
            game.step(mv).ok_or(RestoreError::History)?;
        }
        for &mv in game.history[saved.cursor..].to_vec().iter().rev() {
            game.step(mv.inverse());
        }
        // The clock waits for the player's next move, as a new game's waits for the first.
        game.won = game.completes();
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::parse_board;

    fn game(text: &str) -> Game {
        Game::new(parse_board(text).unwrap(), Difficulty::Easy)
    }

    #[test]
    fn move_counts_read_as_spoken() {
        assert_eq!(moves_text(1), "1 move");
        assert_eq!(moves_text(0), "0 moves");
        assert_eq!(moves_text(56), "56 moves");
        assert_eq!(days_text(1), "1 day");
        assert_eq!(days_text(3), "3 days");
        for (number, word) in [(8, "an"), (11, "an"), (18, "an"), (80, "an"), (3, "a")] {
            assert_eq!(article(number), word, "{number}");
        }
        assert_eq!((article(17), article(110), article(1)), ("a", "a", "a"));
    }

    #[test]
    fn the_days_results_read_as_a_line() {
        let mut days = DailyResults::default();
        assert_eq!(days_summary(&days, 100), None);
        let result = |moves| DailyResult {
            moves,
            millis: 1000,
            shortest: 36,
            helped: false,
        };
        days.record(99, result(40));
        days.record(100, result(36));
        assert_eq!(
            days_summary(&days, 100).unwrap(),
            "Puzzles of the day: 2 played, 1 in the fewest moves possible; streak: 2 days."
        );
    }

    #[test]
    fn a_tap_beside_the_blank_moves_one_tile_and_counts() {
        let mut g = game("1 2 3 / 4 5 6 / 7 0 8");
        assert_eq!(g.moves(), 0);
        assert!(!g.timer_running());
        let out = g.tap(8); // the 8, right of the blank
        let step = Step {
            mv: Move::Right,
            tile: 8,
            from: 8,
            to: 7,
        };
        assert_eq!(
            out,
            Outcome::Moved {
                steps: vec![step],
                won: true
            }
        );
        assert!(g.is_won());
        assert_eq!(g.moves(), 1);
        assert!(!g.timer_running(), "the timer stops on the win");
        // No move after the win.
        assert_eq!(g.tap(7), Outcome::Illegal);
    }

    #[test]
    fn a_tap_along_the_row_slides_the_segment() {
        let mut g = game("0 1 2 3 / 4 5 6 7 / 8 9 10 11 / 12 13 14 15");
        let out = g.tap(3);
        let Outcome::Moved { steps, won } = out.clone() else {
            panic!("expected a move")
        };
        assert_eq!(out.moves(), vec![Move::Right; 3]);
        let slid: Vec<_> = steps.iter().map(|s| (s.tile, s.from, s.to)).collect();
        assert_eq!(slid, vec![(1, 1, 0), (2, 2, 1), (3, 3, 2)]);
        assert!(!won);
        assert_eq!(g.board().tiles()[..4], [1, 2, 3, 0]);
        assert_eq!(g.moves(), 3);
        assert!(g.timer_running());
    }

    #[test]
    fn an_illegal_tap_changes_nothing() {
        let mut g = game("1 2 3 / 4 0 5 / 7 8 6");
        let before = g.board().clone();
        assert_eq!(g.tap(0), Outcome::Illegal); // diagonal
        assert_eq!(g.tap(4), Outcome::Illegal); // the blank itself
        assert_eq!(g.tap(99), Outcome::Illegal); // off the board
        // All or nothing: a list whose second move runs off the edge leaves the board as it was.
        assert_eq!(g.apply(&[Move::Up, Move::Up]), Outcome::Illegal);
        assert_eq!(g.board(), &before);
        assert_eq!(g.moves(), 0);
        assert!(!g.timer_running());
    }

    #[test]
    fn undo_lowers_the_counter_and_redo_restores() {
        let mut g = game("1 2 3 / 4 0 5 / 7 8 6");
        let start = g.board().clone();
        g.apply(&[Move::Up]);
        g.apply(&[Move::Left]);
        let after = g.board().clone();
        assert_eq!(g.moves(), 2);
        assert_eq!(g.undo().moves(), vec![Move::Right]);
        assert_eq!(g.undo().moves(), vec![Move::Down]);
        assert_eq!(g.undo(), Outcome::Illegal);
        assert_eq!(g.board(), &start);
        assert_eq!(g.moves(), 0);
        assert_eq!(g.redo().moves(), vec![Move::Up]);
        assert_eq!(g.redo().moves(), vec![Move::Left]);
        assert_eq!(g.redo(), Outcome::Illegal);
        assert_eq!(g.board(), &after);
        assert_eq!(g.moves(), 2);
        // A new move after an undo drops the redo tail.
        g.undo();
        g.apply(&[Move::Right]);
        assert!(!g.can_redo());
    }

    #[test]
    fn the_revision_moves_on_with_every_change_of_the_board_and_only_then() {
        let mut g = game("1 2 3 / 4 0 5 / 7 8 6");
        assert_eq!(g.revision(), 0);
        g.tap(3); // the 4, left of the blank
        assert_eq!(g.revision(), 1);
        assert_eq!(g.tap(8), Outcome::Illegal); // not in line with the blank
        g.mark_helped();
        g.tick(Duration::from_secs(3));
        assert_eq!(g.revision(), 1, "nothing moved");
        g.undo();
        let undone = g.revision();
        assert!(undone > 1);
        g.restart();
        assert!(g.revision() > undone, "a restart is a change of the board");
    }

    #[test]
    fn restart_returns_to_the_same_shuffle() {
        let mut g = game("1 2 3 / 4 0 5 / 7 8 6");
        let start = g.board().clone();
        g.apply(&[Move::Up, Move::Left]);
        g.restart();
        assert_eq!(g.board(), &start);
        assert_eq!(g.moves(), 0);
        assert!(!g.helped());
        assert!(!g.can_undo());
    }

    #[test]
    fn the_timer_runs_from_the_first_move_until_the_win() {
        let mut g = game("1 2 3 / 4 5 6 / 0 7 8");
        g.tick(Duration::from_secs(5));
        assert_eq!(g.elapsed(), Duration::ZERO);
        g.apply(&[Move::Right]);
        g.tick(Duration::from_millis(1500));
        assert_eq!(g.elapsed(), Duration::from_millis(1500));
        g.apply(&[Move::Right]);
        assert!(g.is_won());
        g.tick(Duration::from_secs(5));
        assert_eq!(g.elapsed(), Duration::from_millis(1500));
    }

    #[test]
    fn counters_track_tiles_out_of_place_and_auto_solve() {
        let mut g = game("1 2 3 / 4 5 6 / 0 7 8");
        assert_eq!(g.tiles_out_of_place(), 2);
        g.apply(&[Move::Right]);
        assert_eq!(g.tiles_out_of_place(), 1);
        g.mark_helped();
        assert!(g.helped());
        g.apply(&[Move::Left]);
        assert_eq!(g.moves_since_help(), 1);
    }

    #[test]
    fn a_saved_game_round_trips_and_bad_saves_are_refused() {
        let mut g = game("1 2 3 / 4 0 5 / 7 8 6");
        g.apply(&[Move::Up, Move::Left]);
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
        assert!(Game::from_saved(&bad).is_err());
        let mut bad = saved.clone();
        bad.cursor = 9;
        assert!(Game::from_saved(&bad).is_err());
        // A valid board of a shape the app does not play (2×2) is refused too.
        let mut bad = saved;
        (bad.width, bad.height, bad.start) = (2, 2, vec![1, 2, 0, 3]);
        bad.history = String::new();
        bad.cursor = 0;
        assert!(matches!(
            Game::from_saved(&bad),
            Err(RestoreError::Shape { .. })
        ));
    }

    #[test]
    fn a_restart_keeps_the_help_mark() {
        let mut g = game("1 2 3 / 4 0 5 / 7 8 6");
        g.mark_helped();
        g.apply(&[Move::Up]);
        g.restart();
        assert!(g.helped(), "the solution was shown for this shuffle");
        assert_eq!(g.moves_since_help(), 0);
    }

    #[test]
    fn saves_written_before_the_rename_still_load() {
        let g = game("1 2 3 / 4 0 5 / 7 8 6");
        let mut json = serde_json::to_value(g.to_saved()).unwrap();
        let object = json.as_object_mut().unwrap();
        object.remove("helped");
        object.insert("solved_by_app".into(), true.into());
        let saved: SavedGame = serde_json::from_value(json).unwrap();
        assert!(Game::from_saved(&saved).unwrap().helped());
    }
}
