//! The player's records: the best scores, the puzzles of the day played, every solve (the
//! history), and the last win's result for the HUD. This module alone writes them: from the
//! files at start (`persist` sends what it read) and from the game's changes (a win is booked
//! and kept in the history; a finished game brought back shows the result it was booked
//! with).

use bevy::prelude::*;

use crate::frame::AppSet;
use crate::game::solves::{Solve, now_ms};
use crate::game::{BestScores, DailyResults, WinResult, booked_result, record_win};
use crate::messages::{Change, GameChanged, Restored};
use crate::session::Session;

/// The best scores (kept in the scores file).
#[derive(Resource, Clone, Debug, Default, PartialEq, Deref)]
pub struct Scores(pub BestScores);

/// The puzzles of the day played (kept in the daily file).
#[derive(Resource, Clone, Debug, Default, PartialEq, Deref)]
pub struct Days(pub DailyResults);

/// The last win's result, for the HUD.
#[derive(Resource, Clone, Debug, Default, PartialEq, Deref)]
pub struct LastResult(pub WinResult);

/// Every finished game, oldest first, as the solve history keeps it (appended to its file
/// by `persist`, one record a solve).
#[derive(Resource, Clone, Debug, Default, PartialEq, Deref)]
pub struct History(pub Vec<Solve>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Scores>()
        .init_resource::<Days>()
        .init_resource::<LastResult>()
        .init_resource::<History>()
        .add_systems(Update, keep_records.in_set(AppSet::React));
}

/// Everything `keep_records` writes.
#[derive(bevy::ecs::system::SystemParam)]
struct Kept<'w> {
    scores: ResMut<'w, Scores>,
    days: ResMut<'w, Days>,
    result: ResMut<'w, LastResult>,
    history: ResMut<'w, History>,
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
                result.0 = record_win(finished, &mut scores.0, &mut days.0);
                let source = &session.photo.source;
                history.0.push(Solve::from_game(finished, now_ms(), source));
            }
            // A finished game on the board again (restored at start, or after its review)
            // shows the result it was booked with; the one just won keeps its card as it is.
            Change::Reset(game) if game.is_won() && !result.0.is_of(game) => {
                result.0 = booked_result(game, &scores.0, &days.0);
            }
            _ => {}
        }
    }
}
