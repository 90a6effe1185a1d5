//! The game saved as a journal: each change is one short entry, the replay gives the game
//! back, a long game costs the same bytes a move as a short one, and what cannot be read ends
//! the replay where it stands.

use std::time::Duration;

use journal::{Journal, Loaded};
use npuzzle::random::SplitMix64;
use npuzzle::{Board, Move, parse_board};
use snapslide_game::save_log::{
    COMPACT_ENTRIES, Entry, SaveLog, Write, load, replay, should_compact, snapshot_of,
};
use snapslide_game::{Difficulty, FramedPhoto, Game, PhotoSource, RestoreError};

fn photo(name: &str) -> FramedPhoto {
    FramedPhoto::whole(PhotoSource::Bundled(name.into()))
}

/// A journal kept in memory: the payloads a file would hold.
#[derive(Default)]
struct File(Vec<String>);

impl File {
    fn take(&mut self, write: Write) {
        match write {
            Write::Append(lines) => self.0.extend(lines),
            Write::Replace(lines) => self.0 = lines,
        }
    }

    fn entries(&self) -> Vec<Option<Entry>> {
        self.0.iter().map(|p| Entry::decode(p)).collect()
    }

    /// The game and photo a replay gives.
    fn replayed(&self) -> (Game, FramedPhoto) {
        let replayed = replay(&self.entries()).unwrap();
        assert_eq!(replayed.stopped, None);
        (replayed.game, replayed.photo)
    }
}

/// Syncs the log with the game and expects one appended entry, of this kind.
fn one_entry(log: &mut SaveLog, file: &mut File, game: &Game, photo: &FramedPhoto, kind: &str) {
    let write = log.sync(game, photo).expect("a change is written");
    let Write::Append(lines) = &write else {
        panic!("{kind}: not appended: {write:?}")
    };
    assert_eq!(lines.len(), 1, "{kind}: {lines:?}");
    assert!(
        lines[0].starts_with(&format!(r#"{{"t":"{kind}""#)),
        "{lines:?}"
    );
    file.take(write);
    assert_same(file, game, photo);
}

/// The file replays to the game and photo.
fn assert_same(file: &File, game: &Game, photo: &FramedPhoto) {
    let (back, back_photo) = file.replayed();
    assert_eq!(back.to_saved(), game.to_saved());
    assert_eq!(back.move_times(), game.move_times());
    assert_eq!(
        (back.board(), back.can_redo()),
        (game.board(), game.can_redo())
    );
    assert_eq!(&back_photo, photo);
}

#[test]
fn each_change_is_one_entry_and_the_replay_gives_the_game_back() {
    let ms = Duration::from_millis;
    let mut game = Game::new(
        parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap(),
        Difficulty::Easy,
    );
    let mut pic = photo("chelsea.png");
    let (mut log, start) = SaveLog::new(&game, &pic);
    let mut file = File::default();
    assert!(matches!(start, Write::Replace(_)));
    file.take(start);
    assert_same(&file, &game, &pic);
    assert_eq!(log.sync(&game, &pic), None, "nothing changed");
    game.apply(&[Move::Up]);
    one_entry(&mut log, &mut file, &game, &pic, "a");
    game.tick(ms(1200));
    game.tap(0); // two tiles, one action
    one_entry(&mut log, &mut file, &game, &pic, "a");
    game.tick(ms(300));
    game.undo();
    one_entry(&mut log, &mut file, &game, &pic, "u");
    game.tick(ms(300));
    game.redo();
    one_entry(&mut log, &mut file, &game, &pic, "r");
    game.mark_helped();
    one_entry(&mut log, &mut file, &game, &pic, "h");
    pic = photo("astronaut.png");
    one_entry(&mut log, &mut file, &game, &pic, "p");
    game.tick(ms(40));
    one_entry(&mut log, &mut file, &game, &pic, "c");
    game.restart();
    one_entry(&mut log, &mut file, &game, &pic, "x");
    game.apply(&[Move::Right]);
    one_entry(&mut log, &mut file, &game, &pic, "a");
    // The clock ran on before the save: the action keeps its own time beside the clock.
    game.tick(ms(500));
    game.apply(&[Move::Left]);
    game.tick(ms(30));
    one_entry(&mut log, &mut file, &game, &pic, "a");
    assert!(
        file.0.last().unwrap().ends_with(r#""c":530,"at":500}"#),
        "{:?}",
        file.0
    );
    assert_eq!(file.0.len(), 11);
}

#[test]
fn several_changes_at_once_are_written_as_a_snapshot_and_a_new_game_as_its_start() {
    let mut game = Game::new(
        parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap(),
        Difficulty::Easy,
    );
    let pic = photo("chelsea.png");
    let (mut log, start) = SaveLog::new(&game, &pic);
    let mut file = File::default();
    file.take(start);
    game.apply(&[Move::Up]);
    file.take(log.sync(&game, &pic).unwrap());
    // An undo and another move between two syncs: the counts alone look like nothing.
    game.undo();
    game.apply(&[Move::Down]);
    let write = log.sync(&game, &pic).unwrap();
    assert!(
        matches!(&write, Write::Replace(l) if l[0].starts_with(r#"{"t":"s""#)),
        "{write:?}"
    );
    file.take(write);
    assert_same(&file, &game, &pic);
    // The log goes on from the snapshot with single entries.
    game.apply(&[Move::Left]);
    one_entry(&mut log, &mut file, &game, &pic, "a");
    // Several actions at once are written as several entries.
    game.apply(&[Move::Right]);
    game.apply(&[Move::Up]);
    let write = log.sync(&game, &pic).unwrap();
    assert!(
        matches!(&write, Write::Append(l) if l.len() == 2),
        "{write:?}"
    );
    file.take(write);
    assert_same(&file, &game, &pic);
    let next = Game::new(
        parse_board("1 2 3 / 4 5 6 / 0 7 8").unwrap(),
        Difficulty::Hard,
    );
    let write = log.sync(&next, &pic).unwrap();
    assert!(
        matches!(&write, Write::Replace(l) if l[0].starts_with(r#"{"t":"n""#)),
        "{write:?}"
    );
    file.take(write);
    assert_same(&file, &next, &pic);
}

#[test]
fn an_entry_that_does_not_apply_ends_the_replay_where_it_stands() {
    let game = Game::new(
        parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap(),
        Difficulty::Easy,
    );
    let start = Entry::Start(snapshot_of(&game, &photo("chelsea.png")));
    let act = |m: &str| {
        Some(Entry::Act {
            moves: m.into(),
            clock_ms: 5,
            made_ms: None,
        })
    };
    let entries = [Some(start.clone()), act("U"), act("UU"), act("D")];
    let replayed = replay(&entries).unwrap();
    assert_eq!((replayed.applied, replayed.stopped), (1, Some(2)));
    assert_eq!(replayed.game.history_in_effect(), [Move::Up]);
    assert!(
        !replayed.game.timer_running(),
        "the clock waits for the next move"
    );
    // A lost line ends it too: what follows may depend on it.
    let lost = [Some(start.clone()), act("U"), None, act("D")];
    assert_eq!(replay(&lost).unwrap().stopped, Some(2));
    // A snapshot that does not restore: the one before it, and the entries between.
    let mut bad = snapshot_of(&game, &photo("chelsea.png"));
    bad.game.start[0] = 9;
    let entries = [
        Some(start),
        act("U"),
        Some(Entry::Snapshot(bad.clone())),
        act("D"),
    ];
    let replayed = replay(&entries).unwrap();
    assert_eq!((replayed.snapshot, replayed.stopped), (0, Some(2)));
    assert_eq!(replay(&[act("U")]), Err(RestoreError::NoStart));
    assert!(matches!(
        replay(&[Some(Entry::Snapshot(bad))]),
        Err(RestoreError::Board(_))
    ));
}

#[test]
fn a_damaged_line_in_the_file_ends_the_replay_there_and_asks_for_a_rewrite() {
    let mut game = Game::new(
        parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap(),
        Difficulty::Easy,
    );
    let pic = photo("chelsea.png");
    let (mut log, start) = SaveLog::new(&game, &pic);
    let mut bytes = String::new();
    let mut write = |w: Write| {
        w.payloads()
            .iter()
            .for_each(|p| bytes += &journal::encode(p).unwrap())
    };
    write(start);
    for mv in [Move::Up, Move::Left, Move::Down] {
        game.apply(&[mv]);
        write(log.sync(&game, &pic).unwrap());
    }
    let clean = load(&Loaded::parse(bytes.as_bytes())).unwrap();
    assert_eq!(clean.replayed.game.to_saved(), game.to_saved());
    assert_eq!(
        (clean.rewrite, clean.log.entries_since_snapshot()),
        (None, 3)
    );
    // The third line (the second move) damaged: the game stands after the first move.
    let mut damaged = bytes.into_bytes();
    let third = damaged
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(1)
        .unwrap()
        .0
        + 12;
    damaged[third] ^= 0x01;
    let opened = load(&Loaded::parse(&damaged)).unwrap();
    assert_eq!(opened.replayed.game.history_in_effect(), [Move::Up]);
    assert_eq!(opened.replayed.stopped, Some(2));
    let Some(Write::Replace(lines)) = &opened.rewrite else {
        panic!("{:?}", opened.rewrite)
    };
    let entries: Vec<_> = lines.iter().map(|l| Entry::decode(l)).collect();
    assert_eq!(
        replay(&entries).unwrap().game.to_saved(),
        opened.replayed.game.to_saved()
    );
}

#[test]
fn compaction_waits_for_its_entries_and_their_bytes() {
    assert!(!should_compact(COMPACT_ENTRIES - 1, 1 << 30, 1));
    assert!(!should_compact(COMPACT_ENTRIES, 999, 1000));
    assert!(should_compact(COMPACT_ENTRIES, 1000, 1000));
    assert!(should_compact(COMPACT_ENTRIES * 3, 50_000, 40_000));
}

/// One random player action on the game: mostly a tile, sometimes a row's slide, an undo or
/// a redo, with a human's pause before it.
fn act(game: &mut Game, rng: &mut SplitMix64) {
    game.tick(Duration::from_millis(80 + rng.below(400)));
    match rng.below(100) {
        0..=3 if game.can_undo() => {
            game.undo();
        }
        4..=5 if game.can_redo() => {
            game.redo();
        }
        6..=8 => {
            let cell = rng.below(game.board().tiles().len() as u64) as usize;
            game.tap(cell);
        }
        _ => loop {
            let mv = [Move::Up, Move::Down, Move::Left, Move::Right][rng.below(4) as usize];
            if !game.apply(&[mv]).moves().is_empty() {
                break;
            }
        },
    }
}

#[test]
fn a_5000_move_8x8_game_writes_at_most_256_bytes_a_move_at_any_length() {
    let dir = std::env::temp_dir().join(format!("save-log-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.journal");
    let start = npuzzle::random::shuffled(npuzzle::Shape::new(8, 8).unwrap(), 2000, 7);
    let mut game = Game::new(start, Difficulty::Expert);
    let pic = photo("chelsea.png");
    let (mut journal, _) = Journal::open(&path).unwrap();
    let (mut log, first) = SaveLog::new(&game, &pic);
    journal.compact(first.payloads()).unwrap();
    let mut rng = SplitMix64::new(11);
    let (mut compactions, mut longest) = (0, 0);
    for n in 1..=5_000u64 {
        act(&mut game, &mut rng);
        match log.sync(&game, &pic).expect("every action is written") {
            Write::Append(lines) => {
                longest = longest.max(lines.iter().map(|l| l.len() + 10).max().unwrap());
                journal.append_all(&lines, false).unwrap();
            }
            Write::Replace(lines) => {
                compactions += 1;
                journal.compact(&lines).unwrap();
            }
        }
        if [100, 1_000, 5_000].contains(&n) {
            let per_move = journal.bytes_written() as f64 / n as f64;
            eprintln!(
                "8×8, {n} actions: {per_move:.1} bytes written an action (compactions {compactions}, longest record {longest} bytes)"
            );
            assert!(per_move <= 256.0, "{per_move} bytes a move at {n}");
        }
    }
    assert!(longest <= 256, "a record of {longest} bytes");
    assert!(compactions >= 2, "{compactions}");
    let (_, loaded) = Journal::open(&path).unwrap();
    let opened = load(&loaded).unwrap();
    assert_eq!(opened.replayed.game.to_saved(), game.to_saved());
    assert_eq!(opened.replayed.game.move_times(), game.move_times());
    assert!(opened.rewrite.is_none());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_review_saves_the_finished_game_it_holds() {
    let mut game = Game::new(Board::goal(3, 3).unwrap(), Difficulty::Easy);
    game.restart();
    let review = Game::review(&game);
    let (_, start) = SaveLog::new(&review, &photo("chelsea.png"));
    let entries: Vec<_> = start.payloads().iter().map(|p| Entry::decode(p)).collect();
    assert_eq!(replay(&entries).unwrap().game.to_saved(), game.to_saved());
}

/// One random change of any kind (a move, a slide, an undo, a redo, a restart, help, the
/// clock), as the app might make between two saves.
fn any_change(game: &mut Game, rng: &mut SplitMix64) {
    game.tick(Duration::from_millis(rng.below(700)));
    match rng.below(20) {
        0..=7 => {
            let mv = [Move::Up, Move::Down, Move::Left, Move::Right][rng.below(4) as usize];
            game.apply(&[mv]);
        }
        8..=9 => {
            game.tap(rng.below(9) as usize);
        }
        10..=13 => {
            game.undo();
        }
        14..=16 => {
            game.redo();
        }
        17 => game.restart(),
        18 => game.mark_helped(),
        _ => {}
    }
}

#[test]
fn any_changes_between_any_saves_replay_to_the_game() {
    let mut singles = 0;
    for seed in 0..200 {
        let mut rng = SplitMix64::new(seed);
        let start = npuzzle::random::shuffled(npuzzle::Shape::new(3, 3).unwrap(), 30, seed);
        let mut game = Game::new(start, Difficulty::Medium);
        let mut pic = photo("chelsea.png");
        let (mut log, first) = SaveLog::new(&game, &pic);
        let mut file = File::default();
        file.take(first);
        for _ in 0..60 {
            for _ in 0..1 + rng.below(3) {
                any_change(&mut game, &mut rng);
            }
            if rng.below(30) == 0 {
                pic = photo(&format!("photo-{}.png", rng.below(3)));
            }
            if let Some(write) = log.sync(&game, &pic) {
                singles += usize::from(matches!(&write, Write::Append(l) if l.len() == 1));
                file.take(write);
            }
            assert_same(&file, &game, &pic);
        }
    }
    // Most saves are one entry; the rest are snapshots or a few entries.
    assert!(singles > 200 * 60 / 3, "{singles}");
}

#[test]
fn after_a_write_that_did_not_land_the_next_one_replaces_the_file() {
    let dir = std::env::temp_dir().join(format!("save-log-failed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.journal");
    let mut game = Game::new(
        parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap(),
        Difficulty::Easy,
    );
    let pic = photo("chelsea.png");
    let (mut journal, _) = Journal::open(&path).unwrap();
    let (mut log, start) = SaveLog::new(&game, &pic);
    start.write_to(&mut journal).unwrap();
    game.apply(&[Move::Up]);
    log.sync(&game, &pic)
        .unwrap()
        .write_to(&mut journal)
        .unwrap();
    // The undo's entry is lost on its way (a full disk): the log is told.
    game.undo();
    assert!(matches!(log.sync(&game, &pic), Some(Write::Append(_))));
    log.write_failed();
    game.apply(&[Move::Left]);
    let write = log.sync(&game, &pic).unwrap();
    assert!(matches!(write, Write::Replace(_)), "{write:?}");
    write.write_to(&mut journal).unwrap();
    game.apply(&[Move::Right]);
    let write = log.sync(&game, &pic).unwrap();
    assert!(matches!(write, Write::Append(_)), "{write:?}");
    write.write_to(&mut journal).unwrap();
    let (_, loaded) = Journal::open(&path).unwrap();
    assert_eq!(
        load(&loaded).unwrap().replayed.game.to_saved(),
        game.to_saved()
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_save_journal_damaged_anywhere_loads_without_a_panic_or_is_refused() {
    let mut game = Game::new(
        parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap(),
        Difficulty::Easy,
    );
    let pic = photo("chelsea.png");
    let (mut log, start) = SaveLog::new(&game, &pic);
    let mut lines = start.payloads().to_vec();
    for mv in [Move::Up, Move::Left, Move::Down, Move::Right, Move::Up] {
        game.apply(&[mv]);
        lines.extend(log.sync(&game, &pic).unwrap().payloads().to_vec());
    }
    let bytes: Vec<u8> = lines
        .iter()
        .flat_map(|p| journal::encode(p).unwrap().into_bytes())
        .collect();
    let mut rng = SplitMix64::new(1);
    for _ in 0..3_000 {
        let mut damaged = bytes.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(damaged.len() as u64) as usize;
            match rng.below(3) {
                0 => damaged[at] = rng.below(256) as u8,
                1 => damaged.insert(at, b'\n'),
                _ => damaged.truncate(at.max(1)),
            }
        }
        let Ok(opened) = load(&Loaded::parse(&damaged)) else {
            continue;
        };
        // What it kept is a game the rewrite (if any) brings back the same.
        if let Some(rewrite) = &opened.rewrite {
            let entries: Vec<_> = rewrite
                .payloads()
                .iter()
                .map(|p| Entry::decode(p))
                .collect();
            let again = replay(&entries).unwrap().game;
            assert_eq!(again.to_saved(), opened.replayed.game.to_saved());
        }
        assert!(opened.replayed.game.moves() <= game.moves());
    }
}
