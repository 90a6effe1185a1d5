//! The journals: saving one move at move 100 and at move 5,000 of an 8×8 game (the same work:
//! a move is written as the move), loading a 5,000-move 8×8 game's save journal (as its log
//! wrote it, and with every move after the start, never compacted), and opening a history of
//! 10,000 4×4 solves of about 100 moves each.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use journal::{Loaded, encode};
use npuzzle::random::SplitMix64;
use npuzzle::{Move, Shape};
use snapslide_game::save_log::{Entry, SaveLog, Told, Write, load};
use snapslide_game::solves::{Ending, Mode, SOLVES_FILE, Solve, solves_in};
use snapslide_game::{Act, Difficulty, FramedPhoto, Game, PhotoSource};

/// An 8×8 game after `moves` random moves, with its log as the app's save wrote it, and the
/// journal's records: as written (compacted now and then), or with every move after the start.
fn played(moves: usize, compacted: bool) -> (Game, SaveLog, Vec<String>) {
    let start = npuzzle::random::shuffled(Shape::new(8, 8).unwrap(), 2000, 7);
    let mut game = Game::new(start, Difficulty::Expert);
    let photo = photo();
    let mut log = SaveLog::default();
    let mut file = Vec::new();
    let mut told_start = Some(game.clone());
    let mut rng = SplitMix64::new(3);
    let mut made = 0;
    while made <= moves {
        let act = match told_start.take() {
            Some(started) => {
                let writes = log.writes_for(&[Told::Began(&started)], &game, &photo);
                writes.into_iter().for_each(|w| take(&mut file, w));
                continue;
            }
            None => {
                game.tick(Duration::from_millis(200 + rng.below(300)));
                let mv = [Move::Up, Move::Down, Move::Left, Move::Right][rng.below(4) as usize];
                if game.apply(&[mv]).moves().is_empty() {
                    continue;
                }
                Act::Played(vec![mv])
            }
        };
        made += 1;
        let told = [Told::Slid(&act, game.elapsed())];
        for write in log.writes_for(&told, &game, &photo) {
            match write {
                write if compacted => take(&mut file, write),
                // Every move as its entry, whatever the log chose.
                _ => file.push(Entry::of_act(&act, game.elapsed()).encode()),
            }
        }
    }
    (game, log, file)
}

/// The bundled photo the games are played with.
fn photo() -> FramedPhoto {
    FramedPhoto::whole(PhotoSource::Bundled("chelsea.png".into()))
}

/// A write carried out on a journal's records.
fn take(file: &mut Vec<String>, write: Write) {
    match write {
        Write::Append(lines) => file.extend(lines),
        Write::Replace(lines) => *file = lines,
    }
}

/// The journal's bytes.
fn bytes_of(file: &[String]) -> Vec<u8> {
    file.iter()
        .flat_map(|p| encode(p).unwrap().into_bytes())
        .collect()
}

fn save_log(c: &mut Criterion) {
    for (name, compacted) in [("as written", true), ("never compacted", false)] {
        let bytes = bytes_of(&played(5_000, compacted).2);
        c.bench_function(
            &format!("load a 5,000-move 8×8 save journal, {name}"),
            |b| b.iter(|| load(&Loaded::parse(black_box(&bytes))).unwrap()),
        );
    }
    // What the frame does for one move: the record made from what the executor told.
    for at in [100, 5_000] {
        let (game, log, _) = played(at, true);
        let act = Act::Played(vec![Move::Up]);
        let photo = photo();
        c.bench_function(
            &format!("save one move at move {at} of an 8×8 game"),
            |b| {
                b.iter_batched(
                    || log.clone(),
                    |mut log| {
                        let told = [Told::Slid(&act, game.elapsed())];
                        log.writes_for(black_box(&told), &game, &photo)
                    },
                    BatchSize::SmallInput,
                )
            },
        );
    }
}

/// A history of 10,000 4×4 solves of about 100 moves, each move with its time.
fn solve_history() -> Vec<u8> {
    let mut rng = SplitMix64::new(5);
    let mut bytes = Vec::new();
    for n in 0..10_000 {
        let start = npuzzle::random::shuffled(Shape::new(4, 4).unwrap(), 200, n);
        let mut board = start.clone();
        let (mut moves, mut times_ms, mut time) = (Vec::new(), Vec::new(), 0);
        while moves.len() < 90 + rng.below(20) as usize {
            let mv = [Move::Up, Move::Down, Move::Left, Move::Right][rng.below(4) as usize];
            if board.apply(mv) {
                moves.push(mv);
                times_ms.push(time);
                time += 150 + rng.below(300) as u32;
            }
        }
        let solve = Solve {
            finished_at_ms: 1_764_900_000_000 + n as i64 * 60_000,
            width: 4,
            height: 4,
            mode: Mode::Shuffled(Difficulty::Hard),
            start: start.tiles().to_vec(),
            moves: npuzzle::moves_to_string(&moves),
            time_ms: u64::from(*times_ms.last().unwrap()),
            times_ms,
            result: Ending::Solved,
            helped: false,
            photo: "chelsea.png".into(),
            shortest: Some(36),
            counted: None,
            legs: Vec::new(),
        };
        bytes.extend_from_slice(encode(&solve.encode()).unwrap().as_bytes());
    }
    bytes
}

fn solves(c: &mut Criterion) {
    let bytes = solve_history();
    let dir = std::env::temp_dir().join(format!("solves-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(SOLVES_FILE);
    std::fs::write(&path, &bytes).unwrap();
    eprintln!("10,000 solves: {} bytes", bytes.len());
    // As the app reads it at start: the journal's records, then the solves in them.
    c.bench_function("open a history of 10,000 4×4 solves", |b| {
        b.iter(|| {
            let loaded = journal::read(black_box(&path)).unwrap();
            assert_eq!(solves_in(&loaded).solves.len(), 10_000);
        })
    });
    std::fs::remove_dir_all(dir).unwrap();
}

criterion_group!(benches, save_log, solves);
criterion_main!(benches);
