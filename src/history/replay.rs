//! Watching a solve again on the board, at the player's own pace with the pauses, from the win
//! card, the Solves sheet or a friend's challenge: faster or slower, paused, a move at a time
//! either way, or anywhere along its timeline. The board shows a replay game
//! ([`Game::replay`], a viewer that holds the player's game); the moves reach it as the app's
//! moves when the playhead passes their time. From it the player can play the same board, or
//! compare the solve with the shortest (the review). Done brings the player's game back.

use bevy::prelude::*;
use challenge::Challenge;

use crate::app::background::Background;
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::board::tiles::PhotoTiles;
use crate::frame::{AppSet, DecideStep};
use crate::game::replay::{Playhead, Replay, Speed};
use crate::game::solves::Solve;
use crate::game::{Game, GameKind};
use crate::history::review::ReviewCommand;
use crate::messages::{Change, GameChanged, GameCommand, Notice, ShareFile};
use crate::photo::{Caption, GifError, ReplaySpec, Slide, image::RgbaImage};
use crate::play::{ActionQueue, CurrentGame};

/// A solve to watch, and whose it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Watched {
    /// The solve.
    pub replay: Replay,
    /// Whose it is, for the panel: "Your solve", "Your friend's solve".
    pub whose: String,
    /// Whether the app helped with it (the review says so).
    pub helped: bool,
    /// Whether it is a friend's (their challenge), not the player's own.
    pub friends: bool,
}

impl Watched {
    /// The player's own game, watched again (a run's, all its boards).
    pub fn of_game(game: &Game) -> Option<Watched> {
        let game = game.kept();
        Some(Watched {
            replay: Replay::of_game(game).ok()?,
            whose: "Your solve".into(),
            helped: game.helped(),
            friends: false,
        })
    }

    /// A solve from the history; `None` for one kept without its moves.
    pub fn of_solve(solve: &Solve) -> Option<Watched> {
        Some(Watched {
            replay: Replay::of_solve(solve).ok()?,
            whose: "Your solve".into(),
            helped: solve.helped,
            friends: false,
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
            friends: true,
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
    /// Save the solve as an animated GIF of the photo's tiles (the share sheet on a phone).
    SaveGif,
    /// Back to the player's game.
    Done,
}

/// What a replay tells as it runs, for the words said of it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayNews {
    /// A run's board came on (from 0), of so many: its first at the replay's start.
    Board {
        /// The board, from 0.
        board: usize,
        /// How many the run has.
        of: usize,
        /// Its columns and rows.
        shape: (usize, usize),
    },
    /// The last move was made: the replay is over.
    Over {
        /// The solve's moves (every board's).
        moves: usize,
        /// Whether its last board ends solved (not a DNF).
        solved: bool,
    },
}

impl ReplayNews {
    /// In words, for a screen reader: "Board 2 of 3: a 4×4 board.", "The replay is over:
    /// solved in 93 moves."
    pub fn words(self) -> String {
        use crate::words::moves_text;
        match self {
            ReplayNews::Board {
                board: 0,
                of,
                shape,
            } => format!(
                "A run of {of} boards, watched again from its start: board 1 is {}×{}.",
                shape.0, shape.1
            ),
            ReplayNews::Board { board, of, shape } => {
                format!(
                    "Board {} of {of}: a {}×{} board.",
                    board + 1,
                    shape.0,
                    shape.1
                )
            }
            ReplayNews::Over { moves, solved } => match solved {
                true => format!("The replay is over: solved in {}.", moves_text(moves)),
                false => format!("The replay is over: not solved, {}.", moves_text(moves)),
            },
        }
    }
}

/// A GIF being encoded in the background.
type GifJob = Background<Result<Vec<u8>, GifError>>;

/// The replay on the board, if one is: the solve and where the playhead is.
#[derive(Resource, Default)]
pub struct Replaying {
    /// The solve watched.
    pub watched: Option<Watched>,
    /// Where it is, how fast it runs, and whether it does.
    pub head: Playhead,
    /// Which of its boards the board shows (a run's, from 0; else 0).
    pub board: usize,
    /// A GIF of it being made: the file's name and the encoding (dropped with the replay).
    gif: Option<(String, GifJob)>,
}

impl Replaying {
    /// Whether a GIF of the solve is being made.
    pub fn making_gif(&self) -> bool {
        self.gif.is_some()
    }

    /// The moves of the whole solve on show, when the board shows `on_board` of its own.
    pub fn step(&self, on_board: usize) -> usize {
        let first = self
            .watched
            .as_ref()
            .map_or(0, |w| w.replay.first_step(self.board));
        first + on_board
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<ReplayCommand>()
        .add_message::<ReplayNews>()
        .init_resource::<Replaying>()
        .add_systems(
            Update,
            (act, run, save_gif, gif_made)
                .chain()
                .in_set(DecideStep::Replay),
        )
        .add_systems(
            Update,
            (end_with_the_replay, tell_news)
                .chain()
                .in_set(AppSet::React),
        )
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// The game a replay shows at `step` moves made, holding the player's game, and which of its
/// boards that is.
fn board_at(replay: &Replay, step: usize, kept: &Game) -> (Game, usize) {
    let board = replay.board_of(step);
    let mut game = Game::replay(replay.start_of(board).clone(), kept);
    for &mv in &replay.moves()[replay.first_step(board)..step] {
        game.apply(&[mv]);
    }
    (game, board)
}

/// Puts the replay's board at `step` moves made on screen, as a new board (`shown` becomes
/// which of its boards that is).
fn show_at(
    replay: &Replay,
    step: usize,
    kept: &Game,
    shown: &mut usize,
    commands: &mut MessageWriter<GameCommand>,
) {
    let (game, board) = board_at(replay, step, kept);
    *shown = board;
    commands.write(GameCommand::Start(Box::new(game)));
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
            // The speed chosen stays for the next replay.
            let speed = replaying.head.speed;
            replaying.head = Playhead::default();
            replaying.head.speed = speed;
            let replay = &watched.replay;
            show_at(replay, 0, kept, &mut replaying.board, &mut commands);
            replaying.watched = Some((**watched).clone());
            continue;
        }
        let on_board = queue.moves_after(&current.game);
        let shown = replaying.step(on_board);
        let Replaying {
            watched,
            head,
            board,
            ..
        } = &mut *replaying;
        let Some(watched) = watched.as_ref().filter(|_| current.game.is_replay()) else {
            continue;
        };
        let replay = &watched.replay;
        match request {
            ReplayCommand::TogglePause => {
                let again = head.paused && shown >= replay.len();
                head.toggle(replay, shown);
                if again {
                    show_at(replay, 0, kept, board, &mut commands);
                }
            }
            ReplayCommand::Speed(speed) => head.speed = *speed,
            // A step within the board on show slides; one to another board shows that board.
            ReplayCommand::Step(true) if shown < replay.len() => {
                head.step_to(replay, shown + 1);
                if replay.board_of(shown) == *board {
                    commands.write(GameCommand::AppMove(replay.moves()[shown]));
                } else {
                    show_at(replay, shown + 1, kept, board, &mut commands);
                }
            }
            ReplayCommand::Step(false) if shown > 0 => {
                head.step_to(replay, shown - 1);
                if on_board > 0 {
                    commands.write(GameCommand::Undo);
                } else {
                    show_at(replay, shown - 1, kept, board, &mut commands);
                }
            }
            ReplayCommand::Seek(ms) => {
                head.paused = true;
                let step = head.seek(replay, *ms);
                if step != shown {
                    show_at(replay, step, kept, board, &mut commands);
                }
            }
            ReplayCommand::Compare => {
                review.write(ReviewCommand::Compare {
                    finished: Box::new(finished(watched, *board)),
                    friends: watched.friends,
                });
            }
            ReplayCommand::Done => {
                commands.write(GameCommand::Resume(Box::new(kept.clone())));
            }
            ReplayCommand::Step(_) | ReplayCommand::Watch(_) | ReplayCommand::SaveGif => {}
        }
    }
}

/// The board on show of the solve watched (a run's, that board alone) as a finished game, to
/// compare with the shortest.
fn finished(watched: &Watched, board: usize) -> Game {
    let replay = &watched.replay;
    let mut game = Game::new(replay.start_of(board).clone(), GameKind::Custom);
    game.apply(replay.moves_of(board));
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
    let mut step = replaying.step(queue.moves_after(&current.game));
    let Replaying {
        watched,
        head,
        board,
        ..
    } = &mut *replaying;
    let Some(watched) = watched.as_ref().filter(|_| current.game.is_replay()) else {
        return;
    };
    if head.paused {
        return;
    }
    let replay = &watched.replay;
    let due = match head.speed {
        // Each move as soon as the one before has slid (the queue is empty again).
        Speed::Instant => {
            let due = (step + usize::from(queue.0.is_empty())).min(replay.len());
            head.made(replay, due);
            due
        }
        _ => head.advance(replay, time.delta()),
    };
    while step < due {
        if replay.board_of(step) != *board {
            // A run's board solved: once its last slide is seen, the next board comes on.
            if queue.0.is_empty() {
                show_at(replay, step, current.game.kept(), board, &mut commands);
            }
            return;
        }
        commands.write(GameCommand::AppMove(replay.moves()[step]));
        step += 1;
    }
}

/// Starts making the GIF asked for, from the picture the tiles were cut from (when it is cut
/// for the replay's board).
fn save_gif(
    mut requests: MessageReader<ReplayCommand>,
    mut replaying: ResMut<Replaying>,
    tiles: Option<Res<PhotoTiles>>,
    mut notices: MessageWriter<Notice>,
) {
    if !requests.read().any(|r| *r == ReplayCommand::SaveGif) || replaying.making_gif() {
        return;
    }
    let Some(watched) = &replaying.watched else {
        return;
    };
    let board = watched.replay.start_of(replaying.board);
    let shape = (board.width(), board.height());
    let picture = tiles
        .as_deref()
        .filter(|tiles| (tiles.made_from.as_ref()).is_some_and(|(_, w, h)| (*w, *h) == shape))
        .and_then(|tiles| tiles.picture.clone());
    let Some(picture) = picture else {
        notices.write(Notice(
            "The photo is still being cut: try again in a moment.".into(),
        ));
        return;
    };
    let name = gif_name(board.width(), board.height(), crate::game::solves::now_ms());
    let (replay, shown) = (watched.replay.clone(), replaying.board);
    let task = Background::spawn("gif", move || gif_of(&replay, shown, &picture));
    replaying.gif = Some((name, task));
}

/// The GIF's file name: "snapslide-4x4-20261205-1130.gif" (UTC).
pub fn gif_name(width: usize, height: usize, now_ms: i64) -> String {
    let stamp = crate::words::file_stamp(now_ms);
    format!("snapslide-{width}x{height}-{stamp}.gif")
}

/// The moves of the replay's board `shown` (a run's, that board alone) as the GIF's slides,
/// drawn with `picture`'s tiles, on the board's own clock.
fn gif_of(replay: &Replay, shown: usize, picture: &RgbaImage) -> Result<Vec<u8>, GifError> {
    let start = replay.start_of(shown);
    let first = replay.first_step(shown);
    let began = replay.time_of(first);
    let mut board = start.clone();
    let slides: Vec<Slide> = (replay.moves_of(shown).iter().enumerate())
        .map(|(i, &mv)| {
            board.apply(mv);
            let at_ms = replay.time_of(first + i + 1).saturating_sub(began);
            Slide {
                gap_to: board.blank() as u16,
                at_ms: at_ms.min(u64::from(u32::MAX)) as u32,
            }
        })
        .collect();
    crate::photo::replay_gif(&ReplaySpec {
        picture,
        columns: start.width() as u32,
        rows: start.height() as u32,
        start: start.tiles(),
        slides: &slides,
        caption: Some(Caption {
            text: &caption_of(replay, shown),
            font: crate::board::theme::FONT,
        }),
    })
}

/// A replay's GIF caption: "4×4 · 38 moves · 25.46 s"; for a run's board, the run's moves and
/// time too: "Board 2 of 3 · 4×4 · 38 moves (run: 52 moves · 31.20 s)".
fn caption_of(replay: &Replay, shown: usize) -> String {
    let shape = replay.start_of(shown).shape();
    let time = crate::words::result_time(std::time::Duration::from_millis(replay.total_ms()));
    let whole = crate::words::moves_text(replay.len());
    if replay.boards() == 1 {
        return format!("{}×{} · {whole} · {time}", shape.width, shape.height);
    }
    let moves = crate::words::moves_text(replay.moves_of(shown).len());
    format!(
        "Board {} of {} · {}×{} · {moves} (run: {whole} · {time})",
        shown + 1,
        replay.boards(),
        shape.width,
        shape.height
    )
}

/// A GIF made goes to the player (saved, or to the share sheet); a failure is said.
fn gif_made(
    mut replaying: ResMut<Replaying>,
    mut files: MessageWriter<ShareFile>,
    mut notices: MessageWriter<Notice>,
) {
    let Some((name, task)) = replaying.gif.as_mut() else {
        return;
    };
    let Some(made) = task.poll() else {
        if task.is_lost() {
            replaying.gif = None;
        }
        return;
    };
    let name = name.clone();
    replaying.gif = None;
    match made {
        Ok(bytes) => {
            files.write(ShareFile {
                name,
                bytes,
                mime: "image/gif",
            });
        }
        Err(why) => {
            notices.write(Notice(format!("Could not make the GIF: {why}.")));
        }
    }
}

/// A replay that runs moves, or a GIF being made: frames must come.
fn report_motion(replaying: Res<Replaying>, mut frames: MessageWriter<FrameRequest>) {
    if replaying.making_gif() || (replaying.watched.is_some() && !replaying.head.paused) {
        frames.write(FrameRequest::Moving);
    }
}

/// The start of the board on show as a game of the player's own ("Play this board": the
/// controls ask first if that would lose the game the replay holds).
pub fn own_game_of(replaying: &Replaying) -> Option<Game> {
    let watched = replaying.watched.as_ref()?;
    let start = watched.replay.start_of(replaying.board).clone();
    Some(Game::new(start, GameKind::Custom))
}

/// Another game on the board ends the replay (Done, Play this board, the review, a new game).
fn end_with_the_replay(mut changes: MessageReader<GameChanged>, mut replaying: ResMut<Replaying>) {
    let other_game = changes.read().any(|changed| match &changed.change {
        Change::Reset(game, _) => !game.is_replay(),
        _ => false,
    });
    if other_game && replaying.watched.is_some() {
        *replaying = Replaying::default();
    }
}

/// Tells a run's board coming on (its first at the start), and the replay's end when its last
/// move has slid.
pub(crate) fn tell_news(
    mut changes: MessageReader<GameChanged>,
    replaying: Res<Replaying>,
    current: Res<CurrentGame>,
    mut news: MessageWriter<ReplayNews>,
) {
    let Some(watched) = replaying
        .watched
        .as_ref()
        .filter(|_| current.game.is_replay())
    else {
        changes.clear();
        return;
    };
    let replay = &watched.replay;
    let step = replaying.step(current.game.moves());
    let (mut reset, mut slid) = (false, false);
    for changed in changes.read() {
        reset |= matches!(changed.change, Change::Reset(..));
        slid |= matches!(changed.change, Change::Slid { .. });
    }
    let run = replay.boards() > 1;
    if reset && run && step == replay.first_step(replaying.board) {
        let shape = replay.start_of(replaying.board).shape();
        news.write(ReplayNews::Board {
            board: replaying.board,
            of: replay.boards(),
            shape: (shape.width, shape.height),
        });
    }
    if slid && step == replay.len() {
        news.write(ReplayNews::Over {
            moves: replay.len(),
            solved: current.game.board().is_goal(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gif_is_named_by_its_board_and_the_minute_it_was_made() {
        // 5 Dec 2026, 11:30:59 UTC.
        let at = 1_796_470_259_000;
        assert_eq!(gif_name(4, 4, at), "snapslide-4x4-20261205-1130.gif");
        assert_eq!(gif_name(3, 5, 0), "snapslide-3x5-19700101-0000.gif");
    }

    #[test]
    fn a_runs_board_is_captioned_and_said_with_its_place_in_the_run() {
        use npuzzle::{Board, Move, Shape};
        let goal = |side| Board::goal_of(Shape::new(side, side).unwrap());
        let mut first = goal(3);
        first.apply(Move::Left);
        let mut second = goal(4);
        second.apply(Move::Up);
        let boards = vec![(first, vec![Move::Right]), (second, vec![Move::Down])];
        let replay = Replay::of_boards(boards, Some(&[0, 2_500]), 2_500).unwrap();
        assert_eq!(
            caption_of(&replay, 1),
            "Board 2 of 2 · 4×4 · 1 move (run: 2 moves · 2.50 s)"
        );
        let news = ReplayNews::Board {
            board: 1,
            of: 2,
            shape: (4, 4),
        };
        assert_eq!(news.words(), "Board 2 of 2: a 4×4 board.");
        let first = ReplayNews::Board {
            board: 0,
            of: 2,
            shape: (4, 4),
        };
        assert_eq!(
            first.words(),
            "A run of 2 boards, watched again from its start: board 1 is 4×4."
        );
        let over = ReplayNews::Over {
            moves: 2,
            solved: false,
        };
        assert_eq!(over.words(), "The replay is over: not solved, 2 moves.");
    }
}
