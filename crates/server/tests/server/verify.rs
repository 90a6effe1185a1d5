//! `snapslide-server verify`: an export of real solves holds; each kind of tampering is named.

use crate::support::*;
use snapslide_server::date::format_date;
use snapslide_server::export::{Export, to_csv};
use snapslide_server::ranking::{RankedResult, rank_in_place};
use snapslide_server::verify::differences;

/// A day's export of three real solves of today's daily, as the server ranks them.
fn export() -> Export {
    let (daily, _) = daily_and_solution(today());
    let mut results: Vec<RankedResult> = [("Ann", 0, 31), ("Bob", 1, 32), ("Cy", 2, 33)]
        .into_iter()
        .map(|(name, detours, seed)| {
            let code = solve_of_today(detours, seed);
            let solve = challenge::decode(&code).unwrap();
            RankedResult {
                rank: 0,
                name: name.into(),
                moves: solve.moves().len() as u64,
                optimal: 36,
                time_ms: solve.time_ms(),
                code,
            }
        })
        .collect();
    rank_in_place(&mut results);
    Export {
        date: format_date(today()),
        width: 4,
        height: 4,
        tiles: daily.board.tiles().to_vec(),
        optimal: 36,
        results,
    }
}

#[test]
fn an_honest_export_holds() {
    assert_eq!(differences(&export(), &options()), Vec::<String>::new());
}

#[test]
fn each_tampering_is_named() {
    let tamper = |change: &dyn Fn(&mut Export)| {
        let mut export = export();
        change(&mut export);
        differences(&export, &options())
    };
    let faster = tamper(&|e| e.results[2].time_ms = 1_000);
    assert!(
        faster
            .iter()
            .any(|d| d.contains("row 3") && d.contains("time_ms says 1000, its code holds")),
        "{faster:?}"
    );
    let swapped = tamper(&|e| e.results.swap(0, 1));
    assert!(
        swapped.iter().any(|d| d.contains("the ranking puts")),
        "{swapped:?}"
    );
    let ranked = tamper(&|e| e.results[1].rank = 1);
    assert!(
        ranked
            .iter()
            .any(|d| d.contains("rank says 1, its time and moves place it 2")),
        "{ranked:?}"
    );
    let damaged = tamper(&|e| e.results[0].code.replace_range(10..11, "0"));
    assert!(
        damaged
            .iter()
            .any(|d| d.starts_with("row 1 (") && d.contains("its code is refused")),
        "{damaged:?}"
    );
    let twice = tamper(&|e| e.results[1].code = e.results[0].code.clone());
    assert!(
        twice.iter().any(|d| d.contains("the same solve as row 1")),
        "{twice:?}"
    );
    let board = tamper(&|e| e.tiles.swap(0, 1));
    assert!(
        board.iter().any(|d| d.contains("not the daily")),
        "{board:?}"
    );
    let moved = tamper(&|e| e.date = format_date(today() - 1));
    assert!(
        moved.iter().all(|d| !d.is_empty()) && moved.len() >= 3,
        "{moved:?}"
    );
}

#[test]
fn the_command_verifies_a_file_and_says_what_differs() {
    let scratch = Scratch::new("verify");
    let server = env!("CARGO_BIN_EXE_snapslide-server");
    let json = scratch.0.join("board.json");
    std::fs::write(&json, serde_json::to_string(&export()).unwrap()).unwrap();
    let csv = scratch.0.join("board.csv");
    std::fs::write(&csv, to_csv(&export())).unwrap();
    for file in [&json, &csv] {
        let run = std::process::Command::new(server)
            .arg("verify")
            .arg(file)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&run.stdout);
        assert!(run.status.success(), "{said}");
        assert!(said.contains("3 results, every code replayed"), "{said}");
    }
    let mut forged = export();
    forged.results[0].moves = 30;
    std::fs::write(&json, serde_json::to_string(&forged).unwrap()).unwrap();
    let run = std::process::Command::new(server)
        .arg("verify")
        .arg(&json)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{said}");
    assert!(said.contains("moves says 30"), "{said}");
}
