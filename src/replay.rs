//! Watching a solve again on the board, at the player's own pace with the pauses, from the win
//! card, the Solves sheet or a friend's challenge: faster or slower, paused, a move at a time
//! either way, or anywhere along its timeline. The board shows a replay game
//! ([`Game::replay`], a viewer that holds the player's game); the moves reach it as the app's
//! moves when the playhead passes their time. From it the player can play the same board, or
//! compare the solve with the shortest (the review). Done brings the player's game back.

use bevy::prelude::*;
use challenge::Challenge;

use crate::frame::{AppSet, DecideStep};
use crate::game::replay::{Playhead, Replay, Speed};
use crate::game::solves::Solve;
use crate::game::{Game, GameKind};
use crate::messages::{Change, GameChanged, GameCommand};
use crate::play::{ActionQueue, CurrentGame};
use crate::redraw::{FrameRequest, ReportMotion};
use crate::review::ReviewCommand;

/// A solve to watch, and whose it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Watched {
    /// The solve.
    pub replay: Replay,
    /// Whose it is, for the panel: "Your solve", "Your friend's solve".
    pub whose: String,
    /// Whether the app helped with it (the review says so).
    pub helped: bool,
}

impl Watched {
    /// The player's own game, watched again.
    pub fn of_game(game: &Game) -> Option<Watched> {
        let game = game.kept();
        Some(Watched {
            replay: Replay::of_game(game).ok()?,
            whose: "Your solve".into(),
            helped: game.helped(),
        })
    }

    /// A solve from the history; `None` for one kept without its moves.
    pub fn of_solve(solve: &Solve) -> Option<Watched> {
        Some(Watched {
            replay: Replay::of_solve(solve).ok()?,
            whose: "Your solve".into(),
            helped: solve.helped,
        })
    }

    /// A friend's solve, from their challenge code (checked when it was read).
    pub fn of_challenge(challenge: &Challenge) -> Option<Watched> {
        let start = challenge.start().clone();
        let moves = challenge.moves().to_vec();
        let replay = Replay::new(start, moves, challenge.times_ms(), challenge.time_ms());
        Some(Watched {
            replay: replay.ok()?,
            whose: "Your friend's solve".into(),
            helped: false,
        })
    }
}

/// What the player asked of a replay.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum ReplayCommand {
    /// Watch this solve, from its start.
    Watch(Box<Watched>),
    /// Run it, or pause it (run at its end, it starts over).
    TogglePause,
    /// Run at this speed.
    Speed(Speed),
    /// One move forward (`true`) or back, paused there.
    Step(bool),
    /// Put the playhead at this moment (ms of the player's time), paused.
    Seek(u64),
    /// Compare the solve with the shortest from its start (the review).
    Compare,
    /// Back to the player's game.
    Done,
}

/// The replay on the board, if one is: the solve and where the playhead is.
#[derive(Resource, Default)]
pub struct Replaying {
    /// The solve watched.
    pub watched: Option<Watched>,
    /// Where it is, how fast it runs, and whether it does.
    pub head: Playhead,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<ReplayCommand>()
        .init_resource::<Replaying>()
        .add_systems(Update, (act, run).chain().in_set(DecideStep::Replay))
        .add_systems(Update, end_with_the_replay.in_set(AppSet::React))
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// The game a replay shows at `step` moves made, holding the player's game.
fn board_at(replay: &Replay, step: usize, kept: &Game) -> Game {
    let mut game = Game::replay(replay.start().clone(), kept);
    for &mv in &replay.moves()[..step] {
        game.apply(&[mv]);
    }
    game
}

fn act(
    mut requests: MessageReader<ReplayCommand>,
    mut replaying: ResMut<Replaying>,
    current: Res<CurrentGame>,
    queue: Res<ActionQueue>,
    mut commands: MessageWriter<GameCommand>,
    mut review: MessageWriter<ReviewCommand>,
) {
    let kept = current.game.kept();
    for request in requests.read() {
        if let ReplayCommand::Watch(watched) = request {
            replaying.head = Playhead::default();
            let game = board_at(&watched.replay, 0, kept);
            replaying.watched = Some((**watched).clone());
            commands.write(GameCommand::Start(Box::new(game)));
            continue;
        }
        let Replaying { watched, head } = &mut *replaying;
        let Some(watched) = watched.as_ref().filter(|_| current.game.is_replay()) else {
            continue;
        };
        let replay = &watched.replay;
        let shown = queue.moves_after(&current.game);
        match request {
            ReplayCommand::TogglePause => {
                let again = head.paused && head.at_end(replay);
                head.toggle(replay);
                if again {
                    commands.write(GameCommand::Start(Box::new(board_at(replay, 0, kept))));
                }
            }
            ReplayCommand::Speed(speed) => head.speed = *speed,
            ReplayCommand::Step(true) if shown < replay.len() => {
                head.step_to(replay, shown + 1);
                commands.write(GameCommand::AppMove(replay.moves()[shown]));
            }
            ReplayCommand::Step(false) if shown > 0 => {
                head.step_to(replay, shown - 1);
                commands.write(GameCommand::Undo);
            }
            ReplayCommand::Seek(ms) => {
                head.paused = true;
                let step = head.seek(replay, *ms);
                if step != shown {
                    commands.write(GameCommand::Start(Box::new(board_at(replay, step, kept))));
                }
            }
            ReplayCommand::Compare => {
                review.write(ReviewCommand::Compare(Box::new(finished(watched))));
            }
            ReplayCommand::Done => {
                commands.write(GameCommand::Start(Box::new(kept.clone())));
            }
            ReplayCommand::Step(_) | ReplayCommand::Watch(_) => {}
        }
    }
}

/// The solve watched as a finished game, to compare with the shortest.
fn finished(watched: &Watched) -> Game {
    let replay = &watched.replay;
    let mut game = Game::new(replay.start().clone(), GameKind::Custom);
    game.apply(replay.moves());
    if watched.helped {
        game.mark_helped();
    }
    game
}

/// The playhead runs on, and the moves it passes go to the board: each as its time comes, or
/// at Instant each as soon as the one before is on its way.
fn run(
    time: Res<Time<Real>>,
    mut replaying: ResMut<Replaying>,
    current: Res<CurrentGame>,
    queue: Res<ActionQueue>,
    mut commands: MessageWriter<GameCommand>,
) {
    let Replaying { watched, head } = &mut *replaying;
    let Some(watched) = watched.as_ref().filter(|_| current.game.is_replay()) else {
        return;
    };
    if head.paused {
        return;
    }
    let replay = &watched.replay;
    let mut step = queue.moves_after(&current.game);
    let mut due = head.advance(replay, time.delta());
    if head.speed == Speed::Instant {
        due = due.min(step + usize::from(queue.0.is_empty()));
    }
    while step < due {
        commands.write(GameCommand::AppMove(replay.moves()[step]));
        step += 1;
    }
}

/// A replay that runs moves: frames must come.
fn report_motion(replaying: Res<Replaying>, mut frames: MessageWriter<FrameRequest>) {
    if replaying.watched.is_some() && !replaying.head.paused {
        frames.write(FrameRequest::Moving);
    }
}

/// The same start board as a game of the player's own ("Play this board": the controls ask
/// first if that would lose the game the replay holds).
pub fn own_game_of(watched: &Watched) -> Game {
    Game::new(watched.replay.start().clone(), GameKind::Custom)
}

/// Another game on the board ends the replay (Done, Play this board, the review, a new game).
fn end_with_the_replay(mut changes: MessageReader<GameChanged>, mut replaying: ResMut<Replaying>) {
    let other_game = changes.read().any(|changed| match &changed.change {
        Change::Reset(game) => !game.is_replay(),
        _ => false,
    });
    if other_game && replaying.watched.is_some() {
        *replaying = Replaying::default();
    }
}
