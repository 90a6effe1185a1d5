//! The 4×4 MTM tables on disk, in the pattern databases' folder: `4x4-mtm.tbl`, written to a
//! temporary name and renamed (a reader never sees half a file), checked whole on reading.
//!
//! ```text
//! "NPZMTM1\n"  magic and format version, 8 bytes
//! u32 width, u32 height, u32 table count; for each table: u32 tile count, the tiles
//! each table's entries, a byte each, in order
//! u64 checksum of the entries
//! ```

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::table::{Checksum, MtmTable};
use crate::board::Shape;

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
    let mut sum = Checksum::new();
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

/// Writes the tables to their file in `dir` (made if missing), through a temporary file.
///
/// # Errors
///
/// An I/O error when the folder or the file cannot be written.
pub fn save(shape: Shape, patterns: &[Vec<u8>], tables: &[MtmTable], dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let path = file_path(dir, shape);
    let temporary = path.with_extension(format!("tmp{}", std::process::id()));
    let written = (|| {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&temporary)?);
        out.write_all(&header(shape, patterns))?;
        let mut sum = Checksum::new();
        for table in tables {
            table.write(&mut out, &mut sum)?;
        }
        out.write_all(&sum.0.to_le_bytes())?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()
    })();
    match written {
        Ok(()) => fs::rename(&temporary, &path),
        Err(error) => {
            let _ = fs::remove_file(&temporary);
            Err(error)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
