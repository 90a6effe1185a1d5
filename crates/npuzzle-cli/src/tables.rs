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
    /// by default the strongest (on 4x4 7-8, built on first use, after asking on a terminal),
    /// else the best built one of the shape's (see `npuzzle pdb build`).
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

/// Placements a table build fills per second on two cores of this project's 2-core machine:
/// what the build-time estimates divide by. Measured: 7-8, 577 M placements, 113 s (the median
/// of seven idle runs); 6-6-6-6, 510 M, 79–87 s.
const BUILD_PLACEMENTS_PER_SECOND: f64 = 5.0e6;

/// About how long a partition's build takes on two cores, in seconds.
pub fn build_seconds(partition: &Partition) -> f64 {
    let cells = partition.shape().cells();
    let placements: f64 = partition
        .patterns()
        .iter()
        .map(|p| npuzzle::rank::entries(cells, p.len()) as f64)
        .sum();
    placements / BUILD_PLACEMENTS_PER_SECOND
}

/// Tables whose build takes less than this many seconds are built by the default when first
/// needed, without a word.
const QUIET_BUILD_SECONDS: f64 = 30.0;

/// Whether `solve` and `bench` build the strongest tables of a shape on first use (after
/// asking, on a terminal): on 4×4, whose 7-8 tables build in about 2 min and make every
/// optimal search fast. Larger tables (5×5's) are only offered on a terminal.
fn built_on_first_use(shape: Shape) -> bool {
    (shape.width, shape.height) == (4, 4)
}

/// When no partition was named and the strongest standard tables of the shape are not the ones
/// in use: says so on standard error, with their size and about how long their build takes;
/// on a terminal asks whether to build them now, and off one builds them where the shape's are
/// built on first use (see [`built_on_first_use`]), with progress on a terminal. Returns the
/// new tables if they were built.
pub fn suggest_stronger(
    shape: Shape,
    used: Option<&PatternDatabase>,
    tables: &TableArgs,
) -> Result<Option<Arc<PatternDatabase>>> {
    let Some(strongest) = Partition::strongest_first(shape).into_iter().next() else {
        return Ok(None);
    };
    let seconds = build_seconds(&strongest);
    // Cached but not loaded (its load would not fit the budget): built, nothing to suggest.
    let cached = tables
        .dir()
        .is_ok_and(|dir| npuzzle::pdb::cache::file_path(&dir, &strongest).is_file());
    if tables.partition.is_some()
        || used.is_some_and(|db| db.partition() == &strongest)
        || cached
        || seconds < QUIET_BUILD_SECONDS
    {
        return Ok(None);
    }
    let first_use = built_on_first_use(shape);
    let terminal = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    eprintln!(
        "npuzzle: the strongest {shape} tables, {} ({:.0} MB), are not built; with them optimal searches take a fraction of the time. \
         Building them once takes about {:.0} min on two cores (`npuzzle pdb build {shape} --partition {}`).",
        strongest.name(),
        strongest.table_bytes() as f64 / 1e6,
        (seconds / 60.0).max(1.0),
        strongest.name(),
    );
    if terminal {
        if !ask_to_build(first_use)? {
            return Ok(None);
        }
    } else if first_use {
        eprintln!("npuzzle: building them now.");
    } else {
        return Ok(None);
    }
    let budget = Budget::unlimited().with_progress(crate::progress::progress());
    let pool = rayon_pool(tables.threads)?;
    let dir = tables.dir()?;
    let db = pool.install(|| load_or_build(&strongest, Some(&dir), &budget))?;
    Ok(Some(db))
}

/// Asks on the terminal whether to build the tables now; an empty answer is `default`.
fn ask_to_build(default: bool) -> Result<bool> {
    eprint!(
        "Build them now? {} ",
        if default { "[Y/n]" } else { "[y/N]" }
    );
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    let answer = answer.trim();
    Ok(match answer {
        "" => default,
        _ => answer.eq_ignore_ascii_case("y") || answer.eq_ignore_ascii_case("yes"),
    })
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
