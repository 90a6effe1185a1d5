//! One run, same machine, same instances: npuzzle's IDA* + pattern databases against slidy's
//! 4x4 solver (after Hilchie's ida15) on Korf's 15-puzzles, and against pathfinding's `idastar`
//! with Manhattan on the easiest ones. Medians of repeated rounds; rounds interleave the solvers
//! so that a noisy machine hurts them alike.
//!
//! `cargo +nightly run --release -- [KORF15_FILE] [ROUNDS] [PARTITION…]`

use std::path::PathBuf;
use std::str::FromStr as _;
use std::time::Instant;

use npuzzle::pdb::cache::load_or_build_file;
use npuzzle::pdb::default_dir;
use npuzzle::search::idastar::{Heuristic, IdaOptions, idastar};
use npuzzle::{Board, Budget, Partition, PatternDatabase, Shape};
use slidy::puzzle::puzzle::Puzzle;
use slidy::solver::Solver4x4Stm;
use slidy::solver::solver::Solver as _;

struct Instance {
    id: String,
    optimal: usize,
    tiles: Vec<u8>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn read(path: &str) -> Vec<Instance> {
    let text = std::fs::read_to_string(path).expect("the benchmark file");
    npuzzle::parse_benchmark(&text)
        .expect("a benchmark file")
        .into_iter()
        .map(|instance| Instance {
            id: instance.id,
            optimal: instance.optimal,
            tiles: instance.board.tiles().to_vec(),
        })
        .collect()
}

/// npuzzle on all instances, one thread: (seconds, nodes generated).
fn run_npuzzle(instances: &[Instance], options: &IdaOptions) -> (f64, u64) {
    let mut seconds = 0.0;
    let mut nodes = 0;
    for inst in instances {
        let board = Board::new(4, 4, inst.tiles.clone()).unwrap();
        let started = Instant::now();
        let result = idastar(&board, options, &Budget::unlimited()).unwrap();
        seconds += started.elapsed().as_secs_f64();
        nodes += result.nodes_generated;
        assert_eq!(
            result.solution.len(),
            inst.optimal,
            "npuzzle on {}",
            inst.id
        );
    }
    (seconds, nodes)
}

fn run_slidy(instances: &[Instance], solver: &mut Solver4x4Stm) -> f64 {
    let mut seconds = 0.0;
    for inst in instances {
        let text = inst
            .tiles
            .chunks(4)
            .map(|row| {
                row.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("/");
        let puzzle = Puzzle::from_str(&text).unwrap();
        let started = Instant::now();
        let solution = solver.solve(&puzzle).unwrap();
        seconds += started.elapsed().as_secs_f64();
        assert_eq!(
            solution.len_stm() as usize,
            inst.optimal,
            "slidy on {}",
            inst.id
        );
    }
    seconds
}

/// pathfinding's idastar with Manhattan over [u8; 16] states.
fn run_pathfinding(inst: &Instance) -> f64 {
    let shape = Shape::new(4, 4).unwrap();
    let mut start = [0u8; 16];
    start.copy_from_slice(&inst.tiles);
    let manhattan = |s: &[u8; 16]| -> u32 {
        s.iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(c, &t)| shape.distance(c, shape.goal_cell(t)) as u32)
            .sum()
    };
    let started = Instant::now();
    let (path, cost) = pathfinding::directed::idastar::idastar(
        &start,
        |s| {
            let blank = s.iter().position(|&t| t == 0).unwrap();
            let (c, r) = (blank % 4, blank / 4);
            let mut next = Vec::with_capacity(4);
            let mut push = |to: usize| {
                let mut n = *s;
                n.swap(blank, to);
                next.push((n, 1u32));
            };
            if r > 0 {
                push(blank - 4)
            }
            if r < 3 {
                push(blank + 4)
            }
            if c > 0 {
                push(blank - 1)
            }
            if c < 3 {
                push(blank + 1)
            }
            next
        },
        manhattan,
        |s| manhattan(s) == 0,
    )
    .unwrap();
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(cost as usize, inst.optimal);
    assert_eq!(path.len() - 1, inst.optimal);
    seconds
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = args
        .get(1)
        .map(String::as_str)
        .unwrap_or("../../benchmarks/korf15.txt");
    let rounds: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    let partitions: Vec<String> = if args.len() > 3 {
        args[3..].to_vec()
    } else {
        vec!["7-8".into(), "6-6-3".into(), "5-5-5".into()]
    };
    let instances = read(file);
    let started = Instant::now();
    let mut slidy = Solver4x4Stm::default();
    println!(
        "slidy 0.7.0 tables built in {:.3} s",
        started.elapsed().as_secs_f64()
    );
    let dbs = load_tables(&partitions);
    race_slidy(&instances, rounds, &dbs, &mut slidy);
    if std::env::var_os("SKIP_PATHFINDING").is_none() {
        race_pathfinding(&instances, rounds, &dbs[0]);
    }
}

/// The partitions' tables, loaded from the cache or built into it.
fn load_tables(partitions: &[String]) -> Vec<(String, PatternDatabase)> {
    let shape = Shape::new(4, 4).unwrap();
    let dir: Option<PathBuf> = default_dir();
    let mut dbs = Vec::new();
    for name in partitions {
        let partition = Partition::standard(shape, name).unwrap();
        let started = Instant::now();
        let db = load_or_build_file(&partition, dir.as_deref(), &Budget::unlimited()).unwrap();
        println!(
            "npuzzle {name}: tables loaded in {:.3} s ({:.1} MB)",
            started.elapsed().as_secs_f64(),
            db.bytes() as f64 / 1e6
        );
        dbs.push((name.clone(), db));
    }
    dbs
}

/// One thread, with reflection, on one partition's tables.
fn one_thread(db: &PatternDatabase) -> IdaOptions<'_> {
    IdaOptions {
        heuristic: Heuristic::Pdb(db),
        threads: Some(1),
        reflect: true,
    }
}

/// Every instance by each partition and by slidy, `rounds` times interleaved; the medians.
fn race_slidy(
    instances: &[Instance],
    rounds: usize,
    dbs: &[(String, PatternDatabase)],
    slidy: &mut Solver4x4Stm,
) {
    let mut slidy_times = Vec::new();
    let mut ours: Vec<Vec<f64>> = vec![Vec::new(); dbs.len()];
    let mut nodes = vec![0u64; dbs.len()];
    for round in 0..rounds {
        for (i, (name, db)) in dbs.iter().enumerate() {
            let (seconds, n) = run_npuzzle(instances, &one_thread(db));
            ours[i].push(seconds);
            nodes[i] = n;
            println!("round {round}: npuzzle {name}: {seconds:.3} s, {n} nodes generated");
        }
        let seconds = run_slidy(instances, slidy);
        println!("round {round}: slidy: {seconds:.3} s");
        slidy_times.push(seconds);
    }
    let slidy_median = median(slidy_times.clone());
    println!();
    println!(
        "{} instances, {rounds} rounds, one thread, medians:",
        instances.len()
    );
    println!(
        "  slidy 0.7.0 (4-4-4-3 + transposition tables): {slidy_median:.3} s  (runs {slidy_times:.3?})"
    );
    for (i, (name, _)) in dbs.iter().enumerate() {
        let m = median(ours[i].clone());
        println!(
            "  npuzzle {name} + reflection: {m:.3} s, {:.0} nodes generated per instance; {:.1}x faster than slidy  (runs {:.3?})",
            nodes[i] as f64 / instances.len() as f64,
            slidy_median / m,
            ours[i]
        );
    }
}

/// The five easiest instances by pathfinding's `idastar` with Manhattan, and by the first
/// partition (median of at least five rounds).
fn race_pathfinding(instances: &[Instance], rounds: usize, (name, db): &(String, PatternDatabase)) {
    let mut easiest: Vec<&Instance> = instances.iter().collect();
    easiest.sort_by_key(|i| i.optimal);
    easiest.truncate(5);
    let mut theirs = 0.0;
    println!();
    for inst in &easiest {
        let seconds = run_pathfinding(inst);
        theirs += seconds;
        println!(
            "pathfinding idastar + Manhattan on {} ({} moves): {seconds:.3} s",
            inst.id, inst.optimal
        );
    }
    let owned: Vec<Instance> = easiest
        .iter()
        .map(|i| Instance {
            id: i.id.clone(),
            optimal: i.optimal,
            tiles: i.tiles.clone(),
        })
        .collect();
    let ours: Vec<f64> = (0..rounds.max(5))
        .map(|_| run_npuzzle(&owned, &one_thread(db)).0)
        .collect();
    let m = median(ours);
    println!(
        "5 easiest: pathfinding {theirs:.3} s, npuzzle {name} {m:.5} s (median): {:.0}x faster",
        theirs / m
    );
}
