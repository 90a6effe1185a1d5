//! Our notation against the speedsolvers' own reader: the `slidy` crate (0.4.1, the last
//! release that builds on stable Rust) reads our boards to the same puzzle, and applies our
//! solutions, written in its notation, to the solved board.

use std::str::FromStr;

use npuzzle::notation::{format_board, format_tile_moves, parse_tile_moves};
use npuzzle::random::random_solvable;
use npuzzle::{Options, Shape, parse_board, solve};
use proptest::prelude::*;
use slidy::algorithm::algorithm::Algorithm as SlidyAlg;
use slidy::puzzle::puzzle::Puzzle as SlidyPuzzle;
use slidy::puzzle::sliding_puzzle::SlidingPuzzle as _;

fn shapes() -> impl Strategy<Value = Shape> {
    (2usize..=8, 2usize..=8).prop_map(|(w, h)| Shape::new(w, h).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn slidy_reads_our_boards_and_applies_our_solutions(shape in shapes(), seed in any::<u64>()) {
        let board = random_solvable(shape, seed);
        let text = format_board(&board);
        let mut puzzle = SlidyPuzzle::from_str(&text).unwrap();
        let pieces: Vec<u64> = board.tiles().iter().map(|&t| u64::from(t)).collect();
        prop_assert_eq!(puzzle.pieces(), &pieces[..]);
        prop_assert_eq!(puzzle.size().width() as usize, shape.width);

        let solution = solve(&board, &Options::default().with_fast().with_threads(1)).unwrap();
        let alg_text = format_tile_moves(&solution.moves);
        let alg = SlidyAlg::from_str(&alg_text).unwrap();
        prop_assert!(puzzle.try_apply_alg(&alg), "{alg_text} leaves the board");
        prop_assert!(puzzle.is_solved(), "{alg_text} does not solve {text}");
        // What slidy writes, we read back to the same moves.
        prop_assert_eq!(parse_tile_moves(&alg.to_string()), Ok(solution.moves));
    }

    #[test]
    fn we_read_slidys_boards_to_the_same_tiles(shape in shapes(), seed in any::<u64>()) {
        let board = random_solvable(shape, seed);
        let puzzle = SlidyPuzzle::from_str(&format_board(&board)).unwrap();
        prop_assert_eq!(parse_board(&puzzle.to_string()), Ok(board));
    }
}

#[test]
fn the_tile_right_of_the_gap_moving_left_is_l() {
    let text = "1 2 3/4 5 6/7 0 8";
    let mut ours = parse_board(text).unwrap();
    ours.apply_all(&parse_tile_moves("L").unwrap()).unwrap();
    assert!(ours.is_goal());
    let mut theirs = SlidyPuzzle::from_str(text).unwrap();
    assert!(theirs.try_apply_alg(&SlidyAlg::from_str("L").unwrap()));
    assert!(theirs.is_solved());
    // And `R` does not solve it, in either reading.
    let mut ours = parse_board(text).unwrap();
    ours.apply_all(&parse_tile_moves("R").unwrap()).unwrap();
    assert!(!ours.is_goal());
    let mut theirs = SlidyPuzzle::from_str(text).unwrap();
    assert!(theirs.try_apply_alg(&SlidyAlg::from_str("R").unwrap()));
    assert!(!theirs.is_solved());
}
