//! The 4×4 hint and meter latency on positions met in real play, positions along random
//! players' games and along optimal lines, on one thread (median, 99th percentile, largest):
//! the optimal distance from scratch (what a hint costs: a whole optimal search), and the
//! meter's update after a move from a position whose distance is known (`after_move`, which
//! gives the next hint too).
//!
//! `cargo run --release -p npuzzle --example hint_report -- [PARTITION] [GAMES]`
//! PARTITION (default 6-6-3) is built first into a fresh temporary folder; GAMES (default 50)
//! random games and as many optimal lines give 10 positions each (1,000 in all by default).

use std::time::Instant;

use npuzzle::distance::{after_move, optimal_distance};
use npuzzle::generate::board_at_distance;
use npuzzle::random::SplitMix64;
use npuzzle::{Board, Move, Options, Shape, pattern_database, solve};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[(((sorted.len() - 1) as f64) * p).round() as usize]
}

/// Positions along a random player's game: from a board at a level's distance, 100 random
/// moves (a player who does not undo the last move); every tenth position kept, with the move
/// that led there from the one before.
fn random_game(start: &Board, rng: &mut SplitMix64) -> Vec<(Board, Move)> {
    let mut board = start.clone();
    let mut last: Option<Move> = None;
    let mut kept = Vec::new();
    for step in 1..=100 {
        let moves: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|&m| board.can_move(m) && Some(m.inverse()) != last)
            .collect();
        let mv = moves[rng.below(moves.len() as u64) as usize];
        board.apply(mv);
        last = Some(mv);
        if step % 10 == 0 {
            kept.push((board.clone(), mv));
        }
    }
    kept
}

fn report(name: &str, times: &mut [f64]) {
    times.sort_by(f64::total_cmp);
    println!(
        "  {name}: {} positions, median {:.2} ms, p99 {:.1} ms, max {:.1} ms",
        times.len(),
        percentile(times, 0.5) * 1e3,
        percentile(times, 0.99) * 1e3,
        times[times.len() - 1] * 1e3
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let partition = args.first().cloned().unwrap_or_else(|| "6-6-3".into());
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    let dir = std::env::temp_dir().join(format!("npuzzle-hint-report-{}", std::process::id()));
    let shape = Shape::new(4, 4).unwrap();
    let options = Options::default()
        .with_partition(partition.clone())
        .with_pdb_dir(dir.clone())
        .with_threads(1);
    let started = Instant::now();
    let db = pattern_database(&Board::goal_of(shape), &options)
        .unwrap()
        .unwrap();
    println!(
        "{partition}: {:.1} MB, built in {:.1} s; {games} random games and {games} optimal lines, one thread",
        db.bytes() as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    let mut rng = SplitMix64::new(2026);
    let levels = [24, 36, 48];
    let mut played = Vec::new();
    let mut optimal_lines = Vec::new();
    for game in 0..games {
        let level = levels[game as usize % levels.len()];
        let start = board_at_distance(shape, level, game, &options).unwrap();
        played.extend(random_game(&start, &mut rng));
        // An optimal line from a board farther out: every fifth position along it.
        let far = board_at_distance(shape, 50, 1_000 + game, &options).unwrap();
        let line = solve(&far, &options).unwrap().moves;
        let mut board = far;
        for (i, &mv) in line.iter().enumerate() {
            board.apply(mv);
            if i % 5 == 0 {
                optimal_lines.push((board.clone(), mv));
            }
        }
    }
    let (mut all, mut all_after) = (Vec::new(), Vec::new());
    for (name, positions) in [
        ("random players", &played),
        ("optimal lines", &optimal_lines),
    ] {
        let (mut times, mut after) = (Vec::new(), Vec::new());
        for (board, mv) in positions.iter() {
            let started = Instant::now();
            let distance = optimal_distance(board, &options).unwrap();
            times.push(started.elapsed().as_secs_f64());
            let previous = board.moved(mv.inverse()).unwrap();
            let before = optimal_distance(&previous, &options).unwrap();
            let started = Instant::now();
            let updated = after_move(&previous, before, *mv, &options).unwrap();
            after.push(started.elapsed().as_secs_f64());
            assert_eq!(updated.distance, distance);
        }
        all.extend_from_slice(&times);
        all_after.extend_from_slice(&after);
        report(&format!("{name}, from scratch"), &mut times);
        report(&format!("{name}, after a move"), &mut after);
    }
    report("all, from scratch (a hint)", &mut all);
    report("all, after a move (the meter)", &mut all_after);
    let _ = std::fs::remove_dir_all(dir);
}
