//! Solve and Hint: the engine runs on the `AsyncComputeTaskPool` with a cancel flag, so the
//! frame never waits; a solution then plays move by move at an adjustable speed.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use npuzzle::{Board, Budget, CancelFlag, Move, Options, Solution, SolveError, solve};

use crate::AppSet;
use crate::play::{Animating, CurrentGame, GameChanged, GameCommand, Settings};

/// How long a Solve may think before it settles for what the engine has.
pub const SOLVE_TIME: Duration = Duration::from_secs(20);
/// How long a Hint may think.
pub const HINT_TIME: Duration = Duration::from_secs(8);
/// How long the fast solver may take once the best search has given up.
pub const FALLBACK_TIME: Duration = Duration::from_secs(10);

/// What the player asked the solver for.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverCommand {
    /// Solve the board and play the solution.
    Solve,
    /// Show the first move of a solution; if one is shown for this board, play it.
    Hint,
    /// Stop thinking.
    Cancel,
    /// Pause or resume the playback.
    TogglePause,
    /// Stop the playback.
    Stop,
}

/// Why the solver was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// To play the whole solution.
    Solve,
    /// To show its first move.
    Hint,
}

/// A search running in the background.
pub struct Job {
    task: Task<Result<Solution, SolveError>>,
    cancel: CancelFlag,
    /// When it started.
    pub started: Instant,
    /// Why it runs.
    pub purpose: Purpose,
    board: Board,
}

/// The search in progress, if any.
#[derive(Resource, Default)]
pub struct SolverJob(pub Option<Job>);

/// A solution being played.
#[derive(Resource, Default, Debug, Clone)]
pub struct Playback {
    /// Moves still to play.
    pub moves: VecDeque<Move>,
    /// Paused by the player.
    pub paused: bool,
    /// Seconds since the last move.
    since_last: f32,
}

impl Playback {
    /// Whether a solution is playing (or paused).
    pub fn active(&self) -> bool {
        !self.moves.is_empty()
    }
}

/// A hint on show: the board it is for and its move.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct HintShown(pub Option<(Board, Move)>);

impl HintShown {
    /// The hinted move if it is for this board.
    pub fn for_board(&self, board: &Board) -> Option<Move> {
        self.0
            .as_ref()
            .filter(|(b, _)| b == board)
            .map(|(_, mv)| *mv)
    }
}

/// What the solver last said, for the HUD.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct SolverStatus(pub Option<String>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<SolverCommand>()
        .init_resource::<SolverJob>()
        .init_resource::<Playback>()
        .init_resource::<HintShown>()
        .init_resource::<SolverStatus>()
        .add_systems(
            Update,
            (
                handle_commands,
                poll_job,
                stop_on_player_move,
                play_solution,
            )
                .chain()
                .in_set(AppSet::Solver),
        );
}

// The engine's `Options` keeps gaining fields; only the budget is set here.
#[allow(clippy::field_reassign_with_default)]
fn start(purpose: Purpose, board: &Board) -> Job {
    let cancel = CancelFlag::new();
    let limit = match purpose {
        Purpose::Solve => SOLVE_TIME,
        Purpose::Hint => HINT_TIME,
    };
    // The engine picks its best method for the board (`algorithm: None`).
    let mut options = Options::default();
    options.budget = Budget::default()
        .with_time_limit(limit)
        .with_cancel(cancel.clone());
    // Leave a core for the frame: the solver must never make the game stutter.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    options.threads = Some(cores.saturating_sub(1).max(1));
    let owned = board.clone();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        match solve(&owned, &options) {
            // The best search ran out of time or memory: settle for the fast solver's
            // answer, which the words then call "not guaranteed shortest".
            Err(SolveError::GaveUp(gave_up))
                if gave_up.reason != npuzzle::StopReason::Cancelled =>
            {
                let mut fast = options.clone();
                fast.fast = true;
                fast.algorithm = None;
                fast.budget = Budget::default()
                    .with_time_limit(FALLBACK_TIME)
                    .with_cancel(options.budget.cancel.clone());
                solve(&owned, &fast).map_err(|_| SolveError::GaveUp(gave_up))
            }
            other => other,
        }
    });
    Job {
        task,
        cancel,
        started: Instant::now(),
        purpose,
        board: board.clone(),
    }
}

fn handle_commands(
    mut commands: MessageReader<SolverCommand>,
    mut job: ResMut<SolverJob>,
    mut playback: ResMut<Playback>,
    mut hint: ResMut<HintShown>,
    mut status: ResMut<SolverStatus>,
    current: Res<CurrentGame>,
    mut game_commands: MessageWriter<GameCommand>,
) {
    for command in commands.read() {
        let board = current.game.board();
        match command {
            SolverCommand::Solve | SolverCommand::Hint => {
                if current.game.is_won() {
                    status.0 = Some("The board is already solved.".into());
                    continue;
                }
                if *command == SolverCommand::Hint
                    && let Some(mv) = hint.for_board(board)
                {
                    // The second tap plays the hinted move.
                    hint.0 = None;
                    game_commands.write(GameCommand::AppMove(mv));
                    continue;
                }
                if let Some(old) = job.0.take() {
                    old.cancel.cancel();
                }
                playback.moves.clear();
                let purpose = if *command == SolverCommand::Solve {
                    Purpose::Solve
                } else {
                    Purpose::Hint
                };
                job.0 = Some(start(purpose, board));
                status.0 = None;
            }
            SolverCommand::Cancel => {
                if let Some(old) = job.0.take() {
                    old.cancel.cancel();
                    status.0 = Some("Cancelled.".into());
                }
            }
            SolverCommand::TogglePause => playback.paused = !playback.paused,
            SolverCommand::Stop => {
                playback.moves.clear();
                playback.paused = false;
                status.0 = Some("Solution stopped.".into());
            }
        }
    }
}

/// The words for a finished search.
pub fn describe(result: &Result<Solution, SolveError>, purpose: Purpose) -> String {
    match result {
        Ok(solution) => {
            let quality = if solution.optimal {
                "optimal"
            } else {
                "not guaranteed shortest"
            };
            match purpose {
                Purpose::Solve => format!(
                    "Solution: {} moves ({quality}, {}).",
                    solution.moves.len(),
                    solution.algorithm
                ),
                Purpose::Hint => format!(
                    "Hint from a {}-move solution ({quality}). Tap Hint again to play it.",
                    solution.moves.len()
                ),
            }
        }
        Err(SolveError::GaveUp(gave_up)) => match gave_up.reason {
            npuzzle::StopReason::Cancelled => "Cancelled.".into(),
            _ => format!(
                "The solver could not finish: it {gave_up}. Large boards need the engine's \
                 fast solver."
            ),
        },
        // Unsolvable, and whatever else the engine may report, in its own words.
        Err(other) => format!("No solution: {other}."),
    }
}

fn poll_job(
    mut job: ResMut<SolverJob>,
    mut playback: ResMut<Playback>,
    mut hint: ResMut<HintShown>,
    mut status: ResMut<SolverStatus>,
    current: Res<CurrentGame>,
) {
    let Some(running) = job.0.as_mut() else {
        return;
    };
    let Some(result) = check_ready(&mut running.task) else {
        return;
    };
    let Some(done) = job.0.take() else { return };
    if &done.board != current.game.board() {
        status.0 = Some("The board changed while the solver was thinking; ask again.".into());
        return;
    }
    status.0 = Some(describe(&result, done.purpose));
    if let Ok(solution) = result {
        match done.purpose {
            Purpose::Solve => {
                playback.moves = solution.moves.into();
                playback.paused = false;
                playback.since_last = f32::MAX;
            }
            Purpose::Hint => {
                hint.0 = solution.moves.first().map(|&mv| (done.board.clone(), mv));
            }
        }
    }
}

/// A move by the player (or a new board) stops the playback and clears the hint.
fn stop_on_player_move(
    mut changes: MessageReader<GameChanged>,
    mut playback: ResMut<Playback>,
    mut hint: ResMut<HintShown>,
    mut job: ResMut<SolverJob>,
    current: Res<CurrentGame>,
) {
    for change in changes.read() {
        match change {
            GameChanged::Slid { by_app: false, .. } => {
                playback.moves.clear();
            }
            GameChanged::Reset => {
                playback.moves.clear();
                if let Some(old) = job.0.take() {
                    old.cancel.cancel();
                }
            }
            _ => {}
        }
    }
    if hint.0.is_some() && hint.for_board(current.game.board()).is_none() {
        hint.0 = None;
    }
}

fn play_solution(
    time: Res<Time>,
    settings: Res<Settings>,
    animating: Res<Animating>,
    mut playback: ResMut<Playback>,
    mut game_commands: MessageWriter<GameCommand>,
) {
    if playback.moves.is_empty() || playback.paused {
        return;
    }
    playback.since_last += time.delta_secs();
    let interval = 1.0 / settings.speed.clamp(0.5, 1000.0);
    if animating.0 || playback.since_last < interval {
        return;
    }
    if let Some(mv) = playback.moves.pop_front() {
        playback.since_last = 0.0;
        game_commands.write(GameCommand::AppMove(mv));
    }
}

/// Cancels a running search when the app closes.
impl Drop for Job {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::parse_board;

    #[test]
    fn the_words_say_whether_a_solution_is_shortest() {
        let board = parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap();
        let mut solution = solve(&board, &Options::default()).unwrap();
        assert!(solution.optimal);
        let words = describe(&Ok(solution.clone()), Purpose::Solve);
        assert!(words.contains("2 moves (optimal"), "{words}");
        solution.optimal = false;
        let words = describe(&Ok(solution), Purpose::Hint);
        assert!(words.contains("not guaranteed shortest"), "{words}");
    }

    #[test]
    // The engine's `Options` keeps gaining fields; only the budget is set here.
    #[allow(clippy::field_reassign_with_default)]
    fn a_cancelled_or_unsolvable_search_is_explained() {
        let board = parse_board("8 7 6 / 5 4 3 / 2 1 0").unwrap();
        let cancel = CancelFlag::new();
        cancel.cancel();
        let mut options = Options::default();
        options.budget = Budget::default().with_cancel(cancel);
        let result = solve(&board, &options);
        assert!(result.is_err(), "a cancelled search found {result:?}");
        assert_eq!(describe(&result, Purpose::Solve), "Cancelled.");
        let unsolvable = parse_board("2 1 3 / 4 5 6 / 7 8 0").unwrap();
        let words = describe(&solve(&unsolvable, &Options::default()), Purpose::Hint);
        assert!(words.starts_with("No solution"), "{words}");
    }
}
