//! The game in progress saved as a journal (crates/journal): the start once, then one short
//! entry for each change (an action played, an undo, a redo, a restart, the help mark, the
//! clock, the photo), and now and then a snapshot of the whole game that replaces the lot.
//! A move costs one line of about 40 bytes whatever the game's length; the whole game is
//! written only at a compaction (see [`should_compact`]).
//!
//! Nothing here works out what changed: the app's executor tells each change as it makes it
//! ([`crate::Act`], a restart, the help mark), [`Entry`] says it as a record, and [`SaveLog`]
//! only counts what was written and says when the file is to be replaced by a snapshot
//! instead. [`replay`] brings the game back from the entries.

use std::time::Duration;

use journal::Loaded;
use npuzzle::{moves_from_str, moves_to_string};
use serde::{Deserialize, Serialize};

use super::{Act, FramedPhoto, Game, PhotoFraming, PhotoSource, RestoreError, SavedGame};

/// A save journal's file name.
pub const SAVE_LOG_FILE: &str = "game.journal";

/// Entries appended after a snapshot before a compaction is considered.
pub const COMPACT_ENTRIES: usize = 500;

/// The whole game as a snapshot holds it: the saved game (the game file's own form), its
/// photo and its framing, and each action's time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The game.
    #[serde(rename = "g")]
    pub game: SavedGame,
    /// Its photo.
    #[serde(rename = "p")]
    pub photo: PhotoSource,
    /// The player's framing of the photo, if any.
    #[serde(rename = "f", default)]
    pub framing: Option<PhotoFraming>,
    /// When each action of the history was made, in milliseconds since the first move.
    #[serde(rename = "tm", default)]
    pub times_ms: Vec<u64>,
}

/// One entry of a save journal, written as compact JSON with short keys
/// (`{"t":"a","m":"RRD","c":81234}` for an action).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t")]
pub enum Entry {
    /// A new game.
    #[serde(rename = "n")]
    Start(Snapshot),
    /// The whole game, written by a compaction: the entries before it no longer count.
    #[serde(rename = "s")]
    Snapshot(Snapshot),
    /// One player action: its moves as the gap's letters (U/D/L/R), and the clock.
    #[serde(rename = "a")]
    Act {
        /// The moves.
        #[serde(rename = "m")]
        moves: String,
        /// The clock, in milliseconds.
        #[serde(rename = "c")]
        clock_ms: u64,
        /// When the action was made, if that was before the clock (the clock ran on before
        /// the entry was written); none when it is the clock.
        #[serde(rename = "at", default, skip_serializing_if = "Option::is_none")]
        made_ms: Option<u64>,
    },
    /// The last action undone.
    #[serde(rename = "u")]
    Undo {
        /// The clock, in milliseconds.
        #[serde(rename = "c")]
        clock_ms: u64,
    },
    /// The last undone action redone.
    #[serde(rename = "r")]
    Redo {
        /// The clock, in milliseconds.
        #[serde(rename = "c")]
        clock_ms: u64,
        /// When it was redone, if that was before the clock.
        #[serde(rename = "at", default, skip_serializing_if = "Option::is_none")]
        made_ms: Option<u64>,
    },
    /// Back to the start board, with fresh counters.
    #[serde(rename = "x")]
    Restart {
        /// The clock, in milliseconds.
        #[serde(rename = "c")]
        clock_ms: u64,
    },
    /// The app helped (a hint or a solution was shown).
    #[serde(rename = "h")]
    Help {
        /// The clock, in milliseconds.
        #[serde(rename = "c")]
        clock_ms: u64,
    },
    /// The clock alone (written when the app closes).
    #[serde(rename = "c")]
    Clock {
        /// The clock, in milliseconds.
        #[serde(rename = "c")]
        clock_ms: u64,
    },
    /// Another photo, or another framing of it.
    #[serde(rename = "p")]
    Photo {
        /// The photo.
        #[serde(rename = "p")]
        photo: PhotoSource,
        /// The player's framing of it.
        #[serde(rename = "f", default)]
        framing: Option<PhotoFraming>,
    },
}

impl Entry {
    /// The entry as one line of compact JSON (no line break).
    pub fn encode(&self) -> String {
        serde_json::to_string(self).expect("an entry is always JSON")
    }

    /// An entry read back from its JSON, if it is one.
    pub fn decode(payload: &str) -> Option<Entry> {
        serde_json::from_str(payload).ok()
    }

    /// Whether the entry holds the whole game (a start or a snapshot).
    pub fn is_snapshot(&self) -> bool {
        matches!(self, Entry::Start(_) | Entry::Snapshot(_))
    }

    /// The clock the entry leaves the game at, if it sets one.
    fn clock_ms(&self) -> Option<u64> {
        match self {
            Entry::Act { clock_ms, .. }
            | Entry::Undo { clock_ms }
            | Entry::Redo { clock_ms, .. }
            | Entry::Restart { clock_ms }
            | Entry::Help { clock_ms }
            | Entry::Clock { clock_ms } => Some(*clock_ms),
            Entry::Start(_) | Entry::Snapshot(_) | Entry::Photo { .. } => None,
        }
    }

    /// The record of a slide the executor made, at the game's clock then.
    pub fn of_act(act: &Act, clock: Duration) -> Entry {
        let clock_ms = millis(clock);
        match act {
            Act::Played(moves) => Entry::Act {
                moves: moves_to_string(moves),
                clock_ms,
                made_ms: None,
            },
            Act::Undone => Entry::Undo { clock_ms },
            Act::Redone => Entry::Redo {
                clock_ms,
                made_ms: None,
            },
        }
    }
}

/// Whether a save journal should be compacted now: after [`COMPACT_ENTRIES`] entries since
/// its snapshot, once those entries take as many bytes as the snapshot. A long game's
/// snapshot grows with its length; waiting until the entries are as large keeps the bytes
/// written per move the same at any length (a fixed count would not), and the file at most
/// twice its snapshot.
pub fn should_compact(
    entries_since_snapshot: usize,
    bytes_since: u64,
    snapshot_bytes: u64,
) -> bool {
    entries_since_snapshot >= COMPACT_ENTRIES && bytes_since >= snapshot_bytes
}

/// The snapshot of a game and its photo.
pub fn snapshot_of(game: &Game, photo: &FramedPhoto) -> Snapshot {
    Snapshot {
        game: game.to_saved(),
        photo: photo.source.clone(),
        framing: photo.framing,
        times_ms: game.times.iter().map(|t| millis(*t)).collect(),
    }
}

/// A duration in whole milliseconds.
fn millis(time: Duration) -> u64 {
    time.as_millis().min(u64::MAX as u128) as u64
}

/// The game and photo a snapshot holds (each action's time kept when there is one each).
pub fn restore(snapshot: &Snapshot) -> Result<(Game, FramedPhoto), RestoreError> {
    let mut game = Game::from_saved(&snapshot.game)?;
    if snapshot.times_ms.len() == game.history.len() {
        game.times = snapshot
            .times_ms
            .iter()
            .map(|&t| Duration::from_millis(t))
            .collect();
    }
    let photo = FramedPhoto {
        source: snapshot.photo.clone(),
        framing: snapshot.framing,
    };
    Ok((game, photo))
}

/// A game brought back from a save journal.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// The game, its clock waiting for the player's next move.
    pub game: Game,
    /// Its photo.
    pub photo: FramedPhoto,
    /// Where its snapshot (or start) is among the entries.
    pub snapshot: usize,
    /// How many entries after the snapshot were applied.
    pub applied: usize,
    /// The first entry that could not be applied (a line lost, an entry that does not fit the
    /// game), where the replay ended; `None` if all were.
    pub stopped: Option<usize>,
}

/// Brings a game back from a save journal's entries, `None` for a line that could not be
/// read: from the last snapshot (or start) that restores, then each entry after it in order.
/// An entry that does not apply, or a lost line, ends the replay there: the game is kept as
/// it stood before it.
///
/// # Errors
///
/// [`RestoreError::NoStart`] if no snapshot restores (the error of the last one that fails,
/// if one does).
pub fn replay(entries: &[Option<Entry>]) -> Result<Replayed, RestoreError> {
    let mut failure = RestoreError::NoStart;
    for (at, entry) in entries.iter().enumerate().rev() {
        let Some(Entry::Start(snapshot) | Entry::Snapshot(snapshot)) = entry else {
            continue;
        };
        match restore(snapshot) {
            Ok((game, photo)) => return Ok(replay_from(game, photo, at, &entries[at + 1..])),
            Err(error) if matches!(failure, RestoreError::NoStart) => failure = error,
            Err(_) => {}
        }
    }
    Err(failure)
}

/// The game after the entries that follow its snapshot, up to the first that does not apply.
fn replay_from(game: Game, photo: FramedPhoto, at: usize, rest: &[Option<Entry>]) -> Replayed {
    let mut replayed = Replayed {
        game,
        photo,
        snapshot: at,
        applied: 0,
        stopped: None,
    };
    for (i, entry) in rest.iter().enumerate() {
        let applies = entry
            .as_ref()
            .is_some_and(|entry| apply(&mut replayed.game, &mut replayed.photo, entry));
        if !applies {
            replayed.stopped = Some(at + 1 + i);
            break;
        }
        replayed.applied += 1;
    }
    replayed.game.running = false;
    replayed
}

/// Applies one entry to a game; false, and the game unchanged, if it does not apply.
fn apply(game: &mut Game, photo: &mut FramedPhoto, entry: &Entry) -> bool {
    let at = |ms: u64| Duration::from_millis(ms);
    match entry {
        Entry::Start(_) | Entry::Snapshot(_) => return false,
        Entry::Act {
            moves,
            clock_ms,
            made_ms,
        } => {
            let Ok(moves) = moves_from_str(moves) else {
                return false;
            };
            let before = game.elapsed;
            game.elapsed = at(made_ms.unwrap_or(*clock_ms));
            if game.apply(&moves).moves().is_empty() {
                game.elapsed = before;
                return false;
            }
            game.elapsed = at(*clock_ms);
        }
        Entry::Undo { clock_ms }
        | Entry::Redo {
            clock_ms,
            made_ms: _,
        } => {
            let before = game.elapsed;
            let outcome = match entry {
                Entry::Redo {
                    made_ms: Some(made),
                    ..
                } => {
                    game.elapsed = at(*made);
                    game.redo()
                }
                Entry::Redo { .. } => {
                    game.elapsed = at(*clock_ms);
                    game.redo()
                }
                _ => game.undo(),
            };
            if outcome.moves().is_empty() {
                game.elapsed = before;
                return false;
            }
            game.elapsed = at(*clock_ms);
        }
        Entry::Restart { clock_ms } => {
            game.restart();
            game.elapsed = at(*clock_ms);
        }
        Entry::Help { clock_ms } => {
            game.mark_helped();
            game.elapsed = at(*clock_ms);
        }
        Entry::Clock { clock_ms } => game.elapsed = at(*clock_ms),
        Entry::Photo {
            photo: source,
            framing,
        } => {
            *photo = FramedPhoto {
                source: source.clone(),
                framing: *framing,
            };
        }
    }
    true
}

/// What to write to the save journal: lines to append, or the lines of a new file to replace
/// it with (a compaction: [`journal::Journal::compact`]). Each is an entry's JSON, the
/// payload of one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// Append these records.
    Append(Vec<String>),
    /// Replace the file with these records.
    Replace(Vec<String>),
}

impl Write {
    /// The records' payloads.
    pub fn payloads(&self) -> &[String] {
        match self {
            Write::Append(lines) | Write::Replace(lines) => lines,
        }
    }

    /// The bytes the records take in the file (each with its checksum, space and newline).
    pub fn bytes(&self) -> u64 {
        self.payloads().iter().map(|p| p.len() as u64 + 10).sum()
    }
}

/// A game loaded from its save journal: the game, the log to go on writing it with, and a
/// rewrite to make first when something was lost (a damaged line, an entry that did not
/// apply), so that what follows is not appended after it.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The game as replayed.
    pub replayed: Replayed,
    /// The log, to go on writing the journal with.
    pub log: SaveLog,
    /// A compaction to write before anything else, when the file holds more than the game.
    pub rewrite: Option<Write>,
}

/// Brings a game back from a save journal as [`journal::Journal::open`] read it: damaged
/// lines count as lost entries where they stood (see [`replay`]).
///
/// # Errors
///
/// As [`replay`].
pub fn load(loaded: &Loaded) -> Result<Opened, RestoreError> {
    // Each entry, and the record it was read from (none for a damaged line).
    let mut entries = Vec::with_capacity(loaded.records.len() + loaded.damaged.len());
    let mut records = Vec::with_capacity(entries.capacity());
    let mut damaged = loaded.damaged.iter().peekable();
    for (i, record) in loaded.records.iter().enumerate() {
        while damaged.next_if(|d| d.after == i).is_some() {
            entries.push(None);
            records.push(None);
        }
        entries.push(Entry::decode(record));
        records.push(Some(record));
    }
    let replayed = replay(&entries)?;
    let bytes = |at: usize| records[at].map_or(0, |r| r.len() as u64 + 10);
    let mut log = SaveLog {
        photo: Some(replayed.photo.clone()),
        clock_ms: millis(replayed.game.elapsed),
        ..SaveLog::default()
    };
    log.snapshot_bytes = bytes(replayed.snapshot);
    log.since_snapshot = replayed.applied;
    let applied = replayed.snapshot + 1..replayed.snapshot + 1 + replayed.applied;
    log.bytes_since = applied.map(bytes).sum();
    let lost = replayed.stopped.is_some() || !loaded.damaged.is_empty();
    let rewrite = lost.then(|| log.compact(&replayed.game, &replayed.photo));
    Ok(Opened {
        replayed,
        log,
        rewrite,
    })
}

/// What the app's executor told the save about the game, in the order it happened.
#[derive(Clone, Copy, Debug)]
pub enum Told<'a> {
    /// Another game came on the board: a new one (its start is written), or a viewer (a
    /// review, a replay) holding the game the journal has already (nothing is written).
    Began(&'a Game),
    /// The game the journal holds came back on the board (read at start, or after a review):
    /// nothing to write.
    Resumed,
    /// Tiles slid: an action played, undone or redone, at this clock.
    Slid(&'a Act, Duration),
    /// Back to the start board, at this clock.
    Restarted(Duration),
    /// The app helped (a hint, a solution), at this clock.
    Helped(Duration),
    /// The game ended (won, or a blind solve said done): the finished game.
    Ended(&'a Game),
}

/// The save journal's bookkeeping: how much was written since its snapshot, the photo and
/// clock it holds, and whether a write failed. Pure (no files, no game): it turns what it is
/// told into what to write, and says when the journal is to be replaced by a snapshot.
#[derive(Clone, Debug, Default)]
pub struct SaveLog {
    /// Entries appended since the snapshot.
    since_snapshot: usize,
    /// Their bytes.
    bytes_since: u64,
    /// The snapshot's bytes.
    snapshot_bytes: u64,
    /// The photo the journal holds; none before its first start.
    photo: Option<FramedPhoto>,
    /// The clock the journal holds, in milliseconds.
    clock_ms: u64,
    /// A write did not land: the journal may not hold what was written since, so the next
    /// write replaces it.
    unsure: bool,
    /// A viewer is on the board: its slides are not the game's.
    viewing: bool,
}

impl SaveLog {
    /// The journal begun anew with a game's start (a new game, a leg of a run).
    pub fn start(&mut self, game: &Game, photo: &FramedPhoto) -> Write {
        self.replace_with(game, photo, true)
    }

    /// A compaction: the journal replaced by a snapshot of the game (when the game ends, when
    /// the app closes, after a failed write, and when [`SaveLog::due`] says so).
    pub fn compact(&mut self, game: &Game, photo: &FramedPhoto) -> Write {
        self.replace_with(game, photo, false)
    }

    /// What to write for a frame's changes, told in order, with the game and photo as they
    /// stand after them: the entries appended, a new game's start in place of the file, a
    /// snapshot when the game ends, or one snapshot of the game now in place of it all when
    /// [`SaveLog::due`]. Nothing when nothing changed.
    pub fn writes_for(&mut self, told: &[Told], game: &Game, photo: &FramedPhoto) -> Vec<Write> {
        // A journal that holds no game yet starts with a snapshot, whatever it was told.
        let held = self.photo.is_some();
        let mut writes = Vec::new();
        let mut entries = Vec::new();
        for told in told {
            let entry = match *told {
                Told::Began(began) => {
                    self.viewing = began.is_viewer();
                    if !self.viewing {
                        entries.clear();
                        writes = vec![self.start(began, photo)];
                    }
                    continue;
                }
                Told::Resumed => {
                    self.viewing = false;
                    continue;
                }
                _ if self.viewing => continue,
                Told::Ended(finished) => {
                    entries.clear();
                    writes = vec![self.compact(finished, photo)];
                    continue;
                }
                Told::Slid(act, clock) => Entry::of_act(act, clock),
                Told::Restarted(clock) => Entry::Restart {
                    clock_ms: millis(clock),
                },
                Told::Helped(clock) => Entry::Help {
                    clock_ms: millis(clock),
                },
            };
            entries.push(entry);
        }
        entries.extend(self.photo(photo));
        writes.extend(self.append(&entries));
        let started = matches!(writes.first(), Some(Write::Replace(_)));
        if self.due() || (!held && !started) {
            writes = vec![self.compact(game.kept(), photo)];
        }
        writes
    }

    /// What to write when the app closes or goes to the background: the game as it stands now
    /// (with its clock) as one snapshot, unless the journal holds it already.
    pub fn closing(&mut self, game: &Game, photo: &FramedPhoto) -> Option<Write> {
        let game = game.kept();
        let unchanged = self.since_snapshot == 0
            && self.clock(game.elapsed).is_none()
            && self.photo(photo).is_none()
            && !self.due();
        (!unchanged).then(|| self.compact(game, photo))
    }

    /// The journal replaced by one entry holding the whole game: a start or a snapshot.
    fn replace_with(&mut self, game: &Game, photo: &FramedPhoto, start: bool) -> Write {
        let snapshot = snapshot_of(game, photo);
        let entry = match start {
            true => Entry::Start(snapshot),
            false => Entry::Snapshot(snapshot),
        };
        let write = Write::Replace(vec![entry.encode()]);
        *self = SaveLog {
            snapshot_bytes: write.bytes(),
            photo: Some(photo.clone()),
            clock_ms: millis(game.elapsed),
            viewing: self.viewing,
            ..SaveLog::default()
        };
        write
    }

    /// The entry for another photo (or framing), if the journal does not hold it already.
    pub fn photo(&self, photo: &FramedPhoto) -> Option<Entry> {
        (self.photo.as_ref() != Some(photo)).then(|| Entry::Photo {
            photo: photo.source.clone(),
            framing: photo.framing,
        })
    }

    /// The entry for the clock alone, if it moved on since the journal's last entry.
    pub fn clock(&self, clock: Duration) -> Option<Entry> {
        let clock_ms = millis(clock);
        (clock_ms != self.clock_ms).then_some(Entry::Clock { clock_ms })
    }

    /// Entries to append, in order; nothing for none.
    pub fn append(&mut self, entries: &[Entry]) -> Option<Write> {
        if entries.is_empty() {
            return None;
        }
        for entry in entries {
            match entry {
                Entry::Photo { photo, framing } => {
                    self.photo = Some(FramedPhoto {
                        source: photo.clone(),
                        framing: *framing,
                    });
                }
                entry => self.clock_ms = entry.clock_ms().unwrap_or(self.clock_ms),
            }
        }
        let write = Write::Append(entries.iter().map(Entry::encode).collect());
        self.since_snapshot += entries.len();
        self.bytes_since += write.bytes();
        Some(write)
    }

    /// Whether the journal is to be replaced by a snapshot of the game rather than appended
    /// to: it holds no game yet, a write did not land, or it is time to compact.
    pub fn due(&self) -> bool {
        self.photo.is_none()
            || self.unsure
            || should_compact(self.since_snapshot, self.bytes_since, self.snapshot_bytes)
    }

    /// Says that a write did not land (whole or in part): the journal may no longer hold what
    /// was written since, so [`SaveLog::due`] asks for a snapshot in place of the file.
    pub fn write_failed(&mut self) {
        self.unsure = true;
    }

    /// Entries appended since the snapshot.
    pub fn entries_since_snapshot(&self) -> usize {
        self.since_snapshot
    }
}
