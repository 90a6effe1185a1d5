//! Best-first search on Manhattan distance, shared by A* and greedy best-first, on the
//! engine's best-first core ([`Arena`]): with a consistent heuristic such as Manhattan no state
//! is expanded twice. The move that undoes the parent's move is never generated.
//!
//! A child whose priority is lower than its parent's (for A*, the same f and a smaller h: it
//! moved a tile toward home) comes before everything queued, since its parent came first; such
//! children go on a stack and are expanded next without touching the heap. For A* every node on
//! the stack has the smallest f there is, which is all optimality asks. On the 8-puzzle two
//! expansions in three come off that stack.

use super::arena::{Arena, NO_MOVE};
use super::budget::{Budget, GaveUp, StopReason, Stopwatch};
use super::key::PackedTiles;

use super::ranked::{MAX_RANKED_CELLS, RankTable, rank_packed};
use super::table::{Closed, StateTable, hash_of};
use crate::analysis::manhattan_table;
use crate::board::{Board, Move, Shape};

/// How the open list is ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OpenOrder {
    /// By steps + Manhattan, then Manhattan: optimal.
    StepsPlusManhattan,
    /// By Manhattan alone: quick, not optimal.
    Manhattan,
}

/// What a finished search found.
pub(crate) struct BestFirstResult {
    pub moves: Vec<Move>,
    pub nodes_expanded: u64,
    pub seconds: f64,
}

/// What each node keeps beside its state: the Manhattan distance and the blank's cell.
#[derive(Clone, Copy)]
struct Data {
    h: u16,
    blank: u8,
}

/// How many expansions pass between checks of the budget.
const CHECK_EVERY: u64 = 4096;
/// Room reserved up front: enough for most 8-puzzles without regrowing the tables.
const INITIAL_NODES: usize = 4096;

/// Searches from `board` to the goal, picking the packed form and closed set that fit the
/// board: on up to 9 cells an array indexed by the state's rank, else a hash table.
pub(crate) fn search(
    board: &Board,
    order: OpenOrder,
    budget: &Budget,
) -> Result<BestFirstResult, GaveUp> {
    let cells = board.tiles().len();
    if cells <= MAX_RANKED_CELLS {
        let rank = |key: &u64| u64::from(rank_packed(*key, cells));
        let root = rank(&u64::pack(board.tiles()));
        let table = RankTable::with_root(cells, root as u32, INITIAL_NODES);
        search_with::<u64, _>(board, order, budget, table, rank)
    } else if u64::fits(cells) {
        let table = StateTable::with_root(INITIAL_NODES, hash_of(&u64::pack(board.tiles())));
        search_with::<u64, _>(board, order, budget, table, hash_of)
    } else if u128::fits(cells) {
        let table = StateTable::with_root(INITIAL_NODES, hash_of(&u128::pack(board.tiles())));
        search_with::<u128, _>(board, order, budget, table, hash_of)
    } else {
        let root = <Box<[u8]>>::pack(board.tiles());
        let table = StateTable::with_root(INITIAL_NODES, hash_of(&root));
        search_with::<Box<[u8]>, _>(board, order, budget, table, hash_of)
    }
}

fn priority(order: OpenOrder, g: u32, h: u16) -> u32 {
    match order {
        OpenOrder::StepsPlusManhattan => ((g + u32::from(h)).min(0xFFFF) << 16) | u32::from(h),
        OpenOrder::Manhattan => u32::from(h) << 16,
    }
}

/// The search with a closed set `table` (holding the root as node 0) and the hash it takes.
fn search_with<K: PackedTiles, T: Closed>(
    board: &Board,
    order: OpenOrder,
    budget: &Budget,
    table: T,
    hash_of: impl Fn(&K) -> u64,
) -> Result<BestFirstResult, GaveUp> {
    let clock = Stopwatch::start();
    let expander = Expander::new(board.shape(), order, hash_of);
    let root_h: u16 = (board.tiles().iter().enumerate())
        .map(|(cell, &tile)| expander.h_of(tile, cell))
        .sum();
    let root = K::pack(board.tiles());
    let key_bytes = root.heap_bytes();
    let data = Data {
        h: root_h,
        blank: board.blank() as u8,
    };
    let mut arena = Arena::with_table(root, data, priority(order, 0, root_h), INITIAL_NODES, table);
    let mut expanded: u64 = 0;
    let mut lower_bound = usize::from(root_h);
    let gave_up = |reason, expanded, memory, lower_bound| GaveUp {
        reason,
        nodes_expanded: expanded,
        seconds: clock.seconds(),
        memory,
        lower_bound,
    };
    while let Some(index) = arena.pop() {
        let node = arena.node(index);
        let (g, h) = (node.g, node.data.h);
        if h == 0 {
            return Ok(BestFirstResult {
                moves: arena.path(index),
                nodes_expanded: expanded,
                seconds: clock.seconds(),
            });
        }
        if order == OpenOrder::StepsPlusManhattan {
            lower_bound = lower_bound.max((g + u32::from(h)) as usize);
        }
        expanded += 1;
        if expanded.is_multiple_of(CHECK_EVERY) || budget.max_nodes == Some(expanded) {
            let used = arena.memory(key_bytes);
            if let Err(reason) = budget.check(expanded, used) {
                return Err(gave_up(reason, expanded, used, lower_bound));
            }
        }
        expander.expand(&mut arena, index);
    }
    // Every reachable state was expanded without meeting the goal: only an unsolvable board
    // does that, and callers check solvability first.
    let used = arena.memory(key_bytes);
    Err(gave_up(StopReason::NodeLimit, expanded, used, lower_bound))
}

/// What expands a node, the same for every node of one search.
struct Expander<H> {
    order: OpenOrder,
    cells: usize,
    /// Manhattan distance of tile `t` on cell `c`: `distance[t * cells + c]`.
    distance: Vec<u16>,
    /// The cells each blank position can swap with, per move (`u8::MAX` off the board).
    steps: Vec<[u8; 4]>,
    hash_of: H,
}

impl<H> Expander<H> {
    fn new(shape: Shape, order: OpenOrder, hash_of: H) -> Expander<H> {
        Expander {
            order,
            cells: shape.cells(),
            distance: manhattan_table(shape),
            steps: (0..shape.cells())
                .map(|cell| Move::ALL.map(|mv| shape.step(cell, mv).map_or(u8::MAX, |c| c as u8)))
                .collect(),
            hash_of,
        }
    }

    /// The Manhattan distance of `tile` on `cell`.
    #[inline(always)]
    fn h_of(&self, tile: u8, cell: usize) -> u16 {
        self.distance[tile as usize * self.cells + cell]
    }

    /// Offers the children of node `index` (never the move back).
    #[inline(always)]
    fn expand<K: PackedTiles, T: Closed>(&self, arena: &mut Arena<K, Data, T>, index: u32)
    where
        H: Fn(&K) -> u64,
    {
        let node = arena.node(index);
        let Data { h, blank } = node.data;
        let (tiles, g, blank) = (node.key.clone(), node.g + 1, blank as usize);
        let node_priority = priority(self.order, node.g, h);
        let back = match node.last {
            NO_MOVE => NO_MOVE,
            last => Move::ALL[last as usize].inverse() as u8,
        };
        for (mv, &from) in self.steps[blank].iter().enumerate() {
            if from == u8::MAX || mv as u8 == back {
                continue;
            }
            let from = from as usize;
            let tile = tiles.tile(from);
            let child_h = h - self.h_of(tile, from) + self.h_of(tile, blank);
            let child = tiles.slide(blank, from);
            let hash = (self.hash_of)(&child);
            let child_priority = priority(self.order, g, child_h);
            // A child whose priority is below its parent's (for A*, the same f and a smaller h:
            // it moved a tile toward home) comes before everything queued, since its parent
            // came first: it skips the heap. For A* every such node has the smallest f there
            // is, which is all optimality asks. On the 8-puzzle two expansions in three come
            // off that stack.
            let data = Data {
                h: child_h,
                blank: from as u8,
            };
            let urgent = child_priority < node_priority;
            arena.offer(
                child,
                hash,
                index,
                g,
                mv as u8,
                data,
                child_priority,
                urgent,
            );
        }
    }
}
