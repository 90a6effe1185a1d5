//! For developers: the start-to-first-frame and start-to-board times (what
//! tools/cold_start.py reads), `--screenshot` (a PNG once the board is on screen, then exit)
//! and `--frame-stats` (the mean and worst frame time every two seconds).

use std::sync::OnceLock;
use std::time::Instant;

use bevy::prelude::*;

use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::board::view::OnScreen;
use crate::cli::CliOptions;

/// When the app started, for the start-to-first-frame figure.
static STARTED: OnceLock<Instant> = OnceLock::new();

/// Notes that the app starts now (the first call counts).
pub fn mark_start() {
    STARTED.get_or_init(Instant::now);
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, (first_frame, frame_stats))
        .add_systems(Last, challenge_on_screen)
        .add_systems(Last, (log_actions, screenshot.in_set(ReportMotion)));
    if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
        render.add_systems(
            bevy::render::Render,
            first_presented.in_set(bevy::render::RenderSystems::Cleanup),
        );
    }
}

/// Logs when the window's first frame went to the screen, whatever it shows (the background
/// and the controls come before the board while the photo is cut): the render world, after
/// the frame's presentation. A window whose frame was presented keeps the frame's view until
/// the next extraction, and has handed its surface texture over.
fn first_presented(windows: Res<bevy::render::view::ExtractedWindows>, mut done: Local<bool>) {
    if *done {
        return;
    }
    let presented = windows.windows.values().any(|window| {
        window.swap_chain_texture_view.is_some() && window.swap_chain_texture.is_none()
    });
    if !presented {
        return;
    }
    *done = true;
    if let Some(started) = STARTED.get() {
        info!(
            "first frame {:.0} ms after start",
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
}

/// The log target of the actions asked for: `RUST_LOG=snapslide::actions=debug` logs every
/// action the controls and the input ask for and every sheet opened or closed, as they happen
/// (the HUD logs its own): what a scripted run of taps checks each tap against.
pub const ACTIONS_LOG: &str = "snapslide::actions";

/// Logs the actions asked for this frame (see [`ACTIONS_LOG`]).
fn log_actions(mut asked: Asked) {
    asked.log();
}

/// Every message that asks for an action.
#[derive(bevy::ecs::system::SystemParam)]
struct Asked<'w, 's> {
    game: MessageReader<'w, 's, crate::messages::GameCommand>,
    solver: MessageReader<'w, 's, crate::messages::SolverCommand>,
    settings: MessageReader<'w, 's, crate::play::settings::SettingsCommand>,
    review: MessageReader<'w, 's, crate::history::review::ReviewCommand>,
    intents: MessageReader<'w, 's, crate::messages::BoardIntent>,
}

impl Asked<'_, '_> {
    fn log(&mut self) {
        self.game
            .read()
            .for_each(|a| debug!(target: ACTIONS_LOG, "action: {a:?}"));
        self.solver
            .read()
            .for_each(|a| debug!(target: ACTIONS_LOG, "action: {a:?}"));
        self.settings
            .read()
            .for_each(|a| debug!(target: ACTIONS_LOG, "action: {a:?}"));
        self.review
            .read()
            .for_each(|a| debug!(target: ACTIONS_LOG, "action: {a:?}"));
        self.intents
            .read()
            .for_each(|a| debug!(target: ACTIONS_LOG, "action: {a:?}"));
    }
}

fn first_frame(on_screen: Res<OnScreen>, mut done: Local<bool>) {
    if *done || on_screen.tiles.is_empty() {
        return;
    }
    *done = true;
    if let Some(started) = STARTED.get() {
        info!(
            "first frame with the board {:.0} ms after start",
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
}

/// Takes the `--screenshot` once the board has been on screen for a few frames, then exits.
/// Frames keep coming until then, however still the board.
fn screenshot(
    mut commands: Commands,
    options: Res<CliOptions>,
    on_screen: Res<OnScreen>,
    mut requests: MessageWriter<FrameRequest>,
    mut frames: Local<u32>,
) {
    let Some(path) = options.screenshot.clone() else {
        return;
    };
    requests.write(FrameRequest::Moving);
    if on_screen.tiles.is_empty() {
        return;
    }
    *frames += 1;
    // A few frames for the textures and egui's fonts to reach the GPU.
    if *frames != 20 {
        return;
    }
    use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
    let mut save = save_to_disk(path);
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            save(captured);
            exit.write(AppExit::Success);
        },
    );
}

/// How long a friend's code takes to reach the screen: from the frame it is asked to open to
/// the first frame whose board is the challenge's, its photo cut for that board (logged once a
/// code).
fn challenge_on_screen(
    mut asked: MessageReader<crate::messages::OpenChallenge>,
    challenged: Res<crate::history::challenge::Challenged>,
    current: Res<crate::play::CurrentGame>,
    tiles: Res<crate::board::tiles::PhotoTiles>,
    mut since: Local<Option<Instant>>,
) {
    if asked.read().count() > 0 {
        *since = Some(Instant::now());
    }
    let Some(asked_at) = *since else {
        return;
    };
    let board = current.game.board();
    let cut = (tiles.made_from.as_ref())
        .is_some_and(|(_, w, h)| (*w, *h) == (board.width(), board.height()));
    if challenged.of(&current.game).is_some() && cut && !tiles.loading {
        info!(
            "a challenge's board on screen {} ms after its code",
            asked_at.elapsed().as_millis()
        );
        *since = None;
    }
}

/// The frame time a smooth animation stays under (30 frames a second), in seconds.
const SMOOTH: f32 = 1.0 / 30.0;

/// With `--frame-stats` (or `SNAPSLIDE_FRAME_LOG` set), logs the mean and worst frame time
/// every two seconds, and how many frames took longer than [`SMOOTH`].
fn frame_stats(
    options: Res<CliOptions>,
    time: Res<Time<Real>>,
    frames: Option<Res<crate::app::redraw::Frames>>,
    mut on: Local<Option<bool>>,
    mut window: Local<(f32, f32, u32, u32)>,
) {
    let on = *on.get_or_insert_with(|| {
        options.frame_stats || std::env::var_os("SNAPSLIDE_FRAME_LOG").is_some()
    });
    if !on {
        return;
    }
    let dt = time.delta_secs();
    window.0 += dt;
    window.1 = window.1.max(dt);
    window.2 += 1;
    window.3 += u32::from(dt > SMOOTH);
    if window.0 >= 2.0 {
        info!(
            "frames: {} in {:.2} s, mean {:.2} ms, worst {:.2} ms, {} over {:.1} ms ({:?})",
            window.2,
            window.0,
            window.0 * 1000.0 / window.2 as f32,
            window.1 * 1000.0,
            window.3,
            SMOOTH * 1000.0,
            frames.map(|f| f.mode)
        );
        *window = (0.0, 0.0, 0, 0);
    }
}
