//! A fixed amount of work for instruction counts (`valgrind --tool=callgrind`), where a timing
//! on a loaded machine is in doubt: A* on random 8-puzzles, the fast solver on several sizes,
//! the anytime improvement run to its end on one thread (weighted A* on a 5×5, the stage
//! searches on a 6×6), IDA* on Korf's 15-puzzles on one thread (6-6-3 tables with reflection,
//! from the cache, and Manhattan + linear conflict), one wide beam 32,000 wide on two of
//! DeepCubeA's 7×7 states, the app's untimed 8×8 solve on one thread, and the optimal
//! multi-tile-metric search on Korf's 15-puzzles (its tables from the cache). Prints the
//! lengths and a hash of the moves, which must not change between versions.
//!
//! `cargo run --release -p npuzzle --example work --
//! [astar|fast|anytime|idastar|idastar-lc|beam|app8|mtm]...` (the first three by default)

use std::hash::{DefaultHasher, Hash, Hasher};

use npuzzle::large::{Improve, beam_work, solve_anytime, solve_fast};
use npuzzle::mtm::{MtmTables, solve_mtm_with};
use npuzzle::pdb::cache::load_or_build;
use npuzzle::random::random_solvable;
use npuzzle::search::astar::astar;
use npuzzle::search::idastar::{Heuristic, IdaOptions, idastar};
use npuzzle::{Board, Budget, Move, Partition, Shape, parse_benchmark};

/// The first `count` boards of a file in `benchmarks/`.
fn benchmark(file: &str, count: usize) -> Vec<Board> {
    let path = format!("{}/../../benchmarks/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the benchmarks are in the repository");
    let instances = parse_benchmark(&text).expect("a benchmark file");
    instances.into_iter().take(count).map(|i| i.board).collect()
}

/// IDA* on one thread on the first `count` of Korf's 15-puzzles.
fn korf(count: usize, tables: bool) -> Vec<Vec<Move>> {
    let shape = Shape::new(4, 4).unwrap();
    let partition = Partition::standard(shape, "6-6-3").unwrap();
    let dir = npuzzle::pdb::default_dir();
    let db = tables.then(|| load_or_build(&partition, dir.as_deref(), &Budget::unlimited()));
    let db = db.map(|db| db.expect("6-6-3 tables"));
    let options = IdaOptions {
        heuristic: match &db {
            Some(db) => Heuristic::Pdb(db),
            None => Heuristic::ManhattanLinearConflict,
        },
        threads: Some(1),
        reflect: true,
    };
    let budget = Budget::unlimited();
    let boards = benchmark("korf15.txt", count);
    (boards.iter())
        .map(|board| idastar(board, &options, &budget).unwrap().solution.moves)
        .collect()
}

/// The optimal multi-tile-metric search on the first `count` of Korf's 15-puzzles, its 4×4
/// tables read from the cache (built and saved there the first time).
fn korf_mtm(count: usize) -> Vec<Vec<Move>> {
    let shape = Shape::new(4, 4).unwrap();
    let dir = npuzzle::pdb::default_dir();
    let tables = MtmTables::load_or_build(shape, dir.as_deref(), &Budget::unlimited());
    let tables = tables.expect("the 4x4 MTM tables");
    let budget = Budget::unlimited();
    (benchmark("korf15-mtm.txt", count).iter())
        .map(|board| solve_mtm_with(board, &tables, &budget).unwrap().moves)
        .collect()
}

fn part(part: &str) -> Vec<Vec<Move>> {
    let budget = Budget::default();
    let one_thread = Improve {
        threads: Some(1),
        weighted_nodes: 200_000,
        ..Improve::default()
    };
    match part {
        "astar" => {
            let shape = Shape::new(3, 3).unwrap();
            (0..300)
                .map(|seed| astar(&random_solvable(shape, seed), &budget).unwrap().moves)
                .collect()
        }
        "fast" => [(5, 5), (6, 6), (8, 8), (3, 7), (4, 9)]
            .iter()
            .flat_map(|&(w, h)| {
                let shape = Shape::new(w, h).unwrap();
                (0..10).map(move |i| random_solvable(shape, 2026 + i))
            })
            .map(|board| solve_fast(&board, &budget).unwrap().moves)
            .collect(),
        "anytime" => [(5, 5), (6, 6)]
            .iter()
            .map(|&(w, h)| {
                let board = random_solvable(Shape::new(w, h).unwrap(), 2026);
                let solved = solve_anytime(&board, &budget, &one_thread, |_| {});
                solved.unwrap().moves
            })
            .collect(),
        "idastar" => korf(20, true),
        "idastar-lc" => korf(2, false),
        "mtm" => korf_mtm(6),
        "beam" => benchmark("deepcubea48.txt", 2)
            .iter()
            .map(|board| beam_work(board, 32_000, &budget).unwrap().unwrap())
            .collect(),
        "app8" => {
            let board = random_solvable(Shape::new(8, 8).unwrap(), 2027);
            let solved = solve_anytime(&board, &budget, &one_thread, |_| {});
            vec![solved.unwrap().moves]
        }
        other => panic!("unknown part {other}"),
    }
}

fn main() {
    let mut parts: Vec<String> = std::env::args().skip(1).collect();
    if parts.is_empty() {
        parts = ["astar", "fast", "anytime"].map(String::from).to_vec();
    }
    for name in &parts {
        let solutions = part(name);
        let mut hasher = DefaultHasher::new();
        solutions.hash(&mut hasher);
        println!(
            "{name}: {} lengths, sum {}, moves hash {:016x}",
            solutions.len(),
            solutions.iter().map(Vec::len).sum::<usize>(),
            hasher.finish()
        );
    }
}
