//! The large-board solvers: every shape replays to the goal, bounds stay admissible, deadlines
//! and cancel are honoured.

use npuzzle::large::{lower_bound, solve_fast};
use npuzzle::random::random_solvable;
use npuzzle::{Board, Budget, Shape};

#[test]
fn fast_solves_every_shape_from_2x2_to_11x11() {
    for width in 2..=11 {
        for height in 2..=11 {
            let shape = Shape::new(width, height).unwrap();
            for seed in 0..6 {
                let board = random_solvable(shape, seed);
                let solution = solve_fast(&board, &Budget::default())
                    .unwrap_or_else(|e| panic!("{shape} seed {seed}: {e}"));
                assert!(solution.solves(&board), "{shape} seed {seed}");
                assert!(solution.lower_bound <= solution.len());
                assert_eq!(solution.lower_bound, lower_bound(&board));
            }
        }
    }
}

#[test]
fn fast_solves_the_largest_boards() {
    for (width, height) in [(16, 15), (15, 16), (16, 2), (2, 16), (16, 9), (12, 12)] {
        let shape = Shape::new(width, height).unwrap();
        let board = random_solvable(shape, 99);
        let solution = solve_fast(&board, &Budget::default()).unwrap();
        assert!(solution.solves(&board), "{shape}");
    }
    let goal = Board::goal(7, 5).unwrap();
    assert!(solve_fast(&goal, &Budget::default()).unwrap().is_empty());
}

mod bounds_and_budgets {
    use std::time::Duration;

    use npuzzle::large::{Improve, LargeError, lower_bound, pdb_bound, solve_anytime, solve_fast};
    use npuzzle::random::random_solvable;
    use npuzzle::search::bfs::goal_distances;
    use npuzzle::search::key::PackedTiles;
    use npuzzle::{
        Algorithm, Board, Budget, CancelFlag, Options, Shape, SolveError, StopReason, solve,
    };

    /// Korf's 15-puzzle instances (id, optimal length, tiles); the first few, should the
    /// shared benchmark file be missing.
    const KORF15_FALLBACK: &str = "2 55 10 5 1 0 15 9 13 14 2 8 4 7 6 12 11 3\n";

    fn korf(name: &str, fallback: &str) -> Vec<(usize, Board)> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/benchmarks")
            .join(name);
        let text = std::fs::read_to_string(path).unwrap_or_else(|_| fallback.to_string());
        npuzzle::parse_benchmark(&text)
            .unwrap()
            .into_iter()
            .map(|instance| (instance.optimal, instance.board))
            .collect()
    }

    #[test]
    fn the_bound_never_exceeds_the_8_puzzle_distance() {
        let shape = Shape::new(3, 3).unwrap();
        let distances = goal_distances(shape).unwrap();
        for seed in 0..400 {
            let board = random_solvable(shape, seed);
            let optimal = usize::from(distances[&u64::pack(board.tiles())]);
            assert!(lower_bound(&board) <= optimal, "{board:?}");
            let fast = solve_fast(&board, &Budget::default()).unwrap();
            assert!(fast.lower_bound <= optimal && optimal <= fast.len());
        }
    }

    #[test]
    fn anytime_proves_small_boards_optimal() {
        let shape = Shape::new(3, 3).unwrap();
        let distances = goal_distances(shape).unwrap();
        for seed in 0..20 {
            let board = random_solvable(shape, 1000 + seed);
            let optimal = usize::from(distances[&u64::pack(board.tiles())]);
            let budget = Budget::default().with_time_limit(Duration::from_secs(20));
            let best = solve_anytime(&board, &budget, &Improve::default(), |_| {}).unwrap();
            assert!(best.solves(&board));
            assert_eq!(best.len(), optimal);
            assert!(best.optimal);
            assert_eq!(best.lower_bound, optimal);
        }
    }

    #[test]
    fn the_bound_never_exceeds_korf_optimal_lengths() {
        for (optimal, board) in korf("korf15.txt", KORF15_FALLBACK) {
            assert!(lower_bound(&board) <= optimal, "{board:?}");
            // The pattern databases' bound, where they are cached.
            if let Some(bound) = pdb_bound(&board, &Budget::default()) {
                assert!(bound <= optimal, "{board:?}");
            }
            let fast = solve_fast(&board, &Budget::default()).unwrap();
            assert!(fast.solves(&board));
            assert!(fast.lower_bound <= optimal && optimal <= fast.len());
        }
        for (optimal, board) in korf("korf24.txt", "") {
            assert!(lower_bound(&board) <= optimal, "{board:?}");
        }
    }

    #[test]
    fn improvements_come_shorter_each_time_and_respect_the_deadline() {
        let board = random_solvable(Shape::new(11, 11).unwrap(), 5);
        let budget = Budget::default().with_time_limit(Duration::from_millis(200));
        let mut lengths = Vec::new();
        let best = solve_anytime(&board, &budget, &Improve::default(), |s| {
            lengths.push(s.len())
        })
        .unwrap();
        assert!(best.solves(&board));
        assert!(!lengths.is_empty());
        assert!(lengths.windows(2).all(|w| w[1] < w[0]));
        assert_eq!(*lengths.last().unwrap(), best.len());
        assert!(best.lower_bound <= best.len());
    }

    #[test]
    fn anytime_on_one_or_two_threads_solves_every_larger_shape() {
        for (width, height) in [(6, 6), (7, 5), (4, 9), (9, 4), (8, 8), (11, 11), (12, 3)] {
            let board = random_solvable(Shape::new(width, height).unwrap(), 17);
            let fast = solve_fast(&board, &Budget::default()).unwrap();
            for threads in [1, 2] {
                let budget = Budget::default().with_time_limit(Duration::from_millis(300));
                let improve = Improve {
                    threads: Some(threads),
                    ..Improve::default()
                };
                let best = solve_anytime(&board, &budget, &improve, |_| {}).unwrap();
                assert!(best.solves(&board), "{width}x{height} on {threads}");
                assert!(best.len() <= fast.len());
            }
        }
    }

    #[test]
    fn the_budgets_progress_hears_of_each_better_solution() {
        use std::sync::{Arc, Mutex};

        use npuzzle::{ProgressSink, SearchStatus};

        let board = random_solvable(Shape::new(8, 8).unwrap(), 21);
        let statuses: Arc<Mutex<Vec<SearchStatus>>> = Arc::default();
        let sink = {
            let statuses = Arc::clone(&statuses);
            ProgressSink::new(move |status| statuses.lock().unwrap().push(*status))
        };
        let budget = Budget::default()
            .with_time_limit(Duration::from_millis(300))
            .with_progress(sink);
        let best = solve_anytime(&board, &budget, &Improve::default(), |_| {}).unwrap();
        let statuses = statuses.lock().unwrap();
        let lengths: Vec<usize> = statuses.iter().filter_map(|s| s.best).collect();
        // Only the anytime solver's own reports: none from the searches inside it.
        assert_eq!(lengths.len(), statuses.len());
        assert!(lengths.len() >= 2, "{lengths:?}");
        assert!(lengths.windows(2).all(|w| w[1] < w[0]), "{lengths:?}");
        assert_eq!(*lengths.last().unwrap(), best.len());
        assert!(statuses.iter().all(|s| s.lower_bound <= best.len()));
    }

    #[test]
    fn a_cancel_flag_set_beforehand_stops_at_once() {
        let board = random_solvable(Shape::new(8, 8).unwrap(), 3);
        let cancel = CancelFlag::new();
        cancel.cancel();
        let budget = Budget::default().with_cancel(cancel);
        match solve_fast(&board, &budget) {
            Err(LargeError::GaveUp(gave_up)) => assert_eq!(gave_up.reason, StopReason::Cancelled),
            other => panic!("expected a cancelled search, got {other:?}"),
        }
        let options = Options {
            algorithm: Some(Algorithm::Anytime),
            budget: budget_cancelled(),
            ..Options::default()
        };
        assert!(matches!(
            solve(&board, &options),
            Err(SolveError::GaveUp(_))
        ));
    }

    fn budget_cancelled() -> Budget {
        let cancel = CancelFlag::new();
        cancel.cancel();
        Budget::default().with_cancel(cancel)
    }

    #[test]
    fn another_thread_can_stop_the_improvement() {
        let board = random_solvable(Shape::new(5, 5).unwrap(), 11);
        let cancel = CancelFlag::new();
        let budget = Budget::default().with_cancel(cancel.clone());
        let improve = Improve {
            window_nodes: u64::MAX,
            weighted_nodes: u64::MAX,
            ..Improve::default()
        };
        let worker = std::thread::spawn(move || {
            solve_anytime(&board, &budget, &improve, |_| {}).map(|s| (s, board))
        });
        std::thread::sleep(Duration::from_millis(100));
        cancel.cancel();
        let (best, board) = worker.join().unwrap().unwrap();
        assert!(best.solves(&board));
    }

    #[test]
    fn solve_picks_fast_or_improved_for_large_boards() {
        let board = random_solvable(Shape::new(7, 6).unwrap(), 2);
        let fast = Options {
            fast: true,
            ..Options::default()
        };
        let solution = solve(&board, &fast).unwrap();
        assert_eq!(solution.algorithm, Algorithm::Fast);
        assert!(solution.solves(&board) && !solution.optimal);
        let improved = Options {
            time: Some(Duration::from_millis(100)),
            ..Options::default()
        };
        let better = solve(&board, &improved).unwrap();
        assert!(better.solves(&board));
        assert!(better.len() <= solution.len());
        assert!(matches!(
            better.algorithm,
            Algorithm::Fast | Algorithm::Anytime
        ));
        let small = random_solvable(Shape::new(3, 3).unwrap(), 2);
        assert!(solve(&small, &Options::default()).unwrap().optimal);
    }
}
