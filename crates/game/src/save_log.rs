//! The game in progress saved as a journal (crates/journal): the start once, then one short
//! entry for each change (an action's moves, an undo, a redo, a restart, the help mark, the
//! clock, the photo), and now and then a snapshot of the whole game that replaces the lot.
//! A move costs one line of about 40 bytes whatever the game's length; the whole game is
//! written only at a compaction (see [`should_compact`]).
//!
//! [`SaveLog`] works out the entries from the game itself: it keeps a copy of the game as the
//! journal holds it, and each [`SaveLog::sync`] finds what changed since, checks that the
//! entries make the copy the same as the game, and falls back to a snapshot when they do not
//! (several changes at once). [`replay`] brings the game back from the entries.

use std::time::Duration;

use journal::{Journal, JournalError, Loaded};
use npuzzle::{moves_from_str, moves_to_string};
use serde::{Deserialize, Serialize};

use super::{FramedPhoto, Game, PhotoFraming, PhotoSource, RestoreError, SavedGame};

/// A save journal's file name.
pub const SAVE_LOG_FILE: &str = "game.journal";

/// Entries appended after a snapshot before a compaction is considered.
pub const COMPACT_ENTRIES: usize = 500;

/// The most actions [`SaveLog::sync`] writes as entries at once; more become a snapshot.
const MOST_ACTS: usize = 32;

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

    /// Writes this to the journal: appended (not synced: an app that is killed loses
    /// nothing, a power cut may lose the newest entries) or the file replaced (atomically,
    /// synced). On an error, tell the log ([`SaveLog::write_failed`]).
    ///
    /// # Errors
    ///
    /// The journal's error; the file then holds what it held before, or that and part of
    /// the appended lines, which the journal cuts off before its next append.
    pub fn write_to(&self, journal: &mut Journal) -> Result<(), JournalError> {
        match self {
            Write::Append(lines) => journal.append_all(lines, false),
            Write::Replace(lines) => journal.compact(lines),
        }
    }
}

/// A game loaded from its save journal: the game, the log to go on writing it with, and a
/// rewrite to make first when something was lost (a damaged line, an entry that did not
/// apply), so that what follows is not appended after it.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The game as replayed.
    pub replayed: Replayed,
    /// The log, to sync the game with from now on.
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
    let mut log = SaveLog::resumed(&replayed);
    log.snapshot_bytes = bytes(replayed.snapshot);
    log.since_snapshot = replayed.applied;
    let applied = replayed.snapshot + 1..replayed.snapshot + 1 + replayed.applied;
    log.bytes_since = applied.map(bytes).sum();
    let lost = replayed.stopped.is_some() || !loaded.damaged.is_empty();
    let rewrite = lost.then(|| log.compact());
    Ok(Opened {
        replayed,
        log,
        rewrite,
    })
}

/// The save journal's writer: the game as the journal holds it, and how much was written
/// since its snapshot. Pure (no files): its answers are what to write.
#[derive(Clone, Debug)]
pub struct SaveLog {
    /// The game as a replay of the journal gives it.
    mirror: Game,
    /// Its photo, likewise.
    photo: FramedPhoto,
    /// Entries appended since the snapshot.
    since_snapshot: usize,
    /// Their bytes.
    bytes_since: u64,
    /// The snapshot's bytes.
    snapshot_bytes: u64,
    /// A write did not land: the journal may not hold what the copy says, so the next write
    /// replaces it.
    unsure: bool,
}

impl SaveLog {
    /// A log for a new game (for a review, the finished game it holds): the journal is
    /// replaced by its start.
    pub fn new(game: &Game, photo: &FramedPhoto) -> (SaveLog, Write) {
        let mut log = SaveLog {
            mirror: game.kept().clone(),
            photo: photo.clone(),
            since_snapshot: 0,
            bytes_since: 0,
            snapshot_bytes: 0,
            unsure: false,
        };
        let write = log.renew(game.kept(), photo, true);
        (log, write)
    }

    /// A log that goes on from a replayed game (its counters at zero).
    fn resumed(replayed: &Replayed) -> SaveLog {
        SaveLog {
            mirror: replayed.game.clone(),
            photo: replayed.photo.clone(),
            since_snapshot: 0,
            bytes_since: 0,
            snapshot_bytes: 0,
            unsure: false,
        }
    }

    /// What to write so the journal holds `game` (for a review, the finished game it holds)
    /// and `photo`: nothing if it does already; the entries for what changed; the game's start
    /// for a new game; a snapshot in place of the file for several changes at once, or when
    /// it is time to compact ([`should_compact`]). The clock is written as it is now (in the
    /// last entry, or in a clock entry of its own).
    pub fn sync(&mut self, game: &Game, photo: &FramedPhoto) -> Option<Write> {
        let game = game.kept();
        let m = &self.mirror;
        if game.start != m.start || game.kind != m.kind || game.shortest != m.shortest {
            return Some(self.renew(game, photo, true));
        }
        if self.unsure {
            return Some(self.renew(game, photo, false));
        }
        let mut entries = Vec::new();
        if *photo != self.photo {
            entries.push(Entry::Photo {
                photo: photo.source.clone(),
                framing: photo.framing,
            });
        }
        entries.extend(self.changes(game));
        for entry in &entries {
            if !apply(&mut self.mirror, &mut self.photo, entry) {
                return Some(self.renew(game, photo, false));
            }
        }
        if !self.mirror.alike(game) {
            return Some(self.renew(game, photo, false));
        }
        let clock_ms = millis(game.elapsed);
        if clock_ms != millis(self.mirror.elapsed) {
            self.mirror.elapsed = Duration::from_millis(clock_ms);
            entries.push(Entry::Clock { clock_ms });
        }
        self.append(entries)
    }

    /// The entries for the game's changes since the copy, worked out from the counts alone
    /// (the caller checks that they make the copy the same as the game).
    fn changes(&self, game: &Game) -> Vec<Entry> {
        let m = &self.mirror;
        let clock_ms = millis(game.elapsed);
        let time_of = |k: usize| game.times.get(k).map_or(clock_ms, |t| millis(*t));
        let mut entries = Vec::new();
        if game.helped && !m.helped {
            entries.push(Entry::Help { clock_ms });
        }
        let same_length = game.history.len() == m.history.len();
        if game.history.is_empty() && !m.history.is_empty() {
            entries.push(Entry::Restart { clock_ms });
        } else if same_length && game.cursor < m.cursor {
            entries.extend((game.cursor..m.cursor).map(|_| Entry::Undo { clock_ms }));
        } else if same_length
            && game.cursor > m.cursor
            && game.history[m.cursor..game.cursor] == m.history[m.cursor..game.cursor]
        {
            entries.extend((m.cursor..game.cursor).map(|k| Entry::Redo {
                clock_ms: time_of(k),
                made_ms: None,
            }));
        } else if game.cursor == game.history.len()
            && game.cursor > m.cursor
            && game.cursor - m.cursor <= MOST_ACTS
        {
            entries.extend((m.cursor..game.cursor).map(|k| Entry::Act {
                moves: moves_to_string(&game.history[k]),
                clock_ms: time_of(k),
                made_ms: None,
            }));
        }
        // The last entry leaves the clock as it is now; an action's own time goes beside it.
        if let Some(
            Entry::Act {
                clock_ms: last,
                made_ms,
                ..
            }
            | Entry::Redo {
                clock_ms: last,
                made_ms,
            },
        ) = entries.last_mut()
            && *last != clock_ms
        {
            *made_ms = Some(*last);
            *last = clock_ms;
        }
        entries
    }

    /// Entries to append, or the snapshot in place of the file when it is time to compact.
    fn append(&mut self, entries: Vec<Entry>) -> Option<Write> {
        if entries.is_empty() {
            return None;
        }
        let write = Write::Append(entries.iter().map(Entry::encode).collect());
        self.since_snapshot += entries.len();
        self.bytes_since += write.bytes();
        if should_compact(self.since_snapshot, self.bytes_since, self.snapshot_bytes) {
            return Some(self.compact());
        }
        Some(write)
    }

    /// The journal replaced by the game's start (a new game) or a snapshot of it; the copy
    /// becomes what a replay of it gives.
    fn renew(&mut self, game: &Game, photo: &FramedPhoto, start: bool) -> Write {
        let snapshot = snapshot_of(game, photo);
        // What a replay gives (below), or if the snapshot cannot be replayed, the game.
        self.mirror = game.clone();
        self.photo = photo.clone();
        self.replace_with(snapshot, start)
    }

    /// The journal replaced by one entry holding the whole game, a new game's start or a
    /// snapshot; the copy becomes what a replay of it gives (if it can be replayed).
    fn replace_with(&mut self, snapshot: Snapshot, start: bool) -> Write {
        if let Ok((game, photo)) = restore(&snapshot) {
            self.mirror = game;
            self.photo = photo;
        }
        let entry = match start {
            true => Entry::Start(snapshot),
            false => Entry::Snapshot(snapshot),
        };
        let write = Write::Replace(vec![entry.encode()]);
        self.unsure = false;
        self.since_snapshot = 0;
        self.bytes_since = 0;
        self.snapshot_bytes = write.bytes();
        write
    }

    /// A compaction: the journal replaced by a snapshot of the game it holds (when the game
    /// ends, when the app closes, and by [`SaveLog::sync`] when it is time).
    pub fn compact(&mut self) -> Write {
        let snapshot = snapshot_of(&self.mirror, &self.photo);
        self.replace_with(snapshot, false)
    }

    /// Says that the last write did not land (whole or in part): the journal may no longer
    /// hold what the log's copy does, so the next [`SaveLog::sync`] replaces it with a
    /// snapshot of the game, whatever changed.
    pub fn write_failed(&mut self) {
        self.unsure = true;
    }

    /// Entries appended since the snapshot.
    pub fn entries_since_snapshot(&self) -> usize {
        self.since_snapshot
    }
}
