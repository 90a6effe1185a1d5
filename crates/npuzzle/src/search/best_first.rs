//! Best-first search on Manhattan distance, shared by A* and greedy best-first, on the
//! engine's best-first core ([`Arena`]): with a consistent heuristic such as Manhattan no state
//! is expanded twice. The move that undoes the parent's move is never generated.
//!
//! A child whose priority is lower than its parent's (for A*, the same f and a smaller h: it
//! moved a tile toward home) comes before everything queued, since its parent came first; such
//! children go on a stack and are expanded next without touching the heap. For A* every node on
//! the stack has the smallest f there is, which is all optimality asks. On the 8-puzzle two
//! expansions in three come off that stack.
//!
//! On boards of up to 9 cells the closed set is an array indexed by the state's number among
//! the reachable states ([`StateNumbers`]), which a move along a row changes by a constant; on
//! larger boards a hash table. The moves out of a node come from a table by its blank's cell
//! and the move that reached it, so the loop over them has no test to mispredict.

use super::arena::{Arena, NO_MOVE};
use super::budget::{Budget, GaveUp, StopReason, Stopwatch};
use super::key::PackedTiles;

use super::ranked::{MAX_RANKED_CELLS, RankTable, StateNumbers};
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

/// What each node keeps beside its state: the Manhattan distance, the blank's cell, and what
/// names its children in the closed set.
#[derive(Clone, Copy)]
struct Data<M> {
    h: u16,
    blank: u8,
    memo: M,
}

/// How one search finds a state in its closed set: by a hash of its packed tiles, or on small
/// boards by its number, which a child takes from its parent's.
trait Naming<K> {
    /// What a node keeps to name its children.
    type Memo: Copy;
    /// The root's name (the hash the closed set takes) and memo.
    fn root(&self, key: &K, blank: usize) -> (u64, Self::Memo);
    /// The name and memo of `child`, reached from a node with memo `parent` by the blank's
    /// move `mv` onto cell `to`.
    fn child(&self, parent: Self::Memo, child: &K, mv: Move, to: usize) -> (u64, Self::Memo);
}

/// Names states by [`hash_of`] their packed tiles.
struct Hashed;

impl<K: PackedTiles> Naming<K> for Hashed {
    type Memo = ();
    #[inline(always)]
    fn root(&self, key: &K, _blank: usize) -> (u64, ()) {
        (hash_of(key), ())
    }
    #[inline(always)]
    fn child(&self, _parent: (), child: &K, _mv: Move, _to: usize) -> (u64, ()) {
        (hash_of(child), ())
    }
}

impl Naming<u64> for StateNumbers {
    type Memo = u32;
    #[inline(always)]
    fn root(&self, key: &u64, blank: usize) -> (u64, u32) {
        let number = self.of(*key, blank);
        (u64::from(number), number)
    }
    #[inline(always)]
    fn child(&self, parent: u32, child: &u64, mv: Move, to: usize) -> (u64, u32) {
        let number = self.of_child(parent, *child, mv, to);
        (u64::from(number), number)
    }
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
    let hashed = |root| StateTable::with_root(INITIAL_NODES, root);
    if cells <= MAX_RANKED_CELLS {
        let numbers = StateNumbers::new(cells);
        let len = numbers.len();
        let numbered = |root| RankTable::with_root(len, root as u32, INITIAL_NODES);
        search_with::<u64, _, _>(board, order, budget, numbered, numbers)
    } else if u64::fits(cells) {
        search_with::<u64, _, _>(board, order, budget, hashed, Hashed)
    } else if u128::fits(cells) {
        search_with::<u128, _, _>(board, order, budget, hashed, Hashed)
    } else {
        search_with::<Box<[u8]>, _, _>(board, order, budget, hashed, Hashed)
    }
}

fn priority(order: OpenOrder, g: u32, h: u16) -> u32 {
    match order {
        OpenOrder::StepsPlusManhattan => ((g + u32::from(h)).min(0xFFFF) << 16) | u32::from(h),
        OpenOrder::Manhattan => u32::from(h) << 16,
    }
}

/// The search with the closed set `table` makes (holding the root, by its name, as node 0)
/// and the names it takes.
fn search_with<K: PackedTiles, T: Closed, N: Naming<K>>(
    board: &Board,
    order: OpenOrder,
    budget: &Budget,
    table: impl FnOnce(u64) -> T,
    naming: N,
) -> Result<BestFirstResult, GaveUp> {
    let clock = Stopwatch::start();
    let expander = Expander::new(board.shape(), order, naming);
    let root_h: u16 = (board.tiles().iter().enumerate())
        .map(|(cell, &tile)| expander.h_of(tile, cell))
        .sum();
    let root = K::pack(board.tiles());
    let key_bytes = root.heap_bytes();
    let (name, memo) = expander.naming.root(&root, board.blank());
    let data = Data {
        h: root_h,
        blank: board.blank() as u8,
        memo,
    };
    let table = table(name);
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
struct Expander<N> {
    order: OpenOrder,
    cells: usize,
    /// Manhattan distance of tile `t` on cell `c`: `distance[t * cells + c]`.
    distance: Vec<u16>,
    /// The moves a node may take, by its blank's cell and the move that reached it: every
    /// move on the board but the one back.
    moves: Vec<Moves>,
    naming: N,
}

/// The moves out of one node (up to three, four at the root): each as its index in
/// [`Move::ALL`] with the cell the blank goes to.
#[derive(Clone, Copy, Default)]
struct Moves {
    len: u8,
    moves: [(u8, u8); 4],
}

impl Moves {
    /// The moves from the blank on `cell` when `last` (an index in [`Move::ALL`], or
    /// [`NO_MOVE`]) reached it.
    fn new(shape: Shape, cell: usize, last: u8) -> Moves {
        let back = Move::ALL.get(usize::from(last)).map(|last| last.inverse());
        let mut moves = Moves::default();
        for (index, mv) in Move::ALL.into_iter().enumerate() {
            if let Some(to) = shape.step(cell, mv).filter(|_| Some(mv) != back) {
                moves.moves[usize::from(moves.len)] = (index as u8, to as u8);
                moves.len += 1;
            }
        }
        moves
    }
}

impl<N> Expander<N> {
    fn new(shape: Shape, order: OpenOrder, naming: N) -> Expander<N> {
        Expander {
            order,
            cells: shape.cells(),
            distance: manhattan_table(shape),
            moves: (0..shape.cells())
                .flat_map(|cell| (0..=NO_MOVE).map(move |last| Moves::new(shape, cell, last)))
                .collect(),
            naming,
        }
    }

    /// The Manhattan distance of `tile` on `cell`.
    #[inline(always)]
    fn h_of(&self, tile: u8, cell: usize) -> u16 {
        self.distance[tile as usize * self.cells + cell]
    }

    /// Offers the children of node `index` (never the move back).
    #[inline(always)]
    fn expand<K: PackedTiles, T: Closed>(&self, arena: &mut Arena<K, Data<N::Memo>, T>, index: u32)
    where
        N: Naming<K>,
    {
        let node = arena.node(index);
        let Data { h, blank, memo } = node.data;
        let (tiles, g, blank) = (node.key.clone(), node.g + 1, blank as usize);
        let node_priority = priority(self.order, node.g, h);
        let moves = &self.moves[blank * (NO_MOVE as usize + 1) + usize::from(node.last)];
        for &(mv, from) in &moves.moves[..usize::from(moves.len)] {
            let from = from as usize;
            let tile = tiles.tile(from);
            let child_h = h - self.h_of(tile, from) + self.h_of(tile, blank);
            let child_priority = priority(self.order, g, child_h);
            // A child whose priority is below its parent's (for A*, the same f and a smaller h:
            // it moved a tile toward home) comes before everything queued, since its parent
            // came first: it skips the heap. For A* every such node has the smallest f there
            // is, which is all optimality asks. On the 8-puzzle two expansions in three come
            // off that stack.
            let urgent = child_priority < node_priority;
            let child = tiles.slide(blank, from);
            let (hash, memo) = self
                .naming
                .child(memo, &child, Move::ALL[usize::from(mv)], from);
            let data = Data {
                h: child_h,
                blank: from as u8,
                memo,
            };
            arena.offer(child, hash, index, g, mv, data, child_priority, urgent);
        }
    }
}
