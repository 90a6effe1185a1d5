//! A* against the `pathfinding` crate's `astar`, on the same 8-puzzles with the same heuristic:
//! once with our packed state and Manhattan table (the strongest baseline), once with a plain
//! tile array and Manhattan summed at each state (as most users would write it).
//!
//! `cargo bench -p npuzzle --bench astar`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use npuzzle::estimate::manhattan_table;
use npuzzle::packed::PackedTiles;
use npuzzle::random::random_solvable;
use npuzzle::search::astar::astar;
use npuzzle::{Board, Budget, Move, Shape, parse_board};

/// The two 8-puzzles that need 31 moves, the most of any.
const HARDEST: [&str; 2] = ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"];

/// The baseline: `pathfinding::astar` over packed tiles, Manhattan from the same table.
struct Baseline {
    shape: Shape,
    distance: Vec<u16>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    tiles: u64,
    blank: u8,
}

impl Baseline {
    fn new(shape: Shape) -> Baseline {
        Baseline {
            shape,
            distance: manhattan_table(shape),
        }
    }

    fn manhattan(&self, state: &State) -> u32 {
        let cells = self.shape.cells();
        (0..cells)
            .map(|cell| u32::from(self.distance[state.tiles.tile(cell) as usize * cells + cell]))
            .sum()
    }

    fn solve(&self, board: &Board) -> usize {
        let start = State {
            tiles: u64::pack(board.tiles()),
            blank: board.blank() as u8,
        };
        let (path, _) = pathfinding::prelude::astar(
            &start,
            |state| {
                let blank = state.blank as usize;
                Move::ALL
                    .into_iter()
                    .filter_map(|mv| self.shape.step(blank, mv))
                    .map(|from| {
                        let next = State {
                            tiles: state.tiles.slide(blank, from),
                            blank: from as u8,
                        };
                        (next, 1u32)
                    })
                    .collect::<Vec<_>>()
            },
            |state| self.manhattan(state),
            |state| self.manhattan(state) == 0,
        )
        .expect("solvable");
        path.len() - 1
    }
}

/// The same search as most users of `pathfinding` would write it: the tiles as an array,
/// Manhattan summed over the tiles at each state.
fn plain_baseline(board: &Board) -> usize {
    let shape = board.shape();
    let start: [u8; 9] = board.tiles().try_into().expect("a 3x3 board");
    let manhattan = |tiles: &[u8; 9]| -> u32 {
        tiles
            .iter()
            .enumerate()
            .filter(|&(_, &tile)| tile != 0)
            .map(|(cell, &tile)| shape.distance(cell, shape.goal_cell(tile)) as u32)
            .sum()
    };
    let (path, _) = pathfinding::prelude::astar(
        &start,
        |tiles| {
            let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
            Move::ALL
                .into_iter()
                .filter_map(|mv| shape.step(blank, mv))
                .map(|from| {
                    let mut next = *tiles;
                    next.swap(blank, from);
                    (next, 1u32)
                })
                .collect::<Vec<_>>()
        },
        manhattan,
        |tiles| manhattan(tiles) == 0,
    )
    .expect("solvable");
    path.len() - 1
}

fn ours(board: &Board) -> usize {
    astar(board, &Budget::default()).expect("solvable").len()
}

fn benches(c: &mut Criterion) {
    let shape = Shape::new(3, 3).unwrap();
    let baseline = Baseline::new(shape);
    let hardest: Vec<Board> = HARDEST.iter().map(|t| parse_board(t).unwrap()).collect();
    let random: Vec<Board> = (0..1000).map(|seed| random_solvable(shape, seed)).collect();
    for board in hardest.iter().chain(&random) {
        assert_eq!(ours(board), baseline.solve(board), "{board}");
        assert_eq!(ours(board), plain_baseline(board), "{board}");
    }

    let mut group = c.benchmark_group("hardest-8-puzzles");
    for (name, board) in ["8672543_01", "6478503_21"].iter().zip(&hardest) {
        group.bench_function(format!("npuzzle/{name}"), |b| {
            b.iter(|| ours(black_box(board)))
        });
        group.bench_function(format!("pathfinding/{name}"), |b| {
            b.iter(|| baseline.solve(black_box(board)))
        });
        group.bench_function(format!("pathfinding-plain/{name}"), |b| {
            b.iter(|| plain_baseline(black_box(board)))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("1000-random-8-puzzles");
    group.sample_size(10);
    group.bench_function("npuzzle", |b| {
        b.iter(|| {
            random
                .iter()
                .map(|board| ours(black_box(board)))
                .sum::<usize>()
        })
    });
    group.bench_function("pathfinding", |b| {
        b.iter(|| {
            random
                .iter()
                .map(|board| baseline.solve(black_box(board)))
                .sum::<usize>()
        })
    });
    group.bench_function("pathfinding-plain", |b| {
        b.iter(|| {
            random
                .iter()
                .map(|board| plain_baseline(black_box(board)))
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(astar_benches, benches);
criterion_main!(astar_benches);
