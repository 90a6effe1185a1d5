//! `npuzzle analyze`: the board's measures and solvability.

use std::path::PathBuf;

use anyhow::Result;

use crate::exit;
use crate::input::read_board;
use crate::report::Report;

/// Arguments of `npuzzle analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// The puzzle file, - for standard input, or the board itself in the slash form, such as
    /// '8 2 0/4 6 1/3 7 5'.
    file: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Analyses the board and prints the report.
pub fn run(args: &Args) -> Result<u8> {
    let board = read_board(&args.file)?;
    let report = Report::analyze(&board).with_distances();
    report.print(args.json)?;
    Ok(if report.solvability.solvable {
        exit::OK
    } else {
        exit::UNSOLVABLE
    })
}
