//! `npuzzle generate`: boards at an exact shortest distance, or uniformly random boards, in the
//! benchmark format (`id distance tiles…`) that `npuzzle bench` reads back.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use anyhow::{Context, Result};
use npuzzle::distance::{MAX_OPTIMAL_CELLS, lower_bound, optimal_distance};
use npuzzle::generate::{GenerateError, board_at_distance};
use npuzzle::random::random_solvable;
use npuzzle::{Board, Budget, Options, Shape, SolveError};
use serde::Serialize;

use crate::exit;
use crate::tables::{TableArgs, parse_shape};

/// Arguments of `npuzzle generate`.
#[derive(clap::Args)]
pub struct Args {
    /// The board shape: 4 (a square), 4x4, 3x4…
    #[arg(long, value_name = "WxH")]
    size: String,
    /// The exact shortest distance of each board (up to 4x4); without it, uniformly random
    /// boards.
    #[arg(long, value_name = "MOVES")]
    distance: Option<usize>,
    /// How many boards.
    #[arg(long, value_name = "K", default_value_t = 1)]
    count: u64,
    /// The first board's seed; board i takes seed + i. The same seed gives the same boards on
    /// every machine.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Seconds each board may take: to find one at --distance, or to find a random board's
    /// optimal length (then it is printed as a comment with its lower bound).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    timeout: f64,
    /// Print one JSON object instead of lines.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TableArgs,
}

/// One board, as in the JSON.
#[derive(Serialize)]
struct Generated {
    id: u64,
    seed: u64,
    /// The optimal length, when known.
    distance: Option<usize>,
    /// An admissible lower bound (the distance itself when known).
    lower_bound: usize,
    tiles: Vec<u8>,
}

/// The whole output, as in the JSON.
#[derive(Serialize)]
struct Output {
    width: usize,
    height: usize,
    boards: Vec<Generated>,
}

/// Generates and prints the boards.
pub fn run(args: &Args) -> Result<u8> {
    args.tables.check()?;
    let shape = parse_shape(&args.size)?;
    let limit = Duration::try_from_secs_f64(args.timeout)
        .ok()
        .filter(|limit| !limit.is_zero())
        .with_context(|| format!("--timeout takes a number of seconds, not {}", args.timeout))?;
    if args.distance.is_some() && shape.cells() > MAX_OPTIMAL_CELLS {
        anyhow::bail!(
            "--distance is offered up to {MAX_OPTIMAL_CELLS} cells (4x4), not on {shape}; leave it out for random boards"
        );
    }
    let mut output = Output {
        width: shape.width,
        height: shape.height,
        boards: Vec::new(),
    };
    let on_terminal = std::io::stderr().is_terminal();
    for id in 1..=args.count {
        let seed = args.seed.wrapping_add(id - 1);
        if on_terminal {
            eprint!("\r\x1b[Kfinding board {id} of {}…", args.count);
        }
        let options = Options {
            budget: Budget::default()
                .with_time_limit(limit)
                .with_progress(crate::progress::progress()),
            partition: args.tables.partition.clone(),
            pdb_dir: Some(args.tables.dir()?),
            threads: args.tables.threads,
            ..Options::default()
        };
        let generated = match args.distance {
            Some(distance) => at_distance(shape, distance, seed, &options)?,
            None => random(shape, seed, &options)?,
        };
        let Some(generated) = generated else {
            crate::progress::clear_line();
            eprintln!(
                "npuzzle generate: board {id} not found within --timeout {} s",
                args.timeout
            );
            return Ok(exit::GAVE_UP);
        };
        let generated = Generated { id, ..generated };
        if !args.json {
            // The progress line goes first, or the board would be written after it on a terminal.
            crate::progress::clear_line();
            print_line(shape, &generated)?;
        }
        output.boards.push(generated);
    }
    crate::progress::clear_line();
    if args.json {
        println!("{}", serde_json::to_string(&output)?);
    }
    Ok(exit::OK)
}

/// A board at an exact distance; `None` when the budget ran out first.
fn at_distance(
    shape: Shape,
    distance: usize,
    seed: u64,
    options: &Options,
) -> Result<Option<Generated>> {
    match board_at_distance(shape, distance, seed, options) {
        Ok(board) => Ok(Some(Generated {
            id: 0,
            seed,
            distance: Some(distance),
            lower_bound: distance,
            tiles: board.tiles().to_vec(),
        })),
        Err(GenerateError::Solve(SolveError::GaveUp(_))) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// A uniformly random board with its optimal length when that is found within the budget.
fn random(shape: Shape, seed: u64, options: &Options) -> Result<Option<Generated>> {
    let board = random_solvable(shape, seed);
    let distance = if shape.cells() > MAX_OPTIMAL_CELLS {
        None
    } else {
        match optimal_distance(&board, options) {
            Ok(distance) => Some(distance),
            Err(SolveError::GaveUp(_)) => None,
            Err(error) => return Err(error.into()),
        }
    };
    Ok(Some(Generated {
        id: 0,
        seed,
        lower_bound: distance.unwrap_or_else(|| lower_bound(&board, options)),
        distance,
        tiles: board.tiles().to_vec(),
    }))
}

/// One line of the benchmark format: `id distance tiles…`, rows split by `/` unless square.
/// A board whose length is not known is written as a comment, with its lower bound.
fn print_line(shape: Shape, generated: &Generated) -> Result<()> {
    let board = Board::new(shape.width, shape.height, generated.tiles.clone())?;
    let rows: Vec<String> = board
        .tiles()
        .chunks(shape.width)
        .map(|row| row.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    let tiles = if shape.width == shape.height {
        rows.join(" ")
    } else {
        rows.join(" / ")
    };
    let mut out = std::io::stdout().lock();
    match generated.distance {
        Some(distance) => writeln!(out, "{} {distance} {tiles}", generated.id)?,
        None => writeln!(
            out,
            "# {} ? {tiles}  (optimal length not found; at least {} moves)",
            generated.id, generated.lower_bound
        )?,
    }
    Ok(())
}
