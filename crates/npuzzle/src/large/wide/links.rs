//! How a wide beam reached each board it kept, in half a byte a board: the memory that grows
//! with width × depth, and so what caps a beam's width (see `max_width`).

use crate::board::Move;

use super::Child;

/// The parent links of a beam's boards. For each depth, a nibble for each board kept at the
/// depth before: bit `m` set when its child by `Move::ALL[m]` was kept. The boards kept at a
/// depth come in the order of their parents, and of their moves under one parent, so the
/// nibbles alone say which board is whose child.
#[derive(Default)]
pub(super) struct Links {
    depths: Vec<Vec<u8>>,
}

impl Links {
    /// Links the children kept at the next depth (in the order of their parents, then of their
    /// moves) to their `parents` boards.
    pub(super) fn push(&mut self, parents: usize, children: &[Child]) {
        debug_assert!(
            (children.windows(2)).all(|w| (w[0].parent, w[0].mv) < (w[1].parent, w[1].mv)),
            "children in the order of their parents and moves"
        );
        let mut nibbles = vec![0u8; parents.div_ceil(2)];
        for child in children {
            let parent = child.parent as usize;
            nibbles[parent / 2] |= 1 << (child.mv as usize + 4 * (parent % 2));
        }
        self.depths.push(nibbles);
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.depths.iter().map(Vec::len).sum()
    }

    /// The moves to board `at` of the last depth.
    pub(super) fn path(&self, mut at: usize) -> Vec<Move> {
        let mut moves = Vec::with_capacity(self.depths.len());
        for nibbles in self.depths.iter().rev() {
            let (parent, mv) = nth_child(nibbles, at);
            moves.push(Move::ALL[mv]);
            at = parent;
        }
        moves.reverse();
        moves
    }
}

/// The parent and move of the `n`th child (from 0) in a depth's nibbles.
fn nth_child(nibbles: &[u8], mut n: usize) -> (usize, usize) {
    for (i, &byte) in nibbles.iter().enumerate() {
        let ones = byte.count_ones() as usize;
        if n >= ones {
            n -= ones;
            continue;
        }
        let bit = (0..8)
            .filter(|bit| byte >> bit & 1 == 1)
            .nth(n)
            .expect("the byte holds the child");
        return (2 * i + bit / 4, bit % 4);
    }
    panic!("a child past the depth's last")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(parent: u32, mv: u8) -> Child {
        Child {
            parent,
            mv,
            ..Child::NONE
        }
    }

    #[test]
    fn each_board_s_path_walks_back_through_its_parents_moves() {
        // Depth 1: the first board's children by moves 0, 2 and 3. Depth 2: children of its
        // boards 0 (by move 1) and 2 (by moves 0 and 3); board 1 kept none. Depth 3: children
        // of depth 2's boards 1 and 2.
        let mut links = Links::default();
        links.push(1, &[child(0, 0), child(0, 2), child(0, 3)]);
        links.push(3, &[child(0, 1), child(2, 0), child(2, 3)]);
        links.push(3, &[child(1, 2), child(2, 1), child(2, 3)]);
        let moves = |indices: [usize; 3]| indices.map(|m| Move::ALL[m]);
        assert_eq!(links.path(0), moves([3, 0, 2]));
        assert_eq!(links.path(1), moves([3, 3, 1]));
        assert_eq!(links.path(2), moves([3, 3, 3]));
        assert_eq!(links.bytes(), 1 + 2 + 2);
    }

    #[test]
    fn the_nth_child_is_found_in_whichever_byte_holds_it() {
        // 40 parents, every odd one with children by moves 1 and 3.
        let children: Vec<Child> = (0..40)
            .filter(|p| p % 2 == 1)
            .flat_map(|p| [child(p, 1), child(p, 3)])
            .collect();
        let mut links = Links::default();
        links.push(40, &children);
        for (n, c) in children.iter().enumerate() {
            assert_eq!(
                nth_child(&links.depths[0], n),
                (c.parent as usize, c.mv as usize)
            );
        }
    }
}
