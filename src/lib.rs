//! Snapslide: a photo cut into tiles, played by tap, swipe and keys, with an animated solve
//! and hint. Built with Bevy 0.19 and egui on the `npuzzle` engine.
//!
//! The rules live in [`game`] (plain Rust); [`input`] interprets taps, swipes and keys;
//! [`play`] executes them on the game; [`solver_task`] solves in the background. The window,
//! sprites, sounds, HUD and files are added by [`AppPlugin`]; [`CorePlugin`] alone runs
//! headless, which is how the tests drive the game.

#![warn(missing_docs)]

use std::path::PathBuf;
use std::time::Instant;

use bevy::prelude::*;
use thiserror::Error;

mod audio;
pub mod board;
#[cfg(not(any(target_os = "android", target_os = "ios")))]
mod desktop;
pub mod game;
pub mod hud;
pub mod input;
pub mod persist;
pub mod photo;
pub mod play;
pub mod solver_task;

/// The order of the frame: input is read, queued, executed, solved, then shown and saved.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSet {
    /// Raw touch, mouse and keys become board input.
    RecordInput,
    /// Board input and commands join the queue.
    Queue,
    /// The queue runs on the game.
    Execute,
    /// The solver's tasks are polled and solutions played.
    Solver,
    /// Tiles slide and sounds play.
    Animate,
    /// Files are written.
    Persist,
}

/// The command-line options.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct CliOptions {
    /// A photo file to play with.
    pub photo: Option<PathBuf>,
    /// Tiles per side.
    pub size: Option<usize>,
    /// The shuffle's seed.
    pub seed: Option<u64>,
    /// Save a PNG of the window once the board is on screen, then exit.
    pub screenshot: Option<PathBuf>,
    /// Log frame times every two seconds.
    pub frame_stats: bool,
    /// Sleep between inputs instead of drawing every frame (experimental).
    pub low_power: bool,
}

/// A command line the app does not understand.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CliError {
    /// An option without its value.
    #[error("{0} needs a value")]
    MissingValue(String),
    /// A value that is not what the option takes.
    #[error("{option}: '{value}' is not valid ({expected})")]
    BadValue {
        /// The option.
        option: String,
        /// The value given.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
    /// An option the app does not know.
    #[error("unknown option '{0}' (try --help)")]
    Unknown(String),
    /// `--help` was asked for.
    #[error("{USAGE}")]
    Help,
}

/// The usage text.
pub const USAGE: &str = "usage: snapslide [--photo FILE] [--size N (3-8)] [--seed S] [--screenshot FILE.png] [--frame-stats] [--low-power]";

impl CliOptions {
    /// Parses the arguments after the program name.
    pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<CliOptions, CliError> {
        let mut options = CliOptions::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
                _ => (arg.clone(), None),
            };
            let mut value = |name: &str| {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .ok_or_else(|| CliError::MissingValue(name.to_string()))
            };
            match name.as_str() {
                "--photo" => options.photo = Some(PathBuf::from(value("--photo")?)),
                "--screenshot" => options.screenshot = Some(PathBuf::from(value("--screenshot")?)),
                "--size" => {
                    let text = value("--size")?;
                    let size = text
                        .parse::<usize>()
                        .ok()
                        .filter(|n| (play::MIN_SIZE..=play::MAX_SIZE).contains(n))
                        .ok_or(CliError::BadValue {
                            option: name.clone(),
                            value: text,
                            expected: "a whole number from 3 to 8",
                        })?;
                    options.size = Some(size);
                }
                "--seed" => {
                    let text = value("--seed")?;
                    let seed = text.parse::<u64>().map_err(|_| CliError::BadValue {
                        option: name.clone(),
                        value: text,
                        expected: "a whole number",
                    })?;
                    options.seed = Some(seed);
                }
                "--frame-stats" => options.frame_stats = true,
                "--low-power" => options.low_power = true,
                "-h" | "--help" => return Err(CliError::Help),
                _ => return Err(CliError::Unknown(arg)),
            }
        }
        Ok(options)
    }
}

/// The rules, input and solver: everything that runs without a window.
pub struct CorePlugin;

impl Plugin for CorePlugin {
    fn build(&self, app: &mut App) {
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
        app.add_plugins((input::plugin, play::plugin, solver_task::plugin));
    }
}

/// The whole app: window, sprites, HUD, sounds, photos and files, on top of [`CorePlugin`].
pub struct AppPlugin {
    /// The command line.
    pub options: CliOptions,
}

/// When the process started, for the start-to-first-frame figure.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Started(pub Instant);

impl Plugin for AppPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "Snapslide".into(),
                        resolution: (1100, 720).into(),
                        ..default()
                    }),
                    ..default()
                })
                .set(bevy::log::LogPlugin {
                    filter: "wgpu=error,naga=warn,bevy_render=warn,snapslide=info".into(),
                    ..default()
                }),
        );
        app.add_plugins(bevy_egui::EguiPlugin::default());
        // `--low-power` sleeps between inputs, waking every 100 ms for the clock and the
        // solver (slides and playback ask for every frame): a fraction of the CPU when idle.
        if self.options.low_power {
            use bevy::winit::{UpdateMode, WinitSettings};
            app.insert_resource(WinitSettings {
                focused_mode: UpdateMode::reactive(std::time::Duration::from_millis(100)),
                unfocused_mode: UpdateMode::reactive(std::time::Duration::from_millis(250)),
            });
        }
        app.insert_resource(ClearColor(Color::srgb(0.13, 0.14, 0.17)));
        app.insert_resource(self.options.clone());
        let data_dir = if self.options.screenshot.is_some() {
            persist::DataDir(None)
        } else {
            persist::DataDir::platform()
        };
        app.insert_resource(data_dir);
        app.add_plugins(CorePlugin);
        app.add_plugins((board::plugin, hud::plugin, audio::plugin, persist::plugin));
        #[cfg(not(any(target_os = "android", target_os = "ios")))]
        app.add_plugins(desktop::plugin);
        app.add_systems(Update, (first_frame, screenshot, frame_stats));
    }
}

fn first_frame(
    started: Option<Res<Started>>,
    tiles: Query<(), With<board::TileSprite>>,
    mut done: Local<bool>,
) {
    if *done || tiles.is_empty() {
        return;
    }
    *done = true;
    if let Some(started) = started {
        info!(
            "first frame with the board {:.0} ms after start",
            started.0.elapsed().as_secs_f64() * 1000.0
        );
    }
}

/// Takes the `--screenshot` once the board has been on screen for a few frames, then exits.
fn screenshot(
    mut commands: Commands,
    options: Res<CliOptions>,
    tiles: Query<(), With<board::TileSprite>>,
    mut frames: Local<u32>,
) {
    let Some(path) = options.screenshot.clone() else {
        return;
    };
    if tiles.is_empty() {
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

/// With `--frame-stats`, logs the mean and worst frame time every two seconds.
fn frame_stats(options: Res<CliOptions>, time: Res<Time>, mut window: Local<(f32, f32, u32)>) {
    if !options.frame_stats && std::env::var_os("SNAPSLIDE_FRAME_LOG").is_none() {
        return;
    }
    let dt = time.delta_secs();
    window.0 += dt;
    window.1 = window.1.max(dt);
    window.2 += 1;
    if window.0 >= 2.0 {
        info!(
            "frames: {} in {:.2} s, mean {:.2} ms, worst {:.2} ms",
            window.2,
            window.0,
            window.0 * 1000.0 / window.2 as f32,
            window.1 * 1000.0
        );
        *window = (0.0, 0.0, 0);
    }
}

/// The entry point on phones, where there is no command line: `#[bevy_main]` turns it into
/// Android's `android_main`. The desktop binary calls [`run`] from `src/main.rs` instead.
#[bevy_main]
pub fn main() {
    run(CliOptions::default());
}

/// Runs the app with these options.
pub fn run(options: CliOptions) -> AppExit {
    let started = Started(Instant::now());
    App::new()
        .insert_resource(started)
        .add_plugins(AppPlugin { options })
        .run()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<CliOptions, CliError> {
        CliOptions::parse(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn flags_parse() {
        let o = parse(&[
            "--photo",
            "a.png",
            "--size=5",
            "--seed",
            "7",
            "--screenshot",
            "s.png",
        ])
        .unwrap();
        assert_eq!(o.photo, Some(PathBuf::from("a.png")));
        assert_eq!(o.size, Some(5));
        assert_eq!(o.seed, Some(7));
        assert_eq!(o.screenshot, Some(PathBuf::from("s.png")));
        assert_eq!(parse(&[]).unwrap(), CliOptions::default());
        let o = parse(&["--low-power", "--frame-stats"]).unwrap();
        assert!(o.low_power && o.frame_stats);
    }

    #[test]
    fn bad_flags_are_explained() {
        assert!(matches!(
            parse(&["--size", "9"]),
            Err(CliError::BadValue { .. })
        ));
        assert!(matches!(
            parse(&["--size", "x"]),
            Err(CliError::BadValue { .. })
        ));
        assert!(matches!(parse(&["--seed"]), Err(CliError::MissingValue(_))));
        assert!(matches!(
            parse(&["--frobnicate"]),
            Err(CliError::Unknown(_))
        ));
        assert_eq!(parse(&["--help"]), Err(CliError::Help));
    }
}
