//! The background poster: a thread of its own that takes the app's asks (make me a player,
//! post this result, fetch that day's ranking) and answers with reports, so that no frame
//! waits on the network. Every result is queued in the journal (synced) before it is tried;
//! every pending result is posted, and tried again with backoff (1, 2, 4 … 60 s, or the
//! server's Retry-After) while the server cannot be reached or is busy. 201 is done; 409
//! ("already on the board") is done too, so a kill -9 between the server's 201 and the
//! journal's "done" still posts exactly once; any other 4xx is refused, its sentence kept.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

use thiserror::Error;

use crate::http::{CallError, Server};
use crate::kept::{self, KeptRanking};
use crate::player::{self, Player};
use crate::queue::{Outcome, Queue};
use crate::wire::Ranking;

/// How long to wait before trying again: `first`, doubled each failure up to `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// The first wait.
    pub first: Duration,
    /// The longest wait.
    pub max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            first: Duration::from_secs(1),
            max: Duration::from_secs(60),
        }
    }
}

/// What the poster calls after each report, from its thread: an app that sleeps between
/// inputs wakes to read it.
#[derive(Clone)]
pub struct Wake(pub std::sync::Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for Wake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Wake")
    }
}

/// How a poster is set up.
#[derive(Clone, Debug)]
pub struct PosterConfig {
    /// The server's address.
    pub server: String,
    /// The data folder (the queue, the player, the ranking kept).
    pub dir: PathBuf,
    /// Waits between tries.
    pub backoff: Backoff,
    /// The most a call may take.
    pub timeout: Duration,
    /// Called after each report, if given.
    pub wake: Option<Wake>,
}

impl PosterConfig {
    /// The server at `server`, the files in `dir`, the default backoff, 15 s a call.
    pub fn new(server: &str, dir: PathBuf) -> PosterConfig {
        PosterConfig {
            server: server.to_string(),
            dir,
            backoff: Backoff::default(),
            timeout: Duration::from_secs(15),
            wake: None,
        }
    }
}

/// What the app asks of the poster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Make a player of this name (then post what waits).
    Register(String),
    /// Queue this result of a day and post it.
    Post {
        /// The day, `YYYY-MM-DD`.
        date: String,
        /// The solve's challenge code.
        code: String,
    },
    /// Fetch the day's ranking.
    Ranking(String),
    /// Try what waits now, not at the end of the wait.
    RetryNow,
}

/// Where a result stands on its day's board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Its rank, when known.
    pub rank: Option<u64>,
    /// The day's results, when known.
    pub of: Option<u64>,
    /// Its time, ms, when known.
    pub time_ms: Option<u64>,
    /// The day's fastest time, ms, when the ranking was fetched.
    pub fastest_ms: Option<u64>,
}

/// What the poster tells the app.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    /// The player as the server made them (kept in the data folder).
    Registered(String),
    /// A name asked for before (kept in the queue) waits to be made.
    Naming(String),
    /// The name was refused (taken, or outside the rules): the server's sentence.
    NameRefused(String),
    /// The server no longer knows the player's token (401: its database is another): the
    /// player is forgotten here too, and what waits is posted once a name is given again.
    PlayerForgotten,
    /// A result waits in the queue (the day), with where each stands when opened.
    Queue(Vec<(String, Outcome)>),
    /// A result is being posted (the day).
    Posting(String),
    /// The server cannot be reached or is busy: what waits is tried again in `retry_in`.
    Waiting {
        /// Why.
        why: String,
        /// When it is tried again.
        retry_in: Duration,
    },
    /// A result is on the board (the day), and where it stands.
    Posted(String, Standing),
    /// A result was refused (the day, the server's sentence).
    Refused(String, String),
    /// A day's ranking, fetched now.
    Ranking(KeptRanking),
    /// A day's ranking could not be fetched (the day, why).
    RankingFailed(String, String),
    /// A file in the data folder could not be written or read: what was not kept.
    Trouble(String),
}

/// Why the poster could not start.
#[derive(Debug, Error)]
pub enum PosterError {
    /// The server's address is not one.
    #[error(transparent)]
    Address(#[from] CallError),
    /// The queue could not be opened.
    #[error("the board's queue cannot be opened: {0}")]
    Queue(#[from] journal::JournalError),
    /// The thread could not be started.
    #[error("the board's poster cannot start: {0}")]
    Thread(std::io::Error),
}

/// The poster: its thread, the asks in and the reports out.
#[derive(Debug)]
pub struct Poster {
    asks: Option<Sender<Ask>>,
    reports: Receiver<Report>,
    thread: Option<JoinHandle<()>>,
}

impl Poster {
    /// Opens the queue and starts the thread, which posts what the queue holds undone at once.
    ///
    /// # Errors
    ///
    /// A [`PosterError`].
    pub fn start(config: PosterConfig) -> Result<Poster, PosterError> {
        let server = Server::new(&config.server, config.timeout)?;
        let queue = Queue::open(&config.dir)?;
        let (asks, asked) = mpsc::channel();
        let (tell, reports) = mpsc::channel();
        let mut work = Work::new(config, server, queue, tell);
        let thread = std::thread::Builder::new()
            .name("board poster".into())
            .spawn(move || work.run(&asked))
            .map_err(PosterError::Thread)?;
        Ok(Poster {
            asks: Some(asks),
            reports,
            thread: Some(thread),
        })
    }

    /// Asks the poster something (nothing happens if its thread is gone).
    pub fn ask(&self, ask: Ask) {
        if let Some(asks) = &self.asks {
            let _ = asks.send(ask);
        }
    }

    /// The reports so far, without waiting.
    pub fn reports(&self) -> Vec<Report> {
        self.reports.try_iter().collect()
    }

    /// The next report, waiting at most `timeout`.
    pub fn next_report(&self, timeout: Duration) -> Option<Report> {
        self.reports.recv_timeout(timeout).ok()
    }

    /// Stops the thread and waits for it (it finishes the call under way, within its
    /// timeout).
    pub fn stop(mut self) {
        self.asks = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The thread's state.
struct Work {
    config: PosterConfig,
    server: Server,
    queue: Queue,
    tell: Sender<Report>,
    /// A name asked for and not yet made (tried again with the posts).
    wanted_name: Option<String>,
    /// When what waits is tried next; none when nothing waits for the server.
    next_try: Option<Instant>,
    /// The wait after the next failure.
    delay: Duration,
}

impl Work {
    fn new(config: PosterConfig, server: Server, queue: Queue, tell: Sender<Report>) -> Work {
        let delay = config.backoff.first;
        let wanted_name = queue.wanted_name().map(str::to_string);
        Work {
            config,
            server,
            queue,
            tell,
            wanted_name,
            next_try: Some(Instant::now()),
            delay,
        }
    }

    /// Until the app lets go of its end: the work due, then the next ask or the next try.
    fn run(&mut self, asked: &Receiver<Ask>) {
        let kept: Vec<(String, Outcome)> = (self.queue.entries().iter())
            .map(|entry| (entry.date.clone(), entry.outcome.clone()))
            .collect();
        self.report(Report::Queue(kept));
        if let Some(name) = self.wanted_name.clone() {
            self.report(Report::Naming(name));
        }
        loop {
            if self.next_try.is_some_and(|at| at <= Instant::now()) {
                self.try_waiting();
            }
            let ask = match self.next_try {
                Some(at) => {
                    match asked.recv_timeout(at.saturating_duration_since(Instant::now())) {
                        Ok(ask) => ask,
                        Err(RecvTimeoutError::Timeout) => continue,
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
                None => match asked.recv() {
                    Ok(ask) => ask,
                    Err(_) => return,
                },
            };
            self.take(ask);
        }
    }

    /// Takes an ask.
    fn take(&mut self, ask: Ask) {
        match ask {
            Ask::Register(name) => {
                let written = self.queue.want_name(Some(&name));
                self.keep(written);
                self.wanted_name = Some(name);
                self.try_now();
            }
            Ask::Post { date, code } => {
                match self.queue.add(&date, &code) {
                    Ok(_) => {}
                    Err(error) => self.report(Report::Trouble(error.to_string())),
                }
                let outcome = self.queue.entry(&date).map(|entry| entry.outcome.clone());
                match outcome {
                    Some(Outcome::Done(posted)) => {
                        self.tell_standing(&date, posted.map(Into::into))
                    }
                    Some(Outcome::Refused(error)) => self.report(Report::Refused(date, error)),
                    _ => self.try_now(),
                }
            }
            Ask::Ranking(date) => {
                self.fetch_ranking(&date);
            }
            Ask::RetryNow => self.try_now(),
        }
    }

    /// What waits is tried at once, the backoff started again.
    fn try_now(&mut self) {
        self.delay = self.config.backoff.first;
        self.next_try = Some(Instant::now());
    }

    /// Tries what waits for the server: the name asked for, then every pending result. On
    /// the server's trouble, waits (backoff, or its Retry-After) and tries again after.
    fn try_waiting(&mut self) {
        self.next_try = None;
        if let Err(trouble) = self.register_wanted().and_then(|()| self.post_pending()) {
            let retry_in = match trouble {
                CallError::Busy {
                    retry_after: Some(after),
                    ..
                } => after,
                _ => self.delay,
            };
            self.delay = (self.delay * 2).min(self.config.backoff.max);
            self.next_try = Some(Instant::now() + retry_in);
            let why = trouble.to_string();
            self.report(Report::Waiting { why, retry_in });
        } else {
            self.delay = self.config.backoff.first;
        }
    }

    /// Makes the player asked for, if any; a refused name is told and forgotten.
    ///
    /// Errs only with the server's trouble (unreachable, busy), to try again.
    fn register_wanted(&mut self) -> Result<(), CallError> {
        let Some(name) = self.wanted_name.clone() else {
            return Ok(());
        };
        match self.server.register(&name) {
            Ok(made) => {
                self.wanted_name = None;
                let written = self.queue.want_name(None);
                self.keep(written);
                let player = Player {
                    name: made.player.clone(),
                    token: made.token,
                };
                match player::save(&self.config.dir, &player) {
                    Ok(()) => self.report(Report::Registered(made.player)),
                    Err(error) => self.report(Report::Trouble(error.to_string())),
                }
                Ok(())
            }
            Err(error) if error.is_transient() => Err(error),
            Err(error) => {
                self.wanted_name = None;
                let written = self.queue.want_name(None);
                self.keep(written);
                self.report(Report::NameRefused(error.to_string()));
                Ok(())
            }
        }
    }

    /// Posts every pending result, oldest first, if there is a player.
    ///
    /// Errs only with the server's trouble, to try again.
    fn post_pending(&mut self) -> Result<(), CallError> {
        let player = match player::load(&self.config.dir) {
            Ok(Some(player)) => player,
            Ok(None) => return Ok(()),
            Err(error) => {
                self.report(Report::Trouble(error.to_string()));
                return Ok(());
            }
        };
        let pending: Vec<(String, String)> = (self.queue.pending())
            .map(|entry| (entry.date.clone(), entry.code.clone()))
            .collect();
        for (date, code) in pending {
            self.report(Report::Posting(date.clone()));
            match self.server.post_result(&player.token, &date, &code) {
                Ok(posted) => {
                    let written = self.queue.mark_done(&date, Some(posted));
                    self.keep(written);
                    self.tell_standing(&date, Some(posted.into()));
                }
                Err(CallError::Refused { status: 409, error }) => {
                    self.already_posted(&player, &date, error);
                }
                Err(CallError::Refused { status: 401, .. }) => {
                    if let Err(error) = player::forget(&self.config.dir) {
                        self.report(Report::Trouble(error.to_string()));
                    }
                    self.report(Report::PlayerForgotten);
                    return Ok(());
                }
                Err(error) if error.is_transient() => return Err(error),
                Err(error) => {
                    let error = error.to_string();
                    let written = self.queue.mark_refused(&date, &error);
                    self.keep(written);
                    self.report(Report::Refused(date, error));
                }
            }
        }
        Ok(())
    }

    /// A 409: the player's result of that day is on the board already (posted before a
    /// crash left the journal without its "done"): done. Unless the day's ranking, fetched
    /// now, holds no result of the player's: then the 409 was for something else (the very
    /// same solve posted by another), a refusal.
    fn already_posted(&mut self, player: &Player, date: &str, error: String) {
        let ranking = self.fetch_ranking(date);
        if ranking
            .as_ref()
            .is_some_and(|ranking| ranking.row_of(&player.name).is_none())
        {
            let written = self.queue.mark_refused(date, &error);
            self.keep(written);
            self.report(Report::Refused(date.to_string(), error));
            return;
        }
        let written = self.queue.mark_done(date, None);
        self.keep(written);
        let standing = ranking
            .as_ref()
            .map(|ranking| standing_in(ranking, &player.name));
        self.tell_standing_with(date, standing.unwrap_or_default(), ranking.as_ref());
    }

    /// Tells a result done, with the day's ranking fetched now for the fastest time.
    fn tell_standing(&mut self, date: &str, standing: Option<Standing>) {
        let ranking = self.fetch_ranking(date);
        let name = player::load(&self.config.dir)
            .ok()
            .flatten()
            .map(|p| p.name);
        let standing = match (standing, &ranking, name) {
            (Some(standing), _, _) => standing,
            (None, Some(ranking), Some(name)) => standing_in(ranking, &name),
            _ => Standing::default(),
        };
        self.tell_standing_with(date, standing, ranking.as_ref());
    }

    fn tell_standing_with(
        &mut self,
        date: &str,
        mut standing: Standing,
        ranking: Option<&Ranking>,
    ) {
        if let Some(ranking) = ranking {
            standing.fastest_ms = ranking.fastest_ms();
        }
        self.report(Report::Posted(date.to_string(), standing));
    }

    /// Fetches a day's ranking, keeps it in the data folder, and tells it.
    fn fetch_ranking(&mut self, date: &str) -> Option<Ranking> {
        match self.server.ranking(date) {
            Ok(ranking) => {
                let kept = KeptRanking {
                    fetched_ms: now_ms(),
                    ranking: ranking.clone(),
                };
                if let Err(error) = kept::save(&self.config.dir, &kept) {
                    self.report(Report::Trouble(error.to_string()));
                }
                self.report(Report::Ranking(kept));
                Some(ranking)
            }
            Err(error) => {
                self.report(Report::RankingFailed(date.to_string(), error.to_string()));
                None
            }
        }
    }

    /// Tells the app a journal write that failed.
    fn keep(&self, written: Result<(), journal::JournalError>) {
        if let Err(error) = written {
            self.report(Report::Trouble(error.to_string()));
        }
    }

    /// Tells the app, and wakes it.
    fn report(&self, report: Report) {
        let _ = self.tell.send(report);
        if let Some(wake) = &self.config.wake {
            (wake.0)();
        }
    }
}

impl From<crate::wire::Posted> for Standing {
    fn from(posted: crate::wire::Posted) -> Standing {
        Standing {
            rank: Some(posted.rank),
            of: Some(posted.of),
            time_ms: Some(posted.time_ms),
            fastest_ms: None,
        }
    }
}

/// Where the player named `name` stands in a ranking (nothing known if they are not in it).
fn standing_in(ranking: &Ranking, name: &str) -> Standing {
    let row = ranking.row_of(name);
    Standing {
        rank: row.map(|row| row.rank),
        of: row.map(|_| ranking.results.len() as u64),
        time_ms: row.map(|row| row.time_ms),
        fastest_ms: ranking.fastest_ms(),
    }
}

/// Now, ms since the Unix epoch.
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as u64)
}
