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
//! appended in any order, and sorted in one go when the heap and the layer before it have run
//! out. A sorted layer is popped from its end, one read a pop, while entries pushed meanwhile go
//! on the heap; each pop takes the smaller of the two fronts. A* on Manhattan distance pushes
//! nothing onto the heap itself, so it never climbs or sinks an entry at all.

/// The children each entry has.
const ARITY: usize = 4;

/// How many more priorities than entries a layer may span and still be sorted by counting.
const SPAN_SLACK: usize = 64;

/// A four-ary min-heap of `(priority, node index)` pairs, with a waiting list for the next
/// layer of a search whose priorities come in layers (see [`MinHeap::push_later`]).
#[derive(Debug, Default)]
pub struct MinHeap {
    entries: Vec<u64>,
    /// The layer being popped, sorted from largest to smallest: its smallest is last.
    layer: Vec<u64>,
    /// Entries of the next layer, in the order they came.
    later: Vec<u64>,
    /// Room for counting the next layer's entries by priority.
    counts: Vec<u32>,
}

impl MinHeap {
    /// An empty heap.
    pub fn new() -> MinHeap {
        MinHeap::default()
    }

    /// An empty heap with room for `capacity` entries, and as many waiting. The layer being
    /// popped takes as much room as the waiting list when it is first sorted, so a heap that
    /// never sorts a layer never holds it.
    pub fn with_capacity(capacity: usize) -> MinHeap {
        MinHeap {
            entries: Vec::with_capacity(capacity),
            layer: Vec::new(),
            later: Vec::with_capacity(capacity),
            counts: Vec::new(),
        }
    }

    /// Entries held, waiting ones included.
    pub fn len(&self) -> usize {
        self.entries.len() + self.layer.len() + self.later.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held by its storage.
    pub fn memory(&self) -> usize {
        let entries = self.entries.capacity() + self.layer.capacity() + self.later.capacity();
        entries * size_of::<u64>() + self.counts.capacity() * size_of::<u32>()
    }

    /// Adds a node with a 32-bit priority; smaller comes out first, then the smaller index.
    pub fn push(&mut self, priority: u32, node: u32) {
        let entry = (u64::from(priority) << 32) | u64::from(node);
        self.entries.push(entry);
        self.sift_up(self.entries.len() - 1, entry);
    }

    /// Adds a node that waits until everything else has been popped, then is popped in order
    /// with the others that waited: for a search whose priorities come in layers (A* with
    /// Manhattan distance, where a child's f is its parent's or two more), a node of the next
    /// layer. It costs an append now and its share of one sort, not a climb and a sink.
    /// Popping stays in priority order as long as every waiting node comes after every node
    /// pushed before the rest runs out.
    pub fn push_later(&mut self, priority: u32, node: u32) {
        self.later
            .push((u64::from(priority) << 32) | u64::from(node));
    }

    /// Removes and returns the node with the smallest priority, with that priority: the
    /// smaller of the heap's top and the sorted layer's smallest. When both have run out, the
    /// waiting nodes become the layer first.
    pub fn pop(&mut self) -> Option<(u32, u32)> {
        if self.layer.is_empty() && self.entries.is_empty() {
            self.take_the_waiting();
        }
        let entry = match (self.layer.last(), self.entries.first()) {
            (Some(&next), Some(&top)) if top < next => self.pop_top(),
            (Some(_), _) => self.layer.pop().expect("not empty"),
            (None, Some(_)) => self.pop_top(),
            (None, None) => return None,
        };
        Some(((entry >> 32) as u32, entry as u32))
    }

    /// Removes the heap's top (it has one).
    ///
    /// The hole left at the top goes all the way down along the smallest children, then the
    /// last entry rises from there: since the last entry is usually among the largest, this
    /// takes the fewest comparisons.
    fn pop_top(&mut self) -> u64 {
        let top = self.entries[0];
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
        top
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

    /// Makes the waiting entries the layer (which is empty), sorted from largest to smallest.
    ///
    /// A search's layer spans few priorities and its nodes wait in the order they were made,
    /// so a stable count by priority sorts it in two passes. Entries that span more priorities
    /// than there are entries, or whose nodes came out of order, are sorted by comparison.
    #[cold]
    fn take_the_waiting(&mut self) {
        if self.later.is_empty() {
            return;
        }
        let priority = |entry: u64| (entry >> 32) as u32;
        let (mut low, mut high, mut in_order, mut next_node) = (u32::MAX, 0, true, 0);
        for &entry in &self.later {
            (low, high) = (low.min(priority(entry)), high.max(priority(entry)));
            in_order &= u64::from(entry as u32) >= next_node;
            next_node = u64::from(entry as u32) + 1;
        }
        let span = high.saturating_sub(low) as usize + 1;
        if !in_order || span > self.later.len() + SPAN_SLACK {
            std::mem::swap(&mut self.layer, &mut self.later);
            self.layer.sort_unstable_by(|a, b| b.cmp(a));
            return;
        }
        // Where each priority's entries end, the largest priority's first: each entry goes just
        // below the last one placed with its priority, so the first pushed is popped first.
        self.layer.reserve(self.later.capacity());
        self.counts.clear();
        self.counts.resize(span, 0);
        for &entry in &self.later {
            self.counts[(priority(entry) - low) as usize] += 1;
        }
        let mut end = 0;
        for count in self.counts.iter_mut().rev() {
            end += *count;
            *count = end;
        }
        self.layer.resize(self.later.len(), 0);
        for &entry in &self.later {
            let count = &mut self.counts[(priority(entry) - low) as usize];
            *count -= 1;
            self.layer[*count as usize] = entry;
        }
        self.later.clear();
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

        #[test]
        fn pushes_between_pops_of_a_layer_come_out_in_order_with_it(
            steps in proptest::collection::vec((0u8..3, 0u32..50), 0..400),
            wide in any::<bool>(),
        ) {
            // Against a model: the pushed entries and the layer being popped form one pool, from
            // which a pop takes the least; the waiting entries become the pool once it runs
            // empty. Pushes land below and among the layer's priorities, waiting ones above,
            // spread wider than their count when `wide` (so sorted by comparison, not counted).
            let spread = if wide { 1000 } else { 1 };
            let mut heap = MinHeap::new();
            let (mut pool, mut waiting) = (Vec::new(), Vec::new());
            for (node, &(step, priority)) in steps.iter().enumerate() {
                let node = node as u32;
                match step {
                    0 => {
                        heap.push(priority, node);
                        pool.push((priority, node));
                    }
                    1 => {
                        heap.push_later(1000 + spread * priority, node);
                        waiting.push((1000 + spread * priority, node));
                    }
                    _ => {
                        if pool.is_empty() {
                            pool = std::mem::take(&mut waiting);
                        }
                        let least = pool.iter().copied().min();
                        pool.retain(|&entry| Some(entry) != least);
                        prop_assert_eq!(heap.pop(), least);
                    }
                }
                prop_assert_eq!(heap.len(), pool.len() + waiting.len());
            }
        }
    }
}
