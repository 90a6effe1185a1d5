//! The command line of the desktop app.

use std::path::PathBuf;

use bevy::prelude::*;
use thiserror::Error;

use crate::game::PhotoFraming;

/// The command-line options.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct CliOptions {
    /// A photo file to play with.
    pub photo: Option<PathBuf>,
    /// The part of the photo to cut the board from (`--crop X,Y,W,H`, photo pixels after the
    /// EXIF rotation), skipping the framing sheet.
    pub crop: Option<PhotoFraming>,
    /// The board: columns and rows (`--size 4`, or `--size 3x4` for a portrait board).
    pub size: Option<(usize, usize)>,
    /// The shuffle's seed.
    pub seed: Option<u64>,
    /// Save a PNG of the window once the board is on screen, then exit.
    pub screenshot: Option<PathBuf>,
    /// Log frame times every two seconds.
    pub frame_stats: bool,
    /// The window's size in logical pixels (`360x800` tries a phone's portrait layout).
    pub window: Option<(u32, u32)>,
    /// Print the speedsolver's statistics of the solve history as JSON and exit (`--stats`).
    pub stats: bool,
    /// A friend's challenge to play: its code or its `snapslide://c/` link (`--open`).
    pub open: Option<String>,
    /// Write every solve as CSV to this file and exit (`--export-solves`).
    pub export_solves: Option<PathBuf>,
    /// Add the solves of this CSV file to the history and exit (`--import-solves`).
    pub import_solves: Option<PathBuf>,
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
    /// `--crop` without a photo to crop.
    #[error("--crop frames the photo given with --photo; there is none")]
    CropWithoutPhoto,
    /// The photo `--crop` frames cannot be read.
    #[error("--crop: {0}")]
    Photo(String),
    /// `--crop` is not a framing of that photo for that board.
    #[error("--crop: {0}")]
    Crop(String),
    /// `--open`: a challenge code the app refuses, and why.
    #[error("--open: {0}")]
    Challenge(String),
    /// No display to open the window on (Linux and the BSDs: neither Wayland nor X11).
    #[error(
        "there is no display to open the game's window on (neither WAYLAND_DISPLAY nor DISPLAY \
         is set): run it in a desktop session, or headless under Xvfb: xvfb-run -a snapslide"
    )]
    NoDisplay,
}

/// The variables through which Wayland or X11 tell a program where to draw.
const DISPLAY_VARIABLES: [&str; 3] = ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY"];

/// Whether the window can open: where winit needs Wayland or X11 (Linux and the BSDs), one of
/// their variables must be set (`is_set` reads the environment), else [`CliError::NoDisplay`]
/// (winit would panic).
pub fn check_display(is_set: impl Fn(&str) -> bool) -> Result<(), CliError> {
    let needs_one = cfg!(all(
        unix,
        not(any(
            target_os = "macos",
            target_os = "ios",
            target_os = "android"
        ))
    ));
    if needs_one && !DISPLAY_VARIABLES.iter().any(|name| is_set(name)) {
        return Err(CliError::NoDisplay);
    }
    Ok(())
}

/// The usage text.
pub const USAGE: &str = "usage: snapslide [--photo FILE [--crop X,Y,W,H]] [--size N | COLUMNSxROWS (3-8)] [--seed S] [--screenshot FILE.png] [--frame-stats] [--window WxH] [--stats] [--open CODE] [--export-solves FILE.csv] [--import-solves FILE.csv]";

/// The command line as the app's resource (inserted first: other plugins follow it).
pub fn plugin(options: CliOptions) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.insert_resource(options.clone());
    }
}

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
                "--crop" => {
                    let text = value("--crop")?;
                    let crop = parse_crop(&text).ok_or(CliError::BadValue {
                        option: name.clone(),
                        value: text,
                        expected: "X,Y,W,H in the photo's pixels",
                    })?;
                    options.crop = Some(crop);
                }
                "--screenshot" => options.screenshot = Some(PathBuf::from(value("--screenshot")?)),
                "--size" => {
                    let text = value("--size")?;
                    let size = parse_board(&text).ok_or(CliError::BadValue {
                        option: name.clone(),
                        value: text,
                        expected: "N or COLUMNSxROWS, each from 3 to 8",
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
                "--stats" => options.stats = true,
                "--open" => options.open = Some(value("--open")?),
                "--export-solves" => {
                    options.export_solves = Some(PathBuf::from(value("--export-solves")?));
                }
                "--import-solves" => {
                    options.import_solves = Some(PathBuf::from(value("--import-solves")?));
                }
                "--window" => {
                    let text = value("--window")?;
                    let size = parse_window(&text).ok_or(CliError::BadValue {
                        option: name.clone(),
                        value: text,
                        expected: "WIDTHxHEIGHT in pixels, at least 320x320",
                    })?;
                    options.window = Some(size);
                }
                "-h" | "--help" => return Err(CliError::Help),
                _ => return Err(CliError::Unknown(arg)),
            }
        }
        if options.crop.is_some() && options.photo.is_none() {
            return Err(CliError::CropWithoutPhoto);
        }
        Ok(options)
    }

    /// Checks `--crop` against the photo it frames (read and turned upright): on the photo,
    /// of the board's shape, no tile cut from fewer than 64 of its pixels.
    pub fn check_crop(&self) -> Result<(), CliError> {
        let (Some(path), Some(framing)) = (&self.photo, self.crop) else {
            return Ok(());
        };
        let image = crate::photo::load_file(path).map_err(|e| CliError::Photo(e.to_string()))?;
        let (columns, rows) = self.size.unwrap_or((4, 4));
        let crop = crate::photo::Crop {
            x: framing.x,
            y: framing.y,
            width: framing.width,
            height: framing.height,
        };
        let size = (image.width(), image.height());
        crate::photo::Framing::from_crop(size, (columns as u32, rows as u32), crop)
            .map(|_| ())
            .map_err(|e| CliError::Crop(e.to_string()))
    }
}

/// A rectangle `X,Y,W,H` of whole pixels, wide and tall enough to be a rectangle.
fn parse_crop(text: &str) -> Option<PhotoFraming> {
    let values: Vec<u32> = text
        .split(',')
        .map(|v| v.trim().parse().ok())
        .collect::<Option<_>>()?;
    let [x, y, width, height] = values[..] else {
        return None;
    };
    (width > 0 && height > 0).then_some(PhotoFraming {
        turns: 0,
        x,
        y,
        width,
        height,
    })
}

/// A board's size: `N` (square) or `COLUMNSxROWS`, a shape the game plays.
fn parse_board(text: &str) -> Option<(usize, usize)> {
    let (w, h) = text.split_once(['x', 'X']).unwrap_or((text, text));
    let (w, h) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
    crate::game::playable(w, h).then_some((w, h))
}

/// A window size `WIDTHxHEIGHT`, no smaller than the layout's minimum.
fn parse_window(text: &str) -> Option<(u32, u32)> {
    let (w, h) = text.split_once(['x', 'X'])?;
    let (w, h) = (w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?);
    let min = crate::board::layout::MIN_WINDOW;
    (w as f32 >= min.x && h as f32 >= min.y && w <= 10_000 && h <= 10_000).then_some((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

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
        assert_eq!(o.size, Some((5, 5)));
        assert_eq!(o.seed, Some(7));
        assert_eq!(o.screenshot, Some(PathBuf::from("s.png")));
        assert_eq!(parse(&[]).unwrap(), CliOptions::default());
        let o = parse(&["--frame-stats", "--window", "360x800"]).unwrap();
        assert!(o.frame_stats);
        assert_eq!(o.window, Some((360, 800)));
        // A phone on its side, and a 4K screen.
        assert_eq!(
            parse(&["--window", "640x360"]).unwrap().window,
            Some((640, 360))
        );
        assert_eq!(
            parse(&["--window", "3840x2160"]).unwrap().window,
            Some((3840, 2160))
        );
        assert_eq!(parse(&["--size", "3x4"]).unwrap().size, Some((3, 4)));
    }

    #[test]
    fn bad_flags_are_explained() {
        assert!(matches!(
            parse(&["--size", "9"]),
            Err(CliError::BadValue { .. })
        ));
        for bad in ["x", "3x", "3x9", "2x4", "4x4x4"] {
            assert!(
                matches!(parse(&["--size", bad]), Err(CliError::BadValue { .. })),
                "{bad}"
            );
        }
        assert!(matches!(parse(&["--seed"]), Err(CliError::MissingValue(_))));
        for bad in ["360", "100x100", "axb", "360x", "640x300"] {
            assert!(
                matches!(parse(&["--window", bad]), Err(CliError::BadValue { .. })),
                "{bad}"
            );
        }
        assert!(matches!(
            parse(&["--frobnicate"]),
            Err(CliError::Unknown(_))
        ));
        for bad in ["1,2,3", "1,2,3,x", "1,2,0,4", "-1,2,3,4"] {
            assert!(
                matches!(
                    parse(&["--photo", "a.jpg", "--crop", bad]),
                    Err(CliError::BadValue { .. })
                ),
                "{bad}"
            );
        }
        assert_eq!(
            parse(&["--crop", "0,0,300,300"]),
            Err(CliError::CropWithoutPhoto)
        );
        let framed = parse(&["--photo", "a.jpg", "--crop", "10,20,300,400"]).unwrap();
        assert_eq!(
            framed.crop.map(|c| (c.x, c.y, c.width, c.height)),
            Some((10, 20, 300, 400))
        );
        assert_eq!(parse(&["--help"]), Err(CliError::Help));
    }

    #[test]
    fn no_display_is_said_before_the_window_would_panic() {
        let none = check_display(|_| false);
        if cfg!(target_os = "linux") {
            assert!(matches!(none, Err(CliError::NoDisplay)));
            assert!(none.unwrap_err().to_string().contains("xvfb-run"));
        }
        for name in DISPLAY_VARIABLES {
            assert!(check_display(|asked| asked == name).is_ok(), "{name}");
        }
    }
}
