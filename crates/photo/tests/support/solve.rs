//! A made-up solve for the replay GIF's tests and bench: a board scrambled by a walk of the
//! gap from the solved board, and the walk back as the player's slides, with a player's
//! timing (a few moves a second, now and then a long think).

use snapslide_photo::Slide;

/// A solve of exactly `moves` slides on a `columns` × `rows` board: the start board and the
/// slides, from the seed `seed`.
pub fn solve(columns: u32, rows: u32, moves: usize, seed: u64) -> (Vec<u8>, Vec<Slide>) {
    let (columns, cells) = (columns as usize, (columns * rows) as usize);
    let mut board: Vec<u8> = (1..cells as u8).chain([0]).collect();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = |below: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % below
    };
    let mut gap = cells - 1;
    let mut walk = vec![gap];
    while walk.len() <= moves {
        let beside: Vec<usize> = [
            (gap % columns > 0).then(|| gap - 1),
            (gap % columns + 1 < columns).then(|| gap + 1),
            gap.checked_sub(columns),
            (gap + columns < cells).then(|| gap + columns),
        ]
        .into_iter()
        .flatten()
        .filter(|&cell| walk.len() < 2 || cell != walk[walk.len() - 2])
        .collect();
        let cell = beside[next(beside.len() as u64) as usize];
        board.swap(gap, cell);
        gap = cell;
        walk.push(gap);
    }
    let mut at_ms = 0;
    let slides = walk[..moves]
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &cell)| {
            if i > 0 {
                at_ms += 120 + next(400) as u32 + if next(20) == 0 { 4000 } else { 0 };
            }
            Slide {
                gap_to: cell as u16,
                at_ms,
            }
        })
        .collect();
    (board, slides)
}
