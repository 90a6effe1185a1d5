//! The player's records: the best scores, the puzzles of the day played, every solve (the
//! history), and the last win's result for the HUD. This module alone writes them: from the
//! files at start (`persist` sends what it read) and from the game's changes (a win is booked
//! and kept in the history; a finished game brought back shows the result it was booked
//! with).

use bevy::prelude::*;

use crate::app::background::Background;
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::frame::AppSet;
use crate::game::solves::{HistoryRecord, Solve, now_ms};
use crate::game::{BestScores, DailyResults, WinResult, booked_result, record_win};

use crate::messages::{Change, GameChanged, HistoryChanged, Restored};
use crate::play::session::Session;

/// The best scores (kept in the scores file).
#[derive(Resource, Clone, Debug, Default, PartialEq, Deref)]
pub struct Scores(pub BestScores);

/// The puzzles of the day played (kept in the daily file).
#[derive(Resource, Clone, Debug, Default, PartialEq, Deref)]
pub struct Days(pub DailyResults);

/// The last win's result, for the HUD, and the personal bests it set in its speedsolving
/// category, as the win card says them ("New best ao5: 14.21").
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct LastResult(pub WinResult, pub Vec<String>);

impl std::ops::Deref for LastResult {
    type Target = WinResult;
    fn deref(&self) -> &WinResult {
        &self.0
    }
}

/// The records the newest solve of `history` set in its category, in time and in moves ("New
/// best ao5: 14.21", "New best single in moves: 38"); none for its category's first solve, a
/// first of a kind (the fifth solve's first ao5), or a solve speedsolvers do not count.
pub fn records_set(history: &[Solve]) -> Vec<String> {
    category_results(history).map_or_else(Vec::new, |results| records_in(&results))
}

/// The results of the newest solve's category, oldest first (its own last); `None` for a solve
/// speedsolvers do not count. A pass over the history, without counting anything.
fn category_results(history: &[Solve]) -> Option<Vec<crate::game::stats::Attempt>> {
    let (category, _) = history.last().and_then(Solve::attempt)?;
    let results = (history.iter().filter_map(Solve::attempt))
        .filter(|(c, _)| *c == category)
        .map(|(_, attempt)| attempt)
        .collect();
    Some(results)
}

/// The records the last of a category's results set, in words (see [`records_set`]).
fn records_in(results: &[crate::game::stats::Attempt]) -> Vec<String> {
    use crate::game::stats::{Average, Metric, Statistics, format_figure, new_bests};
    let Some(last) = results.len().checked_sub(1) else {
        return Vec::new();
    };
    let before = Statistics::of(&results[..last]);
    let bests = new_bests(&before, &Statistics::of(results));
    // Time, and moves for the fewest-moves crowd; TPS and MTM records stay on the sheet.
    let lines = bests.records().filter_map(|best| {
        let value = format_figure(best.metric, Average::Value(best.value))?;
        let unit = match best.metric {
            Metric::Time => "",
            Metric::Moves => " in moves",
            Metric::MovesMtm | Metric::Tps => return None,
        };
        Some(format!("New best {}{unit}: {value}", best.figure))
    });
    lines.collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Difficulty;
    use crate::game::solves::{Ending, Mode};

    fn random_solve(time_ms: u64) -> Solve {
        Solve {
            finished_at_ms: 0,
            width: 4,
            height: 4,
            mode: Mode::Shuffled(Difficulty::Random),
            start: (1..16).chain([0]).collect(),
            moves: "UDUD".into(),
            times_ms: vec![10, 20, 30, 40],
            time_ms,
            result: Ending::Solved,
            helped: false,
            photo: "x".into(),
            shortest: None,
            counted: None,
            legs: Vec::new(),
        }
    }

    #[test]
    fn a_win_says_the_records_it_set_and_no_first() {
        let mut history = vec![random_solve(20_000)];
        assert!(
            records_set(&history).is_empty(),
            "a first solve is no record"
        );
        history.push(random_solve(19_500));
        assert_eq!(records_set(&history), ["New best single: 19.50"]);
        history.push(random_solve(25_000));
        assert!(records_set(&history).is_empty());
        for time in [30_000, 30_000] {
            history.push(random_solve(time));
        }
        // The fifth solve makes the first ao5: a first, not a record.
        assert!(records_set(&history).is_empty());
        history.push(random_solve(15_000));
        assert_eq!(
            records_set(&history),
            ["New best single: 15.00", "New best ao5: 24.83"]
        );
        let mut custom = random_solve(1);
        custom.mode = Mode::Custom;
        history.push(custom);
        assert!(
            records_set(&history).is_empty(),
            "not a speedsolver's solve"
        );
    }
}

/// Every finished game, oldest first, as the solve history keeps it (each change told to
/// `persist`, which appends it to the file as one record).
#[derive(Resource, Clone, Debug, Default, PartialEq, Deref)]
pub struct History(pub Vec<Solve>);

impl History {
    /// Keeps a finished game, and tells it.
    fn keep(&mut self, solve: Solve, told: &mut MessageWriter<HistoryChanged>) {
        self.0.push(solve.clone());
        told.write(HistoryChanged(HistoryRecord::Kept(solve)));
    }
}

/// The solve the player removed last, where it stood in the history, for Undo.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Removed(pub Option<(usize, Solve)>);

/// What the player asks of the solve history (Menu → Solves).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryCommand {
    /// Remove the solve at this place in the history (oldest first).
    Remove(usize),
    /// Bring back the solve removed last.
    Undo,
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Scores>()
        .init_resource::<Days>()
        .init_resource::<LastResult>()
        .init_resource::<History>()
        .init_resource::<Removed>()
        .init_resource::<RecordsCounted>()
        .add_message::<HistoryCommand>()
        // Without a window (the tests' app) nobody else makes it known.
        .add_message::<bevy::window::WindowCloseRequested>()
        .add_systems(
            Update,
            (
                keep_records,
                records_counted,
                book_given_up_runs,
                edit_history,
            )
                .in_set(AppSet::React),
        )
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// Records being counted: frames must come to show them.
fn report_motion(counting: Res<RecordsCounted>, mut frames: MessageWriter<FrameRequest>) {
    if counting.0.is_some() {
        frames.write(FrameRequest::Moving);
    }
}

/// What ends the app: it gives up a run under way (a run is not kept across a restart).
#[derive(bevy::ecs::system::SystemParam)]
struct Leaving<'w, 's> {
    exit: MessageReader<'w, 's, AppExit>,
    closing: MessageReader<'w, 's, bevy::window::WindowCloseRequested>,
}

/// A run left unfinished for another game (New game, another run, the day's puzzle) or for
/// the app's end is kept in the history as a DNF: speedsolvers count a run given up. The game
/// tells when a game with progress leaves the board (`Change::Left`); a run left for anything
/// but its next leg or its own board again is given up.
fn book_given_up_runs(
    mut changes: MessageReader<GameChanged>,
    mut leaving: Leaving,
    current: Res<crate::play::CurrentGame>,
    session: Res<Session>,
    mut history: ResMut<History>,
    mut told: MessageWriter<HistoryChanged>,
) {
    let source = &session.photo.source;
    let mut left: Option<&crate::game::Game> = None;
    for changed in changes.read() {
        match &changed.change {
            Change::Left(game) if game.run().is_some() => left = Some(game),
            Change::Reset(game, _) if let Some(run) = left.take() => {
                let next_leg = match (run.run(), game.run()) {
                    (Some(run), Some(now)) => now.event == run.event && now.leg == run.leg + 1,
                    _ => false,
                };
                // Its own board again (Done after a replay, a review) is the same leg.
                let same_leg = game.kept().run() == run.run() && game.kept().start() == run.start();
                if !next_leg && !same_leg {
                    history.keep(Solve::from_game(run, now_ms(), source), &mut told);
                }
            }
            _ => {}
        }
    }
    // The app's end gives up the run on the board.
    let leaving = leaving.exit.read().count() + leaving.closing.read().count() > 0;
    let game = current.game.kept();
    if leaving && game.run().is_some() && game.has_progress() {
        history.keep(Solve::from_game(game, now_ms(), source), &mut told);
    }
}

/// Removes a solve the player asked to, and brings it back on Undo, in its place; each
/// change is told. Removing another forgets the one before (one Undo).
fn edit_history(
    mut commands: MessageReader<HistoryCommand>,
    mut history: ResMut<History>,
    mut removed: ResMut<Removed>,
    mut told: MessageWriter<HistoryChanged>,
) {
    for command in commands.read() {
        match *command {
            HistoryCommand::Remove(at) if at < history.0.len() => {
                let solve = history.0.remove(at);
                told.write(HistoryChanged(HistoryRecord::Removed(solve.clone())));
                removed.0 = Some((at, solve));
            }
            HistoryCommand::Undo => {
                if let Some((at, solve)) = removed.0.take() {
                    let at = at.min(history.0.len());
                    history.0.insert(at, solve.clone());
                    told.write(HistoryChanged(HistoryRecord::Restored(solve)));
                }
            }
            HistoryCommand::Remove(_) => {}
        }
    }
}

/// Everything `keep_records` writes.
#[derive(bevy::ecs::system::SystemParam)]
struct Kept<'w> {
    scores: ResMut<'w, Scores>,
    days: ResMut<'w, Days>,
    result: ResMut<'w, LastResult>,
    history: ResMut<'w, History>,
    records: ResMut<'w, RecordsCounted>,
    told: MessageWriter<'w, HistoryChanged>,
}

/// The records a win set, being counted in the background.
#[derive(Resource, Default)]
struct RecordsCounted(Option<Background<Vec<String>>>);

/// The records counted go on the win card (unless another game came first).
fn records_counted(mut counting: ResMut<RecordsCounted>, mut result: ResMut<LastResult>) {
    let Some(task) = counting.0.as_mut() else {
        return;
    };
    if let Some(lines) = task.poll() {
        result.1 = lines;
        counting.0 = None;
    } else if task.is_lost() {
        counting.0 = None;
    }
}

/// Takes in the records read at start, then books what the game's changes say.
fn keep_records(
    mut restored: MessageReader<Restored>,
    mut changes: MessageReader<GameChanged>,
    session: Res<Session>,
    kept: Kept,
) {
    let Kept {
        mut scores,
        mut days,
        mut result,
        mut history,
        mut records,
        mut told,
    } = kept;
    for restored in restored.read() {
        if let Some(read) = &restored.scores {
            scores.0 = read.clone();
        }
        if let Some(read) = &restored.days {
            days.0 = read.clone();
        }
        if let Some(read) = &restored.solves {
            history.0 = read.clone();
        }
    }
    for changed in changes.read() {
        match &changed.change {
            Change::Won(finished) => {
                let started = std::time::Instant::now();
                result.0 = record_win(finished, &mut scores.0, &mut days.0);
                let source = &session.photo.source;
                history.keep(Solve::from_game(finished, now_ms(), source), &mut told);
                // Counted off the frame of the win (10,000 solves take milliseconds).
                result.1.clear();
                if let Some(results) = category_results(&history.0) {
                    records.0 = Some(Background::spawn("records", move || records_in(&results)));
                }
                // For developers: the win's cost on its frame (RUST_LOG=snapslide::history::records=debug).
                debug!(
                    "the win booked in {:.3} ms, {} solves kept",
                    started.elapsed().as_secs_f64() * 1000.0,
                    history.0.len()
                );
            }
            // A finished game on the board again (restored at start, or after its review)
            // shows the result it was booked with; the one just won keeps its card as it is.
            Change::Reset(game, _) if game.is_won() && !result.0.is_of(game) => {
                *result = LastResult(booked_result(game, &scores.0, &days.0), Vec::new());
                records.0 = None;
            }
            _ => {}
        }
    }
}
