//! Statistics over 10,000 solves (the budget: 50 ms): every figure of every metric of
//! one category with all 10,000, and the report of the same solves spread over eight
//! categories.
//!
//! `cargo bench -p snapslide-game --bench stats`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use snapslide_game::stats::{Attempt, Category, Mode, Statistics, StatsReport};

/// 10,000 solves, as a steady player's: 10 to 30 s, 40 to 120 moves, one in 30 a DNF
/// (a fixed xorshift sequence, the same every run).
fn solves() -> Vec<Attempt> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |below: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % below
    };
    (0..10_000)
        .map(|_| {
            let moves = 40 + next(81) as u32;
            let mtm = moves / 2 + next(u64::from(moves / 2)) as u32;
            match next(30) {
                0 => Attempt::dnf(moves, mtm),
                _ => Attempt::solved(10_000 + next(20_000), moves, mtm),
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let solves = solves();
    c.bench_function("statistics of 10,000 solves, one category", |b| {
        b.iter(|| Statistics::of(black_box(&solves)))
    });
    let categories: Vec<Category> = (3..=6)
        .flat_map(|side| {
            let single = Category::new(side, side, Mode::Single);
            [single, single.helped()]
        })
        .collect();
    let keyed: Vec<(Category, Attempt)> = solves
        .iter()
        .enumerate()
        .map(|(i, &attempt)| (categories[i % categories.len()], attempt))
        .collect();
    c.bench_function("report of 10,000 solves, eight categories", |b| {
        b.iter(|| StatsReport::new(black_box(&keyed).iter().copied()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
