//! A replay as a GIF: a 4×4 solve of 100 moves of a bundled photo, the picture at the
//! board's size (960 pixels) scaled to 480 and encoded; and a picture of noise, the worst
//! case. Prints each GIF's size.
//!
//! `cargo bench -p snapslide-photo --bench replay_gif`

#[path = "../tests/support/solve.rs"]
mod solve;

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use snapslide_photo::image::{Rgba, RgbaImage};
use snapslide_photo::{ReplaySpec, load_file, prepare, replay_gif};

/// The worst case: a picture of noise, too large a GIF in every style but the last, so made
/// three times.
fn noise() -> RgbaImage {
    let mut state = 1u32;
    RgbaImage::from_fn(960, 960, |_, _| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let [r, g, b, _] = state.to_le_bytes();
        Rgba([r, g, b, 255])
    })
}

fn replay(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay gif 4×4, 100 moves");
    group.sample_size(20);
    let (start, slides) = solve::solve(4, 4, 100, 11);
    let photos = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/photos");
    for name in ["coffee.png", "astronaut.png", "rocket.jpg", "noise"] {
        let picture = match name {
            "noise" => noise(),
            _ => prepare(&load_file(&photos.join(name)).expect("a photo"), 4, 4).picture,
        };
        let spec = ReplaySpec {
            picture: &picture,
            columns: 4,
            rows: 4,
            start: &start,
            slides: &slides,
            caption: None,
        };
        let bytes = replay_gif(&spec).expect("a GIF");
        println!("{name}: {} bytes", bytes.len());
        group.bench_function(name, |b| b.iter(|| replay_gif(black_box(&spec))));
    }
    group.finish();
}

criterion_group!(benches, replay);
criterion_main!(benches);
