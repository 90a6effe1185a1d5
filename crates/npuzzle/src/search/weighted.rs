//! Weighted A*, the engine's one: best-first search over the arena ([`Arena`]) by the priority
//! `den × g + num × h` (the weight on the estimate `num / den`), ties broken toward the lower
//! `h`. The anytime weighted A* on boards of up to 25 cells (`large::weighted`) and the stage
//! search over a few tracked tiles (`large::stage`) each bring their states, estimates and
//! goals as a [`Space`]; the loop, the priorities and the looks at the budget are here.

use super::arena::Arena;
use super::budget::{Budget, StopReason};

/// The weight on the estimate, as `(num, den)`: `num / den`.
pub(crate) type Weight = (u32, u32);

/// The priority of a node `g` moves from the start with the estimate `h`: `den × g + num × h`
/// (at most `2^22 - 1`), then the lower `h` (at most 1023) first.
#[inline(always)]
pub(crate) fn priority((num, den): Weight, g: u32, h: u32) -> u32 {
    ((den * g + num * h).min((1 << 22) - 1) << 10) | h.min(1023)
}

/// What the search does with the node it takes from the open list.
pub(crate) enum Visit {
    /// Expands it.
    Expand,
    /// Passes it over (pruned; or a goal passed on, and the search goes on).
    Skip,
    /// Ends the search at it: the goal sought.
    Stop,
}

/// The states a weighted search runs over: what it does with a node it takes, and its
/// children (each offered to the arena with [`priority`]).
pub(crate) trait Space<K, D> {
    /// What to do with node `index`, taken from the open list.
    fn visit(&mut self, arena: &Arena<K, D>, index: u32) -> Visit;
    /// Offers the children of node `index` to the arena.
    fn expand(&self, arena: &mut Arena<K, D>, index: u32);
}

/// How often a search looks at its budget and its own node limit, and how.
pub(crate) struct Limits {
    /// Expansions from one look to the next.
    pub every: u64,
    /// The expansions after which the search ends (seen at a look, so up to `every` more).
    pub max_nodes: u64,
    /// Whether the budget's node and memory limits count too (else only its deadline and
    /// cancel flag).
    pub counted: bool,
}

/// How a search ended, short of the budget stopping it.
pub(crate) enum Ended {
    /// [`Space::visit`] stopped it at this node.
    Stopped(u32),
    /// The open list ran dry.
    RanDry,
    /// [`Limits::max_nodes`] expansions were made.
    NodeLimit,
}

/// Weighted best-first search from the root queued in `arena`: takes the best node, asks the
/// space what to do with it, and expands it; every [`Limits::every`] expansions looks at the
/// budget and the node limit.
///
/// # Errors
///
/// The budget's [`StopReason`] when it stops the search.
#[inline(always)]
pub(crate) fn run<K: PartialEq, D>(
    arena: &mut Arena<K, D>,
    space: &mut impl Space<K, D>,
    limits: &Limits,
    budget: &Budget,
) -> Result<Ended, StopReason> {
    let mut expanded = 0u64;
    while let Some(index) = arena.pop() {
        match space.visit(arena, index) {
            Visit::Expand => {}
            Visit::Skip => continue,
            Visit::Stop => return Ok(Ended::Stopped(index)),
        }
        expanded += 1;
        if expanded.is_multiple_of(limits.every) {
            match limits.counted {
                true => budget.check(expanded, arena.memory(0))?,
                false => budget.check(0, 0)?,
            }
            if expanded >= limits.max_nodes {
                return Ok(Ended::NodeLimit);
            }
        }
        space.expand(arena, index);
    }
    Ok(Ended::RanDry)
}
