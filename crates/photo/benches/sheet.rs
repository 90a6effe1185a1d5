//! What the framing sheet waits for after a 12-megapixel photo is decoded: its preview (ours,
//! a whole-factor box shrink, against the `image` crate's `thumbnail`, which the sheet used
//! before), and the subject's framing found on the preview.
//!
//! `cargo bench -p snapslide-photo --bench sheet`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use snapslide_photo::image::{DynamicImage, Rgb, RgbImage};
use snapslide_photo::{Framing, PREVIEW_SIDE, preview, subject_framing};

/// A phone camera's 12-megapixel photo, decoded (as a JPEG decodes: RGB, 8 bits), with detail
/// that varies across it.
fn photo() -> DynamicImage {
    DynamicImage::ImageRgb8(RgbImage::from_fn(4032, 3024, |x, y| {
        Rgb([(x ^ y) as u8, (x / 16) as u8, (y * 3 + x / 7) as u8])
    }))
}

fn sheet(c: &mut Criterion) {
    let photo = photo();
    let mut group = c.benchmark_group("sheet 12 MP");
    group.sample_size(20);
    group.bench_function("preview (box shrink)", |b| {
        b.iter(|| preview(black_box(&photo)))
    });
    group.bench_function("baseline: image thumbnail", |b| {
        b.iter(|| {
            black_box(&photo)
                .thumbnail(PREVIEW_SIDE, PREVIEW_SIDE)
                .to_rgba8()
        })
    });
    let small = DynamicImage::ImageRgba8(preview(&photo));
    let framing = Framing::centred((4032, 3024), (4, 4)).expect("a 4×4 fits");
    group.bench_function("subject framing on the preview", |b| {
        b.iter(|| subject_framing(black_box(&small), framing))
    });
    group.finish();
}

criterion_group!(benches, sheet);
criterion_main!(benches);
