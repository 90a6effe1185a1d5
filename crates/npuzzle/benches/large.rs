//! The fast solver's time to a first solution, per board size (fixed seeds).
//!
//! `cargo bench -p npuzzle --bench large`; the lengths and the anytime figures come from
//! `cargo run --release -p npuzzle --example large_report`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use npuzzle::large::solve_fast;
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

criterion_group!(benches, fast);
criterion_main!(benches);
