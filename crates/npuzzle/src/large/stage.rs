//! Placing several tiles at once: weighted A* over the positions of those tiles and the blank
//! alone (every other tile is as good as any other), walled off from the cells already done.
//! Moving tiles together lets one sweep of the blank carry several of them, which tile-by-tile
//! placement cannot do.

use rustc_hash::FxHashMap;

use crate::board::{Move, Shape};
use crate::search::budget::{Budget, StopReason};
use crate::search::heap::MinHeap;

/// The most tiles one stage may track (with the blank, 8 bits each in a `u128`).
pub(crate) const MAX_TRACKED: usize = 15;

struct Node {
    key: u128,
    parent: u32,
    g: u16,
    last: u8,
}

fn get(key: u128, slot: usize) -> usize {
    ((key >> (8 * slot)) & 0xFF) as usize
}

fn set(key: u128, slot: usize, cell: usize) -> u128 {
    (key & !(0xFF << (8 * slot))) | ((cell as u128) << (8 * slot))
}

/// One stage's problem: which tiles go where, and the walls.
pub(crate) struct Stage<'a> {
    /// The board's shape.
    pub shape: Shape,
    /// Cells the blank may not enter.
    pub fixed: &'a [bool],
    /// The goal cell of each tracked tile, in slot order.
    pub goals: &'a [usize],
}

impl Stage<'_> {
    fn distance(&self, a: usize, b: usize) -> u32 {
        self.shape.distance(a, b) as u32
    }

    /// Weighted estimate: `3 ×` the tracked tiles' Manhattan distance (a lone tile needs about
    /// three moves a step) plus the blank's distance to the nearest misplaced tile.
    fn estimate(&self, key: u128) -> (u32, u32) {
        let blank = get(key, 0);
        let mut manhattan = 0;
        let mut nearest = u32::MAX;
        for (slot, &goal) in self.goals.iter().enumerate() {
            let cell = get(key, slot + 1);
            let d = self.distance(cell, goal);
            if d > 0 {
                manhattan += d;
                nearest = nearest.min(self.distance(blank, cell));
            }
        }
        if manhattan == 0 {
            return (0, 0);
        }
        (manhattan, nearest.saturating_sub(1))
    }

    /// Moves that bring every tracked tile to its goal from the tracked `cells` (slot order)
    /// and the `blank`, by weighted best-first search: priority `g + weight × (3·md + blank)`.
    pub(crate) fn solve(
        &self,
        blank: usize,
        cells: &[usize],
        weight: (u32, u32),
        max_nodes: u64,
        budget: &Budget,
    ) -> Result<Option<Vec<Move>>, StopReason> {
        if cells.len() > MAX_TRACKED || cells.len() != self.goals.len() {
            return Ok(None);
        }
        let slots = cells.len() + 1;
        let mut key = set(0, 0, blank);
        for (slot, &cell) in cells.iter().enumerate() {
            key = set(key, slot + 1, cell);
        }
        let steps: Vec<[usize; 4]> = (0..self.shape.cells())
            .map(|cell| {
                Move::ALL.map(|mv| match self.shape.step(cell, mv) {
                    Some(next) if !self.fixed[next] => next,
                    _ => usize::MAX,
                })
            })
            .collect();
        let (num, den) = weight;
        let priority = |g: u16, (md, b): (u32, u32)| -> u32 {
            let h = 3 * md + b;
            ((den * u32::from(g) + num * h).min((1 << 22) - 1) << 10) | h.min(1023)
        };
        let mut nodes = vec![Node {
            key,
            parent: u32::MAX,
            g: 0,
            last: 4,
        }];
        let mut best: FxHashMap<u128, u32> = FxHashMap::default();
        best.insert(key, 0);
        let mut open = MinHeap::new();
        open.push(priority(0, self.estimate(key)), 0);
        let mut expanded = 0u64;
        while let Some((_, index)) = open.pop() {
            let (key, g, last) = {
                let node = &nodes[index as usize];
                (node.key, node.g, node.last)
            };
            if best.get(&key) != Some(&index) {
                continue;
            }
            if self.estimate(key).0 == 0 {
                let mut moves = Vec::with_capacity(g as usize);
                let mut at = index as usize;
                while nodes[at].parent != u32::MAX {
                    moves.push(Move::ALL[nodes[at].last as usize]);
                    at = nodes[at].parent as usize;
                }
                moves.reverse();
                return Ok(Some(moves));
            }
            expanded += 1;
            if expanded.is_multiple_of(2048) {
                budget.check(0, 0)?;
                if expanded >= max_nodes {
                    return Ok(None);
                }
            }
            let blank = get(key, 0);
            for mv in Move::ALL {
                if last < 4 && Move::ALL[last as usize].inverse() == mv {
                    continue;
                }
                let next = steps[blank][mv.index()];
                if next == usize::MAX {
                    continue;
                }
                let mut child = set(key, 0, next);
                for slot in 1..slots {
                    if get(key, slot) == next {
                        child = set(child, slot, blank);
                        break;
                    }
                }
                let g2 = g + 1;
                let at = nodes.len() as u32;
                match best.get_mut(&child) {
                    Some(known) if nodes[*known as usize].g <= g2 => continue,
                    Some(known) => *known = at,
                    None => {
                        best.insert(child, at);
                    }
                }
                nodes.push(Node {
                    key: child,
                    parent: index,
                    g: g2,
                    last: mv as u8,
                });
                open.push(priority(g2, self.estimate(child)), at);
            }
        }
        Ok(None)
    }
}
