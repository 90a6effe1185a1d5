//! The solve history to CSV and back, as the app's export and import do it (issue 70): every
//! kind of solve the app records (played here through `Game`, as the app plays them) comes
//! back as it was, a file imported twice adds nothing the second time, and what no person
//! could have played is refused at its line.

use std::time::Duration;

use npuzzle::{Board, Move, mtm_length};
use snapslide_game::event::{Event, Run};
use snapslide_game::solves::{Ending, Mode, Solve};
use snapslide_game::solves_csv::{
    ImportError, NewSolves, Problem, count_solves, export_csv, import_csv, new_solves,
};
use snapslide_game::stats::{Metric, StatsReport};
use snapslide_game::{Difficulty, Game, GameKind, PhotoSource};

/// The clock of the device importing: 2030-01-01T00:00:00Z.
const NOW: i64 = 1_893_456_000_000;

/// A board `steps` legal gap moves from solved (picked by a seed, never straight back), and
/// the moves that solve it.
fn scrambled(width: usize, height: usize, steps: usize, seed: u64) -> (Board, Vec<Move>) {
    let mut board = Board::goal(width, height).unwrap();
    let (mut state, mut made) = (seed, Vec::<Move>::new());
    while made.len() < steps {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        let mv = Move::ALL[(state >> 33) as usize % 4];
        if made.last().is_some_and(|&last| last == mv.inverse()) {
            continue;
        }
        if board.apply(mv) {
            made.push(mv);
        }
    }
    (board, made.iter().rev().map(|mv| mv.inverse()).collect())
}

/// Plays `moves`, one every `step_ms`.
fn play(game: &mut Game, moves: &[Move], step_ms: u64) {
    for &mv in moves {
        game.tick(Duration::from_millis(step_ms));
        game.apply(&[mv]);
    }
}

/// A run of `event` played to its end, each board solved (or, with `give_up`, the last one
/// left halfway): the solve the app records.
fn run(event: Event, give_up: bool, at: i64) -> Solve {
    let mut run = Run::start(event);
    let mut before: Option<Game> = None;
    loop {
        let (width, height) = run.shape();
        let (start, moves) = scrambled(width, height, 10 + 4 * run.leg, run.leg as u64);
        let elapsed = before.as_ref().map_or(Duration::ZERO, Game::elapsed);
        let mut game = Game::leg(start, run, elapsed);
        if let Some(before) = &before {
            game.go_on_from(before);
        }
        let last = run.is_last_leg();
        let moves = match give_up && last {
            true => &moves[..moves.len() / 2],
            false => &moves[..],
        };
        play(&mut game, moves, 310);
        if last {
            return Solve::from_game(&game, at, &PhotoSource::Bundled("chelsea.png".into()));
        }
        assert!(game.board().is_goal(), "leg {} solved", run.leg);
        let mtm = mtm_length(&game.history_in_effect());
        run = run.next(game.moves(), mtm, game.helped());
        before = Some(game);
    }
}

/// A one-board game of `kind` played: solved, or given up halfway; helped or not.
fn single(kind: GameKind, (give_up, helped): (bool, bool), seed: u64, at: i64) -> Solve {
    let (start, moves) = scrambled(4, 4, 30, seed);
    let mut game = Game::new(start, kind);
    if helped {
        game.mark_helped();
    }
    let moves = match give_up {
        true => &moves[..11],
        false => &moves[..],
    };
    play(&mut game, moves, 250);
    Solve::from_game(&game, at, &PhotoSource::Picked("/data/photo.jpg".into()))
}

/// A blind solve: the board solved, or said done one move short (a DNF).
fn blind(short: bool, at: i64) -> Solve {
    let (start, moves) = scrambled(3, 3, 14, 7);
    let event = Event::Blind {
        width: 3,
        height: 3,
    };
    let mut game = Game::leg(start, Run::start(event), Duration::ZERO);
    play(&mut game, &moves[..moves.len() - usize::from(short)], 400);
    assert!(game.declare());
    Solve::from_game(&game, at, &PhotoSource::Bundled("cat.png".into()))
}

/// A history holding every kind of solve the app records, and one imported with its counts
/// only (no MTM), oldest first.
fn every_kind() -> Vec<Solve> {
    let at = |n: i64| 1_796_463_093_365 + n * 60_000;
    let marathon = Event::Marathon {
        width: 3,
        height: 3,
        count: 3,
    };
    let relay = Event::Relay { up_to: 5 };
    let counts_only = "finished_at,size,mode,result,time_ms,moves\n\
                       2026-12-05T12:00:00.000Z,4x4,random,solved,14210,57\n";
    let mut solves = vec![
        single(
            GameKind::Shuffled(Difficulty::Random),
            (false, false),
            1,
            at(0),
        ),
        single(GameKind::Daily(20_792), (false, false), 2, at(1)),
        run(marathon, false, at(2)),
        run(relay, false, at(3)),
        blind(false, at(4)),
        blind(true, at(5)),
        single(
            GameKind::Shuffled(Difficulty::Random),
            (true, false),
            3,
            at(6),
        ),
        single(
            GameKind::Shuffled(Difficulty::Random),
            (false, true),
            4,
            at(7),
        ),
        run(relay, true, at(8)),
        single(GameKind::Custom, (false, false), 5, at(9)),
    ];
    solves.extend(import_csv(counts_only, NOW).unwrap());
    solves
}

#[test]
fn every_kind_of_solve_exports_and_imports_back_as_it_was() {
    let history = every_kind();
    // What the history holds: each mode, both endings, help, and a relay whose moves are
    // its five boards' while its times are its last board's (play-test 70's line 33).
    let modes: Vec<String> = history.iter().map(|s| s.mode.to_string()).collect();
    assert_eq!(
        modes,
        [
            "random",
            "daily-20792",
            "marathon-3-3x3",
            "relay-5",
            "blind-3x3",
            "blind-3x3",
            "random",
            "random",
            "relay-5",
            "custom",
            "random"
        ]
    );
    let endings: Vec<bool> = history.iter().map(|s| s.result == Ending::Dnf).collect();
    assert_eq!(
        endings,
        [
            false, false, false, false, false, true, true, false, true, false, false
        ]
    );
    assert!(history[7].helped && !history[6].helped);
    let relay = &history[3];
    assert!(relay.is_run() && relay.times_ms.len() == relay.moves.len());
    assert!(
        relay.stm() > relay.moves.len(),
        "the relay's moves are its boards'"
    );
    assert_eq!(
        relay.legs.len(),
        2,
        "the boards before its last, to watch it again"
    );
    let given_up = &history[8];
    assert_eq!(given_up.legs.len(), 2, "a relay given up on its last board");

    let text = export_csv(&history);
    let back = import_csv(&text, NOW).expect("the app's own export imports");
    let into_empty = new_solves(&[], back);
    assert_eq!(into_empty.already_there, 0);
    assert!(into_empty.added == history, "every solve back as it was");
    assert_eq!(export_csv(&into_empty.added), text, "the same file again");
}

#[test]
fn a_relay_row_has_the_runs_counts_and_its_last_boards_moves_and_times() {
    let relay = run(Event::Relay { up_to: 4 }, false, 1_796_463_093_365);
    let text = export_csv(std::slice::from_ref(&relay));
    let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
    let (moves, mtm) = (relay.stm().to_string(), relay.mtm().to_string());
    assert_eq!(
        (row[1], row[2], row[5], row[6]),
        ("4x4", "relay-4", &*moves, &*mtm)
    );
    let last_board = Board::new(4, 4, relay.start.clone()).unwrap();
    assert_eq!(row[7], npuzzle::notation::format_board(&last_board));
    let solution = npuzzle::moves_from_str(&relay.moves).unwrap();
    assert_eq!(row[8], npuzzle::notation::format_tile_moves(&solution));
    assert_eq!(row[12].split(' ').count(), relay.moves.len());
    assert_eq!(import_csv(&text, NOW).unwrap(), [relay]);
}

/// A relay row as the version play-tested in issue 70 wrote it: the run's counts, the last
/// board's scramble and times, and no solution.
const OLD_RELAY_ROW: &str = "2026-12-05T09:31:33.365Z,5x5,relay-5,solved,61234,78,60,\
    2 3 4 5 10/1 7 8 9 15/6 12 13 14 20/11 17 18 19 0/16 21 22 23 24,,false,chelsea.png,,\
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 \
    33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51";

const FULL_HEADER: &str = "finished_at,size,mode,result,time_ms,moves,moves_mtm,scramble,\
    solution,helped,photo,shortest,times_ms";

#[test]
fn a_relay_exported_by_the_play_tested_version_imports_and_exports_the_same() {
    let text = format!("{FULL_HEADER}\n{OLD_RELAY_ROW}\n");
    let solves = import_csv(&text, NOW).expect("the old backup restores");
    let relay = &solves[0];
    assert_eq!((relay.stm(), relay.mtm().known()), (78, Some(60)));
    assert_eq!((relay.moves.as_str(), relay.times_ms.len()), ("", 52));
    // Exported again, the same row, with the column for a run's boards before its last empty.
    let again = format!("{FULL_HEADER},boards_before\n{OLD_RELAY_ROW},\n");
    assert_eq!(export_csv(&solves), again);
    // More times than the run has moves cannot be.
    let over = text.replace(",78,60,", ",50,40,");
    let refused = import_csv(&over, NOW).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "line 2: times_ms has 52 times for 50 moves"
    );
}

#[test]
fn a_relay_rows_last_board_must_fit_in_the_runs_counts() {
    let relay = run(Event::Relay { up_to: 4 }, false, 1_796_463_093_365);
    let text = export_csv(std::slice::from_ref(&relay));
    let kept = relay.moves.len();
    let counts = format!(",{},{},", relay.stm(), relay.mtm());
    let short = text.replacen(&counts, &format!(",{},,", kept - 1), 1);
    let refused = import_csv(&short, NOW).unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "line 2: moves is {} for the whole run, but the solution of its last board alone has {kept}",
            kept - 1
        )
    );
    let cut = |times: &str| {
        let mut fields: Vec<&str> = text.trim_end().split(',').collect();
        let at = fields.len() - 2;
        fields[at] = times;
        fields.join(",") + "\n"
    };
    let refused = import_csv(&cut("0 1"), NOW).unwrap_err();
    assert_eq!(
        refused,
        ImportError::Line {
            line: 2,
            problem: Problem::TimesCount {
                found: 2,
                moves: kept as u32
            }
        }
    );
}

#[test]
fn a_file_imported_twice_adds_nothing_the_second_time() {
    let history = every_kind();
    let text = export_csv(&history);
    let again = new_solves(&history, import_csv(&text, NOW).unwrap());
    assert_eq!((again.added.len(), again.already_there), (0, 11));
    assert_eq!(again.summary(), "0 solves added, 11 already there");
    // Three new among them: those are added, in the file's order.
    let mut more = history.clone();
    for n in 0..3 {
        let mut solve = history[n * 3].clone();
        solve.finished_at_ms += 1;
        more.push(solve);
    }
    let text = export_csv(&more);
    let new = new_solves(&history, import_csv(&text, NOW).unwrap());
    assert_eq!(new.summary(), "3 solves added, 11 already there");
    assert!(new.added == more[11..]);
    // A solve twice in the file is added once.
    let twice = new_solves(&[], vec![history[4].clone(), history[4].clone()]);
    assert_eq!(twice.summary(), "1 solve added, 1 already there");
    // Another board or other moves at the same time are another solve.
    let mut other = history[0].clone();
    other.moves.pop();
    other.times_ms.pop();
    assert_eq!(new_solves(&history, vec![other]).already_there, 0);
}

#[test]
fn the_count_of_solves_is_said_in_the_singular_for_one() {
    let said: Vec<String> = [0, 1, 2, 30].map(count_solves).to_vec();
    assert_eq!(said, ["0 solves", "1 solve", "2 solves", "30 solves"]);
    assert_eq!(NewSolves::default().summary(), "0 solves added");
}

/// A file of the six required columns with `rows`.
fn six(rows: &[&str]) -> String {
    let mut text = String::from("finished_at,size,mode,result,time_ms,moves\n");
    for row in rows {
        text += row;
        text.push('\n');
    }
    text
}

#[test]
fn a_solve_faster_than_a_person_is_refused_at_its_line() {
    let good = "2026-12-05T09:31:33.365Z,4x4,random,solved,14210,57";
    let fast = "2026-12-05T09:32:33.365Z,4x4,random,solved,100,79";
    let refused = import_csv(&six(&[good, fast, good]), NOW).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "line 3: 79 moves in 100 ms is faster than anyone plays: more than 30 slides a second"
    );
    // Without the MTM, the fewest slides: 79 moves of a 4x4 take 27 slides of 3 tiles at
    // least; 27 slides in 900 ms is 30 a second, and 1 ms less is over.
    let at_most = fast.replace(",100,", ",900,");
    import_csv(&six(&[&at_most]), NOW).expect("30 slides a second");
    let over = fast.replace(",100,", ",899,");
    assert!(import_csv(&six(&[&over]), NOW).is_err());
    // With the MTM, the slides are the MTM: 45 slides take 1.5 s.
    let header = "finished_at,size,mode,result,time_ms,moves,moves_mtm\n";
    let with_mtm =
        |ms: u32| format!("{header}2026-12-05T09:32:33.365Z,4x4,random,solved,{ms},79,45\n");
    import_csv(&with_mtm(1_500), NOW).expect("45 slides in 1.5 s");
    assert!(import_csv(&with_mtm(1_499), NOW).is_err());
    // Under 10 slides the pace is not judged: 9 moves of a 3x3 at once is a DNF given up.
    let few = "2026-12-05T09:31:33.365Z,3x3,random,dnf,0,18";
    import_csv(&six(&[few]), NOW).expect("9 slides at most");
    assert!(import_csv(&six(&[&few.replace(",18", ",19")]), NOW).is_err());
}

#[test]
fn a_solve_from_the_future_is_refused_at_its_line() {
    let row = |date: &str| format!("{date},4x4,random,solved,14210,57");
    let refused = import_csv(&six(&[&row("2099-01-01T00:00:00Z")]), NOW).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "line 2: finished_at is 2099-01-01T00:00:00Z, which has not come yet: a solve cannot end in the future"
    );
    // Another device's clock a day ahead is not the future.
    import_csv(&six(&[&row("2030-01-02T00:00:00Z")]), NOW).expect("a day ahead");
    let later = import_csv(&six(&[&row("2030-01-02T00:00:00.001Z")]), NOW);
    assert!(matches!(
        later,
        Err(ImportError::Line {
            line: 2,
            problem: Problem::InTheFuture(_)
        })
    ));
}

#[test]
fn a_missing_mtm_stays_unknown_in_the_list_and_the_statistics() {
    let text = six(&["2026-12-05T09:31:33.365Z,4x4,random,solved,14210,57"]);
    let imported = import_csv(&text, NOW).unwrap();
    assert_eq!(imported[0].mtm().known(), None);
    assert_eq!(
        format!("{} ({} MTM)", imported[0].stm(), imported[0].mtm()),
        "57 (– MTM)"
    );
    assert!(export_csv(&imported).contains(",57,,"), "exported unknown");
    // Its time and moves count; its MTM is left out, not taken as 57.
    let played = single(GameKind::Shuffled(Difficulty::Random), (false, false), 1, 0);
    let mtm = played.mtm().known().unwrap() as f64;
    let solves = [played, imported[0].clone()];
    let report = StatsReport::new(solves.iter().filter_map(Solve::attempt));
    let stats = report.categories.values().next().unwrap();
    assert_eq!(stats.solves, 2);
    let best = |metric| stats.figures(metric).single.best.value();
    assert_eq!(best(Metric::MovesMtm), Some(mtm));
    assert_eq!(stats.figures(Metric::MovesMtm).mean.value(), Some(mtm));
    assert_eq!(best(Metric::Moves), Some(30.0));
    let only_unknown = StatsReport::new(imported.iter().filter_map(Solve::attempt));
    let figures = only_unknown.categories.values().next().unwrap();
    assert!(
        figures
            .figures(Metric::MovesMtm)
            .single
            .best
            .is_not_enough()
    );
    assert_eq!(
        figures.figures(Metric::Moves).single.best.value(),
        Some(57.0)
    );
    assert_eq!(Mode::Shuffled(Difficulty::Random).boards(), 1);
}

#[test]
fn a_runs_boards_before_its_last_that_do_not_hold_together_are_refused_at_their_line() {
    let relay = run(Event::Relay { up_to: 5 }, false, 1_796_463_093_365);
    let text = export_csv(std::slice::from_ref(&relay));
    let row = text.lines().nth(1).unwrap();
    let boards = row.rsplit(',').next().unwrap();
    let refused = |boards_before: &str| {
        let bad = text.replace(boards, boards_before);
        import_csv(&bad, NOW).unwrap_err().to_string()
    };
    // The first board cut short: it no longer solves its scramble.
    let (first, rest) = boards.split_once(" ; ").unwrap();
    let parts: Vec<&str> = first.split(" | ").collect();
    let shorter = format!("{} | {} | {}", parts[0], &parts[1][..1], "0");
    let said = refused(&format!("{shorter} ; {rest}"));
    assert!(
        said.contains("line 2") && said.contains("board 1 of boards_before"),
        "{said}"
    );
    // A board left out: the boards no longer make the run's moves.
    let said = refused(rest);
    assert!(
        said.contains("boards_before and the solution have"),
        "{said}"
    );
    assert!(refused("1 2 | R").contains("board 1 of boards_before"));
}
