//! The fast solver's time to a first solution, per board size (fixed seeds); and the anytime
//! improvement run to its end without a deadline on one thread (a fixed amount of work: weighted
//! A* on a 5×5, the stage searches of the best-of constructions on a 6×6).
//!
//! `cargo bench -p npuzzle --bench large`; the lengths and the anytime figures within a time
//! come from `cargo run --release -p npuzzle --example large_report`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use npuzzle::large::{Improve, solve_anytime, solve_fast};
use npuzzle::random::random_solvable;
use npuzzle::{Budget, Shape};

fn fast(c: &mut Criterion) {
    let mut group = c.benchmark_group("fast");
    for (width, height) in [(5, 5), (6, 6), (8, 8), (11, 11), (3, 7), (4, 9), (16, 15)] {
        let shape = Shape::new(width, height).expect("a valid shape");
        let boards: Vec<_> = (0..10).map(|i| random_solvable(shape, 2026 + i)).collect();
        let budget = Budget::default();
        group.bench_with_input(BenchmarkId::from_parameter(shape), &boards, |b, boards| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % boards.len();
                black_box(solve_fast(&boards[i], &budget).map(|s| s.len()))
            });
        });
    }
    group.finish();
}

fn anytime(c: &mut Criterion) {
    let mut group = c.benchmark_group("anytime-to-the-end");
    group.sample_size(10);
    let improve = Improve {
        threads: Some(1),
        weighted_nodes: 200_000,
        ..Improve::default()
    };
    for (width, height) in [(5, 5), (6, 6)] {
        let shape = Shape::new(width, height).expect("a valid shape");
        let board = random_solvable(shape, 2026);
        let budget = Budget::default();
        let length = solve_anytime(&board, &budget, &improve, |_| {}).map(|s| s.len());
        group.bench_with_input(BenchmarkId::from_parameter(shape), &board, |b, board| {
            b.iter(|| {
                let found = solve_anytime(board, &budget, &improve, |_| {}).map(|s| s.len());
                assert_eq!(found, length, "the same work each time");
                black_box(found)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, fast, anytime);
criterion_main!(benches);
