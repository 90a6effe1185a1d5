//! The replay GIF decoded as a viewer shows it: frames drawn over each other at their offsets,
//! their transparent pixels leaving the frame before.

#[path = "support/solve.rs"]
mod support;

use snapslide_photo::image::{self, DynamicImage, Rgb, RgbImage, RgbaImage};
use snapslide_photo::replay_gif::{END_HOLD_MS, GIF_SIDE};
use snapslide_photo::{GifError, ReplaySpec, Slide, load_file, prepare, replay_gif};
use support::solve;

/// The package's folder, as `cargo test` gives it to the running test (not as it was when
/// compiled: a build folder shared by checkouts at other paths keeps a test built in another).
fn manifest_dir() -> String {
    std::env::var("CARGO_MANIFEST_DIR").expect("cargo test gives CARGO_MANIFEST_DIR")
}

/// What a viewer shows of a GIF.
struct Shown {
    width: u32,
    height: u32,
    /// Each frame's delay, in centiseconds.
    delays: Vec<u16>,
    /// The canvas after the first frame, and after the last.
    first: RgbImage,
    last: RgbImage,
    repeat: gif::Repeat,
}

fn show(bytes: &[u8]) -> Shown {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let palette = decoder.global_palette().expect("a global palette").to_vec();
    let (width, height) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut canvas = RgbImage::new(width, height);
    let (mut delays, mut first) = (Vec::new(), None);
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        let (left, top) = (u32::from(frame.left), u32::from(frame.top));
        let (w, h) = (u32::from(frame.width), u32::from(frame.height));
        assert!(
            left + w <= width && top + h <= height,
            "a frame off the canvas"
        );
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        for (i, &index) in frame.buffer.iter().enumerate() {
            if Some(index) == frame.transparent {
                continue;
            }
            let colour = &palette[usize::from(index) * 3..][..3];
            let (x, y) = (left + i as u32 % w, top + i as u32 / w);
            canvas.put_pixel(x, y, Rgb([colour[0], colour[1], colour[2]]));
        }
        delays.push(frame.delay);
        first.get_or_insert_with(|| canvas.clone());
    }
    Shown {
        width,
        height,
        delays,
        first: first.expect("at least one frame"),
        last: canvas,
        repeat: decoder.repeat(),
    }
}

/// A picture whose every tile has a colour of its own: red across, green down.
fn gradient(width: u32, height: u32) -> RgbaImage {
    RgbaImage::from_fn(width, height, |x, y| {
        image::Rgba([(x * 255 / width) as u8, (y * 255 / height) as u8, 90, 255])
    })
}

/// The mean colour of the middle half of a rectangle (clear of the lines between tiles).
fn middle(picture: &RgbImage, x: u32, y: u32, side: u32) -> [f64; 3] {
    let mut sum = [0.0; 3];
    let (from, to) = (side / 4, side * 3 / 4);
    for py in y + from..y + to {
        for px in x + from..x + to {
            for (s, c) in sum.iter_mut().zip(picture.get_pixel(px, py).0) {
                *s += f64::from(c);
            }
        }
    }
    sum.map(|s| s / f64::from((to - from) * (to - from)))
}

/// The mean difference per channel between two pictures of the same size.
fn difference(a: &RgbImage, b: &RgbImage) -> f64 {
    assert_eq!(a.dimensions(), b.dimensions());
    let total: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(&p, &q)| u64::from(p.abs_diff(q)))
        .sum();
    total as f64 / a.as_raw().len() as f64
}

fn scaled(picture: &RgbaImage, width: u32, height: u32) -> RgbImage {
    let small = image::imageops::thumbnail(picture, width, height);
    DynamicImage::ImageRgba8(small).to_rgb8()
}

#[test]
fn a_solve_plays_from_the_start_board_to_the_picture() {
    let picture = gradient(960, 960);
    let (start, slides) = solve(4, 4, 30, 7);
    let spec = ReplaySpec {
        picture: &picture,
        columns: 4,
        rows: 4,
        start: &start,
        slides: &slides,
        caption: None,
    };
    let shown = show(&replay_gif(&spec).unwrap());
    assert_eq!((shown.width, shown.height), (GIF_SIDE, GIF_SIDE));
    let frames = shown.delays.len();
    assert!(
        (slides.len() + 2..=3 * slides.len() + 2).contains(&frames),
        "{frames} frames for {} slides",
        slides.len()
    );
    assert_eq!(shown.repeat, gif::Repeat::Infinite);
    assert_eq!(
        u32::from(*shown.delays.last().unwrap()) * 10,
        END_HOLD_MS,
        "the last frame is held"
    );
    let solved = scaled(&picture, 480, 480);
    for (cell, &tile) in start.iter().enumerate() {
        let (x, y) = ((cell as u32 % 4) * 120, (cell as u32 / 4) * 120);
        let seen = middle(&shown.first, x, y, 120);
        if tile == 0 {
            assert!(
                seen.iter().all(|&c| c < 40.0),
                "the gap at {cell}: {seen:?}"
            );
            continue;
        }
        let home = u32::from(tile) - 1;
        let want = middle(&solved, (home % 4) * 120, (home / 4) * 120, 120);
        let off = seen.iter().zip(want).map(|(s, w)| (s - w).abs());
        assert!(
            off.fold(0.0, f64::max) < 6.0,
            "tile {tile} at {cell}: {seen:?}, not {want:?}"
        );
    }
    let off = difference(&shown.last, &solved);
    assert!(off < 8.0, "the last frame is {off} from the picture");
}

#[test]
fn the_gif_fits_480_pixels_and_never_grows_the_picture() {
    for (picture, (columns, rows), want) in [
        (gradient(600, 1000), (3, 5), (288, 480)),
        (gradient(1000, 500), (4, 2), (480, 240)),
        (gradient(100, 100), (4, 4), (100, 100)),
    ] {
        let (start, slides) = solve(columns, rows, 5, 1);
        let spec = ReplaySpec {
            picture: &picture,
            columns,
            rows,
            start: &start,
            slides: &slides,
            caption: None,
        };
        let shown = show(&replay_gif(&spec).unwrap());
        assert_eq!((shown.width, shown.height), want, "{columns} × {rows}");
        let off = difference(&shown.last, &scaled(&picture, want.0, want.1));
        assert!(off < 8.0, "{columns} × {rows}: {off} from the picture");
    }
}

#[test]
fn the_players_timing_is_kept_and_long_pauses_shortened() {
    let picture = gradient(300, 300);
    let (start, mut slides) = solve(3, 3, 3, 3);
    for (slide, at_ms) in slides.iter_mut().zip([0, 5000, 5040]) {
        slide.at_ms = at_ms;
    }
    let spec = ReplaySpec {
        picture: &picture,
        columns: 3,
        rows: 3,
        start: &start,
        slides: &slides,
        caption: None,
    };
    let shown = show(&replay_gif(&spec).unwrap());
    assert!(shown.delays.iter().all(|&d| d >= 2), "{:?}", shown.delays);
    // The start (1 s), the 5 s pause as 1 s, 40 ms, the solved board (0.5 s), the picture (2 s).
    let total: u32 = shown.delays.iter().map(|&d| u32::from(d)).sum();
    assert_eq!(total, 100 + 100 + 4 + 50 + 200, "{:?}", shown.delays);
    // The start; the slides followed by time to spare in three frames, the quick one in two;
    // the picture.
    assert_eq!(shown.delays.len(), 1 + 3 + 2 + 3 + 1, "{:?}", shown.delays);
}

#[test]
fn a_replay_that_does_not_solve_ends_on_its_last_board() {
    let picture = gradient(480, 480);
    let (start, slides) = solve(4, 4, 20, 5);
    let spec = ReplaySpec {
        picture: &picture,
        columns: 4,
        rows: 4,
        start: &start,
        slides: &slides[..10],
        caption: None,
    };
    let shown = show(&replay_gif(&spec).unwrap());
    let gap = usize::from(slides[9].gap_to) as u32;
    let seen = middle(&shown.last, (gap % 4) * 120, (gap / 4) * 120, 120);
    assert!(seen.iter().all(|&c| c < 40.0), "the gap at {gap}: {seen:?}");
    let held = u32::from(*shown.delays.last().unwrap()) * 10;
    assert!(
        (END_HOLD_MS..END_HOLD_MS + 100).contains(&held),
        "held {held} ms"
    );
}

/// A GIF of `slides` from `start`, on a board of this shape cut from `picture`.
fn gif(
    (columns, rows): (u32, u32),
    start: &[u8],
    slides: &[Slide],
    picture: &RgbaImage,
) -> Result<Vec<u8>, GifError> {
    replay_gif(&ReplaySpec {
        picture,
        columns,
        rows,
        start,
        slides,
        caption: None,
    })
}

/// The refusal of a replay that must be refused, said in words.
fn refusal(result: Result<Vec<u8>, GifError>) -> GifError {
    let error = result.expect_err("a GIF was made");
    assert!(!error.to_string().is_empty());
    error
}

const START_3X3: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 0, 8];

fn slide(gap_to: u16, at_ms: u32) -> Slide {
    Slide { gap_to, at_ms }
}

#[test]
fn a_board_that_does_not_hold_together_is_refused() {
    let (picture, start, ok) = (gradient(400, 400), START_3X3, [slide(8, 0)]);
    assert!(gif((3, 3), &start, &ok, &picture).is_ok());
    let e = refusal(gif((0, 3), &start, &ok, &picture));
    assert!(
        matches!(
            e,
            GifError::ZeroSize {
                columns: 0,
                rows: 3
            }
        ),
        "{e:?}"
    );
    let e = refusal(gif((3, 0), &start, &ok, &picture));
    assert!(matches!(e, GifError::ZeroSize { .. }), "{e:?}");
    let e = refusal(gif((17, 16), &start, &ok, &picture));
    assert!(matches!(e, GifError::TooManyTiles { .. }), "{e:?}");
    let e = refusal(gif((3, 3), &start, &ok, &gradient(11, 400)));
    let small = GifError::PictureTooSmall {
        width: 11,
        height: 400,
    };
    assert_eq!(e.to_string(), small.to_string());
    let e = refusal(gif((3, 3), &start[..8], &ok, &picture));
    assert!(
        matches!(
            e,
            GifError::TileCount {
                expected: 9,
                found: 8
            }
        ),
        "{e:?}"
    );
    let twice = [1, 2, 3, 4, 5, 6, 7, 0, 7];
    let e = refusal(gif((3, 3), &twice, &ok, &picture));
    assert!(matches!(e, GifError::BadTile { tile: 7 }), "{e:?}");
    let nine = [1, 2, 3, 4, 5, 6, 7, 0, 9];
    let e = refusal(gif((3, 3), &nine, &ok, &picture));
    assert!(matches!(e, GifError::BadTile { tile: 9 }), "{e:?}");
}

#[test]
fn slides_that_do_not_follow_the_gap_are_refused() {
    let (picture, start) = (gradient(400, 400), START_3X3);
    let e = refusal(gif((3, 3), &start, &[slide(9, 0)], &picture));
    assert!(
        matches!(e, GifError::OffBoard { slide: 0, cell: 9 }),
        "{e:?}"
    );
    let not_beside = |e: GifError, at: (usize, usize, u16)| {
        let far =
            matches!(e, GifError::NotBesideGap { slide, gap, cell } if (slide, gap, cell) == at);
        assert!(
            far,
            "{e:?}, wanted slide {}, gap {}, cell {}",
            at.0, at.1, at.2
        );
    };
    not_beside(
        refusal(gif((3, 3), &start, &[slide(3, 0)], &picture)),
        (0, 7, 3),
    );
    let two = [slide(8, 0), slide(6, 5)];
    not_beside(refusal(gif((3, 3), &start, &two, &picture)), (1, 8, 6));
    // Cell 3 follows cell 2 in row-major order, but on the next row.
    let corner = [1, 2, 0, 3, 4, 5, 6, 7, 8];
    not_beside(
        refusal(gif((3, 3), &corner, &[slide(3, 0)], &picture)),
        (0, 2, 3),
    );
    let e = refusal(gif((3, 3), &start, &[slide(8, 10), slide(5, 9)], &picture));
    assert!(matches!(e, GifError::TimeGoesBack { slide: 1 }), "{e:?}");
}

#[test]
fn a_hundred_move_solve_of_each_bundled_photo_is_under_2_mb() {
    let photos = format!("{}/../../assets/photos", crate::manifest_dir());
    let (start, slides) = solve(4, 4, 100, 11);
    let mut seen = 0;
    for entry in std::fs::read_dir(&photos).unwrap() {
        let path = entry.unwrap().path();
        if !matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("jpg" | "png")
        ) {
            continue;
        }
        let photo = load_file(&path).unwrap();
        let picture = prepare(&photo, 4, 4).picture;
        let spec = ReplaySpec {
            picture: &picture,
            columns: 4,
            rows: 4,
            start: &start,
            slides: &slides,
            caption: None,
        };
        let bytes = replay_gif(&spec).unwrap();
        println!("{}: {} bytes", path.display(), bytes.len());
        assert!(
            bytes.len() <= 2_000_000,
            "{}: {} bytes",
            path.display(),
            bytes.len()
        );
        let shown = show(&bytes);
        let off = difference(&shown.last, &scaled(&picture, 480, 480));
        assert!(
            off < 8.0,
            "{}: the last frame is {off} from the picture",
            path.display()
        );
        seen += 1;
    }
    assert!(seen >= 3, "only {seen} photos");
}

#[test]
fn even_a_picture_of_noise_keeps_within_2_mb_with_fewer_frames() {
    let mut state = 1u32;
    let noise = RgbaImage::from_fn(960, 960, |_, _| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let [r, g, b, _] = state.to_le_bytes();
        image::Rgba([r, g, b, 255])
    });
    let (start, slides) = solve(4, 4, 100, 3);
    let spec = ReplaySpec {
        picture: &noise,
        columns: 4,
        rows: 4,
        start: &start,
        slides: &slides,
        caption: None,
    };
    let bytes = replay_gif(&spec).unwrap();
    assert!(bytes.len() <= 2_000_000, "{} bytes", bytes.len());
    let shown = show(&bytes);
    assert!(
        shown.delays.len() < 3 * slides.len(),
        "{} frames",
        shown.delays.len()
    );
    assert!(shown.delays.len() >= slides.len() + 2);
}

#[test]
fn any_replay_makes_a_gif_or_a_refusal_never_a_panic() {
    let picture = gradient(24, 24);
    let mut state = 0x2545_f491_u64;
    let mut next = |below: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % below
    };
    let (mut made, mut refused) = (0, 0);
    for _ in 0..2000 {
        let (columns, rows) = (next(5) as u32, next(5) as u32);
        let cells = (columns * rows) as usize;
        let mut start: Vec<u8> = (0..cells as u8).collect();
        for i in (1..cells).rev() {
            start.swap(i, next(i as u64 + 1) as usize);
        }
        if next(4) == 0 && cells > 0 {
            start[next(cells as u64) as usize] = next(30) as u8;
        }
        let slides: Vec<Slide> = (0..next(6))
            .map(|i| Slide {
                gap_to: next(cells as u64 + 2) as u16,
                at_ms: (i * 100 + next(150)) as u32,
            })
            .collect();
        let spec = ReplaySpec {
            picture: &picture,
            columns,
            rows,
            start: &start,
            slides: &slides,
            caption: None,
        };
        match replay_gif(&spec) {
            Ok(bytes) => {
                show(&bytes);
                made += 1;
            }
            Err(_) => refused += 1,
        }
    }
    assert!(made > 20 && refused > 20, "{made} made, {refused} refused");
}

#[test]
fn a_caption_stands_under_the_board_from_the_first_frame_to_the_last() {
    const FONT: &[u8] = include_bytes!("../../../assets/fonts/Manrope-Medium.ttf");
    let picture = gradient(960, 960);
    let (start, slides) = solve(4, 4, 30, 7);
    let spec = |caption: Option<snapslide_photo::Caption<'static>>| ReplaySpec {
        picture: &picture,
        columns: 4,
        rows: 4,
        start: &start,
        slides: &slides,
        caption,
    };
    let plain = show(&replay_gif(&spec(None)).unwrap());
    let caption = snapslide_photo::Caption {
        text: "4×4 · 30 moves · 12.34 s",
        font: FONT,
    };
    let captioned = show(&replay_gif(&spec(Some(caption))).unwrap());
    let strip = snapslide_photo::caption::strip_height(GIF_SIDE);
    assert_eq!(
        (captioned.width, captioned.height),
        (GIF_SIDE, GIF_SIDE + strip)
    );
    // The board is drawn as without the caption; under it, light text on the dark.
    let board =
        |shown: &RgbImage| image::imageops::crop_imm(shown, 0, 0, GIF_SIDE, GIF_SIDE).to_image();
    for (with, without) in [
        (&captioned.first, &plain.first),
        (&captioned.last, &plain.last),
    ] {
        assert!(difference(&board(with), without) < 1.0);
        let light = (GIF_SIDE..GIF_SIDE + strip)
            .flat_map(|y| (0..GIF_SIDE).map(move |x| (x, y)))
            .filter(|&(x, y)| with.get_pixel(x, y).0.iter().all(|&c| c > 200))
            .count();
        assert!(light > 100, "only {light} light pixels in the caption");
    }
}
