//! Our optimal multi-tile-metric solver against slidy 0.4.1's (`slidy::solver::size4x4::mtm`)
//! in one run, on the same boards: each round times our search over every board, then
//! slidy's, and checks that the lengths are equal and as the file says. Medians of the rounds.
//!
//! ```sh
//! cargo run --release -p npuzzle --example mtm_against_slidy -- \
//!     benchmarks/korf15-mtm.txt [ROUNDS] [SLIDY_TABLE_FILE]
//! ```
//!
//! Our tables come from the pattern databases' cache folder (built there on first use). slidy
//! builds its table (144 MiB) in two to three minutes every run; with `SLIDY_TABLE_FILE` it is
//! read from that file when the file is there and whole (slidy checks its hash), and written
//! there after a build.

use std::str::FromStr as _;
use std::time::Instant;

use npuzzle::mtm::{MtmTables, solve_mtm_with};
use npuzzle::{Board, Budget, mtm_length, parse_benchmark};
use slidy::puzzle::puzzle::Puzzle;
use slidy::solver::size4x4::mtm::solver::Solver as SlidyMtm;
use slidy::solver::solver::Solver as _;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// slidy's solver, its table read from `file` when it is there and valid, else built (and
/// then written to `file`).
fn slidy_solver(file: Option<&str>) -> (SlidyMtm, f64) {
    let started = Instant::now();
    if let Some(bytes) = file.and_then(|f| std::fs::read(f).ok()) {
        // SAFETY: slidy checks the bytes' length and xxh3 hash against its own table's.
        if let Some(solver) = unsafe { SlidyMtm::try_with_pdb_bytes(bytes.into_boxed_slice()) } {
            return (solver, started.elapsed().as_secs_f64());
        }
    }
    let solver = SlidyMtm::new();
    let seconds = started.elapsed().as_secs_f64();
    if let Some(file) = file {
        let _ = std::fs::write(file, solver.pdb_bytes());
    }
    (solver, seconds)
}

/// Our search over every board: seconds and nodes; panics on a length not the file's.
fn ours(boards: &[(String, usize, Board)], tables: &MtmTables) -> (f64, u64) {
    let (mut seconds, mut nodes) = (0.0, 0);
    for (id, optimal, board) in boards {
        let solution = solve_mtm_with(board, tables, &Budget::unlimited()).expect("solved");
        assert!(solution.solves(board), "ours on {id}");
        assert_eq!(mtm_length(&solution.moves), *optimal, "ours on {id}");
        seconds += solution.seconds;
        nodes += solution.nodes_expanded;
    }
    (seconds, nodes)
}

/// slidy's search over every board, in seconds; panics on a length not the file's.
fn slidy(boards: &[(String, usize, Board)], solver: &SlidyMtm) -> f64 {
    let mut seconds = 0.0;
    for (id, optimal, board) in boards {
        let text = board
            .tiles()
            .chunks(board.shape().width)
            .map(|row| row.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("/");
        let puzzle = Puzzle::from_str(&text).expect("slidy reads the board");
        let started = Instant::now();
        let solution = solver.solve(&puzzle).expect("slidy solves it");
        seconds += started.elapsed().as_secs_f64();
        assert_eq!(solution.len_mtm::<usize>(), *optimal, "slidy on {id}");
    }
    seconds
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = args
        .get(1)
        .map_or("benchmarks/korf15-mtm.txt", String::as_str);
    let rounds: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(3);
    let text = std::fs::read_to_string(file).expect("the benchmark file");
    let boards: Vec<(String, usize, Board)> = parse_benchmark(&text)
        .expect("a benchmark file")
        .into_iter()
        .map(|i| (i.id, i.optimal, i.board))
        .collect();
    let shape = boards[0].2.shape();
    let started = Instant::now();
    let dir = npuzzle::pdb::default_dir();
    let tables =
        MtmTables::load_or_build(shape, dir.as_deref(), &Budget::unlimited()).expect("our tables");
    println!(
        "ours: tables at hand in {:.2} s ({:.0} MB)",
        started.elapsed().as_secs_f64(),
        tables.bytes() as f64 / 1e6
    );
    let (solver, built) = slidy_solver(args.get(3).map(String::as_str));
    println!("slidy: table at hand in {built:.2} s");
    let (mut our_times, mut their_times, mut nodes) = (Vec::new(), Vec::new(), 0);
    for round in 1..=rounds {
        let (seconds, n) = ours(&boards, &tables);
        let theirs = slidy(&boards, &solver);
        println!(
            "round {round}: ours {seconds:.3} s ({n} nodes), slidy {theirs:.3} s: {:.2}x",
            theirs / seconds
        );
        nodes = n;
        our_times.push(seconds);
        their_times.push(theirs);
    }
    let (a, b) = (median(our_times), median(their_times));
    println!(
        "{} boards, lengths all equal; medians of {rounds} rounds: ours {a:.3} s ({nodes} nodes), slidy {b:.3} s: {:.2}x as fast",
        boards.len(),
        b / a
    );
}
