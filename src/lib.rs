//! Snapslide: a photo cut into tiles, played by tap, swipe and keys, with an animated solve
//! and hint, on phones and the desktop. Built with Bevy 0.19 and egui on the `npuzzle` engine.
//!
//! The frame flows one way, in the order of [`AppSet`]: docs/architecture.md draws it, with
//! every message and who writes and reads it, and says which module owns each resource.
//! [`game`] (the `snapslide-game` crate) holds every rule in plain Rust; [`input`] interprets
//! gestures and keys into board intents; [`play`] executes intents and commands on the game and
//! owns the pace of slides; [`assist`] solves in the background; the views draw what the game's
//! changes tell them. [`CorePlugin`] alone runs headless, which is how the tests drive the
//! game; [`AppPlugin`] adds the window, the sprites, the HUD, sounds, files and the platform.

#![warn(missing_docs)]

use bevy::prelude::*;

pub use snapslide_game as game;

pub mod app;
pub mod assist;
pub mod board;
mod cli;
pub mod frame;
pub mod history;
pub mod hud;
pub mod leaderboard;
pub mod messages;
pub mod persist;
pub mod photo;
pub mod platform;
pub mod play;
pub mod sound;
pub mod words;

pub use cli::{CliError, CliOptions, USAGE, check_display};
pub use frame::AppSet;

/// The rules, input, solver, lifecycle and the platform's inbox: everything that runs
/// without a window.
pub struct CorePlugin;

impl Plugin for CorePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            frame::plugin,
            app::redraw::core_plugin,
            messages::plugin,
            play::settings::plugin,
            play::session::plugin,
            app::lifecycle::plugin,
            platform::core_plugin,
            board::layout::plugin,
            play::input::plugin,
            hud::state::plugin,
            photo::framing::plugin,
        ));
        app.add_plugins((
            play::plugin,
            history::records::plugin,
            play::newgame::plugin,
            assist::plugin,
            assist::meter::plugin,
            history::replay::plugin,
            history::review::plugin,
            play::events::plugin,
            history::challenge::plugin,
        ));
    }
}

/// The whole app: window, sprites, HUD, sounds, files and the platform, on top of
/// [`CorePlugin`].
pub struct AppPlugin {
    /// The command line.
    pub options: CliOptions,
}

impl Plugin for AppPlugin {
    fn build(&self, app: &mut App) {
        let (width, height) = self.options.window.unwrap_or((1100, 720));
        app.add_plugins(
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "Snapslide".into(),
                        resolution: (width, height).into(),
                        resize_constraints: bevy::window::WindowResizeConstraints {
                            min_width: board::layout::MIN_WINDOW.x,
                            min_height: board::layout::MIN_WINDOW.y,
                            ..default()
                        },
                        ..default()
                    }),
                    ..default()
                })
                .set(bevy::log::LogPlugin {
                    filter: "wgpu=error,naga=warn,bevy_render=warn,snapslide=info".into(),
                    ..default()
                })
                // Not pipelined: a frame is drawn before the next update starts, so a tap
                // reaches the screen up to a frame sooner. Pipelined rendering (an update drawn
                // while the next one runs) gained nothing measurable on a replay at 8x (see
                // docs/architecture.md, "Frame times").
                .disable::<bevy::render::pipelined_rendering::PipelinedRenderingPlugin>()
                // The platform handles the terminal's signals (and saves the game first).
                .disable::<bevy::app::TerminalCtrlCHandlerPlugin>(),
        );
        app.add_plugins(bevy_egui::EguiPlugin::default());
        // The command line first: the files' folder follows it.
        app.add_plugins(cli::plugin(self.options.clone()));
        app.add_plugins((CorePlugin, frame::wall_clock));
        app.add_plugins((
            board::tiles::plugin,
            board::view::plugin,
            hud::plugin,
            sound::audio::plugin,
            sound::tone::plugin,
            persist::plugin,
            platform::plugin,
            app::redraw::plugin,
            app::engine_setup::plugin,
            app::diagnostics::plugin,
            leaderboard::plugin,
        ));
    }
}

/// The entry point on phones, where there is no command line: `#[bevy_main]` turns it into
/// Android's `android_main`; on iOS the `snapslide` binary's `main` calls it. The desktop
/// binary calls [`run`] from `src/main.rs` instead.
#[bevy_main]
pub fn main() {
    run(CliOptions::default());
}

/// Runs the app with these options.
pub fn run(options: CliOptions) -> AppExit {
    app::diagnostics::mark_start();
    App::new().add_plugins(AppPlugin { options }).run()
}
