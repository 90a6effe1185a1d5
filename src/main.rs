//! The desktop entry: parses the flags and runs the game.

use std::process::ExitCode;

use snapslide::{CliError, CliOptions};

fn main() -> ExitCode {
    match CliOptions::parse(std::env::args().skip(1)) {
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
        Err(error) => {
            eprintln!("snapslide: {error}\n{}", snapslide::USAGE);
            ExitCode::from(2)
        }
    }
}
