//! The `snapslide` binary: on the desktop it parses the flags and runs the game; on iOS it is
//! the app's executable, where there is no command line to read.

use std::process::ExitCode;

#[cfg(not(target_os = "ios"))]
use snapslide::{CliError, CliOptions};

#[cfg(target_os = "ios")]
fn main() -> ExitCode {
    snapslide::main();
    ExitCode::SUCCESS
}

#[cfg(not(target_os = "ios"))]
fn main() -> ExitCode {
    // The start of the start-up figures ("first frame N ms after start"): as soon as the
    // process runs Rust code.
    snapslide::app::diagnostics::mark_start();
    let is_set = |name: &str| std::env::var_os(name).is_some_and(|value| !value.is_empty());
    let options = CliOptions::parse(std::env::args().skip(1));
    if let Ok(options) = &options
        && options.stats
    {
        return print_stats(options);
    }
    if let Ok(options) = &options
        && (options.export_solves.is_some() || options.import_solves.is_some())
    {
        return move_solves(options);
    }
    let options = options
        .and_then(|o| o.check_crop().map(|_| o))
        .and_then(check_challenge)
        .and_then(|o| snapslide::check_display(is_set).map(|_| o));
    match options {
        Ok(options) => {
            // Held until the game ends: a second copy on the same folder is refused.
            let _folder = match hold_data_folder(&options) {
                Ok(lock) => lock,
                Err(refused) => return refused,
            };
            if snapslide::run(options).is_success() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(CliError::Help) => {
            println!("{}", snapslide::USAGE);
            ExitCode::SUCCESS
        }
        Err(error @ CliError::NoDisplay) => {
            eprintln!("snapslide: {error}");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("snapslide: {error}\n{}", snapslide::USAGE);
            ExitCode::from(2)
        }
    }
}

/// `--open`: a code the app would refuse stops it here, with the reason, before a window.
#[cfg(not(target_os = "ios"))]
fn check_challenge(options: CliOptions) -> Result<CliOptions, CliError> {
    match options
        .open
        .as_deref()
        .map(snapslide::history::challenge::read_code)
    {
        Some(Err(refused)) => Err(CliError::Challenge(refused)),
        _ => Ok(options),
    }
}

/// `--export-solves FILE` and `--import-solves FILE`: the solve history to and from CSV, with
/// no window (the data folder held, so a game running on it is not written under).
#[cfg(not(target_os = "ios"))]
fn move_solves(options: &CliOptions) -> ExitCode {
    let Some(dir) = snapslide::persist::DataDir::for_options(options).0 else {
        eprintln!("snapslide: there is no data folder for the solves");
        return ExitCode::FAILURE;
    };
    let _folder = match hold_data_folder(options) {
        Ok(lock) => lock,
        Err(refused) => return refused,
    };
    let done = match (&options.export_solves, &options.import_solves) {
        (Some(file), _) => snapslide::persist::export_solves(&dir, file).map(|n| {
            let solves = snapslide::game::solves_csv::count_solves(n);
            format!("{solves} written to {}", file.display())
        }),
        (None, Some(file)) => snapslide::persist::import_solves(&dir, file)
            .map(|new| format!("{}: {}", file.display(), new.summary())),
        (None, None) => return ExitCode::SUCCESS,
    };
    match done {
        Ok(said) => {
            println!("{said}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("snapslide: {error}");
            ExitCode::from(2)
        }
    }
}

/// `--stats`: the speedsolver's statistics of the solve history, as JSON on stdout, with no
/// window; an empty history prints `{}` and says so on stderr.
#[cfg(not(target_os = "ios"))]
fn print_stats(options: &CliOptions) -> ExitCode {
    use std::io::Write;
    let Some(dir) = snapslide::persist::DataDir::for_options(options).0 else {
        eprintln!("snapslide: there is no data folder to read the solves from");
        return ExitCode::FAILURE;
    };
    match snapslide::persist::stats_in(&dir) {
        Ok(report) => {
            if report.is_empty() {
                eprintln!("snapslide: no solves yet (only random-state games count)");
            }
            match serde_json::to_string_pretty(&report) {
                Ok(json) => {
                    // A reader that stops early (`| head`) is no error of ours.
                    let _ = writeln!(std::io::stdout().lock(), "{json}");
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("snapslide: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(error) => {
            eprintln!("snapslide: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `--open CODE` while a copy of the game is open on the folder: the code is handed to it
/// (a desktop's link click); what to say, if it was.
#[cfg(not(target_os = "ios"))]
fn handed_over(options: &CliOptions, dir: &std::path::Path) -> Option<&'static str> {
    let code = options.open.as_deref()?;
    #[cfg(unix)]
    return match snapslide::platform::handoff::send(dir, code) {
        Ok(()) => Some("the challenge is opened in the Snapslide already open"),
        Err(_) => None,
    };
    #[cfg(not(unix))]
    {
        let _ = (code, dir);
        None
    }
}

/// Locks the data folder for this copy of the game. Another copy on it: the player reads why
/// on stderr and in a desktop notification, and the game stops with code 3, before a window
/// opens. A folder that cannot be
/// locked (read-only, say) only warns: the game runs, and its saves say if they fail.
#[cfg(not(target_os = "ios"))]
fn hold_data_folder(options: &CliOptions) -> Result<Option<atomic_file::Lock>, ExitCode> {
    use snapslide::persist::{DataDir, HoldError};
    let Some(dir) = DataDir::for_options(options).0 else {
        return Ok(None);
    };
    match snapslide::persist::hold_data_folder(&dir) {
        Ok(lock) => Ok(Some(lock)),
        Err(HoldError::AlreadyOpen { .. }) if let Some(code) = handed_over(options, &dir) => {
            eprintln!("snapslide: {code}");
            Err(ExitCode::SUCCESS)
        }
        Err(error @ HoldError::AlreadyOpen { .. }) => {
            eprintln!("snapslide: {error}");
            // Started from a launcher, there is no terminal: the desktop says it too.
            #[cfg(all(
                target_os = "linux",
                not(any(target_os = "android", target_os = "ios"))
            ))]
            snapslide::platform::desktop_notice::notify(
                "Snapslide is already open",
                &error.to_string(),
            );
            Err(ExitCode::from(3))
        }
        Err(error @ HoldError::Unavailable { .. }) => {
            eprintln!("snapslide: warning: {error}");
            Ok(None)
        }
    }
}
