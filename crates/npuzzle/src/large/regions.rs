//! Regions at the end of a solution: where only a bottom-right block of the board still moves,
//! so that the rest of the solution can be re-solved as a board of its own.

use crate::board::{Board, Move, Shape};

use super::weighted;

/// The regions whose ends [`improve_by_presorting`](super::presort::improve_by_presorting)
/// re-solves: the bottom-right regions the construction passes (the longer side goes first)
/// when about two thirds and two fifths of the cells are left, if those have more than 25
/// cells (5×5 and under have their own re-solve).
pub(super) fn suffix_regions(shape: Shape) -> Vec<(usize, usize)> {
    let (mut width, mut height) = (shape.width, shape.height);
    let mut regions = Vec::new();
    for share in SUFFIX_SHARES {
        let cells = (shape.cells() as f64 * share) as usize;
        while width * height > cells && width > 2 && height > 2 {
            if height > width {
                height -= 1;
            } else {
                width -= 1;
            }
        }
        if width * height > weighted::MAX_CELLS && width * height < shape.cells() {
            regions.push((width, height));
        }
    }
    regions
}

/// See [`suffix_regions`].
const SUFFIX_SHARES: [f64; 2] = [0.67, 0.4];

/// Where a solution is left with only the bottom-right `width` × `height` region to solve: the
/// first move after which every board has all tiles outside the region home and the blank
/// inside, and that region then as a board of its own (tiles renumbered). `None` if the
/// region is not smaller than the board, or the solution never gets there before its end.
pub(super) fn last_region(
    board: &Board,
    moves: &[Move],
    width: usize,
    height: usize,
) -> Option<(usize, Board)> {
    let shape = board.shape();
    if shape.width < width || shape.height < height || shape.cells() <= width * height {
        return None;
    }
    let (column0, row0) = (shape.width - width, shape.height - height);
    let inside = |cell: usize| {
        let (column, row) = shape.column_row(cell);
        column >= column0 && row >= row0
    };
    let reduced = |board: &Board| {
        inside(board.blank())
            && board
                .tiles()
                .iter()
                .enumerate()
                .all(|(cell, &tile)| inside(cell) || tile as usize == cell + 1)
    };
    let mut replay = board.clone();
    let mut start = None;
    let mut at_start = board.clone();
    for (i, &mv) in moves.iter().enumerate() {
        if reduced(&replay) {
            if start.is_none() {
                start = Some(i);
                at_start = replay.clone();
            }
        } else {
            start = None;
        }
        replay.apply(mv);
    }
    let start = start?;
    let mut local = Vec::with_capacity(width * height);
    for row in row0..shape.height {
        for column in column0..shape.width {
            let tile = at_start.tiles()[shape.cell(column, row)];
            local.push(if tile == 0 {
                0
            } else {
                let (gc, gr) = shape.column_row(tile as usize - 1);
                ((gr - row0) * width + (gc - column0) + 1) as u8
            });
        }
    }
    Some((start, Board::new(width, height, local).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::random_solvable;
    use crate::search::budget::Budget;

    #[test]
    fn the_fast_solution_passes_every_suffix_region_and_its_end_solves_the_region() {
        for (width, height, seed) in [(11, 11, 1), (8, 8, 2), (6, 10, 3), (10, 7, 4)] {
            let shape = Shape::new(width, height).unwrap();
            let board = random_solvable(shape, seed);
            let moves = crate::large::solve_fast(&board, &Budget::default())
                .unwrap()
                .moves;
            let regions = suffix_regions(shape);
            assert!(!regions.is_empty(), "{shape}");
            for (w, h) in regions {
                assert!(w * h > weighted::MAX_CELLS && w * h < shape.cells());
                let (start, mut region) = last_region(&board, &moves, w, h)
                    .unwrap_or_else(|| panic!("{shape}: {w}x{h} never reached"));
                // Outside the region everything is home from `start` on.
                let mut replay = board.clone();
                replay.apply_all(&moves[..start]).unwrap();
                for (cell, &tile) in replay.tiles().iter().enumerate() {
                    let (column, row) = shape.column_row(cell);
                    if column < width - w || row < height - h {
                        assert_eq!(tile as usize, cell + 1, "{shape} {w}x{h}");
                    }
                }
                // The same blank moves solve the region as a board of its own.
                region.apply_all(&moves[start..]).unwrap();
                assert!(region.is_goal(), "{shape} {w}x{h}");
            }
        }
        assert!(suffix_regions(Shape::new(6, 6).unwrap()).is_empty());
    }
}
