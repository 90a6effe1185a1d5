//! The speedsolvers' runs of boards on one clock (a marathon, a relay): when a leg's board is
//! solved and it is not the run's last, the next leg is asked for, with the clock as it
//! stands; the last leg's win ends the run (the records book it as one result).

use bevy::prelude::*;

use crate::frame::AppSet;
use crate::messages::{Change, GameChanged, NewGame};
use crate::play::CurrentGame;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, next_leg.in_set(AppSet::React));
}

/// A leg solved that is not the run's last: the next leg is made, its clock running on.
fn next_leg(
    mut changes: MessageReader<GameChanged>,
    current: Res<CurrentGame>,
    mut new_game: MessageWriter<NewGame>,
) {
    let solved = changes
        .read()
        .any(|changed| matches!(changed.change, Change::Slid { .. }) && changed.board.is_goal());
    let game = &current.game;
    let Some(run) = game.run().filter(|run| solved && !run.is_last_leg()) else {
        return;
    };
    if !game.board().is_goal() {
        return;
    }
    let mtm = npuzzle::mtm_length(&game.history_in_effect());
    new_game.write(NewGame::Leg {
        run: run.next(game.moves(), mtm, game.helped()),
        elapsed_ms: game.elapsed().as_millis() as u64,
    });
}
