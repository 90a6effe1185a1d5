//! The solve history: every finished game (won, or given up: a DNF) kept as one record of a
//! journal (crates/journal), with its start board, its moves and each move's time, so it can
//! be replayed, counted by category and sent as a challenge. Recording a solve appends one
//! record and never rewrites the others; a damaged record is skipped and kept aside.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use journal::Loaded;
use serde::{Deserialize, Serialize};

use super::event::Event;
use super::{Day, Difficulty, Game, GameKind, PhotoSource, stats};

/// The solve history's file name.
pub const SOLVES_FILE: &str = "solves.journal";

/// The name kept for a photo that is not one of the bundled ones.
pub const YOUR_PHOTO: &str = "your photo";

/// How a solve's board came to be, as its category counts it. Written as a short key
/// (`easy`, `daily-20787`, `custom`); a key this version does not know (a mode added later:
/// a marathon, a relay, a blind solve) is kept as it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", from = "String")]
pub enum Mode {
    /// A shuffle at a difficulty.
    Shuffled(Difficulty),
    /// The puzzle of a day.
    Daily(Day),
    /// A board the player set up.
    Custom,
    /// A run of boards on one clock (a marathon, a relay).
    Event(Event),
    /// A mode this version does not know, by its key.
    Other(String),
}

impl Mode {
    /// The mode of a kind of game (a review counts as the game it replays: [`Game::kept`]).
    pub fn of(kind: &GameKind) -> Mode {
        match kind {
            GameKind::Shuffled(difficulty) => Mode::Shuffled(*difficulty),
            GameKind::Daily(day) => Mode::Daily(*day),
            GameKind::Custom => Mode::Custom,
            GameKind::Review(game) | GameKind::Replay(game) => Mode::of(game.kind()),
            GameKind::Event(run) => Mode::Event(run.event),
        }
    }

    /// How many boards a solve of this mode is: several for a marathon or a relay, else one.
    pub fn boards(&self) -> usize {
        match self {
            Mode::Event(event) => event.legs().len(),
            _ => 1,
        }
    }

    /// The mode's key in its category: the same for every day's puzzle (`daily`).
    pub fn category_key(&self) -> String {
        match self {
            Mode::Daily(_) => "daily".into(),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Mode::Shuffled(difficulty) => f.write_str(&difficulty.label().to_lowercase()),
            Mode::Daily(day) => write!(f, "daily-{day}"),
            Mode::Custom => f.write_str("custom"),
            Mode::Event(event) => f.write_str(&event.key()),
            Mode::Other(key) => f.write_str(key),
        }
    }
}

impl From<Mode> for String {
    fn from(mode: Mode) -> String {
        mode.to_string()
    }
}

impl From<String> for Mode {
    fn from(key: String) -> Mode {
        let difficulty = Difficulty::CHOOSABLE
            .into_iter()
            .find(|d| d.label().eq_ignore_ascii_case(&key));
        let day = key.strip_prefix("daily-").and_then(|day| day.parse().ok());
        match (difficulty, day) {
            (Some(difficulty), _) => Mode::Shuffled(difficulty),
            (None, Some(day)) => Mode::Daily(day),
            _ if key == "custom" => Mode::Custom,
            _ => match Event::from_key(&key) {
                Some(event) => Mode::Event(event),
                None => Mode::Other(key),
            },
        }
    }
}

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// The board was completed.
    #[serde(rename = "solved")]
    Solved,
    /// The player gave up (did not finish).
    #[serde(rename = "dnf")]
    Dnf,
}

/// What a solve's statistics are kept apart by: the board's shape and the mode, and whether
/// the app helped.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Category {
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// The mode's category key ([`Mode::category_key`]).
    pub mode: String,
    /// Whether the app helped.
    pub helped: bool,
}

impl fmt::Display for Category {
    /// `4x4-easy`, as the best scores' keys, with `-helped` for a helped solve.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}x{}-{}", self.width, self.height, self.mode)?;
        if self.helped {
            f.write_str("-helped")?;
        }
        Ok(())
    }
}

/// One finished game, as the history keeps it (one journal record of compact JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Solve {
    /// When it ended, in milliseconds since 1970 (UTC).
    #[serde(rename = "at")]
    pub finished_at_ms: i64,
    /// Board width.
    #[serde(rename = "w")]
    pub width: u8,
    /// Board height.
    #[serde(rename = "h")]
    pub height: u8,
    /// How its board came to be.
    #[serde(rename = "mo")]
    pub mode: Mode,
    /// The start board, row-major, 0 for the gap.
    #[serde(rename = "st")]
    pub start: Vec<u8>,
    /// The moves, as the gap's letters (U/D/L/R), as a saved game's history writes them.
    #[serde(rename = "mv")]
    pub moves: String,
    /// Each move's time since the first move, in milliseconds (written as the differences
    /// between them, which are shorter).
    #[serde(rename = "tm", with = "differences")]
    pub times_ms: Vec<u32>,
    /// The whole time, in milliseconds.
    #[serde(rename = "t")]
    pub time_ms: u64,
    /// How it ended.
    #[serde(rename = "r")]
    pub result: Ending,
    /// Whether the app helped (a hint or a solution was shown).
    #[serde(rename = "hp")]
    pub helped: bool,
    /// The photo: a bundled photo's name, or [`YOUR_PHOTO`] (never the photo itself).
    #[serde(rename = "ph")]
    pub photo: String,
    /// The start board's shortest solution, when it is known.
    #[serde(rename = "sh", default, skip_serializing_if = "Option::is_none")]
    pub shortest: Option<u32>,
    /// The move counts, when `moves` does not hold them all: for a run of several boards
    /// ([`Solve::is_run`]), the run's counts (`start`, `moves`, `times_ms` and `shortest` are
    /// then its last board's); for a solve imported from a file that gives the counts only
    /// ([`crate::solves_csv`]), its counts (`moves` is then empty). `None` when `moves` holds
    /// them, as for every other solve the app records.
    #[serde(rename = "n", default, skip_serializing_if = "Option::is_none")]
    pub counted: Option<MoveCounts>,
    /// For a run of several boards, its boards before the last, in order, so the whole run
    /// can be watched again; none for a single board (and for a run kept by a version that did
    /// not keep them, or imported from a file).
    #[serde(rename = "lg", default, skip_serializing_if = "Vec::is_empty")]
    pub legs: Vec<Leg>,
}

/// One board of a run done before its last (a marathon's, a relay's), as its solve keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leg {
    /// Board width.
    #[serde(rename = "w")]
    pub width: u8,
    /// Board height.
    #[serde(rename = "h")]
    pub height: u8,
    /// The start board, row-major, 0 for the gap.
    #[serde(rename = "st")]
    pub start: Vec<u8>,
    /// The moves, as the gap's letters (U/D/L/R).
    #[serde(rename = "mv")]
    pub moves: String,
    /// Each move's time on the run's clock, in milliseconds (written as differences).
    #[serde(rename = "tm", with = "differences")]
    pub times_ms: Vec<u32>,
}

impl Leg {
    /// A leg of a run as it was played: its start, its moves in effect and their times.
    pub fn of(game: &Game) -> Leg {
        Leg {
            width: game.start().width() as u8,
            height: game.start().height() as u8,
            start: game.start().tiles().to_vec(),
            moves: npuzzle::moves_to_string(&game.history_in_effect()),
            times_ms: times_of(game),
        }
    }
}

/// A move count, or unknown (the MTM of a solve imported without it). Shown as the number, or
/// `–` when unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Count(pub Option<usize>);

impl Count {
    /// The count, when it is known.
    pub fn known(self) -> Option<usize> {
        self.0
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.0 {
            Some(count) => write!(f, "{count}"),
            None => f.write_str("–"),
        }
    }
}

/// What tells solves apart ([`Solve::identity`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SolveIdentity<'a> {
    finished_at_ms: i64,
    shape: (u8, u8),
    start: &'a [u8],
    moves: &'a str,
    counted: Option<MoveCounts>,
}

/// A solve's move counts, kept when its moves are not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MoveCounts {
    /// Moves in the single-tile metric (STM).
    #[serde(rename = "s")]
    pub stm: u32,
    /// Moves in the multi-tile metric (MTM), when known.
    #[serde(rename = "m", default, skip_serializing_if = "Option::is_none")]
    pub mtm: Option<u32>,
}

/// The times as the differences between them (the first from zero), and back.
mod differences {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(times: &[u32], serializer: S) -> Result<S::Ok, S::Error> {
        let mut last = 0;
        let steps: Vec<u32> = times
            .iter()
            .map(|&t| {
                let step = t.saturating_sub(last);
                last = t.max(last);
                step
            })
            .collect();
        steps.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u32>, D::Error> {
        let steps = Vec::<u32>::deserialize(deserializer)?;
        let mut time = 0u32;
        Ok(steps
            .into_iter()
            .map(|step| {
                time = time.saturating_add(step);
                time
            })
            .collect())
    }
}

/// The name a solve keeps for its photo: a bundled photo's file name, or [`YOUR_PHOTO`].
pub fn photo_name(source: &PhotoSource) -> String {
    match source {
        PhotoSource::Bundled(name) => name.clone(),
        PhotoSource::File(_) | PhotoSource::Picked(_) => YOUR_PHOTO.into(),
    }
}

/// Now, in milliseconds since 1970 (UTC), by the system clock.
pub fn now_ms() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(since) => since.as_millis() as i64,
        Err(before) => -(before.duration().as_millis() as i64),
    }
}

/// Whole milliseconds, at most `u32::MAX` (49 days).
fn millis_u32(time: Duration) -> u32 {
    time.as_millis().min(u32::MAX as u128) as u32
}

/// When each move in effect of a game was made, in milliseconds, never going back.
fn times_of(game: &Game) -> Vec<u32> {
    let mut latest = 0;
    (game.move_times().into_iter())
        .map(|time| {
            latest = millis_u32(time).max(latest);
            latest
        })
        .collect()
}

impl Solve {
    /// A finished game as a solve (for a review, the game it replays): solved if it is won,
    /// else a DNF; its moves are the ones in effect (an undone move is not one of them), each
    /// with the time of its action.
    pub fn from_game(game: &Game, finished_at_ms: i64, photo: &PhotoSource) -> Solve {
        let game = game.kept();
        Solve {
            finished_at_ms,
            width: game.start().width() as u8,
            height: game.start().height() as u8,
            mode: Mode::of(game.kind()),
            start: game.start().tiles().to_vec(),
            moves: npuzzle::moves_to_string(&game.history_in_effect()),
            times_ms: times_of(game),
            time_ms: game.elapsed().as_millis().min(u64::MAX as u128) as u64,
            result: match game.is_won() && !game.is_dnf() {
                true => Ending::Solved,
                false => Ending::Dnf,
            },
            helped: game.helped(),
            photo: photo_name(photo),
            shortest: game.shortest().map(|s| s as u32),
            // A run's moves are its boards', of which this record keeps the last.
            counted: game.run().filter(|run| run.legs() > 1).map(|_| MoveCounts {
                stm: game.total_moves() as u32,
                mtm: Some(game.total_mtm() as u32),
            }),
            legs: game.legs_done().to_vec(),
        }
    }

    /// Moves, each tile's slide counting one (the single-tile metric).
    pub fn stm(&self) -> usize {
        match self.counted {
            Some(counted) => counted.stm as usize,
            None => self.moves.len(),
        }
    }

    /// Moves, a run of slides in one direction counting one (the multi-tile metric); unknown
    /// for a solve imported with its STM count only.
    pub fn mtm(&self) -> Count {
        if let Some(counted) = self.counted {
            return Count(counted.mtm.map(|mtm| mtm as usize));
        }
        let bytes = self.moves.as_bytes();
        Count(Some(
            (0..bytes.len())
                .filter(|&i| i == 0 || bytes[i] != bytes[i - 1])
                .count(),
        ))
    }

    /// Whether all its moves are kept (for a run, its boards before the last too), so that
    /// it can be watched again: not for a solve imported as counts only, nor for a run kept
    /// without its boards before the last.
    pub fn moves_kept(&self) -> bool {
        let kept = self.moves_on_record();
        kept > 0
            && self
                .counted
                .is_none_or(|counted| kept == counted.stm as usize)
    }

    /// The moves its record holds: its boards' before the last, and the last's.
    pub fn moves_on_record(&self) -> usize {
        self.legs.iter().map(|leg| leg.moves.len()).sum::<usize>() + self.moves.len()
    }

    /// Its last board (its only one, unless it is a run) as a [`Leg`].
    pub fn last_leg(&self) -> Leg {
        Leg {
            width: self.width,
            height: self.height,
            start: self.start.clone(),
            moves: self.moves.clone(),
            times_ms: self.times_ms.clone(),
        }
    }

    /// Whether it is a run of several boards on one clock (a marathon, a relay): its counts
    /// ([`Solve::counted`]) are the run's, its board, moves and times its last board's.
    pub fn is_run(&self) -> bool {
        self.mode.boards() > 1
    }

    /// What makes it this solve and no other: when it ended, its board, and its moves (or,
    /// when they are not kept, their counts). An import skips a solve the history has.
    pub fn identity(&self) -> SolveIdentity<'_> {
        SolveIdentity {
            finished_at_ms: self.finished_at_ms,
            shape: (self.width, self.height),
            start: &self.start,
            moves: &self.moves,
            counted: self.counted,
        }
    }

    /// Moves a second ([`Solve::stm`] over the time); `None` when no time passed.
    pub fn tps(&self) -> Option<f64> {
        (self.time_ms > 0).then(|| self.stm() as f64 * 1000.0 / self.time_ms as f64)
    }

    /// What its statistics are kept apart by.
    pub fn category(&self) -> Category {
        Category {
            width: self.width,
            height: self.height,
            mode: self.mode.category_key(),
            helped: self.helped,
        }
    }

    /// The solve as the speedsolver's statistics count it: its category and its result.
    /// Speedsolvers count random-state scrambles only ([`Difficulty::Random`], their
    /// "single"); a game at a difficulty, the puzzle of the day or a set-up board has no
    /// such category (`None`).
    pub fn attempt(&self) -> Option<(stats::Category, stats::Attempt)> {
        let category = match self.mode {
            Mode::Shuffled(Difficulty::Random) => {
                stats::Category::new(self.width.into(), self.height.into(), stats::Mode::Single)
            }
            Mode::Event(event) => event.category(),
            _ => return None,
        };
        let category = if self.helped {
            category.helped()
        } else {
            category
        };
        let (stm, mtm) = (self.stm() as u32, self.mtm().known());
        let attempt = match self.result {
            Ending::Solved => stats::Attempt::solved(self.time_ms, stm, 0),
            Ending::Dnf => stats::Attempt::dnf(stm, 0),
        };
        let attempt = stats::Attempt {
            moves_mtm: mtm.map(|mtm| mtm as u32),
            ..attempt
        };
        Some((category, attempt))
    }

    /// The solve as one line of compact JSON.
    pub fn encode(&self) -> String {
        serde_json::to_string(self).expect("a solve is always JSON")
    }

    /// A solve read back from its JSON, if it is one.
    pub fn decode(payload: &str) -> Option<Solve> {
        serde_json::from_str(payload).ok()
    }
}

/// What a history's records hold: the solves, and the records that are not solves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Solves {
    /// The solves, oldest first.
    pub solves: Vec<Solve>,
    /// Whole records that are not solves this version reads (from a newer version, perhaps):
    /// left in the file, as they are.
    pub unreadable: usize,
}

/// One change of the solve history, one record of its journal: a solve kept (a solve's own
/// record, as every version wrote it), a solve the player removed (`{"rm":{…}}`), or a removed
/// solve brought back by Undo (`{"back":{…}}`).
#[derive(Clone, Debug, PartialEq)]
pub enum HistoryRecord {
    /// A solve kept, after the others.
    Kept(Solve),
    /// A solve removed by the player.
    Removed(Solve),
    /// A removed solve brought back, in its place.
    Restored(Solve),
}

/// A removal's record.
#[derive(Serialize, Deserialize)]
struct Removal {
    rm: Solve,
}

/// A restoral's record.
#[derive(Serialize, Deserialize)]
struct Restoral {
    back: Solve,
}

impl HistoryRecord {
    /// The record as one line of compact JSON.
    pub fn encode(&self) -> String {
        let json = match self {
            HistoryRecord::Kept(solve) => serde_json::to_string(solve),
            HistoryRecord::Removed(solve) => serde_json::to_string(&Removal { rm: solve.clone() }),
            HistoryRecord::Restored(solve) => serde_json::to_string(&Restoral {
                back: solve.clone(),
            }),
        };
        json.expect("a solve is always JSON")
    }

    /// A record read back from its JSON, if it is one this version reads.
    pub fn decode(payload: &str) -> Option<HistoryRecord> {
        if let Some(solve) = Solve::decode(payload) {
            return Some(HistoryRecord::Kept(solve));
        }
        if let Ok(removal) = serde_json::from_str::<Removal>(payload) {
            return Some(HistoryRecord::Removed(removal.rm));
        }
        let restoral = serde_json::from_str::<Restoral>(payload).ok()?;
        Some(HistoryRecord::Restored(restoral.back))
    }

    /// The change made to a history (oldest first): a removal takes out the newest solve
    /// that is the same one; a restoral puts it back where its finish time places it.
    pub fn apply(self, solves: &mut Vec<Solve>) {
        match self {
            HistoryRecord::Kept(solve) => solves.push(solve),
            HistoryRecord::Removed(solve) => {
                let same = solves
                    .iter()
                    .rposition(|s| s.identity() == solve.identity());
                if let Some(at) = same {
                    solves.remove(at);
                }
            }
            HistoryRecord::Restored(solve) => {
                let at = solves.partition_point(|s| s.finished_at_ms <= solve.finished_at_ms);
                solves.insert(at, solve);
            }
        }
    }
}

/// The solves in a journal's records, each removal and restoral applied in order (damaged
/// lines are the journal's to report).
pub fn solves_in(loaded: &Loaded) -> Solves {
    let mut solves = Solves::default();
    for record in &loaded.records {
        match HistoryRecord::decode(record) {
            Some(record) => record.apply(&mut solves.solves),
            None => solves.unreadable += 1,
        }
    }
    solves
}
