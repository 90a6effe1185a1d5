//! The 4×4 MTM tables on disk, in the pattern databases' folder: `4x4-mtm.tbl`, written
//! through `atomic-file` (a reader never sees half a file), checked whole on reading.
//!
//! ```text
//! "NPZMTM1\n"  magic and format version, 8 bytes
//! u32 width, u32 height, u32 table count; for each table: u32 tile count, the tiles
//! each table's entries, a byte each, in order
//! u64 checksum of the entries
//! ```

use std::fs::{self, File};
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::table::MtmTable;
use crate::board::Shape;
use crate::hash::MtmChecksum;
use crate::progress::{PdbEvent, ProgressEvent};
use crate::search::budget::{Budget, StopReason};

const MAGIC: &[u8; 8] = b"NPZMTM1\n";

/// The file of a shape's tables in `dir`.
pub fn file_path(dir: &Path, shape: Shape) -> PathBuf {
    dir.join(format!("{shape}-mtm.tbl"))
}

/// The header a file of these tables starts with.
fn header(shape: Shape, patterns: &[Vec<u8>]) -> Vec<u8> {
    let mut head = MAGIC.to_vec();
    for n in [shape.width, shape.height, patterns.len()] {
        head.extend_from_slice(&(n as u32).to_le_bytes());
    }
    for pattern in patterns {
        head.extend_from_slice(&(pattern.len() as u32).to_le_bytes());
        head.extend_from_slice(pattern);
    }
    head
}

fn bad(reason: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, reason.to_string())
}

/// Reads the tables of `patterns` from their file in `dir`.
///
/// # Errors
///
/// An I/O error for a file that is missing or not exactly these tables (header, length or
/// checksum).
pub fn load(shape: Shape, patterns: &[Vec<u8>], dir: &Path) -> io::Result<Vec<MtmTable>> {
    let mut input = BufReader::with_capacity(1 << 20, File::open(file_path(dir, shape))?);
    let expected = header(shape, patterns);
    let mut head = vec![0u8; expected.len()];
    input.read_exact(&mut head)?;
    if head != expected {
        return Err(bad("another shape, tile sets or format"));
    }
    let mut sum = MtmChecksum::new();
    let tables = patterns
        .iter()
        .map(|tiles| MtmTable::read(shape, tiles, &mut input, &mut sum))
        .collect::<io::Result<Vec<_>>>()?;
    let mut stored = [0u8; 8];
    input.read_exact(&mut stored)?;
    if u64::from_le_bytes(stored) != sum.0 || input.read(&mut [0u8; 1])? != 0 {
        return Err(bad(
            "the checksum does not match, or the file has trailing bytes",
        ));
    }
    Ok(tables)
}

/// Writes the tables to their file in `dir` (made if missing), atomically through
/// `atomic-file` (a temporary file, synced, renamed, the folder synced).
///
/// # Errors
///
/// An I/O error when the folder or the file cannot be written.
pub fn save(shape: Shape, patterns: &[Vec<u8>], tables: &[MtmTable], dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let head = header(shape, patterns);
    let mut sum = MtmChecksum::new();
    let mut parts = vec![head.as_slice()];
    for table in tables {
        sum.add(table.entries());
        parts.push(table.entries());
    }
    let sum = sum.0.to_le_bytes();
    parts.push(&sum);
    atomic_file::write_parts(&file_path(dir, shape), &parts).map_err(io::Error::other)
}

/// Reads the tables of `patterns` from their file in `dir`, or builds them and saves them
/// there (with no folder, builds them), as the pattern databases' cache does: each step is
/// reported to the budget's progress callback ([`PdbEvent::Loaded`], [`PdbEvent::Rebuilding`]
/// with why, each table's build, [`PdbEvent::Saved`] or [`PdbEvent::SaveFailed`]: a failed
/// save is no error). A build stopped by the budget writes nothing.
///
/// # Errors
///
/// The [`StopReason`] when the budget's cancel flag or deadline stops the build.
pub fn load_or_build(
    shape: Shape,
    patterns: &[Vec<u8>],
    dir: Option<&Path>,
    budget: &Budget,
) -> Result<Vec<MtmTable>, StopReason> {
    let report = |event: PdbEvent| budget.report_event(&ProgressEvent::Table(event));
    if let Some(dir) = dir {
        let (path, started) = (file_path(dir, shape), Instant::now());
        match load(shape, patterns, dir) {
            Ok(tables) => {
                report(PdbEvent::Loaded {
                    bytes: fs::metadata(&path).map_or(0, |m| m.len()),
                    path,
                    seconds: started.elapsed().as_secs_f64(),
                });
                return Ok(tables);
            }
            Err(error) => report(PdbEvent::Rebuilding {
                path,
                reason: match error.kind() {
                    io::ErrorKind::NotFound => "no cached file yet".to_string(),
                    _ => error.to_string(),
                },
            }),
        }
    }
    let tables = patterns
        .iter()
        .enumerate()
        .map(|(i, tiles)| MtmTable::build_within(shape, tiles, i, budget))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(dir) = dir {
        let path = file_path(dir, shape);
        match save(shape, patterns, &tables, dir) {
            Ok(()) => report(PdbEvent::Saved {
                bytes: fs::metadata(&path).map_or(0, |m| m.len()),
                path,
            }),
            Err(error) => report(PdbEvent::SaveFailed {
                path,
                message: error.to_string(),
            }),
        }
    }
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;
    use crate::search::budget::CancelFlag;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn a_build_reports_its_start_its_progress_to_the_whole_and_its_end() {
        // 3x3's table of every tile reaches half its placements (the goal's parity); 3x4's of
        // four tiles, all of them.
        for (w, h, tiles) in [
            (3, 3, (1..=8).collect::<Vec<u8>>()),
            (3, 4, vec![1, 2, 3, 4]),
        ] {
            let shape = Shape::new(w, h).unwrap();
            let events = Arc::new(std::sync::Mutex::new(Vec::new()));
            let seen = Arc::clone(&events);
            let budget = Budget::unlimited().with_progress(Progress::new(move |event| {
                if let ProgressEvent::Table(event) = event {
                    seen.lock().unwrap().push(event.clone());
                }
            }));
            let tables = load_or_build(shape, std::slice::from_ref(&tiles), None, &budget).unwrap();
            let events = events.lock().unwrap();
            let Some(PdbEvent::BuildStarted { entries, .. }) = events.first() else {
                panic!("no start: {events:?}");
            };
            let Some(PdbEvent::BuildProgress { done, total, .. }) = events.iter().rev().nth(1)
            else {
                panic!("no progress before the end: {events:?}");
            };
            assert_eq!((done, total), (entries, entries), "{w}x{h}");
            assert!(matches!(
                events.last(),
                Some(PdbEvent::BuildFinished { bytes, .. }) if *bytes == tables[0].bytes() as u64
            ));
        }
    }

    #[test]
    fn a_cancelled_build_stops_at_once_and_writes_nothing() {
        // 4x4 with 5-tile tables (5.8 M entries each): several progress reports a table.
        let shape = Shape::new(4, 4).unwrap();
        let patterns = vec![vec![1, 2, 3, 4, 5], vec![11, 12, 13, 14, 15]];
        let dir = std::env::temp_dir().join(format!("npuzzle-mtm-cancel-{}", std::process::id()));
        let cancel = CancelFlag::new();
        let (flag, reports) = (cancel.clone(), Arc::new(AtomicU64::new(0)));
        let counted = Arc::clone(&reports);
        let budget = Budget::unlimited()
            .with_cancel(cancel)
            .with_progress(Progress::new(move |event| {
                // Ctrl-C at the build's first report.
                if let ProgressEvent::Table(PdbEvent::BuildProgress { .. }) = event {
                    counted.fetch_add(1, Ordering::Relaxed);
                    flag.cancel();
                }
            }));
        let result = load_or_build(shape, &patterns, Some(&dir), &budget);
        assert_eq!(result.err(), Some(StopReason::Cancelled));
        assert_eq!(
            reports.load(Ordering::Relaxed),
            1,
            "the build stops at its first look after the cancel"
        );
        let left = fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
        assert_eq!(left, 0, "no file, whole or partial, in the cache folder");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn tables_read_back_equal_and_damage_is_refused() {
        let shape = Shape::new(3, 4).unwrap();
        let patterns = vec![vec![1, 2, 3, 4], vec![5, 6, 7]];
        let tables: Vec<MtmTable> = patterns.iter().map(|p| MtmTable::build(shape, p)).collect();
        let dir = std::env::temp_dir().join(format!("npuzzle-mtm-cache-{}", std::process::id()));
        save(shape, &patterns, &tables, &dir).unwrap();
        let read = load(shape, &patterns, &dir).unwrap();
        let board = crate::random::random_solvable(shape, 3);
        let cells = super::super::table::cells_of(&board);
        for (a, b) in tables.iter().zip(&read) {
            assert_eq!(a.lookup(&cells), b.lookup(&cells));
            assert_eq!(a.bytes(), b.bytes());
        }
        // Other tile sets, a flipped byte, a truncated file: refused.
        assert!(load(shape, &[vec![1, 2, 3, 4], vec![5, 6, 8]], &dir).is_err());
        let path = file_path(&dir, shape);
        let mut bytes = fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert!(load(shape, &patterns, &dir).is_err());
        fs::write(&path, &bytes[..middle]).unwrap();
        assert!(load(shape, &patterns, &dir).is_err());
        let _ = fs::remove_dir_all(&dir);
    }
}
