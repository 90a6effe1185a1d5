//! The min-heap written for best-first search: a four-ary heap of packed keys over a node arena.
//!
//! Each entry is one `u64` holding the priority in its high bits and the node's arena index in
//! its low 32 bits, so comparing entries compares priorities first and breaks ties by index:
//! the order is total and deterministic. Four children a node make the heap half as deep as a
//! binary one, with the four in 32 bytes, and the smallest of them is found without branches:
//! the 8-puzzle's A* (`cargo bench -p npuzzle --bench astar`), where pops took a sixth of the
//! time, ran 4 % faster with four children and 13 % faster again without the branches.
//!
//! Beside the heap waits the next layer of a search whose priorities come in layers (A*'s f):
//! appended in any order and made a heap in one linear pass when the heap runs empty, so the
//! heap popped holds one layer only.

/// The children each entry has.
const ARITY: usize = 4;

/// A four-ary min-heap of `(priority, node index)` pairs, with a waiting list for the next
/// layer of a search whose priorities come in layers (see [`MinHeap::push_later`]).
#[derive(Debug, Default)]
pub struct MinHeap {
    entries: Vec<u64>,
    /// Entries that join the heap when it runs empty, in the order they came.
    later: Vec<u64>,
}

impl MinHeap {
    /// An empty heap.
    pub fn new() -> MinHeap {
        MinHeap::default()
    }

    /// An empty heap with room for `capacity` entries, and as many waiting.
    pub fn with_capacity(capacity: usize) -> MinHeap {
        MinHeap {
            entries: Vec::with_capacity(capacity),
            later: Vec::with_capacity(capacity),
        }
    }

    /// Entries held, waiting ones included.
    pub fn len(&self) -> usize {
        self.entries.len() + self.later.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held by its storage.
    pub fn memory(&self) -> usize {
        (self.entries.capacity() + self.later.capacity()) * size_of::<u64>()
    }

    /// Adds a node with a 32-bit priority; smaller comes out first, then the smaller index.
    pub fn push(&mut self, priority: u32, node: u32) {
        let entry = (u64::from(priority) << 32) | u64::from(node);
        self.entries.push(entry);
        self.sift_up(self.entries.len() - 1, entry);
    }

    /// Adds a node that waits until the heap runs empty, then joins it with the others that
    /// waited: for a search whose priorities come in layers (A* with Manhattan distance, where
    /// a child's f is its parent's or two more), a node of the next layer. It costs an append
    /// now and its share of one linear rebuild, not a climb, and the heap being popped holds
    /// one layer only. Popping stays in priority order as long as every waiting node comes
    /// after every node pushed before the heap next runs empty.
    pub fn push_later(&mut self, priority: u32, node: u32) {
        self.later
            .push((u64::from(priority) << 32) | u64::from(node));
    }

    /// Removes and returns the node with the smallest priority, with that priority; when
    /// the heap runs empty, the waiting nodes join it first.
    ///
    /// The hole left at the top goes all the way down along the smallest children, then the
    /// last entry rises from there: since the last entry is usually among the largest, this
    /// takes the fewest comparisons.
    pub fn pop(&mut self) -> Option<(u32, u32)> {
        if self.entries.is_empty() {
            self.take_the_waiting();
        }
        let top = *self.entries.first()?;
        let last = self.entries.pop().expect("not empty");
        let len = self.entries.len();
        if len > 0 {
            let mut hole = 0;
            let mut first = 1;
            while first < len {
                let smallest = self.smallest_child(first, len);
                self.entries[hole] = self.entries[smallest];
                hole = smallest;
                first = ARITY * hole + 1;
            }
            self.sift_up(hole, last);
        }
        Some(((top >> 32) as u32, top as u32))
    }

    /// The position of the smallest of the children that start at `first`, of `len` entries.
    ///
    /// Four children are compared without branches: which of two entries is smaller is as
    /// likely one way as the other, and a branch on it mispredicts half the time.
    #[inline(always)]
    fn smallest_child(&self, first: usize, len: usize) -> usize {
        if let Some(&[a, b, c, d]) = self.entries.get(first..first + ARITY) {
            let low_pair = usize::from(b < a);
            let high_pair = 2 + usize::from(d < c);
            let (low, high) = ([a, b][low_pair], [c, d][high_pair - 2]);
            return first + if high < low { high_pair } else { low_pair };
        }
        let children = &self.entries[first..len];
        let mut smallest = 0;
        for (at, &entry) in children.iter().enumerate().skip(1) {
            if entry < children[smallest] {
                smallest = at;
            }
        }
        first + smallest
    }

    /// Makes the waiting entries the heap (which is empty), from the last parent up: each
    /// sinks below its smaller children. Linear in their number.
    #[cold]
    fn take_the_waiting(&mut self) {
        std::mem::swap(&mut self.entries, &mut self.later);
        let len = self.entries.len();
        for parent in (0..len.saturating_sub(1).div_ceil(ARITY)).rev() {
            let entry = self.entries[parent];
            let mut hole = parent;
            let mut first = ARITY * hole + 1;
            while first < len {
                let smallest = self.smallest_child(first, len);
                if entry <= self.entries[smallest] {
                    break;
                }
                self.entries[hole] = self.entries[smallest];
                hole = smallest;
                first = ARITY * hole + 1;
            }
            self.entries[hole] = entry;
        }
    }

    /// Puts `entry` in the hole at `child`, moving larger parents down.
    fn sift_up(&mut self, mut child: usize, entry: u64) {
        while child > 0 {
            let parent = (child - 1) / ARITY;
            if self.entries[parent] <= entry {
                break;
            }
            self.entries[child] = self.entries[parent];
            child = parent;
        }
        self.entries[child] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn pops_in_sorted_order(items in proptest::collection::vec((any::<u32>(), any::<u32>()), 0..300)) {
            let mut heap = MinHeap::new();
            for &(priority, node) in &items {
                heap.push(priority, node);
            }
            let mut expected = items.clone();
            expected.sort();
            let mut popped = Vec::new();
            while let Some(item) = heap.pop() {
                popped.push(item);
            }
            prop_assert_eq!(popped, expected);
        }

        #[test]
        fn waiting_entries_join_in_order_when_the_heap_runs_empty(
            layers in proptest::collection::vec(proptest::collection::vec(0u32..1000, 0..60), 1..5)
        ) {
            // Layer k's priorities lie in [1000 k, 1000 k + 1000): each waits while the layer
            // before it is popped, as A* queues the next f.
            let mut layers: Vec<Vec<(u32, u32)>> = layers.iter().enumerate().map(|(k, layer)| {
                let first = layers[..k].iter().map(Vec::len).sum::<usize>();
                let entry = |(at, &p): (usize, &u32)| (1000 * k as u32 + p, (first + at) as u32);
                layer.iter().enumerate().map(entry).collect()
            }).collect();
            let sizes: Vec<usize> = layers.iter().map(Vec::len).collect();
            let mut expected: Vec<(u32, u32)> = layers.concat();
            expected.sort();
            let mut heap = MinHeap::new();
            for &(priority, node) in &layers[0] {
                heap.push(priority, node);
            }
            let mut popped = Vec::new();
            for k in 1..layers.len() {
                // One waiting entry after each pop of the layer before, the rest at its end.
                for _ in 0..sizes[k - 1] {
                    popped.extend(heap.pop());
                    if let Some((priority, node)) = layers[k].pop() {
                        heap.push_later(priority, node);
                    }
                }
                while let Some((priority, node)) = layers[k].pop() {
                    heap.push_later(priority, node);
                }
            }
            while let Some(item) = heap.pop() {
                popped.push(item);
            }
            prop_assert_eq!(popped, expected);
        }
    }
}
