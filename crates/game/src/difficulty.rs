//! How hard a new game is, and how its board is made. Up to 4×4 (and 3×4, 4×3) a level is an
//! exact shortest distance, which the engine can guarantee: "Medium: 24 moves" on 4×4 means
//! the best possible solution has exactly 24 moves. Larger boards are shuffled by random moves
//! and labelled by the shuffle's length.

use npuzzle::generate::{GenerateError, board_at_distance, board_at_distance_without_tables};
use npuzzle::{Board, Options, Shape, random};
use serde::{Deserialize, Serialize};

/// How hard a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Difficulty {
    /// Close to solved.
    Easy,
    /// A real puzzle.
    #[default]
    Medium,
    /// Far from solved.
    Hard,
    /// As far as most random boards.
    Expert,
    /// A uniformly random solvable board.
    Random,
}

/// How a board for a difficulty is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recipe {
    /// A board whose shortest solution has exactly this many moves.
    Exact(usize),
    /// This many random moves from the solved board.
    Shuffle(usize),
    /// A uniformly random solvable board.
    Uniform,
}

/// The shortest distances of Easy, Medium, Hard and Expert on the shapes where they can be
/// guaranteed. Chosen from random boards' distances (200 a shape, `npuzzle generate`): 3×3
/// median 22, 90th percentile 26; 3×4 and 4×3 median 35, 90th percentile 41; 4×4 median 53.
/// Expert sits at or near a random board's distance, Easy a few moves a tile.
pub fn exact_levels(shape: Shape) -> Option<[usize; 4]> {
    match (shape.width, shape.height) {
        (3, 3) => Some([8, 14, 20, 26]),
        (3, 4) | (4, 3) => Some([10, 18, 26, 34]),
        (4, 4) => Some([12, 24, 36, 48]),
        _ => None,
    }
}

impl Difficulty {
    /// The difficulties a player can choose for a new game.
    pub const CHOOSABLE: [Difficulty; 5] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
        Difficulty::Random,
    ];

    /// How a board of this shape is made at this difficulty.
    pub fn recipe(self, shape: Shape) -> Recipe {
        let level = match self {
            Difficulty::Easy => 0,
            Difficulty::Medium => 1,
            Difficulty::Hard => 2,
            Difficulty::Expert => 3,
            Difficulty::Random => return Recipe::Uniform,
        };
        match exact_levels(shape) {
            Some(levels) => Recipe::Exact(levels[level]),
            None => Recipe::Shuffle([1, 4, 15, 40][level] * shape.cells()),
        }
    }

    /// The name shown to the player.
    pub fn label(self) -> &'static str {
        match self {
            Difficulty::Easy => "Easy",
            Difficulty::Medium => "Medium",
            Difficulty::Hard => "Hard",
            Difficulty::Expert => "Expert",
            Difficulty::Random => "Random",
        }
    }
}

/// A seed from the clock, for games without one.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0x5eed)
}

/// The longest exact distance whose board is found without the engine's tables (Manhattan
/// distance and linear conflict): Easy and Medium on every shape. The board is the same as
/// with tables; a new player's first game (4×4, Medium) so waits for no table build (the
/// 5-5-5 tables: 0.2 s on an idle core, more beside the first frames, before the photo can be
/// cut). Measured (`generate_report`, 100 seeds, one thread): a 4×4 board at 24 moves
/// without tables in at most 7 ms, at 30 in at most 20 ms.
pub const WITHOUT_TABLES_UP_TO: usize = 24;

/// A new board for a recipe, never the goal; the same for the same seed. An exact distance
/// runs the engine's optimal search (instant up to 9 cells, within a second or so on 4×4),
/// within the options' budget; up to [`WITHOUT_TABLES_UP_TO`] moves without its tables.
pub fn make_board(
    shape: Shape,
    recipe: Recipe,
    seed: u64,
    options: &Options,
) -> Result<Board, GenerateError> {
    match recipe {
        Recipe::Exact(distance) if distance <= WITHOUT_TABLES_UP_TO => {
            board_at_distance_without_tables(shape, distance.max(1), seed, options)
        }
        Recipe::Exact(distance) => board_at_distance(shape, distance.max(1), seed, options),
        Recipe::Shuffle(moves) => Ok(not_goal(seed, |seed| random::shuffled(shape, moves, seed))),
        Recipe::Uniform => Ok(not_goal(seed, |seed| random::random_solvable(shape, seed))),
    }
}

/// The first board from seeds counting up from `seed` that is not already solved.
fn not_goal(seed: u64, make: impl Fn(u64) -> Board) -> Board {
    let mut seed = seed;
    loop {
        let board = make(seed);
        if !board.is_goal() {
            return board;
        }
        seed = seed.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MAX_SIDE, MIN_SIDE};

    fn shape(w: usize, h: usize) -> Shape {
        Shape::new(w, h).unwrap()
    }

    #[test]
    fn shuffled_boards_are_solvable_not_solved_and_reproducible() {
        for n in MIN_SIDE..=MAX_SIDE {
            let shape = shape(n, n);
            for d in Difficulty::CHOOSABLE {
                let recipe = d.recipe(shape);
                if matches!(recipe, Recipe::Exact(_)) {
                    continue;
                }
                let board = make_board(shape, recipe, 42, &Options::default()).unwrap();
                assert_eq!(board.width(), n);
                assert!(!board.is_goal());
                assert!(npuzzle::is_solvable(&board));
                assert_eq!(
                    board,
                    make_board(shape, recipe, 42, &Options::default()).unwrap()
                );
            }
        }
    }

    #[test]
    fn a_generated_board_is_exactly_as_far_as_its_level_says() {
        // Checked by an independent search: A* on Manhattan distance, no tables.
        for (w, h) in [(3, 3), (3, 4)] {
            for d in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
                let Recipe::Exact(moves) = d.recipe(shape(w, h)) else {
                    panic!("{w}×{h} {d:?} is not exact");
                };
                let board =
                    make_board(shape(w, h), Recipe::Exact(moves), 7, &Options::default()).unwrap();
                let astar = npuzzle::solve(
                    &board,
                    &Options::default().with_algorithm(npuzzle::Algorithm::AStar),
                )
                .unwrap();
                assert_eq!(astar.len(), moves, "{w}×{h} {d:?}");
            }
        }
    }

    #[test]
    fn a_new_players_first_game_builds_no_tables() {
        let cache =
            std::env::temp_dir().join(format!("snapslide-no-tables-{}", std::process::id()));
        let options = Options::default().with_pdb_dir(&cache);
        let four = shape(4, 4);
        let recipe = Difficulty::default().recipe(four);
        let board = make_board(four, recipe, 11, &options).unwrap();
        let Recipe::Exact(moves) = recipe else {
            panic!("4×4 {:?} is not exact", Difficulty::default());
        };
        let astar = npuzzle::solve(
            &board,
            &Options::default().with_algorithm(npuzzle::Algorithm::AStar),
        )
        .unwrap();
        assert_eq!(astar.len(), moves);
        let written = std::fs::read_dir(&cache).map_or(0, |dir| dir.count());
        let _ = std::fs::remove_dir_all(&cache);
        assert_eq!(written, 0, "tables were built for the first game");
    }

    #[test]
    fn levels_grow_with_the_difficulty() {
        for (w, h) in [(3, 3), (3, 4), (4, 3), (4, 4)] {
            let levels = exact_levels(shape(w, h)).unwrap();
            assert!(levels.windows(2).all(|pair| pair[0] < pair[1]));
        }
    }
}
