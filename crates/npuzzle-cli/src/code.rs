//! `npuzzle code`: a challenge code made from a board and its solve, and a code opened again,
//! with the codec the app uses (the `challenge` crate, docs/challenge-code.md).

use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use challenge::{Challenge, MAX_INPUT_CHARS};
use npuzzle::notation::parse_tile_moves;
use npuzzle::{Move, moves_from_str};

use crate::exit;
use crate::input::read_board;
use crate::notation::Notation;

/// Arguments of `npuzzle code`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Print the challenge code of a board and the moves that solve it.
    Encode(EncodeArgs),
    /// Check a challenge code (or its snapslide://c/ link) and print its board, moves and
    /// time(s); a code the app would refuse exits 2 with the reason.
    Decode(DecodeArgs),
}

#[derive(clap::Args)]
struct EncodeArgs {
    /// The start board's file (as `npuzzle solve` reads it), or - for standard input.
    file: PathBuf,
    /// The moves that solve it, as `npuzzle solve` prints them (in --notation).
    #[arg(long)]
    moves: String,
    /// How --moves is written: `gap` the direction the blank moves (`DRD`), `slidy` the
    /// direction the tile moves, with repeat counts (`R3U2L`).
    #[arg(long, value_enum, default_value_t)]
    notation: Notation,
    /// The total time in ms; by default the last move's time.
    #[arg(long, value_name = "N")]
    time_ms: Option<u64>,
    /// Each move's time since the first move, in ms, comma-separated.
    #[arg(long, value_name = "T1,T2,…", value_delimiter = ',')]
    times_ms: Option<Vec<u64>>,
}

#[derive(clap::Args)]
struct DecodeArgs {
    /// The code or its link, or - to read it from standard input.
    code: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// How to write the moves, as `npuzzle solve --notation`.
    #[arg(long, value_enum, default_value_t)]
    notation: Notation,
}

/// Runs `npuzzle code encode` or `npuzzle code decode`.
pub fn run(args: &Args) -> Result<u8> {
    match &args.command {
        Command::Encode(args) => encode(args),
        Command::Decode(args) => decode(args),
    }
}

fn encode(args: &EncodeArgs) -> Result<u8> {
    let board = read_board(&args.file)?;
    let moves = parse_moves(&args.moves, args.notation)?;
    let last = args
        .times_ms
        .as_ref()
        .and_then(|times| times.last().copied());
    let Some(time_ms) = args.time_ms.or(last) else {
        bail!("give the solve's time: --time-ms N, or each move's with --times-ms T1,T2,…");
    };
    let challenge = Challenge::new(board, moves, time_ms, args.times_ms.clone())?;
    println!("{}", challenge.code());
    Ok(exit::OK)
}

/// The moves of `text` in `notation`.
fn parse_moves(text: &str, notation: Notation) -> Result<Vec<Move>> {
    match notation {
        Notation::Gap => moves_from_str(text).context("--moves takes the letters U, D, L and R"),
        Notation::Slidy => parse_tile_moves(text).context("--moves in slidy notation"),
    }
}

fn decode(args: &DecodeArgs) -> Result<u8> {
    let text = if args.code == "-" {
        let mut text = String::new();
        let limit = (MAX_INPUT_CHARS * 4 + 1) as u64;
        std::io::stdin()
            .lock()
            .take(limit)
            .read_to_string(&mut text)
            .context("standard input is not a code: it is not text")?;
        text
    } else {
        args.code.clone()
    };
    let challenge = challenge::decode(&text)?;
    if args.json {
        println!("{}", json(&challenge, args.notation));
    } else {
        print!("{}", self::text(&challenge, args.notation));
    }
    Ok(exit::OK)
}

/// The challenge as one JSON object: `width`, `height`, `tiles`, `moves`, `time_ms`, and
/// `times_ms` when the code holds them.
fn json(challenge: &Challenge, notation: Notation) -> serde_json::Value {
    let start = challenge.start();
    let mut value = serde_json::json!({
        "width": start.width(),
        "height": start.height(),
        "tiles": start.tiles(),
        "moves": notation.format(challenge.moves()),
        "time_ms": challenge.time_ms(),
    });
    if let Some(times) = challenge.times_ms() {
        value["times_ms"] = serde_json::json!(times);
    }
    value
}

/// The challenge as text: the board, then one figure a line.
fn text(challenge: &Challenge, notation: Notation) -> String {
    let start = challenge.start();
    let mut text = format!("Board:       {}\n{start}\n", start.shape());
    let moves = challenge.moves();
    text += &format!(
        "Moves:       {} ({} moves)\n",
        notation.format(moves),
        moves.len()
    );
    text += &format!("Time:        {} ms\n", challenge.time_ms());
    if let Some(times) = challenge.times_ms() {
        let times: Vec<String> = times.iter().map(u64::to_string).collect();
        text += &format!("Move times:  {} ms\n", times.join(","));
    }
    text
}
