//! The order of the frame, as system sets: input is read and interpreted, queued, executed,
//! solved, then shown. Every module puts its systems in one of these; the files are saved in
//! `Last`, after the views.

use std::time::Instant;

use bevy::prelude::*;
use bevy::time::{TimeSystems, TimeUpdateStrategy};

/// The order of the frame: input is read and interpreted, queued, executed, solved, then shown.
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
}

/// The frame's time is the moment the frame starts. Bevy's default takes the moment the frame
/// before was presented: after the app slept between inputs, the frame that a tap wakes would
/// be dated from before the sleep, so egui took an 80 ms tap for a press of many seconds (no
/// click) and the game's clock jumped. The app adds this; the tests set their own clock.
pub fn wall_clock(app: &mut App) {
    app.add_systems(
        First,
        (|mut strategy: ResMut<TimeUpdateStrategy>| {
            *strategy = TimeUpdateStrategy::ManualInstant(Instant::now());
        })
        .before(TimeSystems),
    );
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
        )
            .chain(),
    );
}
