//! The queue of results to post, a journal in the data folder (`board-queue.journal`, on
//! crates/journal): "post this result" (its date and code) is written, synced, before any
//! attempt, and "done" (where it stood) or "refused" (the server's sentence) after. A torn
//! last line or a damaged one costs only itself. One result a date: the first counts, on the
//! board as here.

use std::path::{Path, PathBuf};

use journal::{Journal, JournalError};
use serde::{Deserialize, Serialize};

use crate::wire::Posted;

/// The queue's file in the data folder.
pub const QUEUE_FILE: &str = "board-queue.journal";

/// One record of the queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t")]
pub enum Record {
    /// Post this result.
    #[serde(rename = "post")]
    Post {
        /// The day, `YYYY-MM-DD`.
        date: String,
        /// The solve's challenge code.
        code: String,
    },
    /// The server holds it: its answer (none when it said it already had it, 409).
    #[serde(rename = "done")]
    Done {
        /// The day.
        date: String,
        /// Where it stood when posted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        posted: Option<Posted>,
    },
    /// The name the player asked for, to make before posting (none: made, or refused).
    #[serde(rename = "name")]
    Name {
        /// The name.
        name: Option<String>,
    },
    /// The server refused it, with its sentence.
    #[serde(rename = "refused")]
    Refused {
        /// The day.
        date: String,
        /// The server's sentence.
        error: String,
    },
}

/// Where a queued result is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Not posted yet.
    Pending,
    /// On the board (the server's answer, when it gave one).
    Done(Option<Posted>),
    /// Refused, with the server's sentence.
    Refused(String),
}

/// A result in the queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// The solve's challenge code.
    pub code: String,
    /// Where it is.
    pub outcome: Outcome,
}

/// The queue, open for appending.
#[derive(Debug)]
pub struct Queue {
    journal: Journal,
    entries: Vec<Entry>,
    /// The name asked for and not yet made, kept so that a name given offline outlives the
    /// app.
    wanted_name: Option<String>,
    /// Lines that were not records (damaged, or not a record this version reads): skipped.
    skipped: usize,
}

impl Queue {
    /// Opens (or makes) the queue in `dir`, which must exist.
    ///
    /// # Errors
    ///
    /// The journal's, when it cannot be opened or read.
    pub fn open(dir: &Path) -> Result<Queue, JournalError> {
        let (journal, loaded) = Journal::open(&dir.join(QUEUE_FILE))?;
        let mut queue = Queue {
            journal,
            entries: Vec::new(),
            wanted_name: None,
            skipped: loaded.damaged.len() + usize::from(loaded.torn.is_some()),
        };
        for payload in &loaded.records {
            match serde_json::from_str::<Record>(payload) {
                Ok(record) => queue.apply(record),
                Err(_) => queue.skipped += 1,
            }
        }
        Ok(queue)
    }

    /// The file's path.
    pub fn path(&self) -> PathBuf {
        self.journal.path().to_path_buf()
    }

    /// Every result queued, oldest first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The result of `date`, if one was queued.
    pub fn entry(&self, date: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.date == date)
    }

    /// The results not posted yet, oldest first.
    pub fn pending(&self) -> impl Iterator<Item = &Entry> {
        (self.entries.iter()).filter(|entry| entry.outcome == Outcome::Pending)
    }

    /// The name asked for and not yet made (or refused).
    pub fn wanted_name(&self) -> Option<&str> {
        self.wanted_name.as_deref()
    }

    /// Keeps the name asked for (`None` once made or refused); nothing written when it is
    /// the one kept.
    ///
    /// # Errors
    ///
    /// The journal's.
    pub fn want_name(&mut self, name: Option<&str>) -> Result<(), JournalError> {
        if self.wanted_name.as_deref() == name {
            return Ok(());
        }
        let name = name.map(str::to_string);
        self.write(Record::Name { name })
    }

    /// Lines skipped on opening (a torn end, a damaged line).
    pub fn skipped(&self) -> usize {
        self.skipped
    }

    /// Queues a result of `date`, synced to disk before this returns; false (and nothing
    /// written) when that date already has one.
    ///
    /// # Errors
    ///
    /// The journal's.
    pub fn add(&mut self, date: &str, code: &str) -> Result<bool, JournalError> {
        if self.entry(date).is_some() {
            return Ok(false);
        }
        self.write(Record::Post {
            date: date.to_string(),
            code: code.to_string(),
        })?;
        Ok(true)
    }

    /// Marks the result of `date` done (posted, or already on the board).
    ///
    /// # Errors
    ///
    /// The journal's.
    pub fn mark_done(&mut self, date: &str, posted: Option<Posted>) -> Result<(), JournalError> {
        let date = date.to_string();
        self.write(Record::Done { date, posted })
    }

    /// Marks the result of `date` refused, with the server's sentence.
    ///
    /// # Errors
    ///
    /// The journal's.
    pub fn mark_refused(&mut self, date: &str, error: &str) -> Result<(), JournalError> {
        let (date, error) = (date.to_string(), error.to_string());
        self.write(Record::Refused { date, error })
    }

    /// Appends a record, synced, and takes it.
    fn write(&mut self, record: Record) -> Result<(), JournalError> {
        let payload = serde_json::to_string(&record).expect("a record is JSON");
        self.journal.append_synced(&payload)?;
        self.apply(record);
        Ok(())
    }

    /// Takes a record into the entries.
    fn apply(&mut self, record: Record) {
        let (date, outcome) = match record {
            Record::Post { date, code } => {
                if self.entry(&date).is_none() {
                    let outcome = Outcome::Pending;
                    self.entries.push(Entry {
                        date,
                        code,
                        outcome,
                    });
                }
                return;
            }
            Record::Name { name } => {
                self.wanted_name = name;
                return;
            }
            Record::Done { date, posted } => (date, Outcome::Done(posted)),
            Record::Refused { date, error } => (date, Outcome::Refused(error)),
        };
        if let Some(entry) = self.entries.iter_mut().find(|entry| entry.date == date) {
            entry.outcome = outcome;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("board-queue-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn posted(rank: u64) -> Posted {
        Posted {
            rank,
            of: 9,
            moves: 40,
            optimal: 36,
            time_ms: 20_000,
        }
    }

    #[test]
    fn a_queued_result_and_its_outcome_read_back() {
        let dir = scratch("back");
        let mut queue = Queue::open(&dir).unwrap();
        assert!(queue.add("2026-12-06", "A").unwrap());
        assert!(queue.add("2026-12-07", "B").unwrap());
        queue.mark_done("2026-12-06", Some(posted(3))).unwrap();
        drop(queue);
        let mut queue = Queue::open(&dir).unwrap();
        assert_eq!(
            queue.entry("2026-12-06").unwrap().outcome,
            Outcome::Done(Some(posted(3)))
        );
        let pending: Vec<&str> = queue.pending().map(|e| e.code.as_str()).collect();
        assert_eq!(pending, ["B"]);
        queue.mark_refused("2026-12-07", "No.").unwrap();
        queue.want_name(Some("Ann")).unwrap();
        let mut queue = Queue::open(&dir).unwrap();
        assert_eq!(queue.wanted_name(), Some("Ann"));
        queue.want_name(None).unwrap();
        let queue = Queue::open(&dir).unwrap();
        assert_eq!(queue.wanted_name(), None);
        let refused = Outcome::Refused("No.".into());
        assert_eq!(queue.entry("2026-12-07").unwrap().outcome, refused);
        assert_eq!(queue.pending().count(), 0);
    }

    #[test]
    fn a_second_result_of_a_date_is_not_queued_and_nothing_is_written() {
        let dir = scratch("second");
        let mut queue = Queue::open(&dir).unwrap();
        assert!(queue.add("2026-12-07", "A").unwrap());
        let before = std::fs::read(queue.path()).unwrap();
        assert!(!queue.add("2026-12-07", "B").unwrap());
        assert_eq!(std::fs::read(queue.path()).unwrap(), before);
        assert_eq!(queue.entry("2026-12-07").unwrap().code, "A");
    }

    #[test]
    fn a_torn_tail_or_a_bad_line_costs_only_itself() {
        let dir = scratch("torn");
        let mut queue = Queue::open(&dir).unwrap();
        queue.add("2026-12-05", "A").unwrap();
        queue.add("2026-12-06", "B").unwrap();
        queue.add("2026-12-07", "C").unwrap();
        let path = queue.path();
        drop(queue);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        // The middle line damaged, and the last one cut short as a crash would.
        lines[1] = lines[1].replace("2026", "2027");
        let last = lines.pop().unwrap();
        let torn = format!("{}\n{}", lines.join("\n"), &last[..last.len() / 2]);
        std::fs::write(&path, torn).unwrap();
        let mut queue = Queue::open(&dir).unwrap();
        let dates: Vec<&str> = queue.entries().iter().map(|e| e.date.as_str()).collect();
        assert_eq!(dates, ["2026-12-05"]);
        assert_eq!(queue.skipped(), 2);
        // The next record starts on a clean line.
        queue.add("2026-12-08", "D").unwrap();
        let queue = Queue::open(&dir).unwrap();
        assert_eq!(queue.entries().len(), 2);
        assert_eq!(queue.entry("2026-12-08").unwrap().code, "D");
    }
}
