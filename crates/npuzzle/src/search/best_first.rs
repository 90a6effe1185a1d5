//! Best-first search over a node arena, shared by A* and greedy best-first.
//!
//! Nodes live in one arena and point at their parents; the open list is a [`MinHeap`] of arena
//! indices; the closed set is a [`StateTable`] from each state to its best node. A state's entry
//! changes only when a strictly shorter path to it is found, and the node it replaces is marked
//! superseded and skipped when it comes off the heap; so with a consistent heuristic such as
//! Manhattan no state is expanded twice. The move that undoes the parent's move is never
//! generated.
//!
//! A child whose priority is lower than its parent's (for A*, the same f and a smaller h: it
//! moved a tile toward home) comes before everything queued, since its parent came first; such
//! children go on a stack and are expanded next without touching the heap. For A* every node on
//! the stack has the smallest f there is, which is all optimality asks. On the 8-puzzle two
//! expansions in three come off that stack.

use super::budget::{Budget, GaveUp, StopReason, Stopwatch};
use super::heap::MinHeap;
use super::key::PackedTiles;
use super::table::{Admitted, StateTable, hash_of};
use crate::analysis::manhattan_table;
use crate::board::{Board, Move};

/// How the open list is ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// By steps + Manhattan, then Manhattan: optimal.
    StepsPlusManhattan,
    /// By Manhattan alone: quick, not optimal.
    Manhattan,
}

/// What a finished search found.
pub(crate) struct Found {
    pub moves: Vec<Move>,
    pub nodes_expanded: u64,
    pub seconds: f64,
}

/// One state reached, with the way back to the start.
#[derive(Clone)]
struct Node<K> {
    tiles: K,
    parent: u32,
    g: u32,
    h: u16,
    blank: u8,
    /// The move that reached this node, or `NO_MOVE` at the root.
    last_move: u8,
    /// Whether a shorter path to this state was found after this node was queued.
    superseded: bool,
}

const NO_MOVE: u8 = 4;
/// How many expansions pass between checks of the budget.
const CHECK_EVERY: u64 = 4096;
/// Room reserved up front: enough for most 8-puzzles without regrowing the tables.
const INITIAL_NODES: usize = 4096;

/// Searches from `board` to the goal, picking the packed form that fits the board.
pub(crate) fn search(board: &Board, order: Order, budget: &Budget) -> Result<Found, GaveUp> {
    let cells = board.tiles().len();
    if u64::fits(cells) {
        search_with::<u64>(board, order, budget)
    } else if u128::fits(cells) {
        search_with::<u128>(board, order, budget)
    } else {
        search_with::<Box<[u8]>>(board, order, budget)
    }
}

fn priority(order: Order, g: u32, h: u16) -> u32 {
    match order {
        Order::StepsPlusManhattan => ((g + u32::from(h)).min(0xFFFF) << 16) | u32::from(h),
        Order::Manhattan => u32::from(h) << 16,
    }
}

fn search_with<K: PackedTiles>(
    board: &Board,
    order: Order,
    budget: &Budget,
) -> Result<Found, GaveUp> {
    let clock = Stopwatch::start();
    let shape = board.shape();
    let cells = shape.cells();
    let distance = manhattan_table(shape);
    let h_of = |tile: u8, cell: usize| distance[tile as usize * cells + cell];
    // The cells each blank position can swap with, per move (u8::MAX off the board).
    let steps: Vec<[u8; 4]> = (0..cells)
        .map(|cell| Move::ALL.map(|mv| shape.step(cell, mv).map_or(u8::MAX, |c| c as u8)))
        .collect();

    let root_h: u16 = board
        .tiles()
        .iter()
        .enumerate()
        .map(|(cell, &tile)| h_of(tile, cell))
        .sum();
    let mut nodes: Vec<Node<K>> = Vec::with_capacity(INITIAL_NODES);
    nodes.push(Node {
        tiles: K::pack(board.tiles()),
        parent: u32::MAX,
        g: 0,
        h: root_h,
        blank: board.blank() as u8,
        last_move: NO_MOVE,
        superseded: false,
    });
    let mut best = StateTable::with_root(INITIAL_NODES, hash_of(&nodes[0].tiles));
    let mut open = MinHeap::with_capacity(INITIAL_NODES);
    open.push(priority(order, 0, root_h), 0);
    let mut expanded: u64 = 0;
    let mut lower_bound = usize::from(root_h);
    let memory = |nodes: &Vec<Node<K>>, best: &StateTable, open: &MinHeap| {
        nodes.capacity() * (size_of::<Node<K>>() + nodes[0].tiles.heap_bytes())
            + best.memory()
            + open.memory()
    };

    // Children that come before every queued node skip the heap: see `better_than_all`.
    let mut next_up: Vec<u32> = Vec::new();
    while let Some(index) = next_up.pop().or_else(|| open.pop().map(|(_, index)| index)) {
        let node = &nodes[index as usize];
        if node.superseded {
            continue;
        }
        if node.h == 0 {
            return Ok(Found {
                moves: path(&nodes, index),
                nodes_expanded: expanded,
                seconds: clock.seconds(),
            });
        }
        let (tiles, g, h, blank) = (node.tiles.clone(), node.g + 1, node.h, node.blank as usize);
        let node_priority = priority(order, node.g, h);
        let back = if node.last_move == NO_MOVE {
            NO_MOVE
        } else {
            Move::ALL[node.last_move as usize].inverse() as u8
        };
        if order == Order::StepsPlusManhattan {
            lower_bound = lower_bound.max((node.g + u32::from(h)) as usize);
        }
        expanded += 1;
        if expanded.is_multiple_of(CHECK_EVERY) || budget.max_nodes == Some(expanded) {
            let used = memory(&nodes, &best, &open);
            if let Err(reason) = budget.check(expanded, used) {
                return Err(gave_up(reason, expanded, &clock, used, lower_bound));
            }
        }
        for (mv, &from) in steps[blank].iter().enumerate() {
            if from == u8::MAX || mv as u8 == back {
                continue;
            }
            let from = from as usize;
            let tile = tiles.tile(from);
            let child_h = h - h_of(tile, from) + h_of(tile, blank);
            let child_tiles = tiles.slide(blank, from);
            let child = nodes.len() as u32;
            let hash = hash_of(&child_tiles);
            let node = Node {
                tiles: child_tiles,
                parent: index,
                g,
                h: child_h,
                blank: from as u8,
                last_move: mv as u8,
                superseded: false,
            };
            let is_it = |known: u32| nodes[known as usize].tiles == node.tiles;
            let beats = |known: u32| g < nodes[known as usize].g;
            match best.admit(hash, is_it, beats, child) {
                Admitted::No => continue,
                Admitted::Instead(stale) => nodes[stale as usize].superseded = true,
                Admitted::New => {}
            }
            nodes.push(node);
            let child_priority = priority(order, g, child_h);
            if child_priority < node_priority {
                next_up.push(child);
            } else {
                open.push(child_priority, child);
            }
        }
    }
    // Every reachable state was expanded without meeting the goal: only an unsolvable board
    // does that, and callers check solvability first.
    let used = memory(&nodes, &best, &open);
    Err(gave_up(
        StopReason::NodeLimit,
        expanded,
        &clock,
        used,
        lower_bound,
    ))
}

fn gave_up(
    reason: StopReason,
    expanded: u64,
    clock: &Stopwatch,
    memory: usize,
    lower_bound: usize,
) -> GaveUp {
    GaveUp {
        reason,
        nodes_expanded: expanded,
        seconds: clock.seconds(),
        memory,
        lower_bound,
    }
}

/// The moves from the root to a node, following parent pointers.
fn path<K>(nodes: &[Node<K>], mut index: u32) -> Vec<Move> {
    let mut moves = Vec::with_capacity(nodes[index as usize].g as usize);
    while nodes[index as usize].last_move != NO_MOVE {
        moves.push(Move::ALL[nodes[index as usize].last_move as usize]);
        index = nodes[index as usize].parent;
    }
    moves.reverse();
    moves
}
