//! Drawing only when something changes, to save the battery. While the player looks at the
//! board, the app sleeps between inputs and wakes once a second for the clock; while a tile
//! slides, a solution plays or the solver thinks, it draws every frame.
//!
//! Bevy 0.19 does not let a `RequestRedraw` sent during a reactive update cut the wait short on
//! every platform (bevyengine/bevy#16817), so this module switches the update mode itself: the
//! frame that starts something moving also switches to short waits, which winit obeys at once,
//! and a quarter of a second after the last motion the app goes back to sleeping. egui's own
//! wishes for frames come through its repaint callback ([`EguiWantsFrames`]).

use std::time::Duration;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bevy::prelude::*;
use bevy::winit::{UpdateMode, WinitSettings};

use crate::board::{Shake, Slide};
use crate::hud::Hud;
use crate::newgame::NewGameJob;
use crate::play::{ActionQueue, CurrentGame, Pace, TimerPaused};
use crate::review::Review;
use crate::solver::{Playback, SolverJob};
use crate::tiles::PhotoTiles;

/// The wait between frames while something moves (60 frames a second).
pub const FRAME: Duration = Duration::from_nanos(16_666_667);
/// The wait between frames while nothing moves but the game's clock: its tick.
pub const IDLE_WAIT: Duration = Duration::from_secs(1);
/// The wait between frames while nothing moves at all (the clock stands: no move yet, the
/// game won, a sheet open): input still wakes the app at once.
pub const REST_WAIT: Duration = Duration::from_secs(30);
/// How long after the last motion the app keeps drawing every frame, so that the mode does not
/// flap between the frames of a burst of input.
pub const LINGER: Duration = Duration::from_millis(250);

/// How the app draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameMode {
    /// A frame every [`FRAME`].
    Moving,
    /// A frame on input, and every [`IDLE_WAIT`] for the clock.
    Idle,
    /// A frame on input, and every [`REST_WAIT`].
    Resting,
}

impl FrameMode {
    /// The winit settings for this mode.
    pub fn settings(self) -> WinitSettings {
        let wait = match self {
            FrameMode::Moving => FRAME,
            FrameMode::Idle => IDLE_WAIT,
            FrameMode::Resting => REST_WAIT,
        };
        WinitSettings {
            focused_mode: UpdateMode::reactive(wait),
            unfocused_mode: UpdateMode::reactive_low_power(wait),
        }
    }
}

/// The mode for a frame: moving while anything moves, and for [`LINGER`] after; then a tick a
/// second while something on screen counts time (the game's clock, a notice), else rest.
pub fn frame_mode(since_motion: Duration, clock_ticking: bool) -> FrameMode {
    if since_motion < LINGER {
        FrameMode::Moving
    } else if clock_ticking {
        FrameMode::Idle
    } else {
        FrameMode::Resting
    }
}

/// The mode in force, and when something last moved.
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

/// Set while something outside the game needs frames to come (a `--screenshot` waiting for
/// the board to settle): the app draws as if something moved.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HoldFrames(pub bool);

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
    review: Res<'w, Review>,
    egui: Res<'w, EguiWantsFrames>,
    current: Res<'w, CurrentGame>,
    paused: Res<'w, TimerPaused>,
    hud: Res<'w, Hud>,
    held: Res<'w, HoldFrames>,
}

impl Motion<'_, '_> {
    /// Whether something on screen counts time: the game's clock, or a notice to take down.
    fn clock_ticking(&self) -> bool {
        self.paused.counting(&self.current.game) || !self.hud.notices.is_empty()
    }

    /// Whether something of the app's own moves.
    fn now(&self) -> bool {
        !self.slides.is_empty()
            || self.shake.active()
            || self.pace.busy()
            || !self.queue.0.is_empty()
            || (self.playback.active() && !self.playback.paused)
            || self.job.0.is_some()
            || self.new_game.0.is_some()
            || self.tiles.loading
            || self.review.working()
            || self.held.0
    }
}

/// Whether egui asked for the next frame at once (an animation, a spinner, a hover). Set by
/// egui's repaint callback, from any thread; read and cleared once a frame. Its requests for
/// a frame later (a tooltip's delay) are left to the clock's tick: bevy_egui turns every
/// request into a `RequestRedraw`, which would keep the app drawing while nothing moves.
#[derive(Resource, Clone, Default)]
pub struct EguiWantsFrames(Arc<AtomicBool>);

impl EguiWantsFrames {
    /// Notes a request (egui's callback).
    pub fn ask(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    fn take(&self) -> bool {
        self.0.swap(false, Ordering::Relaxed)
    }
}

/// Draws only when something changes (the tests add it to a headless app).
pub fn plugin(app: &mut App) {
    app.init_resource::<Frames>()
        .init_resource::<EguiWantsFrames>()
        .init_resource::<HoldFrames>()
        .insert_resource(FrameMode::Moving.settings())
        .add_systems(Last, pace_frames);
}

/// Picks this frame's mode and tells winit when it changes.
fn pace_frames(
    time: Res<Time<Real>>,
    motion: Motion,
    mut frames: ResMut<Frames>,
    winit: Option<ResMut<WinitSettings>>,
) {
    if motion.now() {
        frames.since_motion = Duration::ZERO;
    } else {
        frames.since_motion += time.delta();
    }
    // egui's wish (a layout to settle, an animation's next step) is one frame, not a linger.
    let mode = if motion.egui.take() {
        FrameMode::Moving
    } else {
        frame_mode(frames.since_motion, motion.clock_ticking())
    };
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
        assert_eq!(frame_mode(Duration::ZERO, false), FrameMode::Moving);
        assert_eq!(frame_mode(LINGER / 2, true), FrameMode::Moving);
        assert_eq!(frame_mode(LINGER, true), FrameMode::Idle);
        assert_eq!(frame_mode(LINGER, false), FrameMode::Resting);
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
