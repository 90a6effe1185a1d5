//! The split of one bound's search over threads: the paths of a few moves from the root are
//! searched in parallel (rayon), in the order a single thread would take them, and the solution
//! kept is the one from the earliest path, so the moves do not depend on the thread count. On
//! one thread the root itself is searched, in place (each bound's search leaves it as it was).
//! What the threads share is in `shared`.

use std::sync::atomic::Ordering;

use rayon::prelude::*;

use super::Iteration;
use super::depth_first::{DepthFirst, NONE};
use super::shared::{Shared, Subtree};
/// The depth of the paths searched in parallel. Paths of this many moves are distinct states
/// (the shortest cycle has 12 moves), and no solution is shorter than the root's heuristic,
/// so splitting there loses nothing.
const FRONTIER: usize = 5;

/// How the bounds are searched: on this thread, or over the frontier paths in a pool.
pub(super) struct Split {
    /// The frontier paths, empty when the search runs on one thread.
    frontier: Vec<Vec<u8>>,
    /// A pool of the right size when the caller's is not (one made per search costs a little).
    pool: Option<rayon::ThreadPool>,
}

impl Split {
    /// The split for a root on `threads` threads (`own_pool` when the caller chose the count).
    /// Sets the depth from which the root's search may lift parents (BPMX), so that one thread
    /// and several search the same tree.
    pub(super) fn plan<const P: usize>(
        root: &mut DepthFirst<P>,
        threads: usize,
        own_pool: bool,
    ) -> Split {
        let deep = root.h() as usize > FRONTIER;
        if deep {
            root.bpmx_from = FRONTIER as u32;
        }
        if threads < 2 || !deep {
            return Split {
                frontier: Vec::new(),
                pool: None,
            };
        }
        let pool = (own_pool && rayon::current_num_threads() != threads)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .ok()
            })
            .flatten();
        Split {
            frontier: paths(root, FRONTIER),
            pool,
        }
    }

    /// One bound's search from the root.
    pub(super) fn iterate<const P: usize>(
        &self,
        root: &mut DepthFirst<P>,
        bound: u32,
        shared: &Shared,
    ) -> Iteration {
        if self.frontier.is_empty() {
            return single_iteration(root, bound, shared);
        }
        let root = &*root;
        let run = || parallel_iteration(root, &self.frontier, bound, shared);
        match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        }
    }
}

/// One bound's search on this thread, from the root in place: a search that finds nothing
/// leaves the root as it was (its counters go on to the next bound's, which the budget's
/// node cap meets as exactly as fresh ones).
fn single_iteration<const P: usize>(
    root: &mut DepthFirst<P>,
    bound: u32,
    shared: &Shared,
) -> Iteration {
    root.start_iteration();
    let h = root.h();
    let subtree = root.search(0, bound, NONE, h, usize::MAX, shared);
    shared.flush(&mut root.counters);
    root.iteration(subtree)
}

/// One iteration over the frontier paths, in parallel; the earliest path's solution wins.
fn parallel_iteration<const P: usize>(
    root: &DepthFirst<P>,
    frontier: &[Vec<u8>],
    bound: u32,
    shared: &Shared,
) -> Iteration {
    shared.found_at.store(usize::MAX, Ordering::Relaxed);
    let results: Vec<Iteration> = frontier
        .par_iter()
        .enumerate()
        .map(|(index, path)| search_path(root, path, index, bound, shared))
        .collect();
    let mut iteration = Iteration {
        moves: None,
        next_bound: u32::MAX,
        stop: None,
        expanded: 0,
    };
    for result in results {
        iteration.expanded += result.expanded;
        iteration.next_bound = iteration.next_bound.min(result.next_bound);
        if iteration.moves.is_none() && result.moves.is_some() {
            // Results come back in frontier order, so the first is the earliest path.
            iteration.moves = result.moves;
        }
        if iteration.stop.is_none() {
            iteration.stop = result.stop;
        }
    }
    if iteration.moves.is_some() {
        // A stop that came after the earliest solution was found does not matter.
        iteration.stop = None;
    }
    iteration
}

/// The search below the frontier path number `index`.
fn search_path<const P: usize>(
    root: &DepthFirst<P>,
    path: &[u8],
    index: usize,
    bound: u32,
    shared: &Shared,
) -> Iteration {
    let mut node = root.clone();
    if shared.found_at.load(Ordering::Relaxed) < index || shared.stopped() {
        return node.iteration(Subtree::NotFound);
    }
    // The path's nodes are cut off by the bound as one thread would cut them off (the
    // heuristic need not be consistent).
    for (depth, &m) in path.iter().enumerate() {
        node.play(m);
        let f = depth as u32 + 1 + node.h();
        if f > bound {
            node.next_bound = f;
            return node.iteration(Subtree::NotFound);
        }
    }
    let h = node.h();
    let last = *path.last().unwrap_or(&NONE);
    let subtree = node.search(path.len() as u32, bound, last, h, index, shared);
    shared.flush(&mut node.counters);
    match subtree {
        Subtree::Found => _ = shared.found_at.fetch_min(index, Ordering::Relaxed),
        Subtree::Stop(reason) => shared.halt(reason),
        Subtree::NotFound | Subtree::Abandoned => {}
    }
    node.iteration(subtree)
}

/// Every path of `depth` moves from `root` that never undoes its last move, in search order.
fn paths<const P: usize>(root: &DepthFirst<P>, depth: usize) -> Vec<Vec<u8>> {
    fn collect<const P: usize>(
        node: &mut DepthFirst<P>,
        depth: usize,
        last: u8,
        out: &mut Vec<Vec<u8>>,
    ) {
        if node.path.len() == depth {
            out.push(node.path.clone());
            return;
        }
        for m in 0..4u8 {
            if (last != NONE && m == (last ^ 1)) || !node.can_play(m) {
                continue;
            }
            let parent = node.play(m);
            collect(node, depth, m, out);
            node.unplay(parent);
        }
    }
    let mut out = Vec::new();
    collect(&mut root.clone(), depth, NONE, &mut out);
    out
}
