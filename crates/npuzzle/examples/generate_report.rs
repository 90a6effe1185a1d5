//! Figures for boards at an exact distance: the distribution of optimal lengths (3×3 exact from
//! the distance table; 4×4 over uniformly random boards), and the time `board_at_distance`
//! takes per level (median and 99th percentile), with the tables a new user has.
//!
//! `cargo run --release -p npuzzle --example generate_report -- [BOARDS] [RANDOM] [PARTITION] [DISTANCES...]`
//! BOARDS (default 100) boards per level; RANDOM (default 30) uniformly random 4×4 boards
//! solved for the distribution; PARTITION the 4×4 tables (default: the shape's default), or
//! `none` for boards found without tables (`board_at_distance_without_tables`).
//! The tables are built into a fresh temporary folder first, and that time is reported apart.

use std::time::Instant;

use npuzzle::distance::table::DistanceTable;
use npuzzle::generate::{GenerateError, board_at_distance, board_at_distance_without_tables};
use npuzzle::random::random_solvable;
use npuzzle::{Board, Options, Shape, pattern_database, solve};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let boards: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(100);
    let random: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(30);
    let without_tables = args.get(2).is_some_and(|a| a == "none");
    let partition = args
        .get(2)
        .filter(|a| !["default", "none"].contains(&a.as_str()))
        .cloned();
    let mut distances: Vec<usize> = args.iter().skip(3).filter_map(|a| a.parse().ok()).collect();
    if distances.is_empty() {
        distances = vec![12, 24, 36, 48];
    }

    let started = Instant::now();
    let table = DistanceTable::build(Shape::new(3, 3).unwrap()).unwrap();
    println!(
        "3x3 distance table: {:.1} ms; boards per distance 0..=31: {:?}",
        started.elapsed().as_secs_f64() * 1e3,
        table.counts()
    );

    let dir = std::env::temp_dir().join(format!("npuzzle-generate-report-{}", std::process::id()));
    let options = Options {
        partition,
        pdb_dir: Some(dir.clone()),
        threads: Some(1),
        ..Options::default()
    };
    let shape = Shape::new(4, 4).unwrap();
    let started = Instant::now();
    let db = pattern_database(&Board::goal_of(shape), &options).unwrap();
    println!(
        "4x4 tables {} built in {:.1} s (a new user's first time only)",
        db.map_or("none".into(), |db| db.partition().name().to_string()),
        started.elapsed().as_secs_f64()
    );

    let mut lengths = Vec::new();
    let mut seconds = Vec::new();
    for seed in 0..random {
        let board = random_solvable(shape, 10_000 + seed);
        let solution = solve(&board, &options).unwrap();
        lengths.push(solution.len());
        seconds.push(solution.seconds);
    }
    if !lengths.is_empty() {
        lengths.sort_unstable();
        seconds.sort_by(f64::total_cmp);
        let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
        println!(
            "{random} uniformly random 4x4 boards: optimal lengths min {} median {} mean {mean:.2} max {}; solve median {:.3} s p99 {:.3} s",
            lengths[0],
            lengths[lengths.len() / 2],
            lengths[lengths.len() - 1],
            percentile(&seconds, 0.5),
            percentile(&seconds, 0.99)
        );
        println!("  lengths: {lengths:?}");
    }

    time_levels(shape, boards, &distances, &options, without_tables);
    let _ = std::fs::remove_dir_all(dir);
}

/// A way to a board at an exact distance: with the options' tables or without any.
type Make = fn(Shape, usize, u64, &Options) -> Result<Board, GenerateError>;

/// Prints the time to a board at each distance over `boards` seeds, with the options' tables
/// or without any.
fn time_levels(
    shape: Shape,
    boards: u64,
    distances: &[usize],
    options: &Options,
    without_tables: bool,
) {
    let (make, how): (Make, _) = if without_tables {
        (board_at_distance_without_tables, "without tables")
    } else {
        (board_at_distance, "with the tables")
    };
    println!("time to a 4x4 board at each distance ({boards} seeds, one thread, {how}):");
    for &distance in distances {
        let mut times = Vec::new();
        for seed in 0..boards {
            let started = Instant::now();
            make(shape, distance, seed, options).unwrap();
            times.push(started.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        println!(
            "  {distance:>3} moves: median {:.4} s, p99 {:.4} s, max {:.4} s",
            percentile(&times, 0.5),
            percentile(&times, 0.99),
            times[times.len() - 1]
        );
    }
}
