//! Drawing only when something changes, to save the battery. While the player looks at the
//! board, the app sleeps between inputs and wakes once a second for the clock; while a tile
//! slides, a solution plays or the solver thinks, it draws every frame.
//!
//! Bevy 0.19 does not let a `RequestRedraw` sent during a reactive update cut the wait short on
//! every platform (bevyengine/bevy#16817), so this module switches the update mode itself: the
//! frame that starts something moving also switches to short waits, which winit obeys at once,
//! and a quarter of a second (and at least three frames) after the last motion the app goes
//! back to sleeping. egui's own wishes for frames come through its repaint callback
//! ([`EguiWantsFrames`]).
//!
//! Three things keep frames coming that no module of the game moves:
//! - the render world still catching up ([`RenderPending`]): a pipeline is compiled the first
//!   time something needs it (the tiles' sprites, egui), in the background, and the frame
//!   that shows it must come even if nothing moves by then;
//! - a message written this frame ([`InFlight`]): the views write theirs after `Update` (egui's
//!   pass), and a command can lead to another, so each is read in the next frame, which must
//!   come at once, not at the next input or the clock's tick;
//! - input: the frame after it draws the controls as the input left them, so that the next
//!   press finds what is really on screen (egui hit-tests against the pass before).

use std::time::Duration;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bevy::prelude::*;
use bevy::winit::{UpdateMode, WinitSettings};

use bevy::render::render_resource::PipelineCache;
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy::window::WindowEvent;

use crate::board::{Shake, Slide};
use crate::hud::{Hud, HudAction};
use crate::messages::{Back, BoardIntent, GameCommand, NewGame, Notice, PickPhoto, SolverCommand};
use crate::newgame::NewGameJob;
use crate::play::{ActionQueue, CurrentGame, Pace, TimerPaused};
use crate::review::{Review, ReviewCommand};
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
/// The fewest frames drawn after the last motion, however slow each frame (a software renderer
/// takes a third of a second for one): the frames that show where things came to rest.
pub const LINGER_FRAMES: u32 = 3;

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

/// The mode for a frame: moving while anything moves, and for [`LINGER`] and at least
/// [`LINGER_FRAMES`] frames after; then a tick a second while something on screen counts time
/// (the game's clock, a notice), else rest.
pub fn frame_mode(since_motion: Duration, frames_since: u32, clock_ticking: bool) -> FrameMode {
    if since_motion < LINGER || frames_since < LINGER_FRAMES {
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
    frames_since_motion: u32,
    render_waited: Duration,
}

impl Default for Frames {
    fn default() -> Self {
        Frames {
            mode: FrameMode::Moving,
            since_motion: Duration::ZERO,
            frames_since_motion: 0,
            render_waited: Duration::ZERO,
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
    render: Res<'w, RenderPending>,
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

/// How long frames keep coming for pipelines still compiling: a software renderer compiles the
/// first ones in a second or two; a pipeline that can never compile (a shader that never
/// loads is retried for ever) must not keep the app drawing for good.
pub const RENDER_PATIENCE: Duration = Duration::from_secs(10);

/// Whether the render world has work left that changes what is on screen: pipelines still
/// compiling. Set by the render world after each frame it draws, read before the next.
#[derive(Resource, Clone, Default)]
pub struct RenderPending(Arc<AtomicBool>);

impl RenderPending {
    /// Whether the last frame drawn left pipelines compiling.
    pub fn pending(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Notes whether pipelines are still compiling (the render world, after each frame).
    pub fn set(&self, pending: bool) {
        self.0.store(pending, Ordering::Relaxed);
    }
}

/// The messages that ask for something to be done: one written in a frame is read in the next
/// (the views write theirs after `Update`, and a command can lead to another). "Written since
/// the messages were last swapped", strictly: a frame or two more than needed, never a loop,
/// as no system writes one of these every frame.
#[derive(bevy::ecs::system::SystemParam)]
pub struct InFlight<'w> {
    notice: Option<Res<'w, Messages<Notice>>>,
    game: Option<Res<'w, Messages<GameCommand>>>,
    intents: Option<Res<'w, Messages<BoardIntent>>>,
    new_game: Option<Res<'w, Messages<NewGame>>>,
    solver: Option<Res<'w, Messages<SolverCommand>>>,
    review: Option<Res<'w, Messages<ReviewCommand>>>,
    hud: Option<Res<'w, Messages<HudAction>>>,
    photo: Option<Res<'w, Messages<PickPhoto>>>,
    back: Option<Res<'w, Messages<Back>>>,
    exit: Option<Res<'w, Messages<AppExit>>>,
}

impl InFlight<'_> {
    /// Whether any was written since the last swap of the messages.
    pub fn any(&self) -> bool {
        fn written<M: Message>(messages: &Option<Res<Messages<M>>>) -> bool {
            messages
                .as_ref()
                .is_some_and(|m| m.iter_current_update_messages().len() > 0)
        }
        written(&self.game)
            || written(&self.notice)
            || written(&self.intents)
            || written(&self.new_game)
            || written(&self.solver)
            || written(&self.review)
            || written(&self.hud)
            || written(&self.photo)
            || written(&self.back)
            || written(&self.exit)
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
        .init_resource::<RenderPending>()
        .insert_resource(FrameMode::Moving.settings())
        .add_systems(Last, pace_frames);
    let pending = app.world().resource::<RenderPending>().clone();
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render
            .insert_resource(pending)
            .add_systems(Render, report_pipelines.in_set(RenderSystems::Cleanup));
    }
}

/// Whether the render world still catches up (pipelines compiling), for at most
/// [`RENDER_PATIENCE`] at a stretch.
fn render_catching_up(frames: &mut Frames, render: &RenderPending, delta: Duration) -> bool {
    if !render.pending() {
        frames.render_waited = Duration::ZERO;
        return false;
    }
    let before = frames.render_waited;
    frames.render_waited += delta;
    if before < RENDER_PATIENCE && frames.render_waited >= RENDER_PATIENCE {
        warn!("pipelines still compiling after {RENDER_PATIENCE:?}: no longer drawing for them");
    }
    before < RENDER_PATIENCE
}

/// Whether a window event is the player's input.
fn is_input(event: &WindowEvent) -> bool {
    matches!(
        event,
        WindowEvent::CursorMoved(_)
            | WindowEvent::MouseButtonInput(_)
            | WindowEvent::MouseWheel(_)
            | WindowEvent::TouchInput(_)
            | WindowEvent::KeyboardInput(_)
    )
}

/// Tells the main world whether pipelines are still compiling (the render world).
fn report_pipelines(cache: Res<PipelineCache>, pending: Res<RenderPending>) {
    pending.set(cache.waiting_pipelines().next().is_some());
}

/// Picks this frame's mode and tells winit when it changes.
fn pace_frames(
    time: Res<Time<Real>>,
    motion: Motion,
    mut frames: ResMut<Frames>,
    in_flight: InFlight,
    mut input: MessageReader<WindowEvent>,
    winit: Option<ResMut<WinitSettings>>,
) {
    if motion.now() || render_catching_up(&mut frames, &motion.render, time.delta()) {
        frames.since_motion = Duration::ZERO;
        frames.frames_since_motion = 0;
    } else {
        frames.since_motion += time.delta();
        frames.frames_since_motion = frames.frames_since_motion.saturating_add(1);
    }
    // egui's wish (a layout to settle, an animation's next step) and a message to be read are
    // one frame, not a linger.
    // After input, one frame more: egui finds what a press hits among the widgets of the pass
    // before, so the controls must be drawn again as the input left them (a sheet closed, a
    // button enabled) before the next press, or that press lands on what is gone.
    let after_input = input.read().any(is_input);
    let wants_one = motion.egui.take() | in_flight.any() | after_input;
    let mode = if wants_one {
        FrameMode::Moving
    } else {
        frame_mode(
            frames.since_motion,
            frames.frames_since_motion,
            motion.clock_ticking(),
        )
    };
    if mode != frames.mode {
        debug!(
            "frames: {:?} → {mode:?} (render pending: {})",
            frames.mode,
            motion.render.pending()
        );
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
        let after = LINGER_FRAMES;
        assert_eq!(frame_mode(Duration::ZERO, 0, false), FrameMode::Moving);
        assert_eq!(frame_mode(LINGER / 2, after, true), FrameMode::Moving);
        assert_eq!(frame_mode(LINGER, after, true), FrameMode::Idle);
        assert_eq!(frame_mode(LINGER, after, false), FrameMode::Resting);
        // Slow frames (a software renderer): the frames after the motion still come.
        assert_eq!(frame_mode(LINGER * 4, 1, false), FrameMode::Moving);
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
