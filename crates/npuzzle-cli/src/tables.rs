//! The options every command that searches or builds shares: which pattern databases, where
//! they are cached, how many threads. Declared once, checked once.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use npuzzle::{Partition, Shape};

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
