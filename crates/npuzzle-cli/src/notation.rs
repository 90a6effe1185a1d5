//! `--notation`: how `solve` writes a solution; `--metric`: what counts as a move.

use clap::ValueEnum;
use npuzzle::Move;
use npuzzle::notation::{format_tile_moves, tile_letter};

/// The ways to write moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Notation {
    /// The direction the blank moves, one letter a move (`DRD`): seed 001's notation.
    #[default]
    Gap,
    /// The speedsolvers' (slidy's, slidysim's): the direction the tile moves, with repeat
    /// counts (`R3U2L`).
    Slidy,
}

impl Notation {
    /// The moves written in this notation.
    pub fn format(self, moves: &[Move]) -> String {
        match self {
            Notation::Gap => npuzzle::moves_to_string(moves),
            Notation::Slidy => format_tile_moves(moves),
        }
    }

    /// The letter of one move, for a step-by-step listing.
    pub fn letter(self, mv: Move) -> char {
        match self {
            Notation::Gap => mv.letter(),
            Notation::Slidy => tile_letter(mv),
        }
    }
}

/// What counts as one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Metric {
    /// The single-tile metric: each tile moved counts one.
    #[default]
    Stm,
    /// The multi-tile metric: a slide of any number of tiles in one line counts one.
    Mtm,
}

impl Metric {
    /// The length of `moves` in this metric.
    pub fn length(self, moves: &[Move]) -> usize {
        match self {
            Metric::Stm => moves.len(),
            Metric::Mtm => npuzzle::mtm_length(moves),
        }
    }

    /// The name in JSON and text.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Stm => "stm",
            Metric::Mtm => "mtm",
        }
    }
}
