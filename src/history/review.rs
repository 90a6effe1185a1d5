//! Reviewing a finished game: the shortest solution from the same start is found in the
//! background and compared with the player's moves (past 4×4, the best line the app knows:
//! what it finds, or the game's own line if that is shorter); then the start board is shown
//! and the player steps through that line, forwards and backwards, with the tiles sliding, or
//! plays it. Done brings the finished game back.

use bevy::prelude::*;
use npuzzle::distance::{MAX_OPTIMAL_CELLS, optimal_distance};
use npuzzle::{Board, CancelFlag, Move, Options};

use crate::app::background::Background;
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::assist::Playback;
use crate::frame::{AppSet, DecideStep};
use crate::game::{Game, Summary, summarize};
use crate::messages::{Change, GameChanged, GameCommand, SolverCommand};
use crate::play::{ActionQueue, CurrentGame};

/// What the player asked of the review.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum ReviewCommand {
    /// Review the finished game on the board.
    Open,
    /// Review this finished solve (one watched again), keeping the game the board holds.
    Compare {
        /// The solve, as a finished game.
        finished: Box<Game>,
        /// Whether it is a friend's (their challenge), not the player's own.
        friends: bool,
    },
    /// One move along the shortest line.
    Forward,
    /// One move back.
    Backward,
    /// Play the rest of the line (or pause it).
    Play,
    /// Back to the finished game.
    Done,
}

/// The comparison and the line, once found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// How the game compares.
    pub summary: Summary,
    /// The shortest (or best found) solution from the start.
    pub line: Vec<Move>,
    /// The player's moves in the multi-tile metric (a slide of a line of tiles counts one).
    pub yours_mtm: usize,
}

/// The review in progress: the board shows a review game ([`Game::review`], which holds the
/// finished game), and this holds what the comparison found.
#[derive(Resource, Default)]
pub struct Review {
    /// The comparison under way; dropping it cancels it.
    task: Option<Background<Option<Found>>>,
    /// The comparison and the line, once found.
    pub found: Option<Found>,
    /// Whether the solve reviewed is a friend's (its counters say "Theirs", not "Yours").
    pub friends: bool,
}

impl Review {
    /// Whether the comparison is still being worked out.
    pub fn working(&self) -> bool {
        self.task.is_some()
    }
}

/// Compares a finished game with the best from its start: exactly up to 4×4 (the shortest
/// solution, and the distance along the player's path), else against the best line the app
/// knows: the engine's within the options' budget, or the game's own if that is shorter (a
/// solution the app played is never shown worse than it was).
pub fn compare(game: &Game, options: &Options) -> Option<Found> {
    let start = game.start();
    let moves = game.history_in_effect();
    let solution = npuzzle::solve(start, options).ok()?;
    if start.tiles().len() <= MAX_OPTIMAL_CELLS && solution.optimal {
        let summary = summarize(start, &moves, game.helped(), |board: &Board| {
            optimal_distance(board, options).ok()
        })?;
        return Some(Found {
            summary,
            line: solution.moves,
            yours_mtm: npuzzle::mtm_length(&moves),
        });
    }
    let exact = solution.optimal;
    let own_is_best = !exact && game.is_won() && moves.len() < solution.len();
    let line = if own_is_best {
        moves.clone()
    } else {
        solution.moves
    };
    Some(Found {
        yours_mtm: npuzzle::mtm_length(&moves),
        summary: Summary {
            moves: moves.len(),
            shortest: line.len(),
            exact,
            off_at: None,
            helped: game.helped(),
        },
        line,
    })
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<ReviewCommand>()
        .init_resource::<Review>()
        .add_systems(Update, (act, collect).chain().in_set(DecideStep::Review))
        .add_systems(Update, end_with_the_review.in_set(AppSet::React))
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// A comparison being worked out moves (its spinner).
fn report_motion(review: Res<Review>, mut frames: MessageWriter<FrameRequest>) {
    if review.working() {
        frames.write(FrameRequest::Moving);
    }
}

/// Another game on the board ends the review (Done, a new game, the day's puzzle): what was
/// found goes, and a comparison still under way is cancelled.
fn end_with_the_review(mut changes: MessageReader<GameChanged>, mut review: ResMut<Review>) {
    let other_game = changes.read().any(|changed| match &changed.change {
        Change::Reset(game, _) => !game.is_review(),
        _ => false,
    });
    if other_game && (review.found.is_some() || review.working()) {
        *review = Review::default();
    }
}

fn act(
    mut requests: MessageReader<ReviewCommand>,
    mut review: ResMut<Review>,
    current: Res<CurrentGame>,
    queue: Res<ActionQueue>,
    playback: Res<Playback>,
    mut commands: MessageWriter<GameCommand>,
    mut solver: MessageWriter<SolverCommand>,
) {
    // The step the board will be at once the steps already asked for are made.
    let mut step = queue.moves_after(&current.game);
    for request in requests.read() {
        match request {
            ReviewCommand::Open if current.game.is_won() => open(
                &mut review,
                (&current.game, false),
                current.game.kept(),
                &mut commands,
            ),
            ReviewCommand::Compare { finished, friends } => open(
                &mut review,
                (finished, *friends),
                current.game.kept(),
                &mut commands,
            ),
            ReviewCommand::Open => {}
            _ if !current.game.is_review() => {}
            ReviewCommand::Forward => {
                if let Some(&mv) = review.found.as_ref().and_then(|f| f.line.get(step)) {
                    commands.write(GameCommand::AppMove(mv));
                    step += 1;
                }
            }
            ReviewCommand::Backward if step > 0 => {
                commands.write(GameCommand::Undo);
                step -= 1;
            }
            ReviewCommand::Backward => {}
            ReviewCommand::Play => play(&review, step, &playback, &mut solver),
            ReviewCommand::Done => {
                // The new board stops a line playing (the solver stops its playback on it).
                *review = Review::default();
                let finished = current.game.kept().clone();
                commands.write(GameCommand::Resume(Box::new(finished)));
            }
        }
    }
}

/// Starts comparing `finished` with the shortest, and shows its start, holding `kept`.
fn open(
    review: &mut Review,
    (finished, friends): (&Game, bool),
    kept: &Game,
    commands: &mut MessageWriter<GameCommand>,
) {
    let cancel = CancelFlag::new();
    let options = crate::app::engine_setup::options(finished.start().shape(), &cancel)
        .with_time(crate::assist::IMPROVE_TIME);
    let game = finished.clone();
    let task = Background::cancellable("review", &cancel, move || compare(&game, &options));
    *review = Review {
        task: Some(task),
        found: None,
        friends,
    };
    commands.write(GameCommand::Start(Box::new(Game::review_keeping(
        finished, kept,
    ))));
}

/// Plays the rest of the line from `step`, or pauses it (the solver plays it).
fn play(
    review: &Review,
    step: usize,
    playback: &Playback,
    solver: &mut MessageWriter<SolverCommand>,
) {
    if playback.active() {
        solver.write(SolverCommand::TogglePause);
    } else if let Some(found) = &review.found {
        solver.write(SolverCommand::Play(
            found.line[step.min(found.line.len())..].to_vec(),
        ));
    }
}

fn collect(mut review: ResMut<Review>) {
    let Some(task) = review.task.as_mut() else {
        return;
    };
    let Some(found) = task.poll() else {
        if task.is_lost() {
            review.task = None;
        }
        return;
    };
    review.task = None;
    review.found = found;
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::{Algorithm, Shape};

    #[test]
    fn a_large_board_is_compared_with_the_best_line_known_never_a_worse_one() {
        // Defect 40.1: on 8×8 the review's own search found a longer line than the game's and
        // called the game's "nothing to improve" and "not proved shortest" at once.
        let shape = Shape::new(6, 6).unwrap();
        // The gap goes round most of the board: a line the row-by-row method cannot match.
        let legs = [
            (Move::Up, 5),
            (Move::Left, 5),
            (Move::Down, 5),
            (Move::Right, 4),
            (Move::Up, 3),
        ];
        let scramble: Vec<Move> = legs.iter().flat_map(|&(mv, n)| [mv].repeat(n)).collect();
        let mut start = Board::goal_of(shape);
        start.apply_all(&scramble).unwrap();
        let played: Vec<Move> = scramble.iter().rev().map(|mv| mv.inverse()).collect();
        let mut game = Game::new(start.clone(), crate::game::GameKind::Custom);
        game.apply(&played);
        assert!(game.is_won());
        let options = Options::default().with_algorithm(Algorithm::Fast);
        let searched = npuzzle::solve(&start, &options).unwrap();
        assert!(
            searched.moves.len() > played.len(),
            "the search must do worse here"
        );
        let found = compare(&game, &options).unwrap();
        assert_eq!(found.line, played, "the game's own line is the best known");
        assert_eq!(found.summary.shortest, played.len());
        assert!(!found.summary.exact);
        let said = crate::words::review_lines(&found.summary).join(" ");
        assert!(said.contains("As short as the app's best"), "{said}");
        assert!(
            !said.contains("Shortest"),
            "nothing is proved shortest: {said}"
        );
    }
}
