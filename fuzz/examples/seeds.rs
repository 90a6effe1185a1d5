//! Writes the seed corpora, `fuzz/seeds/<target>/`, from real values: the files the app writes
//! (settings, best scores, the days' results, the game), a small pattern database's cache
//! file, and tiny photos. Run from the repository: `cargo run --manifest-path
//! fuzz/Cargo.toml --example seeds`.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use npuzzle::pdb::cache;
use npuzzle::{Board, Budget, Move, Partition, Shape, parse_board};
use serde_json::Value;
use snapslide_game::files::SavedState;
use snapslide_game::{
    BestScores, DailyResult, DailyResults, Difficulty, Game, PhotoSource, Preferences, Theme,
};
use snapslide_photo::image::{self, DynamicImage, ImageFormat, RgbaImage};

/// The seeds folder of a target, made if missing.
fn folder(target: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("seeds")
        .join(target);
    std::fs::create_dir_all(&dir).expect("the seeds folder can be made");
    dir
}

/// Writes one seed.
fn seed(target: &str, name: &str, bytes: &[u8]) {
    std::fs::write(folder(target).join(name), bytes).expect("a seed can be written");
}

/// A value as the app writes it: pretty JSON.
fn json(value: &impl serde::Serialize) -> Vec<u8> {
    serde_json::to_vec_pretty(value).expect("the value writes as JSON")
}

fn settings() {
    seed("settings", "default.json", &json(&Preferences::default()));
    let chosen = Preferences {
        difficulty: Difficulty::Hard,
        show_numbers: Some(true),
        mark_correct: true,
        meter: true,
        sound: false,
        tone: Some(true),
        haptics: false,
        speed: 12.5,
        theme: Theme::Light,
        text_size: Some(150),
        reduce_motion: Some(true),
        hover: true,
        instant: true,
        server: None,
    };
    seed("settings", "chosen.json", &json(&chosen));
    // One bad value beside good ones: the reader keeps the rest.
    let mut bad: Value = serde_json::to_value(&chosen).expect("preferences are JSON");
    bad["speed"] = "fast".into();
    seed("settings", "one-bad-value.json", &json(&bad));
}

fn scores() {
    let mut scores = BestScores::default();
    scores.record(BestScores::key(4, 4, Difficulty::Easy), 30, 9_000);
    scores.record(BestScores::key(4, 4, Difficulty::Easy), 26, 12_500);
    scores.record(BestScores::key(3, 5, Difficulty::Expert), 61, 95_250);
    seed("scores", "scores.json", &json(&scores));
    seed("scores", "empty.json", &json(&BestScores::default()));
}

fn daily() {
    let mut days = DailyResults::default();
    for (day, moves, helped) in [(20_785, 44, false), (20_786, 36, true), (20_787, 40, false)] {
        let result = DailyResult {
            moves,
            millis: 61_000 + moves as u64 * 900,
            shortest: 36,
            helped,
        };
        days.record(day, result);
    }
    seed("daily", "daily.json", &json(&days));
}

/// A 4×4 game with taps, an undo (a redo tail), time on the clock.
fn played() -> Game {
    let start = parse_board("1 2 3 4 / 5 6 7 8 / 9 10 0 11 / 13 14 15 12").expect("a board");
    let mut game = Game::new(start, Difficulty::Medium);
    game.tap(8);
    game.tap(11);
    game.apply(&[Move::Up]);
    game.undo();
    game.tick(std::time::Duration::from_millis(4_321));
    game
}

fn game() {
    let state = |game: &Game, photo: PhotoSource| SavedState {
        game: game.to_saved(),
        photo,
        framing: None,
    };
    let bundled = PhotoSource::Bundled("chelsea.png".into());
    seed("game", "played.json", &json(&state(&played(), bundled)));
    let start = parse_board("1 2 3 / 4 5 6 / 7 0 8").expect("a board");
    let mut daily = Game::daily(start, 20_787, 1);
    daily.mark_helped();
    daily.apply(&[Move::Right]);
    let picked = PhotoSource::Picked("photos/3f2a.jpg".into());
    seed("game", "daily-won.json", &json(&state(&daily, picked)));
    let custom = Game::new(
        Board::goal(3, 4).expect("a board"),
        snapslide_game::GameKind::Custom,
    );
    let file = PhotoSource::File("/home/me/cat.webp".into());
    seed("game", "custom.json", &json(&state(&custom, file)));
    // A saved game alone, as `read_game` reads it.
    seed("game", "saved-game.json", &json(&played().to_saved()));
}

fn pdb_cache() {
    let shape = Shape::new(3, 3).expect("3×3 is a board");
    let partition = Partition::new(shape, "fuzz-2-1", vec![vec![1, 2], vec![3]])
        .expect("the fuzz target's partition");
    let db = cache::build(&partition, &Budget::default()).expect("a tiny build");
    cache::save(&db, &cache::file_path(&folder("pdb_cache"), &partition)).expect("saved");
}

/// A small picture with something in every channel.
fn picture(width: u32, height: u32) -> DynamicImage {
    DynamicImage::ImageRgba8(RgbaImage::from_fn(width, height, |x, y| {
        let alpha = if (x + y) % 7 == 0 { 128 } else { 255 };
        image::Rgba([(x * 9) as u8, (y * 13) as u8, ((x ^ y) * 5) as u8, alpha])
    }))
}

fn encoded(image: &DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut bytes = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut bytes), format)
        .expect("the picture encodes");
    bytes
}

/// A JPEG with an EXIF block saying "turn 90° clockwise" (orientation 6) after its start.
fn with_orientation(jpeg: &[u8]) -> Vec<u8> {
    let tiff: &[u8] = b"MM\0\x2a\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x06\0\0\0\0\0\0";
    let mut app1 = b"Exif\0\0".to_vec();
    app1.extend_from_slice(tiff);
    let mut out = jpeg[..2].to_vec();
    out.extend_from_slice(&[0xFF, 0xE1]);
    out.extend_from_slice(&(app1.len() as u16 + 2).to_be_bytes());
    out.extend_from_slice(&app1);
    out.extend_from_slice(&jpeg[2..]);
    out
}

fn photo() {
    let rgba = picture(24, 16);
    seed("photo", "rgba.png", &encoded(&rgba, ImageFormat::Png));
    let grey = DynamicImage::ImageLuma16(rgba.to_luma16());
    seed("photo", "grey16.png", &encoded(&grey, ImageFormat::Png));
    let rgb = DynamicImage::ImageRgb8(picture(40, 30).to_rgb8());
    let jpeg = encoded(&rgb, ImageFormat::Jpeg);
    seed("photo", "photo.jpg", &jpeg);
    seed("photo", "turned.jpg", &with_orientation(&jpeg));
    seed("photo", "rgba.webp", &encoded(&rgba, ImageFormat::WebP));
}

/// Challenge codes (the target's text) and the fields behind them (its sealed input): a 3×3
/// solve, a 4×4 solve of 100 moves with and without its moves' times, an 8×8 and a 2×2 one,
/// and a link in lower case with hyphens.
fn code() {
    let walk = "ULDRDRURDDLLLUURDLURRDRDLLLURDLURRDLUULDRURRULDDDRUULURDLDLLDRRRULULULDDDRULUURRRDDLLDRRUUULLLDRRDRD";
    let four = parse_board("5 9 3 15 / 2 0 6 10 / 1 12 11 8 / 4 13 14 7").expect("a board");
    let mut eight = Board::goal(8, 8).expect("8x8 is a board");
    eight
        .apply_all(&[Move::Up, Move::Left, Move::Left, Move::Up])
        .expect("legal");
    let solves = [
        (
            "3x3",
            parse_board("1 0 2 / 7 5 4 / 8 6 3").expect("a board"),
            "DRDLLURURDD",
            false,
        ),
        ("4x4", four.clone(), walk, false),
        ("4x4-times", four, walk, true),
        ("8x8", eight, "DRRD", true),
        (
            "2x2",
            Board::goal(2, 2).expect("2x2 is a board"),
            "UDLR",
            false,
        ),
    ];
    for (name, start, moves, timed) in solves {
        let moves = npuzzle::moves_from_str(moves).expect("move letters");
        // Human times: 80 to 600 ms after the move before.
        let times: Vec<u64> = (0..moves.len() as u64)
            .scan(0, |time, i| {
                *time += if i == 0 { 0 } else { 80 + i * 337 % 521 };
                Some(*time)
            })
            .collect();
        let total = times.last().map_or(0, |last| last + 180);
        let times = timed.then_some(times);
        let challenge = challenge::Challenge::new(start, moves, total, times).expect("a challenge");
        seed("code", &format!("{name}.txt"), challenge.code().as_bytes());
        let sealed = challenge::fuzzing::unseal(challenge.code()).expect("a code");
        seed("code", &format!("{name}.sealed"), &sealed);
    }
    let link = challenge::decode("snapslide://c/4SJMFVGPHFT3E4H4KV").err();
    assert!(link.is_some(), "an unsolvable board is refused");
    seed("code", "unsolvable.txt", b"4SJMFVGPHFT3E4H4KV");
    let hyphens = "snapslide://c/5239-mv0k-xfdn-44xs-nnov-3vpm-dhxg-9swj-q13c-tfwh-2awg-fttf-g59y-x422-8jv0-36fe";
    assert!(challenge::decode(hyphens).is_ok(), "the link reads back");
    seed("code", "link.txt", hyphens.as_bytes());
}

fn main() {
    code();
    settings();
    scores();
    daily();
    game();
    pdb_cache();
    photo();
    println!("seeds written under {}", folder("").display());
}
