//! `npuzzle`: analyse and solve sliding-tile puzzles read from text files.

mod analyze;
mod bench;
mod code;
mod generate;
mod input;
mod interrupt;
mod method;
mod notation;
mod pdb;
mod progress;
mod report;
mod solve;
mod tables;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit codes, as documented in `--help`.
pub mod exit {
    /// Solved or analysed.
    pub const OK: u8 = 0;
    /// The board is unsolvable.
    pub const UNSOLVABLE: u8 = 1;
    /// Bad input or usage.
    pub const BAD_INPUT: u8 = 2;
    /// The budget ran out before a solution was found.
    pub const GAVE_UP: u8 = 3;
    /// `bench`: a solution disagrees with the file: it does not solve the board, is shorter than
    /// the file's optimal length or bounded above it, or is longer where it claims to be optimal.
    pub const WRONG_LENGTH: u8 = 4;
    /// `bench`: stopped by Ctrl-C; what it reports covers the instances finished before.
    pub const INTERRUPTED: u8 = 130;
}

#[derive(Parser)]
#[command(
    name = "npuzzle",
    version,
    about = "Analyse and solve sliding-tile puzzles (8-puzzle, 15-puzzle, any width x height)",
    after_help = "Exit codes: 0 solved or analysed, 1 unsolvable, 2 bad input or usage, 3 the budget ran out,\n\
                  4 (bench) a length disagrees with the file's, 130 (bench) stopped by Ctrl-C: the totals cover\n\
                  the instances finished before it.\n\
                  Input: the course format (a header line with the tile count or side, then one line per row),\n\
                  rows alone, or one line such as `1 0 3 4 2 5 7 8 6` or the slash form `8 2 0/4 6 1/3 7 5`.\n\
                  0 is the blank. Blank lines and # comments are ignored; FILE `-` reads standard input, and a FILE\n\
                  that is not a file but a board (`npuzzle solve '8 2 0/4 6 1/3 7 5'`) is read as one."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a board's distances, inversions and solvability.
    Analyze(analyze::Args),
    /// Print the analysis, then solve the board.
    Solve(solve::Args),
    /// Solve every instance of a benchmark file (optimally, or within --time); check the lengths
    /// against the file's; report the lengths, ratios and times.
    Bench(bench::Args),
    /// Pattern databases: `npuzzle pdb build 4x4 --partition 7-8`.
    Pdb(pdb::Args),
    /// Boards at an exact shortest distance (or random ones), in the benchmark format.
    Generate(generate::Args),
    /// Challenge codes: `npuzzle code encode FILE --moves MOVES --time-ms N`, `npuzzle code
    /// decode CODE`.
    Code(code::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Pdb(args) => pdb::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Code(args) => code::run(&args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("npuzzle: {error:#}");
            ExitCode::from(exit::BAD_INPUT)
        }
    }
}
