//! Builds one pattern table in memory and prints its time and checksum: for profiling the
//! build (`valgrind --tool=callgrind`) and comparing builders.
//!
//! `cargo run --release -p npuzzle --example build_table -- [WxH] [TILES...]`
//! (default 4x4 and the tiles 1 5 6 9 13, the first pattern of 5-5-5).

use std::time::Instant;

use npuzzle::pdb::build::build_table;
use npuzzle::{Budget, Shape};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (w, h) = args
        .first()
        .and_then(|a| a.split_once('x'))
        .map_or((4, 4), |(w, h)| (w.parse().unwrap(), h.parse().unwrap()));
    let mut tiles: Vec<u8> = args.iter().skip(1).map(|t| t.parse().unwrap()).collect();
    if tiles.is_empty() {
        tiles = vec![1, 5, 6, 9, 13];
    }
    tiles.sort_unstable();
    let shape = Shape::new(w, h).unwrap();
    let started = Instant::now();
    let table = build_table(shape, &tiles, 0, &Budget::unlimited(), &|_| {}).unwrap();
    let sum = table.data().iter().fold(0u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
    });
    println!(
        "{shape} {tiles:?}: {} bytes in {:.2} s, fnv {sum:016x}",
        table.bytes(),
        started.elapsed().as_secs_f64()
    );
}
