//! The constructive solver: place the top row or the left column tile by tile, shrink the board
//! by one row or column, and repeat until a small corner is left for an optimal search.
//!
//! Each tile travels along a route that is shortest for the tile and the blank together (a
//! breadth-first search over their joint positions, the placed tiles walled off), so no tile
//! costs more moves than it must given where the blank is. The last two tiles of a row (or
//! column) use the standard trick: park them one cell off, then rotate both in with two moves.

use crate::board::{Board, Move, Shape};
use crate::estimate::manhattan_where;
use crate::pdb::PatternDatabase;
use crate::search::astar::astar;
use crate::search::budget::Budget;
use crate::search::idastar::{IdaOptions, idastar};

use super::LargeError;
use super::stage::{LoneTileCache, MAX_TRACKED, Stage};

/// Which way the reduction goes at each stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Reduce the longer side first (rows when taller, columns otherwise).
    LongerSide,
    /// Alternate the stage kinds, breaking ties as `LongerSide` does; a variant for the anytime search.
    Alternate,
}

/// A board being solved: tiles, where each tile is, which cells are done, the moves made.
pub(crate) struct Work {
    width: usize,
    height: usize,
    tiles: Vec<u8>,
    position: Vec<usize>,
    blank: usize,
    fixed: Vec<bool>,
    /// The moves made so far.
    pub(crate) moves: Vec<Move>,
    /// Joint (tile, blank) search scratch: the move that reached each state, or `NONE`.
    came: Vec<u8>,
    stamp: Vec<u32>,
    generation: u32,
    queue: Vec<u32>,
    /// The cells one step away per move, `usize::MAX` off the board.
    steps: Vec<[usize; 4]>,
    /// Whether a line is filled from whichever end is cheaper (else left to right).
    pub(crate) choose_ends: bool,
    /// Whether stages estimate with exact lone-tile costs.
    pub(crate) exact_stages: bool,
    /// What the best-of placement charges per unit of Manhattan distance left on the tiles
    /// still to place.
    pub(crate) leftover: i64,
    /// The stages' lone-tile cost tables, kept between the ways a line is tried.
    lone_tiles: LoneTileCache,
}

const NONE: u8 = 255;

impl Work {
    /// Starts from a board.
    pub(crate) fn new(board: &Board) -> Work {
        let shape = board.shape();
        let cells = shape.cells();
        let mut position = vec![0; cells];
        for (cell, &tile) in board.tiles().iter().enumerate() {
            position[tile as usize] = cell;
        }
        Work {
            width: shape.width,
            height: shape.height,
            tiles: board.tiles().to_vec(),
            position,
            blank: board.blank(),
            fixed: vec![false; cells],
            moves: Vec::new(),
            came: vec![NONE; cells * cells],
            stamp: vec![0; cells * cells],
            generation: 0,
            queue: Vec::with_capacity(cells * cells),
            steps: shape.step_table(),
            choose_ends: true,
            exact_stages: false,
            leftover: 2,
            lone_tiles: LoneTileCache::default(),
        }
    }

    fn cell(&self, column: usize, row: usize) -> usize {
        row * self.width + column
    }

    /// The tile whose goal is a cell.
    fn goal_tile(&self, cell: usize) -> u8 {
        (cell + 1) as u8
    }

    /// Makes one blank move (which must be legal).
    fn apply(&mut self, mv: Move) {
        let to = self.steps[self.blank][mv.index()];
        let tile = self.tiles[to];
        self.tiles[self.blank] = tile;
        self.position[tile as usize] = self.blank;
        self.tiles[to] = 0;
        self.position[0] = to;
        self.blank = to;
        self.moves.push(mv);
    }

    /// Moves `tile` to `target` by the shortest joint route (see [`Work::find`]).
    fn route(&mut self, tile: u8, target: usize, avoid: Option<usize>) -> Result<(), LargeError> {
        let path = self.find(tile, target, avoid)?;
        for &mv in &path {
            self.apply(mv);
        }
        Ok(())
    }

    /// The shortest blank moves that bring `tile` to `target`, never touching a fixed cell.
    /// With `tile == 0` only the blank travels (to `target`), and `avoid` names one more cell
    /// to keep out of.
    fn find(
        &mut self,
        tile: u8,
        target: usize,
        avoid: Option<usize>,
    ) -> Result<Vec<Move>, LargeError> {
        let cells = self.tiles.len();
        let start_tile = if tile == 0 {
            0
        } else {
            self.position[tile as usize]
        };
        let start = start_tile * cells + self.blank;
        let done = |t: usize, b: usize| if tile == 0 { b == target } else { t == target };
        if done(start_tile, self.blank) {
            return Ok(Vec::new());
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let generation = self.generation;
        self.queue.clear();
        self.queue.push(start as u32);
        self.stamp[start] = generation;
        self.came[start] = NONE;
        let mut head = 0;
        let mut found = None;
        'search: while head < self.queue.len() {
            let state = self.queue[head] as usize;
            head += 1;
            let (t, b) = (state / cells, state % cells);
            for mv in Move::ALL {
                let next = self.steps[b][mv.index()];
                if next == usize::MAX || self.fixed[next] || Some(next) == avoid {
                    continue;
                }
                let t2 = if tile != 0 && next == t { b } else { t };
                let child = t2 * cells + next;
                if self.stamp[child] == generation {
                    continue;
                }
                self.stamp[child] = generation;
                self.came[child] = mv as u8;
                if done(t2, next) {
                    found = Some(child);
                    break 'search;
                }
                self.queue.push(child as u32);
            }
        }
        let Some(mut state) = found else {
            return Err(LargeError::Stuck { tile });
        };
        let mut path = Vec::new();
        while state != start {
            let mv = Move::ALL[self.came[state] as usize];
            let (t, b) = (state / cells, state % cells);
            let before = self.steps[b][mv.inverse().index()];
            let t0 = if tile != 0 && t == before { b } else { t };
            path.push(mv);
            state = t0 * cells + before;
        }
        path.reverse();
        Ok(path)
    }

    /// Places the last two tiles of a line: `a_goal` then `b_goal` (at the line's end), using
    /// the parking cells `a_park` (= `b_goal`), `b_park`, the cell `escape` for a stuck `b`,
    /// and the two finishing moves.
    fn place_pair(
        &mut self,
        a_goal: usize,
        b_goal: usize,
        b_park: usize,
        escape: usize,
        finish: [Move; 2],
    ) -> Result<(), LargeError> {
        let a = self.goal_tile(a_goal);
        let b = self.goal_tile(b_goal);
        if self.position[a as usize] == a_goal && self.position[b as usize] == b_goal {
            self.fixed[a_goal] = true;
            self.fixed[b_goal] = true;
            return Ok(());
        }
        self.route(a, b_goal, None)?;
        self.fixed[b_goal] = true;
        if self.route(b, b_park, None).is_err() {
            // `b` is walled in (it sits in `a_goal` with no way around): take it away first.
            self.fixed[b_goal] = false;
            self.route(b, escape, None)?;
            self.fixed[escape] = true;
            self.route(a, b_goal, None)?;
            self.fixed[escape] = false;
            self.fixed[b_goal] = true;
            self.route(b, b_park, None)?;
        }
        self.fixed[b_park] = true;
        self.route(0, a_goal, None)?;
        self.fixed[b_park] = false;
        self.apply(finish[0]);
        self.apply(finish[1]);
        self.fixed[a_goal] = true;
        self.fixed[b_goal] = true;
        Ok(())
    }

    /// Fills a line of cells (`cells[i]` for the i-th cell, in order): cells are placed from
    /// either end, the cheaper first, until two neighbours are left for the pair trick.
    /// `below(i)` is the cell next to `cells[i]` inside the region, and `below2(i)` the one after.
    fn solve_line(
        &mut self,
        cells: &[usize],
        below: &dyn Fn(usize) -> usize,
        below2: &dyn Fn(usize) -> usize,
        forward: Move,
        inward: Move,
    ) -> Result<(), LargeError> {
        let (mut lo, mut hi) = (0, cells.len() - 1);
        while hi - lo > 1 {
            let pick = if self.choose_ends {
                let low = self.find(self.goal_tile(cells[lo]), cells[lo], None)?;
                let high = self.find(self.goal_tile(cells[hi]), cells[hi], None)?;
                if high.len() < low.len() {
                    for &mv in &high {
                        self.apply(mv);
                    }
                    self.fixed[cells[hi]] = true;
                    hi -= 1;
                    continue;
                }
                low
            } else {
                self.find(self.goal_tile(cells[lo]), cells[lo], None)?
            };
            for &mv in &pick {
                self.apply(mv);
            }
            self.fixed[cells[lo]] = true;
            lo += 1;
        }
        self.place_pair(
            cells[lo],
            cells[hi],
            below(cells[hi]),
            below2(cells[hi]),
            [forward, inward],
        )
    }

    /// Solves the top row `row` of the region from `column` rightwards.
    fn solve_row(&mut self, row: usize, column: usize) -> Result<(), LargeError> {
        let cells = self.row_goals(column, row);
        let width = self.width;
        self.solve_line(
            &cells,
            &|cell| cell + width,
            &|cell| cell + 2 * width,
            Move::Right,
            Move::Down,
        )
    }

    /// Solves the left column `column` of the region from `row` downwards.
    fn solve_column(&mut self, column: usize, row: usize) -> Result<(), LargeError> {
        let cells = self.column_goals(column, row);
        self.solve_line(
            &cells,
            &|cell| cell + 1,
            &|cell| cell + 2,
            Move::Down,
            Move::Right,
        )
    }

    /// Solves the bottom-right region from (`column`, `row`) optimally.
    fn finish(&mut self, column: usize, row: usize, budget: &Budget) -> Result<(), LargeError> {
        let board = self.region(column, row)?;
        let found = astar(&board, budget).map_err(LargeError::GaveUp)?;
        for mv in found.moves {
            self.apply(mv);
        }
        Ok(())
    }

    /// The bottom-right region from (`column`, `row`) as a board of its own.
    fn region(&self, column: usize, row: usize) -> Result<Board, LargeError> {
        let rw = self.width - column;
        let rh = self.height - row;
        let mut local = Vec::with_capacity(rw * rh);
        for y in row..self.height {
            for x in column..self.width {
                let tile = self.tiles[self.cell(x, y)];
                if tile == 0 {
                    local.push(0);
                } else {
                    let goal = tile as usize - 1;
                    let (gx, gy) = (goal % self.width, goal / self.width);
                    local.push(((gy - row) * rw + (gx - column) + 1) as u8);
                }
            }
        }
        Board::new(rw, rh, local).map_err(|_| LargeError::Stuck { tile: 0 })
    }

    /// Places the given goal cells at once by the multi-tile search; false if it found
    /// nothing within its nodes (the board is then unchanged).
    fn stage(
        &mut self,
        goals: &[usize],
        weight: (u32, u32),
        nodes: u64,
        budget: &Budget,
    ) -> Result<bool, LargeError> {
        if goals.len() > MAX_TRACKED {
            return Ok(false);
        }
        let cells: Vec<usize> = goals
            .iter()
            .map(|&goal| self.position[self.goal_tile(goal) as usize])
            .collect();
        let shape =
            Shape::new(self.width, self.height).map_err(|_| LargeError::Stuck { tile: 0 })?;
        let stage = Stage {
            shape,
            fixed: &self.fixed,
            goals,
            exact: self.exact_stages,
        };
        let found = stage
            .solve(
                self.blank,
                &cells,
                weight,
                nodes,
                &mut self.lone_tiles,
                budget,
            )
            .map_err(LargeError::stopped)?;
        let Some(moves) = found else {
            return Ok(false);
        };
        for mv in moves {
            self.apply(mv);
        }
        for &goal in goals {
            self.fixed[goal] = true;
        }
        Ok(true)
    }

    /// Places a line by the multi-tile search in chunks of at most `chunk` cells from its start
    /// (the last chunk takes at least two); false if a chunk failed (the board then holds the
    /// earlier chunks placed and fixed, and the line must be finished tile by tile).
    fn stage_line(
        &mut self,
        goals: &[usize],
        chunk: usize,
        weight: (u32, u32),
        nodes: u64,
        budget: &Budget,
    ) -> Result<bool, LargeError> {
        let chunk = chunk.clamp(2, MAX_TRACKED);
        let mut start = 0;
        while start < goals.len() {
            let mut end = (start + chunk).min(goals.len());
            if goals.len() - end == 1 {
                end = if end - start >= 3 {
                    end - 1
                } else {
                    goals.len()
                };
            }
            if !self.stage(&goals[start..end], weight, nodes, budget)? {
                for &goal in &goals[..start] {
                    self.fixed[goal] = false;
                }
                return Ok(false);
            }
            start = end;
        }
        Ok(true)
    }

    /// Solves the 4×4 bottom-right region from (`column`, `row`) optimally by IDA* on the
    /// given 4×4 pattern databases.
    fn finish_optimally(
        &mut self,
        column: usize,
        row: usize,
        db: &PatternDatabase,
        budget: &Budget,
    ) -> Result<(), LargeError> {
        let board = self.region(column, row)?;
        let options = IdaOptions::with_tables(Some(db), Some(1));
        // The remainder's search keeps the budget's limits but not its progress callback:
        // its bounds are the remainder's, not the board's.
        let found = idastar(&board, &options, &budget.quiet()).map_err(LargeError::GaveUp)?;
        for mv in found.solution.moves {
            self.apply(mv);
        }
        Ok(())
    }

    /// Places one line: by multi-tile stages when `stage` is given and they succeed, else tile
    /// by tile.
    #[allow(clippy::too_many_arguments)]
    fn place_line(
        &mut self,
        goals: &[usize],
        is_row: bool,
        row: usize,
        column: usize,
        stage: Option<((u32, u32), u64)>,
        chunk: usize,
        exact: bool,
        budget: &Budget,
    ) -> Result<(), LargeError> {
        let staged = match stage {
            Some((weight, nodes)) => {
                self.exact_stages = exact;
                self.stage_line(goals, chunk, weight, nodes, budget)?
            }
            None => false,
        };
        if !staged {
            if is_row {
                self.solve_row(row, column)?;
            } else {
                self.solve_column(column, row)?;
            }
        }
        Ok(())
    }

    /// The Manhattan distance of the tiles not yet placed.
    fn leftover_manhattan(&self) -> usize {
        let shape = Shape {
            width: self.width,
            height: self.height,
        };
        manhattan_where(shape, &self.tiles, |cell| !self.fixed[cell])
    }

    /// The board as it stands (not the moves).
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            tiles: self.tiles.clone(),
            position: self.position.clone(),
            blank: self.blank,
            fixed: self.fixed.clone(),
        }
    }

    /// Puts the board back as a snapshot had it, and the moves back to `moves` long plus `extra`.
    fn restore(&mut self, snapshot: &Snapshot, moves: usize, extra: &[Move]) {
        self.tiles.clone_from(&snapshot.tiles);
        self.position.clone_from(&snapshot.position);
        self.blank = snapshot.blank;
        self.fixed.clone_from(&snapshot.fixed);
        self.moves.truncate(moves);
        self.moves.extend_from_slice(extra);
    }

    /// Places one line each way `options` names (and tile by tile) from the same board, and
    /// keeps the way that took the fewest moves.
    fn place_line_best(
        &mut self,
        goals: &[usize],
        is_row: bool,
        row: usize,
        column: usize,
        options: &[StageOption],
        budget: &Budget,
    ) -> Result<(), LargeError> {
        let start = self.snapshot();
        let before = self.moves.len();
        let mut best: Option<(Vec<Move>, Snapshot, i64)> = None;
        for option in options.iter().map(Some).chain([None]) {
            self.restore(&start, before, &[]);
            let placed = match option {
                Some(o) => self.place_line(
                    goals,
                    is_row,
                    row,
                    column,
                    Some((o.weight, o.nodes)),
                    o.chunk,
                    o.exact,
                    budget,
                ),
                None => {
                    self.place_line(goals, is_row, row, column, None, MAX_TRACKED, false, budget)
                }
            };
            match placed {
                Ok(()) => {}
                Err(LargeError::GaveUp(gave_up)) => return Err(LargeError::GaveUp(gave_up)),
                Err(_) => continue,
            }
            let added = &self.moves[before..];
            // Moves spent, plus what the rest of the board was set back (or helped) by.
            let score = added.len() as i64 + self.leftover * self.leftover_manhattan() as i64;
            if best.as_ref().is_none_or(|(_, _, s)| score < *s) {
                best = Some((added.to_vec(), self.snapshot(), score));
            }
        }
        let Some((moves, snapshot, _)) = best else {
            return Err(LargeError::Stuck { tile: 0 });
        };
        self.restore(&snapshot, before, &moves);
        Ok(())
    }

    /// Places the top row or the left column, whichever the best-of placement does in fewer
    /// moves per tile; returns whether it was the row.
    fn place_either(
        &mut self,
        row_goals: &[usize],
        column_goals: &[usize],
        row: usize,
        column: usize,
        options: &[StageOption],
        budget: &Budget,
    ) -> Result<bool, LargeError> {
        let start = self.snapshot();
        let before = self.moves.len();
        self.place_line_best(row_goals, true, row, column, options, budget)?;
        let by_row = (self.moves[before..].to_vec(), self.snapshot());
        self.restore(&start, before, &[]);
        self.place_line_best(column_goals, false, row, column, options, budget)?;
        let by_column = self.moves.len() - before;
        // Compare moves per tile placed.
        if by_row.0.len() * column_goals.len() < by_column * row_goals.len() {
            self.restore(&by_row.1, before, &by_row.0);
            return Ok(true);
        }
        Ok(false)
    }

    /// Runs the whole method.
    pub(crate) fn solve(&mut self, config: &Config<'_>, budget: &Budget) -> Result<(), LargeError> {
        let (mut column, mut row) = (0, 0);
        let mut last_was_row = false;
        loop {
            let (rw, rh) = (self.width - column, self.height - row);
            if rw <= 3 && rh <= 3 {
                return self.finish(column, row, budget);
            }
            if let Some(db) = config.finish_4x4
                && rw == 4
                && rh == 4
                && (db.shape().width, db.shape().height) == (4, 4)
            {
                return self.finish_optimally(column, row, db, budget);
            }
            budget.check(0, 0).map_err(LargeError::stopped)?;
            if self.place_corner(config, column, row, budget)? {
                row += 1;
                column += 1;
                continue;
            }
            let do_row = self.place_side(config, column, row, last_was_row, budget)?;
            if do_row {
                row += 1;
            } else {
                column += 1;
            }
            last_was_row = do_row;
        }
    }

    /// The cells of the top row of the region left from (`column`, `row`).
    fn row_goals(&self, column: usize, row: usize) -> Vec<usize> {
        (column..self.width).map(|x| self.cell(x, row)).collect()
    }

    /// The cells of the left column of the region left from (`column`, `row`).
    fn column_goals(&self, column: usize, row: usize) -> Vec<usize> {
        (row..self.height).map(|y| self.cell(column, y)).collect()
    }

    /// With a corner stage configured and the region small enough to track: its top row and
    /// left column placed at once by a stage search; whether they were.
    fn place_corner(
        &mut self,
        config: &Config<'_>,
        column: usize,
        row: usize,
        budget: &Budget,
    ) -> Result<bool, LargeError> {
        let (rw, rh) = (self.width - column, self.height - row);
        let Some((weight, nodes)) = config.corner_stage else {
            return Ok(false);
        };
        if rw < 4 || rh < 4 || rw + rh - 1 > MAX_TRACKED {
            return Ok(false);
        }
        let mut goals = self.row_goals(column, row);
        goals.extend(&self.column_goals(column, row)[1..]);
        self.stage(&goals, weight, nodes, budget)
    }

    /// Places the region's top row or its left column, as the plan says (or whichever is
    /// cheaper, when the config tries both); whether it placed the row.
    fn place_side(
        &mut self,
        config: &Config<'_>,
        column: usize,
        row: usize,
        last_was_row: bool,
        budget: &Budget,
    ) -> Result<bool, LargeError> {
        let (rw, rh) = (self.width - column, self.height - row);
        // With fewer than 4 rows left a column goes next, with fewer than 4 columns a row; else
        // the plan chooses.
        let do_row = if rh < 4 {
            false
        } else if rw < 4 {
            true
        } else {
            match config.plan {
                Plan::LongerSide => rh > rw,
                Plan::Alternate if rh == rw => !last_was_row,
                Plan::Alternate => rh > rw,
            }
        };
        let goals = match do_row {
            true => self.row_goals(column, row),
            false => self.column_goals(column, row),
        };
        if config.options.is_empty() {
            let (stage, chunk, exact) = (config.line_stage, config.chunk, config.exact);
            self.place_line(&goals, do_row, row, column, stage, chunk, exact, budget)?;
            Ok(do_row)
        } else if config.either_line && rw >= 4 && rh >= 4 {
            let (row_goals, column_goals) =
                (self.row_goals(column, row), self.column_goals(column, row));
            self.place_either(
                &row_goals,
                &column_goals,
                row,
                column,
                config.options,
                budget,
            )
        } else {
            self.place_line_best(&goals, do_row, row, column, config.options, budget)?;
            Ok(do_row)
        }
    }
}

/// A board in the making, without its moves.
struct Snapshot {
    tiles: Vec<u8>,
    position: Vec<usize>,
    blank: usize,
    fixed: Vec<bool>,
}

/// One way to place a line by multi-tile stages.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StageOption {
    /// The most cells a stage places at once.
    pub chunk: usize,
    /// The weight as `num / den`.
    pub weight: (u32, u32),
    /// Nodes a stage may expand.
    pub nodes: u64,
    /// Exact lone-tile cost tables instead of `3 ×` Manhattan.
    pub exact: bool,
}

/// How the constructive method goes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Config<'a> {
    /// Which way the reduction goes.
    pub plan: Plan,
    /// Whether a line is filled from whichever end is cheaper.
    pub choose_ends: bool,
    /// Place each line by the multi-tile search (weight, nodes), else tile by tile.
    pub line_stage: Option<((u32, u32), u64)>,
    /// Place a row and a column together by the multi-tile search (weight, nodes) when they
    /// fit in one stage.
    pub corner_stage: Option<((u32, u32), u64)>,
    /// The most cells a line stage places at once.
    pub chunk: usize,
    /// Stages estimate with exact lone-tile costs instead of `3 ×` Manhattan.
    pub exact: bool,
    /// Place each line every one of these ways (and tile by tile), keeping the shortest;
    /// when empty, `line_stage` alone.
    pub options: &'static [StageOption],
    /// With `options`: try both the row and the column at each step, keep the cheaper.
    pub either_line: bool,
    /// With `options`: what a way is charged per unit of Manhattan distance it leaves on the
    /// tiles still to place (besides its moves).
    pub leftover: i64,
    /// Solve a 4×4 remainder optimally with these 4×4 pattern databases instead of going on
    /// to 3×3.
    pub finish_4x4: Option<&'a PatternDatabase>,
}

impl Config<'static> {
    /// The fast method: tile by tile, cheaper end first, longer side first.
    pub(crate) const FAST: Config<'static> = Config {
        plan: Plan::LongerSide,
        choose_ends: true,
        line_stage: None,
        corner_stage: None,
        chunk: MAX_TRACKED,
        exact: false,
        options: &[],
        either_line: false,
        leftover: 2,
        finish_4x4: None,
    };
}

/// Solves a solvable board by the constructive method; the moves are not yet shortened.
pub(crate) fn construct(
    board: &Board,
    config: &Config<'_>,
    budget: &Budget,
) -> Result<Vec<Move>, LargeError> {
    let mut work = Work::new(board);
    work.choose_ends = config.choose_ends;
    work.leftover = config.leftover;
    work.exact_stages = config.exact;
    work.solve(config, budget)?;
    Ok(work.moves)
}

/// The ways each line is placed by the best-of construction: (cells a stage places at once,
/// weight as `num / den`, nodes a stage may expand, exact lone-tile costs).
pub(super) const BEST_OF: &[StageOption] = &stage_options([
    (6, (3, 2), 20_000, true),
    (6, (3, 2), 20_000, false),
    (4, (1, 1), 20_000, true),
    (5, (2, 1), 20_000, true),
    (8, (2, 1), 20_000, true),
    (6, (1, 1), 20_000, true),
    (6, (3, 1), 20_000, true),
    (15, (3, 2), 20_000, false),
]);

/// [`StageOption`]s from their settings, written as tuples.
const fn stage_options<const N: usize>(
    settings: [(usize, (u32, u32), u64, bool); N],
) -> [StageOption; N] {
    let mut out = [StageOption {
        chunk: 0,
        weight: (1, 1),
        nodes: 0,
        exact: false,
    }; N];
    let mut i = 0;
    while i < N {
        let (chunk, weight, nodes, exact) = settings[i];
        out[i] = StageOption {
            chunk,
            weight,
            nodes,
            exact,
        };
        i += 1;
    }
    out
}
