//! Making new games: the session's board at the settings' difficulty (an exact shortest distance up to
//! 4×4, found by the engine in the background, with "Finding a puzzle…" and Cancel when it
//! takes a moment), or the puzzle of the day. The game starts when its board is ready.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use npuzzle::generate::GenerateError;
use npuzzle::{CancelFlag, Shape};

use crate::app::background::Background;
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::frame::DecideStep;
use crate::game::{
    DAILY_DISTANCE, DailyPuzzle, Game, GameKind, Recipe, clock_seed, make_board, today,
};
use crate::messages::{BoardReplacing, CancelNewGame, GameCommand, NewGame, Notice};
use crate::photo::DAILY_PHOTOS;
use crate::play::session::Session;
use crate::play::settings::Settings;

/// How long a board may take before the HUD says it is being looked for.
pub const SHOW_AFTER: Duration = Duration::from_millis(300);

/// A board being made in the background.
pub struct Making {
    task: Background<Result<Game, GenerateError>>,
    /// When it started.
    pub started: Instant,
}

/// The new game being made, if any; dropping it cancels it.
#[derive(Resource, Default)]
pub struct NewGameJob(pub Option<Making>);

impl NewGameJob {
    /// Whether a new game is being made: the board on screen is about to be replaced.
    pub fn making(&self) -> bool {
        self.0.is_some()
    }

    /// Whether the HUD should say a puzzle is being looked for.
    pub fn showing(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|making| making.started.elapsed() >= SHOW_AFTER)
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<NewGameJob>()
        .add_systems(
            Update,
            (start_making, finish_making, tell_replacing)
                .chain()
                .in_set(DecideStep::NewGame),
        )
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// A board being made: its spinner moves.
fn report_motion(job: Res<NewGameJob>, mut frames: MessageWriter<FrameRequest>) {
    if job.making() {
        frames.write(FrameRequest::Moving);
    }
}

/// Tells the board's owners when a new game starts being made and when it no longer is.
fn tell_replacing(
    job: Res<NewGameJob>,
    mut said: Local<bool>,
    mut out: MessageWriter<BoardReplacing>,
) {
    if *said != job.making() {
        *said = job.making();
        out.write(BoardReplacing(*said));
    }
}

/// What a new game is made from: the shape, what kind of game, how, and the seed (and for a
/// leg of a run, the clock so far).
struct Order {
    shape: Shape,
    kind: GameKind,
    recipe: Recipe,
    seed: u64,
    elapsed: Duration,
}

fn order(request: NewGame, settings: &Settings, session: &Session) -> Option<Order> {
    match request {
        NewGame::Settings { seed } => {
            let (width, height) = session.board;
            let shape = Shape::new(width, height).ok()?;
            Some(Order {
                shape,
                kind: settings.difficulty.into(),
                recipe: settings.difficulty.recipe(shape),
                seed: seed.unwrap_or_else(clock_seed),
                elapsed: Duration::ZERO,
            })
        }
        NewGame::Daily => {
            let puzzle = DailyPuzzle::of(today(), DAILY_PHOTOS.len());
            Some(Order {
                shape: DailyPuzzle::shape(),
                kind: GameKind::Daily(puzzle.day),
                recipe: Recipe::Exact(DAILY_DISTANCE),
                seed: puzzle.seed,
                elapsed: Duration::ZERO,
            })
        }
        // Speedsolvers' events scramble with random states only.
        NewGame::Leg { run, elapsed_ms } => {
            let (width, height) = run.shape();
            Some(Order {
                shape: Shape::new(width, height).ok()?,
                kind: GameKind::Event(run),
                recipe: Recipe::Uniform,
                seed: clock_seed(),
                elapsed: Duration::from_millis(elapsed_ms),
            })
        }
    }
}

/// Makes the game an order asks for (in the background: it may search).
fn make_game(order: &Order, options: &npuzzle::Options) -> Result<Game, GenerateError> {
    let board = make_board(order.shape, order.recipe, order.seed, options)?;
    let kind = order.kind.clone();
    if let GameKind::Event(run) = kind {
        return Ok(Game::leg(board, run, order.elapsed));
    }
    Ok(match order.recipe {
        Recipe::Exact(moves) => Game::with_shortest(board, kind, moves),
        _ => Game::new(board, kind),
    })
}

fn start_making(
    mut requests: MessageReader<NewGame>,
    mut cancels: MessageReader<CancelNewGame>,
    settings: Res<Settings>,
    session: Res<Session>,
    mut job: ResMut<NewGameJob>,
) {
    if cancels.read().count() > 0 {
        // Dropping the task cancels it.
        job.0 = None;
    }
    let Some(&request) = requests.read().last() else {
        return;
    };
    let Some(order) = order(request, &settings, &session) else {
        return;
    };
    let cancel = CancelFlag::new();
    let options = crate::app::engine_setup::options(order.shape, &cancel);
    let task = Background::cancellable("new-game", &cancel, move || make_game(&order, &options));
    // A new request replaces the one before (dropping it cancels it).
    job.0 = Some(Making {
        task,
        started: Instant::now(),
    });
}

fn finish_making(
    mut job: ResMut<NewGameJob>,
    mut commands: MessageWriter<GameCommand>,
    mut notices: MessageWriter<Notice>,
) {
    let Some(making) = job.0.as_mut() else {
        return;
    };
    let Some(made) = making.task.poll() else {
        if making.task.is_lost() {
            job.0 = None;
            notices.write(Notice("Could not make a new puzzle.".into()));
        }
        return;
    };
    info!(
        "new game made in {:.0} ms",
        making.started.elapsed().as_secs_f64() * 1000.0
    );
    job.0 = None;
    match made {
        Ok(game) => {
            commands.write(GameCommand::Start(Box::new(game)));
        }
        Err(GenerateError::Solve(npuzzle::SolveError::GaveUp(gave_up)))
            if gave_up.reason == npuzzle::StopReason::Cancelled => {}
        Err(error) => {
            notices.write(Notice(format!("Could not make a new puzzle: {error}")));
        }
    }
}
