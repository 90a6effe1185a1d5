//! What the server's tests share: a scratch folder, a database of each kind (PostgreSQL when
//! `SNAPSLIDE_TEST_POSTGRES` names one), an app on it, requests through the real router, and
//! real solves of a day's daily with human timings.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use axum::body::Body;
use axum::extract::connect_info::MockConnectInfo;
use axum::http::{HeaderMap, Request, StatusCode};
use challenge::Challenge;
use npuzzle::{Board, Move, Options};
use serde_json::Value;
use snapslide_game::Day;
use snapslide_server::daily::{DayBoard, engine_options};
use snapslide_server::date::{Clock, day_at};
use snapslide_server::{App, Settings, router};
use sqlx::{AnyPool, Executor};
use tower::ServiceExt;

/// A folder removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A new empty folder under the system's temporary folder.
    pub fn new(what: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!(
            "snapslide-server-{what}-{}-{}",
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

/// A database for one test: a SQLite file in its scratch folder, or a PostgreSQL database of
/// its own, made on the server `SNAPSLIDE_TEST_POSTGRES` names.
pub struct Db {
    /// The URL the server opens.
    pub url: String,
    /// The scratch folder (the data folder, and SQLite's file).
    pub scratch: Scratch,
}

impl Db {
    /// A fresh SQLite database.
    pub fn sqlite() -> Db {
        let scratch = Scratch::new("sqlite");
        let url = format!("sqlite://{}", scratch.0.join("board.db").display());
        Db { url, scratch }
    }

    /// A fresh PostgreSQL database, or `None` (said on standard output) when
    /// `SNAPSLIDE_TEST_POSTGRES` is not set.
    pub async fn postgres(test: &str) -> Option<Db> {
        let Ok(server) = std::env::var("SNAPSLIDE_TEST_POSTGRES") else {
            // Straight to standard error, past the test harness's capture: a skip is seen.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test} against PostgreSQL: SNAPSLIDE_TEST_POSTGRES is not set \
                 (tools/postgres-test.sh starts a server and prints its URL)"
            );
            return None;
        };
        sqlx::any::install_default_drivers();
        let name = format!(
            "snapslide_test_{}",
            snapslide_server::token::new_player_id()
        );
        let admin = AnyPool::connect(&server)
            .await
            .expect("SNAPSLIDE_TEST_POSTGRES reachable");
        admin
            .execute(format!("CREATE DATABASE {name}").as_str())
            .await
            .unwrap();
        admin.close().await;
        let base = server
            .rsplit_once('/')
            .map_or(server.as_str(), |(base, _)| base);
        let url = format!("{base}/{name}");
        Some(Db {
            url,
            scratch: Scratch::new("postgres"),
        })
    }

    /// Whether this is SQLite.
    pub fn is_sqlite(&self) -> bool {
        self.url.starts_with("sqlite:")
    }

    /// An app on this database, posts limited to `per_minute` an address (0: none).
    pub async fn app(&self, per_minute: u32) -> Arc<App> {
        let settings = Settings {
            db_url: self.url.clone(),
            data_dir: self.scratch.0.clone(),
            posts_per_minute: per_minute,
            clock: Clock::System,
        };
        Arc::new(App::open(&settings).await.unwrap())
    }
}

/// An answer: its status, headers and body (JSON, or the text as a JSON string).
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub json: Value,
    pub bytes: Vec<u8>,
}

impl Answer {
    /// The error sentence of a refusal.
    pub fn error(&self) -> &str {
        self.json["error"].as_str().unwrap_or_default()
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// Sends a request through the real router, as from 192.0.2.7.
pub async fn send(app: &Arc<App>, request: Request<Body>) -> Answer {
    let address = SocketAddr::from(([192, 0, 2, 7], 40_000));
    let service = router(Arc::clone(app)).layer(MockConnectInfo(address));
    let response = service.oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), 64 << 20)
        .await
        .unwrap()
        .to_vec();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Answer {
        status,
        headers,
        json,
        bytes,
    }
}

/// `GET path`.
pub async fn get(app: &Arc<App>, path: &str) -> Answer {
    send(app, Request::get(path).body(Body::empty()).unwrap()).await
}

/// `POST path` with a JSON body and, if given, a bearer token.
pub async fn post_json(app: &Arc<App>, path: &str, body: &Value, token: Option<&str>) -> Answer {
    let mut request = Request::post(path).header("content-type", "application/json");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    send(app, request.body(Body::from(body.to_string())).unwrap()).await
}

/// Makes a player; their token.
pub async fn player(app: &Arc<App>, name: &str) -> String {
    let made = post_json(
        app,
        "/api/players",
        &serde_json::json!({ "name": name }),
        None,
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
    made.json["token"].as_str().unwrap().to_string()
}

/// Posts a code for a date with a token.
pub async fn post_code(app: &Arc<App>, date: &str, code: &str, token: &str) -> Answer {
    let path = format!("/api/daily/{date}/results");
    post_json(
        app,
        &path,
        &serde_json::json!({ "code": code }),
        Some(token),
    )
    .await
}

/// Today, as the server counts it (UTC).
pub fn today() -> Day {
    day_at(Clock::System.now_ms())
}

/// The engine's options for the tests: the quick tables.
pub fn options() -> Options {
    engine_options(None)
}

/// A day's daily and its shortest solution.
pub type Solved = (DayBoard, Vec<Move>);

/// The daily of `day` and its shortest solution, made once per day per test process.
pub fn daily_and_solution(day: Day) -> (DayBoard, Vec<Move>) {
    static MADE: OnceLock<std::sync::Mutex<Vec<Solved>>> = OnceLock::new();
    let made = MADE.get_or_init(Default::default);
    let mut made = made.lock().unwrap();
    if let Some(found) = made.iter().find(|(daily, _)| daily.day == day) {
        return found.clone();
    }
    let daily = DayBoard::make(day, &options()).unwrap();
    let solution = npuzzle::solve(&daily.board, &options()).unwrap().moves;
    assert_eq!(solution.len(), daily.optimal, "an optimal solve");
    made.push((daily.clone(), solution.clone()));
    (daily, solution)
}

/// Human move times: `pace` ms apart on average, varied by `seed`, from 0.
pub fn human_times(count: usize, pace: u64, seed: u64) -> Vec<u64> {
    let mut at = 0;
    (0..count)
        .map(|i| {
            let time = at;
            at += pace / 2 + (i as u64 * 7_919 + seed * 104_729) % pace;
            time
        })
        .collect()
}

/// A challenge code of `moves` from `start` at those times (the total 400 ms after the last).
pub fn code_of(start: &Board, moves: Vec<Move>, times: Vec<u64>) -> String {
    let total = times.last().copied().unwrap_or(0) + 400;
    Challenge::new(start.clone(), moves, total, Some(times))
        .unwrap()
        .code()
        .to_string()
}

/// A solve of today's daily: the shortest solution with `detours` back-and-forth pairs first
/// (two moves more each), at a human pace varied by `seed`.
pub fn solve_of_today(detours: usize, seed: u64) -> String {
    let (daily, solution) = daily_and_solution(today());
    let there = Move::ALL
        .into_iter()
        .find(|&mv| daily.board.can_move(mv))
        .unwrap();
    let mut moves: Vec<Move> = (0..detours)
        .flat_map(|_| [there, there.inverse()])
        .collect();
    moves.extend(solution);
    let times = human_times(moves.len(), 300, seed);
    code_of(&daily.board, moves, times)
}

/// Every byte of the files in `folder` (the database's file and its write-ahead log).
pub fn bytes_under(folder: &Path) -> Vec<u8> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap().flatten() {
        if entry.path().is_file() {
            all.extend(std::fs::read(entry.path()).unwrap());
        }
    }
    all
}
