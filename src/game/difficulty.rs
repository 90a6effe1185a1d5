//! How hard a new game is, and the shuffle that makes it.

use npuzzle::{Board, Shape, random};
use serde::{Deserialize, Serialize};

/// How hard a shuffle is: the number of random moves, or a uniformly random board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Difficulty {
    /// A few moves per tile.
    Easy,
    /// More moves.
    #[default]
    Medium,
    /// Many moves: close to random.
    Hard,
    /// A uniformly random solvable board.
    Random,
    /// A board the player set up.
    Custom,
}

impl Difficulty {
    /// The difficulties a player can choose for a new game.
    pub const CHOOSABLE: [Difficulty; 4] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Random,
    ];

    /// The number of shuffle moves on a board of `cells` cells; `None` for a random or
    /// custom board.
    pub fn shuffle_moves(self, cells: usize) -> Option<usize> {
        match self {
            Difficulty::Easy => Some(cells),
            Difficulty::Medium => Some(4 * cells),
            Difficulty::Hard => Some(15 * cells),
            Difficulty::Random | Difficulty::Custom => None,
        }
    }

    /// The name shown to the player.
    pub fn label(self) -> &'static str {
        match self {
            Difficulty::Easy => "Easy",
            Difficulty::Medium => "Medium",
            Difficulty::Hard => "Hard",
            Difficulty::Random => "Random",
            Difficulty::Custom => "Custom",
        }
    }
}

/// A new shuffled board of this shape, never the goal; the same for the same seed.
pub fn new_board(shape: Shape, difficulty: Difficulty, seed: u64) -> Board {
    let mut seed = seed;
    loop {
        let board = match difficulty.shuffle_moves(shape.cells()) {
            Some(count) => random::shuffled(shape, count, seed),
            None => random::random_solvable(shape, seed),
        };
        if !board.is_goal() {
            return board;
        }
        seed = seed.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MAX_SIDE, MIN_SIDE};

    #[test]
    fn new_boards_are_shuffled_solvable_and_reproducible() {
        for n in MIN_SIDE..=MAX_SIDE {
            let shape = Shape::new(n, n).unwrap();
            for d in Difficulty::CHOOSABLE {
                let board = new_board(shape, d, 42);
                assert_eq!(board.width(), n);
                assert!(!board.is_goal());
                assert!(npuzzle::is_solvable(&board));
                assert_eq!(board, new_board(shape, d, 42));
            }
        }
    }
}
