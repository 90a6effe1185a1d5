//! Which tiles go in which pattern: the standard partitions (5-5-5, 6-6-3 and 7-8 on 4×4,
//! 6-6-6-6 on 5×5) and checked custom ones.

use std::fmt;

use super::PdbError;
use crate::board::Shape;

/// A partition of a board's tiles into disjoint patterns, each with its own database.
///
/// The tables of disjoint patterns add up to an admissible heuristic, because each counts only
/// the moves of its own tiles.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Partition {
    shape: Shape,
    name: String,
    patterns: Vec<Vec<u8>>,
}

impl Partition {
    /// A standard partition by name: `5-5-5`, `6-6-3` or `7-8` on 4×4, `6-6-6-6` on 5×5.
    ///
    /// Tiles are numbered as on the board (goal 1..n row by row, blank last).
    ///
    /// # Errors
    ///
    /// [`PdbError::UnknownPartition`] for a name the shape has no standard partition of.
    pub fn standard(shape: Shape, name: &str) -> Result<Partition, PdbError> {
        let patterns: Vec<Vec<u8>> = match (shape.width, shape.height, name) {
            // The top two rows and the bottom two rows (the blank's corner); the reflection
            // about the main diagonal turns them into columns.
            (4, 4, "7-8") => vec![(1..=8).collect(), (9..=15).collect()],
            // Two 2×3 blocks down the left and right, and the top row's last three tiles.
            (4, 4, "6-6-3") => vec![
                vec![1, 5, 6, 9, 10, 13],
                vec![7, 8, 11, 12, 14, 15],
                vec![2, 3, 4],
            ],
            (4, 4, "5-5-5") => vec![
                vec![1, 5, 6, 9, 13],
                vec![2, 3, 4, 7, 8],
                vec![10, 11, 12, 14, 15],
            ],
            // Photo shapes: 3 wide and 4 tall, the top two rows and the rest; 4 wide and 3
            // tall, the left two columns and the rest.
            (3, 4, "6-5") => vec![(1..=6).collect(), (7..=11).collect()],
            (4, 3, "6-5") => vec![vec![1, 2, 5, 6, 9, 10], vec![3, 4, 7, 8, 11]],
            // 2×3 and 3×2 blocks around the board.
            (5, 5, "6-6-6-6") => vec![
                vec![1, 2, 6, 7, 11, 12],
                vec![3, 4, 5, 8, 9, 10],
                vec![13, 14, 15, 18, 19, 20],
                vec![16, 17, 21, 22, 23, 24],
            ],
            _ => {
                return Err(PdbError::UnknownPartition {
                    shape,
                    name: name.to_string(),
                });
            }
        };
        Partition::new(shape, name, patterns)
    }

    /// The partition `solve` uses by default for a shape, if the shape has one: 6-6-3 on 4×4
    /// (about 6 MB, built in seconds), 6-5 on 3×4 and 4×3 (0.4 MB, built in a moment) and
    /// 6-6-6-6 on 5×5.
    pub fn default_for(shape: Shape) -> Option<Partition> {
        match (shape.width, shape.height) {
            (4, 4) => Partition::standard(shape, "6-6-3").ok(),
            (3, 4) | (4, 3) => Partition::standard(shape, "6-5").ok(),
            (5, 5) => Partition::standard(shape, "6-6-6-6").ok(),
            _ => None,
        }
    }

    /// The standard partitions of a shape, the strongest (and largest) first: 7-8, 6-6-3,
    /// 5-5-5 on 4×4; 6-5 on 3×4 and 4×3; 6-6-6-6 on 5×5; none on other shapes.
    pub fn strongest_first(shape: Shape) -> Vec<Partition> {
        let names: &[&str] = match (shape.width, shape.height) {
            (4, 4) => &["7-8", "6-6-3", "5-5-5"],
            (3, 4) | (4, 3) => &["6-5"],
            (5, 5) => &["6-6-6-6"],
            _ => &[],
        };
        names
            .iter()
            .filter_map(|name| Partition::standard(shape, name).ok())
            .collect()
    }

    /// A custom partition, checked: tiles in range, no tile twice, no empty pattern, and
    /// tables whose build index fits in 32 bits.
    ///
    /// # Errors
    ///
    /// [`PdbError::InvalidPartition`], saying what is wrong.
    pub fn new(shape: Shape, name: &str, patterns: Vec<Vec<u8>>) -> Result<Partition, PdbError> {
        let cells = shape.cells();
        let invalid = |reason: String| PdbError::InvalidPartition {
            name: name.to_string(),
            reason,
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(invalid("the name must be letters, digits and '-'".into()));
        }
        if patterns.is_empty() {
            return Err(invalid("it has no pattern".into()));
        }
        let mut seen = vec![false; cells];
        let mut patterns = patterns;
        for pattern in &mut patterns {
            if pattern.is_empty() {
                return Err(invalid("a pattern is empty".into()));
            }
            pattern.sort_unstable();
            for &tile in pattern.iter() {
                let t = tile as usize;
                if t == 0 || t >= cells {
                    return Err(invalid(format!("tile {tile} is not on a {shape} board")));
                }
                if seen[t] {
                    return Err(invalid(format!("tile {tile} is in two patterns")));
                }
                seen[t] = true;
            }
            let k = pattern.len();
            let entries = crate::rank::entries(cells, k);
            let free = (cells - k) as u64;
            if entries
                .checked_mul(free)
                .is_none_or(|n| n > u32::MAX as u64)
            {
                return Err(invalid(format!(
                    "a {k}-tile pattern on a {shape} board is too large to build"
                )));
            }
        }
        if cells > 32 {
            return Err(invalid(format!(
                "pattern databases go up to 32 cells, and {shape} has {cells}"
            )));
        }
        Ok(Partition {
            shape,
            name: name.to_string(),
            patterns,
        })
    }

    /// The board shape it is for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Its name, such as `7-8`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The patterns: each a sorted list of tiles.
    pub fn patterns(&self) -> &[Vec<u8>] {
        &self.patterns
    }

    /// The number of entries over all its tables.
    pub fn entries(&self) -> u64 {
        self.patterns
            .iter()
            .map(|p| crate::rank::entries(self.shape.cells(), p.len()))
            .sum()
    }

    /// The bytes its tables take in memory and on disk (4 bits an entry).
    pub fn table_bytes(&self) -> u64 {
        self.patterns
            .iter()
            .map(|p| crate::rank::entries(self.shape.cells(), p.len()).div_ceil(2))
            .sum()
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} on {}", self.name, self.shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_partitions_cover_every_tile_once() {
        for (w, h, name) in [
            (4, 4, "7-8"),
            (4, 4, "6-6-3"),
            (4, 4, "5-5-5"),
            (5, 5, "6-6-6-6"),
            (3, 4, "6-5"),
            (4, 3, "6-5"),
        ] {
            let shape = Shape::new(w, h).unwrap();
            let p = Partition::standard(shape, name).unwrap();
            let mut all: Vec<u8> = p.patterns().concat();
            all.sort_unstable();
            assert_eq!(all, (1..shape.cells() as u8).collect::<Vec<_>>(), "{name}");
        }
        let shape = Shape::new(4, 4).unwrap();
        assert_eq!(
            Partition::standard(shape, "7-8").unwrap().table_bytes(),
            288_288_000
        );
        assert!(Partition::standard(shape, "6-6-6-6").is_err());
    }

    #[test]
    fn bad_partitions_are_refused() {
        let shape = Shape::new(3, 3).unwrap();
        assert!(Partition::new(shape, "x", vec![vec![1, 2], vec![2, 3]]).is_err());
        assert!(Partition::new(shape, "x", vec![vec![9]]).is_err());
        assert!(Partition::new(shape, "x", vec![vec![0]]).is_err());
        assert!(Partition::new(shape, "x", vec![vec![]]).is_err());
        assert!(Partition::new(shape, "a/b", vec![vec![1]]).is_err());
        assert!(Partition::new(shape, "ok", vec![vec![3, 1], vec![2]]).is_ok());
    }
}
