//! A* against the `pathfinding` crate's `astar`, on the same 8-puzzles with the same heuristic.
//!
//! `cargo bench -p npuzzle --bench astar`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use npuzzle::analysis::manhattan_table;
use npuzzle::random::random_solvable;
use npuzzle::search::astar::astar;
use npuzzle::search::key::PackedTiles;
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
    }

    let mut group = c.benchmark_group("hardest-8-puzzles");
    for (name, board) in ["8672543_01", "6478503_21"].iter().zip(&hardest) {
        group.bench_function(format!("npuzzle/{name}"), |b| {
            b.iter(|| ours(black_box(board)))
        });
        group.bench_function(format!("pathfinding/{name}"), |b| {
            b.iter(|| baseline.solve(black_box(board)))
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
    group.finish();
}

criterion_group!(astar_benches, benches);
criterion_main!(astar_benches);
