//! The `npuzzle` command as a user runs it: output, JSON, exit codes and errors.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::run;

/// The package's folder, as `cargo test` gives it to the running test (not as it was when
/// compiled: a build folder shared by checkouts at other paths keeps a test built in another).
fn manifest_dir() -> String {
    std::env::var("CARGO_MANIFEST_DIR").expect("cargo test gives CARGO_MANIFEST_DIR")
}

/// The command with a cache folder of its own that nothing is in, so that the tables in a
/// developer's cache cannot change what a test sees (a test that wants tables there makes its
/// own folder and sets `XDG_CACHE_HOME` again).
fn npuzzle_command() -> Command {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let cache =
        std::env::temp_dir().join(format!("npuzzle-cli-no-cache-{}-{run}", std::process::id()));
    let mut command = Command::new(env!("CARGO_BIN_EXE_npuzzle"));
    command.env("XDG_CACHE_HOME", cache);
    command
}

fn npuzzle(args: &[&str], stdin: &str) -> Output {
    run(npuzzle_command().args(args), stdin)
}

/// Asserts that the command exited 0, showing its standard error if not.
fn assert_succeeded(output: &Output) {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON object")
}

#[test]
fn solve_prints_the_seed_solution() {
    let out = npuzzle(&["solve", "-"], "1 0 3 / 4 2 5 / 7 8 6");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Solution:    DRD\n"), "{text}");
    assert!(text.contains("Length:      3 moves"), "{text}");
    assert!(text.contains("Manhattan:   3"), "{text}");
}

#[test]
fn solve_json_has_the_documented_keys() {
    let out = npuzzle(&["solve", "-", "--json"], "3\n1 0 2\n7 5 4\n8 6 3\n");
    assert_eq!(out.status.code(), Some(0));
    let value = json(&out);
    for key in [
        "width",
        "height",
        "tiles",
        "hamming",
        "manhattan",
        "is_goal",
        "inversions",
        "solvable",
        "moves",
        "length",
        "optimal",
        "algorithm",
        "nodes_expanded",
        "seconds",
    ] {
        assert!(value.get(key).is_some(), "missing {key} in {value}");
    }
    assert_eq!(value["moves"], "DRDLLURURDD");
    assert_eq!(value["length"], 11);
    assert_eq!(value["optimal"], true);
    assert_eq!(
        value["tiles"],
        serde_json::json!([1, 0, 2, 7, 5, 4, 8, 6, 3])
    );
}

#[test]
fn tiles_and_show_follow_the_solution() {
    let out = npuzzle(
        &["solve", "-", "--tiles", "--show"],
        "1 0 3 / 4 2 5 / 7 8 6",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Tiles moved: 2 5 6"), "{text}");
    assert!(text.contains("3. D\n1 2 3\n4 5 6\n7 8 0"), "{text}");
}

#[test]
fn greedy_is_labelled_not_optimal() {
    let out = npuzzle(
        &["solve", "-", "--algorithm", "greedy", "--json"],
        "1 0 2 / 7 5 4 / 8 6 3",
    );
    let value = json(&out);
    assert_eq!(value["optimal"], false);
    assert_eq!(value["algorithm"], "greedy");
}

#[test]
fn an_improvement_says_why_it_ended() {
    // Proved shortest long before its time: the improvement ends there, and says so.
    let proved = npuzzle(
        &[
            "solve",
            "-",
            "--algorithm",
            "anytime",
            "--time",
            "60",
            "--json",
        ],
        "1 0 2 / 7 5 4 / 8 6 3",
    );
    assert_succeeded(&proved);
    let value = json(&proved);
    assert_eq!(value["optimal"], true, "{value}");
    assert_eq!(value["ended"], "ran its course", "{value}");
    // A 9×9 board in a fifth of a second: the deadline stops it, and the text says what more
    // time would do.
    let board = npuzzle::random::shuffled(npuzzle::Shape::new(9, 9).unwrap(), 2000, 7).to_string();
    let shuffled = npuzzle(&["solve", "-", "--time", "0.2", "--json"], &board);
    assert_succeeded(&shuffled);
    assert_eq!(json(&shuffled)["ended"], "deadline");
    let text = npuzzle(&["solve", "-", "--time", "0.2"], &board);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("Ended:       the time limit passed; more time may find a shorter solution"),
        "{text}"
    );
}

#[test]
fn a_search_held_back_by_its_memory_says_more_memory_would_help() {
    // A 7×7 board with 2 MiB: the wide beams stop at the limit long before the time is up
    // (a few seconds on an idle machine; the time is ample so a loaded one ends the same way).
    let board = npuzzle::random::shuffled(npuzzle::Shape::new(7, 7).unwrap(), 2000, 7).to_string();
    let args = ["solve", "-", "--time", "120", "--max-memory", "2"];
    let text = npuzzle(&args, &board);
    assert_succeeded(&text);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains(
            "Ended:       the memory limit was reached; more memory (--max-memory) may find a \
             shorter solution"
        ),
        "{text}"
    );
}

/// Sends the child a Ctrl-C (SIGINT) after `seconds`, and its output once it ends, which must be
/// within seconds (a hung run fails here).
fn interrupt_after(mut child: std::process::Child, seconds: u64) -> Output {
    std::thread::sleep(std::time::Duration::from_secs(seconds));
    // The shell's own kill: no procps needed.
    let interrupt = format!("kill -INT {}", child.id());
    let kill = Command::new("sh")
        .args(["-c", &interrupt])
        .status()
        .unwrap();
    assert!(kill.success());
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed().as_secs() < 120,
            "still running after a Ctrl-C"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn ctrl_c_stops_a_long_solve_and_prints_the_best_so_far() {
    let start = npuzzle::random::shuffled(npuzzle::Shape::new(7, 7).unwrap(), 2000, 3);
    let board = start.to_string();
    let mut child = npuzzle_command()
        .args(["solve", "-", "--time", "600", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(board.as_bytes())
        .unwrap();
    // Well into the search (the handler is set before the board is read), a Ctrl-C.
    let output = interrupt_after(child, 2);
    assert_succeeded(&output);
    let value = json(&output);
    assert_eq!(value["ended"], "cancelled", "{value}");
    let letters = value["moves"].as_str().expect("the moves as letters");
    let moves = npuzzle::moves_from_str(letters).unwrap();
    let mut replay = start;
    replay.apply_all(&moves).unwrap();
    assert!(replay.is_goal(), "the best so far solves the board");
}

/// Sends the child a Ctrl-C (SIGINT) as soon as a line of its standard error starts with
/// `line`, and gives back its output once it ends (its standard error in full). Fails when that
/// line or the end does not come within 120 s: a limit for a hung run, not a timing.
fn interrupt_on_line(mut child: std::process::Child, line: &str) -> Output {
    use std::io::BufRead as _;
    let stderr = child.stderr.take().unwrap();
    let (sender, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for read in std::io::BufReader::new(stderr).lines() {
            let Ok(read) = read else { break };
            if sender.send(read).is_err() {
                break;
            }
        }
    });
    let limit = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let (mut seen, mut interrupted) = (Vec::new(), false);
    loop {
        let left = limit.saturating_duration_since(std::time::Instant::now());
        match lines.recv_timeout(left) {
            Ok(read) => {
                if !interrupted && read.starts_with(line) {
                    // The shell's own kill: no procps needed.
                    let interrupt = format!("kill -INT {}", child.id());
                    let kill = Command::new("sh").args(["-c", &interrupt]).status();
                    assert!(kill.unwrap().success());
                    interrupted = true;
                }
                seen.push(read);
            }
            // Standard error closed: the run ended.
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                panic!(
                    "no end within 120 s (interrupted: {interrupted}); standard error:\n{}",
                    seen.join("\n")
                );
            }
        }
    }
    assert!(
        interrupted,
        "no line starting {line:?}:\n{}",
        seen.join("\n")
    );
    let mut output = child.wait_with_output().unwrap();
    output.stderr = (seen.join("\n") + "\n").into_bytes();
    output
}

#[test]
fn ctrl_c_stops_a_bench_and_reports_the_instances_finished_before_it() {
    // Three 7x7 boards: the first a move from the goal (done at once: its length is its bound),
    // the others improved for 600 s each. The Ctrl-C comes when the first one's line is
    // written, so while the second is being solved, however slow the machine.
    let shape = npuzzle::Shape::new(7, 7).unwrap();
    let boards: Vec<npuzzle::Board> = [(1, 0), (2000, 1), (2000, 2)]
        .into_iter()
        .map(|(moves, seed)| npuzzle::random::shuffled(shape, moves, seed))
        .collect();
    let lines: Vec<String> = (boards.iter().enumerate())
        .map(|(id, board)| {
            let tiles: Vec<String> = board.tiles().iter().map(u8::to_string).collect();
            format!("{id} 0 {}", tiles.join(" "))
        })
        .collect();
    let path = std::env::temp_dir().join(format!("npuzzle-cli-ctrl-c-{}.txt", std::process::id()));
    std::fs::write(&path, lines.join("\n")).unwrap();
    let child = npuzzle_command()
        .args(["bench", path.to_str().unwrap(), "--time", "600", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let output = interrupt_on_line(child, "[1/3] instance 0: ");
    let _ = std::fs::remove_file(&path);
    assert_eq!(output.status.code(), Some(130), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("stopped by Ctrl-C after 1 of 3 instances; instance 1 was cut short"),
        "{stderr}"
    );
    let value = json(&output);
    assert_eq!(value["instances"][0]["length"], 1, "{value}");
    assert!(
        stderr.contains("[1/3] instance 0: 1 moves (bound 1)"),
        "--json shows each instance's end on standard error: {stderr}"
    );
    assert!(!stderr.contains("[2/3]"), "{stderr}");
    assert_eq!(value["interrupted"], true, "{value}");
    let instances = value["instances"].as_array().unwrap();
    assert_eq!(
        instances.len(),
        1,
        "the one finished, not the one cut short"
    );
    let moves = npuzzle::moves_from_str(instances[0]["moves"].as_str().unwrap()).unwrap();
    let mut replay = boards[0].clone();
    replay.apply_all(&moves).unwrap();
    assert!(replay.is_goal());
}

#[test]
fn analyze_reports_and_unsolvable_exits_1() {
    let out = npuzzle(
        &["analyze", "-", "--json"],
        "12 1 10 2 / 7 11 4 14 / 5 0 9 15 / 8 13 6 3",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["inversions"], 49);
    let out = npuzzle(&["solve", "-"], "2 1 3\n4 5 6\n7 8 0");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Solvable:    no (width 3 is odd, so the inversions must be even: 1 is odd)"),
        "{text}"
    );
}

#[test]
fn bad_input_exits_2_with_line_and_column() {
    let out = npuzzle(&["solve", "-"], "3\n1 2 3\n4 5 5\n7 8 0\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let message = String::from_utf8(out.stderr).unwrap();
    assert!(message.contains("line 3, column 5"), "{message}");
    assert!(message.contains("tile 5 appears twice"), "{message}");
    let out = npuzzle(&["solve", "/no/such/file"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = npuzzle(&["solve"], "");
    assert_eq!(out.status.code(), Some(2), "usage errors exit 2");
    let out = npuzzle(&["solve", "-", "--timeout", "-1"], "1 0 3 / 4 2 5 / 7 8 6");
    assert_eq!(out.status.code(), Some(2));
    let out = npuzzle(&["solve", "-", "--threads", "0"], "1 0 3 / 4 2 5 / 7 8 6");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("--threads takes 1 or more")
    );
}

#[test]
fn budget_exhaustion_exits_3_with_figures() {
    let out = npuzzle(
        &["solve", "-", "--max-nodes", "50", "--json"],
        "8 6 7 2 5 4 3 0 1",
    );
    assert_eq!(out.status.code(), Some(3));
    let value = json(&out);
    assert_eq!(value["gave_up"]["nodes_expanded"], 50);
    assert!(value.get("moves").is_none());
}

#[test]
fn reads_files() {
    let path = std::env::temp_dir().join(format!("npuzzle-cli-test-{}.txt", std::process::id()));
    std::fs::write(&path, "# the course format\n8\n1 0 3\n4 2 5\n7 8 6\n").unwrap();
    let out = npuzzle(&["solve", path.to_str().unwrap(), "--json"], "");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["moves"], "DRD");
}

/// Runs `npuzzle` with a fresh, empty cache folder, as a new user would.
fn npuzzle_fresh(args: &[&str], cache: &std::path::Path) -> Output {
    npuzzle_command()
        .args(args)
        .env("XDG_CACHE_HOME", cache)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn fresh_cache(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("npuzzle-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn generate_prints_boards_at_the_distance_that_bench_confirms() {
    let cache = fresh_cache("generate");
    let args = [
        "generate",
        "--size",
        "3x3",
        "--distance",
        "20",
        "--count",
        "4",
        "--seed",
        "9",
    ];
    let out = npuzzle_fresh(&args, &cache);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(
        text.lines().all(|l| l.split(' ').nth(1) == Some("20")),
        "{text}"
    );
    // The same seed, the same boards.
    assert_eq!(npuzzle_fresh(&args, &cache).stdout, text.as_bytes());
    // bench solves each again and checks its length.
    let file = cache.join("boards.txt");
    std::fs::write(&file, &text).unwrap();
    let out = npuzzle_fresh(&["bench", file.to_str().unwrap(), "--json"], &cache);
    assert_succeeded(&out);
    let report = json(&out);
    assert_eq!(report["instances"].as_array().unwrap().len(), 4);
    assert!(
        report["instances"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["length"] == 20)
    );
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn generate_writes_rectangles_with_row_breaks_and_random_boards_in_json() {
    let cache = fresh_cache("generate-json");
    let out = npuzzle_fresh(
        &[
            "generate",
            "--size",
            "2x4",
            "--distance",
            "7",
            "--seed",
            "3",
        ],
        &cache,
    );
    assert_eq!(out.status.code(), Some(0));
    let line = String::from_utf8(out.stdout).unwrap();
    let board = npuzzle::parse_benchmark(&line).unwrap().remove(0);
    assert_eq!((board.board.width(), board.board.height()), (2, 4));
    assert_eq!(board.optimal, 7);
    let out = npuzzle_fresh(
        &["generate", "--size", "6x6", "--count", "2", "--json"],
        &cache,
    );
    assert_eq!(out.status.code(), Some(0));
    let value = json(&out);
    let boards = value["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 2);
    assert!(boards[0]["distance"].is_null(), "no exact length past 4x4");
    assert!(boards[0]["lower_bound"].as_u64().unwrap() > 0);
    assert_eq!(boards[0]["tiles"].as_array().unwrap().len(), 36);
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn generate_refuses_bad_requests_with_exit_2() {
    let cache = fresh_cache("generate-bad");
    for (args, message) in [
        (
            vec!["--size", "4", "--distance", "81"],
            "the farthest are 80",
        ),
        (
            vec!["--size", "3", "--distance", "32"],
            "the farthest are 31",
        ),
        (vec!["--size", "5", "--distance", "10"], "up to 16 cells"),
        (vec!["--size", "1x4"], "too small"),
        (vec!["--size", "four"], "not a shape"),
        (vec!["--size", "4", "--timeout", "0"], "--timeout takes"),
        (
            vec!["--size", "4", "--threads", "0"],
            "--threads takes 1 or more",
        ),
    ] {
        let mut all = vec!["generate"];
        all.extend(args);
        let out = npuzzle_fresh(&all, &cache);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(message), "{all:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
    let _ = std::fs::remove_dir_all(&cache);
}

/// The repository's benchmark files.
fn benchmark(name: &str) -> String {
    let path = std::path::Path::new(&crate::manifest_dir())
        .join("../../benchmarks")
        .join(name);
    assert!(path.is_file(), "{} is missing", path.display());
    path.to_str().unwrap().to_string()
}

#[test]
fn bench_checks_each_length_and_exits_4_on_a_wrong_one() {
    let cache = fresh_cache("bench");
    // The course's seed boards and the two hardest 8-puzzles, with their published lengths.
    let good = "a 3 1 0 3 4 2 5 7 8 6\nb 11 1 0 2 7 5 4 8 6 3\nc 31 8 6 7 2 5 4 3 0 1\nd 31 6 4 7 8 5 0 3 2 1\n";
    let file = cache.join("good.txt");
    std::fs::write(&file, good).unwrap();
    let out = npuzzle_fresh(&["bench", file.to_str().unwrap(), "--json"], &cache);
    assert_succeeded(&out);
    let report = json(&out);
    assert_eq!(
        report["algorithm"], "astar",
        "the method solve picks for 3x3"
    );
    let lengths: Vec<u64> = report["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["length"].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [3, 11, 31, 31]);
    // One length wrong: exit 4, named on stderr.
    let bad = cache.join("bad.txt");
    std::fs::write(&bad, good.replace("b 11", "b 13")).unwrap();
    let out = npuzzle_fresh(&["bench", bad.to_str().unwrap()], &cache);
    assert_eq!(out.status.code(), Some(4));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("LENGTH MISMATCH on instance b: found 11 moves, the file says 13"),
        "{stderr}"
    );
    // IDA* asked for by name agrees.
    let out = npuzzle_fresh(
        &[
            "bench",
            file.to_str().unwrap(),
            "--algorithm",
            "idastar",
            "--json",
        ],
        &cache,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["algorithm"], "idastar");
    // A broken file: exit 2 with the line and column.
    std::fs::write(&bad, "a 3 1 0 3 4 2 5 7 8 x\n").unwrap();
    let out = npuzzle_fresh(&["bench", bad.to_str().unwrap()], &cache);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("line 1, column 21")
    );
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn bench_compares_with_reference_lengths_and_accepts_unknown_optima() {
    let cache = fresh_cache("bench-reference");
    // `id optimal reference tiles…`: a (optimal unknown) has a reference of 5, b one of 11.
    let text = "a 0 5 1 0 3 4 2 5 7 8 6\nb 11 11 1 0 2 7 5 4 8 6 3\n";
    let file = cache.join("reference.txt");
    std::fs::write(&file, text).unwrap();
    let out = npuzzle_fresh(&["bench", file.to_str().unwrap(), "--json"], &cache);
    assert_succeeded(&out);
    let report = json(&out);
    let lengths: Vec<f64> = report["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["length"].as_f64().unwrap())
        .collect();
    let against = &report["vs_reference"];
    assert_eq!(against["instances"], 2);
    let mean = (lengths[0] / 5.0 + lengths[1] / 11.0) / 2.0;
    assert!((against["mean_ratio"].as_f64().unwrap() - mean).abs() < 1e-9);
    let of_means = (lengths[0] + lengths[1]) / 16.0;
    assert!((against["ratio_of_means"].as_f64().unwrap() - of_means).abs() < 1e-9);
    // Only b claims an optimal length.
    assert_eq!(report["vs_optimal"]["instances"], 1);
    // A claimed optimal length that the solver beats is still a mismatch.
    std::fs::write(&file, text.replace("b 11 11", "b 13 11")).unwrap();
    let out = npuzzle_fresh(&["bench", file.to_str().unwrap()], &cache);
    assert_eq!(out.status.code(), Some(4));
    // A DeepCubeA 6x6 state: no optimal known, so a non-optimal solution is no mismatch.
    let out = npuzzle_fresh(
        &[
            "bench",
            &benchmark("deepcubea35.txt"),
            "--limit",
            "1",
            "--time",
            "0.2",
            "--json",
        ],
        &cache,
    );
    assert_eq!(out.status.code(), Some(0));
    let report = json(&out);
    let instance = &report["instances"][0];
    let (length, reference) = (
        instance["length"].as_f64().unwrap(),
        instance["reference"].as_f64().unwrap(),
    );
    assert!(instance["lower_bound"].as_f64().unwrap() <= length);
    assert!(
        (report["vs_reference"]["mean_ratio"].as_f64().unwrap() - length / reference).abs() < 1e-9
    );
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn bench_solves_easy_korf_instances_with_tables_built_on_the_way() {
    let cache = fresh_cache("bench-korf");
    let out = npuzzle_fresh(
        &[
            "bench",
            &benchmark("korf15.txt"),
            "--partition",
            "5-5-5",
            "--max-length",
            "45",
            "--threads",
            "1",
            "--json",
        ],
        &cache,
    );
    assert_succeeded(&out);
    let report = json(&out);
    assert_eq!(report["tables"], "5-5-5");
    let instances = report["instances"].as_array().unwrap();
    assert!(instances.len() >= 2);
    assert!(instances.iter().all(|i| i["length"] == i["expected"]));
    assert!(
        cache.join("npuzzle/4x4-5-5-5.pdb").is_file(),
        "cached for next time"
    );
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn pdb_build_caches_a_valid_file_once_and_rebuilds_a_damaged_one() {
    let cache = fresh_cache("pdb-build");
    let dir = cache.join("tables");
    let dir_arg = dir.to_str().unwrap();
    let out = npuzzle_fresh(&["pdb", "build", "3x4", "--pdb-dir", dir_arg], &cache);
    assert_succeeded(&out);
    let path = dir.join("3x4-6-5.pdb");
    let bytes = std::fs::read(&path).unwrap();
    // 12!/6! + 12!/7! entries at 4 bits, and a header.
    assert!(bytes.len() as u64 > (665_280 + 95_040) / 2);
    let out = npuzzle_fresh(&["pdb", "build", "3x4", "--pdb-dir", dir_arg], &cache);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("is built and valid")
    );
    // A flipped byte: the file is not trusted and is built again, the same.
    let mut damaged = bytes.clone();
    damaged[bytes.len() / 2] ^= 0x40;
    std::fs::write(&path, damaged).unwrap();
    let out = npuzzle_fresh(&["pdb", "build", "3x4", "--pdb-dir", dir_arg], &cache);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    for (args, message) in [
        (vec!["pdb", "build", "6x6"], "have no pattern databases"),
        (
            vec!["pdb", "build", "4x4", "--partition", "9-6"],
            "no partition '9-6'",
        ),
        (
            vec!["pdb", "build", "4x4", "--threads", "0"],
            "--threads takes 1 or more",
        ),
    ] {
        let out = npuzzle_fresh(&args, &cache);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn the_slash_form_is_read_from_files_standard_input_and_the_argument() {
    let board = "8 2 0/4 6 1/3 7 5";
    let from_stdin = npuzzle(&["solve", "-", "--json"], board);
    assert_succeeded(&from_stdin);
    let from_argument = npuzzle(&["solve", board, "--json"], "");
    assert_succeeded(&from_argument);
    let from_lines = npuzzle(&["solve", "-", "--json"], "8 2 0/\n4 6 1/\n3 7 5\n");
    assert_succeeded(&from_lines);
    for out in [&from_stdin, &from_argument, &from_lines] {
        assert_eq!(
            json(out)["tiles"],
            serde_json::json!([8, 2, 0, 4, 6, 1, 3, 7, 5])
        );
        assert_eq!(json(out)["length"], 24);
    }
    let analysed = npuzzle(&["analyze", "1 2 3/4 5 6/7 0 8"], "");
    assert_succeeded(&analysed);
}

#[test]
fn slidy_notation_names_the_tiles_with_repeat_counts() {
    // The tile right of the gap moves left: `L`, where the gap's letter is R.
    let out = npuzzle(&["solve", "1 2 3/4 5 6/7 0 8", "--notation", "slidy"], "");
    assert_succeeded(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Solution:    L\n"), "{text}");
    // The default stays the gap's letters; the JSON's moves follow the notation asked for.
    let board = "1 2 3/4 5 6/0 7 8";
    let gap = json(&npuzzle(&["solve", board, "--json"], ""));
    assert_eq!(gap["moves"], "RR");
    let slidy = json(&npuzzle(
        &["solve", board, "--json", "--notation", "slidy"],
        "",
    ));
    assert_eq!(slidy["moves"], "L2");
    assert_eq!(slidy["length"], 2);
    let moves = npuzzle::parse_tile_moves(slidy["moves"].as_str().unwrap()).unwrap();
    let mut replay = npuzzle::parse_board(board).unwrap();
    replay.apply_all(&moves).unwrap();
    assert!(replay.is_goal());
    // Step by step, each step's letter in the notation asked for.
    let out = npuzzle(&["solve", board, "--show", "--notation", "slidy"], "");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("2. L\n1 2 3\n4 5 6\n7 8 0"), "{text}");
}

#[test]
fn bad_slash_boards_and_notations_exit_2_with_line_and_column() {
    for (board, wanted) in [
        (
            "8 2 0/4 6 1/3 7",
            "line 1, column 16: row 3 has 2 numbers, expected 3",
        ),
        (
            "8 2 0/4 6 1/3 7 8",
            "line 1, column 17: tile 8 appears twice",
        ),
        (
            "8 2 0/4 6 1\n3 7 x",
            "line 2, column 5: 'x' is not a number",
        ),
        ("8 2 0//4 6 1/3 7 5", "line 1, column 7: an empty row"),
    ] {
        let out = npuzzle(&["solve", "-"], board);
        assert_eq!(out.status.code(), Some(2), "{board}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(wanted), "{board}: {stderr}");
    }
    let out = npuzzle(&["solve", "8 2 0/4 6 1/3 7"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("read as a board") && stderr.contains("column 16"),
        "{stderr}"
    );
    let out = npuzzle(
        &["solve", "-", "--notation", "tiles"],
        "1 0 3 / 4 2 5 / 7 8 6",
    );
    assert_eq!(out.status.code(), Some(2), "an unknown notation");
}

#[test]
fn big_cached_tables_never_eat_a_short_budget() {
    // The 4x4 7-8 tables in the cache, as the loader sees them before it opens the file: a
    // file of their size (sparse, so it costs no disk; its contents are not valid tables).
    let cache = fresh_cache("big-tables");
    std::fs::create_dir_all(cache.join("npuzzle")).unwrap();
    let shape = npuzzle::Shape::new(4, 4).unwrap();
    let bytes = npuzzle::Partition::standard(shape, "7-8")
        .unwrap()
        .table_bytes();
    let file = std::fs::File::create(cache.join("npuzzle/4x4-7-8.pdb")).unwrap();
    file.set_len(bytes).unwrap();
    drop(file);
    let start = npuzzle::random::shuffled(npuzzle::Shape::new(9, 9).unwrap(), 2000, 7);
    let solve = |time: &str| {
        let mut command = npuzzle_command();
        command
            .env("XDG_CACHE_HOME", &cache)
            .args(["solve", "-", "--time", time, "--json"]);
        run(&mut command, &start.to_string())
    };
    // A fifth of a second has no room for loading 288 MB: the 9x9 is solved without them.
    let short = solve("0.2");
    assert_succeeded(&short);
    let value = json(&short);
    assert_eq!(value["ended"], "deadline", "{value}");
    let moves = npuzzle::moves_from_str(value["moves"].as_str().unwrap()).unwrap();
    let mut replay = start.clone();
    replay.apply_all(&moves).unwrap();
    assert!(replay.is_goal());
    // With a minute, the file is opened (and, not being valid tables, refused): the tables
    // are passed over for the budget, not ignored.
    let long = solve("60");
    assert_eq!(long.status.code(), Some(2));
    let stderr = String::from_utf8(long.stderr).unwrap();
    assert!(stderr.contains("4x4-7-8.pdb"), "{stderr}");
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn mtm_solutions_are_shortest_in_multi_tile_moves() {
    // The blank goes left twice and up twice: 4 tiles moved, 2 multi-tile moves.
    let board = "1 2 3/4 0 5/7 8 6";
    let stm = json(&npuzzle(&["solve", board, "--json"], ""));
    let mtm = json(&npuzzle(&["solve", board, "--json", "--metric", "mtm"], ""));
    assert_eq!(stm["length"], 2);
    assert_eq!(mtm["length"], 2);
    let board = "1 2 3/4 5 6/0 7 8";
    let mtm = json(&npuzzle(&["solve", board, "--json", "--metric", "mtm"], ""));
    assert_eq!(
        (mtm["length"].as_u64(), mtm["metric"].as_str()),
        (Some(1), Some("mtm"))
    );
    assert_eq!(
        mtm["moves"], "RR",
        "the moves stay one letter a tile in the gap notation"
    );
    let slidy = json(&npuzzle(
        &[
            "solve",
            board,
            "--json",
            "--metric",
            "mtm",
            "--notation",
            "slidy",
        ],
        "",
    ));
    assert_eq!(slidy["moves"], "L2");
    // The 8-puzzle's board from the issue: 24 single-tile moves, 18 multi-tile.
    let out = npuzzle(&["solve", "8 2 0/4 6 1/3 7 5", "--metric", "mtm"], "");
    assert_succeeded(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Length:      18 moves (MTM; 24 tiles moved)"),
        "{text}"
    );
}

#[test]
fn an_mtm_table_build_shows_its_progress_on_standard_error() {
    // 3x4's two tables (4 M entries each) build in about a second, each time (they are not
    // cached): off a terminal, a line at each tenth of a table reached and one when it is built.
    let out = npuzzle(
        &["solve", "1 2 3/4 5 6/7 8 9/10 0 11", "--metric", "mtm"],
        "",
    );
    assert_succeeded(&out);
    let stderr = String::from_utf8(out.stderr).unwrap();
    for line in [
        "table 1: ",
        "% of the entries",
        "table 1 built in",
        "table 2 built in",
    ] {
        assert!(stderr.contains(line), "{line:?} in {stderr}");
    }
}

#[test]
fn mtm_refuses_other_sizes_and_unknown_metrics_with_exit_2() {
    let five = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 0 24";
    let out = npuzzle(&["solve", five, "--metric", "mtm"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("for 3x3, 3x4, 4x3 and 4x4 boards, not 5x5"),
        "{stderr}"
    );
    let out = npuzzle(&["solve", "1 2 3/4 5 6/7 0 8", "--metric", "htm"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = npuzzle(
        &["solve", "1 2 3/4 5 6/7 0 8", "--metric", "mtm", "--fast"],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "MTM solving is optimal only");
}

#[test]
fn bench_in_mtm_checks_the_files_lengths_as_multi_tile_lengths() {
    let path = std::env::temp_dir().join(format!("npuzzle-cli-mtm-{}.txt", std::process::id()));
    // 18 in MTM (24 in STM), and 1 (2 in STM).
    std::fs::write(&path, "a 18 8 2 0/4 6 1/3 7 5\nb 1 1 2 3/4 5 6/0 7 8\n").unwrap();
    let file = path.to_str().unwrap();
    let out = npuzzle(&["bench", file, "--metric", "mtm", "--json"], "");
    assert_succeeded(&out);
    let report = json(&out);
    assert_eq!(report["metric"], "mtm");
    let lengths: Vec<_> = (report["instances"].as_array().unwrap().iter())
        .map(|i| i["length"].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [18, 1]);
    // Read as single-tile lengths, the same file disagrees: exit 4.
    let out = npuzzle(&["bench", file, "--json"], "");
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(4));
}

#[test]
fn analyze_gives_both_distances_on_3x3() {
    let out = npuzzle(&["analyze", "8 2 0/4 6 1/3 7 5", "--json"], "");
    assert_succeeded(&out);
    let value = json(&out);
    assert_eq!(
        (
            value["distance_stm"].as_u64(),
            value["distance_mtm"].as_u64()
        ),
        (Some(24), Some(18))
    );
    let text = String::from_utf8(npuzzle(&["analyze", "8 2 0/4 6 1/3 7 5"], "").stdout).unwrap();
    assert!(
        text.contains("Distance:    24 moves (STM), 18 (MTM)"),
        "{text}"
    );
    // Not proved at once on larger boards: not given.
    let value = json(&npuzzle(
        &["analyze", "-", "--json"],
        "12 1 10 2 / 7 11 4 14 / 5 0 9 15 / 8 13 6 3",
    ));
    assert!(value.get("distance_mtm").is_none(), "{value}");
}
