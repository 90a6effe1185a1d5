//! `npuzzle bench FILE`: solves every instance of a benchmark file optimally with IDA*, checks
//! each length against the file, and reports nodes and seconds, with the time to load or build
//! the pattern databases apart.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use npuzzle::search::idastar::{Heuristic, IdaOptions, idastar};
use npuzzle::{BenchmarkInstance, Budget, Options, parse_benchmark, pattern_database};
use serde::Serialize;

use crate::exit;
use crate::pdb::{progress_bar, rayon_pool};
use crate::tables::TableArgs;

/// Arguments of `npuzzle bench`.
#[derive(clap::Args)]
pub struct Args {
    /// A benchmark file: lines `id optimal_length tiles…` (0 the blank, goal 1..n then 0), with
    /// # comments; square boards.
    file: PathBuf,
    #[command(flatten)]
    tables: TableArgs,
    /// Only the instances whose optimal length is at most this.
    #[arg(long, value_name = "MOVES")]
    max_length: Option<usize>,
    /// Only the first N instances (after --max-length), easiest first if --easiest.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Take the instances in order of optimal length, shortest first.
    #[arg(long)]
    easiest: bool,
    /// Give up an instance after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Skip the lookups on the board reflected about the main diagonal.
    #[arg(long)]
    no_reflection: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// One instance's result, as in the JSON.
#[derive(Serialize)]
struct Instance {
    id: String,
    length: usize,
    moves: String,
    nodes_expanded: u64,
    seconds: f64,
}

/// The whole run, as in the JSON.
#[derive(Serialize)]
struct BenchReport {
    instances: Vec<Instance>,
    total_seconds: f64,
    total_nodes: u64,
    pdb_load_seconds: f64,
}

fn read_entries(args: &Args) -> Result<Vec<BenchmarkInstance>> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let mut entries = parse_benchmark(&text)
        .with_context(|| format!("{} is not a benchmark file", args.file.display()))?;
    if let Some(max) = args.max_length {
        entries.retain(|e| e.optimal <= max);
    }
    if args.easiest {
        entries.sort_by_key(|e| e.optimal);
    }
    if let Some(limit) = args.limit {
        entries.truncate(limit);
    }
    if entries.is_empty() {
        bail!("{} holds no instances to solve", args.file.display());
    }
    if entries
        .iter()
        .any(|e| e.board.shape() != entries[0].board.shape())
    {
        bail!("{} mixes board shapes", args.file.display());
    }
    Ok(entries)
}

/// Runs the benchmark.
pub fn run(args: &Args) -> Result<u8> {
    let entries = read_entries(args)?;
    args.tables.check()?;
    let threads = args
        .tables
        .threads
        .unwrap_or_else(rayon::current_num_threads);
    let shape = entries[0].board.shape();
    let partition = args
        .tables
        .partition
        .clone()
        .or_else(|| (shape.width == 4 && shape.height == 4).then(|| "7-8".to_string()));
    let options = Options {
        partition,
        pdb_dir: args.tables.pdb_dir.clone(),
        progress: Some(progress_bar()),
        budget: Budget::unlimited(),
        ..Options::default()
    };
    // Builds, if any, use every core; the searches use --threads.
    let started = Instant::now();
    let db = pattern_database(&entries[0].board, &options)?;
    let pdb_load_seconds = started.elapsed().as_secs_f64();
    let heuristic = match &db {
        Some(db) => Heuristic::Pdb(db),
        None => Heuristic::ManhattanLinearConflict,
    };
    let ida = IdaOptions {
        heuristic,
        threads: Some(threads),
        reflect: !args.no_reflection,
    };
    let pool = rayon_pool(Some(threads))?;
    if !args.json {
        println!(
            "{} instances of {}, {}, {} thread{}; tables {} in {pdb_load_seconds:.3} s",
            entries.len(),
            args.file.display(),
            match &db {
                Some(db) => format!(
                    "IDA* + {} pattern databases{} ({:.1} MB)",
                    db.partition().name(),
                    if args.no_reflection {
                        ""
                    } else {
                        " + reflection"
                    },
                    db.bytes() as f64 / 1e6
                ),
                None => "IDA* + Manhattan + linear conflict".to_string(),
            },
            threads,
            if threads == 1 { "" } else { "s" },
            if db.is_some() { "loaded" } else { "none" },
        );
        println!(
            "{:>6} {:>6} {:>14} {:>14} {:>10}",
            "id", "length", "expanded", "generated", "seconds"
        );
    }
    let mut report = BenchReport {
        instances: Vec::new(),
        total_seconds: 0.0,
        total_nodes: 0,
        pdb_load_seconds,
    };
    let mut total_generated = 0u64;
    let mut mismatches = Vec::new();
    let mut gave_up = Vec::new();
    for entry in &entries {
        let mut budget = Budget::unlimited();
        if let Some(seconds) = args.timeout {
            budget = budget.with_time_limit(
                Duration::try_from_secs_f64(seconds)
                    .with_context(|| format!("--timeout takes seconds, not {seconds}"))?,
            );
        }
        let result = pool.install(|| idastar(&entry.board, &ida, &budget));
        match result {
            Ok(result) => {
                let solution = result.solution;
                let ok = solution.len() == entry.optimal && solution.solves(&entry.board);
                if !ok {
                    mismatches.push(format!(
                        "instance {}: found {} moves, the file says {}",
                        entry.id,
                        solution.len(),
                        entry.optimal
                    ));
                }
                if !args.json {
                    println!(
                        "{:>6} {:>6} {:>14} {:>14} {:>10.4}{}",
                        entry.id,
                        solution.len(),
                        solution.nodes_expanded,
                        result.nodes_generated,
                        solution.seconds,
                        if ok { "" } else { "  MISMATCH" }
                    );
                }
                total_generated += result.nodes_generated;
                report.total_seconds += solution.seconds;
                report.total_nodes += solution.nodes_expanded;
                report.instances.push(Instance {
                    id: entry.id.clone(),
                    length: solution.len(),
                    moves: solution.moves_string(),
                    nodes_expanded: solution.nodes_expanded,
                    seconds: solution.seconds,
                });
            }
            Err(stopped) => {
                if !args.json {
                    println!("{:>6}   gave up: {stopped}", entry.id);
                }
                gave_up.push(format!("instance {}: {stopped}", entry.id));
            }
        }
    }
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        let solved = report.instances.len().max(1) as f64;
        println!(
            "total: {} solved in {:.3} s ({:.4} s each), {} nodes expanded ({:.0} each), {} generated ({:.0} each); tables: {pdb_load_seconds:.3} s",
            report.instances.len(),
            report.total_seconds,
            report.total_seconds / solved,
            report.total_nodes,
            report.total_nodes as f64 / solved,
            total_generated,
            total_generated as f64 / solved,
        );
    }
    for line in &gave_up {
        eprintln!("npuzzle bench: gave up on {line}");
    }
    if !mismatches.is_empty() {
        for line in &mismatches {
            eprintln!("npuzzle bench: LENGTH MISMATCH on {line}");
        }
        return Ok(exit::UNSOLVABLE);
    }
    if !gave_up.is_empty() {
        return Ok(exit::GAVE_UP);
    }
    Ok(exit::OK)
}
