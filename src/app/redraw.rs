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
//! What keeps frames coming is what the frame did, as each module says with a
//! [`FrameRequest`]: something moves (a slide, a spinner, a solution playing), something counts
//! time (the clock, a notice), or a module wrote a message late in the frame for a reader that
//! ran before it (a notice from the files, read by the controls), which the next frame must
//! read at once. The messages the frame's steps exchange need no frame of their own: each is
//! written before its readers run, in the same frame ([`crate::frame::AppSet`]).
//!
//! One thing keeps frames coming that no module of the game moves: the render world still
//! catching up ([`RenderPending`]): a pipeline is compiled the first time something needs it
//! (the tiles' sprites, egui), in the background, and the frame that shows it must come even
//! if nothing moves by then. (Input asks for the frame after it itself, so that the controls
//! are drawn as the input left them before the next press: egui hit-tests against the pass
//! before, and draws before the game acts on a tap.)

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy::winit::{UpdateMode, WinitSettings};

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

/// What a module needs of the frames to come, written in `Last` ([`ReportMotion`]) or
/// earlier; read once a frame, after the reports, to set the pace.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameRequest {
    /// Something moves on screen (a slide, a shake, a solution playing, a search's spinner):
    /// a frame every [`FRAME`], and for [`LINGER`] after.
    Moving,
    /// Something on screen counts time (the game's clock, a notice to take down): a frame
    /// every [`IDLE_WAIT`].
    Ticking,
    /// The next frame at once, once: a message was written this frame for a reader that ran
    /// before it.
    OneMore,
}

/// Where, in `Last`, the modules write their [`FrameRequest`]s; the pace is set after it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReportMotion;

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

/// Whether egui asked for the next frame at once (an animation, a spinner, a hover). Set by
/// egui's repaint callback, from any thread; read and cleared once a frame. Its requests for
/// a frame later (a tooltip's delay) are left to the clock's tick: bevy_egui turns every
/// request into a `RequestRedraw`, which would keep the app drawing while nothing moves.
#[derive(Resource, Clone, Default)]
pub struct EguiWantsFrames(Arc<AtomicBool>);

impl EguiWantsFrames {
    /// Sets egui's repaint callback: its wish for the next frame at once is noted here and
    /// wakes the app, which keeps drawing; its wishes for a frame later wait for the clock's
    /// tick.
    fn wake_on_repaint(
        &self,
        ctx: &bevy_egui::egui::Context,
        proxy: Option<&bevy::winit::EventLoopProxyWrapper>,
    ) {
        let wants = Arc::clone(&self.0);
        let proxy = proxy.map(|proxy| std::sync::Mutex::new((**proxy).clone()));
        ctx.set_request_repaint_callback(move |info| {
            if !info.delay.is_zero() {
                return;
            }
            wants.store(true, Ordering::Relaxed);
            if let Some(proxy) = &proxy {
                let _ = crate::app::background::lock(proxy)
                    .send_event(bevy::winit::WinitUserEvent::WakeUp);
            }
        });
    }

    fn take(&self) -> bool {
        self.0.swap(false, Ordering::Relaxed)
    }
}

/// Draws only when something changes (the tests add it to a headless app).
pub fn plugin(app: &mut App) {
    core_plugin(app);
    app.init_resource::<Frames>()
        .init_resource::<EguiWantsFrames>()
        .init_resource::<RenderPending>()
        .insert_resource(FrameMode::Moving.settings())
        // Not in a headless app without the controls.
        .add_systems(
            Update,
            hear_egui.run_if(resource_exists::<bevy_egui::EguiUserTextures>),
        )
        .add_systems(Last, pace_frames.after(ReportMotion));
    let pending = app.world().resource::<RenderPending>().clone();
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render
            .insert_resource(pending)
            .add_systems(Render, report_pipelines.in_set(RenderSystems::Cleanup));
    }
}

/// Where the modules report what moves ([`FrameRequest`]), without the pacing: the core has
/// it, so the modules' reports need no window.
pub fn core_plugin(app: &mut App) {
    app.add_message::<FrameRequest>();
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

/// Tells the main world whether pipelines are still compiling (the render world).
fn report_pipelines(cache: Res<PipelineCache>, pending: Res<RenderPending>) {
    pending.set(cache.waiting_pipelines().next().is_some());
}

/// What the modules asked of this frame.
#[derive(Default)]
struct Reported {
    moving: bool,
    ticking: bool,
    one_more: bool,
}

impl Reported {
    fn of(requests: &mut MessageReader<FrameRequest>) -> Reported {
        let mut reported = Reported::default();
        for request in requests.read() {
            match request {
                FrameRequest::Moving => reported.moving = true,
                FrameRequest::Ticking => reported.ticking = true,
                FrameRequest::OneMore => reported.one_more = true,
            }
        }
        reported
    }
}

/// Hears egui's wishes for frames: its repaint callback is set once its context is there
/// (this module alone writes [`EguiWantsFrames`]).
fn hear_egui(
    mut contexts: bevy_egui::EguiContexts,
    frames: Res<EguiWantsFrames>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    mut heard: Local<bool>,
) {
    if *heard {
        return;
    }
    if let Ok(ctx) = contexts.ctx_mut() {
        frames.wake_on_repaint(ctx, proxy.as_deref());
        *heard = true;
    }
}

/// Picks this frame's mode and tells winit when it changes.
fn pace_frames(
    time: Res<Time<Real>>,
    mut requests: MessageReader<FrameRequest>,
    mut frames: ResMut<Frames>,
    render: Res<RenderPending>,
    egui: Res<EguiWantsFrames>,
    winit: Option<ResMut<WinitSettings>>,
) {
    let reported = Reported::of(&mut requests);
    if reported.moving || render_catching_up(&mut frames, &render, time.delta()) {
        frames.since_motion = Duration::ZERO;
        frames.frames_since_motion = 0;
    } else {
        frames.since_motion += time.delta();
        frames.frames_since_motion = frames.frames_since_motion.saturating_add(1);
    }
    // egui's wish (a layout to settle, an animation's next step) and a message to be read are
    // one frame, not a linger.
    // After input, one frame more (input asks for it): egui finds what a press hits among the
    // widgets of the pass before, so the controls must be drawn again as the input left them.
    let wants_one = egui.take() | reported.one_more;
    let mode = if wants_one {
        FrameMode::Moving
    } else {
        let since = (frames.since_motion, frames.frames_since_motion);
        frame_mode(since.0, since.1, reported.ticking)
    };
    if mode != frames.mode {
        debug!(
            "frames: {:?} → {mode:?} (render pending: {})",
            frames.mode,
            render.pending()
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
