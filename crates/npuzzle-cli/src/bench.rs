//! `npuzzle bench FILE`: solves every instance of a benchmark file, checks each length against
//! the file, and reports nodes and seconds, with the time to load or build the pattern
//! databases apart.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use npuzzle::search::idastar::{IdaOptions, idastar};
use npuzzle::{
    Algorithm, BenchmarkInstance, Board, Budget, Options, PatternDatabase, Solution, SolveError,
    default_algorithm, parse_benchmark, pattern_database, solve,
};
use serde::Serialize;

use crate::exit;
use crate::method::Method;
use crate::pdb::rayon_pool;
use crate::tables::{TableArgs, suggest_stronger};

/// Arguments of `npuzzle bench`.
#[derive(clap::Args)]
pub struct Args {
    /// A benchmark file: lines `id optimal_length tiles…` (0 the blank, goal 1..n then 0), with
    /// # comments; one board shape (rows split by / unless square).
    file: PathBuf,
    /// The method; by default the one `solve` picks for the board (A* up to 3x3, IDA* with
    /// pattern databases on 4x4, 3x4, 4x3 and 5x5).
    #[arg(long, value_enum)]
    algorithm: Option<Method>,
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
    /// IDA*: skip the lookups on the board reflected about the main diagonal.
    #[arg(long)]
    no_reflection: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TableArgs,
}

/// One instance's result, as in the JSON.
#[derive(Serialize)]
struct Instance {
    id: String,
    length: usize,
    expected: usize,
    moves: String,
    nodes_expanded: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes_generated: Option<u64>,
    seconds: f64,
}

/// The whole run, as in the JSON.
#[derive(Serialize)]
struct BenchReport {
    algorithm: &'static str,
    tables: Option<String>,
    threads: usize,
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

/// How each instance is solved.
struct Solver<'a> {
    algorithm: Algorithm,
    ida: Option<IdaOptions<'a>>,
    options: Options,
}

impl Solver<'_> {
    /// Solves one board: IDA* directly (for the nodes generated), anything else by `solve`.
    fn run(&self, board: &Board, budget: Budget) -> Result<(Solution, Option<u64>), SolveError> {
        if let Some(ida) = &self.ida {
            return idastar(board, ida, &budget)
                .map(|r| (r.solution, Some(r.nodes_generated)))
                .map_err(SolveError::GaveUp);
        }
        let options = Options {
            budget,
            ..self.options.clone()
        };
        solve(board, &options).map(|solution| (solution, None))
    }
}

/// Runs the benchmark.
pub fn run(args: &Args) -> Result<u8> {
    args.tables.check()?;
    let entries = read_entries(args)?;
    let threads = args
        .tables
        .threads
        .unwrap_or_else(rayon::current_num_threads);
    let first = &entries[0].board;
    let algorithm = args
        .algorithm
        .map_or_else(|| default_algorithm(first), Algorithm::from);
    let options = Options {
        algorithm: Some(algorithm),
        partition: args.tables.partition.clone(),
        pdb_dir: Some(args.tables.dir()?),
        threads: Some(threads),
        budget: Budget::unlimited().with_progress(crate::progress::progress()),
        ..Options::default()
    };
    let started = Instant::now();
    let db = tables(args, first, &options)?;
    let solver = Solver {
        algorithm,
        ida: (algorithm == Algorithm::IdaStar).then(|| IdaOptions {
            reflect: !args.no_reflection,
            ..IdaOptions::with_tables(db.as_deref(), Some(threads))
        }),
        options: Options {
            budget: Budget::unlimited(),
            ..options
        },
    };
    let mut report = BenchReport {
        algorithm: algorithm.name(),
        tables: db.as_ref().map(|db| db.partition().name().to_string()),
        threads,
        instances: Vec::new(),
        total_seconds: 0.0,
        total_nodes: 0,
        pdb_load_seconds: started.elapsed().as_secs_f64(),
    };
    if !args.json {
        print_header(args, &entries, &solver, db.as_deref(), &report);
    }
    let troubles = solve_all(args, &entries, &solver, &mut report)?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_total(&report);
    }
    Ok(troubles.exit_code())
}

/// The tables IDA* will use (none for other methods): the options' (built on every core if
/// need be), or stronger ones if the user builds them when offered.
fn tables(args: &Args, first: &Board, options: &Options) -> Result<Option<Arc<PatternDatabase>>> {
    if options.algorithm != Some(Algorithm::IdaStar) {
        return Ok(None);
    }
    let db = pattern_database(first, options)?;
    match suggest_stronger(first.shape(), db.as_deref(), &args.tables)? {
        Some(stronger) => Ok(Some(stronger)),
        None => Ok(db),
    }
}

/// The instances that gave up and those whose length was wrong.
#[derive(Default)]
struct Troubles {
    gave_up: Vec<String>,
    mismatches: Vec<String>,
}

impl Troubles {
    /// Says each on standard error; the exit code they call for.
    fn exit_code(&self) -> u8 {
        for line in &self.gave_up {
            eprintln!("npuzzle bench: gave up on {line}");
        }
        for line in &self.mismatches {
            eprintln!("npuzzle bench: LENGTH MISMATCH on {line}");
        }
        if !self.mismatches.is_empty() {
            exit::WRONG_LENGTH
        } else if !self.gave_up.is_empty() {
            exit::GAVE_UP
        } else {
            exit::OK
        }
    }
}

/// Solves each instance on `--threads`, checks its length, and adds it to the report.
fn solve_all(
    args: &Args,
    entries: &[BenchmarkInstance],
    solver: &Solver<'_>,
    report: &mut BenchReport,
) -> Result<Troubles> {
    let pool = rayon_pool(Some(report.threads))?;
    let limit = match args.timeout {
        Some(seconds) => Some(
            Duration::try_from_secs_f64(seconds)
                .with_context(|| format!("--timeout takes seconds, not {seconds}"))?,
        ),
        None => None,
    };
    let mut troubles = Troubles::default();
    for entry in entries {
        let budget = limit.map_or_else(Budget::unlimited, |limit| {
            Budget::unlimited().with_time_limit(limit)
        });
        let (solution, generated) = match pool.install(|| solver.run(&entry.board, budget)) {
            Ok(found) => found,
            Err(SolveError::GaveUp(stopped)) => {
                if !args.json {
                    println!("{:>6}   gave up: {stopped}", entry.id);
                }
                troubles
                    .gave_up
                    .push(format!("instance {}: {stopped}", entry.id));
                continue;
            }
            Err(error) => return Err(error).context(format!("instance {}", entry.id)),
        };
        let ok = solution.len() == entry.optimal && solution.solves(&entry.board);
        if !ok {
            troubles.mismatches.push(format!(
                "instance {}: found {} moves, the file says {}",
                entry.id,
                solution.len(),
                entry.optimal
            ));
        }
        if !args.json {
            print_row(&entry.id, &solution, generated, ok);
        }
        report.total_seconds += solution.seconds;
        report.total_nodes += solution.nodes_expanded;
        report.instances.push(Instance {
            id: entry.id.clone(),
            length: solution.len(),
            expected: entry.optimal,
            moves: solution.moves_string(),
            nodes_expanded: solution.nodes_expanded,
            nodes_generated: generated,
            seconds: solution.seconds,
        });
    }
    Ok(troubles)
}

fn print_header(
    args: &Args,
    entries: &[BenchmarkInstance],
    solver: &Solver<'_>,
    db: Option<&PatternDatabase>,
    report: &BenchReport,
) {
    let method = match (solver.algorithm, db) {
        (Algorithm::IdaStar, Some(db)) => format!(
            "IDA* + {} pattern databases{} ({:.1} MB)",
            db.partition().name(),
            if args.no_reflection {
                ""
            } else {
                " + reflection"
            },
            db.bytes() as f64 / 1e6
        ),
        (Algorithm::IdaStar, None) => "IDA* + Manhattan + linear conflict".to_string(),
        (algorithm, _) => algorithm.name().to_string(),
    };
    println!(
        "{} instances of {}, {method}, {} thread{}; tables {} in {:.3} s",
        entries.len(),
        args.file.display(),
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        if db.is_some() { "loaded" } else { "none" },
        report.pdb_load_seconds,
    );
    println!(
        "{:>6} {:>6} {:>14} {:>14} {:>10}",
        "id", "length", "expanded", "generated", "seconds"
    );
}

fn print_row(id: &str, solution: &Solution, generated: Option<u64>, ok: bool) {
    println!(
        "{:>6} {:>6} {:>14} {:>14} {:>10.4}{}",
        id,
        solution.len(),
        solution.nodes_expanded,
        generated.map_or("-".to_string(), |n| n.to_string()),
        solution.seconds,
        if ok { "" } else { "  MISMATCH" }
    );
}

fn print_total(report: &BenchReport) {
    let solved = report.instances.len().max(1) as f64;
    let generated: u64 = report
        .instances
        .iter()
        .filter_map(|i| i.nodes_generated)
        .sum();
    println!(
        "total: {} solved in {:.3} s ({:.4} s each), {} nodes expanded ({:.0} each), {} generated ({:.0} each); tables: {:.3} s",
        report.instances.len(),
        report.total_seconds,
        report.total_seconds / solved,
        report.total_nodes,
        report.total_nodes as f64 / solved,
        generated,
        generated as f64 / solved,
        report.pdb_load_seconds,
    );
}
