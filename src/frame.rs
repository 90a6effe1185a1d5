//! The order of the frame, as system sets: input is read and interpreted, the controls are
//! drawn and read, requests become commands, the commands run on the game, and what changed
//! is shown. Every message is written before the systems that read it, so a tap is acted on,
//! executed and shown in the frame it arrives in. The files are saved in `Last`, after the
//! views. docs/architecture.md draws the whole frame.

use std::time::Instant;

use bevy::prelude::*;
use bevy::time::{TimeSystems, TimeUpdateStrategy};

/// The order of the frame, in `Update`.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSet {
    /// The platform's answers, the app's lifecycle, and touch, mouse and keys become board
    /// intents, game commands and Back.
    Input,
    /// The controls are drawn and read (egui): what the player asked of them becomes messages.
    Controls,
    /// The settings and the session take the changes asked for.
    Preferences,
    /// Requests become game commands: a replay's moves, the review's steps, then the solver's
    /// hints and playback, then new games ([`DecideStep`]).
    Decide,
    /// Board intents and commands join the queue.
    Queue,
    /// The queue runs on the game: its changes go out as `GameChanged`.
    Execute,
    /// What follows the game's changes: the records, the solver's and the meter's bookkeeping,
    /// the layout, the controls' state.
    React,
    /// The photo is cut, tiles slide, sounds and haptics play.
    Animate,
}

/// The steps of [`AppSet::Decide`], in order: each may write commands the next reads.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DecideStep {
    /// A replay's moves as its playhead passes them (Compare asks the review).
    Replay,
    /// The review's steps along its line (they may ask the solver to play it).
    Review,
    /// Solve and Hint, and a solution's playback.
    Solver,
    /// New games, made in the background and started when ready.
    NewGame,
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
            AppSet::Input,
            AppSet::Controls,
            AppSet::Preferences,
            AppSet::Decide,
            AppSet::Queue,
            AppSet::Execute,
            AppSet::React,
            AppSet::Animate,
        )
            .chain(),
    )
    .configure_sets(
        Update,
        (
            DecideStep::Replay,
            DecideStep::Review,
            DecideStep::Solver,
            DecideStep::NewGame,
        )
            .chain()
            .in_set(AppSet::Decide),
    );
}
