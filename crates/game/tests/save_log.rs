//! The game saved as a journal: each change is one short entry, the replay gives the game
//! back, a long game costs the same bytes a move as a short one, and what cannot be read ends
//! the replay where it stands.

use std::time::Duration;

use journal::{Journal, Loaded};
use npuzzle::random::SplitMix64;
use npuzzle::{Move, parse_board};
use snapslide_game::save_log::{
    COMPACT_ENTRIES, Entry, SaveLog, Told, Write, load, replay, should_compact, snapshot_of,
};
use snapslide_game::{Act, Difficulty, FramedPhoto, Game, Outcome, PhotoSource, RestoreError};

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

    fn take_all(&mut self, writes: Vec<Write>) {
        writes.into_iter().for_each(|write| self.take(write));
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

/// What an executor did, as the app tells it (owned, for a test to keep).
#[derive(Clone, Debug)]
enum Did {
    Began(Game),
    Resumed,
    Slid(Act, Duration),
    Restarted(Duration),
    Helped(Duration),
    Ended(Game),
}

impl Did {
    fn told(&self) -> Told<'_> {
        match self {
            Did::Began(game) => Told::Began(game),
            Did::Resumed => Told::Resumed,
            Did::Slid(act, clock) => Told::Slid(act, *clock),
            Did::Restarted(clock) => Told::Restarted(*clock),
            Did::Helped(clock) => Told::Helped(*clock),
            Did::Ended(game) => Told::Ended(game),
        }
    }
}

/// A game played as the app's executor plays it: each action executed on the game, and what
/// it did kept to tell the save, as `src/play` tells it.
struct Played {
    game: Game,
    did: Vec<Did>,
}

impl Played {
    fn new(game: Game) -> Played {
        let did = vec![Did::Began(game.clone())];
        Played { game, did }
    }

    /// A slide's outcome told, and the end of the game when it won.
    fn slid(&mut self, act: Act, outcome: Outcome) -> bool {
        let Outcome::Moved { won, .. } = outcome else {
            return false;
        };
        self.did.push(Did::Slid(act, self.game.elapsed()));
        if won {
            self.did.push(Did::Ended(self.game.clone()));
        }
        true
    }

    fn play(&mut self, moves: &[Move]) -> bool {
        let outcome = self.game.apply(moves);
        self.slid(Act::Played(moves.to_vec()), outcome)
    }

    fn tap(&mut self, cell: usize) -> bool {
        let outcome = self.game.tap(cell);
        let moves = outcome.moves();
        self.slid(Act::Played(moves), outcome)
    }

    fn undo(&mut self) -> bool {
        let outcome = self.game.undo();
        self.slid(Act::Undone, outcome)
    }

    fn redo(&mut self) -> bool {
        let outcome = self.game.redo();
        self.slid(Act::Redone, outcome)
    }

    fn restart(&mut self) {
        self.game.restart();
        self.did.push(Did::Restarted(self.game.elapsed()));
    }

    fn help(&mut self) {
        if !self.game.helped() {
            self.game.mark_helped();
            self.did.push(Did::Helped(self.game.elapsed()));
        }
    }

    /// The frame's end: what the save writes for what was told since the last.
    fn save(&mut self, log: &mut SaveLog, photo: &FramedPhoto) -> Vec<Write> {
        let did = std::mem::take(&mut self.did);
        let told: Vec<Told> = did.iter().map(Did::told).collect();
        log.writes_for(&told, &self.game, photo)
    }
}

/// Saves a frame and expects one appended entry, of this kind; the file then replays to the
/// game.
fn one_entry(
    played: &mut Played,
    log: &mut SaveLog,
    file: &mut File,
    photo: &FramedPhoto,
    kind: &str,
) {
    let writes = played.save(log, photo);
    let [Write::Append(lines)] = writes.as_slice() else {
        panic!("{kind}: not one append: {writes:?}")
    };
    assert_eq!(lines.len(), 1, "{kind}: {lines:?}");
    assert!(
        lines[0].starts_with(&format!(r#"{{"t":"{kind}""#)),
        "{lines:?}"
    );
    file.take_all(writes);
    assert_same(file, &played.game, photo);
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

fn three_by_three() -> Game {
    Game::new(
        parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap(),
        Difficulty::Easy,
    )
}

#[test]
fn each_change_is_one_entry_and_the_replay_gives_the_game_back() {
    let ms = Duration::from_millis;
    let mut played = Played::new(three_by_three());
    let mut pic = photo("chelsea.png");
    let mut log = SaveLog::default();
    let mut file = File::default();
    let start = played.save(&mut log, &pic);
    assert!(
        matches!(start.as_slice(), [Write::Replace(l)] if l[0].starts_with(r#"{"t":"n""#)),
        "{start:?}"
    );
    file.take_all(start);
    assert_same(&file, &played.game, &pic);
    assert_eq!(played.save(&mut log, &pic), [], "nothing changed");
    played.play(&[Move::Up]);
    one_entry(&mut played, &mut log, &mut file, &pic, "a");
    played.game.tick(ms(1200));
    played.tap(0); // two tiles, one action
    one_entry(&mut played, &mut log, &mut file, &pic, "a");
    played.game.tick(ms(300));
    played.undo();
    one_entry(&mut played, &mut log, &mut file, &pic, "u");
    played.game.tick(ms(300));
    played.redo();
    one_entry(&mut played, &mut log, &mut file, &pic, "r");
    played.help();
    one_entry(&mut played, &mut log, &mut file, &pic, "h");
    pic = photo("astronaut.png");
    one_entry(&mut played, &mut log, &mut file, &pic, "p");
    played.restart();
    one_entry(&mut played, &mut log, &mut file, &pic, "x");
    played.play(&[Move::Right]);
    one_entry(&mut played, &mut log, &mut file, &pic, "a");
    // The clock ran on after the move: the closing snapshot holds it.
    played.game.tick(ms(530));
    let closing = log.closing(&played.game, &pic).expect("the clock moved");
    file.take(closing);
    assert_same(&file, &played.game, &pic);
    assert_eq!(file.replayed().0.elapsed(), played.game.elapsed());
    assert_eq!(
        log.closing(&played.game, &pic),
        None,
        "nothing new to close"
    );
}

#[test]
fn a_frame_s_changes_are_appended_in_order_and_a_new_game_is_its_start() {
    let mut played = Played::new(three_by_three());
    let pic = photo("chelsea.png");
    let mut log = SaveLog::default();
    let mut file = File::default();
    file.take_all(played.save(&mut log, &pic));
    // An undo and another move in one frame: both told, both written, in order.
    played.play(&[Move::Up]);
    played.undo();
    played.play(&[Move::Down]);
    let writes = played.save(&mut log, &pic);
    assert!(
        matches!(writes.as_slice(), [Write::Append(l)] if l.len() == 3),
        "{writes:?}"
    );
    file.take_all(writes);
    assert_same(&file, &played.game, &pic);
    // Moves on the old board, then a new game, in one frame: only the new game's start.
    played.play(&[Move::Up]);
    let next = Game::new(
        parse_board("1 2 3 / 4 5 6 / 0 7 8").unwrap(),
        Difficulty::Hard,
    );
    played.game = next.clone();
    played.did.push(Did::Began(next));
    played.play(&[Move::Right]);
    let writes = played.save(&mut log, &pic);
    assert!(
        matches!(writes.as_slice(), [Write::Replace(s), Write::Append(a)]
            if s[0].starts_with(r#"{"t":"n""#) && a.len() == 1),
        "{writes:?}"
    );
    file.take_all(writes);
    assert_same(&file, &played.game, &pic);
}

#[test]
fn a_won_game_is_one_snapshot_and_a_viewer_writes_nothing() {
    let mut played = Played::new(Game::new(
        parse_board("1 2 3 / 4 5 6 / 7 0 8").unwrap(),
        Difficulty::Easy,
    ));
    let pic = photo("chelsea.png");
    let mut log = SaveLog::default();
    let mut file = File::default();
    file.take_all(played.save(&mut log, &pic));
    assert!(played.play(&[Move::Right]), "the last move");
    let writes = played.save(&mut log, &pic);
    assert!(
        matches!(writes.as_slice(), [Write::Replace(s)] if s[0].starts_with(r#"{"t":"s""#)),
        "{writes:?}"
    );
    file.take_all(writes);
    assert!(file.replayed().0.is_won());
    // A review of it comes on the board and plays its line: the journal keeps the game.
    let won = played.game.clone();
    played.game = Game::review(&won);
    played.did.push(Did::Began(played.game.clone()));
    played.play(&[Move::Left]);
    assert_eq!(played.save(&mut log, &pic), [], "a review is not saved");
    assert_eq!(log.closing(&played.game, &pic), None);
    // Done brings the won game back: still nothing to write.
    played.game = won;
    played.did.push(Did::Resumed);
    assert_eq!(played.save(&mut log, &pic), []);
    assert_same(&file, &played.game, &pic);
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
    let mut played = Played::new(three_by_three());
    let pic = photo("chelsea.png");
    let mut log = SaveLog::default();
    let mut bytes = String::new();
    let mut write = |writes: Vec<Write>| {
        for w in writes {
            w.payloads()
                .iter()
                .for_each(|p| bytes += &journal::encode(p).unwrap())
        }
    };
    write(played.save(&mut log, &pic));
    for mv in [Move::Up, Move::Left, Move::Down] {
        played.play(&[mv]);
        write(played.save(&mut log, &pic));
    }
    let game = played.game;
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

/// One random player action, as the executor makes it: mostly a tile, sometimes a row's
/// slide, an undo or a redo, with a human's pause before it.
fn act(played: &mut Played, rng: &mut SplitMix64) {
    played.game.tick(Duration::from_millis(80 + rng.below(400)));
    let done = match rng.below(100) {
        0..=3 => played.undo(),
        4..=5 => played.redo(),
        6..=8 => {
            let cell = rng.below(played.game.board().tiles().len() as u64) as usize;
            played.tap(cell)
        }
        _ => false,
    };
    if done {
        return;
    }
    loop {
        let mv = [Move::Up, Move::Down, Move::Left, Move::Right][rng.below(4) as usize];
        if played.play(&[mv]) {
            break;
        }
    }
}

#[test]
fn a_long_8x8_game_costs_the_same_bytes_a_move_and_its_file_stays_near_its_snapshot() {
    let dir = std::env::temp_dir().join(format!("save-log-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.journal");
    let start = npuzzle::random::shuffled(npuzzle::Shape::new(8, 8).unwrap(), 2000, 7);
    let mut played = Played::new(Game::new(start, Difficulty::Expert));
    let pic = photo("chelsea.png");
    let (mut journal, _) = Journal::open(&path).unwrap();
    let mut log = SaveLog::default();
    let mut rng = SplitMix64::new(11);
    let (mut compactions, mut snapshot, mut per_move) = (0, 0, Vec::new());
    let mut longest = 0;
    let mut started = 0;
    for n in 0..=5_000u64 {
        if n > 0 {
            act(&mut played, &mut rng);
        }
        for write in played.save(&mut log, &pic) {
            match write {
                Write::Append(lines) => {
                    longest = longest.max(lines.iter().map(|l| l.len() as u64 + 10).max().unwrap());
                    journal.append_all(&lines, false).unwrap();
                }
                Write::Replace(lines) => {
                    compactions += 1;
                    journal.compact(&lines).unwrap();
                    snapshot = journal.len();
                }
            }
        }
        if n == 0 {
            started = journal.bytes_written();
        }
        // The file holds its snapshot and at most as much again in entries, or the entries
        // a compaction waits for.
        let entries = snapshot.max(COMPACT_ENTRIES as u64 * longest);
        assert!(
            journal.len() <= snapshot + entries + longest,
            "{} bytes with a snapshot of {snapshot} at {n}",
            journal.len()
        );
        if [100, 1_000, 5_000].contains(&n) {
            let bytes = (journal.bytes_written() - started) as f64 / n as f64;
            eprintln!(
                "8×8, {n} actions: {bytes:.1} bytes written an action ({compactions} writes of the whole)"
            );
            per_move.push(bytes);
        }
    }
    // A move costs the same at 5,000 as at 1,000: the snapshot's growth is paid for by
    // waiting longer between compactions (compacting at a fixed count would not).
    assert!(per_move[2] <= 2.0 * per_move[1], "{per_move:?}");
    assert!(compactions >= 3, "{compactions}");
    let (_, loaded) = Journal::open(&path).unwrap();
    let opened = load(&loaded).unwrap();
    assert_eq!(opened.replayed.game.to_saved(), played.game.to_saved());
    assert_eq!(opened.replayed.game.move_times(), played.game.move_times());
    assert!(opened.rewrite.is_none());
    std::fs::remove_dir_all(dir).unwrap();
}

/// One random change of any kind (a move, a slide, an undo, a redo, a restart, help, the
/// clock), as the executor might make in a frame.
fn any_change(played: &mut Played, rng: &mut SplitMix64) {
    played.game.tick(Duration::from_millis(rng.below(700)));
    match rng.below(20) {
        0..=7 => {
            let mv = [Move::Up, Move::Down, Move::Left, Move::Right][rng.below(4) as usize];
            played.play(&[mv]);
        }
        8..=9 => {
            played.tap(rng.below(9) as usize);
        }
        10..=13 => {
            played.undo();
        }
        14..=16 => {
            played.redo();
        }
        17 => played.restart(),
        18 => played.help(),
        _ => {}
    }
}

#[test]
fn any_changes_in_any_frames_replay_to_the_game() {
    let mut appended = 0;
    for seed in 0..200 {
        let mut rng = SplitMix64::new(seed);
        let start = npuzzle::random::shuffled(npuzzle::Shape::new(3, 3).unwrap(), 30, seed);
        let mut played = Played::new(Game::new(start, Difficulty::Medium));
        let mut pic = photo("chelsea.png");
        let mut log = SaveLog::default();
        let mut file = File::default();
        for _ in 0..60 {
            for _ in 0..rng.below(4) {
                any_change(&mut played, &mut rng);
            }
            if rng.below(30) == 0 {
                pic = photo(&format!("photo-{}.png", rng.below(3)));
            }
            let writes = played.save(&mut log, &pic);
            appended += writes
                .iter()
                .filter(|w| matches!(w, Write::Append(_)))
                .count();
            file.take_all(writes);
            if played.game.is_won() {
                played.game = Game::new(
                    npuzzle::random::shuffled(npuzzle::Shape::new(3, 3).unwrap(), 30, seed + 1),
                    Difficulty::Medium,
                );
                played.did.push(Did::Began(played.game.clone()));
            }
            let mut closing = log.clone();
            if let Some(write) = closing.closing(&played.game, &pic) {
                let mut closed = File(file.0.clone());
                closed.take(write);
                assert_eq!(closed.replayed().0.elapsed(), played.game.elapsed());
            }
        }
        file.take_all(played.save(&mut log, &pic));
        // The clock alone is written when the app closes.
        file.take_all(log.closing(&played.game, &pic).into_iter().collect());
        assert_same(&file, &played.game, &pic);
    }
    // Most frames with a change append; a snapshot is the exception.
    assert!(appended > 200 * 60 / 2, "{appended}");
}

#[test]
fn after_a_write_that_did_not_land_the_next_one_replaces_the_file() {
    let dir = std::env::temp_dir().join(format!("save-log-failed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.journal");
    let mut played = Played::new(three_by_three());
    let pic = photo("chelsea.png");
    let (mut journal, _) = Journal::open(&path).unwrap();
    let mut log = SaveLog::default();
    let land = |writes: Vec<Write>, journal: &mut Journal| {
        for write in writes {
            match write {
                Write::Append(lines) => journal.append_all(&lines, false).unwrap(),
                Write::Replace(lines) => journal.compact(&lines).unwrap(),
            }
        }
    };
    land(played.save(&mut log, &pic), &mut journal);
    played.play(&[Move::Up]);
    land(played.save(&mut log, &pic), &mut journal);
    // The undo's entry is lost on its way (a full disk): the log is told.
    played.undo();
    assert!(matches!(
        played.save(&mut log, &pic).as_slice(),
        [Write::Append(_)]
    ));
    log.write_failed();
    played.play(&[Move::Left]);
    let writes = played.save(&mut log, &pic);
    assert!(
        matches!(writes.as_slice(), [Write::Replace(_)]),
        "{writes:?}"
    );
    land(writes, &mut journal);
    played.play(&[Move::Right]);
    let writes = played.save(&mut log, &pic);
    assert!(
        matches!(writes.as_slice(), [Write::Append(_)]),
        "{writes:?}"
    );
    land(writes, &mut journal);
    let (_, loaded) = Journal::open(&path).unwrap();
    assert_eq!(
        load(&loaded).unwrap().replayed.game.to_saved(),
        played.game.to_saved()
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_save_journal_damaged_anywhere_loads_without_a_panic_or_is_refused() {
    let mut played = Played::new(three_by_three());
    let pic = photo("chelsea.png");
    let mut log = SaveLog::default();
    let mut lines = Vec::new();
    for mv in [
        None,
        Some(Move::Up),
        Some(Move::Left),
        Some(Move::Down),
        Some(Move::Right),
        Some(Move::Up),
    ] {
        if let Some(mv) = mv {
            played.play(&[mv]);
        }
        for write in played.save(&mut log, &pic) {
            lines.extend(write.payloads().to_vec());
        }
    }
    let game = played.game;
    let bytes: Vec<u8> = lines
        .iter()
        .flat_map(|p| journal::encode(p).unwrap().into_bytes())
        .collect();
    let mut rng = SplitMix64::new(1);
    let mut kept_moves = 0;
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
        // What it kept is a game the rewrite (if any) brings back the same, and a start of
        // the game played: its moves a prefix of the game's.
        if let Some(rewrite) = &opened.rewrite {
            let entries: Vec<_> = rewrite
                .payloads()
                .iter()
                .map(|p| Entry::decode(p))
                .collect();
            let again = replay(&entries).unwrap().game;
            assert_eq!(again.to_saved(), opened.replayed.game.to_saved());
        }
        let kept = opened.replayed.game.history_in_effect();
        assert!(game.history_in_effect().starts_with(&kept), "{kept:?}");
        kept_moves += kept.len();
    }
    assert!(kept_moves > 0, "no damaged file kept a move");
}
