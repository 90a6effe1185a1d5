//! IDA* with additive pattern databases on Korf's 15-puzzles, one and two threads, against
//! IDA* with Manhattan + linear conflict on the easiest.
//!
//! `cargo bench -p npuzzle --bench idastar`. The tables come from the cache
//! (`$XDG_CACHE_HOME/npuzzle`; `npuzzle pdb build 4x4 --partition 7-8` builds the largest
//! ahead of time); `NPUZZLE_BENCH_PARTITIONS=6-6-3,5-5-5` picks the partitions (default 5-5-5
//! and 6-6-3, which build in seconds).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use npuzzle::pdb::cache::load_or_build;
use npuzzle::search::idastar::{Heuristic, IdaOptions, idastar};
use npuzzle::{Board, Budget, Partition, Shape};

/// A spread of Korf's instances (`benchmarks/korf15.txt`): id, optimal length, tiles.
const INSTANCES: [&str; 6] = [
    "16 42 0 9 12 4 5 3 2 8 10 1 7 6 11 14 13 15",
    "12 45 1 3 5 6 0 13 14 9 11 4 8 12 10 7 15 2",
    "46 49 5 0 9 13 11 7 6 3 1 14 4 2 15 10 12 8",
    "2 55 10 5 1 0 15 9 13 14 2 8 4 7 6 12 11 3",
    "96 49 6 11 8 0 13 3 5 4 7 12 10 14 2 1 9 15",
    "100 54 1 7 14 15 13 2 9 4 3 11 6 10 8 0 12 5",
];

fn instances() -> Vec<(Board, usize)> {
    npuzzle::parse_benchmark(&INSTANCES.join("\n"))
        .unwrap()
        .into_iter()
        .map(|instance| (instance.board, instance.optimal))
        .collect()
}

fn bench(c: &mut Criterion) {
    let shape = Shape::new(4, 4).unwrap();
    let boards = instances();
    let names = std::env::var("NPUZZLE_BENCH_PARTITIONS").unwrap_or_else(|_| "5-5-5,6-6-3".into());
    let mut group = c.benchmark_group("korf15");
    group.sample_size(10);
    for name in names.split(',') {
        let partition = Partition::standard(shape, name.trim()).unwrap();
        let dir = npuzzle::pdb::default_dir();
        let db = load_or_build(&partition, dir.as_deref(), &Budget::unlimited()).unwrap();
        for threads in [1, 2] {
            let options = IdaOptions {
                heuristic: Heuristic::Pdb(&db),
                threads: Some(threads),
                reflect: true,
            };
            group.bench_function(
                format!("{name} + reflection, {threads} thread(s), 6 instances"),
                |b| {
                    b.iter(|| {
                        for (board, length) in &boards {
                            let result =
                                idastar(black_box(board), &options, &Budget::unlimited()).unwrap();
                            assert_eq!(result.solution.len(), *length);
                        }
                    })
                },
            );
        }
    }
    let options = IdaOptions {
        heuristic: Heuristic::ManhattanLinearConflict,
        threads: Some(1),
        reflect: false,
    };
    group.bench_function(
        "Manhattan + linear conflict, 1 thread, Korf #16 (42 moves)",
        |b| {
            b.iter(|| {
                let result =
                    idastar(black_box(&boards[0].0), &options, &Budget::unlimited()).unwrap();
                assert_eq!(result.solution.len(), boards[0].1);
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
