//! The journal's own costs: reading back 5,000 short records (a long game's moves) and 10,000
//! long ones (a solve history's size), and appending one record.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use journal::{Journal, Loaded, encode};

/// A journal's bytes: `count` records of `payload`, numbered.
fn journal_bytes(count: usize, payload: &str) -> Vec<u8> {
    let mut bytes = String::new();
    for n in 0..count {
        bytes.push_str(&encode(&format!("{{\"n\":{n},{payload}}}")).unwrap());
    }
    bytes.into_bytes()
}

fn load(c: &mut Criterion) {
    let moves = journal_bytes(5_000, r#""a":"R","c":123456"#);
    c.bench_function("parse 5,000 move records", |b| {
        b.iter(|| Loaded::parse(black_box(&moves)))
    });
    let solve = format!(
        r#""mv":"{}","tm":[{}]"#,
        "R".repeat(100),
        "250,".repeat(99) + "250"
    );
    let solves = journal_bytes(10_000, &solve);
    c.bench_function("parse 10,000 solve-sized records", |b| {
        b.iter(|| Loaded::parse(black_box(&solves)))
    });
}

fn append(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("journal-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut journal, _) = Journal::open(&dir.join("append")).unwrap();
    c.bench_function("append one record, not synced", |b| {
        b.iter(|| {
            journal
                .append(black_box(r#"{"a":"R","c":123456}"#))
                .unwrap()
        })
    });
    drop(journal);
    std::fs::remove_dir_all(dir).unwrap();
}

criterion_group!(benches, load, append);
criterion_main!(benches);
