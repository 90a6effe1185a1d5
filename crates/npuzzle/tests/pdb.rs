//! Pattern databases and IDA*: admissibility against breadth-first truth, optimal lengths on
//! easy Korf instances, cache handling, and budgets.

use std::fs;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use npuzzle::packed::PackedTiles;
use npuzzle::pdb::cache::{file_path, load, load_or_build_file};
use npuzzle::search::bfs::goal_distances;
use npuzzle::search::idastar::{Heuristic, IdaOptions, idastar};
use npuzzle::{
    Algorithm, Board, Budget, CancelFlag, Options, Partition, PdbEvent, Progress, ProgressEvent,
    Shape, StopReason, solve,
};

fn shape(w: usize, h: usize) -> Shape {
    Shape::new(w, h).unwrap()
}

/// A fresh folder under the system's temp folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "npuzzle-pdb-test-{name}-{}-{:?}",
        std::process::id(),
        Instant::now()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every event a load or build reports, kept for the test to read.
fn recorder() -> (Progress, Arc<Mutex<Vec<PdbEvent>>>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let progress = Progress::new(move |event| {
        if let ProgressEvent::Table(e) = event {
            sink.lock().unwrap().push(e.clone())
        }
    });
    (progress, events)
}

fn board_of(key: u64, cells: usize, width: usize) -> Board {
    let tiles: Vec<u8> = (0..cells).map(|c| key.tile(c)).collect();
    Board::new(width, cells / width, tiles).unwrap()
}

#[test]
fn three_by_three_tables_are_admissible_and_exact_when_whole() {
    let shape = shape(3, 3);
    let truth = goal_distances(shape).unwrap();
    let split = Partition::new(shape, "4-4", vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]).unwrap();
    let split = load_or_build_file(&split, None, &Budget::default()).unwrap();
    let whole = Partition::new(shape, "8", vec![(1..=8).collect()]).unwrap();
    let whole = load_or_build_file(&whole, None, &Budget::default()).unwrap();
    let mut tighter = 0usize;
    for (&key, &distance) in &truth {
        let board = board_of(key, 9, 3);
        let h = split.heuristic(&board).unwrap();
        assert!(h <= distance as usize, "{board:?}: {h} > {distance}");
        assert_eq!(h % 2, distance as usize % 2, "parity of {board:?}");
        // Each table alone is a lower bound too.
        for pattern in 0..2 {
            assert!(split.pattern_cost(pattern, &board).unwrap() <= distance as usize);
        }
        // With every tile in one pattern, the table is the distance itself.
        assert_eq!(
            whole.pattern_cost(0, &board).unwrap(),
            distance as usize,
            "{board:?}"
        );
        if h > npuzzle::manhattan(&board) {
            tighter += 1;
        }
    }
    assert!(
        tighter > truth.len() / 4,
        "the tables add little: {tighter}"
    );
}

#[test]
fn idastar_is_optimal_on_three_by_three_and_other_shapes() {
    let shape = shape(3, 3);
    let truth = goal_distances(shape).unwrap();
    let partition = Partition::new(shape, "4-4", vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]).unwrap();
    let db = load_or_build_file(&partition, None, &Budget::default()).unwrap();
    let mut checked = 0;
    for (&key, &distance) in truth.iter().step_by(97) {
        let board = board_of(key, 9, 3);
        for heuristic in [Heuristic::Pdb(&db), Heuristic::ManhattanLinearConflict] {
            for threads in [Some(1), Some(2)] {
                let options = IdaOptions {
                    heuristic,
                    threads,
                    reflect: true,
                };
                let result = idastar(&board, &options, &Budget::default()).unwrap();
                assert_eq!(result.solution.len(), distance as usize, "{board:?}");
                assert!(result.solution.solves(&board));
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
    // A 2×4 board: no databases, Manhattan + linear conflict.
    let truth = goal_distances(self::shape(4, 2)).unwrap();
    for (&key, &distance) in truth.iter().step_by(211) {
        let board = board_of(key, 8, 4);
        let options = Options {
            algorithm: Some(Algorithm::IdaStar),
            ..Options::default()
        };
        let solution = solve(&board, &options).unwrap();
        assert_eq!(solution.len(), distance as usize);
        assert!(solution.solves(&board));
        assert_eq!(solution.algorithm, Algorithm::IdaStar);
    }
}

#[test]
fn idastar_is_optimal_with_more_patterns_than_the_standard_partitions_have() {
    // Five patterns, a tile left out: more than the four the searches keep room for at once.
    let shape = shape(3, 3);
    let patterns = vec![vec![1, 2], vec![3, 6], vec![4, 7], vec![5], vec![8]];
    let partition = Partition::new(shape, "2-2-2-1-1", patterns).unwrap();
    let db = load_or_build_file(&partition, None, &Budget::default()).unwrap();
    let truth = goal_distances(shape).unwrap();
    for (&key, &distance) in truth.iter().step_by(331) {
        let board = board_of(key, 9, 3);
        for reflect in [true, false] {
            let options = IdaOptions {
                heuristic: Heuristic::Pdb(&db),
                threads: Some(1),
                reflect,
            };
            let result = idastar(&board, &options, &Budget::default()).unwrap();
            assert_eq!(result.solution.len(), distance as usize, "{board:?}");
            assert!(result.solution.solves(&board));
        }
    }
}

/// The easiest of Korf's instances in `benchmarks/korf15.txt` (id, optimal length,
/// tiles), the four of 45 moves or fewer.
const KORF15_EASY: [&str; 4] = [
    "16 42 0 9 12 4 5 3 2 8 10 1 7 6 11 14 13 15",
    "42 42 6 1 15 8 5 10 13 0 3 4 2 7 14 9 11 12",
    "12 45 1 3 5 6 0 13 14 9 11 4 8 12 10 7 15 2",
    "86 45 1 3 8 2 13 12 9 15 14 7 4 5 6 11 0 10",
];

/// Korf's instances above with an optimal length at most `max`.
fn korf15(max: usize) -> Vec<(Board, usize)> {
    npuzzle::parse_benchmark(&KORF15_EASY.join("\n"))
        .unwrap()
        .into_iter()
        .map(|instance| (instance.board, instance.optimal))
        .filter(|&(_, length)| length <= max)
        .collect()
}

#[test]
fn five_five_five_solves_easy_korf_instances_optimally() {
    let dir = temp_dir("555");
    let instances = korf15(45);
    assert!(instances.len() >= 3);
    for threads in [Some(1), Some(2)] {
        for (board, length) in &instances {
            let options = Options {
                algorithm: None,
                partition: Some("5-5-5".into()),
                pdb_dir: Some(dir.clone()),
                threads,
                ..Options::default()
            };
            let solution = solve(board, &options).unwrap();
            assert_eq!(solution.algorithm, Algorithm::IdaStar);
            assert_eq!(solution.len(), *length);
            assert!(solution.optimal && solution.solves(board));
        }
    }
    // The moves do not depend on the thread count.
    let (board, _) = &instances[0];
    let moves = |threads| {
        let options = Options {
            partition: Some("5-5-5".into()),
            pdb_dir: Some(dir.clone()),
            threads: Some(threads),
            ..Options::default()
        };
        solve(board, &options).unwrap().moves
    };
    assert_eq!(moves(1), moves(2));
    let _ = fs::remove_dir_all(&dir);
}

/// A small 4×4 partition that builds in milliseconds, for the cache tests.
fn small_partition(name: &str) -> Partition {
    Partition::new(shape(4, 4), name, vec![vec![1, 2], vec![3], vec![4, 5]]).unwrap()
}

#[test]
fn truncated_and_corrupt_files_are_rebuilt() {
    let dir = temp_dir("corrupt");
    let partition = small_partition("cache-test");
    let path = file_path(&dir, &partition);
    let budget = Budget::default();
    let (progress, events) = recorder();
    let built = load_or_build_file(
        &partition,
        Some(&dir),
        &budget.clone().with_progress(progress),
    )
    .unwrap();
    assert!(
        events
            .lock()
            .unwrap()
            .iter()
            .any(|e| matches!(e, PdbEvent::Saved { .. }))
    );
    let good = fs::read(&path).unwrap();
    let loaded = load(&partition, &path).unwrap();
    assert_eq!(loaded.tables(), built.tables());

    let damages: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() / 2].to_vec()),
        ("header only", good[..20].to_vec()),
        ("empty", Vec::new()),
        ("flipped bit", {
            let mut bad = good.clone();
            let middle = bad.len() / 2;
            bad[middle] ^= 0x10;
            bad
        }),
        ("trailing bytes", {
            let mut bad = good.clone();
            bad.extend_from_slice(b"junk");
            bad
        }),
        ("other version", {
            let mut bad = good.clone();
            bad[8] = bad[8].wrapping_add(1);
            bad
        }),
    ];
    for (what, bytes) in damages {
        fs::write(&path, &bytes).unwrap();
        assert!(load(&partition, &path).is_err(), "{what} was trusted");
        let (progress, events) = recorder();
        let db = load_or_build_file(
            &partition,
            Some(&dir),
            &budget.clone().with_progress(progress),
        )
        .unwrap();
        assert_eq!(db.tables(), built.tables(), "{what}");
        let events = events.lock().unwrap();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, PdbEvent::Rebuilding { .. })),
            "{what}: no message"
        );
        assert_eq!(fs::read(&path).unwrap(), good, "{what}: not rewritten");
    }
    // Another partition's file under this name is not trusted either.
    let other = Partition::new(shape(4, 4), "cache-test", vec![vec![1, 2], vec![3]]).unwrap();
    assert!(load(&other, &path).is_err());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn concurrent_builds_leave_a_whole_file() {
    let dir = temp_dir("concurrent");
    let partition = small_partition("concurrent-test");
    let path = file_path(&dir, &partition);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for _ in 0..3 {
                    let _ = fs::remove_file(&path);
                    load_or_build_file(&partition, Some(&dir), &Budget::default()).unwrap();
                    // Whatever is on disk at any moment is a whole, valid file or nothing.
                    match load(&partition, &path) {
                        Ok(_) => {}
                        Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "{e}"),
                    }
                }
            });
        }
    });
    assert!(load(&partition, &path).is_ok());
    let leftovers: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    let _ = fs::remove_dir_all(&dir);
}

/// A 4×4 board too hard for Manhattan + linear conflict to finish quickly (Korf's #82, 62 moves).
fn hard_board() -> Board {
    Board::new(
        4,
        4,
        vec![15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 1, 2, 0],
    )
    .unwrap()
}

#[test]
fn budgets_are_honoured_and_a_cancel_stops_the_search_promptly() {
    let board = hard_board();
    let mlc = |threads| IdaOptions {
        heuristic: Heuristic::ManhattanLinearConflict,
        threads: Some(threads),
        reflect: false,
    };
    for threads in [1, 2] {
        let gave_up = idastar(
            &board,
            &mlc(threads),
            &Budget::default().with_max_nodes(50_000),
        )
        .unwrap_err();
        assert_eq!(gave_up.reason, StopReason::NodeLimit);
        if threads == 1 {
            assert_eq!(gave_up.nodes_expanded, 50_000);
        } else {
            assert!((50_000..50_000 + 8_192).contains(&gave_up.nodes_expanded));
        }
        assert!(gave_up.lower_bound > 0);

        let gave_up = idastar(
            &board,
            &mlc(threads),
            &Budget::default().with_time_limit(Duration::from_millis(30)),
        )
        .unwrap_err();
        assert_eq!(gave_up.reason, StopReason::Deadline);

        let cancel = CancelFlag::new();
        let budget = Budget::default().with_cancel(cancel.clone());
        let (sender, receiver) = std::sync::mpsc::channel();
        let searcher = std::thread::spawn(move || {
            let result = idastar(&board_clone(), &mlc(threads), &budget);
            sender.send(Instant::now()).unwrap();
            result
        });
        std::thread::sleep(Duration::from_millis(50));
        let cancelled_at = Instant::now();
        cancel.cancel();
        let stopped_at = receiver.recv_timeout(Duration::from_secs(5)).unwrap();
        let gave_up = searcher.join().unwrap().unwrap_err();
        assert_eq!(gave_up.reason, StopReason::Cancelled);
        let lag = stopped_at.saturating_duration_since(cancelled_at);
        // The check comes every few thousand nodes (well under a millisecond); the bound is
        // generous for a loaded 2-core machine, where the search would otherwise run on.
        assert!(lag < Duration::from_secs(2), "took {lag:?} to stop");
    }
}

fn board_clone() -> Board {
    hard_board()
}

#[test]
fn a_cancelled_build_stops() {
    let cancel = CancelFlag::new();
    cancel.cancel();
    let budget = Budget::default().with_cancel(cancel);
    let partition = Partition::standard(shape(4, 4), "5-5-5").unwrap();
    let error = load_or_build_file(&partition, None, &budget).unwrap_err();
    assert_eq!(error, npuzzle::PdbError::Stopped(StopReason::Cancelled));
}

#[test]
fn unknown_partitions_are_errors_not_panics() {
    let board = hard_board();
    let options = Options {
        algorithm: Some(Algorithm::IdaStar),
        partition: Some("9-6".into()),
        ..Options::default()
    };
    assert!(matches!(
        solve(&board, &options),
        Err(npuzzle::SolveError::Pdb(_))
    ));
}

#[test]
fn photo_shapes_3x4_and_4x3_are_solved_optimally_by_default_with_their_tables() {
    let dir = temp_dir("photo");
    for (w, h) in [(3, 4), (4, 3)] {
        for seed in 0..4 {
            let board = npuzzle::random::random_solvable(shape(w, h), 70 + seed);
            let options = Options {
                pdb_dir: Some(dir.clone()),
                ..Options::default()
            };
            let solution = solve(&board, &options).unwrap();
            assert_eq!(solution.algorithm, Algorithm::IdaStar, "{board:?}");
            assert!(solution.optimal && solution.solves(&board));
            // An independent search without tables agrees on the length.
            let astar = npuzzle::search::astar::astar(&board, &Budget::unlimited()).unwrap();
            assert_eq!(solution.len(), astar.len(), "{board:?}");
        }
        let partition = Partition::default_for(shape(w, h)).unwrap();
        assert_eq!(partition.name(), "6-5");
        assert!(
            file_path(&dir, &partition).is_file(),
            "cached for next time"
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_table_is_byte_identical_whether_built_on_one_thread_or_two() {
    // 5-5-5's first pattern: big enough for many chunks on each thread.
    let partition = Partition::new(shape(4, 4), "five", vec![vec![1, 5, 6, 9, 13]]).unwrap();
    let on = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| npuzzle::pdb::cache::build(&partition, &Budget::default()).unwrap())
    };
    let (one, two) = (on(1), on(2));
    assert_eq!(one.tables()[0].data(), two.tables()[0].data());
    // And the same bytes on disk: the file a build saves is the file the other would.
    let dir = temp_dir("threads");
    let (a, b) = (dir.join("one.pdb"), dir.join("two.pdb"));
    npuzzle::pdb::cache::save(&one, &a).unwrap();
    npuzzle::pdb::cache::save(&two, &b).unwrap();
    assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap());
    let _ = fs::remove_dir_all(&dir);
}
