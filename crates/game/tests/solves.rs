//! The solve history: a finished game as a solve, its counts, its category, its record (the
//! history on disk, as the app reads and writes it, is tested with the app: tests/game.rs).

use std::time::Duration;

use npuzzle::{Move, parse_board};
use snapslide_game::solves::{Category, Ending, Mode, MoveCounts, Solve, YOUR_PHOTO, photo_name};
use snapslide_game::{Difficulty, Game, GameKind, PhotoSource};

/// A solve of a 3×3 board, `n` making it different from the others.
fn solve(n: i64) -> Solve {
    Solve {
        finished_at_ms: 1_764_900_000_000 + n,
        width: 3,
        height: 3,
        mode: Mode::Shuffled(Difficulty::Easy),
        start: vec![1, 2, 3, 4, 0, 5, 7, 8, 6],
        moves: "RD".into(),
        times_ms: vec![0, 350],
        time_ms: 350,
        result: Ending::Solved,
        helped: false,
        photo: "chelsea.png".into(),
        shortest: Some(2),
        counted: None,
        legs: Vec::new(),
    }
}

#[test]
fn a_finished_game_becomes_a_solve_with_each_moves_time() {
    let ms = Duration::from_millis;
    let start = parse_board("0 1 2 / 3 4 5 / 6 7 8").unwrap();
    let mut game = Game::with_shortest(start, Difficulty::Hard, 4);
    game.tap(2); // two tiles at 0
    game.tick(ms(400));
    game.apply(&[Move::Up]); // off the edge: nothing
    game.apply(&[Move::Down]); // at 400
    game.tick(ms(100));
    game.undo(); // not one of the moves
    game.tick(ms(250));
    game.apply(&[Move::Down]); // at 750
    let photo = PhotoSource::Picked("/data/photo.jpg".into());
    let dnf = Solve::from_game(&game, 42, &photo);
    assert_eq!(dnf.moves, "RRD");
    assert_eq!(dnf.times_ms, [0, 0, 750]);
    assert_eq!(
        (dnf.time_ms, dnf.result, dnf.photo.as_str()),
        (750, Ending::Dnf, YOUR_PHOTO)
    );
    assert_eq!((dnf.width, dnf.height, dnf.shortest), (3, 3, Some(4)));
    assert_eq!(dnf.start, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(dnf.mode, Mode::Shuffled(Difficulty::Hard));
    let mut won = Game::new(
        parse_board("1 2 3 / 4 5 6 / 7 0 8").unwrap(),
        GameKind::Daily(20_000),
    );
    won.mark_helped();
    won.tap(8);
    let solve = Solve::from_game(
        &Game::review(&won),
        42,
        &PhotoSource::Bundled("cat.png".into()),
    );
    assert_eq!(
        (solve.result, solve.helped, solve.moves.as_str()),
        (Ending::Solved, true, "R")
    );
    assert_eq!(
        (solve.mode, solve.photo.as_str()),
        (Mode::Daily(20_000), "cat.png")
    );
}

#[test]
fn moves_are_counted_by_tile_and_by_run_and_a_second() {
    let mut s = solve(0);
    s.moves = "RRRDDLUUR".into();
    s.time_ms = 2_000;
    assert_eq!((s.stm(), s.mtm().known()), (9, Some(5)));
    assert_eq!(s.tps(), Some(4.5));
    s.moves.clear();
    s.time_ms = 0;
    assert_eq!((s.stm(), s.mtm().known(), s.tps()), (0, Some(0), None));
}

#[test]
fn categories_keep_shapes_modes_and_help_apart_and_every_day_together() {
    let mut a = solve(0);
    a.mode = Mode::Daily(20_000);
    let mut b = a.clone();
    b.mode = Mode::Daily(20_001);
    assert_eq!(a.category(), b.category());
    assert_eq!(a.category().to_string(), "3x3-daily");
    b.helped = true;
    assert_eq!(b.category().to_string(), "3x3-daily-helped");
    let easy = solve(0).category();
    assert_eq!(
        easy,
        Category {
            width: 3,
            height: 3,
            mode: "easy".into(),
            helped: false
        }
    );
    a.width = 4;
    assert_ne!(a.category().width, easy.width);
}

#[test]
fn a_solve_round_trips_and_a_mode_from_a_later_version_is_kept() {
    let mut s = solve(5);
    s.times_ms = vec![0, 120, 120, 1_000, 4_000_000_000];
    let line = s.encode();
    assert!(line.contains(r#""tm":[0,120,0,880,3999999000]"#), "{line}");
    assert!(line.contains(r#""mo":"easy""#), "{line}");
    assert_eq!(Solve::decode(&line), Some(s.clone()));
    for mode in [
        Mode::Daily(-3),
        Mode::Custom,
        Mode::Other("marathon-10".into()),
    ] {
        s.mode = mode.clone();
        assert_eq!(Solve::decode(&s.encode()).unwrap().mode, mode);
    }
    assert_eq!(photo_name(&PhotoSource::File("a.png".into())), YOUR_PHOTO);
}

#[test]
fn only_random_state_solves_count_for_the_speedsolvers_statistics() {
    use snapslide_game::stats::{Category as StatsCategory, Mode as StatsMode};
    let mut random = solve(1);
    random.mode = Mode::Shuffled(Difficulty::Random);
    let (category, attempt) = random.attempt().expect("a random-state solve counts");
    assert_eq!(category, StatsCategory::new(3, 3, StatsMode::Single));
    assert_eq!(attempt.time_ms, Some(random.time_ms));
    assert_eq!(attempt.moves as usize, random.stm());
    assert_eq!(attempt.moves_mtm.map(|m| m as usize), random.mtm().known());
    random.helped = true;
    random.result = Ending::Dnf;
    let (category, attempt) = random.attempt().unwrap();
    assert!(category.helped && attempt.time_ms.is_none());
    let mut hard = solve(2);
    hard.mode = Mode::Shuffled(Difficulty::Hard);
    assert!(
        hard.attempt().is_none(),
        "a difficulty game is not a speedsolve"
    );
}

#[test]
fn a_removed_solve_leaves_the_history_and_its_undo_puts_it_back_in_its_place() {
    use snapslide_game::solves::{HistoryRecord, solves_in};
    let records = [
        HistoryRecord::Kept(solve(0)),
        HistoryRecord::Kept(solve(1)),
        HistoryRecord::Kept(solve(2)),
        HistoryRecord::Removed(solve(1)),
    ];
    let file = |records: &[HistoryRecord]| {
        let lines: String = records
            .iter()
            .map(|r| journal::encode(&r.encode()).unwrap())
            .collect();
        solves_in(&journal::Loaded::parse(lines.as_bytes()))
    };
    let read = file(&records);
    assert_eq!(read.solves, [solve(0), solve(2)]);
    assert_eq!(read.unreadable, 0);
    // Undo: the solve comes back where it was, not at the end.
    let mut undone = records.to_vec();
    undone.push(HistoryRecord::Restored(solve(1)));
    assert_eq!(file(&undone).solves, [solve(0), solve(1), solve(2)]);
    // A removal takes out that solve alone, whichever record is first.
    let other = [
        HistoryRecord::Kept(solve(3)),
        HistoryRecord::Removed(solve(4)),
    ];
    assert_eq!(file(&other).solves, [solve(3)]);
}

#[test]
fn a_relay_keeps_every_board_and_is_watched_whole_on_its_clock() {
    use snapslide_game::event::{Event, Run};
    use snapslide_game::replay::{Replay, ReplayError};
    let ms = Duration::from_millis;
    let run = Run::start(Event::Relay { up_to: 4 });
    let mut first = Game::leg(parse_board("1 2 3 / 4 5 6 / 0 7 8").unwrap(), run, ms(0));
    first.tap(7); // at 0
    first.tick(ms(200));
    first.tap(8); // at 200: solved
    assert!(
        first.board().is_goal() && !first.is_won(),
        "a board before the last"
    );
    let next_start = parse_board("1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 0 14 15").unwrap();
    let mut last = Game::leg(next_start.clone(), run.next(2, 1, false), first.elapsed());
    last.go_on_from(&first);
    last.tick(ms(500));
    last.tap(14); // at 700
    last.tick(ms(100));
    last.tap(15); // at 800: the run is over
    assert!(last.is_won());

    let solve = Solve::from_game(&last, 7, &PhotoSource::Bundled("x.png".into()));
    assert_eq!(solve.legs.len(), 1, "the board before the last is kept");
    assert_eq!(
        (solve.legs[0].moves.as_str(), &solve.legs[0].times_ms[..]),
        ("RR", &[0, 200][..])
    );
    assert_eq!(
        (solve.moves.as_str(), &solve.times_ms[..]),
        ("RR", &[700, 800][..])
    );
    assert_eq!(Solve::decode(&solve.encode()), Some(solve.clone()));

    let replay = Replay::of_solve(&solve).unwrap();
    assert_eq!((replay.boards(), replay.len()), (2, 4));
    assert_eq!(
        (0..=4)
            .map(|step| replay.board_of(step))
            .collect::<Vec<_>>(),
        [0, 0, 1, 1, 1],
        "a board solved gives way at once to the next"
    );
    assert_eq!(replay.board_at(2), next_start);
    assert!(replay.board_at(4).is_goal() && replay.board_at(1).width() == 3);
    assert_eq!((replay.time_of(3), replay.moves_of(1).len()), (700, 2));
    assert_eq!(Replay::of_game(&last), Ok(replay));

    // A run kept without its boards before (an older version's record) is not watched.
    let mut older = solve.clone();
    older.legs.clear();
    assert_eq!(Replay::of_solve(&older), Err(ReplayError::NoBoards));
    // The Solves sheet offers Watch by the same rule.
    assert!(solve.moves_kept() && !older.moves_kept());
    // A solve imported as its counts alone has no board to read, and says why it is not watched.
    let counts_only = Solve {
        start: Vec::new(),
        moves: String::new(),
        times_ms: Vec::new(),
        counted: Some(MoveCounts { stm: 57, mtm: None }),
        legs: Vec::new(),
        ..self::solve(1)
    };
    assert_eq!(Replay::of_solve(&counts_only), Err(ReplayError::NoMoves));
    // A board before the last that does not end solved is a damaged record.
    let mut damaged = solve.clone();
    damaged.legs[0].moves = "R".into();
    damaged.legs[0].times_ms = vec![0];
    damaged.counted = damaged.counted.map(|c| MoveCounts { stm: 3, ..c });
    assert_eq!(Replay::of_solve(&damaged), Err(ReplayError::Unsolved(1)));
}
