//! The poster against the real server, in-process on 127.0.0.1 with its SQLite: a result
//! posted and ranked; 409 taken as done; a refusal kept with its sentence; an unknown token
//! forgotten; 429 waited out as its Retry-After says; the server down then up, posted once;
//! and kill -9 of a process that queued a result (before posting, with a name given offline,
//! after the server's 201 but before the journal's "done", and at a moment while posting),
//! after which a fresh poster on the same folder leaves exactly one result on the board. The
//! wire types are the app's own (`board_client::wire`): the server reads what they write and
//! they read what it answers.

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use board_client::queue::QUEUE_FILE;
use board_client::{
    Ask, Backoff, CallError, Outcome, Poster, PosterConfig, Queue, Report, Server, Standing,
};
use challenge::Challenge;
use npuzzle::{Board, Move};
use snapslide_server::daily::{DayBoard, engine_options};
use snapslide_server::date::{Clock, day_at, format_date};
use snapslide_server::{App, Settings};

/// The longest any step may wait for a report: a bound, not a timing.
const PATIENCE: Duration = Duration::from_secs(120);

/// A folder removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(what: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!(
            "board-client-{what}-{}-{}",
            std::process::id(),
            snapslide_server::token::new_player_id()
        ));
        std::fs::create_dir_all(&path).unwrap();
        Scratch(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The real server on a loopback port, with its SQLite file in its own folder; stopped (its
/// runtime dropped, its port closed) by [`TestServer::stop`] or when dropped.
struct TestServer {
    runtime: Option<tokio::runtime::Runtime>,
    address: SocketAddr,
}

impl TestServer {
    /// Starts a server on `address` (port 0 for any) with its data in `data`.
    fn start(data: &Path, address: SocketAddr) -> TestServer {
        TestServer::limited(data, address, 0)
    }

    /// [`TestServer::start`], with posts limited to `per_minute` an address (0: none).
    fn limited(data: &Path, address: SocketAddr, per_minute: u32) -> TestServer {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let settings = Settings {
            db_url: format!("sqlite://{}", data.join("board.db").display()),
            data_dir: data.to_path_buf(),
            posts_per_minute: per_minute,
            clock: Clock::System,
        };
        let (listener, app) = runtime.block_on(async {
            let app = Arc::new(App::open(&settings).await.unwrap());
            let listener = tokio::net::TcpListener::bind(address).await.unwrap();
            (listener, app)
        });
        let address = listener.local_addr().unwrap();
        runtime.spawn(snapslide_server::serve(listener, app));
        TestServer {
            runtime: Some(runtime),
            address,
        }
    }

    fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    fn stop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A loopback address nothing listens on (a port the system gave, let go).
fn free_address() -> SocketAddr {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
}

/// Today, as the server counts it.
fn today() -> String {
    format_date(day_at(Clock::System.now_ms()))
}

/// Today's daily and its shortest solution, made once per test process.
fn daily() -> &'static (DayBoard, Vec<Move>) {
    static MADE: OnceLock<(DayBoard, Vec<Move>)> = OnceLock::new();
    MADE.get_or_init(|| {
        let options = engine_options(None);
        let daily = DayBoard::make(day_at(Clock::System.now_ms()), &options).unwrap();
        let solution = npuzzle::solve(&daily.board, &options).unwrap().moves;
        (daily, solution)
    })
}

/// A code of `moves` from `start` at a human pace (about 300 ms a move), varied by `seed`.
fn code_of(start: &Board, moves: Vec<Move>, seed: u64) -> String {
    let mut at = 0;
    let times: Vec<u64> = (0..moves.len() as u64)
        .map(|i| {
            let time = at;
            at += 150 + (i * 7_919 + seed * 104_729) % 300;
            time
        })
        .collect();
    let total = times.last().copied().unwrap_or(0) + 400;
    Challenge::new(start.clone(), moves, total, Some(times))
        .unwrap()
        .code()
        .to_string()
}

/// A solve of today's daily: the shortest with `detours` back-and-forth pairs first.
fn solve(detours: usize, seed: u64) -> String {
    let (daily, solution) = daily();
    let there = Move::ALL
        .into_iter()
        .find(|&mv| daily.board.can_move(mv))
        .unwrap();
    let mut moves: Vec<Move> = (0..detours)
        .flat_map(|_| [there, there.inverse()])
        .collect();
    moves.extend(solution.iter().copied());
    code_of(&daily.board, moves, seed)
}

/// A poster on `dir` for the server at `url`, with a short backoff.
fn poster(url: &str, dir: &Path) -> Poster {
    let mut config = PosterConfig::new(url, dir.to_path_buf());
    config.backoff = Backoff {
        first: Duration::from_millis(20),
        max: Duration::from_millis(200),
    };
    config.timeout = Duration::from_secs(20);
    Poster::start(config).unwrap()
}

/// Reports until one `wanted` answers `Some`, every report seen kept in `seen`.
fn wait_for<T>(
    poster: &Poster,
    seen: &mut Vec<Report>,
    mut wanted: impl FnMut(&Report) -> Option<T>,
) -> T {
    let deadline = Instant::now() + PATIENCE;
    while let Some(report) = poster.next_report(deadline.saturating_duration_since(Instant::now()))
    {
        let found = wanted(&report);
        seen.push(report);
        if let Some(found) = found {
            return found;
        }
    }
    panic!("no such report; seen: {seen:#?}");
}

/// The day's standing once posted.
fn posted(report: &Report) -> Option<Standing> {
    match report {
        Report::Posted(_, standing) => Some(*standing),
        _ => None,
    }
}

/// Makes a player through the client and keeps them in `dir`, as the poster would.
fn player_in(server: &Server, dir: &Path, name: &str) -> board_client::Player {
    let made = server.register(name).unwrap();
    let player = board_client::Player {
        name: made.player,
        token: made.token,
    };
    board_client::player::save(dir, &player).unwrap();
    player
}

/// The results on the server's board today.
fn results_today(server: &Server) -> Vec<board_client::Row> {
    server.ranking(&today()).unwrap().results
}

fn client(url: &str) -> Server {
    Server::new(url, Duration::from_secs(20)).unwrap()
}

#[test]
fn a_result_is_posted_ranked_and_done_and_the_fastest_is_told() {
    let data = Scratch::new("server");
    let server = TestServer::start(&data.0, "127.0.0.1:0".parse().unwrap());
    let (first, mine) = (Scratch::new("first"), Scratch::new("mine"));
    // Someone faster is on the board first.
    let api = client(&server.url());
    let ann = player_in(&api, &first.0, "Ann");
    let fast = api.post_result(&ann.token, &today(), &solve(0, 1)).unwrap();
    assert_eq!((fast.rank, fast.of, fast.optimal), (1, 1, 36));
    let poster = poster(&server.url(), &mine.0);
    poster.ask(Ask::Register("Zoë".into()));
    let mut seen = Vec::new();
    let name = wait_for(&poster, &mut seen, |r| match r {
        Report::Registered(name) => Some(name.clone()),
        _ => None,
    });
    assert_eq!(name, "Zoë");
    assert_eq!(
        board_client::player::load(&mine.0).unwrap().unwrap().name,
        "Zoë"
    );
    poster.ask(Ask::Post {
        date: today(),
        code: solve(4, 2),
    });
    let standing = wait_for(&poster, &mut seen, posted);
    assert_eq!((standing.rank, standing.of), (Some(2), Some(2)));
    assert_eq!(standing.fastest_ms, Some(fast.time_ms));
    assert!(standing.time_ms.unwrap() > fast.time_ms);
    // The ranking was fetched for the fastest time, told, and kept for offline.
    let ranking = (seen.iter())
        .find_map(|r| match r {
            Report::Ranking(kept) => Some(kept.clone()),
            _ => None,
        })
        .expect("the ranking told");
    assert_eq!(ranking.ranking.results[1].name, "Zoë");
    assert_eq!(board_client::kept::load(&mine.0), Some(ranking));
    poster.stop();
    let queue = Queue::open(&mine.0).unwrap();
    assert!(matches!(
        queue.entry(&today()).unwrap().outcome,
        Outcome::Done(Some(_))
    ));
    // A poster started again posts nothing more.
    let again = self::poster(&server.url(), &mine.0);
    again.ask(Ask::Post {
        date: today(),
        code: solve(5, 3),
    });
    wait_for(&again, &mut seen, posted);
    assert_eq!(results_today(&api).len(), 2);
}

#[test]
fn a_409_already_posted_is_done_with_the_standing_from_the_ranking() {
    let data = Scratch::new("server");
    let server = TestServer::start(&data.0, "127.0.0.1:0".parse().unwrap());
    let mine = Scratch::new("mine");
    let api = client(&server.url());
    let bob = player_in(&api, &mine.0, "Bob");
    // Posted before (as a crash between the 201 and the journal's "done" leaves it).
    api.post_result(&bob.token, &today(), &solve(1, 4)).unwrap();
    let poster = poster(&server.url(), &mine.0);
    poster.ask(Ask::Post {
        date: today(),
        code: solve(1, 4),
    });
    let mut seen = Vec::new();
    let standing = wait_for(&poster, &mut seen, posted);
    assert_eq!((standing.rank, standing.of), (Some(1), Some(1)));
    assert!(
        !seen.iter().any(|r| matches!(r, Report::Refused(..))),
        "{seen:#?}"
    );
    poster.stop();
    let queue = Queue::open(&mine.0).unwrap();
    assert_eq!(queue.entry(&today()).unwrap().outcome, Outcome::Done(None));
}

#[test]
fn a_refusal_is_kept_with_the_servers_sentence_and_not_tried_again() {
    let data = Scratch::new("server");
    let server = TestServer::start(&data.0, "127.0.0.1:0".parse().unwrap());
    let mine = Scratch::new("mine");
    let api = client(&server.url());
    player_in(&api, &mine.0, "Cy");
    // A real solve, of yesterday's daily.
    let options = engine_options(None);
    let yesterday = DayBoard::make(day_at(Clock::System.now_ms()) - 1, &options).unwrap();
    let moves = npuzzle::solve(&yesterday.board, &options).unwrap().moves;
    let short = code_of(&yesterday.board, moves, 5);
    let poster = poster(&server.url(), &mine.0);
    poster.ask(Ask::Post {
        date: today(),
        code: short,
    });
    let mut seen = Vec::new();
    let sentence = wait_for(&poster, &mut seen, |r| match r {
        Report::Refused(_, sentence) => Some(sentence.clone()),
        _ => None,
    });
    assert!(sentence.contains("daily"), "{sentence}");
    poster.stop();
    let queue = Queue::open(&mine.0).unwrap();
    assert_eq!(
        queue.entry(&today()).unwrap().outcome,
        Outcome::Refused(sentence.clone())
    );
    assert_eq!(queue.pending().count(), 0);
    assert!(results_today(&api).is_empty());
    // A name the server refuses is told in its words, and the poster asks for no other.
    let again = self::poster(&server.url(), &mine.0);
    again.ask(Ask::Register("cy".into()));
    let refused = wait_for(&again, &mut seen, |r| match r {
        Report::NameRefused(sentence) => Some(sentence.clone()),
        _ => None,
    });
    assert!(refused.contains("is taken"), "{refused}");
}

#[test]
fn a_result_made_while_the_server_is_down_is_posted_once_when_it_is_up() {
    let (data, mine) = (Scratch::new("server"), Scratch::new("mine"));
    let address = free_address();
    let url = format!("http://{address}");
    // A player made earlier; the server is down now.
    let mut server = TestServer::start(&data.0, address);
    player_in(&client(&url), &mine.0, "Dee");
    server.stop();
    let poster = poster(&url, &mine.0);
    poster.ask(Ask::Post {
        date: today(),
        code: solve(2, 6),
    });
    let mut seen = Vec::new();
    // Tried, and tried again later, more than once.
    for _ in 0..3 {
        wait_for(&poster, &mut seen, |r| match r {
            Report::Waiting { .. } => Some(()),
            _ => None,
        });
    }
    assert!(Queue::open(&mine.0).unwrap().pending().count() == 1);
    let _server = TestServer::start(&data.0, address);
    let standing = wait_for(&poster, &mut seen, posted);
    assert_eq!((standing.rank, standing.of), (Some(1), Some(1)));
    poster.stop();
    assert_eq!(results_today(&client(&url)).len(), 1);
    let calls = seen
        .iter()
        .filter(|r| matches!(r, Report::Posting(_)))
        .count();
    assert!(calls >= 4, "tried while down, then once up: {seen:#?}");
}

#[test]
fn a_token_the_server_does_not_know_forgets_the_player_and_keeps_the_result() {
    let data = Scratch::new("server");
    let server = TestServer::start(&data.0, "127.0.0.1:0".parse().unwrap());
    let mine = Scratch::new("mine");
    // A player of another server's database.
    let stranger = board_client::Player {
        name: "Fay".into(),
        token: "ab".repeat(32),
    };
    board_client::player::save(&mine.0, &stranger).unwrap();
    let poster = poster(&server.url(), &mine.0);
    poster.ask(Ask::Post {
        date: today(),
        code: solve(1, 8),
    });
    let mut seen = Vec::new();
    wait_for(&poster, &mut seen, |r| {
        matches!(r, Report::PlayerForgotten).then_some(())
    });
    assert_eq!(board_client::player::load(&mine.0).unwrap(), None);
    assert_eq!(Queue::open(&mine.0).unwrap().pending().count(), 1);
    // A name given again, the result goes on.
    poster.ask(Ask::Register("Fay".into()));
    let standing = wait_for(&poster, &mut seen, posted);
    assert_eq!((standing.rank, standing.of), (Some(1), Some(1)));
}

#[test]
fn a_429_is_waited_out_as_long_as_its_retry_after_says() {
    let data = Scratch::new("server");
    // One post a minute: the player's, then the result's is 429.
    let server = TestServer::limited(&data.0, "127.0.0.1:0".parse().unwrap(), 1);
    let mine = Scratch::new("mine");
    player_in(&client(&server.url()), &mine.0, "Hal");
    let poster = poster(&server.url(), &mine.0);
    poster.ask(Ask::Post {
        date: today(),
        code: solve(1, 9),
    });
    let mut seen = Vec::new();
    let (why, retry_in) = wait_for(&poster, &mut seen, |r| match r {
        Report::Waiting { why, retry_in } => Some((why.clone(), *retry_in)),
        _ => None,
    });
    assert!(why.contains("429"), "{why}");
    // The server's seconds, not the 20 ms backoff.
    assert!(retry_in >= Duration::from_secs(1), "{retry_in:?}");
    poster.stop();
    assert_eq!(Queue::open(&mine.0).unwrap().pending().count(), 1);
}

#[test]
fn the_server_is_busy_is_waited_out_not_refused() {
    let error = CallError::Busy {
        status: 503,
        retry_after: None,
    };
    assert!(error.is_transient());
    let refused = CallError::Refused {
        status: 422,
        error: "No.".into(),
    };
    assert!(!refused.is_transient());
}

/// What the child process does before it is killed, by `BOARD_CHILD`.
#[derive(Clone, Copy, Debug)]
enum ChildStep {
    /// Queues a result with the server unreachable, and waits to be killed.
    QueueOnly,
    /// Asks for a name and queues a result, the server unreachable, and waits to be killed.
    NameAndQueue,
    /// Queues a result, posts it itself (the server answers 201), and is killed before the
    /// journal's "done".
    PostedNotDone,
    /// Runs a poster that posts the result: killed at a moment while it does.
    WhilePosting,
}

/// Not a test of its own: the child process the kill -9 tests start (this test binary again,
/// with `BOARD_CHILD` set), which does its step, says so in a file, and waits to be killed.
#[test]
fn child_process() {
    let Ok(step) = std::env::var("BOARD_CHILD") else {
        return;
    };
    let dir = PathBuf::from(std::env::var("BOARD_CHILD_DIR").unwrap());
    let url = std::env::var("BOARD_CHILD_SERVER").unwrap();
    let code = std::env::var("BOARD_CHILD_CODE").unwrap();
    match step.as_str() {
        "QueueOnly" => {
            let poster = poster(&url, &dir);
            poster.ask(Ask::Post {
                date: today(),
                code,
            });
            let mut seen = Vec::new();
            wait_for(&poster, &mut seen, |r| {
                matches!(r, Report::Waiting { .. }).then_some(())
            });
        }
        "NameAndQueue" => {
            let poster = poster(&url, &dir);
            poster.ask(Ask::Register("Gus".into()));
            poster.ask(Ask::Post {
                date: today(),
                code,
            });
            let mut seen = Vec::new();
            wait_for(&poster, &mut seen, |r| {
                matches!(r, Report::Waiting { .. }).then_some(())
            });
        }
        "PostedNotDone" => {
            let mut queue = Queue::open(&dir).unwrap();
            queue.add(&today(), &code).unwrap();
            let player = board_client::player::load(&dir).unwrap().unwrap();
            client(&url)
                .post_result(&player.token, &today(), &code)
                .unwrap();
        }
        _ => {
            let poster = poster(&url, &dir);
            poster.ask(Ask::Post {
                date: today(),
                code,
            });
            // Queued, and the call under way: killed from here on, at whatever moment.
            let mut seen = Vec::new();
            wait_for(&poster, &mut seen, |r| {
                matches!(r, Report::Posting(_)).then_some(())
            });
            std::fs::write(dir.join("child-ready"), "").unwrap();
            wait_for(&poster, &mut seen, posted);
        }
    }
    std::fs::write(dir.join("child-ready"), "").unwrap();
    loop {
        std::thread::park();
    }
}

/// Starts the child on `dir` for `step`, waits until it has done it, and kills it (SIGKILL).
fn child_killed(step: ChildStep, dir: &Path, url: &str, code: &str) {
    let mut child: Child = Command::new(std::env::current_exe().unwrap())
        .args([
            "child_process",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("BOARD_CHILD", format!("{step:?}"))
        .env("BOARD_CHILD_DIR", dir)
        .env("BOARD_CHILD_SERVER", url)
        .env("BOARD_CHILD_CODE", code)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + PATIENCE;
    while !dir.join("child-ready").exists() {
        assert!(Instant::now() < deadline, "the child never got ready");
        assert!(child.try_wait().unwrap().is_none(), "the child ended");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(9), "killed by SIGKILL");
    }
    assert!(dir.join(QUEUE_FILE).exists());
}

/// A kill -9 at `step`, then a fresh poster on the same folder with the server up: one result.
fn killed_then_posted_once(step: ChildStep) {
    let (data, mine) = (Scratch::new("server"), Scratch::new("mine"));
    let server = TestServer::start(&data.0, "127.0.0.1:0".parse().unwrap());
    let api = client(&server.url());
    let name = match step {
        ChildStep::NameAndQueue => "Gus".to_string(),
        _ => player_in(&api, &mine.0, "Eve").name,
    };
    let url = match step {
        ChildStep::QueueOnly | ChildStep::NameAndQueue => format!("http://{}", free_address()),
        _ => server.url(),
    };
    child_killed(step, &mine.0, &url, &solve(3, 7));
    let queued = Queue::open(&mine.0).unwrap();
    let entry = queued
        .entry(&today())
        .expect("queued before the kill")
        .clone();
    drop(queued);
    let poster = poster(&server.url(), &mine.0);
    let mut seen = Vec::new();
    if entry.outcome == Outcome::Pending {
        let standing = wait_for(&poster, &mut seen, posted);
        assert_eq!((standing.rank, standing.of), (Some(1), Some(1)));
    }
    poster.stop();
    let results = results_today(&api);
    assert_eq!(results.len(), 1, "{results:#?}");
    assert_eq!(results[0].name, name);
    let queue = Queue::open(&mine.0).unwrap();
    assert!(matches!(
        queue.entry(&today()).unwrap().outcome,
        Outcome::Done(_)
    ));
}

#[test]
fn killed_after_queueing_before_posting_the_result_is_posted_once() {
    killed_then_posted_once(ChildStep::QueueOnly);
}

#[test]
fn killed_after_a_name_and_a_result_were_given_offline_both_are_made_once() {
    killed_then_posted_once(ChildStep::NameAndQueue);
}

#[test]
fn killed_after_the_servers_201_before_the_journals_done_it_is_posted_once() {
    killed_then_posted_once(ChildStep::PostedNotDone);
}

#[test]
fn killed_while_posting_the_result_is_on_the_board_once() {
    killed_then_posted_once(ChildStep::WhilePosting);
}
