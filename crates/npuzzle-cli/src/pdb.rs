//! `npuzzle pdb build`: pattern databases built ahead of time, and the progress bar that every
//! command shows while tables load or build.

use std::io::IsTerminal as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::pdb::cache::{build, file_path, load, save};
use npuzzle::{Budget, PdbEvent, Progress};

use crate::exit;
use crate::tables::{TableArgs, parse_shape, partition_for};

/// Arguments of `npuzzle pdb`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: PdbCommand,
}

#[derive(clap::Subcommand)]
enum PdbCommand {
    /// Build a partition's tables and save them in the cache (skipped if a valid file is there).
    Build(BuildArgs),
}

/// Arguments of `npuzzle pdb build`.
#[derive(clap::Args)]
struct BuildArgs {
    /// The board shape: 4x4 or 5x5.
    shape: String,
    #[command(flatten)]
    tables: TableArgs,
    /// Build even if a valid file is there.
    #[arg(long)]
    force: bool,
}

/// Runs `npuzzle pdb …`.
pub fn run(args: &Args) -> Result<u8> {
    match &args.command {
        PdbCommand::Build(args) => run_build(args),
    }
}

fn run_build(args: &BuildArgs) -> Result<u8> {
    args.tables.check()?;
    let shape = parse_shape(&args.shape)?;
    let partition = partition_for(shape, args.tables.partition.as_deref())?;
    let dir = args.tables.dir()?;
    let path = file_path(&dir, &partition);
    if !args.force {
        let started = Instant::now();
        if load(&partition, &path).is_ok() {
            eprintln!(
                "{} is built and valid ({:.1} MB, checked in {:.2} s); --force rebuilds it",
                path.display(),
                file_size(&path) as f64 / 1e6,
                started.elapsed().as_secs_f64()
            );
            return Ok(exit::OK);
        }
    }
    let pool = rayon_pool(args.tables.threads)?;
    let progress = progress_bar();
    let started = Instant::now();
    eprintln!(
        "building {partition} ({} tables, {:.1} MB) into {}",
        partition.patterns().len(),
        partition.table_bytes() as f64 / 1e6,
        path.display()
    );
    let db = pool.install(|| build(&partition, &Budget::unlimited(), Some(&progress)))?;
    let seconds = started.elapsed().as_secs_f64();
    let bytes = save(&db, &path)?;
    eprintln!(
        "built {partition} in {seconds:.2} s: {:.1} MB written to {}",
        bytes as f64 / 1e6,
        path.display()
    );
    Ok(exit::OK)
}

fn file_size(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// A rayon pool of `threads` threads (all cores when `None`).
pub fn rayon_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        if threads == 0 {
            bail!("--threads takes 1 or more");
        }
        builder = builder.num_threads(threads);
    }
    Ok(builder.build()?)
}

/// A progress callback: an indicatif bar per table build on a terminal (hidden otherwise),
/// and one line on standard error per load, rebuild, finished table or save.
///
/// Off a terminal, a build in progress prints a line at every tenth instead of the bar.
pub fn progress_bar() -> Progress {
    let bar: Mutex<Option<ProgressBar>> = Mutex::new(None);
    let terminal = std::io::stderr().is_terminal();
    let tenths = AtomicU64::new(0);
    Progress::new(move |event: &PdbEvent| {
        let mut bar = bar.lock().unwrap_or_else(|p| p.into_inner());
        match event {
            PdbEvent::Loaded {
                path,
                bytes,
                seconds,
            } => eprintln!(
                "loaded {} ({:.1} MB) in {seconds:.2} s",
                path.display(),
                *bytes as f64 / 1e6
            ),
            PdbEvent::Rebuilding { path, reason } => {
                eprintln!("npuzzle: {}: {reason}; building the tables", path.display())
            }
            PdbEvent::BuildStarted {
                pattern,
                tiles,
                entries,
            } => {
                let new = ProgressBar::new(*entries);
                new.set_style(
                    ProgressStyle::with_template(
                        "{msg} [{bar:30}] {percent:>3}% {elapsed_precise} (eta {eta})",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
                );
                new.set_message(format!("table {} (tiles {tiles:?})", pattern + 1));
                *bar = Some(new);
            }
            PdbEvent::BuildProgress {
                pattern,
                done,
                total,
            } => {
                if let Some(bar) = bar.as_ref() {
                    bar.set_position(*done);
                }
                let tenth = done * 10 / (*total).max(1);
                if !terminal && tenth > tenths.load(Ordering::Relaxed) && tenth < 10 {
                    tenths.store(tenth, Ordering::Relaxed);
                    eprintln!("table {}: {}0% of the entries", pattern + 1, tenth);
                }
            }
            PdbEvent::BuildFinished {
                pattern,
                seconds,
                bytes,
            } => {
                if let Some(bar) = bar.take() {
                    bar.finish_and_clear();
                }
                tenths.store(0, Ordering::Relaxed);
                eprintln!(
                    "table {} built in {seconds:.2} s ({:.1} MB)",
                    pattern + 1,
                    *bytes as f64 / 1e6
                );
            }
            PdbEvent::Saved { path, bytes } => {
                eprintln!("saved {} ({:.1} MB)", path.display(), *bytes as f64 / 1e6)
            }
            PdbEvent::SaveFailed { path, message } => eprintln!(
                "npuzzle: could not save {} ({message}); using the tables from memory",
                path.display()
            ),
        }
    })
}
