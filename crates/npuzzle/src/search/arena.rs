//! The core every best-first search of the engine shares (A* and greedy, the stage search,
//! weighted A*): nodes in one arena pointing at their parents, the open list, the closed set,
//! and the walk back along the parents.
//!
//! The open list is a [`MinHeap`] of arena indices, with a stack in front of it for children
//! that come before everything queued (see [`Arena::offer`]). The closed set is a
//! [`StateTable`] from each state to its best node: a state's entry changes only when a strictly
//! shorter path to it is found, and the node it replaces is marked superseded and skipped when it
//! comes off the open list. Each search keeps its own loop (its goal test, pruning and budget),
//! and hashes its states itself.

use super::heap::MinHeap;
use super::table::{Admitted, Closed, StateTable};
use crate::board::Move;

/// Where an offered node waits to be expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wait {
    /// On the stack in front of the heap: only for a child whose priority is below its
    /// parent's, so that it comes before everything queued.
    First,
    /// On the heap, in priority order.
    InTurn,
    /// Until everything queued before it has been popped ([`MinHeap::push_later`]): only for
    /// a node of the next layer of a search whose priorities come in layers.
    NextLayer,
}

/// The `last` of the root node: no move reached it.
pub(crate) const NO_MOVE: u8 = 4;

/// One state reached, with the way back to the start and what the search keeps beside it.
#[derive(Clone)]
pub(crate) struct Node<K, D> {
    /// The state, packed.
    pub key: K,
    /// The node it was reached from (`u32::MAX` at the root).
    pub parent: u32,
    /// Moves from the start.
    pub g: u32,
    /// The index in [`Move::ALL`] of the move that reached it, or [`NO_MOVE`] at the root.
    pub last: u8,
    /// Whether a shorter path to this state was found after this node was queued.
    superseded: bool,
    /// The search's own figures (the heuristic's terms, the blank's cell).
    pub data: D,
}

/// The nodes, open list and closed set of one search.
pub(crate) struct Arena<K, D, T = StateTable> {
    nodes: Vec<Node<K, D>>,
    table: T,
    open: MinHeap,
    /// Children that come before every queued node, expanded next without the heap.
    next_up: Vec<u32>,
}

impl<K: PartialEq, D> Arena<K, D> {
    /// An arena holding the root (with this hash) at g = 0, queued with `priority`, with room
    /// for about `capacity` nodes before it grows.
    pub fn new(root: K, hash: u64, data: D, priority: u32, capacity: usize) -> Arena<K, D> {
        let table = StateTable::with_root(capacity, hash);
        Arena::with_table(root, data, priority, capacity, table)
    }
}

impl<K: PartialEq, D, T: Closed> Arena<K, D, T> {
    /// An arena holding the root at g = 0, queued with `priority`, with room for about
    /// `capacity` nodes before it grows, over a closed set that already holds the root as
    /// node 0.
    pub fn with_table(
        root: K,
        data: D,
        priority: u32,
        capacity: usize,
        table: T,
    ) -> Arena<K, D, T> {
        let mut nodes = Vec::with_capacity(capacity);
        nodes.push(Node {
            key: root,
            parent: u32::MAX,
            g: 0,
            last: NO_MOVE,
            superseded: false,
            data,
        });
        let mut open = MinHeap::with_capacity(capacity);
        open.push(priority, 0);
        Arena {
            nodes,
            table,
            open,
            next_up: Vec::with_capacity(capacity / 16),
        }
    }

    /// The next node to expand: the stack of urgent children first, then the heap's least;
    /// superseded nodes are skipped. `None` when the open list is empty.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<u32> {
        loop {
            let index = match self.next_up.pop() {
                Some(index) => index,
                None => self.open.pop()?.1,
            };
            if !self.nodes[index as usize].superseded {
                return Some(index);
            }
        }
    }

    /// A node by index.
    #[inline(always)]
    pub fn node(&self, index: u32) -> &Node<K, D> {
        &self.nodes[index as usize]
    }

    /// Offers the state `key` (with this hash), reached from `parent` by move `last` in `g`
    /// moves: kept and queued with `priority` (to wait as `wait` says) unless a node for the
    /// same state is known with `g` as small. Returns whether it was kept.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn offer(
        &mut self,
        key: K,
        hash: u64,
        parent: u32,
        g: u32,
        last: u8,
        data: D,
        priority: u32,
        wait: Wait,
    ) -> bool {
        let at = self.nodes.len() as u32;
        let nodes = &self.nodes;
        let is_it = |known: u32| nodes[known as usize].key == key;
        let beats = |known: u32| g < nodes[known as usize].g;
        match self.table.admit(hash, is_it, beats, at) {
            Admitted::No => return false,
            Admitted::Instead(stale) => self.nodes[stale as usize].superseded = true,
            Admitted::New => {}
        }
        self.nodes.push(Node {
            key,
            parent,
            g,
            last,
            superseded: false,
            data,
        });
        match wait {
            Wait::First => self.next_up.push(at),
            Wait::InTurn => self.open.push(priority, at),
            Wait::NextLayer => self.open.push_later(priority, at),
        }
        true
    }

    /// The moves from the root to a node, following parent pointers.
    pub fn path(&self, mut index: u32) -> Vec<Move> {
        let mut moves = Vec::with_capacity(self.nodes[index as usize].g as usize);
        while self.nodes[index as usize].last != NO_MOVE {
            moves.push(Move::ALL[self.nodes[index as usize].last as usize]);
            index = self.nodes[index as usize].parent;
        }
        moves.reverse();
        moves
    }

    /// The closed set and the nodes, for a search that is done.
    pub fn into_parts(self) -> (T, Vec<Node<K, D>>) {
        (self.table, self.nodes)
    }

    /// Bytes held, given the heap bytes each key holds beyond its own size.
    pub fn memory(&self, key_heap_bytes: usize) -> usize {
        self.nodes.capacity() * (size_of::<Node<K, D>>() + key_heap_bytes)
            + self.table.memory()
            + self.open.memory()
            + self.next_up.capacity() * size_of::<u32>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::hash_of;

    #[test]
    fn a_shorter_path_supersedes_the_queued_node() {
        // States are numbers; the root is 0.
        let mut arena: Arena<u64, ()> = Arena::new(0, hash_of(&0u64), (), 0, 4);
        assert_eq!(arena.pop(), Some(0));
        assert!(arena.offer(7, hash_of(&7u64), 0, 5, 1, (), 10, Wait::InTurn));
        assert!(
            !arena.offer(7, hash_of(&7u64), 0, 5, 2, (), 9, Wait::InTurn),
            "as long: refused"
        );
        assert!(arena.offer(8, hash_of(&8u64), 0, 1, 3, (), 20, Wait::InTurn));
        assert!(
            arena.offer(7, hash_of(&7u64), 2, 3, 0, (), 30, Wait::InTurn),
            "shorter: kept"
        );
        // The first node for 7 (priority 10) is superseded: 8 (20) comes, then the new 7 (30).
        assert_eq!(arena.pop(), Some(2));
        let seven = arena.pop().unwrap();
        assert_eq!((arena.node(seven).key, arena.node(seven).g), (7, 3));
        assert_eq!(arena.pop(), None);
        // Its path: the move into 8 (index 3, R), then the move into 7 (index 0, U).
        assert_eq!(arena.path(seven), vec![Move::Right, Move::Up]);
    }

    #[test]
    fn urgent_children_come_before_the_heap() {
        let mut arena: Arena<u64, ()> = Arena::new(0, hash_of(&0u64), (), 0, 4);
        arena.pop();
        arena.offer(1, hash_of(&1u64), 0, 1, 0, (), 1, Wait::InTurn);
        arena.offer(2, hash_of(&2u64), 0, 1, 1, (), 5, Wait::First);
        let first = arena.pop().unwrap();
        assert_eq!(arena.node(first).key, 2);
        let second = arena.pop().unwrap();
        assert_eq!(arena.node(second).key, 1);
    }
}
