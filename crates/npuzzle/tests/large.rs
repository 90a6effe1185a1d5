//! The large-board solvers: every shape replays to the goal, bounds stay admissible, deadlines
//! and cancel are honoured.

use npuzzle::large::solve_fast;
use npuzzle::linear_conflict;
use npuzzle::random::random_solvable;
use npuzzle::{Board, Budget, Shape};

/// The package's folder, as `cargo test` gives it to the running test (not as it was when
/// compiled: a build folder shared by checkouts at other paths keeps a test built in another).
fn manifest_dir() -> String {
    std::env::var("CARGO_MANIFEST_DIR").expect("cargo test gives CARGO_MANIFEST_DIR")
}

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
                assert_eq!(solution.lower_bound, linear_conflict(&board));
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

    use npuzzle::large::{Improve, LargeError, Tables, pdb_bound, solve_anytime, solve_fast};
    use npuzzle::linear_conflict;
    use npuzzle::packed::PackedTiles;
    use npuzzle::random::random_solvable;
    use npuzzle::search::bfs::goal_distances;
    use npuzzle::{
        Algorithm, Board, Budget, CancelFlag, Ended, Options, Shape, SolveError, StopReason, solve,
    };

    /// A benchmark file of the repository's `benchmarks/` folder: (optimal length, board).
    /// Missing or empty, the test fails.
    fn korf(name: &str) -> Vec<(usize, Board)> {
        let path = std::path::Path::new(&crate::manifest_dir())
            .join("../../benchmarks")
            .join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{} is missing: {e}", path.display()));
        let instances: Vec<(usize, Board)> = npuzzle::parse_benchmark(&text)
            .unwrap()
            .into_iter()
            .map(|instance| (instance.optimal, instance.board))
            .collect();
        assert!(
            !instances.is_empty(),
            "{} holds no instance",
            path.display()
        );
        instances
    }

    #[test]
    fn the_bound_never_exceeds_the_8_puzzle_distance() {
        let shape = Shape::new(3, 3).unwrap();
        let distances = goal_distances(shape).unwrap();
        for seed in 0..400 {
            let board = random_solvable(shape, seed);
            let optimal = usize::from(distances[&u64::pack(board.tiles())]);
            assert!(linear_conflict(&board) <= optimal, "{board:?}");
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
    fn the_bounds_never_exceed_korf_optimal_lengths_and_the_tables_raise_them() {
        // 4x4 tables made here (5-5-5, in memory): never above the optimal length, and above
        // Manhattan + linear conflict on most instances.
        let shape = Shape::new(4, 4).unwrap();
        let partition = npuzzle::Partition::standard(shape, "5-5-5").unwrap();
        let db = npuzzle::pdb::cache::build(&partition, &Budget::default()).unwrap();
        let tables = Tables {
            four: Some(std::sync::Arc::new(db)),
            five: None,
        };
        let korf15 = korf("korf15.txt");
        assert_eq!(korf15.len(), 50);
        let mut raised = 0;
        for (optimal, board) in &korf15 {
            let plain = linear_conflict(board);
            assert!(plain <= *optimal, "{board:?}");
            let bound = pdb_bound(board, &tables).unwrap();
            // Manhattan plus what the tables add: never above the optimal length.
            assert!(
                npuzzle::manhattan(board) <= bound && bound <= *optimal,
                "{board:?}"
            );
            raised += usize::from(bound > plain);
            let fast = solve_fast(board, &Budget::default()).unwrap();
            assert!(fast.solves(board));
            assert!(fast.lower_bound <= *optimal && *optimal <= fast.len());
        }
        assert!(
            raised > korf15.len() / 2,
            "the tables raised {raised} bounds"
        );
        let korf24 = korf("korf24.txt");
        assert_eq!(korf24.len(), 25);
        for (optimal, board) in korf24 {
            assert!(linear_conflict(&board) <= optimal, "{board:?}");
            assert_eq!(pdb_bound(&board, &tables), None, "no 5x5 tables given");
        }
    }

    #[test]
    fn improvements_come_shorter_each_time_and_respect_the_deadline() {
        let board = random_solvable(Shape::new(11, 11).unwrap(), 5);
        let budget = Budget::default().with_time_limit(Duration::from_millis(200));
        let mut lengths = Vec::new();
        let started = std::time::Instant::now();
        let best = solve_anytime(&board, &budget, &Improve::default(), |s| {
            lengths.push(s.len())
        })
        .unwrap();
        // The deadline stops it: well within seconds even on a loaded machine, where an
        // improvement that ignored it would run for many more.
        let elapsed = started.elapsed();
        assert!(elapsed < Duration::from_secs(3), "took {elapsed:?}");
        assert!(best.solves(&board));
        assert!(!lengths.is_empty());
        assert!(lengths.windows(2).all(|w| w[1] < w[0]));
        assert_eq!(*lengths.last().unwrap(), best.len());
        assert!(best.lower_bound <= best.len());
    }

    #[test]
    fn an_improvement_the_deadline_ends_says_so_and_one_that_ran_its_course_too() {
        // On 6×6 the wide beams are planned to fill the time: whether the deadline stops a beam
        // or the last beam ends just before it, more time would have helped.
        let board = random_solvable(Shape::new(6, 6).unwrap(), 3);
        for millis in [300, 700, 1200] {
            let budget = Budget::default().with_time_limit(Duration::from_millis(millis));
            let best = solve_anytime(&board, &budget, &Improve::default(), |_| {}).unwrap();
            assert!(!best.optimal);
            assert_eq!(
                best.ended,
                Ended::Stopped(StopReason::Deadline),
                "{millis} ms"
            );
        }
        // Without a deadline every method runs its course.
        let board = random_solvable(Shape::new(3, 4).unwrap(), 3);
        let best = solve_anytime(&board, &Budget::default(), &Improve::default(), |_| {}).unwrap();
        assert_eq!(best.ended, Ended::RanItsCourse);
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

        use npuzzle::{Progress, ProgressEvent, SearchStatus};

        let board = random_solvable(Shape::new(8, 8).unwrap(), 21);
        let statuses: Arc<Mutex<Vec<SearchStatus>>> = Arc::default();
        let sink = {
            let statuses = Arc::clone(&statuses);
            Progress::new(move |event| {
                if let ProgressEvent::Search(status) = event {
                    statuses.lock().unwrap().push(*status)
                }
            })
        };
        // Long enough for two solutions on a loaded machine (the first comes in milliseconds).
        let budget = Budget::default()
            .with_time_limit(Duration::from_secs(2))
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
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let result = solve_anytime(&board, &budget, &improve, |_| {}).map(|s| (s, board));
            let _ = sender.send(result);
        });
        std::thread::sleep(Duration::from_millis(100));
        cancel.cancel();
        // With no deadline and no node limit only the cancel can stop it: a generous bound
        // for a loaded machine, so that a search that ignores the flag fails, not hangs.
        let (best, board) = receiver
            .recv_timeout(Duration::from_secs(30))
            .expect("the cancel stops the improvement")
            .unwrap();
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
