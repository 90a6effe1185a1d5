//! The output of `analyze` and `solve`, as text or as one JSON object, built in one place.

use std::io::Write;

use anyhow::Result;
use npuzzle::{
    Algorithm, Board, Ended, GaveUp, Solution, Solvability, StopReason, hamming, manhattan,
};
use serde::Serialize;

use crate::notation::{Metric, Notation};

/// Everything a command reports about a board, and its solution if one was asked for.
#[derive(Serialize)]
pub struct Report {
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Row-major tiles, 0 for the blank.
    pub tiles: Vec<u8>,
    /// Misplaced tiles.
    pub hamming: usize,
    /// The Manhattan distance.
    pub manhattan: usize,
    /// Whether the board is solved.
    pub is_goal: bool,
    /// Inversions, the blank excluded.
    pub inversions: usize,
    /// Whether the goal can be reached.
    pub solvable: bool,
    /// The solvability rule and its counts, in words.
    pub solvability_rule: String,
    #[serde(skip)]
    pub solvability: Solvability,
    #[serde(skip)]
    board: Board,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    solved: Option<Solved>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gave_up: Option<GaveUpReport>,
    /// The shortest distance in single-tile moves, where `analyze` proves it (3×3).
    #[serde(skip_serializing_if = "Option::is_none")]
    distance_stm: Option<usize>,
    /// The shortest distance in multi-tile moves, where `analyze` proves it (3×3).
    #[serde(skip_serializing_if = "Option::is_none")]
    distance_mtm: Option<usize>,
}

/// The solve part of a report.
#[derive(Serialize)]
struct Solved {
    moves: String,
    /// The length in `metric`.
    length: usize,
    /// What counts as a move: "stm" or "mtm".
    metric: &'static str,
    /// Tiles moved one by one: the length in the single-tile metric.
    #[serde(skip)]
    single_tile: usize,
    optimal: bool,
    algorithm: &'static str,
    nodes_expanded: u64,
    seconds: f64,
    lower_bound: usize,
    /// Why the search ended: "ran its course", or what stopped it ("deadline", "memory",
    /// "nodes", "cancelled").
    ended: &'static str,
    #[serde(skip)]
    ended_text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    tiles_moved: Option<Vec<u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    boards: Option<Vec<Vec<u8>>>,
    /// Each move's letter in the notation asked for, for the step-by-step listing.
    #[serde(skip)]
    letters: Vec<char>,
}

/// What a search had done when its budget ran out.
#[derive(Serialize)]
struct GaveUpReport {
    reason: String,
    nodes_expanded: u64,
    seconds: f64,
    lower_bound: usize,
}

/// Which extras a solve report shows.
#[derive(Clone, Copy, Default)]
pub struct Extras {
    /// The tiles moved, instead of the blank moves, in text.
    pub tiles: bool,
    /// Every board along the way.
    pub show: bool,
    /// How the moves are written.
    pub notation: Notation,
    /// What counts as a move in `length` and the lower bound.
    pub metric: Metric,
}

impl Report {
    /// The analysis of a board.
    pub fn analyze(board: &Board) -> Report {
        let solvability = Solvability::of(board);
        Report {
            width: board.width(),
            height: board.height(),
            tiles: board.tiles().to_vec(),
            hamming: hamming(board),
            manhattan: manhattan(board),
            is_goal: board.is_goal(),
            inversions: solvability.inversions,
            solvable: solvability.solvable,
            solvability_rule: solvability.to_string(),
            solvability,
            board: board.clone(),
            solved: None,
            gave_up: None,
            distance_stm: None,
            distance_mtm: None,
        }
    }

    /// Adds the shortest distances in both metrics, where they are proved at once: on 3×3,
    /// A* in single-tile moves and the exact multi-tile table.
    pub fn with_distances(mut self) -> Report {
        if (self.width, self.height) != (3, 3) || !self.solvable {
            return self;
        }
        let options = npuzzle::Options::default().with_algorithm(Algorithm::AStar);
        self.distance_stm = npuzzle::solve(&self.board, &options).ok().map(|s| s.len());
        self.distance_mtm = npuzzle::mtm::MtmTables::for_shape(self.board.shape())
            .map(|tables| tables.heuristic(&self.board));
        self
    }

    /// Adds a solution, with the extras asked for.
    pub fn with_solution(mut self, solution: &Solution, extras: Extras) -> Report {
        let tiles_moved = extras.tiles.then(|| {
            self.board
                .tiles_moved_by(&solution.moves)
                .unwrap_or_default()
        });
        let boards = extras.show.then(|| {
            let mut board = self.board.clone();
            let mut boards = vec![board.tiles().to_vec()];
            for &mv in &solution.moves {
                board.apply(mv);
                boards.push(board.tiles().to_vec());
            }
            boards
        });
        self.solved = Some(Solved {
            moves: extras.notation.format(&solution.moves),
            length: extras.metric.length(&solution.moves),
            metric: extras.metric.name(),
            single_tile: solution.len(),
            optimal: solution.optimal,
            algorithm: solution.algorithm.name(),
            nodes_expanded: solution.nodes_expanded,
            seconds: solution.seconds,
            lower_bound: solution.lower_bound,
            ended: ended_name(solution.ended),
            ended_text: ended_text(solution),
            tiles_moved,
            boards,
            letters: solution
                .moves
                .iter()
                .map(|&mv| extras.notation.letter(mv))
                .collect(),
        });
        self
    }

    /// Adds the figures of a search that gave up.
    pub fn with_gave_up(mut self, gave_up: &GaveUp) -> Report {
        self.gave_up = Some(GaveUpReport {
            reason: gave_up.reason.to_string(),
            nodes_expanded: gave_up.nodes_expanded,
            seconds: gave_up.seconds,
            lower_bound: gave_up.lower_bound,
        });
        self
    }

    /// Prints the report on standard output, as JSON or as text.
    pub fn print(&self, json: bool) -> Result<()> {
        let mut out = std::io::stdout().lock();
        if json {
            serde_json::to_writer(&mut out, self)?;
            writeln!(out)?;
        } else {
            out.write_all(self.text().as_bytes())?;
        }
        Ok(())
    }

    /// The report as text, one figure a line.
    pub fn text(&self) -> String {
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        let mut text = format!(
            "Board ({}x{}):\n{}\n\n",
            self.width, self.height, self.board
        );
        text += &format!("Hamming:     {}\n", self.hamming);
        text += &format!("Manhattan:   {}\n", self.manhattan);
        text += &format!("Goal:        {}\n", yes_no(self.is_goal));
        text += &format!("Inversions:  {}\n", self.inversions);
        text += &format!(
            "Solvable:    {} ({})\n",
            yes_no(self.solvable),
            self.solvability_rule
        );
        if let (Some(stm), Some(mtm)) = (self.distance_stm, self.distance_mtm) {
            text += &format!("Distance:    {stm} moves (STM), {mtm} (MTM)\n");
        }
        if let Some(solved) = &self.solved {
            let kind = if solved.optimal {
                "optimal"
            } else {
                "not optimal"
            };
            text += &format!("\nAlgorithm:   {} ({kind})\n", solved.algorithm);
            match &solved.tiles_moved {
                Some(tiles) => {
                    let tiles: Vec<String> = tiles.iter().map(u8::to_string).collect();
                    text += &format!("Tiles moved: {}\n", tiles.join(" "));
                }
                None => text += &format!("Solution:    {}\n", empty_as_dash(&solved.moves)),
            }
            text += &match solved.metric {
                "mtm" => format!(
                    "Length:      {} moves (MTM; {} tiles moved)\n",
                    solved.length, solved.single_tile
                ),
                _ => format!("Length:      {} moves\n", solved.length),
            };
            if !solved.optimal {
                text += &format!("Lower bound: {} moves\n", solved.lower_bound);
                text += &format!("Ended:       {}\n", solved.ended_text);
            }
            text += &format!("Nodes:       {} expanded\n", solved.nodes_expanded);
            text += &format!("Time:        {:.6} s\n", solved.seconds);
            if let Some(boards) = &solved.boards {
                text += &self.boards_text(boards, &solved.letters);
            }
        }
        if let Some(gave_up) = &self.gave_up {
            text += &format!(
                "\nGave up:     {} after {} nodes in {:.3} s; the solution needs at least {} moves\n",
                gave_up.reason, gave_up.nodes_expanded, gave_up.seconds, gave_up.lower_bound
            );
        }
        text
    }

    fn boards_text(&self, boards: &[Vec<u8>], letters: &[char]) -> String {
        let mut text = String::from("\nStep by step:\n");
        for (step, tiles) in boards.iter().enumerate() {
            let board = Board::new(self.width, self.height, tiles.clone())
                .expect("replayed from a valid board");
            let heading = match letters.get(step.wrapping_sub(1)) {
                Some(letter) if step > 0 => format!("{step}. {letter}"),
                _ => "start".to_string(),
            };
            text += &format!("\n{heading}\n{board}\n");
        }
        text
    }
}

/// The short name of why a search ended, for JSON.
fn ended_name(ended: Ended) -> &'static str {
    match ended {
        Ended::RanItsCourse => "ran its course",
        Ended::Stopped(StopReason::Deadline) => "deadline",
        Ended::Stopped(StopReason::MemoryLimit) => "memory",
        Ended::Stopped(StopReason::NodeLimit) => "nodes",
        Ended::Stopped(StopReason::Cancelled) => "cancelled",
    }
}

/// Why a solution that is not proved shortest is where it is, and what more time would do.
fn ended_text(solution: &Solution) -> String {
    match (solution.ended, solution.algorithm) {
        (Ended::RanItsCourse, Algorithm::Anytime) => format!(
            "every improving method ran its course in {:.1} s; more time gives the same solution",
            solution.seconds
        ),
        (Ended::RanItsCourse, Algorithm::Fast) => {
            "the fast solver's answer; --time improves it".into()
        }
        (Ended::RanItsCourse, _) => "the method gives one answer".into(),
        (Ended::Stopped(reason), _) => {
            let more = match reason {
                StopReason::MemoryLimit => "memory (--max-memory)",
                _ => "time",
            };
            format!("{reason}; more {more} may find a shorter solution")
        }
    }
}

fn empty_as_dash(moves: &str) -> &str {
    if moves.is_empty() {
        "- (already solved)"
    } else {
        moves
    }
}
