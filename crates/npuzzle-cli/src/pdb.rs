//! `npuzzle pdb build`: pattern databases built ahead of time.

use std::time::Instant;

use anyhow::Result;
use npuzzle::Budget;
use npuzzle::pdb::cache::{build, file_path, load, save};

use crate::exit;
use crate::tables::{TableArgs, parse_shape, partition_for, rayon_pool};

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
    let budget = Budget::unlimited().with_progress(crate::progress::progress());
    let started = Instant::now();
    eprintln!(
        "building {partition} ({} tables, {:.1} MB) into {}",
        partition.patterns().len(),
        partition.table_bytes() as f64 / 1e6,
        path.display()
    );
    let db = pool.install(|| build(&partition, &budget))?;
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
