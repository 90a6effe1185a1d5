//! Best-first search over a node arena, shared by A* and greedy best-first.
//!
//! Nodes live in one arena and point at their parents; the open list is [`MinHeap`] of arena
//! indices; a hash map from packed tiles to the best node for that state is the closed set.
//! A state's entry changes only when a strictly shorter path to it is found, so with a
//! consistent heuristic such as Manhattan no state is expanded twice. The move that undoes the
//! parent's move is never generated.

use rustc_hash::FxHashMap;

use super::budget::{Budget, GaveUp, StopReason, Stopwatch};
use super::heap::MinHeap;
use super::key::PackedTiles;
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
}

const NO_MOVE: u8 = 4;
/// How many expansions pass between checks of the budget.
const CHECK_EVERY: u64 = 4096;

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
    // The cells each blank position can swap with, per move (usize::MAX off the board).
    let steps: Vec<[usize; 4]> = (0..cells)
        .map(|cell| Move::ALL.map(|mv| shape.step(cell, mv).unwrap_or(usize::MAX)))
        .collect();

    let root_h: u16 = board
        .tiles()
        .iter()
        .enumerate()
        .map(|(cell, &tile)| h_of(tile, cell))
        .sum();
    let mut nodes: Vec<Node<K>> = vec![Node {
        tiles: K::pack(board.tiles()),
        parent: u32::MAX,
        g: 0,
        h: root_h,
        blank: board.blank() as u8,
        last_move: NO_MOVE,
    }];
    let mut best: FxHashMap<K, u32> = FxHashMap::default();
    best.insert(nodes[0].tiles.clone(), 0);
    let mut open = MinHeap::new();
    open.push(priority(order, 0, root_h), 0);
    let mut expanded: u64 = 0;
    let mut lower_bound = usize::from(root_h);
    let key_bytes = size_of::<K>() + nodes[0].tiles.heap_bytes();
    let memory = |nodes: &Vec<Node<K>>, best: &FxHashMap<K, u32>, open: &MinHeap| {
        nodes.capacity() * (size_of::<Node<K>>() + nodes[0].tiles.heap_bytes())
            + best.capacity() * (key_bytes + size_of::<u32>() + 1)
            + open.memory()
    };

    while let Some((_, index)) = open.pop() {
        let node = nodes[index as usize].clone();
        if best.get(&node.tiles) != Some(&index) {
            continue; // A shorter path to this state was found after this entry was queued.
        }
        if node.h == 0 {
            return Ok(Found {
                moves: path(&nodes, index),
                nodes_expanded: expanded,
                seconds: clock.seconds(),
            });
        }
        if order == Order::StepsPlusManhattan {
            lower_bound = lower_bound.max((node.g + u32::from(node.h)) as usize);
        }
        expanded += 1;
        if (expanded.is_multiple_of(CHECK_EVERY) || budget.max_nodes == Some(expanded))
            && let Err(reason) = budget.check(expanded, memory(&nodes, &best, &open))
        {
            return Err(gave_up(
                reason,
                expanded,
                &clock,
                memory(&nodes, &best, &open),
                lower_bound,
            ));
        }
        let blank = node.blank as usize;
        let back = if node.last_move == NO_MOVE {
            NO_MOVE
        } else {
            Move::ALL[node.last_move as usize].inverse() as u8
        };
        for (mv, &from) in steps[blank].iter().enumerate() {
            if from == usize::MAX || mv as u8 == back {
                continue;
            }
            let tile = node.tiles.tile(from);
            let h = node.h - h_of(tile, from) + h_of(tile, blank);
            let g = node.g + 1;
            let tiles = node.tiles.slide(blank, from);
            let child = nodes.len() as u32;
            match best.get_mut(&tiles) {
                Some(known) if nodes[*known as usize].g <= g => continue,
                Some(known) => *known = child,
                None => {
                    best.insert(tiles.clone(), child);
                }
            }
            nodes.push(Node {
                tiles,
                parent: index,
                g,
                h,
                blank: from as u8,
                last_move: mv as u8,
            });
            open.push(priority(order, g, h), child);
        }
    }
    // Every reachable state was expanded without meeting the goal: only an unsolvable board
    // does that, and callers check solvability first.
    Err(gave_up(
        StopReason::NodeLimit,
        expanded,
        &clock,
        memory(&nodes, &best, &open),
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
