//! Solve and Hint, the app's help: the engine runs on a thread of its own with a cancel flag,
//! so the frame never waits; a solution then plays move by move at an adjustable speed
//! (`playback`). The best line the app knows from the board on show is kept while the game
//! follows it, so a Solve after a Hint plays the hint's line, never a longer one it would find
//! again. The solver only reads the game: its moves go to `play` as commands, like the
//! player's, and it learns what happened from the game's changes.

pub mod meter;
mod playback;
mod tables;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use npuzzle::{
    Algorithm, Board, CancelFlag, GaveUp, Move, Options, PdbError, Progress, ProgressEvent, Shape,
    Solution, SolveError, StopReason, solve,
};

pub use playback::Playback;
pub use tables::{JobStage, TableProgress};

use crate::app::background::{Background, lock};
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::frame::{AppSet, DecideStep};
use crate::game::Position;
use crate::messages::{Change, GameChanged, GameCommand, SolverCommand};
use crate::play::CurrentGame;
use crate::words::{a_moves, moves_text};

/// How long a Solve may think before it settles for what the engine has.
pub const SOLVE_TIME: Duration = Duration::from_secs(20);
/// How long a Hint may think.
pub const HINT_TIME: Duration = Duration::from_secs(8);
/// How long the solver improves a solution on boards past 4×4, where the engine's optimal
/// methods would need tables too large for a phone (or no optimal method exists).
pub const IMPROVE_TIME: Duration = Duration::from_secs(2);

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
    task: Background<Result<Solution, SolveError>>,
    /// When it started.
    pub started: Instant,
    /// Why it runs.
    pub purpose: Purpose,
    /// Where the game stood when it was asked: its answer is for that board only.
    position: Position,
    tables: Arc<Mutex<TableProgress>>,
}

impl Job {
    fn progress(&self) -> std::sync::MutexGuard<'_, TableProgress> {
        lock(&self.tables)
    }

    /// What the job is doing now, for the HUD: the tables' build, or the search.
    pub fn stage(&self) -> JobStage {
        self.progress().stage()
    }

    /// The HUD's line for this job; the search's seconds count from when its tables were
    /// ready.
    pub fn words(&self) -> String {
        let progress = self.progress();
        let since = progress.ready.unwrap_or(self.started);
        progress.stage().words(self.purpose, since.elapsed())
    }
}

/// The search in progress, if any.
#[derive(Resource, Default)]
pub struct SolverJob(pub Option<Job>);

/// A hint on show: where the game stood when it was found, its move, and the tile it slides.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct HintShown(pub Option<Hint>);

/// One hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hint {
    /// Where the game stood.
    pub position: Position,
    /// The blank move to make.
    pub mv: Move,
    /// The tile it slides.
    pub tile: u8,
}

impl Hint {
    /// The hint in words: "Hint: tile 7, left."
    pub fn words(&self) -> String {
        crate::words::hint_text(self.tile, self.mv)
    }
}

impl HintShown {
    /// The hinted move if the game still stands where it was found.
    pub fn at(&self, position: Position) -> Option<Move> {
        self.0
            .filter(|hint| hint.position == position)
            .map(|hint| hint.mv)
    }

    /// The tile the hint slides: the hint goes when the game leaves the board it was found
    /// for (told by `GameChanged`), so a view needs no position to compare.
    pub fn tile(&self) -> Option<u8> {
        self.0.map(|hint| hint.tile)
    }

    /// Whether a hint is on show.
    pub fn shown(&self) -> bool {
        self.0.is_some()
    }
}

/// The best line the app knows from the board on show: a solution found for it (by Solve or
/// Hint), or the rest of one the game has followed since. Dropped when the game leaves it.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct KnownLine(pub Option<Line>);

/// A line of moves from the board at a position to the goal.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Where the game stood when the line starts.
    pub position: Position,
    /// The moves to the goal.
    pub moves: Vec<Move>,
    /// Whether it is proved shortest (the rest of a shortest line is shortest too).
    pub optimal: bool,
    /// How it was found, for the curious.
    pub details: Option<String>,
}

impl Line {
    /// What the player reads of this line, for a Solve or a Hint.
    fn status(&self, purpose: Purpose) -> Status {
        Status {
            text: line_words(purpose, self.moves.len(), self.optimal),
            details: self.details.clone(),
        }
    }
}

impl KnownLine {
    /// The line from the board at `position`, if one is known.
    pub fn at(&self, position: Position) -> Option<&Line> {
        self.0.as_ref().filter(|line| line.position == position)
    }

    /// The game made these moves and now stands at `position`: the line goes on if they were
    /// its first moves, else it is dropped.
    fn follow(&mut self, made: &[Move], position: Position) {
        let Some(line) = self.0.as_mut() else {
            return;
        };
        if line.moves.starts_with(made) {
            line.moves.drain(..made.len());
            line.position = position;
        } else {
            self.0 = None;
        }
    }
}

/// What the solver last said about the board on show, for the HUD: the player's words, and
/// the details for the curious (the method). Cleared when the board moves on.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct SolverStatus(pub Option<Status>);

/// One thing the solver said.
#[derive(Debug, Clone, PartialEq)]
pub struct Status {
    /// What the player reads.
    pub text: String,
    /// How it was found, one tap away.
    pub details: Option<String>,
}

impl Status {
    fn says(text: impl Into<String>) -> Status {
        Status {
            text: text.into(),
            details: None,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SolverJob>()
        .init_resource::<Playback>()
        .init_resource::<HintShown>()
        .init_resource::<KnownLine>()
        .init_resource::<SolverStatus>()
        .add_systems(
            Update,
            (handle_commands, poll_job, playback::play_solution)
                .chain()
                .in_set(DecideStep::Solver),
        )
        .add_systems(Update, follow_the_game.in_set(AppSet::React))
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// A solution playing moves, and so does a search's progress.
fn report_motion(
    job: Res<SolverJob>,
    playback: Res<Playback>,
    mut frames: MessageWriter<FrameRequest>,
) {
    if job.0.is_some() || playback.playing() {
        frames.write(FrameRequest::Moving);
    }
}

/// Whether the engine proves shortest solutions on this board with a pattern database the
/// app builds (4×4, 3×4, 4×3); larger boards get the best solution found in a moment, so no
/// 5×5 table (255 MB, minutes to build) is ever built on a player's device.
fn uses_tables(board: &Board) -> bool {
    proves_shortest(board.shape()) && npuzzle::default_algorithm(board) == Algorithm::IdaStar
}

/// Whether the app proves its solutions shortest on boards of this shape: up to 16 cells, with
/// A* or IDA* and the tables it builds; on larger ones it gives the best found in a moment.
pub fn proves_shortest(shape: Shape) -> bool {
    shape.cells() <= 16
}

/// How long the search may take: the purpose's limit for boards solved optimally, a moment
/// of improvement on larger ones.
fn time_limit(purpose: Purpose, board: &Board) -> Duration {
    if !proves_shortest(board.shape()) {
        IMPROVE_TIME
    } else {
        match purpose {
            Purpose::Solve => SOLVE_TIME,
            Purpose::Hint => HINT_TIME,
        }
    }
}

/// The engine's options, reporting table events to `tables` and stopping on `cancel`.
fn options_for(board: &Board, cancel: &CancelFlag, tables: &Arc<Mutex<TableProgress>>) -> Options {
    let events = Arc::clone(tables);
    let progress = Progress::new(move |event| {
        if let ProgressEvent::Table(event) = event {
            lock(&events).apply(event);
        }
    });
    crate::app::engine_setup::options(board.shape(), cancel).with_progress(progress)
}

/// Loads or builds the pattern database first, with no deadline (only Cancel stops it): its
/// first build takes longer than a Hint may think, and a build cut short is lost. The HUD
/// shows its progress. Other errors are left for the search to meet and report.
fn prepare_tables(
    board: &Board,
    options: &Options,
    progress: &Mutex<TableProgress>,
) -> Result<(), SolveError> {
    if uses_tables(board) {
        lock(progress).start_loading();
        // The build runs on the current rayon pool: one a core short of the machine.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(crate::app::engine_setup::threads())
            .build();
        let tables = match &pool {
            Ok(pool) => pool.install(|| npuzzle::pattern_database(board, options)),
            Err(_) => npuzzle::pattern_database(board, options),
        };
        if let Err(PdbError::Stopped(reason)) = tables {
            return Err(SolveError::GaveUp(GaveUp::stopped(reason)));
        }
    }
    lock(progress).finish();
    Ok(())
}

fn start(purpose: Purpose, board: &Board, position: Position) -> Job {
    let cancel = CancelFlag::new();
    let limit = time_limit(purpose, board);
    let tables = Arc::new(Mutex::new(TableProgress::for_board(board)));
    let mut options = options_for(board, &cancel, &tables);
    let (owned, progress) = (board.clone(), Arc::clone(&tables));
    let task = Background::cancellable("solver", &cancel, move || {
        prepare_tables(&owned, &options, &progress)?;
        // The time limit starts once the tables are ready (the engine keeps them in memory).
        // The engine answers with the shortest solution it can prove in that time, else the
        // best it found, labelled as such.
        options.budget = options.budget.with_time_limit(limit);
        solve(&owned, &options)
    });
    Job {
        task,
        started: Instant::now(),
        purpose,
        position,
        tables,
    }
}

/// Everything the solver's commands change.
#[derive(bevy::ecs::system::SystemParam)]
struct SolverState<'w> {
    job: ResMut<'w, SolverJob>,
    playback: ResMut<'w, Playback>,
    hint: ResMut<'w, HintShown>,
    known: ResMut<'w, KnownLine>,
    status: ResMut<'w, SolverStatus>,
}

impl SolverState<'_> {
    /// Solve or Hint on the board on show: from the line known for it, else by a search.
    fn help(
        &mut self,
        purpose: Purpose,
        current: &CurrentGame,
        game: &mut MessageWriter<GameCommand>,
    ) {
        let position = current.position;
        if let Some(line) = self.known.at(position).cloned() {
            self.status.0 = Some(line.status(purpose));
            game.write(GameCommand::Helped);
            self.take_line(purpose, &line.moves, current);
            return;
        }
        self.playback.stop();
        // Replacing a running job drops it, which cancels it.
        self.job.0 = Some(start(purpose, current.game.board(), position));
        self.status.0 = None;
    }

    /// A line for the board on show plays (Solve), or its first move shows (Hint).
    fn take_line(&mut self, purpose: Purpose, moves: &[Move], current: &CurrentGame) {
        match purpose {
            Purpose::Solve => self.playback.start(moves),
            Purpose::Hint => {
                let board = current.game.board();
                self.hint.0 = moves.first().and_then(|&mv| {
                    let tile = board.tile_moved_by(mv)?;
                    let position = current.position;
                    Some(Hint { position, mv, tile })
                });
                // The status names the move first: "Hint: tile 7, left. From a 15-move…".
                if let (Some(hint), Some(status)) = (self.hint.0, self.status.0.as_mut()) {
                    status.text = format!("{} {}", hint.words(), status.text);
                }
            }
        }
    }
}

fn handle_commands(
    mut commands: MessageReader<SolverCommand>,
    mut state: SolverState,
    current: Res<CurrentGame>,
    mut game_commands: MessageWriter<GameCommand>,
) {
    for command in commands.read() {
        match command {
            SolverCommand::Solve | SolverCommand::Hint if current.game.is_won() => {
                state.status.0 = Some(Status::says("The board is already solved."));
            }
            SolverCommand::Hint if state.hint.at(current.position).is_some() => {
                // The second tap plays the hinted move.
                if let Some(hint) = state.hint.0.take() {
                    game_commands.write(GameCommand::AppMove(hint.mv));
                    state.status.0 = Some(Status::says(HINT_PLAYED));
                }
            }
            SolverCommand::Solve => state.help(Purpose::Solve, &current, &mut game_commands),
            SolverCommand::Hint => state.help(Purpose::Hint, &current, &mut game_commands),
            SolverCommand::Cancel => {
                if state.job.0.take().is_some() {
                    state.status.0 = Some(Status::says("Cancelled."));
                }
            }
            SolverCommand::TogglePause => state.playback.toggle_pause(),
            SolverCommand::Play(moves) => state.playback.start(moves),
            SolverCommand::Stop => {
                state.playback.stop();
                state.status.0 = Some(Status::says("Solution stopped."));
            }
        }
    }
}

/// What the status says once a hint's move is played: "Tap Hint again" would be stale.
const HINT_PLAYED: &str = "Hint played. Tap Hint for the next move.";

/// How a solution was found, for the curious player who asks: the method in words, the
/// time, the positions looked at (where the method counts them) and the proven bound.
fn how_found(solution: &Solution) -> String {
    let method = match solution.algorithm {
        Algorithm::AStar => "A* search",
        Algorithm::Greedy => "a greedy search",
        Algorithm::IdaStar => "IDA* search with pattern databases",
        Algorithm::Fast => "solving row by row and column by column",
        Algorithm::Anytime => "solving row by row, then improving the solution",
    };
    let mut words = format!(
        "Found by {method} ({}) in {:.2} s",
        solution.algorithm, solution.seconds
    );
    if solution.nodes_expanded > 0 {
        let looked = solution.nodes_expanded;
        words += &format!(", after looking at {looked} positions");
    }
    if solution.optimal {
        words += ". No solution is shorter.";
    } else {
        let bound = moves_text(solution.lower_bound);
        words += &format!(". Every solution takes at least {bound}.");
    }
    words
}

/// What the player reads about a finished search.
pub fn describe(result: &Result<Solution, SolveError>, purpose: Purpose) -> Status {
    match result {
        Ok(solution) => Status {
            text: line_words(purpose, solution.moves.len(), solution.optimal),
            details: Some(how_found(solution)),
        },
        Err(SolveError::GaveUp(gave_up)) if gave_up.reason == StopReason::Cancelled => {
            Status::says("Cancelled.")
        }
        Err(SolveError::GaveUp(gave_up)) => Status {
            text: "The solver ran out of time without a solution; try again, or try a hint.".into(),
            details: Some(format!("It {gave_up}.")),
        },
        // Unsolvable, and whatever else the engine may report, in its own words.
        Err(other) => Status {
            text: "This board has no solution.".into(),
            details: Some(format!("{other}.")),
        },
    }
}

/// What the player reads of a line of `length` moves, for a Solve or a Hint.
fn line_words(purpose: Purpose, length: usize, optimal: bool) -> String {
    let quality = if optimal {
        "the shortest possible"
    } else {
        "not guaranteed shortest"
    };
    match purpose {
        Purpose::Solve => format!("Solution: {}, {quality}.", moves_text(length)),
        Purpose::Hint => format!(
            "From {} solution ({quality}). Tap Play it to make the move.",
            a_moves(length)
        ),
    }
}

/// Takes a finished search's answer: the solution plays, or the hint shows; either way the
/// game is marked as helped.
fn poll_job(
    mut state: SolverState,
    current: Res<CurrentGame>,
    mut game_commands: MessageWriter<GameCommand>,
) {
    let Some(running) = state.job.0.as_mut() else {
        return;
    };
    let Some(result) = running.task.poll() else {
        if running.task.is_lost() {
            state.job.0 = None;
            state.status.0 = Some(Status::says("The solver stopped unexpectedly; ask again."));
        }
        return;
    };
    let Some(done) = state.job.0.take() else {
        return;
    };
    if done.position != current.position {
        state.status.0 = Some(Status::says(
            "The board changed while the solver was thinking; ask again.",
        ));
        return;
    }
    let status = describe(&result, done.purpose);
    state.status.0 = Some(status.clone());
    let Ok(solution) = result else {
        return;
    };
    game_commands.write(GameCommand::Helped);
    state.take_line(done.purpose, &solution.moves, &current);
    state.known.0 = Some(Line {
        position: done.position,
        moves: solution.moves,
        optimal: solution.optimal,
        details: status.details,
    });
}

/// What the game's changes mean for the help: the player's move (or undo) stops the playback
/// and the status goes; a new board cancels the search; the known line goes on while the game
/// follows it; the hint belongs to the board it was about.
fn follow_the_game(mut changes: MessageReader<GameChanged>, mut state: SolverState) {
    for changed in changes.read() {
        match &changed.change {
            Change::Slid { steps, by_app, .. } => {
                if !by_app {
                    state.playback.stop();
                    state.status.0 = None;
                }
                let made: Vec<Move> = steps.iter().map(|step| step.mv).collect();
                state.known.follow(&made, changed.position);
            }
            Change::Reset(..) => {
                state.playback.stop();
                state.job.0 = None;
                state.status.0 = None;
                state.known.0 = None;
            }
            Change::Won(_) => state.status.0 = None,
            Change::Bumped(_) | Change::Helped | Change::Left(_) => {}
        }
        if state.hint.0.is_some() && state.hint.at(changed.position).is_none() {
            state.hint.0 = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::{Budget, parse_board};

    #[test]
    fn shortest_is_promised_up_to_4x4_and_a_small_board_s_solution_is_proved_so() {
        for (width, height, proved) in [(3, 3, true), (3, 4, true), (4, 4, true), (4, 5, false)] {
            let shape = Shape::new(width, height).unwrap();
            assert_eq!(proves_shortest(shape), proved, "{shape}");
        }
        let board = parse_board("8 6 7 / 2 5 4 / 3 0 1").unwrap();
        assert!(solve(&board, &Options::default()).unwrap().optimal);
        let big = npuzzle::random::random_solvable(Shape::new(5, 5).unwrap(), 3);
        let fast = solve(&big, &Options::default().with_fast()).unwrap();
        assert!(!fast.optimal, "a 5x5 is not proved shortest in a moment");
    }

    #[test]
    fn the_words_say_whether_a_solution_is_shortest_in_the_players_language() {
        let board = parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap();
        let mut solution = solve(&board, &Options::default()).unwrap();
        assert!(solution.optimal);
        let status = describe(&Ok(solution.clone()), Purpose::Solve);
        assert_eq!(status.text, "Solution: 2 moves, the shortest possible.");
        // The method is one tap away, not on the main screen.
        assert!(!status.text.contains(&solution.algorithm.to_string()));
        assert!(
            status
                .details
                .unwrap()
                .contains(&solution.algorithm.to_string())
        );
        solution.optimal = false;
        let words = describe(&Ok(solution.clone()), Purpose::Hint).text;
        assert!(words.contains("not guaranteed shortest"), "{words}");
        assert!(words.starts_with("From a 2-move solution"), "{words}");
        let details = describe(&Ok(solution.clone()), Purpose::Solve)
            .details
            .unwrap();
        assert!(details.contains("at least"), "{details}");
        // A method that counts no positions does not say it looked at none.
        solution.nodes_expanded = 0;
        let details = describe(&Ok(solution), Purpose::Solve).details.unwrap();
        assert!(!details.contains("positions"), "{details}");
    }

    #[test]
    fn a_known_line_goes_on_while_the_game_follows_it() {
        let line = |position, moves: &[Move]| Line {
            position: Position(position),
            moves: moves.to_vec(),
            optimal: true,
            details: None,
        };
        let mut known = KnownLine(Some(line(4, &[Move::Up, Move::Left, Move::Down])));
        known.follow(&[Move::Up], Position(5));
        let rest = line(5, &[Move::Left, Move::Down]);
        assert_eq!(known.at(Position(5)), Some(&rest));
        assert_eq!(known.at(Position(4)), None);
        assert_eq!(
            rest.status(Purpose::Hint).text,
            "From a 2-move solution (the shortest possible). Tap Play it to make the move."
        );
        known.follow(&[Move::Right], Position(6));
        assert_eq!(known.0, None, "a move off the line drops it");
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
        assert_eq!(describe(&result, Purpose::Solve).text, "Cancelled.");
        let unsolvable = parse_board("2 1 3 / 4 5 6 / 7 8 0").unwrap();
        let status = describe(&solve(&unsolvable, &Options::default()), Purpose::Hint);
        assert!(
            status.text.starts_with("This board has no solution"),
            "{status:?}"
        );
        assert!(status.details.unwrap().contains("unsolvable"));
    }
}
