//! `npuzzle bench FILE`: solves every instance of a benchmark file, checks each length against
//! the file's optimal one (where it claims one), compares it with the file's reference length
//! (where it has one), and reports nodes and seconds, with the time to load or build the
//! pattern databases apart.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use npuzzle::mtm::{MtmError, MtmTables, solve_mtm_with};
use npuzzle::pdb::cache::best_cached;
use npuzzle::search::idastar::{IdaOptions, idastar};
use npuzzle::{
    Algorithm, BenchmarkInstance, Board, Budget, Options, PatternDatabase, Solution, SolveError,
    default_algorithm, parse_benchmark, pattern_database, solve,
};
use serde::Serialize;

use crate::exit;
use crate::interrupt::cancel_on_interrupt;
use crate::method::Method;
use crate::notation::Metric;
use crate::tables::rayon_pool;
use crate::tables::{TableArgs, suggest_stronger};

/// Arguments of `npuzzle bench`.
#[derive(clap::Args)]
pub struct Args {
    /// A benchmark file: lines `id optimal_length tiles…` or `id optimal_length
    /// reference_length tiles…` (0 the blank, goal 1..n then 0; an optimal length of 0 is
    /// unknown), with # comments; one board shape (rows split by / unless square).
    file: PathBuf,
    /// The method; by default the optimal one `solve` picks for the board (A* up to 3x3, IDA*
    /// with pattern databases on 4x4, 3x4, 4x3 and 5x5), or with --time (or when an optimal
    /// length is unknown) `solve`'s own choice within the time.
    #[arg(long, value_enum)]
    algorithm: Option<Method>,
    /// Solve each board as `npuzzle solve --time SECONDS` does: the best solution within that
    /// time (default 1 s when the file has unknown optimal lengths).
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
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
    /// What a move is: `stm` one tile moved, `mtm` a slide of any number of tiles in one line
    /// (optimal IDA* on the MTM tables, 3x3, 3x4, 4x3 and 4x4 only). The file's lengths are
    /// read in this metric, and `length` is in it.
    #[arg(long, value_enum, default_value_t, conflicts_with_all = ["algorithm", "time"])]
    metric: Metric,
    /// Print one JSON object at the end instead of the table, and a line on standard error
    /// as each instance ends.
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
    #[serde(skip_serializing_if = "Option::is_none")]
    reference: Option<usize>,
    optimal: bool,
    lower_bound: usize,
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
    /// What counts as a move in the lengths: "stm" or "mtm".
    metric: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    time: Option<f64>,
    tables: Option<String>,
    threads: usize,
    instances: Vec<Instance>,
    total_seconds: f64,
    total_nodes: u64,
    pdb_load_seconds: f64,
    mean_length: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    vs_reference: Option<Ratios>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vs_optimal: Option<Ratios>,
    /// Stopped by Ctrl-C: the instances are those finished before it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    interrupted: bool,
}

/// Lengths against other lengths over the instances that have them.
#[derive(Serialize, Clone, Copy)]
struct Ratios {
    /// How many instances have the other length.
    instances: usize,
    /// The mean of length / other.
    mean_ratio: f64,
    /// The mean length over these instances divided by the mean other length.
    ratio_of_means: f64,
}

impl Ratios {
    /// The ratios of `(length, other)` pairs, `None` without any.
    fn of(pairs: impl Iterator<Item = (usize, usize)>) -> Option<Ratios> {
        let pairs: Vec<(usize, usize)> = pairs.filter(|&(_, other)| other > 0).collect();
        if pairs.is_empty() {
            return None;
        }
        let n = pairs.len() as f64;
        let mean_ratio = pairs.iter().map(|&(l, o)| l as f64 / o as f64).sum::<f64>() / n;
        let (lengths, others) = pairs
            .iter()
            .fold((0, 0), |(l, o), &(length, other)| (l + length, o + other));
        Some(Ratios {
            instances: pairs.len(),
            mean_ratio,
            ratio_of_means: lengths as f64 / others as f64,
        })
    }
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
        entries.sort_by_key(|e| e.known_optimal().or(e.reference).unwrap_or(usize::MAX));
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
    /// The method; `None` for `solve`'s own choice within the options' time.
    algorithm: Option<Algorithm>,
    /// What counts as a move.
    metric: Metric,
    /// The MTM tables, with `--metric mtm`.
    mtm: Option<Arc<MtmTables>>,
    ida: Option<IdaOptions<'a>>,
    options: Options,
}

impl Solver<'_> {
    /// Solves one board: IDA* directly (for the nodes generated), anything else by `solve`.
    fn run(&self, board: &Board, budget: Budget) -> Result<(Solution, Option<u64>), SolveError> {
        if let Some(tables) = &self.mtm {
            return match solve_mtm_with(board, tables, &budget) {
                Ok(solution) => Ok((solution, None)),
                Err(MtmError::GaveUp(gave_up)) => Err(SolveError::GaveUp(gave_up)),
                Err(MtmError::Unsolvable(s)) => Err(SolveError::Unsolvable(s)),
                Err(error @ MtmError::Shape(_)) => Err(SolveError::Internal(error.to_string())),
            };
        }
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
    let time = improvement_time(args, &entries)?;
    let algorithm = match (args.algorithm, time) {
        (Some(method), _) => Some(Algorithm::from(method)),
        (None, Some(_)) => None,
        (None, None) if args.metric == Metric::Mtm => None,
        (None, None) => Some(default_algorithm(first)),
    };
    let options = Options {
        algorithm,
        time,
        partition: args.tables.partition.clone(),
        pdb_dir: Some(args.tables.dir()?),
        threads: Some(threads),
        budget: Budget::unlimited().with_progress(crate::progress::progress()),
        ..Options::default()
    };
    let started = Instant::now();
    // The MTM tables are built here, their time counted with the tables'.
    let mtm = match args.metric {
        Metric::Mtm => Some(MtmTables::load_or_build(
            first.shape(),
            Some(&args.tables.dir()?),
            &options.budget,
        )?),
        Metric::Stm => None,
    };
    let db = tables(args, first, &options)?;
    let solver = Solver {
        algorithm,
        metric: args.metric,
        mtm,
        ida: (algorithm == Some(Algorithm::IdaStar)).then(|| IdaOptions {
            reflect: !args.no_reflection,
            ..IdaOptions::with_tables(db.as_deref(), Some(threads))
        }),
        options: Options {
            budget: Budget::unlimited(),
            ..options
        },
    };
    let mut report = BenchReport {
        algorithm: match args.metric {
            Metric::Mtm => "idastar-mtm",
            Metric::Stm => algorithm.map_or("default", Algorithm::name),
        },
        metric: args.metric.name(),
        time: time.map(|t| t.as_secs_f64()),
        tables: db.as_ref().map(|db| db.partition().name().to_string()),
        threads,
        instances: Vec::new(),
        total_seconds: 0.0,
        total_nodes: 0,
        pdb_load_seconds: started.elapsed().as_secs_f64(),
        mean_length: 0.0,
        vs_reference: None,
        vs_optimal: None,
        interrupted: false,
    };
    if !args.json {
        print_header(args, &entries, &solver, db.as_deref(), &report);
    }
    let troubles = solve_all(args, &entries, &solver, &mut report)?;
    report.interrupted = troubles.interrupted.is_some();
    summarise(&mut report);
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_total(&report);
    }
    Ok(troubles.exit_code())
}

/// The time each board is improved for: `--time`, else 1 s when no method is named and some
/// optimal length is unknown (an optimal search could run for ever), else none.
fn improvement_time(args: &Args, entries: &[BenchmarkInstance]) -> Result<Option<Duration>> {
    match args.time {
        Some(seconds) => Duration::try_from_secs_f64(seconds)
            .map(Some)
            .with_context(|| format!("--time takes seconds, not {seconds}")),
        None if args.algorithm.is_none()
            && args.metric == Metric::Stm
            && entries.iter().any(|e| e.known_optimal().is_none()) =>
        {
            Ok(Some(npuzzle::DEFAULT_IMPROVE_TIME))
        }
        None => Ok(None),
    }
}

/// The mean length and the ratios against the reference and optimal lengths.
fn summarise(report: &mut BenchReport) {
    let instances = &report.instances;
    report.mean_length =
        instances.iter().map(|i| i.length).sum::<usize>() as f64 / instances.len().max(1) as f64;
    report.vs_reference = Ratios::of(
        instances
            .iter()
            .filter_map(|i| Some((i.length, i.reference?))),
    );
    report.vs_optimal = Ratios::of(instances.iter().map(|i| (i.length, i.expected)));
}

/// The tables IDA* will use (none for other methods): the strongest if they are built now
/// (see [`suggest_stronger`]), else the options' (built on every core if need be).
fn tables(args: &Args, first: &Board, options: &Options) -> Result<Option<Arc<PatternDatabase>>> {
    if options.algorithm != Some(Algorithm::IdaStar) {
        return Ok(None);
    }
    let at_hand = best_cached(first.shape(), options.pdb_dir.as_deref())?;
    if let Some(stronger) = suggest_stronger(first.shape(), at_hand.as_deref(), &args.tables)? {
        return Ok(Some(stronger));
    }
    Ok(pattern_database(first, options)?)
}

/// The instances that gave up and those whose length was wrong, and where a Ctrl-C stopped the
/// run.
#[derive(Default)]
struct Troubles {
    gave_up: Vec<String>,
    mismatches: Vec<String>,
    interrupted: Option<String>,
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
        if let Some(line) = &self.interrupted {
            eprintln!("npuzzle bench: stopped by Ctrl-C {line}");
        }
        if !self.mismatches.is_empty() {
            exit::WRONG_LENGTH
        } else if self.interrupted.is_some() {
            exit::INTERRUPTED
        } else if !self.gave_up.is_empty() {
            exit::GAVE_UP
        } else {
            exit::OK
        }
    }
}

/// Solves each instance on `--threads`, checks its length, and adds it to the report, until
/// the instances end or a Ctrl-C stops the one being solved (which is left out: cut short, it
/// measures nothing).
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
    let cancel = cancel_on_interrupt();
    for (done, entry) in entries.iter().enumerate() {
        let budget = limit.map_or_else(Budget::unlimited, |limit| {
            Budget::unlimited().with_time_limit(limit)
        });
        let outcome = pool.install(|| solver.run(&entry.board, budget.with_cancel(cancel.clone())));
        if cancel.is_cancelled() {
            troubles.interrupted = Some(format!(
                "after {done} of {} instances; instance {} was cut short and is left out",
                entries.len(),
                entry.id
            ));
            break;
        }
        let (solution, generated) = match outcome {
            Ok(found) => found,
            Err(SolveError::GaveUp(stopped)) => {
                if args.json {
                    eprintln!("{} gave up: {stopped}", counted(done, entries.len(), entry));
                } else {
                    println!("{:>6}   gave up: {stopped}", entry.id);
                }
                troubles
                    .gave_up
                    .push(format!("instance {}: {stopped}", entry.id));
                continue;
            }
            Err(error) => return Err(error).context(format!("instance {}", entry.id)),
        };
        let length = solver.metric.length(&solution.moves);
        let ok = length_agrees(entry, &solution, length);
        if !ok {
            troubles.mismatches.push(mismatch(entry, &solution, length));
        }
        if args.json {
            eprintln!(
                "{} {} moves (bound {}) in {:.2} s{}",
                counted(done, entries.len(), entry),
                length,
                solution.lower_bound,
                solution.seconds,
                if ok { "" } else { ", MISMATCH" }
            );
        } else {
            print_row(entry, &solution, length, (generated, ok));
        }
        report.total_seconds += solution.seconds;
        report.total_nodes += solution.nodes_expanded;
        report.instances.push(Instance {
            id: entry.id.clone(),
            length,
            expected: entry.optimal,
            reference: entry.reference,
            optimal: solution.optimal,
            lower_bound: solution.lower_bound,
            moves: solution.moves_string(),
            nodes_expanded: solution.nodes_expanded,
            nodes_generated: generated,
            seconds: solution.seconds,
        });
    }
    Ok(troubles)
}

/// The start of the line `--json` writes on standard error as an instance ends (the table's
/// rows show the progress without `--json`): `[3/250] instance 4:` for the third of 250.
fn counted(done: usize, total: usize, entry: &BenchmarkInstance) -> String {
    format!("[{}/{total}] instance {}:", done + 1, entry.id)
}

/// What is wrong with a solution that disagrees with the file.
fn mismatch(entry: &BenchmarkInstance, solution: &Solution, length: usize) -> String {
    match entry.known_optimal() {
        Some(optimal) => format!(
            "instance {}: found {} moves{}, the file says {optimal}",
            entry.id,
            length,
            if solution.optimal {
                ""
            } else {
                " (not optimal)"
            },
        ),
        None => format!("instance {}: the moves do not solve it", entry.id),
    }
}

/// Whether a solution agrees with the file: it solves the board, and where the file claims an
/// optimal length, it is no shorter, and exactly that long if it claims to be optimal itself.
fn length_agrees(entry: &BenchmarkInstance, solution: &Solution, length: usize) -> bool {
    let fits = match entry.known_optimal() {
        Some(optimal) if solution.optimal => length == optimal,
        Some(optimal) => length >= optimal && solution.lower_bound <= optimal,
        None => true,
    };
    fits && solution.solves(&entry.board)
}

fn print_header(
    args: &Args,
    entries: &[BenchmarkInstance],
    solver: &Solver<'_>,
    db: Option<&PatternDatabase>,
    report: &BenchReport,
) {
    let method = match (solver.algorithm, db) {
        _ if solver.metric == Metric::Mtm => {
            "IDA* in MTM + the max of MTM pattern tables".to_string()
        }
        (Some(Algorithm::IdaStar), Some(db)) => format!(
            "IDA* + {} pattern databases{} ({:.1} MB)",
            db.partition().name(),
            if args.no_reflection {
                ""
            } else {
                " + reflection"
            },
            db.bytes() as f64 / 1e6
        ),
        (Some(Algorithm::IdaStar), None) => "IDA* + Manhattan + linear conflict".to_string(),
        (Some(algorithm), _) => algorithm.name().to_string(),
        (None, _) => format!(
            "solve's default within {} s",
            solver.options.time.unwrap_or_default().as_secs_f64()
        ),
    };
    println!(
        "{} instances of {}, {method}, {} thread{}; tables {} in {:.3} s",
        entries.len(),
        args.file.display(),
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        match (db, &solver.mtm) {
            (_, Some(_)) => "(MTM) at hand",
            (Some(_), None) => "loaded",
            (None, None) => "none",
        },
        report.pdb_load_seconds,
    );
    println!(
        "{:>6} {:>6} {:>6} {:>6} {:>14} {:>14} {:>10}",
        "id", "length", "bound", "ref", "expanded", "generated", "seconds"
    );
}

fn print_row(
    entry: &BenchmarkInstance,
    solution: &Solution,
    length: usize,
    (generated, ok): (Option<u64>, bool),
) {
    println!(
        "{:>6} {:>6} {:>6} {:>6} {:>14} {:>14} {:>10.4}{}",
        entry.id,
        length,
        solution.lower_bound,
        entry.reference.map_or("-".to_string(), |r| r.to_string()),
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
    let line = |name: &str, ratios: Option<Ratios>| {
        if let Some(r) = ratios {
            println!(
                "against the {name} lengths ({} instances): mean ratio {:.4}, ratio of the means {:.4}",
                r.instances, r.mean_ratio, r.ratio_of_means
            );
        }
    };
    println!("mean length: {:.2} moves", report.mean_length);
    line("optimal", report.vs_optimal);
    line("reference", report.vs_reference);
}
