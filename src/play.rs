//! The game in the app: board input and commands become moves on the [`Game`], and each change
//! goes out as a [`GameChanged`] message for the animations, sounds, HUD and save file.

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

use bevy::prelude::*;
use npuzzle::{Board, Move, Shape, random};
use serde::{Deserialize, Serialize};

use crate::AppSet;
use crate::game::{Difficulty, Game, Outcome};
use crate::input::{BoardInput, BoardLayout, swipe_move};
use crate::photo::PhotoSource;

/// The smallest board side offered.
pub const MIN_SIZE: usize = 3;
/// The largest board side offered.
pub const MAX_SIZE: usize = 8;
/// How far a swipe must travel, in logical pixels.
pub const SWIPE_MIN: f32 = 20.0;

/// Where a game is: being played, or won (the win dialog shows).
#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Tiles move.
    #[default]
    Playing,
    /// The board is complete.
    Won,
}

/// The player's settings (kept in the settings file).
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Tiles per side, 3 to 8.
    pub size: usize,
    /// The difficulty of new games.
    pub difficulty: Difficulty,
    /// Tile numbers: `None` follows the default (on from 6×6).
    pub show_numbers: Option<bool>,
    /// Sound on.
    pub sound: bool,
    /// The photo.
    pub photo: PhotoSource,
    /// Solution playback, in moves per second.
    pub speed: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            size: 4,
            difficulty: Difficulty::Medium,
            show_numbers: None,
            sound: true,
            photo: PhotoSource::default(),
            speed: 4.0,
        }
    }
}

impl Settings {
    /// Whether tile numbers are drawn on a board of side `n`.
    pub fn numbers_shown(&self, n: usize) -> bool {
        self.show_numbers.unwrap_or(n >= 6)
    }

    /// The settings with every value brought into range.
    pub fn sanitized(mut self) -> Settings {
        self.size = self.size.clamp(MIN_SIZE, MAX_SIZE);
        if self.difficulty == Difficulty::Custom {
            self.difficulty = Difficulty::Medium;
        }
        if !self.speed.is_finite() {
            self.speed = 4.0;
        }
        self.speed = self.speed.clamp(0.5, 30.0);
        self
    }
}

/// A best result for one size and difficulty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Best {
    /// Fewest moves.
    pub moves: usize,
    /// Shortest time, in milliseconds.
    pub millis: u64,
}

/// Best results per size and difficulty (kept in the scores file).
#[derive(Resource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BestScores(pub BTreeMap<String, Best>);

impl BestScores {
    /// The key for a board size and difficulty.
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
                (*best, record)
            }
            None => {
                let best = Best { moves, millis };
                self.0.insert(key, best);
                (best, true)
            }
        }
    }
}

/// The game being played.
#[derive(Resource, Clone, Debug)]
pub struct CurrentGame {
    /// The rules and state.
    pub game: Game,
    /// Counts new boards, so views know to rebuild.
    pub generation: u64,
}

impl Default for CurrentGame {
    fn default() -> Self {
        CurrentGame {
            game: Game::new(new_board(4, Difficulty::Medium, 1), Difficulty::Medium),
            generation: 0,
        }
    }
}

/// The result shown in the win dialog.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct LastResult {
    /// Moves made.
    pub moves: usize,
    /// Time taken.
    pub time: Duration,
    /// The best for this size and difficulty, after this game.
    pub best: Option<Best>,
    /// Whether this game set a record.
    pub record: bool,
    /// Whether the app solved it (no score then).
    pub solved_by_app: bool,
}

/// Set by the animations while tiles are sliding; input waits in the queue meanwhile.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct Animating(pub bool);

/// A command from the HUD, the solver or the tests.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum GameCommand {
    /// Undo the last move.
    Undo,
    /// Redo the last undone move.
    Redo,
    /// Back to the start of this shuffle.
    Restart,
    /// A new shuffle with the current settings, from a seed (random if `None`).
    NewGame {
        /// The seed.
        seed: Option<u64>,
    },
    /// Start from a given board (a set-up or restored game).
    Start(Box<Game>),
    /// A move played by the app (solution or hint).
    AppMove(Move),
}

/// What changed, for the views.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum GameChanged {
    /// Tiles slid.
    Slid {
        /// The tiles, in the order they moved.
        tiles: Vec<u8>,
        /// Whether the app made the move.
        by_app: bool,
    },
    /// An illegal input: shake (the cell tapped, if any) and bump.
    Bumped(Option<usize>),
    /// A new board: rebuild everything.
    Reset,
    /// The board was completed by the last move.
    Won,
}

/// Inputs and commands waiting for the animation to finish.
#[derive(Resource, Default, Debug)]
pub struct InputQueue(pub VecDeque<Queued>);

/// One queued action.
#[derive(Clone, Debug, PartialEq)]
pub enum Queued {
    /// Board input from the player.
    Input(BoardInput),
    /// A command.
    Command(GameCommand),
}

/// The most actions kept waiting; older ones beyond it are dropped.
pub const QUEUE_LIMIT: usize = 64;

/// A new shuffled board of side `n`.
pub fn new_board(n: usize, difficulty: Difficulty, seed: u64) -> Board {
    let n = n.clamp(MIN_SIZE, MAX_SIZE);
    let shape = Shape::new(n, n).unwrap_or(Shape {
        width: 4,
        height: 4,
    });
    let mut seed = seed;
    loop {
        let board = match difficulty.shuffle_moves(n) {
            Some(count) => random::shuffled(shape, count, seed),
            None => random::random_solvable(shape, seed),
        };
        if !board.is_goal() {
            return board;
        }
        seed = seed.wrapping_add(1);
    }
}

/// A seed from the clock, for games without one.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0x5eed)
}

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Phase>()
        .add_message::<GameCommand>()
        .add_message::<GameChanged>()
        .init_resource::<Settings>()
        .init_resource::<BestScores>()
        .init_resource::<CurrentGame>()
        .init_resource::<LastResult>()
        .init_resource::<Animating>()
        .init_resource::<InputQueue>()
        .add_systems(Update, enqueue.in_set(AppSet::Queue))
        .add_systems(
            Update,
            (execute, tick_timer).chain().in_set(AppSet::Execute),
        );
}

fn enqueue(
    mut inputs: MessageReader<BoardInput>,
    mut commands: MessageReader<GameCommand>,
    mut queue: ResMut<InputQueue>,
) {
    for input in inputs.read() {
        queue.0.push_back(Queued::Input(*input));
    }
    for command in commands.read() {
        if matches!(
            command,
            GameCommand::NewGame { .. } | GameCommand::Start(_) | GameCommand::Restart
        ) {
            // A new board makes everything still waiting meaningless.
            queue.0.clear();
        }
        queue.0.push_back(Queued::Command(command.clone()));
    }
    while queue.0.len() > QUEUE_LIMIT {
        queue.0.pop_front();
    }
}

#[allow(clippy::too_many_arguments)]
fn execute(
    mut queue: ResMut<InputQueue>,
    animating: Res<Animating>,
    mut current: ResMut<CurrentGame>,
    layout: Res<BoardLayout>,
    settings: Res<Settings>,
    mut scores: ResMut<BestScores>,
    mut result: ResMut<LastResult>,
    mut changed: MessageWriter<GameChanged>,
    mut next_phase: ResMut<NextState<Phase>>,
) {
    // Board-changing commands never wait; moves wait for the slide before them.
    loop {
        let Some(front) = queue.0.front() else { return };
        let resets = matches!(
            front,
            Queued::Command(
                GameCommand::NewGame { .. } | GameCommand::Start(_) | GameCommand::Restart
            )
        );
        if animating.0 && !resets {
            return;
        }
        let Some(action) = queue.0.pop_front() else {
            return;
        };
        let was_won = current.game.is_won();
        let outcome = match action {
            Queued::Input(input) => {
                let outcome = match input {
                    BoardInput::Tap(point) => match layout.cell_at(point) {
                        Some(cell) => current.game.tap(cell),
                        // A tap beside the board is no move and no mistake.
                        None => continue,
                    },
                    BoardInput::Swipe(delta) => match swipe_move(delta, SWIPE_MIN) {
                        Some(mv) => current.game.apply(&[mv]),
                        None => continue,
                    },
                    BoardInput::Slide(mv) => current.game.apply(&[mv]),
                };
                if outcome == Outcome::Illegal && !was_won {
                    let cell = match input {
                        BoardInput::Tap(point) => layout.cell_at(point),
                        _ => None,
                    };
                    changed.write(GameChanged::Bumped(cell));
                }
                outcome_to_change(outcome, false, &mut changed)
            }
            Queued::Command(command) => match command {
                GameCommand::Undo => {
                    let before = current.game.board().clone();
                    match current.game.undo() {
                        Some(mv) => slid(&before, mv, &mut changed),
                        None => continue,
                    }
                    false
                }
                GameCommand::Redo => {
                    let before = current.game.board().clone();
                    match current.game.redo() {
                        Some(mv) => slid(&before, mv, &mut changed),
                        None => continue,
                    }
                    current.game.is_won()
                }
                GameCommand::AppMove(mv) => {
                    let outcome = current.game.apply(&[mv]);
                    if matches!(outcome, Outcome::Moved { .. }) {
                        current.game.mark_solved_by_app();
                    }
                    outcome_to_change(outcome, true, &mut changed)
                }
                GameCommand::Restart => {
                    current.game.restart();
                    reset(&mut current, &mut changed, &mut next_phase);
                    continue;
                }
                GameCommand::NewGame { seed } => {
                    let seed = seed.unwrap_or_else(clock_seed);
                    let board = new_board(settings.size, settings.difficulty, seed);
                    current.game = Game::new(board, settings.difficulty);
                    reset(&mut current, &mut changed, &mut next_phase);
                    continue;
                }
                GameCommand::Start(game) => {
                    current.game = *game;
                    reset(&mut current, &mut changed, &mut next_phase);
                    continue;
                }
            },
        };
        if outcome && !was_won {
            let game = &current.game;
            let board = game.board();
            let solved_by_app = game.solved_by_app();
            let millis = game.elapsed().as_millis().min(u64::MAX as u128) as u64;
            let (best, record) = if solved_by_app {
                let key = BestScores::key(board.width(), board.height(), game.difficulty());
                (scores.get(&key), false)
            } else {
                let key = BestScores::key(board.width(), board.height(), game.difficulty());
                let (best, record) = scores.record(key, game.moves(), millis);
                (Some(best), record)
            };
            *result = LastResult {
                moves: game.moves(),
                time: game.elapsed(),
                best,
                record,
                solved_by_app,
            };
            changed.write(GameChanged::Won);
            next_phase.set(Phase::Won);
        }
        // One action per frame when animated, so each gets its slide.
        if animating.0 || !queue.0.is_empty() {
            return;
        }
    }
}

/// Writes the change for an outcome; returns whether it won.
fn outcome_to_change(
    outcome: Outcome,
    by_app: bool,
    changed: &mut MessageWriter<GameChanged>,
) -> bool {
    match outcome {
        Outcome::Moved { tiles, won, .. } => {
            changed.write(GameChanged::Slid { tiles, by_app });
            won
        }
        Outcome::Illegal => false,
    }
}

fn slid(before: &Board, mv: Move, changed: &mut MessageWriter<GameChanged>) {
    if let Some(tile) = before.tile_moved_by(mv) {
        changed.write(GameChanged::Slid {
            tiles: vec![tile],
            by_app: false,
        });
    }
}

fn reset(
    current: &mut CurrentGame,
    changed: &mut MessageWriter<GameChanged>,
    next_phase: &mut NextState<Phase>,
) {
    current.generation += 1;
    changed.write(GameChanged::Reset);
    next_phase.set(if current.game.is_won() {
        Phase::Won
    } else {
        Phase::Playing
    });
}

fn tick_timer(time: Res<Time>, mut current: ResMut<CurrentGame>) {
    if current.game.timer_running() {
        let delta = time.delta();
        current.game.tick(delta);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_boards_are_shuffled_solvable_and_reproducible() {
        for n in MIN_SIZE..=MAX_SIZE {
            for d in Difficulty::CHOOSABLE {
                let board = new_board(n, d, 42);
                assert_eq!(board.width(), n);
                assert!(!board.is_goal());
                assert!(npuzzle::is_solvable(&board));
                assert_eq!(board, new_board(n, d, 42));
            }
        }
    }

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
                millis: 5000
            }
        );
        assert!(!scores.record(key, 50, 6000).1);
    }

    #[test]
    fn settings_are_brought_into_range() {
        let s = Settings {
            size: 99,
            speed: f32::NAN,
            difficulty: Difficulty::Custom,
            ..Settings::default()
        }
        .sanitized();
        assert_eq!(s.size, MAX_SIZE);
        assert_eq!(s.speed, 4.0);
        assert_eq!(s.difficulty, Difficulty::Medium);
        assert!(!Settings::default().numbers_shown(4));
        assert!(Settings::default().numbers_shown(6));
    }
}
