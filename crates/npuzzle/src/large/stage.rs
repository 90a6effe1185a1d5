//! Placing several tiles at once: weighted A* over the positions of those tiles and the blank
//! alone (every other tile is as good as any other), walled off from the cells already done.
//! Moving tiles together lets one sweep of the blank carry several of them, which tile-by-tile
//! placement cannot do.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::board::{CellDistances, Move, Shape};
use crate::hash::{fnv1a, hash_u128};
use crate::packed::{cell_in, with_cell};
use crate::search::arena::{Arena, NO_MOVE, Wait};
use crate::search::budget::{Budget, StopReason};
use crate::search::weighted::{self, Ended, Limits, Space, Visit, Weight, priority};

/// The most tiles one stage may track (with the blank, 8 bits each in a `u128`: see
/// [`crate::packed::cell_in`]).
pub(crate) const MAX_TRACKED: usize = 15;

/// Lone-tile cost tables (see [`lone_tile_costs`]) already computed, by walls and goal: the
/// best-of construction tries several ways from the same board, which ask for the same tables.
#[derive(Default)]
pub(crate) struct LoneTileCache {
    tables: FxHashMap<(u64, usize), Rc<LoneTile>>,
}

/// One goal's lone-tile costs, and for each tile cell the cost with the blank at its best.
struct LoneTile {
    costs: Vec<u16>,
    best_blank: Vec<u16>,
}

impl LoneTileCache {
    /// Tables kept at most (each is `cells²` entries).
    const CAPACITY: usize = 256;

    /// The tables for `goals` with these walls, each computed if not yet known.
    fn tables(
        &mut self,
        steps: &[[usize; 4]],
        fixed: &[bool],
        goals: &[usize],
    ) -> Vec<Rc<LoneTile>> {
        let walls = fnv1a(fixed.iter().map(|&wall| u8::from(wall)));
        goals
            .iter()
            .map(|&goal| self.table(steps, fixed, walls, goal))
            .collect()
    }

    /// The table for `goal` with the walls `fixed` (whose hash is `walls`).
    fn table(
        &mut self,
        steps: &[[usize; 4]],
        fixed: &[bool],
        walls: u64,
        goal: usize,
    ) -> Rc<LoneTile> {
        if let Some(table) = self.tables.get(&(walls, goal)) {
            return Rc::clone(table);
        }
        if self.tables.len() >= Self::CAPACITY {
            self.tables.clear();
        }
        let cells = steps.len();
        let costs = lone_tile_costs(steps, fixed, goal);
        let best_blank = (0..cells)
            .map(|t| {
                costs[t * cells..(t + 1) * cells]
                    .iter()
                    .copied()
                    .min()
                    .unwrap_or(u16::MAX)
            })
            .collect();
        let table = Rc::new(LoneTile { costs, best_blank });
        self.tables.insert((walls, goal), Rc::clone(&table));
        table
    }
}

/// One stage's problem: which tiles go where, and the walls.
pub(crate) struct Stage<'a> {
    /// The board's shape.
    pub shape: Shape,
    /// Cells the blank may not enter.
    pub fixed: &'a [bool],
    /// The goal cell of each tracked tile, in slot order.
    pub goals: &'a [usize],
    /// Estimate with exact lone-tile costs (a breadth-first table per goal) instead of
    /// `3 ×` Manhattan.
    pub exact: bool,
}

/// For one goal cell: the fewest moves that bring a lone tile from `t` to the goal with the
/// blank starting at `b`, indexed `t * cells + b` (`u16::MAX` where it cannot), other tiles
/// and the walls as in the stage. A backward breadth-first search from the goal states.
fn lone_tile_costs(steps: &[[usize; 4]], fixed: &[bool], goal: usize) -> Vec<u16> {
    let cells = steps.len();
    let mut cost = vec![u16::MAX; cells * cells];
    let mut queue: Vec<u32> = Vec::with_capacity(cells * cells);
    for b in 0..cells {
        if b != goal && !fixed[b] {
            cost[goal * cells + b] = 0;
            queue.push((goal * cells + b) as u32);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let state = queue[head] as usize;
        head += 1;
        let (t, b) = (state / cells, state % cells);
        let next_cost = cost[state] + 1;
        for &p in &steps[b] {
            // The blank came from `p` to `b`: if `p` holds the tile now, the tile was on `b`.
            if p == usize::MAX {
                continue;
            }
            let before = if p == t { b * cells + p } else { t * cells + p };
            if cost[before] == u16::MAX {
                cost[before] = next_cost;
                queue.push(before as u32);
            }
        }
    }
    cost
}

impl Stage<'_> {
    /// With lone-tile cost tables: each misplaced tile's cost with the blank at its best,
    /// plus the extra the real blank needs for the cheapest tile to start.
    #[inline(always)]
    fn estimate_tables(&self, tables: &[Rc<LoneTile>], key: u128) -> (u32, u32) {
        let cells = self.shape.cells();
        let blank = cell_in(key, 0);
        let mut sum = 0u32;
        let mut extra = u32::MAX;
        for (slot, &goal) in self.goals.iter().enumerate() {
            let cell = cell_in(key, slot + 1);
            if cell == goal {
                continue;
            }
            let alone = u32::from(tables[slot].best_blank[cell].min(4000));
            sum += alone;
            let here = u32::from(tables[slot].costs[cell * cells + blank].min(4000));
            extra = extra.min(here.saturating_sub(alone));
        }
        if sum == 0 {
            return (0, 0);
        }
        (sum, extra)
    }

    /// Weighted estimate: `3 ×` the tracked tiles' Manhattan distance (a lone tile needs about
    /// three moves a step) plus the blank's distance to the nearest misplaced tile.
    /// Whether every tracked tile stands on its goal.
    fn placed(&self, key: u128) -> bool {
        self.goals
            .iter()
            .enumerate()
            .all(|(slot, &goal)| cell_in(key, slot + 1) == goal)
    }

    fn estimate(&self, distance: &CellDistances, key: u128) -> (u32, u32) {
        let blank = cell_in(key, 0);
        let mut manhattan = 0;
        let mut nearest = u32::MAX;
        for (slot, &goal) in self.goals.iter().enumerate() {
            let cell = cell_in(key, slot + 1);
            let d = distance.get(cell, goal);
            if d > 0 {
                manhattan += d;
                nearest = nearest.min(distance.get(blank, cell));
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
        cache: &mut LoneTileCache,
        budget: &Budget,
    ) -> Result<Option<Vec<Move>>, StopReason> {
        if cells.len() > MAX_TRACKED || cells.len() != self.goals.len() {
            return Ok(None);
        }
        let key = (cells.iter().enumerate()).fold(with_cell(0, 0, blank), |key, (slot, &cell)| {
            with_cell(key, slot + 1, cell)
        });
        let steps = self.open_steps();
        let estimate = self.estimator(&steps, cache);
        let start = priority(weight, 0, estimate(key));
        let mut arena = Arena::new(key, hash_u128(key), (), start, 4096);
        let mut space = StageSpace {
            stage: self,
            steps,
            estimate,
            tracked: cells.len(),
            weight,
        };
        let limits = Limits {
            every: 2048,
            max_nodes,
            counted: false,
        };
        Ok(
            match weighted::run(&mut arena, &mut space, &limits, budget)? {
                Ended::Stopped(index) => Some(arena.path(index)),
                Ended::RanDry | Ended::NodeLimit => None,
            },
        )
    }

    /// The cell one step from each cell in each direction, or `usize::MAX` off the board or
    /// into a wall.
    fn open_steps(&self) -> Vec<[usize; 4]> {
        (0..self.shape.cells())
            .map(|cell| {
                Move::ALL.map(|mv| match self.shape.step(cell, mv) {
                    Some(next) if !self.fixed[next] => next,
                    _ => usize::MAX,
                })
            })
            .collect()
    }

    /// The search's estimate of a key: exact lone-tile costs, or `3 ×` Manhattan plus the
    /// blank's way to the nearest misplaced tile.
    fn estimator(
        &self,
        steps: &[[usize; 4]],
        cache: &mut LoneTileCache,
    ) -> impl Fn(u128) -> u32 + '_ {
        let tables = match self.exact {
            true => cache.tables(steps, self.fixed, self.goals),
            false => Vec::new(),
        };
        let distance = CellDistances::new(self.shape);
        move |key| match self.exact {
            true => {
                let (sum, extra) = self.estimate_tables(&tables, key);
                sum + extra
            }
            false => {
                let (md, b) = self.estimate(&distance, key);
                3 * md + b
            }
        }
    }
}

/// A stage search's space: the stage, its open cells' steps, its estimate.
struct StageSpace<'s, 'a, E> {
    stage: &'s Stage<'a>,
    steps: Vec<[usize; 4]>,
    estimate: E,
    /// How many tiles are tracked (slots 1 on of the key).
    tracked: usize,
    weight: Weight,
}

impl<E: Fn(u128) -> u32> Space<u128, ()> for StageSpace<'_, '_, E> {
    /// Stops at the first board with every tracked tile on its goal.
    fn visit(&mut self, arena: &Arena<u128, ()>, index: u32) -> Visit {
        match self.stage.placed(arena.node(index).key) {
            true => Visit::Stop,
            false => Visit::Expand,
        }
    }

    /// Offers every child but the move back, through the open cells.
    #[inline(always)]
    fn expand(&self, arena: &mut Arena<u128, ()>, index: u32) {
        let node = arena.node(index);
        let (key, g, last) = (node.key, node.g, node.last);
        let blank = cell_in(key, 0);
        for mv in Move::ALL {
            let next = self.steps[blank][mv.index()];
            if next == usize::MAX || (last != NO_MOVE && Move::ALL[last as usize].inverse() == mv) {
                continue;
            }
            let child = slide(key, self.tracked, next, blank);
            let h = (self.estimate)(child);
            let (hash, priority) = (hash_u128(child), priority(self.weight, g + 1, h));
            arena.offer(
                child,
                hash,
                index,
                g + 1,
                mv as u8,
                (),
                priority,
                Wait::InTurn,
            );
        }
    }
}

/// The key after the blank moves from `blank` to `next`: the tracked tile there, if any of the
/// `tracked`, moves to `blank`.
fn slide(key: u128, tracked: usize, next: usize, blank: usize) -> u128 {
    let child = with_cell(key, 0, next);
    match (1..=tracked).find(|&slot| cell_in(key, slot) == next) {
        Some(slot) => with_cell(child, slot, blank),
        None => child,
    }
}
