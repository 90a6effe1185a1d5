//! The solver's progress while it loads or builds its pattern database, in the words and the
//! fraction the HUD shows. Plain Rust: the solver's task feeds it the engine's events through a
//! mutex, the HUD reads [`TableProgress::stage`].

use std::time::{Duration, Instant};

use npuzzle::{Board, Partition, PdbEvent};

use super::Purpose;

/// What a solver job is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JobStage {
    /// Searching (or about to).
    Thinking,
    /// Reading the pattern database from the disk cache.
    LoadingTables,
    /// Building the pattern database (only the first time on this computer): the fraction
    /// done, from 0 to 1.
    BuildingTables(f32),
}

impl JobStage {
    /// The words the HUD shows for this stage; `elapsed` is the time the search has taken.
    pub fn words(self, purpose: Purpose, elapsed: Duration) -> String {
        match self {
            JobStage::BuildingTables(fraction) => format!(
                "Preparing the solver's tables (first time only): {:.0} %",
                (fraction * 100.0).floor()
            ),
            JobStage::LoadingTables => "Loading the solver's tables…".into(),
            JobStage::Thinking => {
                let what = match purpose {
                    Purpose::Solve => "Solving",
                    Purpose::Hint => "Finding a hint",
                };
                format!("{what}: thinking… {:.0} s", elapsed.as_secs_f32().floor())
            }
        }
    }
}

/// Follows the engine's [`PdbEvent`]s while it loads or builds a pattern database, and says
/// how far along it is. Plain Rust: the solver's task feeds it through a mutex, the HUD reads
/// [`TableProgress::stage`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableProgress {
    /// Each pattern's share of the whole build (its states: placements × free cells), by
    /// pattern index; empty when the partition is not known ahead.
    weights: Vec<f64>,
    /// Each pattern's fraction done.
    done: Vec<f64>,
    loading: bool,
    building: bool,
    /// When the tables were ready and the search began.
    pub(super) ready: Option<Instant>,
}

impl TableProgress {
    /// Progress for the database the engine picks for `board` by default (none for boards
    /// solved without one).
    pub fn for_board(board: &Board) -> TableProgress {
        let shape = board.shape();
        let weights = Partition::default_for(shape)
            .map(|partition| {
                partition
                    .patterns()
                    .iter()
                    .map(|p| states(shape.cells(), p.len()))
                    .collect()
            })
            .unwrap_or_default();
        TableProgress {
            weights,
            ..TableProgress::default()
        }
    }

    /// Takes in one event from the engine.
    pub fn apply(&mut self, event: &PdbEvent) {
        match event {
            PdbEvent::Rebuilding { .. } => {
                self.loading = false;
                self.building = true;
            }
            PdbEvent::BuildStarted {
                pattern, entries, ..
            } => {
                self.building = true;
                self.loading = false;
                self.grow(*pattern);
                // A partition not known ahead: weigh the patterns by their entries.
                if self.weights[*pattern] == 0.0 {
                    self.weights[*pattern] = *entries as f64;
                }
            }
            PdbEvent::BuildProgress {
                pattern,
                done,
                total,
            } => {
                self.building = true;
                self.grow(*pattern);
                if *total > 0 {
                    let fraction = (*done as f64 / *total as f64).clamp(0.0, 1.0);
                    self.done[*pattern] = self.done[*pattern].max(fraction);
                }
            }
            PdbEvent::BuildFinished { pattern, .. } => {
                self.grow(*pattern);
                self.done[*pattern] = 1.0;
            }
            PdbEvent::Loaded { .. } | PdbEvent::Saved { .. } | PdbEvent::SaveFailed { .. } => {
                self.loading = false;
                self.building = false;
            }
        }
    }

    /// Marks the start of a load (before the first event, which comes only once it is over).
    pub fn start_loading(&mut self) {
        self.loading = true;
    }

    /// The tables are ready (or not needed): the search runs.
    pub fn finish(&mut self) {
        self.loading = false;
        self.building = false;
        self.ready = Some(Instant::now());
    }

    /// What the job is doing.
    pub fn stage(&self) -> JobStage {
        if self.building {
            JobStage::BuildingTables(self.fraction() as f32)
        } else if self.loading {
            JobStage::LoadingTables
        } else {
            JobStage::Thinking
        }
    }

    /// The whole build's fraction done, the patterns weighed by their states; just under 1
    /// until the last table is saved.
    pub fn fraction(&self) -> f64 {
        let total: f64 = self.weights.iter().sum();
        if total <= 0.0 {
            return 0.0;
        }
        let done: f64 = self
            .weights
            .iter()
            .zip(self.done.iter().chain(std::iter::repeat(&0.0)))
            .map(|(w, d)| w * d)
            .sum();
        (done / total).clamp(0.0, 0.99)
    }

    fn grow(&mut self, pattern: usize) {
        if self.weights.len() <= pattern {
            self.weights.resize(pattern + 1, 0.0);
        }
        if self.done.len() < self.weights.len() {
            self.done.resize(self.weights.len(), 0.0);
        }
    }
}

/// The states a pattern's build goes through: its placements times the free cells.
fn states(cells: usize, tiles: usize) -> f64 {
    let placements: f64 = (0..tiles).map(|i| cells.saturating_sub(i) as f64).product();
    placements * cells.saturating_sub(tiles) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::parse_board;

    #[test]
    fn a_table_build_becomes_the_words_and_percentage_the_hud_shows() {
        let board = npuzzle::random::shuffled(npuzzle::Shape::new(4, 4).unwrap(), 40, 1);
        let mut progress = TableProgress::for_board(&board);
        let words = |p: &TableProgress| p.stage().words(Purpose::Solve, Duration::from_secs(3));
        assert_eq!(words(&progress), "Solving: thinking… 3 s");
        progress.start_loading();
        assert_eq!(progress.stage(), JobStage::LoadingTables);
        progress.apply(&PdbEvent::Rebuilding {
            path: "4x4-6-6-3.pdb".into(),
            reason: "no cached file yet".into(),
        });
        assert_eq!(
            words(&progress),
            "Preparing the solver's tables (first time only): 0 %"
        );
        // 6-6-3: the two 6-tile patterns are almost all of the work, half each.
        let six = 16 * 15 * 14 * 13 * 12 * 11;
        progress.apply(&PdbEvent::BuildStarted {
            pattern: 0,
            tiles: vec![1, 5, 6, 9, 10, 13],
            entries: six,
        });
        progress.apply(&PdbEvent::BuildProgress {
            pattern: 0,
            done: six / 2,
            total: six,
        });
        // Half of one of the two 6-tile patterns, which are nearly all of the work (the
        // 3-tile one is under 0.1 %): a quarter, give or take that sliver.
        assert!(
            (0.249..0.25).contains(&progress.fraction()),
            "{}",
            progress.fraction()
        );
        assert_eq!(
            words(&progress),
            "Preparing the solver's tables (first time only): 24 %"
        );
        progress.apply(&PdbEvent::BuildFinished {
            pattern: 0,
            seconds: 9.0,
            bytes: six / 2,
        });
        progress.apply(&PdbEvent::BuildProgress {
            pattern: 1,
            done: six * 9 / 10,
            total: six,
        });
        // One 6-tile pattern done and nine tenths of the other: 95 % less the sliver.
        assert!(
            (0.949..0.95).contains(&progress.fraction()),
            "{}",
            progress.fraction()
        );
        assert_eq!(
            words(&progress),
            "Preparing the solver's tables (first time only): 94 %"
        );
        // Never 100 % before the tables are saved.
        progress.apply(&PdbEvent::BuildFinished {
            pattern: 1,
            seconds: 9.0,
            bytes: six / 2,
        });
        progress.apply(&PdbEvent::BuildFinished {
            pattern: 2,
            seconds: 0.0,
            bytes: 1680,
        });
        assert_eq!(
            words(&progress),
            "Preparing the solver's tables (first time only): 99 %"
        );
        progress.apply(&PdbEvent::Saved {
            path: "4x4-6-6-3.pdb".into(),
            bytes: six + 1680,
        });
        assert_eq!(progress.stage(), JobStage::Thinking);
    }

    #[test]
    fn a_cached_table_is_loading_then_thinking() {
        let board = npuzzle::random::shuffled(npuzzle::Shape::new(4, 4).unwrap(), 40, 1);
        let mut cached = TableProgress::for_board(&board);
        cached.start_loading();
        let words = cached.stage().words(Purpose::Solve, Duration::from_secs(1));
        assert_eq!(words, "Loading the solver's tables…");
        cached.apply(&PdbEvent::Loaded {
            path: "4x4-6-6-3.pdb".into(),
            bytes: 1 << 20,
            seconds: 0.01,
        });
        assert_eq!(cached.stage(), JobStage::Thinking);
        assert_eq!(
            JobStage::Thinking.words(Purpose::Hint, Duration::from_millis(12_700)),
            "Finding a hint: thinking… 12 s"
        );
    }

    #[test]
    fn a_partition_not_known_ahead_is_weighed_as_it_comes() {
        // 3×3 has no default partition: the events alone give the weights.
        let board = parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap();
        let mut progress = TableProgress::for_board(&board);
        progress.apply(&PdbEvent::BuildStarted {
            pattern: 0,
            tiles: vec![1, 2, 3, 4],
            entries: 3024,
        });
        progress.apply(&PdbEvent::BuildProgress {
            pattern: 0,
            done: 756,
            total: 3024,
        });
        assert_eq!(progress.stage(), JobStage::BuildingTables(0.25));
    }
}
