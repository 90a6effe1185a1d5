//! The options every command that searches or builds shares: which pattern databases, where
//! they are cached, how many threads. Declared once, checked once.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use npuzzle::pdb::load_or_build;
use npuzzle::{Budget, Partition, PatternDatabase, Shape};

/// `--partition`, `--pdb-dir` and `--threads`, flattened into each command's arguments.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TableArgs {
    /// The pattern databases: 7-8, 6-6-3 or 5-5-5 on 4x4, 6-5 on 3x4 and 4x3, 6-6-6-6 on 5x5;
    /// by default the best built one of the shape's (see `npuzzle pdb build`).
    #[arg(long)]
    pub partition: Option<String>,
    /// The pattern database cache folder; by default $XDG_CACHE_HOME/npuzzle, else
    /// ~/.cache/npuzzle.
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
    /// Threads for the searches and table builds: 1 or more; by default every core.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

impl TableArgs {
    /// Refuses what clap cannot: zero threads.
    pub fn check(&self) -> Result<()> {
        if self.threads == Some(0) {
            bail!("--threads takes 1 or more");
        }
        Ok(())
    }

    /// The cache folder asked for, else the default one.
    pub fn dir(&self) -> Result<PathBuf> {
        match &self.pdb_dir {
            Some(dir) => Ok(dir.clone()),
            None => npuzzle::pdb::default_dir()
                .context("no cache folder: set XDG_CACHE_HOME or HOME, or pass --pdb-dir"),
        }
    }
}

/// Reads a shape such as `4x4`, `3x4` or `4` (a square).
pub fn parse_shape(text: &str) -> Result<Shape> {
    let (w, h) = match text.split_once(['x', 'X']) {
        Some((w, h)) => (w.trim(), h.trim()),
        None => (text.trim(), text.trim()),
    };
    let w: usize = w
        .parse()
        .with_context(|| format!("'{text}' is not a shape such as 4x4"))?;
    let h: usize = h
        .parse()
        .with_context(|| format!("'{text}' is not a shape such as 4x4"))?;
    Ok(Shape::new(w, h)?)
}

/// The partition a command asked for, or the shape's default.
pub fn partition_for(shape: Shape, name: Option<&str>) -> Result<Partition> {
    match name {
        Some(name) => Ok(Partition::standard(shape, name)?),
        None => Partition::default_for(shape).with_context(|| {
            format!("{shape} boards have no pattern databases (4x4, 5x5, 3x4 and 4x3 do)")
        }),
    }
}

/// States a table build visits per second on two cores of this project's 2-core machine: what
/// the build-time estimates divide by. Measured: 6-6-3, 115 M states, about 12 s; 7-8, 4.7 G
/// states, about 11 min on an idle machine (21 min with other builds taking a core).
const BUILD_STATES_PER_SECOND: f64 = 8.0e6;

/// About how long a partition's build takes on two cores, in seconds.
pub fn build_seconds(partition: &Partition) -> f64 {
    let cells = partition.shape().cells();
    let states: f64 = partition
        .patterns()
        .iter()
        .map(|p| npuzzle::pdb::index::entries(cells, p.len()) as f64 * (cells - p.len()) as f64)
        .sum();
    states / BUILD_STATES_PER_SECOND
}

/// When no partition was named and the strongest standard tables of the shape are not the ones
/// in use: says so on standard error, with their size and about how long their build takes,
/// and on a terminal offers to build them now (with a progress bar). Returns the new tables
/// if they were built.
pub fn suggest_stronger(
    shape: Shape,
    used: Option<&PatternDatabase>,
    tables: &TableArgs,
) -> Result<Option<Arc<PatternDatabase>>> {
    let Some(strongest) = Partition::strongest_first(shape).into_iter().next() else {
        return Ok(None);
    };
    // Tables that build in half a minute are built by the default when first needed.
    let seconds = build_seconds(&strongest);
    if tables.partition.is_some()
        || used.is_some_and(|db| db.partition() == &strongest)
        || seconds < 30.0
    {
        return Ok(None);
    }
    let minutes = seconds / 60.0;
    eprintln!(
        "npuzzle: the strongest {shape} tables, {} ({:.0} MB), are not built; with them optimal searches take a fraction of the time. \
         `npuzzle pdb build {shape} --partition {}` builds them once, in about {minutes:.0} min on two cores.",
        strongest.name(),
        strongest.table_bytes() as f64 / 1e6,
        strongest.name(),
    );
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return Ok(None);
    }
    eprint!("Build them now? [y/N] ");
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    if !answer.trim().eq_ignore_ascii_case("y") {
        return Ok(None);
    }
    let budget = Budget::unlimited().with_progress(crate::progress::progress());
    let pool = rayon_pool(tables.threads)?;
    let dir = tables.dir()?;
    let db = pool.install(|| load_or_build(&strongest, Some(&dir), &budget))?;
    Ok(Some(db))
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
