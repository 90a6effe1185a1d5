//! A finished solve watched again at the player's own pace: when each move was made, which
//! moves are made by a moment of the replay, and a playhead that runs at a chosen speed, can
//! pause, and can be put anywhere. Plain Rust: the app's replay view asks these, and draws.

use std::time::Duration;

use npuzzle::{Board, Move};
use thiserror::Error;

use crate::Game;
use crate::solves::{Leg, Solve};

/// How long a replay shows its start board before its first move (made at 0 ms), in ms.
pub const LEAD_IN_MS: f64 = 600.0;

/// Moves a second at which a solve kept without its times is shown.
const PACE_WITHOUT_TIMES: u64 = 4;

/// Why a solve cannot be watched.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// It was kept as counts only (imported from a file without its moves).
    #[error("this solve was kept without its moves")]
    NoMoves,
    /// A run kept without its boards before the last (by a version that did not keep them,
    /// or imported from a file).
    #[error("this run was kept without its boards before the last")]
    NoBoards,
    /// Its start board is not a board.
    #[error("its start board is damaged")]
    Board,
    /// A move runs off the board.
    #[error("move {0} cannot be made on its board")]
    IllegalMove(usize),
    /// A board of a run before its last does not end solved.
    #[error("board {0} of the run does not end solved")]
    Unsolved(usize),
}

/// One board of a replay: where it starts, and how many moves of the boards before come first.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Part {
    start: Board,
    first: usize,
}

/// A solve to watch: its start, its moves, and when each was made. A run of several boards (a
/// marathon, a relay) is watched as one, on its one clock: each board's moves follow the board
/// before it, and a board solved gives way at once to the next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    parts: Vec<Part>,
    /// Every board's moves, in order.
    moves: Vec<Move>,
    /// When each move was made, in ms since the first move, never going back.
    at_ms: Vec<u64>,
    total_ms: u64,
}

impl Replay {
    /// A replay of `moves` from `start`, each made at its time in `times_ms` (ms since the
    /// first move). Without a time for every move, the moves are spread evenly over the total
    /// (or shown at a steady pace when no time was kept either).
    pub fn new(
        start: Board,
        moves: Vec<Move>,
        times_ms: Option<&[u64]>,
        total_ms: u64,
    ) -> Result<Replay, ReplayError> {
        Replay::of_boards(vec![(start, moves)], times_ms, total_ms)
    }

    /// A replay of a run's boards, each with its moves, in order; `times_ms` holds every
    /// move's time on the run's clock, as [`Replay::new`]'s does. Every board before the last
    /// must end solved.
    pub fn of_boards(
        boards: Vec<(Board, Vec<Move>)>,
        times_ms: Option<&[u64]>,
        total_ms: u64,
    ) -> Result<Replay, ReplayError> {
        let last = boards.len().saturating_sub(1);
        let (mut parts, mut moves) = (Vec::new(), Vec::new());
        for (index, (start, own)) in boards.into_iter().enumerate() {
            let mut board = start.clone();
            if let Some(bad) = own.iter().position(|&mv| !board.apply(mv)) {
                return Err(ReplayError::IllegalMove(moves.len() + bad + 1));
            }
            if index < last && !board.is_goal() {
                return Err(ReplayError::Unsolved(index + 1));
            }
            parts.push(Part {
                start,
                first: moves.len(),
            });
            moves.extend(own);
        }
        if parts.is_empty() {
            return Err(ReplayError::NoMoves);
        }
        let at_ms = match times_ms {
            Some(times) if times.len() == moves.len() => times
                .iter()
                .scan(0, |latest: &mut u64, &t| {
                    *latest = t.max(*latest);
                    Some(*latest)
                })
                .collect(),
            _ => evenly(moves.len(), total_ms),
        };
        let last = at_ms.last().copied().unwrap_or(0);
        Ok(Replay {
            parts,
            moves,
            at_ms,
            total_ms: total_ms.max(last),
        })
    }

    /// A game to watch again: its moves in effect, each at the time of its action; for a leg
    /// of a run, the run's boards done before it first.
    pub fn of_game(game: &Game) -> Result<Replay, ReplayError> {
        let last = Leg::of(game);
        let legs = game.legs_done().iter().chain([&last]);
        Replay::of_legs(legs, millis(&game.elapsed()))
    }

    /// A kept solve to watch: a run's boards all, when it kept them.
    pub fn of_solve(solve: &Solve) -> Result<Replay, ReplayError> {
        if !solve.moves_kept() {
            return Err(match solve.is_run() {
                true => ReplayError::NoBoards,
                false => ReplayError::NoMoves,
            });
        }
        let last = solve.last_leg();
        Replay::of_legs(solve.legs.iter().chain([&last]), solve.time_ms)
    }

    /// A replay of boards as a solve keeps them, in order, on one clock of `total_ms`.
    fn of_legs<'a>(
        legs: impl Iterator<Item = &'a Leg>,
        total_ms: u64,
    ) -> Result<Replay, ReplayError> {
        let (mut boards, mut times) = (Vec::new(), Vec::new());
        for leg in legs {
            let start = Board::new(leg.width.into(), leg.height.into(), leg.start.clone())
                .map_err(|_| ReplayError::Board)?;
            let moves =
                npuzzle::moves_from_str(&leg.moves).map_err(|_| ReplayError::IllegalMove(0))?;
            boards.push((start, moves));
            times.extend(leg.times_ms.iter().map(|&t| u64::from(t)));
        }
        Replay::of_boards(boards, Some(&times), total_ms)
    }

    /// The board it starts from.
    pub fn start(&self) -> &Board {
        &self.parts[0].start
    }

    /// How many boards it has: several for a run, else one.
    pub fn boards(&self) -> usize {
        self.parts.len()
    }

    /// The board on show once `step` moves are made, from 0: the board whose moves those
    /// are, or the next when they solved a board before the last.
    pub fn board_of(&self, step: usize) -> usize {
        let after = self.parts.partition_point(|part| part.first <= step);
        after.saturating_sub(1)
    }

    /// The start of board `board` (from 0).
    pub fn start_of(&self, board: usize) -> &Board {
        &self.parts[board.min(self.parts.len() - 1)].start
    }

    /// The step its board `board`'s moves begin at: the moves of the boards before it.
    pub fn first_step(&self, board: usize) -> usize {
        self.parts
            .get(board)
            .map_or(self.moves.len(), |part| part.first)
    }

    /// The moves of board `board` alone.
    pub fn moves_of(&self, board: usize) -> &[Move] {
        &self.moves[self.first_step(board)..self.first_step(board + 1)]
    }

    /// Its moves, in order (every board's).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How many moves it has.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether it has no move at all.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// How long it lasts, in ms.
    pub fn total_ms(&self) -> u64 {
        self.total_ms
    }

    /// When the board shows `step` moves made: the time of the last of them (0 at the start).
    pub fn time_of(&self, step: usize) -> u64 {
        match step.min(self.len()) {
            0 => 0,
            step => self.at_ms[step - 1],
        }
    }

    /// How many moves are made by `ms` into the replay.
    pub fn steps_by(&self, ms: u64) -> usize {
        self.at_ms.partition_point(|&at| at <= ms)
    }

    /// The board after `step` moves.
    pub fn board_at(&self, step: usize) -> Board {
        let step = step.min(self.len());
        let part = &self.parts[self.board_of(step)];
        let mut board = part.start.clone();
        board.apply_all(&self.moves[part.first..step]).ok();
        board
    }

    /// Moves a second up to `step`, by its time; `None` before any time passed.
    pub fn tps_at(&self, step: usize) -> Option<f64> {
        let ms = self.time_of(step);
        (ms > 0).then(|| step.min(self.len()) as f64 * 1000.0 / ms as f64)
    }
}

/// A duration in whole ms.
fn millis(time: &Duration) -> u64 {
    time.as_millis().min(u128::from(u64::MAX)) as u64
}

/// `n` moves spread evenly over `total_ms`, or at a steady pace when there is no total.
fn evenly(n: usize, total_ms: u64) -> Vec<u64> {
    let n64 = n as u64;
    (1..=n64)
        .map(|i| match total_ms {
            0 => i * 1000 / PACE_WITHOUT_TIMES,
            total => total * i / n64,
        })
        .collect()
}

/// How fast a replay runs, against the player's own time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    /// A quarter of the speed.
    Quarter,
    /// Half the speed.
    Half,
    /// The player's own speed.
    #[default]
    Normal,
    /// Twice.
    Double,
    /// Four times.
    Fourfold,
    /// Eight times.
    Eightfold,
    /// No waiting between moves: each follows as soon as the last has slid.
    Instant,
}

impl Speed {
    /// Every speed, slowest first.
    pub const ALL: [Speed; 7] = [
        Speed::Quarter,
        Speed::Half,
        Speed::Normal,
        Speed::Double,
        Speed::Fourfold,
        Speed::Eightfold,
        Speed::Instant,
    ];

    /// How many of the player's milliseconds pass in one of the replay's; `None` for Instant.
    pub fn factor(self) -> Option<f64> {
        match self {
            Speed::Quarter => Some(0.25),
            Speed::Half => Some(0.5),
            Speed::Normal => Some(1.0),
            Speed::Double => Some(2.0),
            Speed::Fourfold => Some(4.0),
            Speed::Eightfold => Some(8.0),
            Speed::Instant => None,
        }
    }

    /// Its name on a button: "0.25×", …, "Instant".
    pub fn label(self) -> &'static str {
        match self {
            Speed::Quarter => "0.25×",
            Speed::Half => "0.5×",
            Speed::Normal => "1×",
            Speed::Double => "2×",
            Speed::Fourfold => "4×",
            Speed::Eightfold => "8×",
            Speed::Instant => "Instant",
        }
    }
}

/// Where a replay is: a moment in the player's time (before 0 during the lead-in, when the
/// start board is shown before the first move), the speed, and whether it runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playhead {
    ms: f64,
    /// How fast it runs.
    pub speed: Speed,
    /// Whether it stands still.
    pub paused: bool,
}

impl Default for Playhead {
    /// At the lead-in's start, running at the player's own speed.
    fn default() -> Playhead {
        Playhead {
            ms: -LEAD_IN_MS,
            speed: Speed::Normal,
            paused: false,
        }
    }
}

impl Playhead {
    /// The moment it is at, in the player's ms (0 during the lead-in).
    pub fn ms(&self) -> u64 {
        self.ms.max(0.0) as u64
    }

    /// Moves made by now: none during the lead-in, nor at 0 (a first move made at 0 comes as
    /// the playhead leaves it).
    fn steps(&self, replay: &Replay) -> usize {
        if self.ms <= 0.0 {
            0
        } else {
            replay.steps_by(self.ms())
        }
    }

    /// Runs on by `real` time at its speed; at the end it stops. The moves made by then. At
    /// Instant, time does not move it: the viewer moves it a move at a time ([`Self::made`]).
    pub fn advance(&mut self, replay: &Replay, real: Duration) -> usize {
        if let (false, Some(factor)) = (self.paused, self.speed.factor()) {
            self.ms += real.as_secs_f64() * 1000.0 * factor;
            if self.ms >= replay.total_ms() as f64 {
                self.ms = replay.total_ms() as f64;
                self.paused = true;
            }
        }
        self.steps(replay)
    }

    /// The board shows `step` moves made, each as soon as the last has slid (Instant): the
    /// playhead stands at that move's time, and stops at the last move.
    pub fn made(&mut self, replay: &Replay, step: usize) {
        self.ms = replay.time_of(step) as f64;
        if step >= replay.len() {
            self.ms = replay.total_ms() as f64;
            self.paused = true;
        }
    }

    /// Put at `ms` (within the replay); the moves made by then.
    pub fn seek(&mut self, replay: &Replay, ms: u64) -> usize {
        self.ms = ms.min(replay.total_ms()) as f64;
        self.steps(replay)
    }

    /// Put at the moment the board shows `step` moves made, and paused there (a step forward
    /// or back).
    pub fn step_to(&mut self, replay: &Replay, step: usize) {
        self.ms = replay.time_of(step) as f64;
        self.paused = true;
    }

    /// Whether it stands at the replay's end.
    pub fn at_end(&self, replay: &Replay) -> bool {
        self.ms() >= replay.total_ms()
    }

    /// Runs it, or pauses it; run with the board at the end (`shown` moves made of all), it
    /// starts again from the beginning.
    pub fn toggle(&mut self, replay: &Replay, shown: usize) {
        if self.paused && shown >= replay.len() {
            self.ms = -LEAD_IN_MS;
        }
        self.paused = !self.paused;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::Shape;

    /// A 3×3 scrambled by `moves`' inverses: `moves` solve it.
    fn solved_by(moves: &[Move]) -> Board {
        let mut board = Board::goal_of(Shape::new(3, 3).unwrap());
        let back: Vec<Move> = moves.iter().rev().map(|mv| mv.inverse()).collect();
        board.apply_all(&back).unwrap();
        board
    }

    fn sample() -> Replay {
        let moves = vec![Move::Up, Move::Left, Move::Down, Move::Right];
        Replay::new(
            solved_by(&moves),
            moves,
            Some(&[100, 200, 1200, 1250]),
            1300,
        )
        .unwrap()
    }

    #[test]
    fn the_moves_come_at_the_players_own_times_pauses_included() {
        let replay = sample();
        assert_eq!(replay.steps_by(0), 0);
        assert_eq!(replay.steps_by(199), 1);
        assert_eq!(replay.steps_by(200), 2);
        // The player paused a second after the second move.
        assert_eq!(replay.steps_by(1199), 2);
        assert_eq!(replay.steps_by(1250), 4);
        assert_eq!(replay.time_of(2), 200);
        assert!(replay.board_at(4).is_goal());
        assert!(!replay.board_at(3).is_goal());
    }

    #[test]
    fn the_playhead_runs_at_its_speed_and_stops_at_the_end() {
        let replay = sample();
        let mut head = Playhead::default();
        // The start board is shown for the lead-in, then the first move comes at its time.
        assert_eq!(head.advance(&replay, Duration::from_millis(50)), 0);
        assert_eq!(
            head.advance(&replay, Duration::from_millis(LEAD_IN_MS as u64 + 100)),
            1
        );
        head.speed = Speed::Eightfold;
        // 150 + 8 × 100 = 950 ms: still two moves (the pause).
        assert_eq!(head.advance(&replay, Duration::from_millis(100)), 2);
        assert_eq!(head.advance(&replay, Duration::from_millis(100)), 4);
        assert!(head.paused && head.at_end(&replay));
        // Played again at the end, it starts over.
        head.toggle(&replay, 4);
        assert_eq!((head.ms(), head.steps(&replay)), (0, 0));
        assert!(!head.paused);
        // At Instant, time does not move it; each move made does, and the last stops it.
        head.speed = Speed::Instant;
        assert_eq!(head.advance(&replay, Duration::from_secs(9)), 0);
        head.made(&replay, 2);
        assert_eq!((head.ms(), head.paused), (200, false));
        head.made(&replay, 4);
        assert!(head.paused && head.at_end(&replay));
        // Stepped back a move whose time is the end's, Play plays that move, not all again.
        head.step_to(&replay, 3);
        head.toggle(&replay, 3);
        assert!(!head.paused);
        assert_eq!(head.steps(&replay), 3);
    }

    #[test]
    fn a_paused_playhead_stays_and_a_step_pauses_it() {
        let replay = sample();
        let mut head = Playhead::default();
        head.step_to(&replay, 3);
        assert_eq!(head.advance(&replay, Duration::from_secs(5)), 3);
        assert_eq!(head.seek(&replay, 99_999), 4);
        assert_eq!(head.ms(), 1300);
    }

    #[test]
    fn a_solve_without_times_is_spread_over_its_total() {
        let moves = vec![Move::Up, Move::Left, Move::Down, Move::Right];
        let replay = Replay::new(solved_by(&moves), moves.clone(), None, 4000).unwrap();
        assert_eq!(
            (1..=4).map(|s| replay.time_of(s)).collect::<Vec<_>>(),
            [1000, 2000, 3000, 4000]
        );
        assert_eq!(replay.tps_at(4), Some(1.0));
        let untimed = Replay::new(solved_by(&moves), moves, None, 0).unwrap();
        assert_eq!(untimed.total_ms(), 1000);
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_number() {
        let goal = Board::goal_of(Shape::new(3, 3).unwrap());
        // The gap is in the corner: it cannot go down or right.
        let refused = Replay::new(goal, vec![Move::Up, Move::Down, Move::Down], None, 0);
        assert_eq!(refused, Err(ReplayError::IllegalMove(3)));
    }
}
