//! The progress every command shows while tables load or build and searches run.

use std::io::IsTerminal as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::{PdbEvent, Progress, ProgressEvent, SearchStatus};

/// The progress every command shows on standard error: an indicatif bar per table build on a
/// terminal, and one line per load, rebuild, finished table or save; off a terminal, a line at
/// every tenth of a build instead of the bar. On a terminal only, a search's bound or best
/// solution so far, and a generator's candidates, on one line that the next overwrites.
pub fn progress() -> Progress {
    let tables = TableReport {
        bar: Mutex::new(None),
        terminal: std::io::stderr().is_terminal(),
        tenths: AtomicU64::new(0),
    };
    Progress::new(move |event: &ProgressEvent| match event {
        ProgressEvent::Table(event) => tables.show(event),
        ProgressEvent::Search(status) if tables.terminal => search_line(status),
        ProgressEvent::Generate {
            candidates,
            seconds,
        } if tables.terminal => {
            eprint!("\r\x1b[Kfinding a board: {candidates} candidates solved in {seconds:.1} s")
        }
        _ => {}
    })
}

/// What the table events show: the bar of the build under way, on a terminal, and the tenth
/// of it last written off one.
struct TableReport {
    bar: Mutex<Option<ProgressBar>>,
    terminal: bool,
    tenths: AtomicU64,
}

impl TableReport {
    fn show(&self, event: &PdbEvent) {
        match event {
            PdbEvent::Loaded {
                path,
                bytes,
                seconds,
            } => eprintln!(
                "loaded {} ({:.1} MB) in {seconds:.2} s",
                path.display(),
                *bytes as f64 / 1e6
            ),
            PdbEvent::Rebuilding { path, reason } => {
                eprintln!("npuzzle: {}: {reason}; building the tables", path.display())
            }
            PdbEvent::BuildStarted {
                pattern,
                tiles,
                entries,
            } => self.started(*pattern, tiles, *entries),
            PdbEvent::BuildProgress {
                pattern,
                done,
                total,
            } => self.progressed(*pattern, *done, *total),
            PdbEvent::BuildFinished {
                pattern,
                seconds,
                bytes,
            } => self.finished(*pattern, *seconds, *bytes),
            PdbEvent::Saved { path, bytes } => {
                eprintln!("saved {} ({:.1} MB)", path.display(), *bytes as f64 / 1e6)
            }
            PdbEvent::SaveFailed { path, message } => eprintln!(
                "npuzzle: could not save {} ({message}); using the tables from memory",
                path.display()
            ),
        }
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, Option<ProgressBar>> {
        self.bar.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new bar for the table's build.
    fn started(&self, pattern: usize, tiles: &[u8], entries: u64) {
        let new = ProgressBar::new(entries);
        new.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:30}] {percent:>3}% {elapsed_precise} (eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        new.set_message(format!("table {} (tiles {tiles:?})", pattern + 1));
        *self.bar() = Some(new);
    }

    /// The bar moved on, or off a terminal a line at each new tenth.
    fn progressed(&self, pattern: usize, done: u64, total: u64) {
        if let Some(bar) = self.bar().as_ref() {
            bar.set_position(done);
        }
        let tenth = done * 10 / total.max(1);
        if !self.terminal && tenth > self.tenths.load(Ordering::Relaxed) && tenth < 10 {
            self.tenths.store(tenth, Ordering::Relaxed);
            eprintln!("table {}: {}0% of the entries", pattern + 1, tenth);
        }
    }

    /// The bar cleared and the table's line written.
    fn finished(&self, pattern: usize, seconds: f64, bytes: u64) {
        if let Some(bar) = self.bar().take() {
            bar.finish_and_clear();
        }
        self.tenths.store(0, Ordering::Relaxed);
        eprintln!(
            "table {} built in {seconds:.2} s ({:.1} MB)",
            pattern + 1,
            bytes as f64 / 1e6
        );
    }
}

/// One line, overwritten by the next, on where a search stands.
fn search_line(status: &SearchStatus) {
    match status.best {
        Some(best) => eprint!(
            "\r\x1b[Kimproving: {best} moves so far (at least {}); {:.1} s",
            status.lower_bound, status.seconds
        ),
        None => eprint!(
            "\r\x1b[Ksearching: at least {} moves; {} nodes in {:.1} s",
            status.lower_bound, status.nodes_expanded, status.seconds
        ),
    }
}

/// Clears the line a search's progress left on a terminal.
pub fn clear_line() {
    if std::io::stderr().is_terminal() {
        eprint!("\r\x1b[K");
    }
}
