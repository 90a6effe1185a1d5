//! The game's rules: the board, its history, the counters and the win; the shuffle for a
//! difficulty, best scores, and the check of a set-up board. Plain Rust, no Bevy and no
//! sentences for the player (those are in `words`): the app's systems call these, and the
//! tests drive them directly.
//!
//! Like Simon Tatham's `execute_move`, every move that changes the board goes through one
//! place, `Game::step`: the player's and the app's moves ([`Game::apply`], [`Game::tap`]),
//! undo and redo, and the history of a saved game as it is restored. Each answers with the
//! steps it made (the tile, the cell it left, the cell it reached, whether it is home now) and
//! whether the game is won, so nobody works them out again; input, hints, solutions and saved
//! games all come here as lists of moves. One player action (a tap that slides three tiles) is
//! one entry of the history: undo takes it back whole.

mod compare;
mod custom_board;
mod daily;
mod difficulty;
pub mod event;
mod fields;
pub mod files;
mod kind;
mod photo_source;
mod preferences;
pub mod replay;
pub mod save_log;
mod saved;
mod scores;
mod shapes;
pub mod solves;
pub mod solves_csv;
pub mod stats;

use std::time::Duration;

use npuzzle::{Board, Move, hamming};

pub use compare::{Summary, summarize};
pub use custom_board::{SetupError, SetupGrid, check_setup, example_text};
pub use daily::{
    DAILY_DISTANCE, DAILY_PHOTOS, DAILY_SHAPE, DailyPuzzle, DailyResult, DailyResults, Day,
    civil_date, day_of, days_in_month, today,
};
pub use difficulty::{Difficulty, Recipe, clock_seed, make_board};
pub use fields::{FileError, Read};
pub use kind::GameKind;
pub use photo_source::{FramedPhoto, PhotoFraming, PhotoSource};
pub use preferences::{
    DEFAULT_SPEED, Preferences, SPEEDS, TEXT_SIZES, Theme, device_text_scale, speed_in_range,
};
pub use saved::{RestoreError, SavedGame, SavedKind, read_game};
pub use scores::{BestScores, Record, WinResult, booked_result, record_win};
pub use shapes::photo_shapes;

/// The shortest side of a board the app plays.
pub const MIN_SIDE: usize = 3;
/// The longest side of a board the app plays.
pub const MAX_SIDE: usize = 8;

/// Whether the app plays a board of this shape (any sides from [`MIN_SIDE`] to [`MAX_SIDE`]).
pub fn playable(width: usize, height: usize) -> bool {
    (MIN_SIDE..=MAX_SIDE).contains(&width) && (MIN_SIDE..=MAX_SIDE).contains(&height)
}

/// Where the game on show stands: a number that moves on with every change of the board on
/// show (a move, an undo, a restart, a new game) and never comes back. Whatever is remembered
/// about a board (a hint, a reading, a search, a save) keeps the position it was for, and is
/// about the board on show while the two are equal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position(pub u64);

impl Position {
    /// The position after one more change.
    pub fn next(self) -> Position {
        Position(self.0 + 1)
    }
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
    /// Whether the cell it reached is its place in the solved board.
    pub home: bool,
}

/// What a slide did to the game's history, as the executor tells it (the save writes it as
/// one record: an action played, or undone, or redone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// A new action: these blank moves, as one undo step.
    Played(Vec<Move>),
    /// The last action undone.
    Undone,
    /// The last undone action redone.
    Redone,
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
    kind: GameKind,
    /// Moves made, oldest first, one entry a player action (all its moves); `history[..cursor]`
    /// are in effect, the rest can be redone.
    history: Vec<Vec<Move>>,
    cursor: usize,
    /// When each action of `history` was made, or last redone: the clock then (time since
    /// the first move).
    times: Vec<Duration>,
    elapsed: Duration,
    running: bool,
    won: bool,
    /// A blind solve said done on a board not solved: ended, but not solved.
    dnf: bool,
    helped: bool,
    moves_since_help: usize,
    /// The start board's shortest solution, when it is known (made at an exact distance).
    shortest: Option<usize>,
    /// For a leg of a run, the run's boards done before it, in order (kept for its replay).
    legs_done: Vec<solves::Leg>,
}

impl Game {
    /// A new game from a start board.
    pub fn new(start: Board, kind: impl Into<GameKind>) -> Game {
        let mut game = Game {
            board: start.clone(),
            start,
            kind: kind.into(),
            history: Vec::new(),
            cursor: 0,
            times: Vec::new(),
            elapsed: Duration::ZERO,
            running: false,
            won: false,
            dnf: false,
            helped: false,
            moves_since_help: 0,
            shortest: None,
            legs_done: Vec::new(),
        };
        game.won = game.completes();
        game
    }

    /// A new game whose start board is known to be `shortest` moves from solved.
    pub fn with_shortest(start: Board, kind: impl Into<GameKind>, shortest: usize) -> Game {
        Game {
            shortest: Some(shortest),
            ..Game::new(start, kind)
        }
    }

    /// The puzzle of `day`: its board, `shortest` moves from solved.
    pub fn daily(start: Board, day: Day, shortest: usize) -> Game {
        Game::with_shortest(start, GameKind::Daily(day), shortest)
    }

    /// A finished game's start board, to replay along the best line: it never counts as won
    /// (so steps back stay possible), its clock does not run, and it takes the app's moves
    /// only, never the player's (it is a viewer).
    pub fn review(finished: &Game) -> Game {
        Game::review_keeping(finished, finished.kept())
    }

    /// A review of `finished` that holds `kept`, the game Done brings back (a solve watched
    /// again is compared while the player's own game waits).
    pub fn review_keeping(finished: &Game, kept: &Game) -> Game {
        let start = finished.start().clone();
        let kind = GameKind::Review(Box::new(kept.kept().clone()));
        match finished.shortest() {
            Some(shortest) => Game::with_shortest(start, kind, shortest),
            None => Game::new(start, kind),
        }
    }

    /// A solve's start board, to watch it again: a viewer like the review, holding the game
    /// the player has (`kept`, what is saved, and what Done brings back).
    pub fn replay(start: Board, kept: &Game) -> Game {
        Game::new(start, GameKind::Replay(Box::new(kept.kept().clone())))
    }

    /// What kind of game this is.
    pub fn kind(&self) -> &GameKind {
        &self.kind
    }

    /// Whether this is a review of a finished game.
    pub fn is_review(&self) -> bool {
        matches!(self.kind, GameKind::Review(_))
    }

    /// Whether this is a replay of a solve.
    pub fn is_replay(&self) -> bool {
        matches!(self.kind, GameKind::Replay(_))
    }

    /// Whether this is a viewer (a review or a replay): it takes the app's moves only, its
    /// clock never runs, and it never ends.
    pub fn is_viewer(&self) -> bool {
        self.is_review() || self.is_replay()
    }

    /// The game the player has: this one, or for a viewer the game it holds (what is saved,
    /// and what Done brings back).
    pub fn kept(&self) -> &Game {
        match &self.kind {
            GameKind::Review(kept) | GameKind::Replay(kept) => kept,
            _ => self,
        }
    }

    /// Whether replacing this game loses something: moves made, not yet won (a viewer loses
    /// what the game it holds would).
    pub fn has_progress(&self) -> bool {
        let game = self.kept();
        game.total_moves() > 0 && !game.won && !game.is_viewer()
    }

    /// Whether the board is complete and that ends this game (a viewer never ends; a leg of
    /// a run that is not its last leads to the next, on the same clock).
    fn completes(&self) -> bool {
        // A blind solve ends when the player says so ([`Game::declare`]), not by itself.
        let last_leg = match &self.kind {
            GameKind::Event(run) => run.is_last_leg() && !run.event.is_blind(),
            _ => true,
        };
        self.board.is_goal() && !self.is_viewer() && last_leg
    }

    /// A leg of a run of boards on one clock: after the first, the clock runs on from
    /// `elapsed` (the time of the legs before) without waiting for a move.
    pub fn leg(start: Board, run: event::Run, elapsed: Duration) -> Game {
        let first = run.leg == 0;
        let mut game = Game::new(start, GameKind::Event(run));
        game.elapsed = elapsed;
        game.running = !first;
        game.helped = run.helped;
        game
    }

    /// Whether `next` is the leg that follows this one in the same run.
    pub fn leads_to(&self, next: &Game) -> bool {
        match (self.run(), next.run()) {
            (Some(this), Some(then)) => then.event == this.event && then.leg == this.leg + 1,
            _ => false,
        }
    }

    /// The next leg goes on from the one before: it takes the clock as it stands now (it ran
    /// on while the leg was made), and the boards done, the one before last.
    pub fn go_on_from(&mut self, before: &Game) {
        self.elapsed = self.elapsed.max(before.elapsed);
        self.legs_done = before.legs_done.clone();
        self.legs_done.push(solves::Leg::of(before));
    }

    /// For a leg of a run, the run's boards done before it, in order; none for any other game.
    pub fn legs_done(&self) -> &[solves::Leg] {
        &self.legs_done
    }

    /// The player says a blind solve is done: it ends, solved if the board is, else a DNF.
    /// Whether it ended (only a blind solve under way can).
    pub fn declare(&mut self) -> bool {
        let blind = self.run().is_some_and(|run| run.event.is_blind());
        if !blind || self.won || self.moves() == 0 {
            return false;
        }
        self.won = true;
        self.dnf = !self.board.is_goal();
        self.running = false;
        true
    }

    /// Whether it ended without being solved (a blind solve said done too soon).
    pub fn is_dnf(&self) -> bool {
        self.dnf
    }

    /// Whether the tiles are hidden: a blind solve between its first move and its end.
    pub fn blindfolded(&self) -> bool {
        let blind = self.run().is_some_and(|run| run.event.is_blind());
        // From the first move on, undone or not: the start is not shown again.
        blind && !self.history.is_empty() && !self.won
    }

    /// The run this game is a leg of, if it is one.
    pub fn run(&self) -> Option<&event::Run> {
        match &self.kind {
            GameKind::Event(run) => Some(run),
            _ => None,
        }
    }

    /// The moves counted for the player: this game's, and for a leg of a run, the legs'
    /// before it too.
    pub fn total_moves(&self) -> usize {
        self.moves() + self.run().map_or(0, |run| run.moves_before)
    }

    /// The same moves counted as slides of a line (MTM).
    pub fn total_mtm(&self) -> usize {
        let this = npuzzle::mtm_length(&self.history_in_effect());
        this + self.run().map_or(0, |run| run.mtm_before)
    }

    /// The start board's shortest solution, when it is known.
    pub fn shortest(&self) -> Option<usize> {
        self.shortest
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board the game started from (Restart returns here).
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The move counter: the tiles moved by the actions in effect (undo lowers it by the
    /// tiles its action moved).
    pub fn moves(&self) -> usize {
        self.history[..self.cursor].iter().map(Vec::len).sum()
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
    pub fn history_in_effect(&self) -> Vec<Move> {
        self.history[..self.cursor].concat()
    }

    /// When each move in effect was made: the clock then, which runs from the first move (the
    /// moves of one action share its time; a redone action has the time of its redo).
    pub fn move_times(&self) -> Vec<Duration> {
        self.history[..self.cursor]
            .iter()
            .zip(&self.times)
            .flat_map(|(action, &time)| std::iter::repeat_n(time, action.len()))
            .collect()
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
        if !self.board.apply(mv) {
            return None;
        }
        let tile = self.board.tiles()[to];
        Some(Step {
            mv,
            tile,
            from: self.board.blank(),
            to,
            home: to + 1 == tile as usize,
        })
    }

    /// Makes these blank moves in order; all or nothing (a move off the edge takes the ones
    /// before it back).
    fn steps(&mut self, moves: &[Move]) -> Option<Vec<Step>> {
        let mut steps = Vec::with_capacity(moves.len());
        for &mv in moves {
            match self.step(mv) {
                Some(step) => steps.push(step),
                None => {
                    for made in steps.iter().rev() {
                        self.step(made.mv.inverse());
                    }
                    return None;
                }
            }
        }
        Some(steps)
    }

    /// Makes blank moves in order, as one player action (one undo step); all or nothing.
    pub fn apply(&mut self, moves: &[Move]) -> Outcome {
        if self.won || moves.is_empty() {
            return Outcome::Illegal;
        }
        let Some(steps) = self.steps(moves) else {
            return Outcome::Illegal;
        };
        self.history.truncate(self.cursor);
        self.history.push(moves.to_vec());
        self.times.truncate(self.cursor);
        self.times.push(self.elapsed);
        self.cursor = self.history.len();
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

    /// A drag that began on `cell` and points the way the blank move `toward` names (a drag
    /// down is [`Move::Up`]: the blank goes up as the tile comes down). The tile under the
    /// finger is the one that moves: it slides, with the tiles between, when the gap lies that
    /// way in its row or column; otherwise nothing moves. A drag that began on the gap moves
    /// the tile beside it, as a swipe does.
    pub fn drag(&mut self, cell: usize, toward: Move) -> Outcome {
        if cell == self.board.blank() {
            return self.apply(&[toward]);
        }
        match self.board.moves_to_slide_cell(cell) {
            Some(moves) if moves.first() == Some(&toward) => self.apply(&moves),
            _ => Outcome::Illegal,
        }
    }

    /// The player acted on the board: the clock runs (a review's never does).
    fn start_clock(&mut self) {
        self.running = !self.is_viewer();
    }

    /// Undoes the last action, all its moves (its steps are the blank moves that undid it).
    pub fn undo(&mut self) -> Outcome {
        if !self.can_undo() {
            return Outcome::Illegal;
        }
        let back: Vec<Move> = self.history[self.cursor - 1]
            .iter()
            .rev()
            .map(|mv| mv.inverse())
            .collect();
        let Some(steps) = self.steps(&back) else {
            return Outcome::Illegal;
        };
        self.cursor -= 1;
        self.start_clock();
        Outcome::Moved { steps, won: false }
    }

    /// Redoes the last undone action.
    pub fn redo(&mut self) -> Outcome {
        if !self.can_redo() {
            return Outcome::Illegal;
        }
        let again = self.history[self.cursor].clone();
        let Some(steps) = self.steps(&again) else {
            return Outcome::Illegal;
        };
        self.times[self.cursor] = self.elapsed;
        self.cursor += 1;
        self.start_clock();
        self.settle_win();
        Outcome::Moved {
            steps,
            won: self.won,
        }
    }

    /// Returns to the start board with fresh counters (the same shuffle). A shuffle whose
    /// solution the app showed stays marked as helped; the help counter starts again.
    pub fn restart(&mut self) {
        let helped = self.helped;
        let kind = std::mem::replace(&mut self.kind, GameKind::Custom);
        let mut fresh = Game::new(self.start.clone(), kind);
        fresh.shortest = self.shortest;
        fresh.helped = helped;
        fresh.legs_done = std::mem::take(&mut self.legs_done);
        *self = fresh;
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
            home: true,
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
    fn a_drag_moves_the_tile_under_the_finger_or_nothing() {
        // The blank is bottom right; the top-right tile is two cells above it.
        let start = "2 3 1 / 4 5 6 / 7 8 0";
        let mut g = game(start);
        // Dragged down (the blank goes up): the 1 comes down, with the 6 before it.
        let out = g.drag(2, Move::Up);
        let Outcome::Moved { steps, .. } = out else {
            panic!("expected a move, got {out:?}")
        };
        let slid: Vec<_> = steps.iter().map(|s| (s.tile, s.from, s.to)).collect();
        assert_eq!(slid, vec![(6, 5, 8), (1, 2, 5)]);
        assert_eq!(g.moves(), 2);
        // Dragged away from the gap, or across its line: nothing moves.
        let mut g = game(start);
        assert_eq!(g.drag(2, Move::Down), Outcome::Illegal);
        assert_eq!(g.drag(2, Move::Left), Outcome::Illegal);
        assert_eq!(g.drag(0, Move::Up), Outcome::Illegal, "not in line");
        assert_eq!(g.moves(), 0);
        // A tile two cells left of the gap, dragged toward it, takes its neighbour along.
        let out = g.drag(6, Move::Left);
        assert_eq!(out.moves(), vec![Move::Left, Move::Left]);
        // A drag that begins on the gap moves the tile beside it, as a swipe does.
        let mut g = game(start);
        assert_eq!(g.drag(8, Move::Up).moves(), vec![Move::Up]);
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
    fn each_move_keeps_its_actions_time_since_the_first_move() {
        let ms = Duration::from_millis;
        let mut g = game("0 1 2 / 3 4 5 / 6 7 8");
        g.tick(ms(3000)); // before the first move: the clock does not run
        g.tap(2); // two tiles, one action, at 0
        g.tick(ms(400));
        g.apply(&[Move::Down]); // at 400
        g.tick(ms(100));
        g.undo();
        assert_eq!(g.move_times(), [ms(0), ms(0)]);
        g.tick(ms(250));
        g.redo(); // redone at 750
        assert_eq!(g.move_times(), [ms(0), ms(0), ms(750)]);
        g.undo();
        g.tick(ms(50));
        g.apply(&[Move::Left]); // a new action at 800 replaces the undone one
        assert_eq!(g.move_times(), [ms(0), ms(0), ms(800)]);
        // A saved game keeps no times: each action's is the clock when it was saved.
        let back = Game::from_saved(&g.to_saved()).unwrap();
        assert_eq!(back.move_times(), [ms(800); 3]);
        g.restart();
        assert!(g.move_times().is_empty());
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
}
