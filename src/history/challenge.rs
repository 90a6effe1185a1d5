//! A friend's challenge. A code (from `--open`, Menu → Open a challenge, or a link on a phone)
//! is checked and its moves replayed by the challenge crate before anything of it is shown; a
//! code that is refused is said in the player's words and changes nothing. Its board then
//! starts as a new game (asked first when a game with moves would be lost), the friend's
//! result is shown above it, and at the win the two stand side by side. A finished game
//! becomes a code to send ([`challenge_of`]).

use bevy::prelude::*;
use challenge::{Challenge, CodeError};

use crate::app::redraw::FrameRequest;
use crate::cli::CliOptions;
use crate::frame::AppSet;
use crate::game::{Game, GameKind, playable};
use crate::messages::{Change, GameChanged, Notice, OpenChallenge, Pending, ReplaceGame};
use crate::play::CurrentGame;

/// The friend's challenge the game on the board is playing, if it is one; and the one being
/// opened, until its board is on the board.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Challenged {
    /// The challenge whose board is on the board.
    pub playing: Option<Challenge>,
    /// A challenge opened, waiting for its board to start.
    opening: Option<Challenge>,
    /// A code asked for before the first game was on the board, opened once it is.
    waiting: Option<String>,
}

impl Challenged {
    /// The challenge of this game, if it is one (the same start board).
    pub fn of(&self, game: &Game) -> Option<&Challenge> {
        self.playing
            .as_ref()
            .filter(|challenge| challenge.start() == game.kept().start())
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Challenged>()
        .add_systems(Startup, open_from_command_line)
        .add_systems(Update, open.in_set(AppSet::Decide))
        .add_systems(Update, follow_the_game.in_set(AppSet::React));
}

/// `--open CODE`: the challenge opens at start (the command line checked it already).
fn open_from_command_line(options: Option<Res<CliOptions>>, mut out: MessageWriter<OpenChallenge>) {
    if let Some(code) = options.and_then(|options| options.open.clone()) {
        out.write(OpenChallenge(code));
    }
}

/// The code in what the player pasted: the link's, when the text holds one (a whole message,
/// "… beat me: snapslide://c/CODE"), else the text itself.
fn code_in(text: &str) -> &str {
    match text.find(challenge::LINK_PREFIX) {
        Some(at) => text[at..].split_whitespace().next().unwrap_or(text),
        None => text,
    }
}

/// A code as the app opens it: checked whole, and a board the app plays.
pub fn read_code(text: &str) -> Result<Challenge, String> {
    let code = code_in(text);
    let challenge = challenge::decode(code).map_err(|error: CodeError| format!("{error}."))?;
    let shape = challenge.start().shape();
    if !playable(shape.width, shape.height) {
        return Err(format!(
            "This challenge is for a {}×{} board: Snapslide plays boards from 3×3 to 8×8.",
            shape.width, shape.height
        ));
    }
    Ok(challenge)
}

/// What `open` writes.
#[derive(bevy::ecs::system::SystemParam)]
struct Opening<'w> {
    replace: MessageWriter<'w, ReplaceGame>,
    notices: MessageWriter<'w, Notice>,
    frames: MessageWriter<'w, FrameRequest>,
}

/// Opens the challenges asked for, once the first game is on the board (a game in progress
/// brought back at start is asked about, not lost): refused in the player's words, or its
/// board started (the controls ask first when a game in progress would be lost).
fn open(
    mut asked: MessageReader<OpenChallenge>,
    current: Res<CurrentGame>,
    mut challenged: ResMut<Challenged>,
    mut out: Opening,
) {
    for OpenChallenge(text) in asked.read() {
        challenged.waiting = Some(text.clone());
    }
    if !current.started() {
        if challenged.waiting.is_some() {
            out.frames.write(FrameRequest::OneMore);
        }
        return;
    }
    let Some(text) = challenged.waiting.take() else {
        return;
    };
    let challenge = match read_code(&text) {
        Ok(challenge) => challenge,
        Err(refused) => {
            out.notices.write(Notice(refused));
            out.frames.write(FrameRequest::OneMore);
            return;
        }
    };
    let game = &current.game;
    if game.kept().start() == challenge.start() && game.moves() == 0 {
        // Its board is on the board already (started at launch).
        challenged.playing = Some(challenge);
        return;
    }
    // The controls ask first when a game with moves would be lost.
    let board = Box::new(Game::new(challenge.start().clone(), GameKind::Custom));
    out.replace.write(ReplaceGame(Pending::Challenge(board)));
    out.frames.write(FrameRequest::OneMore);
    challenged.opening = Some(challenge);
}

/// The challenge goes with its board: it is the game's once its board starts, and is left
/// behind by any other new board.
fn follow_the_game(mut changes: MessageReader<GameChanged>, mut challenged: ResMut<Challenged>) {
    for changed in changes.read() {
        let Change::Reset(game, _) = &changed.change else {
            continue;
        };
        let start = game.kept().start();
        if challenged
            .opening
            .as_ref()
            .is_some_and(|c| c.start() == start)
        {
            challenged.playing = challenged.opening.take();
        } else if challenged
            .playing
            .as_ref()
            .is_some_and(|c| c.start() != start)
        {
            challenged.playing = None;
        }
    }
}

/// A finished game as a challenge to send: its start, the moves in effect, the time, and each
/// move's time; `None` for a game not won (or one no code can carry).
pub fn challenge_of(game: &Game) -> Option<Challenge> {
    let game = game.kept();
    // A run's boards are many; a code carries one. A game the app helped with is no
    // challenge: the friend would race the app's solution.
    if !game.is_won() || game.run().is_some() || game.helped() {
        return None;
    }
    let moves = game.history_in_effect();
    let millis = |d: std::time::Duration| d.as_millis().min(u64::MAX as u128) as u64;
    let time_ms = millis(game.elapsed());
    let mut latest = 0;
    let times: Vec<u64> = game
        .move_times()
        .into_iter()
        .map(|t| {
            latest = millis(t).max(latest).min(time_ms);
            latest
        })
        .collect();
    let times = (times.len() == moves.len()).then_some(times);
    // With each move's time if a code can carry them, else with the total alone.
    Challenge::new(game.start().clone(), moves.clone(), time_ms, times)
        .or_else(|_| Challenge::new(game.start().clone(), moves, time_ms, None))
        .ok()
}

/// Who won, counted both ways, in words: on time first (speedsolvers race on time), then on
/// moves, each with its margin. Results are (moves, time in ms): "You won on time, by 2.11 s;
/// your friend on moves, by 2 moves."
pub fn verdict(yours: (usize, u64), theirs: (usize, u64)) -> String {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let who = |ahead: std::cmp::Ordering| if ahead == Less { "you" } else { "your friend" };
    let time = std::time::Duration::from_millis(yours.1.abs_diff(theirs.1));
    let by_time = format!("by {}", crate::words::result_time(time));
    let by_moves = format!(
        "by {}",
        crate::words::moves_text(yours.0.abs_diff(theirs.0))
    );
    let sentence = match (yours.1.cmp(&theirs.1), yours.0.cmp(&theirs.0)) {
        (Equal, Equal) => "a tie: the same moves in the same time".to_string(),
        (Equal, moves) => format!("the same time; {} won on moves, {by_moves}", who(moves)),
        (time, Equal) => format!("{} won on time, {by_time}, with the same moves", who(time)),
        (time, moves) if time == moves => {
            format!(
                "{} won on time, {by_time}, and on moves, {by_moves}",
                who(time)
            )
        }
        (time @ (Less | Greater), moves) => format!(
            "{} won on time, {by_time}; {} on moves, {by_moves}",
            who(time),
            who(moves)
        ),
    };
    let mut chars = sentence.chars();
    let first = chars
        .next()
        .map(|c| c.to_uppercase().to_string())
        .unwrap_or_default();
    format!("{first}{}.", chars.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::{Move, parse_board};

    fn won_game() -> Game {
        let mut game = Game::new(
            parse_board("1 2 3 / 4 5 6 / 0 7 8").unwrap(),
            GameKind::Custom,
        );
        game.apply(&[Move::Right]);
        game.apply(&[Move::Right]);
        assert!(game.is_won());
        game
    }

    #[test]
    fn a_won_game_becomes_a_code_that_reads_back_as_the_same_solve() {
        let game = won_game();
        let challenge = challenge_of(&game).expect("a won game makes a code");
        let read = read_code(&challenge.link()).unwrap();
        // A whole message pasted opens the link in it.
        let message = format!("Snapslide 3×3 · beat me: {} !", challenge.link());
        assert_eq!(read_code(&message).unwrap(), read);
        assert_eq!(read.start(), game.start());
        assert_eq!(read.moves(), &[Move::Right, Move::Right]);
        let unfinished = Game::new(game.start().clone(), GameKind::Custom);
        assert!(challenge_of(&unfinished).is_none());
        // Solved with the app's help (Solve, a played hint): no challenge to send.
        let mut helped = Game::new(game.start().clone(), GameKind::Custom);
        helped.mark_helped();
        helped.apply(&[Move::Right, Move::Right]);
        assert!(helped.is_won());
        assert!(challenge_of(&helped).is_none(), "a helped game made a code");
    }

    #[test]
    fn a_code_the_app_cannot_play_is_refused_in_words() {
        let damaged = read_code("ZZZZ").unwrap_err();
        assert!(damaged.contains("damaged"), "{damaged}");
        let small = Challenge::new(
            parse_board("1 2 / 0 3").unwrap(),
            vec![Move::Right],
            900,
            None,
        )
        .unwrap();
        let refused = read_code(small.code()).unwrap_err();
        assert!(refused.contains("from 3×3 to 8×8"), "{refused}");
    }

    #[test]
    fn the_race_is_told_on_time_then_on_moves_each_with_its_margin() {
        // Play-test 70: a 2.88 s solve lost to a 24.75 s one by 2 moves.
        assert_eq!(
            verdict((16, 2_880), (14, 24_750)),
            "You won on time, by 21.87 s; your friend on moves, by 2 moves."
        );
        assert_eq!(
            verdict((14, 24_750), (16, 2_880)),
            "Your friend won on time, by 21.87 s; you on moves, by 2 moves."
        );
        assert_eq!(
            verdict((30, 8_000), (31, 9_500)),
            "You won on time, by 1.50 s, and on moves, by 1 move."
        );
        assert_eq!(
            verdict((30, 9_000), (30, 8_000)),
            "Your friend won on time, by 1.00 s, with the same moves."
        );
        assert_eq!(
            verdict((29, 9_000), (30, 9_000)),
            "The same time; you won on moves, by 1 move."
        );
        assert_eq!(
            verdict((30, 9_000), (30, 9_000)),
            "A tie: the same moves in the same time."
        );
    }
}
