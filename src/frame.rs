//! The order of the frame, as system sets: input is read and interpreted, queued, executed,
//! solved, then shown and saved. Every module puts its systems in one of these.

use bevy::prelude::*;

/// The order of the frame: input is read and interpreted, queued, executed, solved, then shown
/// and saved.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSet {
    /// Platform events, touch, mouse and keys become board intents and commands.
    RecordInput,
    /// Board intents and commands join the queue.
    Queue,
    /// The queue runs on the game.
    Execute,
    /// The solver's tasks are polled and solutions played.
    Solver,
    /// Tiles slide, sounds and haptics play.
    Animate,
    /// Files are written.
    Persist,
}

pub(super) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSet::RecordInput,
            AppSet::Queue,
            AppSet::Execute,
            AppSet::Solver,
            AppSet::Animate,
            AppSet::Persist,
        )
            .chain(),
    );
}
