//! The player's records: the best scores, the puzzles of the day played, and the last win's
//! result for the HUD. This module alone writes them: from the files at start (`persist` sends
//! what it read) and from the game's changes (a win is booked; a finished game brought back
//! shows the result it was booked with).

use bevy::prelude::*;

use crate::frame::AppSet;
use crate::game::{BestScores, DailyResults, WinResult, booked_result, record_win};
use crate::messages::{Change, GameChanged, Restored};

/// The best scores (kept in the scores file).
#[derive(Resource, Clone, Debug, Default, PartialEq, Deref)]
pub struct Scores(pub BestScores);

/// The puzzles of the day played (kept in the daily file).
#[derive(Resource, Clone, Debug, Default, PartialEq, Deref)]
pub struct Days(pub DailyResults);

/// The last win's result, for the HUD.
#[derive(Resource, Clone, Debug, Default, PartialEq, Deref)]
pub struct LastResult(pub WinResult);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Scores>()
        .init_resource::<Days>()
        .init_resource::<LastResult>()
        .add_systems(Update, keep_records.in_set(AppSet::React));
}

/// Takes in the records read at start, then books what the game's changes say.
fn keep_records(
    mut restored: MessageReader<Restored>,
    mut changes: MessageReader<GameChanged>,
    mut scores: ResMut<Scores>,
    mut days: ResMut<Days>,
    mut result: ResMut<LastResult>,
) {
    for restored in restored.read() {
        if let Some(read) = &restored.scores {
            scores.0 = read.clone();
        }
        if let Some(read) = &restored.days {
            days.0 = read.clone();
        }
    }
    for changed in changes.read() {
        match &changed.change {
            Change::Won(finished) => {
                result.0 = record_win(finished, &mut scores.0, &mut days.0);
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
