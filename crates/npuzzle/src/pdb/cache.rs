//! The on-disk cache: versioned, checksummed files, written atomically, never trusted blindly.
//!
//! A file holds one partition's tables:
//!
//! ```text
//! "NPZPDB\r\n"  magic, 8 bytes
//! u32 format version, u32 width, u32 height            (little-endian, as all numbers)
//! u32 name length, the partition's name
//! u32 pattern count; for each: u32 tile count, the tiles, u64 table bytes
//! the tables' bytes, in order
//! u64 checksum of everything above
//! ```
//!
//! A file is written by `atomic-file` (a temporary name in the same folder, synced, renamed
//! over the final name, the folder synced), so a reader never sees a half-written file, and
//! of two concurrent builds the last rename wins with a whole file. A file that is missing, truncated, of another version
//! or shape or partition, or whose checksum fails, is reported and rebuilt.

use std::fs::{self, File};
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::build::{build_memory, build_table};
use super::{Partition, PatternDatabase, PatternTable, PdbError, PdbEvent};
use crate::hash::PdbChecksum;
use crate::progress::ProgressEvent;
use crate::search::budget::{Budget, StopReason};

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"NPZPDB\r\n";
/// The format version; bump it when the layout or the meaning of entries changes.
pub const FORMAT_VERSION: u32 = 1;

/// The cache folder: `$XDG_CACHE_HOME/npuzzle`, else `$HOME/.cache/npuzzle`.
pub fn default_dir() -> Option<PathBuf> {
    let from = |var: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    from("XDG_CACHE_HOME")
        .map(|p| p.join("npuzzle"))
        .or_else(|| from("HOME").map(|p| p.join(".cache").join("npuzzle")))
}

/// The file that holds a partition's tables in a folder.
pub fn file_path(dir: &Path, partition: &Partition) -> PathBuf {
    dir.join(format!(
        "{}x{}-{}.pdb",
        partition.shape().width,
        partition.shape().height,
        partition.name()
    ))
}

/// The header bytes for a partition (everything before the tables).
fn header(partition: &Partition) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(partition.shape().width as u32).to_le_bytes());
    out.extend_from_slice(&(partition.shape().height as u32).to_le_bytes());
    out.extend_from_slice(&(partition.name().len() as u32).to_le_bytes());
    out.extend_from_slice(partition.name().as_bytes());
    out.extend_from_slice(&(partition.patterns().len() as u32).to_le_bytes());
    for pattern in partition.patterns() {
        out.extend_from_slice(&(pattern.len() as u32).to_le_bytes());
        out.extend_from_slice(pattern);
        let bytes = crate::rank::entries(partition.shape().cells(), pattern.len()).div_ceil(2);
        out.extend_from_slice(&bytes.to_le_bytes());
    }
    out
}

/// Writes a database to `path` atomically (through `atomic-file`: a temporary file, synced,
/// renamed over `path`, and the folder synced); returns the bytes written.
///
/// # Errors
///
/// [`PdbError::Save`] when the file cannot be written (nothing is left half-written).
pub fn save(db: &PatternDatabase, path: &Path) -> Result<u64, PdbError> {
    let fail = |message: String| PdbError::Save {
        path: path.to_path_buf(),
        message,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| fail(e.to_string()))?;
    let head = header(db.partition());
    let mut sum = PdbChecksum::new();
    sum.add(&head);
    let mut parts = vec![head.as_slice()];
    for table in db.tables() {
        sum.add(table.data());
        parts.push(table.data());
    }
    let sum = sum.0.to_le_bytes();
    parts.push(&sum);
    atomic_file::write_parts(path, &parts).map_err(|e| fail(e.to_string()))?;
    Ok(parts.iter().map(|part| part.len() as u64).sum())
}

/// Why a cached file was not used.
fn bad(reason: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, reason.into())
}

/// Reads a partition's tables from `path`, checking everything; any doubt is an error.
///
/// # Errors
///
/// An I/O error for a file that cannot be read or whose contents are not exactly the
/// partition's tables (a wrong header, size or checksum).
pub fn load(partition: &Partition, path: &Path) -> io::Result<PatternDatabase> {
    let file = File::open(path)?;
    let length = file.metadata()?.len();
    let expected_head = header(partition);
    let expected_length = expected_head.len() as u64 + partition.table_bytes() + 8;
    // No larger than the file: a small file is not read through a megabyte's buffer.
    let buffer = length.clamp(64, 1 << 20) as usize;
    let mut input = BufReader::with_capacity(buffer, file);
    let mut head = vec![0u8; expected_head.len()];
    input
        .read_exact(&mut head)
        .map_err(|_| bad("the file is truncated"))?;
    if head[..8] != MAGIC[..] {
        return Err(bad("it is not a pattern database file"));
    }
    if head[8..12] != FORMAT_VERSION.to_le_bytes() {
        return Err(bad("it was written in another format version"));
    }
    if head != expected_head {
        return Err(bad("its header names another shape or partition"));
    }
    if length < expected_length {
        return Err(bad(format!(
            "the file is truncated ({length} of {expected_length} bytes)"
        )));
    }
    if length > expected_length {
        return Err(bad("the file has trailing bytes"));
    }
    let mut sum = PdbChecksum::new();
    sum.add(&head);
    let mut tables = Vec::with_capacity(partition.patterns().len());
    for pattern in partition.patterns() {
        let bytes = crate::rank::entries(partition.shape().cells(), pattern.len()).div_ceil(2);
        let mut data = vec![0u8; bytes as usize];
        input
            .read_exact(&mut data)
            .map_err(|_| bad("the file is truncated"))?;
        sum.add(&data);
        tables.push(
            PatternTable::from_parts(partition.shape(), pattern.clone(), data)
                .map_err(|e| bad(e.to_string()))?,
        );
    }
    let mut stored = [0u8; 8];
    input
        .read_exact(&mut stored)
        .map_err(|_| bad("the file is truncated"))?;
    if u64::from_le_bytes(stored) != sum.0 {
        return Err(bad("the checksum does not match: the file is corrupt"));
    }
    PatternDatabase::new(partition.clone(), tables).map_err(|e| bad(e.to_string()))
}

/// Builds a partition's tables in memory, on the current rayon pool.
///
/// # Errors
///
/// [`PdbError::Stopped`] when the budget stops a build.
pub fn build(partition: &Partition, budget: &Budget) -> Result<PatternDatabase, PdbError> {
    let peak = partition
        .patterns()
        .iter()
        .map(|p| build_memory(partition.shape(), p.len()))
        .max()
        .unwrap_or(0);
    if budget.max_memory.is_some_and(|max| peak > max as u64) {
        return Err(PdbError::Stopped(StopReason::MemoryLimit));
    }
    let report = |event: &PdbEvent| budget.report_event(&ProgressEvent::Table(event.clone()));
    let tables = partition
        .patterns()
        .iter()
        .enumerate()
        .map(|(i, tiles)| build_table(partition.shape(), tiles, i, budget, &report))
        .collect::<Result<Vec<_>, _>>()?;
    PatternDatabase::new(partition.clone(), tables)
}

/// Loads a partition's tables from the cache folder `dir`, or builds and saves them when the
/// file is missing or bad (with a [`PdbEvent::Rebuilding`] saying why). A failed save is
/// reported and the tables are used from memory. With no folder, the tables are built.
///
/// # Errors
///
/// [`PdbError::Stopped`] when the budget stops the build (a failed save is no error).
pub fn load_or_build_file(
    partition: &Partition,
    dir: Option<&Path>,
    budget: &Budget,
) -> Result<PatternDatabase, PdbError> {
    let report = |event: PdbEvent| budget.report_event(&ProgressEvent::Table(event));
    let Some(dir) = dir else {
        return build(partition, budget);
    };
    let path = file_path(dir, partition);
    let started = Instant::now();
    match load(partition, &path) {
        Ok(db) => {
            report(PdbEvent::Loaded {
                bytes: fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
                path,
                seconds: started.elapsed().as_secs_f64(),
            });
            return Ok(db);
        }
        Err(e) => {
            let reason = if e.kind() == io::ErrorKind::NotFound {
                "no cached file yet".to_string()
            } else {
                e.to_string()
            };
            report(PdbEvent::Rebuilding {
                path: path.clone(),
                reason,
            });
        }
    }
    let db = build(partition, budget)?;
    match save(&db, &path) {
        Ok(bytes) => report(PdbEvent::Saved { path, bytes }),
        Err(e) => report(PdbEvent::SaveFailed {
            path,
            message: e.to_string(),
        }),
    }
    Ok(db)
}

/// One partition's tables in this process: empty until loaded or built, then shared. Each
/// partition has its own lock, so a long build of one never holds up another, nor a look at
/// what is loaded.
type LoadedSlot = Arc<Mutex<Option<Arc<PatternDatabase>>>>;

/// The partitions this process has asked for, each with its slot.
static LOADED: Mutex<Vec<(Partition, LoadedSlot)>> = Mutex::new(Vec::new());

/// The partition's slot, made on first use when `make` is true.
fn slot(partition: &Partition, make: bool) -> Option<LoadedSlot> {
    let mut slots = LOADED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, slot)) = slots.iter().find(|(p, _)| p == partition) {
        return Some(Arc::clone(slot));
    }
    make.then(|| {
        let slot = LoadedSlot::default();
        slots.push((partition.clone(), Arc::clone(&slot)));
        slot
    })
}

/// Like [`load_or_build_file`], but keeps the tables in memory for the rest of the process, so
/// that only the first solve of a shape pays for the load. With no folder the tables are built
/// in memory and nothing is read from or written to disk. Two callers asking for the same
/// partition at once share one build; other partitions are not held up.
///
/// # Errors
///
/// As [`load_or_build_file`].
pub fn load_or_build(
    partition: &Partition,
    dir: Option<&Path>,
    budget: &Budget,
) -> Result<Arc<PatternDatabase>, PdbError> {
    let slot = slot(partition, true).expect("made on demand");
    let mut tables = slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(db) = tables.as_ref() {
        return Ok(Arc::clone(db));
    }
    let db = Arc::new(load_or_build_file(partition, dir, budget)?);
    *tables = Some(Arc::clone(&db));
    Ok(db)
}

/// The partition's tables if this process has them in memory already: never loads, builds,
/// or waits for a build under way.
pub fn loaded(partition: &Partition) -> Option<Arc<PatternDatabase>> {
    let slot = slot(partition, false)?;
    let tables = slot.try_lock().ok()?;
    tables.as_ref().map(Arc::clone)
}

/// The strongest standard tables of a shape that this process has loaded or that are cached in
/// `dir` (see [`Partition::strongest_first`]), loaded and kept; never built. `Ok(None)` when
/// none is at hand; a cached file that cannot be read is an error.
///
/// # Errors
///
/// [`PdbError::Unreadable`] for a cached file that cannot be read.
pub fn best_cached(
    shape: crate::board::Shape,
    dir: Option<&Path>,
) -> Result<Option<Arc<PatternDatabase>>, PdbError> {
    best_cached_within(shape, dir, None)
}

/// Bytes of a cached file loaded (read and checked) per second, on the low side: what
/// [`load_seconds`] divides by. Measured on this project's 2-core machine from the page cache,
/// as the whole `npuzzle pdb build` run that finds the file valid: 4×4 6-6-3 (5.8 MB) in
/// 10–20 ms, 300–580 MB/s; a file read from disk is slower, hence the margin. The 7-8 tables
/// (288 MB) so count as 1.4 s, and are loaded within a deadline only when it is 5.8 s away
/// or more (see [`crate::large::load_allowance`]).
pub const LOAD_BYTES_PER_SECOND: f64 = 200e6;

/// About how long loading a cached file of `bytes` bytes takes, in seconds.
pub fn load_seconds(bytes: u64) -> f64 {
    bytes as f64 / LOAD_BYTES_PER_SECOND
}

/// Like [`best_cached`], but a cached file whose load would take longer than `allowance` (see
/// [`load_seconds`]) is skipped for the next weaker one, so that loading never eats a short
/// budget; tables this process has loaded already cost nothing and are always taken.
/// `allowance` `None`: no limit.
///
/// # Errors
///
/// [`PdbError::Unreadable`] for a cached file that cannot be read.
pub fn best_cached_within(
    shape: crate::board::Shape,
    dir: Option<&Path>,
    allowance: Option<Duration>,
) -> Result<Option<Arc<PatternDatabase>>, PdbError> {
    for partition in Partition::strongest_first(shape) {
        if let Some(db) = loaded(&partition) {
            return Ok(Some(db));
        }
        let Some(dir) = dir else { continue };
        let path = file_path(dir, &partition);
        let Ok(bytes) = fs::metadata(&path).map(|m| m.len()) else {
            continue;
        };
        if !path.is_file() || allowance.is_some_and(|a| load_seconds(bytes) > a.as_secs_f64()) {
            continue;
        }
        let db = load(&partition, &path).map_err(|e| PdbError::Unreadable {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let db = Arc::new(db);
        if let Some(slot) = slot(&partition, true)
            && let Ok(mut tables) = slot.try_lock()
            && tables.is_none()
        {
            *tables = Some(Arc::clone(&db));
        }
        return Ok(Some(db));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::progress::{Progress, ProgressEvent};
    use std::sync::mpsc;
    use std::time::Duration;

    fn partition(name: &str, patterns: Vec<Vec<u8>>) -> Partition {
        Partition::new(Shape::new(3, 3).unwrap(), name, patterns).unwrap()
    }

    #[test]
    fn a_build_under_way_holds_up_neither_a_look_nor_another_partition() {
        let slow = partition("slow-4-4", vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        let other = partition("other-8", vec![vec![1, 2, 3, 4, 5, 6, 7, 8]]);
        // The slow build stops at its first progress event until the test lets it go.
        let (started, wait_started) = mpsc::channel();
        let (release, wait_release) = mpsc::channel::<()>();
        let gate = Mutex::new((started, wait_release));
        let progress = Progress::new(move |event| {
            if matches!(event, ProgressEvent::Table(_)) {
                let gate = gate.lock().unwrap();
                let _ = gate.0.send(());
                let _ = gate.1.recv_timeout(Duration::from_secs(30));
            }
        });
        let budget = Budget::default().with_progress(progress);
        let building = slow.clone();
        let builder = std::thread::spawn(move || load_or_build(&building, None, &budget));
        wait_started
            .recv_timeout(Duration::from_secs(30))
            .expect("the build never began");
        // While it is held: nothing loaded yet, and another partition builds.
        assert!(loaded(&slow).is_none());
        let built = load_or_build(&other, None, &Budget::default()).unwrap();
        assert!(loaded(&other).is_some_and(|db| Arc::ptr_eq(&db, &built)));
        drop(release);
        let slow_db = builder.join().unwrap().unwrap();
        assert!(loaded(&slow).is_some_and(|db| Arc::ptr_eq(&db, &slow_db)));
    }
}
