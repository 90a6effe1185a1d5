//! A fixed amount of work for instruction counts (`valgrind --tool=callgrind`), where a timing
//! on a loaded machine is in doubt: A* on random 8-puzzles, the fast solver on several sizes,
//! and the anytime improvement run to its end on one thread (weighted A* on a 5×5, the stage
//! searches on a 6×6). Prints the lengths, which must not change between versions.
//!
//! `cargo run --release -p npuzzle --example work -- [astar|fast|anytime]...` (all by default)

use npuzzle::large::{Improve, solve_anytime, solve_fast};
use npuzzle::random::random_solvable;
use npuzzle::search::astar::astar;
use npuzzle::{Budget, Shape};

fn main() {
    let mut parts: Vec<String> = std::env::args().skip(1).collect();
    if parts.is_empty() {
        parts = ["astar", "fast", "anytime"].map(String::from).to_vec();
    }
    let budget = Budget::default();
    for part in &parts {
        let lengths: Vec<usize> = match part.as_str() {
            "astar" => {
                let shape = Shape::new(3, 3).unwrap();
                (0..300)
                    .map(|seed| astar(&random_solvable(shape, seed), &budget).unwrap().len())
                    .collect()
            }
            "fast" => [(5, 5), (6, 6), (8, 8), (3, 7), (4, 9)]
                .iter()
                .flat_map(|&(w, h)| {
                    let shape = Shape::new(w, h).unwrap();
                    (0..10).map(move |i| random_solvable(shape, 2026 + i))
                })
                .map(|board| solve_fast(&board, &budget).unwrap().len())
                .collect(),
            "anytime" => {
                let improve = Improve {
                    threads: Some(1),
                    weighted_nodes: 200_000,
                    ..Improve::default()
                };
                [(5, 5), (6, 6)]
                    .iter()
                    .map(|&(w, h)| {
                        let board = random_solvable(Shape::new(w, h).unwrap(), 2026);
                        solve_anytime(&board, &budget, &improve, |_| {})
                            .unwrap()
                            .len()
                    })
                    .collect()
            }
            other => panic!("unknown part {other}"),
        };
        println!(
            "{part}: {} lengths, sum {}",
            lengths.len(),
            lengths.iter().sum::<usize>()
        );
    }
}
