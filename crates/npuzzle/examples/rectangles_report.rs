//! What `solve`'s default does on boards shaped like a photo: per shape, random boards
//! (fixed seeds), the median and largest time, how many came back optimal, and the mean length
//! over the lower bound; the tables' build time apart.
//!
//! `cargo run --release -p npuzzle --example rectangles_report -- [BOARDS] [SECONDS] [ALGORITHM] [SIZES...]`
//! ALGORITHM is `default`, `astar` or `idastar`; SIZES like `3x4` (default 3x4 4x3 4x5 5x4 4x6).

use std::time::Instant;

use npuzzle::random::random_solvable;
use npuzzle::{Algorithm, Board, Budget, Options, Shape, pattern_database, solve};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let boards: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(20);
    let seconds: f64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let algorithm = match args.get(2).map(String::as_str) {
        Some("astar") => Some(Algorithm::AStar),
        Some("idastar") => Some(Algorithm::IdaStar),
        _ => None,
    };
    let mut sizes: Vec<String> = args.iter().skip(3).cloned().collect();
    if sizes.is_empty() {
        sizes = ["3x4", "4x3", "4x5", "5x4", "4x6"]
            .map(String::from)
            .to_vec();
    }
    let dir = std::env::temp_dir().join(format!("npuzzle-rect-report-{}", std::process::id()));
    println!(
        "{boards} boards a shape, {seconds} s each, {algorithm:?} (None = the default), one thread, fresh tables"
    );
    for size in &sizes {
        let (w, h) = size.split_once('x').expect("a size like 3x4");
        let shape = Shape::new(w.parse().unwrap(), h.parse().unwrap()).unwrap();
        let options = Options {
            algorithm,
            budget: Budget::default(),
            time: Some(std::time::Duration::from_secs_f64(seconds)),
            pdb_dir: Some(dir.clone()),
            threads: Some(1),
            ..Options::default()
        };
        let started = Instant::now();
        let db = pattern_database(&Board::goal_of(shape), &options).unwrap();
        let build = started.elapsed().as_secs_f64();
        let mut times = Vec::new();
        let (mut optimal, mut ratio, mut failed) = (0, 0.0, 0);
        for seed in 0..boards {
            let board = random_solvable(shape, 500 + seed);
            let budget = Budget::default()
                .with_time_limit(std::time::Duration::from_secs_f64(seconds * 3.0 + 5.0));
            let started = Instant::now();
            match solve(
                &board,
                &Options {
                    budget,
                    ..options.clone()
                },
            ) {
                Ok(solution) => {
                    assert!(solution.solves(&board));
                    optimal += usize::from(solution.optimal);
                    ratio += solution.len() as f64 / solution.lower_bound.max(1) as f64;
                }
                Err(_) => failed += 1,
            }
            times.push(started.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        let solved = (boards as usize - failed).max(1) as f64;
        println!(
            "{shape}: tables {} in {build:.2} s; median {:.3} s, max {:.3} s; optimal {optimal}/{boards}; mean length/bound {:.3}; gave up {failed}",
            db.map_or("none".to_string(), |db| format!(
                "{} ({:.1} MB)",
                db.partition().name(),
                db.bytes() as f64 / 1e6
            )),
            times[times.len() / 2],
            times[times.len() - 1],
            ratio / solved,
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
