//! The game in the app: board intents and commands join one queue and are executed on the
//! [`Game`] in order; each change goes out as a [`GameChanged`] message, with where the game
//! stands after it, for the views, sounds, solver, meter, records and save file.
//!
//! The core owns the pace of play: after a slide it waits [`Pace`] before the next queued
//! action, and tells the view how long that slide is shown. A backlog of input plays out with
//! shorter slides, so fast typing never leaves tiles moving for seconds.

pub mod events;
pub mod input;
pub mod newgame;
pub mod session;
pub mod settings;

use std::collections::VecDeque;

use bevy::prelude::*;
use npuzzle::Shape;

use crate::app::lifecycle::Suspended;
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::frame::AppSet;
use crate::game::{Act, Difficulty, Game, Outcome, Position, Step};
use crate::messages::{
    Began, BoardCovered, BoardIntent, BoardReplacing, Change, GameChanged, GameCommand,
};
use crate::play::settings::Settings;

/// How long one slide is shown when nothing waits behind it, in seconds.
pub const SLIDE_SECONDS: f32 = 0.12;
/// The shortest slide a backlog shrinks to, in seconds.
pub const MIN_SLIDE_SECONDS: f32 = 0.01;
/// The most actions kept waiting; past it the oldest are dropped (a stuck input device).
pub const QUEUE_LIMIT: usize = 4096;

/// The game being played, and where it stands: the one counter of changes of the board on
/// show (see [`Position`]).
#[derive(Resource, Clone, Debug)]
pub struct CurrentGame {
    /// The rules and state.
    pub game: Game,
    /// Where it stands; 0 is the placeholder before the first game.
    pub position: Position,
    /// Where it stood when this game came on the board (its first position).
    pub since: Position,
}

impl Default for CurrentGame {
    /// A board shuffled a little, on show until the first game is made.
    fn default() -> Self {
        let shape = Shape::new(4, 4).expect("4×4 is a board");
        let board = npuzzle::random::shuffled(shape, 16, 1);
        CurrentGame {
            game: Game::new(board, Difficulty::Medium),
            position: Position::default(),
            since: Position::default(),
        }
    }
}

impl CurrentGame {
    /// Whether a game of the player's is on the board (not the placeholder before the first).
    pub fn started(&self) -> bool {
        self.position > Position::default()
    }

    /// A message that the game changed this way, with where it stands now.
    fn changed(&self, change: Change) -> GameChanged {
        GameChanged {
            change,
            position: self.position,
            board: self.game.board().clone(),
            won: self.game.is_won(),
            blindfolded: self.game.blindfolded(),
            clock: self.game.elapsed(),
        }
    }
}

/// Whether a sheet covers the board: the game's clock stops (the HUD says with
/// [`BoardCovered`]).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Covered(pub bool);

impl Covered {
    /// Whether the game's clock counts now: running, and the board in view.
    pub fn counting(self, game: &Game) -> bool {
        game.timer_running() && !self.0
    }
}

/// The time left of the slide on show; queued moves wait until it is over.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct Pace {
    remaining: f32,
}

impl Pace {
    /// Whether a slide is still on show.
    pub fn busy(&self) -> bool {
        self.remaining > 0.0
    }

    /// Starts a slide of this many seconds after whatever is left of the last.
    fn start(&mut self, seconds: f32) {
        self.remaining += seconds;
    }
}

/// How long a slide is shown: [`SLIDE_SECONDS`], shorter when `backlog` actions wait behind
/// it (so a burst of keys plays out quickly) or when a solution plays faster than a slide a
/// move (`playback` in moves per second).
pub fn slide_seconds(backlog: usize, playback: Option<f32>) -> f32 {
    let mut seconds = SLIDE_SECONDS / (1.0 + backlog as f32 / 2.0);
    if let Some(speed) = playback.filter(|s| s.is_finite() && *s > 0.0) {
        seconds = seconds.min(0.8 / speed);
    }
    seconds.max(MIN_SLIDE_SECONDS)
}

/// Board intents and commands waiting for the slide before them.
#[derive(Resource, Default, Debug)]
pub struct ActionQueue(pub VecDeque<Action>);

impl ActionQueue {
    /// Where the game's move counter will stand once the app's moves and the undos and redos
    /// waiting here are made: a review's next step counts from there, so taps faster than the
    /// slides stay on the line.
    pub fn moves_after(&self, game: &Game) -> usize {
        self.0
            .iter()
            .fold(game.moves(), |moves, action| match action {
                Action::Command(GameCommand::AppMove(_) | GameCommand::Redo) => moves + 1,
                Action::Command(GameCommand::Undo) => moves.saturating_sub(1),
                _ => moves,
            })
    }
}

/// One queued action.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Board input from the player.
    Intent(BoardIntent),
    /// A command.
    Command(GameCommand),
}

impl Action {
    /// Whether this is the player's undo or redo, which stops a solution's playback.
    fn takes_over(&self) -> bool {
        matches!(self, Action::Command(GameCommand::Undo | GameCommand::Redo))
    }

    /// Whether this action replaces the board: it never waits, and what waited before it is
    /// dropped.
    fn resets(&self) -> bool {
        matches!(
            self,
            Action::Command(GameCommand::Start(_) | GameCommand::Resume(_) | GameCommand::Restart)
        )
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CurrentGame>()
        .init_resource::<Pace>()
        .init_resource::<Covered>()
        .init_resource::<ActionQueue>()
        .add_systems(Update, enqueue.in_set(AppSet::Queue))
        .add_systems(
            Update,
            (execute, tick_timer).chain().in_set(AppSet::Execute),
        )
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// A slide on show, or moves waiting for it, move; the game's clock ticks.
fn report_motion(
    pace: Res<Pace>,
    queue: Res<ActionQueue>,
    covered: Res<Covered>,
    current: Res<CurrentGame>,
    mut frames: MessageWriter<FrameRequest>,
) {
    if pace.busy() || !queue.0.is_empty() {
        frames.write(FrameRequest::Moving);
    }
    if covered.counting(&current.game) {
        frames.write(FrameRequest::Ticking);
    }
}

fn enqueue(
    mut intents: MessageReader<BoardIntent>,
    mut commands: MessageReader<GameCommand>,
    mut replacings: MessageReader<BoardReplacing>,
    mut replacing: Local<bool>,
    mut queue: ResMut<ActionQueue>,
) {
    // While a new game is being made the board on screen is about to go: a tap on it would
    // move a tile the player never sees again (Cancel keeps the game, and its taps again).
    if let Some(&BoardReplacing(now)) = replacings.read().last() {
        *replacing = now;
    }
    let actions = intents
        .read()
        .filter(|_| !*replacing)
        .map(|intent| Action::Intent(*intent))
        .chain(commands.read().cloned().map(Action::Command));
    // The app's moves were chosen for the board before a reset written in the same frame
    // (a replay's next move as Play this board starts): they are not the new board's.
    let mut reset = false;
    for action in actions {
        if reset && matches!(action, Action::Command(GameCommand::AppMove(_))) {
            continue;
        }
        if action.resets() {
            queue.0.clear();
            reset = true;
        }
        if action.takes_over() {
            // The player takes over from a solution's playback: its moves not yet made go,
            // even one that arrived in the same frame, so an undo undoes what was on screen.
            queue
                .0
                .retain(|a| !matches!(a, Action::Command(GameCommand::AppMove(_))));
        }
        queue.0.push_back(action);
    }
    while queue.0.len() > QUEUE_LIMIT {
        queue.0.pop_front();
    }
}

/// What executing one action did, for the bookkeeping after it.
enum Done {
    /// The board did not change.
    Nothing,
    /// Tiles slid: what they did to the history, the steps, whether the app moved them,
    /// whether the game was won by them.
    Slid(Act, Vec<Step>, bool, bool),
    /// The board changed for another, this way.
    Reset(Began),
    /// The game ended without a move (a blind solve said done).
    Ended,
}

/// Everything `execute` writes besides the game.
#[derive(bevy::ecs::system::SystemParam)]
struct Outputs<'w> {
    changed: MessageWriter<'w, GameChanged>,
    frames: MessageWriter<'w, FrameRequest>,
}

/// Runs the queue on the game: actions that replace the board at once, moves when the slide
/// before them is over (several in a frame when a backlog makes slides shorter than a frame).
fn execute(
    time: Res<Time>,
    settings: Res<Settings>,
    mut queue: ResMut<ActionQueue>,
    mut pace: ResMut<Pace>,
    mut current: ResMut<CurrentGame>,
    mut out: Outputs,
) {
    pace.remaining -= time.delta_secs();
    if !queue.0.is_empty() {
        // The controls were drawn before the game changed: the next frame shows it.
        out.frames.write(FrameRequest::OneMore);
    }
    while let Some(front) = queue.0.front() {
        if pace.busy() && !front.resets() {
            break;
        }
        let Some(action) = queue.0.pop_front() else {
            break;
        };
        let (act, steps, by_app, won) = match run(action, &mut current, &mut out.changed) {
            Done::Nothing => continue,
            Done::Reset(began) => {
                reset(&mut current, began, &mut out);
                pace.remaining = 0.0;
                continue;
            }
            Done::Ended => {
                current.position = current.position.next();
                ended(&mut current, &mut out);
                continue;
            }
            Done::Slid(act, steps, by_app, won) => (act, steps, by_app, won),
        };
        current.position = current.position.next();
        let playback = by_app.then_some(settings.speed);
        // Instant slides (a speedsolver's setting) for the player's moves: nothing holds the
        // next one back. The app's solutions keep their pace, to be watched.
        let instant = settings.instant && !by_app;
        let seconds = if instant {
            0.0
        } else {
            slide_seconds(queue.0.len(), playback)
        };
        pace.start(seconds);
        let slid = Change::Slid {
            act,
            steps,
            by_app,
            seconds,
        };
        out.changed.write(current.changed(slid));
        if won {
            ended(&mut current, &mut out);
        }
    }
    if queue.0.is_empty() {
        pace.remaining = pace.remaining.max(0.0);
    }
}

/// Executes one action on the game.
fn run(
    action: Action,
    current: &mut CurrentGame,
    changed: &mut MessageWriter<GameChanged>,
) -> Done {
    let game = &mut current.game;
    match action {
        Action::Intent(intent) => {
            let cell = match intent {
                BoardIntent::Tap(cell) | BoardIntent::Drag { cell, .. } => Some(cell),
                BoardIntent::Slide(_) | BoardIntent::Hover(_) => None,
            };
            // A review or a replay is a viewer: the board takes the app's moves only.
            let outcome = match intent {
                _ if game.is_viewer() => Outcome::Illegal,
                BoardIntent::Tap(cell) => game.tap(cell),
                BoardIntent::Drag { cell, toward } => game.drag(cell, toward),
                BoardIntent::Slide(mv) => game.apply(&[mv]),
                BoardIntent::Hover(cell) => game.tap(cell),
            };
            // The pointer passing over a tile that cannot move is no bump.
            let hovered = matches!(intent, BoardIntent::Hover(_));
            if outcome == Outcome::Illegal && !game.is_won() && !hovered {
                changed.write(current.changed(Change::Bumped(cell)));
            }
            let act = Act::Played(outcome.moves());
            moved(act, outcome, false)
        }
        Action::Command(GameCommand::Undo) => moved(Act::Undone, game.undo(), false),
        Action::Command(GameCommand::Redo) => moved(Act::Redone, game.redo(), false),
        Action::Command(GameCommand::AppMove(mv)) => {
            let outcome = game.apply(&[mv]);
            if matches!(outcome, Outcome::Moved { .. }) {
                helped(current, changed);
            }
            moved(Act::Played(vec![mv]), outcome, true)
        }
        Action::Command(GameCommand::Helped) => {
            helped(current, changed);
            Done::Nothing
        }
        Action::Command(GameCommand::Declare) => match game.declare() {
            true => Done::Ended,
            false => Done::Nothing,
        },
        Action::Command(GameCommand::Restart) => {
            game.restart();
            Done::Reset(Began::Restarted)
        }
        Action::Command(GameCommand::Start(mut started)) => {
            // A run's next board: its clock ran on while the board was made.
            if game.leads_to(&started) {
                started.go_on_from(game);
            }
            left(current, changed);
            current.game = *started;
            Done::Reset(Began::New)
        }
        Action::Command(GameCommand::Resume(resumed)) => {
            left(current, changed);
            current.game = *resumed;
            Done::Reset(Began::Resumed)
        }
    }
}

/// A game with progress is about to leave the board: said, with the game as it is left.
fn left(current: &CurrentGame, changed: &mut MessageWriter<GameChanged>) {
    if current.game.kept().has_progress() {
        let game = Box::new(current.game.kept().clone());
        changed.write(current.changed(Change::Left(game)));
    }
}

/// The app helped: the game is marked, and said to be the first time (the help counter
/// starts again each time).
fn helped(current: &mut CurrentGame, changed: &mut MessageWriter<GameChanged>) {
    let first = !current.game.helped();
    current.game.mark_helped();
    if first {
        changed.write(current.changed(Change::Helped));
    }
}

/// The game ended (won, or a blind solve said done): said, with the finished game.
fn ended(current: &mut CurrentGame, out: &mut Outputs) {
    let finished = Box::new(current.game.clone());
    out.changed.write(current.changed(Change::Won(finished)));
}

/// What a slide did, if it moved anything.
fn moved(act: Act, outcome: Outcome, by_app: bool) -> Done {
    match outcome {
        Outcome::Moved { steps, won } => Done::Slid(act, steps, by_app, won),
        Outcome::Illegal => Done::Nothing,
    }
}

/// Another board came on: said, with the game and how it came.
fn reset(current: &mut CurrentGame, began: Began, out: &mut Outputs) {
    current.position = current.position.next();
    current.since = current.position;
    let game = Box::new(current.game.clone());
    out.changed
        .write(current.changed(Change::Reset(game, began)));
}

/// Counts a frame's time on the game's clock when the clock counted through the whole frame:
/// a clock that starts this frame (the first move, a sheet closed) starts now, not at the frame
/// before, which may have come many seconds earlier while the app slept. Real time: the app
/// sleeps up to half a minute between frames while nothing moves, and the clock counts all of
/// it (the game's own time, for slides and playback, keeps Bevy's cap of a quarter second a
/// frame, so its fixed-step loop never runs thousands of steps after a sleep).
fn tick_timer(
    time: Res<Time<Real>>,
    suspended: Res<Suspended>,
    mut covers: MessageReader<BoardCovered>,
    mut covered: ResMut<Covered>,
    mut current: ResMut<CurrentGame>,
    mut counted: Local<Option<Position>>,
) {
    if let Some(BoardCovered(cover)) = covers.read().last() {
        covered.set_if_neq(Covered(*cover));
    }
    // The game's time stands still while the app is in the background (see `lifecycle`).
    let counting = covered.counting(&current.game) && !suspended.0;
    let counting = counting.then_some(current.since);
    if counting.is_some() && counting == *counted {
        let delta = time.delta();
        current.game.tick(delta);
    }
    *counted = counting;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backlog_shortens_slides_and_plays_out_quickly() {
        assert_eq!(slide_seconds(0, None), SLIDE_SECONDS);
        let mut last = SLIDE_SECONDS;
        for backlog in 1..50 {
            let seconds = slide_seconds(backlog, None);
            assert!(seconds <= last && seconds >= MIN_SLIDE_SECONDS);
            last = seconds;
        }
        // 200 keys pressed at once: each waits for the slide before it, as many as are left
        // behind it. Together they play out in a couple of seconds, not 200 full slides.
        let total: f32 = (0..200).rev().map(|left| slide_seconds(left, None)).sum();
        assert!(total < 200.0 * SLIDE_SECONDS / 8.0, "{total} s");
    }

    #[test]
    fn slides_shorten_for_fast_playback_only() {
        assert_eq!(slide_seconds(0, Some(2.0)), SLIDE_SECONDS);
        assert!(slide_seconds(0, Some(30.0)) < SLIDE_SECONDS / 2.0);
        assert_eq!(slide_seconds(0, Some(f32::NAN)), SLIDE_SECONDS);
    }
}
