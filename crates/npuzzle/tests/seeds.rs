//! The examples from the course's seed, which have unique optimal solutions.

use npuzzle::{
    Algorithm, Board, Budget, CancelFlag, Move, Options, SolveError, StopReason, inversions,
    is_solvable, manhattan, moves_from_str, parse_board, solve,
};

fn board(text: &str) -> Board {
    parse_board(text).unwrap()
}

fn optimal(text: &str) -> String {
    let options = Options {
        algorithm: Some(Algorithm::AStar),
        ..Options::default()
    };
    let solution = solve(&board(text), &options).unwrap();
    assert!(solution.optimal);
    solution.moves_string()
}

#[test]
fn seed_solutions_come_out_exactly() {
    assert_eq!(optimal("1 0 3 / 4 2 5 / 7 8 6"), "DRD");
    assert_eq!(optimal("1 0 2 / 7 5 4 / 8 6 3"), "DRDLLURURDD");
    assert_eq!(optimal("1 2 3 / 4 5 6 / 7 8 0"), "");
}

#[test]
fn seed_moves_and_measures() {
    let mut b = board("1 0 2 / 7 5 4 / 8 6 3");
    b.apply_all(&moves_from_str("LDR").unwrap()).unwrap();
    assert_eq!(b, board("7 1 2 / 5 0 4 / 8 6 3"));
    assert_eq!(
        manhattan(&board("2 6 0 1 / 11 10 7 3 / 5 9 14 8 / 13 15 4 12")),
        22
    );
    assert_eq!(manhattan(&board("8 1 3 / 4 0 2 / 7 6 5")), 10);
    let b = board("12 1 10 2 / 7 11 4 14 / 5 0 9 15 / 8 13 6 3");
    assert_eq!(inversions(&b), 49);
    assert!(is_solvable(&b));
}

#[test]
fn the_hardest_8_puzzles_need_31_moves() {
    for text in ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"] {
        let solution = solve(&board(text), &Options::default()).unwrap();
        assert_eq!(solution.len(), 31, "{text}");
        assert!(solution.solves(&board(text)));
    }
}

#[test]
fn greedy_solves_but_is_not_called_optimal() {
    let b = board("1 0 2 / 7 5 4 / 8 6 3");
    let options = Options {
        algorithm: Some(Algorithm::Greedy),
        ..Options::default()
    };
    let solution = solve(&b, &options).unwrap();
    assert!(solution.solves(&b));
    assert!(!solution.optimal);
    assert!(solution.len() >= 11);
}

#[test]
fn unsolvable_boards_are_refused_with_the_rule() {
    let b = board("2 1 3 / 4 5 6 / 7 8 0");
    match solve(&b, &Options::default()) {
        Err(SolveError::Unsolvable(rule)) => assert_eq!(rule.inversions, 1),
        other => panic!("expected unsolvable, got {other:?}"),
    }
}

/// Instance 60 of Korf's set (`benchmarks/korf15.txt`): 66 moves, far beyond A* with Manhattan.
const HARD_15: &str = "0 8 10 6 / 11 7 9 1 / 12 4 13 14 / 15 3 2 5";

#[test]
fn astar_stops_at_its_memory_cap() {
    let options = Options {
        algorithm: Some(Algorithm::AStar),
        budget: Budget::unlimited().with_max_memory(32 << 20),
        ..Options::default()
    };
    match solve(&board(HARD_15), &options) {
        Err(SolveError::GaveUp(gave_up)) => {
            assert_eq!(gave_up.reason, StopReason::MemoryLimit);
            assert!(gave_up.memory >= 32 << 20);
            assert!(gave_up.memory < 64 << 20, "overshot: {}", gave_up.memory);
            assert!(gave_up.lower_bound >= manhattan(&board(HARD_15)));
            assert!(gave_up.lower_bound <= 66);
        }
        other => panic!("expected to give up, got {other:?}"),
    }
}

#[test]
fn astar_stops_at_its_node_cap() {
    let options = Options {
        algorithm: Some(Algorithm::AStar),
        budget: Budget::default().with_max_nodes(1_000),
        ..Options::default()
    };
    match solve(&board(HARD_15), &options) {
        Err(SolveError::GaveUp(gave_up)) => {
            assert_eq!(gave_up.reason, StopReason::NodeLimit);
            assert_eq!(gave_up.nodes_expanded, 1_000);
        }
        other => panic!("expected to give up, got {other:?}"),
    }
}

#[test]
fn another_thread_can_cancel_a_search() {
    use npuzzle::search::idastar::{Heuristic, IdaOptions, idastar};
    use npuzzle::{Progress, ProgressEvent};
    use std::sync::{Mutex, mpsc};

    // The search tells this thread when its first bound is done, and waits in its progress
    // callback until this thread has cancelled it: the cancel lands in the middle of the search,
    // never before it starts, whatever the machine's timing. A search that missed the cancel
    // would stop at the node cap instead.
    let cancel = CancelFlag::new();
    let (running, started) = mpsc::channel::<u64>();
    let (cancelled, resume) = mpsc::channel::<()>();
    let resume = Mutex::new(resume);
    let sink = Progress::new(move |event| {
        if let ProgressEvent::Search(status) = event
            && running.send(status.nodes_expanded).is_ok()
        {
            let _ = resume.lock().unwrap().recv();
        }
    });
    let budget = Budget::unlimited()
        .with_max_nodes(20_000_000)
        .with_cancel(cancel.clone())
        .with_progress(sink);
    let options = IdaOptions {
        heuristic: Heuristic::ManhattanLinearConflict,
        threads: Some(1),
        reflect: false,
    };
    let search = std::thread::spawn(move || idastar(&board(HARD_15), &options, &budget));
    let expanded_before = started.recv().expect("the search reports its first bound");
    cancel.cancel();
    cancelled.send(()).unwrap();
    drop(cancelled);
    match search.join().unwrap() {
        Err(gave_up) => {
            assert_eq!(gave_up.reason, StopReason::Cancelled);
            assert!(gave_up.nodes_expanded >= expanded_before, "{gave_up:?}");
        }
        Ok(found) => panic!("expected a cancelled search, got {:?}", found.solution),
    }
}

#[test]
fn tiles_moved_match_blank_moves() {
    let b = board("1 0 3 / 4 2 5 / 7 8 6");
    let solution = solve(&b, &Options::default()).unwrap();
    assert_eq!(b.tiles_moved_by(&solution.moves), Some(vec![2, 5, 6]));
    assert_eq!(solution.moves, vec![Move::Down, Move::Right, Move::Down]);
}

#[test]
fn idastar_reports_each_new_bound() {
    use npuzzle::search::idastar::{Heuristic, IdaOptions, idastar};
    use npuzzle::{Progress, ProgressEvent, SearchStatus};
    use std::sync::{Arc, Mutex};

    let statuses: Arc<Mutex<Vec<SearchStatus>>> = Arc::default();
    let sink = {
        let statuses = Arc::clone(&statuses);
        Progress::new(move |event| {
            if let ProgressEvent::Search(status) = event {
                statuses.lock().unwrap().push(*status)
            }
        })
    };
    let options = IdaOptions {
        heuristic: Heuristic::ManhattanLinearConflict,
        threads: Some(1),
        reflect: false,
    };
    let budget = Budget::default().with_progress(sink);
    let result = idastar(&board("8 6 7 2 5 4 3 0 1"), &options, &budget).unwrap();
    assert_eq!(result.solution.len(), 31);
    let statuses = statuses.lock().unwrap();
    assert!(statuses.len() >= 2, "{statuses:?}");
    assert!(
        statuses
            .windows(2)
            .all(|w| w[0].lower_bound < w[1].lower_bound
                && w[0].nodes_expanded <= w[1].nodes_expanded),
        "{statuses:?}"
    );
    // Reported after each bound that failed: the last one is the bound that found the solution.
    assert_eq!(statuses.last().unwrap().lower_bound, 31);
}
