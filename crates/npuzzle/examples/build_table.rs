//! Builds one pattern table in memory and prints its time and checksum (and on standard error
//! the time of each layer): for profiling the
//! build (`valgrind --tool=callgrind`) and comparing builders.
//!
//! `cargo run --release -p npuzzle --example build_table -- [WxH] [TILES...]`
//! (default 4x4 and the tiles 1 5 6 9 13, the first pattern of 5-5-5).

use std::time::Instant;

use npuzzle::hash::fnv1a;
use npuzzle::pdb::build::build_table;
use npuzzle::{Budget, PdbEvent, Shape};

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
    // A line a layer, with the placements reached so far and the time.
    let layers = |event: &PdbEvent| {
        if let PdbEvent::BuildProgress { done, total, .. } = event {
            let seconds = started.elapsed().as_secs_f64();
            eprintln!("{seconds:8.2} s  {done:>12} of {total} placements");
        }
    };
    let table = build_table(shape, &tiles, 0, &Budget::unlimited(), &layers).unwrap();
    let sum = fnv1a(table.data().iter().copied());
    println!(
        "{shape} {tiles:?}: {} bytes in {:.2} s, fnv {sum:016x}",
        table.bytes(),
        started.elapsed().as_secs_f64()
    );
}
