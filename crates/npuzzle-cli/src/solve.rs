//! `npuzzle solve`: the analysis, then a solution.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, bail};
use npuzzle::large::load_allowance;
use npuzzle::mtm::{MtmError, MtmTables, solve_mtm_with};
use npuzzle::pdb::cache::best_cached_within;
use npuzzle::{Algorithm, Budget, Options, SolveError, solve};

use crate::exit;
use crate::input::read_board;
use crate::interrupt::cancel_on_interrupt;
use crate::method::Method;
use crate::notation::{Metric, Notation};
use crate::report::{Extras, Report};
use crate::tables::{TableArgs, suggest_stronger};

/// Arguments of `npuzzle solve`.
#[derive(clap::Args)]
pub struct Args {
    /// The puzzle file, - for standard input, or the board itself in the slash form, such as
    /// '8 2 0/4 6 1/3 7 5'.
    file: PathBuf,
    /// The method; by default the best optimal method for the board.
    #[arg(long, value_enum)]
    algorithm: Option<Method>,
    /// Print the tiles moved instead of the blank moves.
    #[arg(long)]
    tiles: bool,
    /// How to write the solution: `gap` the blank's moves (DRD), `slidy` the speedsolvers'
    /// tile moves with repeat counts (R3U2L).
    #[arg(long, value_enum, default_value_t)]
    notation: Notation,
    /// What a move is: `stm` one tile moved, `mtm` a slide of any number of tiles in one line
    /// (optimal on 3x3, 3x4, 4x3 and 4x4 only).
    #[arg(long, value_enum, default_value_t, conflicts_with_all = ["algorithm", "fast", "time"])]
    metric: Metric,
    /// Print every board along the way.
    #[arg(long)]
    show: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Give up after expanding this many nodes.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Give up when the search's tables reach this many MiB.
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    max_memory: usize,
    /// Give up after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Return the fast solver's first solution at once (any size; NOT optimal).
    #[arg(long, conflicts_with = "algorithm")]
    fast: bool,
    /// Improve a fast solution for this many seconds (the anytime solver) instead of the
    /// default method.
    #[arg(long, value_name = "SECONDS", conflicts_with = "fast")]
    time: Option<f64>,
    #[command(flatten)]
    tables: TableArgs,
}

/// Solves the board and prints the report.
pub fn run(args: &Args) -> Result<u8> {
    args.tables.check()?;
    let board = read_board(&args.file)?;
    let mut budget = Budget::default()
        .with_max_memory(args.max_memory.saturating_mul(1 << 20))
        .with_cancel(cancel_on_interrupt());
    if let Some(nodes) = args.max_nodes {
        budget = budget.with_max_nodes(nodes);
    }
    if let Some(seconds) = args.timeout {
        match Duration::try_from_secs_f64(seconds) {
            Ok(limit) => budget = budget.with_time_limit(limit),
            Err(_) => bail!("--timeout takes a number of seconds, not {seconds}"),
        }
    }
    if args.metric == Metric::Mtm {
        return run_mtm(
            args,
            &board,
            budget.with_progress(crate::progress::progress()),
        );
    }
    let time = match args.time.map(Duration::try_from_secs_f64) {
        None => None,
        Some(Ok(time)) => Some(time),
        Some(Err(_)) => bail!(
            "--time takes a number of seconds, not {}",
            args.time.unwrap_or_default()
        ),
    };
    let algorithm = match (args.algorithm, time) {
        (Some(method), _) => Some(Algorithm::from(method)),
        (None, Some(_)) => Some(Algorithm::Anytime),
        (None, None) => None,
    };
    let options = Options {
        algorithm,
        budget: budget.with_progress(crate::progress::progress()),
        fast: args.fast,
        time,
        partition: args.tables.partition.clone(),
        pdb_dir: Some(args.tables.dir()?),
        threads: args.tables.threads,
    };
    // A named partition is what the search uses: no cached tables to look at, nothing to
    // suggest (the first test `suggest_stronger` makes).
    if options.algorithm.is_none_or(|a| a == Algorithm::IdaStar)
        && !options.fast
        && args.tables.partition.is_none()
    {
        let allowance = load_allowance(&options.budget);
        let at_hand = best_cached_within(board.shape(), options.pdb_dir.as_deref(), allowance)?;
        suggest_stronger(board.shape(), at_hand.as_deref(), &args.tables)?;
    }
    let report = Report::analyze(&board);
    let result = solve(&board, &options);
    crate::progress::clear_line();
    let (report, code) = match result {
        Ok(solution) => (report.with_solution(&solution, extras(args)), exit::OK),
        Err(SolveError::Unsolvable(_)) => (report, exit::UNSOLVABLE),
        Err(SolveError::GaveUp(gave_up)) => (report.with_gave_up(&gave_up), exit::GAVE_UP),
        Err(SolveError::Pdb(error)) => return Err(error.into()),
        Err(
            error @ (SolveError::Internal(_)
            | SolveError::TooLarge { .. }
            | SolveError::IllegalMove(_)),
        ) => {
            return Err(error.into());
        }
    };
    report.print(args.json)?;
    Ok(code)
}

/// The extras the arguments ask for.
fn extras(args: &Args) -> Extras {
    Extras {
        tiles: args.tiles,
        show: args.show,
        notation: args.notation,
        metric: args.metric,
    }
}

/// `--metric mtm`: the shortest solution in multi-tile moves, by IDA* on the MTM tables. A
/// build of the tables stopped by Ctrl-C or the timeout is a search given up (exit 3).
fn run_mtm(args: &Args, board: &npuzzle::Board, budget: Budget) -> Result<u8> {
    let dir = args.tables.dir()?;
    let report = Report::analyze(board);
    let result = MtmTables::load_or_build(board.shape(), Some(&dir), &budget)
        .and_then(|tables| solve_mtm_with(board, &tables, &budget));
    crate::progress::clear_line();
    let (report, code) = match result {
        Ok(solution) => (report.with_solution(&solution, extras(args)), exit::OK),
        Err(MtmError::Unsolvable(_)) => (report, exit::UNSOLVABLE),
        Err(MtmError::GaveUp(gave_up)) => (report.with_gave_up(&gave_up), exit::GAVE_UP),
        Err(error @ MtmError::Shape(_)) => return Err(error.into()),
    };
    report.print(args.json)?;
    Ok(code)
}
