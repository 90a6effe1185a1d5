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
//! Every other child of A* moved a tile away from home: a move changes Manhattan distance by
//! one, so its f is its parent's plus two. A*'s priorities thus come in layers of one f, and
//! those children wait beside the heap for the next layer
//! ([`MinHeap::push_later`](super::heap::MinHeap::push_later)). A layer is sorted in one go,
//! by counting its few values of h, when the one before it runs out, and popped in order with
//! one read a pop: nothing climbs or sinks in the heap, and the layer after the goal's is never
//! sorted at all.
//!
//! On boards of up to 9 cells the closed set is an array indexed by the state's number among
//! the reachable states ([`StateNumbers`]), which a move along a row changes by a constant; on
//! larger boards a hash table. The moves out of a node come from a table by its blank's cell
//! and the move that reached it, so the loop over them has no test to mispredict.

use std::sync::OnceLock;

use super::arena::{Arena, NO_MOVE, Wait};
use super::budget::{Budget, GaveUp, StopReason, Stopwatch};
use crate::packed::PackedTiles;

use super::ranked::{MAX_RANKED_CELLS, RankTable, StateNumbers};
use super::table::{Closed, StateTable};
use crate::board::{Board, Move, Shape};
use crate::estimate::manhattan_table;
use crate::hash::hash_of;

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
    /// The closed set that takes these names.
    type Table: Closed;
    /// A closed set holding the root, by its name, as node 0.
    fn table(&self, root: u64) -> Self::Table;
    /// Done with `table`, whose nodes had these memos.
    fn finish(&self, table: Self::Table, memos: impl Iterator<Item = Self::Memo>);
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
    type Table = StateTable;
    fn table(&self, root: u64) -> StateTable {
        StateTable::with_root(INITIAL_NODES, root)
    }
    fn finish(&self, _table: StateTable, _memos: impl Iterator<Item = ()>) {}
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
    /// The state's number.
    type Memo = u32;
    type Table = RankTable;
    fn table(&self, root: u64) -> RankTable {
        RankTable::with_root(self.len(), root as u32)
    }
    fn finish(&self, table: RankTable, numbers: impl Iterator<Item = u32>) {
        table.clear(numbers);
    }
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

/// Searches from `board` to the goal in `order`.
pub(crate) fn search(
    board: &Board,
    order: OpenOrder,
    budget: &Budget,
) -> Result<BestFirstResult, GaveUp> {
    // Each order has a loop of its own, with no test of the order in it.
    match order {
        OpenOrder::StepsPlusManhattan => search_in::<true>(board, budget),
        OpenOrder::Manhattan => search_in::<false>(board, budget),
    }
}

/// [`search`] by steps + Manhattan if `A_STAR`, else by Manhattan alone, picking the packed
/// form and closed set that fit the board: on up to 9 cells an array indexed by the state's
/// rank, else a hash table.
fn search_in<const A_STAR: bool>(
    board: &Board,
    budget: &Budget,
) -> Result<BestFirstResult, GaveUp> {
    let cells = board.tiles().len();
    if cells <= MAX_RANKED_CELLS {
        search_with::<u64, _, A_STAR>(board, budget, StateNumbers::new(cells))
    } else if u64::fits(cells) {
        search_with::<u64, _, A_STAR>(board, budget, Hashed)
    } else if u128::fits(cells) {
        search_with::<u128, _, A_STAR>(board, budget, Hashed)
    } else {
        search_with::<Box<[u8]>, _, A_STAR>(board, budget, Hashed)
    }
}

/// A node's place in the open list: by f = g + h then h if `A_STAR`, else by h alone.
#[inline(always)]
fn priority<const A_STAR: bool>(g: u32, h: u16) -> u32 {
    match A_STAR {
        true => ((g + u32::from(h)).min(0xFFFF) << 16) | u32::from(h),
        false => u32::from(h) << 16,
    }
}

/// The search with the names `naming` gives and the closed set that takes them.
fn search_with<K: PackedTiles, N: Naming<K>, const A_STAR: bool>(
    board: &Board,
    budget: &Budget,
    naming: N,
) -> Result<BestFirstResult, GaveUp> {
    let clock = Stopwatch::start();
    let owned;
    let tables = match ShapeTables::small(board.shape()) {
        Some(tables) => tables,
        None => {
            owned = ShapeTables::new(board.shape());
            &owned
        }
    };
    let expander = Expander::<N, A_STAR>::new(tables, naming);
    let root_h: u16 = (board.tiles().iter().enumerate())
        .map(|(cell, &tile)| tables.h_of(tile, cell))
        .sum();
    let root = K::pack(board.tiles());
    let key_bytes = root.heap_bytes();
    let (name, memo) = expander.naming.root(&root, board.blank());
    let data = Data {
        h: root_h,
        blank: board.blank() as u8,
        memo,
    };
    let table = expander.naming.table(name);
    let mut arena = Arena::with_table(
        root,
        data,
        priority::<A_STAR>(0, root_h),
        INITIAL_NODES,
        table,
    );
    let found = expander.run(&mut arena, budget, usize::from(root_h), key_bytes, &clock);
    let (table, nodes) = arena.into_parts();
    expander
        .naming
        .finish(table, nodes.iter().map(|node| node.data.memo));
    found
}

/// What expands a node, the same for every node of one search.
struct Expander<'t, N, const A_STAR: bool> {
    tables: &'t ShapeTables,
    naming: N,
}

/// The tables an expansion reads, the same for every search on one shape.
struct ShapeTables {
    cells: usize,
    /// Manhattan distance of tile `t` on cell `c`: `distance[t * cells + c]`.
    distance: Vec<u16>,
    /// The moves a node may take, by its blank's cell and the move that reached it: every
    /// move on the board but the one back.
    moves: Vec<Moves>,
}

/// [`ShapeTables`] for the shapes of up to [`MAX_RANKED_CELLS`] cells, by width and height,
/// each made the first time a board of its shape is searched: a search there takes tens of
/// microseconds, and making the tables anew cost 2 % of that.
static SMALL_SHAPES: [OnceLock<ShapeTables>; MAX_RANKED_CELLS * MAX_RANKED_CELLS] =
    [const { OnceLock::new() }; _];

impl ShapeTables {
    fn new(shape: Shape) -> ShapeTables {
        ShapeTables {
            cells: shape.cells(),
            distance: manhattan_table(shape),
            moves: (0..shape.cells())
                .flat_map(|cell| (0..=NO_MOVE).map(move |last| Moves::new(shape, cell, last)))
                .collect(),
        }
    }

    /// The Manhattan distance of `tile` on `cell`.
    #[inline(always)]
    fn h_of(&self, tile: u8, cell: usize) -> u16 {
        self.distance[tile as usize * self.cells + cell]
    }

    /// The tables of a shape of up to [`MAX_RANKED_CELLS`] cells, made once.
    fn small(shape: Shape) -> Option<&'static ShapeTables> {
        (shape.cells() <= MAX_RANKED_CELLS).then(|| {
            let at = (shape.width - 1) * MAX_RANKED_CELLS + shape.height - 1;
            SMALL_SHAPES[at].get_or_init(|| ShapeTables::new(shape))
        })
    }
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

impl<'t, N, const A_STAR: bool> Expander<'t, N, A_STAR> {
    fn new(tables: &'t ShapeTables, naming: N) -> Expander<'t, N, A_STAR> {
        Expander { tables, naming }
    }

    /// Expands nodes from `arena`'s open list until the goal comes off it, or the budget
    /// runs out. `lower_bound` is the root's, `key_bytes` what each key holds on the heap.
    fn run<K: PackedTiles>(
        &self,
        arena: &mut Arena<K, Data<N::Memo>, N::Table>,
        budget: &Budget,
        mut lower_bound: usize,
        key_bytes: usize,
        clock: &Stopwatch,
    ) -> Result<BestFirstResult, GaveUp>
    where
        N: Naming<K>,
    {
        let mut expanded: u64 = 0;
        let gave_up = |reason, expanded, memory, lower_bound| GaveUp {
            reason,
            nodes_expanded: expanded,
            seconds: clock.seconds(),
            memory,
            lower_bound,
        };
        // The budget is asked every CHECK_EVERY expansions, and at its node limit.
        let next_check = |expanded: u64| {
            let every = (expanded / CHECK_EVERY + 1) * CHECK_EVERY;
            let limit = budget.max_nodes.filter(|&limit| limit > expanded);
            limit.map_or(every, |limit| limit.min(every))
        };
        let mut check_at = next_check(0);
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
            if A_STAR {
                lower_bound = lower_bound.max((g + u32::from(h)) as usize);
            }
            expanded += 1;
            if expanded == check_at {
                check_at = next_check(expanded);
                let used = arena.memory(key_bytes);
                if let Err(reason) = budget.check(expanded, used) {
                    return Err(gave_up(reason, expanded, used, lower_bound));
                }
            }
            self.expand(arena, index);
        }
        // Every reachable state was expanded without meeting the goal: only an unsolvable board
        // does that, and callers check solvability first.
        let used = arena.memory(key_bytes);
        Err(gave_up(StopReason::NodeLimit, expanded, used, lower_bound))
    }

    /// Where a child waits, by its priority and its parent's: on the stack if it comes
    /// first, else on the heap, or for A* with the next layer (see the module's comment).
    #[inline(always)]
    fn wait(&self, parent: u32, child: u32) -> Wait {
        match (child < parent, A_STAR) {
            (true, _) => Wait::First,
            (false, true) => {
                debug_assert_eq!(child >> 16, (parent >> 16) + 2, "the next f, two higher");
                Wait::NextLayer
            }
            (false, false) => Wait::InTurn,
        }
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
        let node_priority = priority::<A_STAR>(node.g, h);
        let moves = &self.tables.moves[blank * (NO_MOVE as usize + 1) + usize::from(node.last)];
        for &(mv, from) in &moves.moves[..usize::from(moves.len)] {
            let from = from as usize;
            let tile = tiles.tile(from);
            let child_h = h - self.tables.h_of(tile, from) + self.tables.h_of(tile, blank);
            let child_priority = priority::<A_STAR>(g, child_h);
            let wait = self.wait(node_priority, child_priority);
            let child = tiles.slide(blank, from);
            let (hash, memo) = self
                .naming
                .child(memo, &child, Move::ALL[usize::from(mv)], from);
            let data = Data {
                h: child_h,
                blank: from as u8,
                memo,
            };
            arena.offer(child, hash, index, g, mv, data, child_priority, wait);
        }
    }
}
