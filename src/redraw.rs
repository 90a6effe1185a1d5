//! Drawing only when something changes, to save the battery. While the player looks at the
//! board, the app sleeps between inputs and wakes once a second for the clock; while a tile
//! slides, a solution plays or the solver thinks, it draws every frame.
//!
//! Bevy 0.19 does not let a `RequestRedraw` sent during a reactive update cut the wait short on
//! every platform (bevyengine/bevy#16817), so this module switches the update mode itself: the
//! frame that starts something moving also switches to short waits, which winit obeys at once,
//! and a quarter of a second after the last motion the app goes back to sleeping.

use std::time::Duration;

use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{UpdateMode, WinitSettings};

use crate::board::{Shake, Slide};
use crate::newgame::NewGameJob;
use crate::play::{ActionQueue, Pace};
use crate::solver::{Playback, SolverJob};
use crate::tiles::PhotoTiles;

/// The wait between frames while something moves (60 frames a second).
pub const FRAME: Duration = Duration::from_nanos(16_666_667);
/// The wait between frames while nothing moves: the clock's tick.
pub const IDLE_WAIT: Duration = Duration::from_secs(1);
/// How long after the last motion the app keeps drawing every frame, so that the mode does not
/// flap between the frames of a burst of input.
pub const LINGER: Duration = Duration::from_millis(250);

/// How the app draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameMode {
    /// A frame every [`FRAME`].
    Moving,
    /// A frame on input, and every [`IDLE_WAIT`].
    Idle,
}

impl FrameMode {
    /// The winit settings for this mode.
    pub fn settings(self) -> WinitSettings {
        let wait = match self {
            FrameMode::Moving => FRAME,
            FrameMode::Idle => IDLE_WAIT,
        };
        WinitSettings {
            focused_mode: UpdateMode::reactive(wait),
            unfocused_mode: UpdateMode::reactive_low_power(wait),
        }
    }
}

/// The mode for a frame: moving while anything moves, and for [`LINGER`] after.
pub fn frame_mode(since_motion: Duration) -> FrameMode {
    if since_motion < LINGER {
        FrameMode::Moving
    } else {
        FrameMode::Idle
    }
}

/// The mode in force and when something last moved.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct Frames {
    /// The mode in force.
    pub mode: FrameMode,
    since_motion: Duration,
}

impl Default for Frames {
    fn default() -> Self {
        Frames {
            mode: FrameMode::Moving,
            since_motion: Duration::ZERO,
        }
    }
}

/// Everything that moves on screen.
#[derive(bevy::ecs::system::SystemParam)]
struct Motion<'w, 's> {
    slides: Query<'w, 's, (), With<Slide>>,
    shake: Res<'w, Shake>,
    pace: Res<'w, Pace>,
    queue: Res<'w, ActionQueue>,
    playback: Res<'w, Playback>,
    job: Res<'w, SolverJob>,
    new_game: Res<'w, NewGameJob>,
    tiles: Res<'w, PhotoTiles>,
    redraws: MessageReader<'w, 's, RequestRedraw>,
}

impl Motion<'_, '_> {
    fn now(&mut self) -> bool {
        // Read every redraw request (egui's animations and the spinner send them).
        let asked = self.redraws.read().count() > 0;
        asked
            || !self.slides.is_empty()
            || self.shake.active()
            || self.pace.busy()
            || !self.queue.0.is_empty()
            || (self.playback.active() && !self.playback.paused)
            || self.job.0.is_some()
            || self.new_game.0.is_some()
            || self.tiles.loading
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Frames>()
        .insert_resource(FrameMode::Moving.settings())
        .add_systems(Last, pace_frames);
}

/// Picks this frame's mode and tells winit when it changes.
fn pace_frames(
    time: Res<Time<Real>>,
    mut motion: Motion,
    mut frames: ResMut<Frames>,
    winit: Option<ResMut<WinitSettings>>,
) {
    if motion.now() {
        frames.since_motion = Duration::ZERO;
    } else {
        frames.since_motion += time.delta();
    }
    let mode = frame_mode(frames.since_motion);
    if mode != frames.mode {
        frames.mode = mode;
        if let Some(mut winit) = winit {
            *winit = mode.settings();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_come_quickly_while_moving_and_slowly_after() {
        assert_eq!(frame_mode(Duration::ZERO), FrameMode::Moving);
        assert_eq!(frame_mode(LINGER / 2), FrameMode::Moving);
        assert_eq!(frame_mode(LINGER), FrameMode::Idle);
        let moving = FrameMode::Moving.settings();
        let idle = FrameMode::Idle.settings();
        assert!(
            matches!(moving.focused_mode, UpdateMode::Reactive { wait, .. } if wait <= Duration::from_millis(17))
        );
        assert!(
            matches!(idle.focused_mode, UpdateMode::Reactive { wait, .. } if wait >= Duration::from_millis(500))
        );
    }
}
