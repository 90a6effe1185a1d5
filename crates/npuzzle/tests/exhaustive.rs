//! Whole state spaces checked against breadth-first truth.

use npuzzle::packed::PackedTiles;
use npuzzle::search::bfs::goal_distances;
use npuzzle::{Algorithm, Board, Budget, Options, Shape, is_solvable, linear_conflict, solve};

/// Every permutation of 0..n, in lexicographic order.
fn permutations(n: u8) -> Vec<Vec<u8>> {
    let mut current: Vec<u8> = (0..n).collect();
    let mut all = vec![current.clone()];
    loop {
        let Some(i) = (1..current.len())
            .rev()
            .find(|&i| current[i - 1] < current[i])
        else {
            return all;
        };
        let j = (i..current.len())
            .rev()
            .find(|&j| current[j] > current[i - 1])
            .unwrap();
        current.swap(i - 1, j);
        current[i..].reverse();
        all.push(current.clone());
    }
}

#[test]
fn solvability_agrees_with_reachability() {
    for (width, height) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
        let shape = Shape::new(width, height).unwrap();
        let reachable = goal_distances(shape).unwrap();
        let all = permutations(shape.cells() as u8);
        let mut solvable = 0;
        for tiles in all {
            let key = u64::pack(&tiles);
            let board = Board::new(width, height, tiles).unwrap();
            assert_eq!(
                is_solvable(&board),
                reachable.contains_key(&key),
                "{board:?}"
            );
            solvable += usize::from(is_solvable(&board));
        }
        assert_eq!(solvable, reachable.len());
        assert_eq!(solvable * 2, (1..=shape.cells()).product::<usize>());
    }
}

#[test]
fn astar_is_optimal_on_every_8_puzzle() {
    let shape = Shape::new(3, 3).unwrap();
    let distances = goal_distances(shape).unwrap();
    assert_eq!(distances.len(), 181_440);
    assert_eq!(distances.values().max(), Some(&31));
    let states: Vec<(u64, u8)> = distances.iter().map(|(&k, &d)| (k, d)).collect();
    let options = Options {
        algorithm: Some(Algorithm::AStar),
        budget: Budget::default(),
        ..Options::default()
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for chunk in states.chunks(states.len().div_ceil(threads)) {
            let options = &options;
            scope.spawn(move || {
                for &(key, distance) in chunk {
                    let tiles: Vec<u8> = (0..9).map(|cell| key.tile(cell)).collect();
                    let board = Board::new(3, 3, tiles).unwrap();
                    let solution = solve(&board, options).unwrap();
                    assert_eq!(solution.len(), distance as usize, "{board}");
                    assert!(solution.solves(&board), "{board}");
                    assert!(
                        linear_conflict(&board) <= distance as usize,
                        "inadmissible on {board}"
                    );
                }
            });
        }
    });
}
