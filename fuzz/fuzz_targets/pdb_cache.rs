//! Any bytes as a pattern database's cached file, loaded for a small 3×3 partition: an error
//! (a wrong header, size or checksum), never a panic; tables that load answer for the goal.
#![no_main]

use std::path::PathBuf;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use npuzzle::pdb::cache::load;
use npuzzle::{Board, Partition, Shape};

/// The partition the seed's file holds (see `examples/seeds.rs`).
static PARTITION: LazyLock<Partition> = LazyLock::new(|| {
    let shape = Shape::new(3, 3).expect("3×3 is a board");
    Partition::new(shape, "fuzz-2-1", vec![vec![1, 2], vec![3]]).expect("a valid partition")
});

/// One file for this process's inputs, in memory where there is a tmpfs.
static FILE: LazyLock<PathBuf> = LazyLock::new(|| {
    let shm = PathBuf::from("/dev/shm");
    let dir = if shm.is_dir() {
        shm
    } else {
        std::env::temp_dir()
    };
    dir.join(format!("npuzzle-fuzz-pdb-{}.pdb", std::process::id()))
});

fuzz_target!(|data: &[u8]| {
    std::fs::write(&*FILE, data).expect("the input file is written");
    if let Ok(db) = load(&PARTITION, &FILE) {
        let goal = Board::goal(3, 3).expect("3×3 is a board");
        let _ = db.heuristic(&goal);
    }
});
