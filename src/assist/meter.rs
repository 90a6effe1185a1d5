//! The shortest-path meter (a setting, off by default): after every move, how far the board is
//! from solved. Exact on 3×3 (a table, at once) and on every board of up to 16 cells (an
//! optimal search in the background, cancelled by the next move: the board never waits for
//! it); on larger boards
//! a lower bound, "at least N". A move that brings the board closer can flash the number green,
//! one that takes it away amber.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use npuzzle::distance::{MAX_OPTIMAL_CELLS, after_move, lower_bound, optimal_distance};
use npuzzle::{Board, CancelFlag, Move};

use crate::app::background::Background;
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::frame::AppSet;
use crate::game::Position;
use crate::messages::{Change, GameChanged};
use crate::play::settings::Settings;

/// How long the meter may search for an exact distance before it settles for a bound.
pub const METER_TIME: Duration = Duration::from_secs(10);
/// How long a change of the distance is shown in colour.
pub const FLASH: Duration = Duration::from_millis(900);

/// A distance from solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Moves.
    pub moves: usize,
    /// Whether it is the exact shortest (else a lower bound).
    pub exact: bool,
}

impl Reading {
    /// "14", or "≥ 120" for a bound.
    pub fn text(self) -> String {
        if self.exact {
            self.moves.to_string()
        } else {
            format!("≥ {}", self.moves)
        }
    }
}

/// Whether the last move brought the board closer to solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trend {
    /// One move closer.
    Closer,
    /// Further away.
    Further,
}

/// The trend from one exact reading to the next; none for bounds.
pub fn trend(before: Option<Reading>, after: Reading) -> Option<Trend> {
    let before = before.filter(|r| r.exact && after.exact)?;
    match after.moves.cmp(&before.moves) {
        std::cmp::Ordering::Less => Some(Trend::Closer),
        std::cmp::Ordering::Greater => Some(Trend::Further),
        std::cmp::Ordering::Equal => None,
    }
}

/// The distance on a board, measured where it is cheap; `None` where it needs a search.
pub fn quick_reading(board: &Board) -> Option<Reading> {
    (board.tiles().len() <= 9).then(|| Reading {
        moves: lower_bound(board, &npuzzle::Options::default()),
        exact: true,
    })
}

/// A board whose exact distance is known, and the one blank move that made the board to
/// measure from it (as the game's change told it).
pub type Known<'a> = (&'a Board, usize, Move);

/// The distance on a board by search: exact up to 4×4, else a bound. When the board is one
/// move from one whose exact distance is known, one search to that distance less one decides
/// it (the distance changes by exactly one a move), several times faster on far boards.
pub fn searched_reading(
    board: &Board,
    known: Option<Known>,
    options: &npuzzle::Options,
) -> Option<Reading> {
    if let Some((before, distance, mv)) = known
        && before.moved(mv).as_ref() == Some(board)
        && let Ok(after) = after_move(before, distance, mv, options)
    {
        return Some(Reading {
            moves: after.distance,
            exact: true,
        });
    }
    if board.tiles().len() <= MAX_OPTIMAL_CELLS
        && let Ok(moves) = optimal_distance(board, options)
    {
        return Some(Reading { moves, exact: true });
    }
    // Too large, or not found within the budget: a bound, rather than nothing.
    Some(Reading {
        moves: lower_bound(board, options),
        exact: false,
    })
}

/// A distance measured, and where the game stood (the board, to measure the next one from).
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Where the game stood.
    pub position: Position,
    /// Its board.
    pub board: Board,
    /// The distance.
    pub reading: Reading,
}

/// The meter's state. Everything in it is about the game on the board: a new game clears it.
#[derive(Resource, Default)]
pub struct Meter {
    /// The last distance measured.
    pub last: Option<Measured>,
    /// The last change and when it came.
    pub flash: Option<(Trend, Instant)>,
    /// The board on show and where the game stands, as the game's last change said.
    board: Option<(Position, Board)>,
    /// The one blank move the last change made, and where the game stood before it: what a
    /// search from the reading there needs.
    stepped: Option<(Position, Move)>,
    /// The search under way and where the game stood; dropping it cancels it.
    job: Option<(Position, Board, Background<Option<Reading>>)>,
}

impl Meter {
    /// The reading for where the game stands, if it has been measured.
    pub fn at(&self, position: Position) -> Option<Reading> {
        let last = self.last.as_ref()?;
        (last.position == position).then_some(last.reading)
    }

    /// What to show where the game stands (as its last change told the meter): its own
    /// reading (true), else, while it is measured, the last reading of this game (false);
    /// never another game's.
    pub fn shown(&self) -> Option<(Reading, bool)> {
        let last = self.last.as_ref()?;
        let current = self
            .board
            .as_ref()
            .is_some_and(|(position, _)| *position == last.position);
        Some((last.reading, current))
    }

    /// A new game: nothing measured of the last one is shown again.
    fn forget(&mut self) {
        self.last = None;
        self.flash = None;
        self.job = None;
    }

    /// The trend to show now, while its flash lasts.
    pub fn flashing(&self) -> Option<Trend> {
        self.flash
            .filter(|(_, at)| at.elapsed() < FLASH)
            .map(|(trend, _)| trend)
    }

    /// Whether the board where the game stands at `position` is being measured: its reading
    /// is on its way.
    pub fn measures(&self, position: Position) -> bool {
        self.job.as_ref().is_some_and(|(at, ..)| *at == position)
    }

    /// Whether a search is running.
    pub fn measuring(&self) -> bool {
        self.job.is_some()
    }

    /// Follows one change of the game: the board it leaves, and the one move it made.
    fn follow(&mut self, changed: &GameChanged) {
        if matches!(changed.change, Change::Reset(..)) {
            self.forget();
        }
        let before = self.board.as_ref().map(|(position, _)| *position);
        self.stepped = match (&changed.change, before) {
            (Change::Slid { steps, .. }, Some(before)) if steps.len() == 1 => {
                Some((before, steps[0].mv))
            }
            _ => None,
        };
        self.board = Some((changed.position, changed.board.clone()));
    }

    /// The exact reading of the board the last change moved from, with that one move: none
    /// when the change was more than one move, or that board was not measured exactly.
    fn known_before(&self) -> Option<(Board, usize, Move)> {
        let (from, mv) = self.stepped?;
        let last = self.last.as_ref()?;
        (last.position == from && last.reading.exact)
            .then(|| (last.board.clone(), last.reading.moves, mv))
    }

    fn take(&mut self, measured: Measured) {
        let before = self.last.as_ref().map(|last| last.reading);
        if let Some(trend) = trend(before, measured.reading) {
            self.flash = Some((trend, Instant::now()));
        }
        self.last = Some(measured);
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Meter>()
        .add_systems(Update, (measure, collect).chain().in_set(AppSet::React))
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// A search under way, and a change's flash, move.
fn report_motion(meter: Res<Meter>, mut frames: MessageWriter<FrameRequest>) {
    if meter.measuring() || meter.flashing().is_some() {
        frames.write(FrameRequest::Moving);
    }
}

/// Follows the board the game's changes leave on show; a new game forgets the last one's
/// readings.
fn follow_the_board(meter: &mut Meter, changes: &mut MessageReader<GameChanged>) {
    for changed in changes.read() {
        meter.follow(changed);
    }
}

/// Measures the board after every change, while the meter is on: when the game's changes or
/// the settings say so, never by looking again each frame.
fn measure(
    mut changes: MessageReader<GameChanged>,
    settings: Res<Settings>,
    mut meter: ResMut<Meter>,
) {
    let told = !changes.is_empty() || settings.is_changed();
    follow_the_board(&mut meter, &mut changes);
    if !told {
        return;
    }
    if !settings.meter {
        meter.forget();
        return;
    }
    let Some((position, board)) = meter.board.clone() else {
        return;
    };
    let measured =
        meter.at(position).is_some() || meter.job.as_ref().is_some_and(|(p, ..)| *p == position);
    if measured {
        return;
    }
    // The next move cancels the search for the last board.
    meter.job = None;
    if let Some(reading) = quick_reading(&board) {
        meter.take(Measured {
            position,
            board,
            reading,
        });
        return;
    }
    let cancel = CancelFlag::new();
    let mut options = crate::app::engine_setup::options(board.shape(), &cancel);
    options.budget = options.budget.with_time_limit(METER_TIME);
    let owned = board.clone();
    let known = meter.known_before();
    let task = Background::cancellable("meter", &cancel, move || {
        let known = known
            .as_ref()
            .map(|(before, moves, mv)| (before, *moves, *mv));
        searched_reading(&owned, known, &options)
    });
    meter.job = Some((position, board.clone(), task));
}

fn collect(mut meter: ResMut<Meter>) {
    let Some((_, _, task)) = meter.job.as_mut() else {
        return;
    };
    let Some(result) = task.poll() else {
        if task.is_lost() {
            meter.job = None;
        }
        return;
    };
    let Some((position, board, _)) = meter.job.take() else {
        return;
    };
    if let Some(reading) = result {
        meter.take(Measured {
            position,
            board,
            reading,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::{Move, parse_board};

    #[test]
    fn a_board_is_measured_once_when_the_game_says_it_changed_not_again_every_frame() {
        let mut app = App::new();
        app.add_message::<GameChanged>()
            .add_message::<FrameRequest>()
            .insert_resource(Settings(crate::game::Preferences {
                meter: true,
                ..default()
            }))
            .add_plugins(plugin);
        // Too large to read at once: measured by a search in the background.
        let board = npuzzle::random::shuffled(npuzzle::Shape::new(6, 6).unwrap(), 200, 3);
        let game = crate::game::Game::new(board.clone(), crate::game::GameKind::Custom);
        app.world_mut().write_message(GameChanged {
            change: Change::Reset(Box::new(game), crate::messages::Began::New),
            position: crate::game::Position(1),
            board,
            won: false,
            blindfolded: false,
            clock: std::time::Duration::ZERO,
        });
        app.update();
        // Measured: a search under way, or (a bound comes back at once) its reading taken.
        let measured = |app: &App| {
            let meter = app.world().resource::<Meter>();
            meter.measuring() || meter.last.is_some()
        };
        assert!(measured(&app), "the change was not measured");
        // Forget the search and what it said (as if it came back with nothing): nothing starts
        // it again until the game or the settings change.
        let mut meter = app.world_mut().resource_mut::<Meter>();
        (meter.job, meter.last) = (None, None);
        for _ in 0..3 {
            app.update();
            assert!(!measured(&app), "measured again without a change");
        }
    }

    /// A change of the game to `board` at `position`: these blank moves slid from `from`.
    fn slid(from: &Board, moves: &[Move], position: u64) -> GameChanged {
        let mut board = from.clone();
        let steps = moves
            .iter()
            .map(|&mv| {
                let blank = board.blank();
                board = board.moved(mv).unwrap();
                let to = blank;
                let from = board.blank();
                crate::game::Step {
                    mv,
                    tile: board.tiles()[to],
                    from,
                    to,
                    home: false,
                }
            })
            .collect();
        GameChanged {
            change: Change::Slid {
                act: crate::game::Act::Played(moves.to_vec()),
                steps,
                by_app: false,
                seconds: 0.1,
            },
            position: Position(position),
            board,
            won: false,
            blindfolded: false,
            clock: std::time::Duration::ZERO,
        }
    }

    #[test]
    fn the_move_a_change_told_is_the_one_a_search_starts_from() {
        // The goal: the blank in the corner, two moves up are legal.
        let start = Board::goal(4, 4).unwrap();
        let measured = |board: &Board, position, exact| {
            let reading = Reading { moves: 2, exact };
            Some(Measured {
                position: Position(position),
                board: board.clone(),
                reading,
            })
        };
        let at_start = || Meter {
            board: Some((Position(1), start.clone())),
            last: measured(&start, 1, true),
            ..default()
        };
        let mut one = at_start();
        one.follow(&slid(&start, &[Move::Up], 2));
        assert_eq!(one.known_before(), Some((start.clone(), 2, Move::Up)));
        // Two tiles in one slide: no one move to search from.
        let mut two = at_start();
        two.follow(&slid(&start, &[Move::Up, Move::Up], 2));
        assert_eq!(two.known_before(), None);
        // Two changes since the reading: none either.
        let up = start.moved(Move::Up).unwrap();
        one.follow(&slid(&up, &[Move::Up], 3));
        assert_eq!(one.known_before(), None);
        // A bound is no distance to step from.
        let mut bound = at_start();
        bound.last = measured(&start, 1, false);
        bound.follow(&slid(&start, &[Move::Up], 2));
        assert_eq!(bound.known_before(), None);
    }

    #[test]
    fn the_meter_reads_the_shortest_distance_and_its_trend() {
        let board = parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap();
        let here = quick_reading(&board).unwrap();
        assert_eq!(
            here,
            Reading {
                moves: 2,
                exact: true
            }
        );
        let closer = quick_reading(&board.moved(Move::Right).unwrap()).unwrap();
        assert_eq!(closer.moves, 1);
        assert_eq!(trend(Some(here), closer), Some(Trend::Closer));
        let away = quick_reading(&board.moved(Move::Up).unwrap()).unwrap();
        assert_eq!(away.moves, 3);
        assert_eq!(trend(Some(here), away), Some(Trend::Further));
        assert_eq!(trend(None, away), None);
    }

    #[test]
    fn larger_boards_are_measured_by_search_or_bounded() {
        let board = npuzzle::random::shuffled(npuzzle::Shape::new(4, 4).unwrap(), 20, 5);
        // Small tables, quick to build; the distance does not depend on them.
        let options = npuzzle::Options::default().with_partition("5-5-5");
        let exact = searched_reading(&board, None, &options).unwrap();
        let astar = npuzzle::solve(
            &board,
            &options.clone().with_algorithm(npuzzle::Algorithm::AStar),
        )
        .unwrap();
        assert_eq!(
            exact,
            Reading {
                moves: astar.len(),
                exact: true
            }
        );
        // One move on, from the distance known: the same as a search from scratch.
        for (mv, next) in board.neighbors() {
            let stepped = searched_reading(&next, Some((&board, exact.moves, mv)), &options);
            assert_eq!(stepped, searched_reading(&next, None, &options));
        }
        let big = npuzzle::random::shuffled(npuzzle::Shape::new(6, 6).unwrap(), 200, 5);
        let bound = searched_reading(&big, None, &options).unwrap();
        assert!(!bound.exact);
        let fast = npuzzle::solve(&big, &options.clone().with_fast()).unwrap();
        assert!(bound.moves <= fast.len());
        assert_eq!(bound.text(), format!("≥ {}", bound.moves));
    }
}
