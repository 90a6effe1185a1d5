//! Solve and Hint: the engine runs on the `AsyncComputeTaskPool` with a cancel flag, so the
//! frame never waits; a solution then plays move by move at an adjustable speed.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use npuzzle::{
    Algorithm, Board, Budget, CancelFlag, GaveUp, Move, Options, Partition, PdbError, PdbEvent,
    Progress, Solution, SolveError, solve,
};

use crate::AppSet;
use crate::play::{Animating, CurrentGame, GameChanged, GameCommand, Settings};

/// How long a Solve may think before it settles for what the engine has.
pub const SOLVE_TIME: Duration = Duration::from_secs(20);
/// How long a Hint may think.
pub const HINT_TIME: Duration = Duration::from_secs(8);
/// How long the anytime solver improves a solution on boards past 4×4, where the engine's
/// optimal methods would need tables too large for a phone (or no optimal method exists).
pub const IMPROVE_TIME: Duration = Duration::from_secs(2);
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
    tables: Arc<Mutex<TableProgress>>,
}

impl Job {
    /// What the job is doing now, for the HUD: the tables' build, or the search.
    pub fn stage(&self) -> Stage {
        self.tables
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .stage()
    }

    /// The HUD's line for this job; the search's seconds count from when its tables were
    /// ready.
    pub fn words(&self) -> String {
        let progress = self
            .tables
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let since = progress.ready.unwrap_or(self.started);
        progress.stage().words(self.purpose, since.elapsed())
    }
}

/// What a solver job is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stage {
    /// Searching (or about to).
    Thinking,
    /// Reading the pattern database from the disk cache.
    LoadingTables,
    /// Building the pattern database (only the first time on this computer): the fraction
    /// done, from 0 to 1.
    BuildingTables(f32),
}

impl Stage {
    /// The words the HUD shows for this stage; `elapsed` is the time the search has taken.
    pub fn words(self, purpose: Purpose, elapsed: Duration) -> String {
        match self {
            Stage::BuildingTables(fraction) => format!(
                "Preparing the solver's tables (first time only): {:.0} %",
                (fraction * 100.0).floor()
            ),
            Stage::LoadingTables => "Loading the solver's tables…".into(),
            Stage::Thinking => {
                let what = match purpose {
                    Purpose::Solve => "Solving",
                    Purpose::Hint => "Finding a hint",
                };
                format!("{what}: thinking… {:.0} s", elapsed.as_secs_f32().floor())
            }
        }
    }
}

/// Follows the engine's [`PdbEvent`]s while it loads or builds a pattern database, and says
/// how far along it is. Plain Rust: the solver's task feeds it through a mutex, the HUD reads
/// [`TableProgress::stage`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableProgress {
    /// Each pattern's share of the whole build (its states: placements × free cells), by
    /// pattern index; empty when the partition is not known ahead.
    weights: Vec<f64>,
    /// Each pattern's fraction done.
    done: Vec<f64>,
    loading: bool,
    building: bool,
    /// When the tables were ready and the search began.
    ready: Option<Instant>,
}

impl TableProgress {
    /// Progress for the database the engine picks for `board` by default (none for boards
    /// solved without one).
    pub fn for_board(board: &Board) -> TableProgress {
        let shape = board.shape();
        let weights = Partition::default_for(shape)
            .map(|partition| {
                partition
                    .patterns()
                    .iter()
                    .map(|p| states(shape.cells(), p.len()))
                    .collect()
            })
            .unwrap_or_default();
        TableProgress {
            weights,
            ..TableProgress::default()
        }
    }

    /// Takes in one event from the engine.
    pub fn apply(&mut self, event: &PdbEvent) {
        match event {
            PdbEvent::Rebuilding { .. } => {
                self.loading = false;
                self.building = true;
            }
            PdbEvent::BuildStarted {
                pattern, entries, ..
            } => {
                self.building = true;
                self.loading = false;
                self.grow(*pattern);
                // A partition not known ahead: weigh the patterns by their entries.
                if self.weights[*pattern] == 0.0 {
                    self.weights[*pattern] = *entries as f64;
                }
            }
            PdbEvent::BuildProgress {
                pattern,
                done,
                total,
            } => {
                self.building = true;
                self.grow(*pattern);
                if *total > 0 {
                    let fraction = (*done as f64 / *total as f64).clamp(0.0, 1.0);
                    self.done[*pattern] = self.done[*pattern].max(fraction);
                }
            }
            PdbEvent::BuildFinished { pattern, .. } => {
                self.grow(*pattern);
                self.done[*pattern] = 1.0;
            }
            PdbEvent::Loaded { .. } | PdbEvent::Saved { .. } | PdbEvent::SaveFailed { .. } => {
                self.loading = false;
                self.building = false;
            }
        }
    }

    /// Marks the start of a load (before the first event, which comes only once it is over).
    pub fn start_loading(&mut self) {
        self.loading = true;
    }

    /// The tables are ready (or not needed): the search runs.
    pub fn finish(&mut self) {
        self.loading = false;
        self.building = false;
        self.ready = Some(Instant::now());
    }

    /// What the job is doing.
    pub fn stage(&self) -> Stage {
        if self.building {
            Stage::BuildingTables(self.fraction() as f32)
        } else if self.loading {
            Stage::LoadingTables
        } else {
            Stage::Thinking
        }
    }

    /// The whole build's fraction done, the patterns weighed by their states; just under 1
    /// until the last table is saved.
    pub fn fraction(&self) -> f64 {
        let total: f64 = self.weights.iter().sum();
        if total <= 0.0 {
            return 0.0;
        }
        let done: f64 = self
            .weights
            .iter()
            .zip(self.done.iter().chain(std::iter::repeat(&0.0)))
            .map(|(w, d)| w * d)
            .sum();
        (done / total).clamp(0.0, 0.99)
    }

    fn grow(&mut self, pattern: usize) {
        if self.weights.len() <= pattern {
            self.weights.resize(pattern + 1, 0.0);
        }
        if self.done.len() < self.weights.len() {
            self.done.resize(self.weights.len(), 0.0);
        }
    }
}

/// The states a pattern's build goes through: its placements times the free cells.
fn states(cells: usize, tiles: usize) -> f64 {
    let placements: f64 = (0..tiles).map(|i| cells.saturating_sub(i) as f64).product();
    placements * cells.saturating_sub(tiles) as f64
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

/// Where the solver's pattern databases are cached: the engine's folder
/// (`$XDG_CACHE_HOME/npuzzle`, else `~/.cache/npuzzle`), which the `npuzzle` command shares,
/// else the platform's cache folder for the app (Windows has no `HOME`); `None` builds them in
/// memory each run.
pub fn tables_dir() -> Option<PathBuf> {
    npuzzle::pdb::default_dir().or_else(|| {
        directories::ProjectDirs::from("org", "Snapslide", "snapslide")
            .map(|dirs| dirs.cache_dir().join("npuzzle"))
    })
}

// The engine's `Options` keeps gaining fields; only some are set here.
#[allow(clippy::field_reassign_with_default)]
fn start(purpose: Purpose, board: &Board) -> Job {
    let cancel = CancelFlag::new();
    let limit = match purpose {
        Purpose::Solve => SOLVE_TIME,
        Purpose::Hint => HINT_TIME,
    };
    let tables = Arc::new(Mutex::new(TableProgress::for_board(board)));
    // The engine picks its best method for boards up to 4×4 (`algorithm: None`); past that,
    // a solution improved for a moment, so that no 5×5 pattern database (255 MB, minutes to
    // build) is ever built on a player's device.
    let mut options = Options::default();
    if board.tiles().len() > 16 {
        options.algorithm = Some(Algorithm::Anytime);
        options.time = Some(IMPROVE_TIME.min(limit));
    }
    let events = Arc::clone(&tables);
    options.progress = Some(Progress::new(move |event| {
        events
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .apply(event);
    }));
    options.pdb_dir = tables_dir();
    // Leave a core for the frame: the solver must never make the game stutter.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores.saturating_sub(1).max(1);
    options.threads = Some(threads);
    let owned = board.clone();
    let progress = Arc::clone(&tables);
    let task_cancel = cancel.clone();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        let set_stage = |f: fn(&mut TableProgress)| {
            f(&mut progress
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()))
        };
        // The pattern database first, with no deadline (only Cancel stops it): its first
        // build takes longer than a Hint may think, and a build cut short is lost, so it
        // would never reach the cache. The HUD shows its progress.
        if options.algorithm.is_none() && npuzzle::default_algorithm(&owned) == Algorithm::IdaStar {
            set_stage(TableProgress::start_loading);
            let mut prepare = options.clone();
            prepare.budget = Budget::default().with_cancel(task_cancel.clone());
            // The build runs on the current rayon pool: one a core short of the machine.
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
            let tables = match &pool {
                Ok(pool) => pool.install(|| npuzzle::pattern_database(&owned, &prepare)),
                Err(_) => npuzzle::pattern_database(&owned, &prepare),
            };
            set_stage(TableProgress::finish);
            if let Err(PdbError::Stopped(reason)) = tables {
                return Err(SolveError::GaveUp(GaveUp {
                    reason,
                    nodes_expanded: 0,
                    seconds: 0.0,
                    memory: 0,
                    lower_bound: 0,
                }));
            }
            // Any other error: the search below meets it again and reports it.
        }
        // The time limit starts once the tables are ready (the engine keeps them in memory).
        options.budget = Budget::default()
            .with_time_limit(limit)
            .with_cancel(task_cancel);
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
        tables,
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
    fn table_events_become_the_words_and_percentage_the_hud_shows() {
        let board = npuzzle::random::shuffled(npuzzle::Shape::new(4, 4).unwrap(), 40, 1);
        let mut progress = TableProgress::for_board(&board);
        let words = |p: &TableProgress| p.stage().words(Purpose::Solve, Duration::from_secs(3));
        assert_eq!(words(&progress), "Solving: thinking… 3 s");
        progress.start_loading();
        assert_eq!(progress.stage(), Stage::LoadingTables);
        progress.apply(&PdbEvent::Rebuilding {
            path: "4x4-6-6-3.pdb".into(),
            reason: "no cached file yet".into(),
        });
        assert_eq!(
            words(&progress),
            "Preparing the solver's tables (first time only): 0 %"
        );
        // 6-6-3: the two 6-tile patterns are almost all of the work, half each.
        let six = 16 * 15 * 14 * 13 * 12 * 11;
        progress.apply(&PdbEvent::BuildStarted {
            pattern: 0,
            tiles: vec![1, 5, 6, 9, 10, 13],
            entries: six,
        });
        progress.apply(&PdbEvent::BuildProgress {
            pattern: 0,
            done: six / 2,
            total: six,
        });
        assert_eq!(
            words(&progress),
            "Preparing the solver's tables (first time only): 24 %"
        );
        progress.apply(&PdbEvent::BuildFinished {
            pattern: 0,
            seconds: 9.0,
            bytes: six / 2,
        });
        progress.apply(&PdbEvent::BuildProgress {
            pattern: 1,
            done: six * 9 / 10,
            total: six,
        });
        assert_eq!(
            words(&progress),
            "Preparing the solver's tables (first time only): 94 %"
        );
        // Never 100 % before the tables are saved.
        progress.apply(&PdbEvent::BuildFinished {
            pattern: 1,
            seconds: 9.0,
            bytes: six / 2,
        });
        progress.apply(&PdbEvent::BuildFinished {
            pattern: 2,
            seconds: 0.0,
            bytes: 1680,
        });
        assert_eq!(
            words(&progress),
            "Preparing the solver's tables (first time only): 99 %"
        );
        progress.apply(&PdbEvent::Saved {
            path: "4x4-6-6-3.pdb".into(),
            bytes: six + 1680,
        });
        assert_eq!(progress.stage(), Stage::Thinking);
        assert_eq!(
            Stage::Thinking.words(Purpose::Hint, Duration::from_millis(12_700)),
            "Finding a hint: thinking… 12 s"
        );
        // A cached file: "Loading", then thinking.
        let mut cached = TableProgress::for_board(&board);
        cached.start_loading();
        assert_eq!(words(&cached), "Loading the solver's tables…");
        cached.apply(&PdbEvent::Loaded {
            path: "4x4-6-6-3.pdb".into(),
            bytes: six + 1680,
            seconds: 0.01,
        });
        assert_eq!(cached.stage(), Stage::Thinking);
    }

    #[test]
    fn a_partition_not_known_ahead_is_weighed_as_it_comes() {
        // 3×3 has no default partition: the events alone give the weights.
        let board = parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap();
        let mut progress = TableProgress::for_board(&board);
        progress.apply(&PdbEvent::BuildStarted {
            pattern: 0,
            tiles: vec![1, 2, 3, 4],
            entries: 3024,
        });
        progress.apply(&PdbEvent::BuildProgress {
            pattern: 0,
            done: 756,
            total: 3024,
        });
        assert_eq!(progress.stage(), Stage::BuildingTables(0.25));
    }

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
