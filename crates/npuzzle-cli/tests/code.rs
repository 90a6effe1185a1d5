//! `npuzzle code` as a user runs it: codes made from a board and its solve, opened again as
//! text and JSON, and every code the app would refuse refused with exit 2 and a sentence.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

/// A scratch folder of a test's own, which the command gets as its cache; removed after.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for Scratch {
    type Target = PathBuf;

    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("npuzzle-code-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// Runs `npuzzle` with `stdin` and a fresh cache folder.
fn npuzzle(args: &[&str], stdin: &str, cache: &PathBuf) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_npuzzle"));
    common::run(command.args(args).env("XDG_CACHE_HOME", cache), stdin)
}

fn stdout(output: &Output) -> String {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The 8-puzzle `npuzzle solve` solves in DRDLLURURDD, as it reads it.
const BOARD: &str = "3\n1 0 2\n7 5 4\n8 6 3\n";
const SOLUTION: &str = "DRDLLURURDD";

/// The code of BOARD solved in SOLUTION with `time` arguments.
fn encode(time: &[&str], cache: &PathBuf) -> String {
    let mut args = vec!["code", "encode", "-", "--moves", SOLUTION];
    args.extend(time);
    stdout(&npuzzle(&args, BOARD, cache)).trim().to_string()
}

#[test]
fn a_code_made_from_a_solve_opens_as_that_solve() {
    let cache = scratch("round-trip");
    let solved = npuzzle(&["solve", "-", "--json"], BOARD, &cache);
    let solution: serde_json::Value = serde_json::from_str(&stdout(&solved)).unwrap();
    assert_eq!(solution["moves"], SOLUTION, "the notation solve prints");
    let code = encode(&["--time-ms", "4321"], &cache);
    let opened = npuzzle(&["code", "decode", &code, "--json"], "", &cache);
    let value: serde_json::Value = serde_json::from_str(&stdout(&opened)).unwrap();
    assert_eq!(
        value,
        serde_json::json!({
            "width": 3, "height": 3, "tiles": [1, 0, 2, 7, 5, 4, 8, 6, 3],
            "moves": SOLUTION, "time_ms": 4321,
        })
    );
    let text = stdout(&npuzzle(&["code", "decode", &code], "", &cache));
    assert!(text.contains("1 0 2\n7 5 4\n8 6 3\n"), "{text}");
    assert!(
        text.contains(&format!("Moves:       {SOLUTION} (11 moves)")),
        "{text}"
    );
    assert!(text.contains("Time:        4321 ms"), "{text}");
    assert!(!text.contains("Move times"), "{text}");
}

#[test]
fn move_times_are_kept_and_the_total_defaults_to_the_last() {
    let cache = scratch("times");
    let times = "0,300,650,900,1400,1800,2100,2600,3000,3300,3900";
    let code = encode(&["--times-ms", times], &cache);
    let link = format!("snapslide://c/{}", code.to_lowercase());
    let opened = npuzzle(&["code", "decode", "-", "--json"], &link, &cache);
    let value: serde_json::Value = serde_json::from_str(&stdout(&opened)).unwrap();
    assert_eq!(value["time_ms"], 3900);
    let parsed: Vec<u64> = times.split(',').map(|t| t.parse().unwrap()).collect();
    assert_eq!(value["times_ms"], serde_json::json!(parsed));
    let total = encode(&["--times-ms", times, "--time-ms", "4500"], &cache);
    let text = stdout(&npuzzle(&["code", "decode", &total], "", &cache));
    assert!(text.contains("Time:        4500 ms"), "{text}");
    assert!(text.contains(&format!("Move times:  {times} ms")), "{text}");
}

/// Asserts exit 2 with one sentence on standard error that contains `words`, and no output.
fn assert_refused(output: &Output, words: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(stderr.contains(words), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn every_code_the_app_would_refuse_exits_2_with_its_reason() {
    let cache = scratch("refused");
    let code = encode(&["--time-ms", "4321"], &cache);
    let changed = format!(
        "{}{}",
        &code[..5],
        if &code[5..6] == "7" { "8" } else { "7" }
    );
    let changed = changed + &code[6..];
    let long = "A".repeat(100_000);
    // Made by the codec's own field writer, with good checks: what a forger could send.
    let cases = [
        (changed.as_str(), "damaged: check that it was copied whole"),
        (&code[..code.len() - 2], "damaged"),
        ("", "no challenge code here"),
        (long.as_str(), "far too long"),
        ("4SJMFVGPHFT3E4H4KV", "can never be solved"),
        ("4SHD3VGE5Z81ME8CP1", "moves do not solve its board"),
        ("4H4TG8H248H247J2A24V7K", "faster than any person"),
        (
            "6CG4QC1FMMMMH120N8EM5S91H410FE7EBNVT2NXR0V175SEDMN6H0NX1J4D5KYS4GEYKT6DPQ4R88FJQBGSG001ME42HT",
            "9×9 board",
        ),
    ];
    for (code, words) in cases {
        assert_refused(&npuzzle(&["code", "decode", code], "", &cache), words);
        assert_refused(
            &npuzzle(&["code", "decode", "-", "--json"], code, &cache),
            words,
        );
    }
    assert_refused(
        &npuzzle(&["code", "decode", "-"], "\u{1}\u{ff}", &cache),
        "damaged",
    );
}

#[test]
fn a_solve_that_is_not_one_is_refused_when_encoded() {
    let cache = scratch("encode");
    let run = |moves: &str, time: &[&str]| {
        let mut args = vec!["code", "encode", "-", "--moves", moves];
        args.extend(time);
        npuzzle(&args, BOARD, &cache)
    };
    assert_refused(
        &run("DRDLLURURD", &["--time-ms", "4000"]),
        "moves do not solve",
    );
    assert_refused(
        &run("U", &["--time-ms", "4000"]),
        "Move 1 of this challenge slides off",
    );
    assert_refused(&run("DRX", &["--time-ms", "4000"]), "U, D, L and R");
    assert_refused(&run(SOLUTION, &[]), "--time-ms");
    assert_refused(
        &run(SOLUTION, &["--time-ms", "300"]),
        "faster than any person",
    );
    assert_refused(
        &run(SOLUTION, &["--times-ms", "0,1,2"]),
        "times do not add up",
    );
}

#[test]
fn slidy_notation_reads_and_writes_the_same_moves() {
    let cache = scratch("slidy");
    let solved = npuzzle(
        &["solve", "-", "--json", "--notation", "slidy"],
        BOARD,
        &cache,
    );
    let solution: serde_json::Value = serde_json::from_str(&stdout(&solved)).unwrap();
    let slidy = solution["moves"].as_str().unwrap().to_string();
    assert_ne!(slidy, SOLUTION);
    let args = [
        "code",
        "encode",
        "-",
        "--moves",
        &slidy,
        "--notation",
        "slidy",
        "--time-ms",
        "4321",
    ];
    let code = stdout(&npuzzle(&args, BOARD, &cache)).trim().to_string();
    assert_eq!(
        code,
        encode(&["--time-ms", "4321"], &cache),
        "the same solve"
    );
    let args = ["code", "decode", &code, "--json", "--notation", "slidy"];
    let value: serde_json::Value =
        serde_json::from_str(&stdout(&npuzzle(&args, "", &cache))).unwrap();
    assert_eq!(value["moves"], slidy.as_str());
    let args = [
        "code",
        "encode",
        "-",
        "--moves",
        "R0",
        "--notation",
        "slidy",
        "--time-ms",
        "9",
    ];
    assert_refused(&npuzzle(&args, BOARD, &cache), "repeat count of 0");
}
