//! Figures for the large-board solvers: per size, 100 random boards (fixed seed), the median
//! time to the first solution, its length ÷ the lower bound, and the same after improving; and
//! the Korf 24-puzzle instances against their optimal lengths.
//!
//! `cargo run --release -p npuzzle --example large_report -- [SECONDS] [BOARDS] [SIZES...]`
//! SIZES are like `11x11`; `korf` runs the 24-puzzle instances (from the repository's
//! `benchmarks/`); `threads=N` among them sets the improvement's threads (every core by
//! default); `fresh` uses no pattern databases, as on a new machine (by default those cached
//! in `$XDG_CACHE_HOME/npuzzle` are used, as `npuzzle solve` does).

use std::time::{Duration, Instant};

use npuzzle::large::{Improve, solve_anytime, solve_fast};
use npuzzle::random::random_solvable;
use npuzzle::{Budget, Shape};

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    if values.is_empty() {
        return f64::NAN;
    }
    values[values.len() / 2]
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// What the report was asked for.
struct ReportSettings {
    seconds: f64,
    count: u64,
    improve: Improve,
    sizes: Vec<String>,
}

/// `[seconds] [count] [threads=N] [fresh] [size…]`.
fn settings() -> ReportSettings {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: f64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let count: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let mut improve = Improve::default();
    let mut sizes: Vec<String> = Vec::new();
    let mut fresh = false;
    for arg in args.iter().skip(2) {
        match arg.strip_prefix("threads=").map(str::parse) {
            Some(Ok(threads)) => improve.threads = Some(threads),
            Some(Err(_)) => panic!("threads= takes a number, not {arg}"),
            None if arg == "fresh" => fresh = true,
            None => sizes.push(arg.clone()),
        }
    }
    if !fresh {
        let dir = npuzzle::pdb::default_dir();
        improve.tables = npuzzle::large::Tables::cached(dir.as_deref()).expect("readable tables");
    }
    if sizes.is_empty() {
        sizes = ["5x5", "6x6", "8x8", "11x11", "3x7", "4x9", "korf"]
            .map(String::from)
            .to_vec();
    }
    ReportSettings {
        seconds,
        count,
        improve,
        sizes,
    }
}

fn main() {
    let settings = settings();
    let threads = (settings.improve.threads)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    println!(
        "improve for {} s on {threads} threads; {} boards per size (seed 2026 + i); medians unless marked",
        settings.seconds, settings.count
    );
    println!(
        "{:>6} {:>9} {:>8} {:>7} {:>9} {:>8} {:>7} {:>8} {:>8}",
        "size", "first ms", "first", "÷lb", "mean 1st", "improved", "÷lb", "mean imp", "mean lb"
    );
    for size in &settings.sizes {
        if size == "korf" {
            korf(settings.seconds, &settings.improve);
        } else if let Some(shape) = (size.split_once('x'))
            .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
            .and_then(|(w, h)| Shape::new(w, h).ok())
        {
            report_size(shape, &settings);
        }
    }
}

/// One line for a shape: the first solutions and the improved ones, against the lower bound
/// (and Parberry's 8/3·n³ on square boards).
fn report_size(shape: Shape, settings: &ReportSettings) {
    let (mut ms, mut first, mut first_ratio, mut better, mut better_ratio, mut bounds) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for i in 0..settings.count {
        let board = random_solvable(shape, 2026 + i);
        let start = Instant::now();
        let fast = solve_fast(&board, &Budget::default()).expect("solvable");
        ms.push(start.elapsed().as_secs_f64() * 1e3);
        assert!(fast.solves(&board));
        let lb = fast.lower_bound.max(1) as f64;
        first.push(fast.len() as f64);
        first_ratio.push(fast.len() as f64 / lb);
        bounds.push(lb);
        if settings.seconds > 0.0 {
            let time = Duration::from_secs_f64(settings.seconds);
            let budget = Budget::default().with_time_limit(time);
            let best = solve_anytime(&board, &budget, &settings.improve, |_| {}).expect("solvable");
            assert!(best.solves(&board));
            better.push(best.len() as f64);
            better_ratio.push(best.len() as f64 / best.lower_bound.max(1) as f64);
        }
    }
    let (mean_first, mean_better) = (mean(&first), mean(&better));
    println!(
        "{:>6} {:>9.3} {:>8.0} {:>7.3} {:>9.1} {:>8.0} {:>7.3} {:>8.1} {:>8.1}",
        shape.to_string(),
        median(&mut ms),
        median(&mut first),
        median(&mut first_ratio),
        mean_first,
        median(&mut better),
        median(&mut better_ratio),
        mean_better,
        mean(&bounds),
    );
    if shape.width == shape.height {
        let parberry = 8.0 / 3.0 * (shape.width as f64).powi(3);
        println!(
            "       Parberry 8/3·n³ = {parberry:.0}; first mean ÷ that = {:.3}; improved mean ÷ that = {:.3}",
            mean_first / parberry,
            mean_better / parberry
        );
    }
}

fn korf(seconds: f64, improve: &Improve) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/korf24.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} is missing: {e}", path.display()));
    let (mut fast_ratios, mut ratios, mut lb_ratios) = (vec![], vec![], vec![]);
    for instance in npuzzle::parse_benchmark(&text).expect("a benchmark file") {
        let (id, optimal, board) = (instance.id, instance.optimal as f64, instance.board);
        let fast = solve_fast(&board, &Budget::default()).expect("solvable");
        let start = Instant::now();
        let budget = Budget::default().with_time_limit(Duration::from_secs_f64(seconds));
        let best = solve_anytime(&board, &budget, improve, |_| {}).expect("solvable");
        let took = start.elapsed().as_secs_f64();
        assert!(best.solves(&board));
        println!(
            "  korf24 #{id:>3}: optimal {optimal:>3}  fast {:>4}  after {took:.2} s {:>4} (÷opt {:.3})  lower bound {}",
            fast.len(),
            best.len(),
            best.len() as f64 / optimal,
            best.lower_bound
        );
        fast_ratios.push(fast.len() as f64 / optimal);
        ratios.push(best.len() as f64 / optimal);
        lb_ratios.push(best.lower_bound as f64 / optimal);
    }
    println!(
        "  korf24 mean ÷ optimal: fast {:.3}, improved {:.3} (target ≤ 1.15); lower bound ÷ optimal {:.3}",
        mean(&fast_ratios),
        mean(&ratios),
        mean(&lb_ratios)
    );
}
