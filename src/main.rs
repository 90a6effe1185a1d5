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
    let is_set = |name: &str| std::env::var_os(name).is_some_and(|value| !value.is_empty());
    let options = CliOptions::parse(std::env::args().skip(1))
        .and_then(|o| o.check_crop().map(|_| o))
        .and_then(|o| snapslide::check_display(is_set).map(|_| o));
    match options {
        Ok(options) => {
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
