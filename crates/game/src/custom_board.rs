//! Setting up your own board: typed as text, or numbers tapped into an empty grid, and the
//! check that decides whether it can be played.

use npuzzle::{Board, ParseError, Solvability, parse_board};
use thiserror::Error;

use super::{MAX_SIDE, MIN_SIDE};

/// Why a set-up board cannot be played.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SetupError {
    /// The text is not a board.
    #[error("{0}")]
    Parse(ParseError),
    /// A board the app does not play.
    #[error("the board is {width}×{height}: sides go from {MIN_SIDE} to {MAX_SIDE}")]
    Size {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// No moves can put the tiles in order; swapping two tiles (any two: `swap` is an example)
    /// would make it solvable.
    #[error("This board can't be solved: swap any two tiles, for example {} and {}, and it can.", swap.0, swap.1)]
    Unsolvable {
        /// The parity rule's reading of the board, the "Why?".
        solvability: Solvability,
        /// Two tiles whose swap makes the board solvable: the two highest numbers.
        swap: (usize, usize),
    },
    /// Nothing to play.
    #[error("this board is already solved")]
    Solved,
}

impl SetupError {
    /// The reason in full, for the curious (the inversion count behind an unsolvable board).
    pub fn details(&self) -> Option<String> {
        match self {
            SetupError::Unsolvable { solvability, .. } => Some(solvability.to_string()),
            _ => None,
        }
    }
}

/// The verdict on a set-up board: a board that can be started, or why not.
pub fn check_setup(text: &str) -> Result<Board, SetupError> {
    let board = parse_board(text).map_err(SetupError::Parse)?;
    let (width, height) = (board.width(), board.height());
    if !super::playable(width, height) {
        return Err(SetupError::Size { width, height });
    }
    let solvability = Solvability::of(&board);
    if !solvability.solvable {
        let cells = width * height;
        return Err(SetupError::Unsolvable {
            solvability,
            swap: (cells - 2, cells - 1),
        });
    }
    if board.is_goal() {
        return Err(SetupError::Solved);
    }
    Ok(board)
}

/// A board of this shape written out as an example: the goal with the last two tiles swapped
/// round the gap, one row a line.
pub fn example_text(width: usize, height: usize) -> String {
    let cells = width * height;
    let mut tiles: Vec<usize> = (1..cells).chain([0]).collect();
    if cells >= 2 {
        tiles.swap(cells - 2, cells - 1);
    }
    rows_text(&tiles, width)
}

fn rows_text(tiles: &[usize], width: usize) -> String {
    tiles
        .chunks(width.max(1))
        .map(|row| {
            row.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Numbers tapped into an empty grid in order; once one cell is left it becomes the gap and
/// the board is written out as text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SetupGrid {
    /// `None` for cells not yet given a number.
    pub cells: Vec<Option<u8>>,
    /// Columns.
    pub width: usize,
}

impl SetupGrid {
    /// An empty grid.
    pub fn new(width: usize, height: usize) -> SetupGrid {
        SetupGrid {
            cells: vec![None; width * height],
            width,
        }
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.cells.len() / self.width.max(1)
    }

    /// Taps a cell: it takes the next number. Returns the board as text once it is full.
    pub fn tap(&mut self, cell: usize) -> Option<String> {
        let next = self.next_number()?;
        if self.cells.get(cell).is_none_or(Option::is_some) {
            return None;
        }
        self.cells[cell] = Some(next as u8);
        self.fill_the_gap();
        self.is_full().then(|| {
            let tiles: Vec<usize> = self.cells.iter().map(|t| t.unwrap_or(0) as usize).collect();
            rows_text(&tiles, self.width)
        })
    }

    /// Whether every cell has its number (and the gap).
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }

    /// The grid of a typed board, as far as it can be read: rows split by new lines or `/`,
    /// numbers by spaces or commas; a number that is not a tile of this shape, or is given
    /// twice, leaves its cell empty. `None` when the rows do not make a rectangle of a size
    /// the app plays.
    pub fn from_text(text: &str) -> Option<SetupGrid> {
        let rows: Vec<Vec<&str>> = text
            .split(['\n', '/'])
            .map(|row| {
                row.split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|token| !token.is_empty())
                    .collect::<Vec<_>>()
            })
            .filter(|row| !row.is_empty())
            .collect();
        let (width, height) = (rows.first()?.len(), rows.len());
        if rows.iter().any(|row| row.len() != width) || !super::playable(width, height) {
            return None;
        }
        let mut grid = SetupGrid::new(width, height);
        for (cell, token) in rows.concat().into_iter().enumerate() {
            let number = token
                .parse::<u8>()
                .ok()
                .filter(|&n| usize::from(n) < width * height);
            if number.is_some() && !grid.cells.contains(&number) {
                grid.cells[cell] = number;
            }
        }
        grid.fill_the_gap();
        Some(grid)
    }

    /// The next number a tap places, the lowest tile not yet in the grid; `None` once every
    /// tile is.
    pub fn next_number(&self) -> Option<usize> {
        (1..self.cells.len()).find(|&n| !self.cells.contains(&Some(n as u8)))
    }

    /// Once every tile has its cell, the one left empty is the gap.
    fn fill_the_gap(&mut self) {
        let empty: Vec<usize> = (0..self.cells.len())
            .filter(|&c| self.cells[c].is_none())
            .collect();
        if self.next_number().is_none() && empty.len() == 1 {
            self.cells[empty[0]] = Some(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_explains_what_is_wrong() {
        assert!(check_setup("1 2 3 / 4 0 5 / 7 8 6").is_ok());
        let count = check_setup("1 2 3 / 4 0 5 / 7 8").unwrap_err().to_string();
        assert!(count.contains("row") || count.contains("square"), "{count}");
        let duplicate = check_setup("1 2 3 / 4 0 5 / 7 8 8")
            .unwrap_err()
            .to_string();
        assert!(duplicate.contains('8'), "{duplicate}");
        let unsolvable = check_setup("2 1 3 / 4 5 6 / 7 8 0").unwrap_err();
        assert_eq!(
            unsolvable.to_string(),
            "This board can't be solved: swap any two tiles, for example 7 and 8, and it can."
        );
        // And it can: the example's swap gives a board that plays.
        assert!(check_setup("2 1 3 / 4 5 6 / 8 7 0").is_ok());
        // The player's words first; the inversions one tap away.
        assert!(!unsolvable.to_string().contains("inversions"));
        assert!(unsolvable.details().unwrap().contains("inversions"));
        assert_eq!(
            check_setup("1 2 3 / 4 5 6 / 7 8 0"),
            Err(SetupError::Solved),
            "already solved"
        );
        assert!(
            matches!(check_setup("1 2 / 3 0"), Err(SetupError::Size { .. })),
            "too small for the app"
        );
        // Rectangles the app plays are welcome.
        assert!(check_setup("1 2 3 / 4 5 6 / 7 8 9 / 10 0 11").is_ok());
    }

    #[test]
    fn tapping_the_grid_fills_in_order_and_writes_the_text() {
        let mut grid = SetupGrid::new(3, 3);
        let mut text = None;
        // Tap cells in order: the last cell becomes the gap.
        for cell in [1, 0, 2, 3, 4, 5, 6, 7] {
            text = grid.tap(cell);
        }
        assert_eq!(grid.tap(1), None, "already numbered");
        assert_eq!(text.as_deref(), Some("2 1 3\n4 5 6\n7 8 0"));
        assert!(matches!(
            check_setup(text.as_deref().unwrap()),
            Err(SetupError::Unsolvable { .. })
        ));
        let mut grid = SetupGrid::new(3, 3);
        for cell in [0, 1, 2, 3, 4, 5, 6, 8] {
            text = grid.tap(cell);
        }
        assert_eq!(text.as_deref(), Some("1 2 3\n4 5 6\n7 0 8"));
        assert!(check_setup(text.as_deref().unwrap()).is_ok());
    }

    #[test]
    fn a_typed_board_fills_the_grid_with_its_shape() {
        let grid = SetupGrid::from_text("1 2 3 / 4 0 5 / 7 8 6").unwrap();
        assert_eq!((grid.width, grid.height()), (3, 3));
        let cells: Vec<u8> = grid.cells.iter().map(|c| c.unwrap()).collect();
        assert_eq!(cells, [1, 2, 3, 4, 0, 5, 7, 8, 6]);
        assert!(grid.is_full());
        // A 4×3 typed on lines, commas allowed: the grid takes its size.
        let grid = SetupGrid::from_text("1, 2, 3, 4\n5 6 7 8\n9 10 0 11").unwrap();
        assert_eq!((grid.width, grid.height()), (4, 3));
        // Half typed, a duplicate and a number too big: those cells stay empty.
        let grid = SetupGrid::from_text("1 2 2 / 4 0 5 / 7 8 99").unwrap();
        let empty: Vec<usize> = (0..9).filter(|&c| grid.cells[c].is_none()).collect();
        assert_eq!(empty, [2, 8]);
        assert_eq!(grid.next_number(), Some(3), "taps fill in what is missing");
        // Every tile typed but the gap left out: the empty cell is the gap.
        let grid = SetupGrid::from_text("1 2 3 / 4 5 6 / 7 8 x").unwrap();
        assert!(grid.is_full());
        // Ragged rows are not a grid yet.
        assert_eq!(SetupGrid::from_text("1 2 3 / 4 0"), None);
        assert_eq!(SetupGrid::from_text(""), None);
    }

    #[test]
    fn a_full_grid_asks_for_no_next_number() {
        let mut grid = SetupGrid::new(3, 3);
        assert_eq!(grid.next_number(), Some(1));
        for cell in 0..8 {
            grid.tap(cell);
        }
        assert!(grid.is_full());
        assert_eq!(grid.next_number(), None);
    }

    #[test]
    fn the_example_fits_the_shape_and_is_playable() {
        for (w, h) in [(3, 3), (4, 4), (3, 4), (5, 7)] {
            let text = example_text(w, h);
            let board = check_setup(&text).unwrap_or_else(|e| panic!("{w}×{h}: {e}"));
            assert_eq!((board.width(), board.height()), (w, h));
        }
    }
}
