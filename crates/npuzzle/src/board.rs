//! The board: its shape, its tiles, and the moves that change it.

use std::fmt;

use crate::error::BoardError;

/// The smallest side a board may have.
pub const MIN_SIDE: usize = 2;
/// The largest side a board may have.
pub const MAX_SIDE: usize = 16;
/// The most tiles a board may hold (blank excluded), so that a tile fits in a byte.
pub const MAX_TILES: usize = 255;

/// A move, named by where the blank goes: `Up` slides the tile above the blank down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// The blank goes up; the tile above it slides down.
    Up,
    /// The blank goes down; the tile below it slides up.
    Down,
    /// The blank goes left; the tile to its left slides right.
    Left,
    /// The blank goes right; the tile to its right slides left.
    Right,
}

impl Move {
    /// Every move, in the order neighbours are generated: U, D, L, R.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The move that undoes this one.
    pub fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// The letter that names this move: U, D, L or R.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }

    /// The move a letter names (either case), if any.
    pub fn from_letter(letter: char) -> Option<Move> {
        match letter.to_ascii_uppercase() {
            'U' => Some(Move::Up),
            'D' => Some(Move::Down),
            'L' => Some(Move::Left),
            'R' => Some(Move::Right),
            _ => None,
        }
    }

    /// The index of this move in [`Move::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The change in (column, row) of the blank.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Move::Up => (0, -1),
            Move::Down => (0, 1),
            Move::Left => (-1, 0),
            Move::Right => (1, 0),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Writes moves as a string of letters, such as `DRD`.
pub fn moves_to_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// Reads a string of U/D/L/R letters (white space ignored) into moves.
///
/// # Errors
///
/// A [`BoardError`] for a character that is not a move letter.
pub fn moves_from_str(text: &str) -> Result<Vec<Move>, BoardError> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| Move::from_letter(c).ok_or(BoardError::BadMoveLetter(c)))
        .collect()
}

/// The shape of a board: its width and height in cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

impl Shape {
    /// A shape, checked against the limits on sides and tiles.
    ///
    /// # Errors
    ///
    /// [`BoardError::TooSmall`] for a side under 2, [`BoardError::TooLarge`] past 16 a side or
    /// 255 tiles.
    pub fn new(width: usize, height: usize) -> Result<Shape, BoardError> {
        if width < MIN_SIDE || height < MIN_SIDE {
            return Err(BoardError::TooSmall { width, height });
        }
        if width > MAX_SIDE || height > MAX_SIDE || width * height - 1 > MAX_TILES {
            return Err(BoardError::TooLarge { width, height });
        }
        Ok(Shape { width, height })
    }

    /// The number of cells, blank included.
    pub fn cells(self) -> usize {
        self.width * self.height
    }

    /// The cell (row-major index) at a column and row.
    pub fn cell(self, column: usize, row: usize) -> usize {
        row * self.width + column
    }

    /// The (column, row) of a cell.
    pub fn column_row(self, cell: usize) -> (usize, usize) {
        (cell % self.width, cell / self.width)
    }

    /// The cell a tile belongs in at the goal; the blank (0) belongs in the last cell.
    pub fn goal_cell(self, tile: u8) -> usize {
        if tile == 0 {
            self.cells() - 1
        } else {
            tile as usize - 1
        }
    }

    /// The cell one step from `cell` in the direction the blank moves for `mv`, if on the board.
    pub fn step(self, cell: usize, mv: Move) -> Option<usize> {
        let (column, row) = self.column_row(cell);
        match mv {
            Move::Up if row > 0 => Some(cell - self.width),
            Move::Down if row + 1 < self.height => Some(cell + self.width),
            Move::Left if column > 0 => Some(cell - 1),
            Move::Right if column + 1 < self.width => Some(cell + 1),
            _ => None,
        }
    }

    /// For each cell, the cell one step away in each direction of [`Move::ALL`] (as
    /// [`Shape::step`]), `usize::MAX` off the board: the searches' neighbour table.
    pub fn step_table(self) -> Vec<[usize; 4]> {
        (0..self.cells())
            .map(|cell| Move::ALL.map(|mv| self.step(cell, mv).unwrap_or(usize::MAX)))
            .collect()
    }

    /// The number of moves from one cell to another, ignoring other tiles.
    pub fn distance(self, from: usize, to: usize) -> usize {
        steps_between(self.column_row(from), self.column_row(to))
    }
}

/// The Manhattan distance between two (column, row) places: the one place it is written
/// ([`Shape::distance`], [`CellDistances`] and the estimate's tables toward any board,
/// `estimate::toward::Toward`, all read it).
#[inline(always)]
pub(crate) fn steps_between(a: (usize, usize), b: (usize, usize)) -> usize {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1)
}

/// [`Shape::distance`] for the searches' inner loops: each cell's (column, row) worked out
/// once, so a distance is two reads and no division.
#[derive(Clone, Debug)]
pub struct CellDistances {
    places: Vec<(usize, usize)>,
}

impl CellDistances {
    /// The cells of `shape`.
    pub fn new(shape: Shape) -> CellDistances {
        let places = (0..shape.cells()).map(|c| shape.column_row(c)).collect();
        CellDistances { places }
    }

    /// The distance from cell `a` to cell `b`.
    #[inline(always)]
    pub fn get(&self, a: usize, b: usize) -> u32 {
        steps_between(self.places[a], self.places[b]) as u32
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// A board: a shape and a permutation of the tiles 0..n, with 0 the blank.
///
/// A `Board` is always valid: every constructor checks the shape and the permutation.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    tiles: Vec<u8>,
    blank: usize,
}

impl Board {
    /// A board of the given shape with tiles in row-major order (0 for the blank).
    ///
    /// # Errors
    ///
    /// A [`BoardError`] for a shape out of the limits, a tile count that does not fit it, or
    /// tiles that are not each number from 0 to n − 1 once.
    pub fn new(width: usize, height: usize, tiles: Vec<u8>) -> Result<Board, BoardError> {
        let shape = Shape::new(width, height)?;
        if tiles.len() != shape.cells() {
            return Err(BoardError::WrongTileCount {
                expected: shape.cells(),
                found: tiles.len(),
            });
        }
        let mut seen = vec![false; tiles.len()];
        for &tile in &tiles {
            let index = tile as usize;
            if index >= tiles.len() {
                return Err(BoardError::TileOutOfRange {
                    tile: tile as u64,
                    max: tiles.len() - 1,
                });
            }
            if seen[index] {
                return Err(BoardError::DuplicateTile(tile));
            }
            seen[index] = true;
        }
        let blank = tiles
            .iter()
            .position(|&t| t == 0)
            .expect("a permutation holds 0");
        Ok(Board {
            shape,
            tiles,
            blank,
        })
    }

    /// A square board whose side is the square root of the tile count.
    ///
    /// # Errors
    ///
    /// A [`BoardError`] when the count is not a square, or as [`Board::new`].
    pub fn square(tiles: Vec<u8>) -> Result<Board, BoardError> {
        let side = (tiles.len() as f64).sqrt().round() as usize;
        if side * side != tiles.len() {
            return Err(BoardError::NotSquare(tiles.len()));
        }
        Board::new(side, side, tiles)
    }

    /// The solved board of a shape: 1..n in row-major order, then the blank.
    ///
    /// # Errors
    ///
    /// A [`BoardError`] for a shape out of the limits.
    pub fn goal(width: usize, height: usize) -> Result<Board, BoardError> {
        let shape = Shape::new(width, height)?;
        Ok(Board::goal_of(shape))
    }

    /// The solved board of a checked shape.
    pub fn goal_of(shape: Shape) -> Board {
        let cells = shape.cells();
        let mut tiles: Vec<u8> = (1..cells).map(|t| t as u8).collect();
        tiles.push(0);
        Board {
            shape,
            tiles,
            blank: cells - 1,
        }
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Cells per row.
    pub fn width(&self) -> usize {
        self.shape.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.shape.height
    }

    /// The tiles in row-major order, 0 for the blank.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The tile in a cell (0 for the blank).
    pub fn tile_at(&self, cell: usize) -> u8 {
        self.tiles[cell]
    }

    /// The cell that holds the blank.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The cell that holds a tile, if the tile is on this board.
    pub fn position_of(&self, tile: u8) -> Option<usize> {
        self.tiles.iter().position(|&t| t == tile)
    }

    /// Whether every tile is in its goal cell.
    pub fn is_goal(&self) -> bool {
        self.blank == self.tiles.len() - 1
            && self.tiles[..self.blank]
                .iter()
                .enumerate()
                .all(|(cell, &tile)| tile as usize == cell + 1)
    }

    /// Whether the blank can make this move.
    pub fn can_move(&self, mv: Move) -> bool {
        self.shape.step(self.blank, mv).is_some()
    }

    /// Makes a blank move in place; returns false (and changes nothing) off the edge.
    pub fn apply(&mut self, mv: Move) -> bool {
        match self.shape.step(self.blank, mv) {
            Some(target) => {
                self.tiles.swap(self.blank, target);
                self.blank = target;
                true
            }
            None => false,
        }
    }

    /// The board after a blank move, or `None` off the edge.
    pub fn moved(&self, mv: Move) -> Option<Board> {
        let mut next = self.clone();
        next.apply(mv).then_some(next)
    }

    /// Makes every move in turn; stops and returns the index of the first illegal one.
    ///
    /// # Errors
    ///
    /// The index of the first move that runs off the board (the moves before it are made).
    pub fn apply_all(&mut self, moves: &[Move]) -> Result<(), usize> {
        for (index, &mv) in moves.iter().enumerate() {
            if !self.apply(mv) {
                return Err(index);
            }
        }
        Ok(())
    }

    /// The boards one move away, with their moves, in the order U, D, L, R.
    pub fn neighbors(&self) -> impl Iterator<Item = (Move, Board)> + '_ {
        Move::ALL
            .into_iter()
            .filter_map(move |mv| self.moved(mv).map(|board| (mv, board)))
    }

    /// The blank moves that slide `tile` toward the blank, with every tile between them.
    ///
    /// A tile in the blank's row or column slides, together with the tiles between it and the
    /// blank, one step; this is one tap but as many moves as tiles slide. Any other tile (or the
    /// blank itself) gives `None`.
    pub fn moves_to_slide(&self, tile: u8) -> Option<Vec<Move>> {
        if tile == 0 {
            return None;
        }
        let cell = self.position_of(tile)?;
        self.moves_to_slide_cell(cell)
    }

    /// Like [`Board::moves_to_slide`], naming the cell that was tapped.
    pub fn moves_to_slide_cell(&self, cell: usize) -> Option<Vec<Move>> {
        if cell >= self.tiles.len() || cell == self.blank {
            return None;
        }
        let (column, row) = self.shape.column_row(cell);
        let (blank_column, blank_row) = self.shape.column_row(self.blank);
        let (mv, count) = if row == blank_row {
            if column < blank_column {
                (Move::Left, blank_column - column)
            } else {
                (Move::Right, column - blank_column)
            }
        } else if column == blank_column {
            if row < blank_row {
                (Move::Up, blank_row - row)
            } else {
                (Move::Down, row - blank_row)
            }
        } else {
            return None;
        };
        Some(vec![mv; count])
    }

    /// The tile that a blank move slides, or `None` off the edge.
    pub fn tile_moved_by(&self, mv: Move) -> Option<u8> {
        self.shape.step(self.blank, mv).map(|cell| self.tiles[cell])
    }

    /// The tiles that a list of blank moves slides, in order; `None` if a move is illegal.
    pub fn tiles_moved_by(&self, moves: &[Move]) -> Option<Vec<u8>> {
        let mut board = self.clone();
        moves
            .iter()
            .map(|&mv| {
                let tile = board.tile_moved_by(mv)?;
                board.apply(mv);
                Some(tile)
            })
            .collect()
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({}x{}: {:?})",
            self.width(),
            self.height(),
            self.tiles
        )
    }
}

/// Rows of right-aligned numbers, 0 for the blank: the text parses back to the same board.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = (self.tiles.len() - 1).to_string().len();
        for (row, line) in self.tiles.chunks(self.width()).enumerate() {
            if row > 0 {
                writeln!(f)?;
            }
            for (column, tile) in line.iter().enumerate() {
                if column > 0 {
                    write!(f, " ")?;
                }
                write!(f, "{tile:>digits$}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(tiles: &[u8]) -> Board {
        Board::square(tiles.to_vec()).unwrap()
    }

    #[test]
    fn goal_is_one_to_n_then_blank() {
        let goal = Board::goal(3, 2).unwrap();
        assert_eq!(goal.tiles(), &[1, 2, 3, 4, 5, 0]);
        assert!(goal.is_goal());
        assert!(!board(&[1, 2, 3, 4, 5, 6, 7, 0, 8]).is_goal());
    }

    #[test]
    fn seed_moves_l_d_r() {
        let mut b = board(&[1, 0, 2, 7, 5, 4, 8, 6, 3]);
        assert!(b.apply(Move::Left));
        assert!(b.apply(Move::Down));
        assert!(b.apply(Move::Right));
        assert_eq!(b, board(&[7, 1, 2, 5, 0, 4, 8, 6, 3]));
    }

    #[test]
    fn moves_off_the_edge_are_refused() {
        let mut b = board(&[0, 1, 2, 3, 4, 5, 6, 7, 8]);
        let before = b.clone();
        assert!(!b.apply(Move::Up));
        assert!(!b.apply(Move::Left));
        assert_eq!(b, before);
        assert!(b.moved(Move::Up).is_none());
        assert!(b.moved(Move::Down).is_some());
    }

    #[test]
    fn neighbors_come_in_udlr_order() {
        let b = board(&[1, 2, 3, 4, 0, 5, 6, 7, 8]);
        let moves: Vec<Move> = b.neighbors().map(|(m, _)| m).collect();
        assert_eq!(moves, Move::ALL.to_vec());
        let corner = board(&[1, 2, 3, 4, 5, 6, 7, 8, 0]);
        let moves: Vec<Move> = corner.neighbors().map(|(m, _)| m).collect();
        assert_eq!(moves, vec![Move::Up, Move::Left]);
    }

    #[test]
    fn inverse_undoes() {
        let start = board(&[1, 2, 3, 4, 0, 5, 6, 7, 8]);
        for mv in Move::ALL {
            let mut b = start.clone();
            assert!(b.apply(mv));
            assert!(b.apply(mv.inverse()));
            assert_eq!(b, start);
        }
    }

    #[test]
    fn sliding_a_far_tile_moves_every_tile_between() {
        // Blank in the last cell of a 4x4: tile 13 is three cells to its left.
        let goal = Board::goal(4, 4).unwrap();
        let moves = goal.moves_to_slide(13).unwrap();
        assert_eq!(moves, vec![Move::Left; 3]);
        let mut b = goal.clone();
        b.apply_all(&moves).unwrap();
        assert_eq!(&b.tiles()[12..], &[0, 13, 14, 15]);
        assert_eq!(goal.moves_to_slide(4).unwrap(), vec![Move::Up; 3]);
        assert_eq!(
            goal.moves_to_slide(1),
            None,
            "not in the blank's row or column"
        );
        assert_eq!(goal.moves_to_slide(0), None, "the blank itself");
        assert_eq!(goal.moves_to_slide(99), None, "not on the board");
    }

    #[test]
    fn tiles_moved_by_names_the_sliding_tiles() {
        let b = board(&[1, 0, 3, 4, 2, 5, 7, 8, 6]);
        let moves = moves_from_str("DRD").unwrap();
        assert_eq!(b.tiles_moved_by(&moves), Some(vec![2, 5, 6]));
        assert_eq!(b.tiles_moved_by(&[Move::Up]), None);
    }

    #[test]
    fn display_right_aligns_and_round_trips() {
        let b = board(&[12, 1, 10, 2, 7, 11, 4, 14, 5, 0, 9, 15, 8, 13, 6, 3]);
        let text = b.to_string();
        assert_eq!(text.lines().next().unwrap(), "12  1 10  2");
        assert_eq!(crate::parse_board(&text).unwrap(), b);
    }

    #[test]
    fn invalid_boards_are_refused() {
        assert!(matches!(
            Board::new(1, 1, vec![0]),
            Err(BoardError::TooSmall { .. })
        ));
        assert!(matches!(
            Board::new(17, 2, vec![0; 34]),
            Err(BoardError::TooLarge { .. })
        ));
        let largest: Vec<u8> = (1..=255).chain([0]).collect();
        assert!(Board::new(16, 16, largest).unwrap().is_goal());
        assert!(matches!(
            Board::new(2, 2, vec![0, 1, 1, 2]),
            Err(BoardError::DuplicateTile(1))
        ));
        assert!(matches!(
            Board::new(2, 2, vec![0, 1, 2, 4]),
            Err(BoardError::TileOutOfRange { tile: 4, .. })
        ));
        assert!(matches!(
            Board::new(2, 2, vec![0, 1, 2]),
            Err(BoardError::WrongTileCount { .. })
        ));
    }
}
