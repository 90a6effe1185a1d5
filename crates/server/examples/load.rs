//! A bounded load test on 127.0.0.1: 200 players post 2,000 checked results (10 days' dailies,
//! a result a player a day) from 32 concurrent clients to a real server process, which is then
//! asked for a day's page with 10,000 results. Reports p50/p99 latency and results a second.
//! With `--kill`, the server is killed (SIGKILL) in the middle of day 5 and started again:
//! every result answered 201 must be there after the restart. With `--no-big-day` (as
//! `make test` runs it), the day of 10,000 results is left out.
//!
//! ```text
//! cargo run --release -p snapslide-server --example load                       # SQLite
//! cargo run --release -p snapslide-server --example load -- --db postgres://…  # PostgreSQL
//! cargo run --release -p snapslide-server --example load -- --kill
//! ```
//!
//! The server is this program again (`load serve …`), its clock fixed at noon of the day being
//! posted, so that ten past days take results; it is restarted (SIGTERM) between days.

use std::collections::{HashSet, VecDeque};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use challenge::Challenge;
use npuzzle::Move;
use npuzzle::random::SplitMix64;
use snapslide_game::Day;
use snapslide_server::daily::{DayBoard, engine_options};
use snapslide_server::date::{Clock, DAY_MS, day_at, format_date};
use snapslide_server::store::{NewResult, Player, Store};
use snapslide_server::token::{new_player_id, token_hash};
use snapslide_server::{App, Settings};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

const PLAYERS: usize = 200;
const DAYS: i64 = 10;
const CLIENTS: usize = 32;
const BIG_DAY_RESULTS: usize = 10_000;
/// Results posted to the big day after its page is kept, each making the page anew.
const LATE_RESULTS: usize = 10;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    if args.first().map(String::as_str) == Some("serve") {
        runtime.block_on(serve(&args[1..]));
    } else {
        runtime.block_on(drive(&args));
    }
}

/// The value after `--name` in `args`.
fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1).map(String::as_str)
}

/// The server, in this process: `serve --db URL --data DIR --listen ADDR --day DAY`.
async fn serve(args: &[String]) {
    let day: Day = arg(args, "--day").unwrap().parse().unwrap();
    let data = PathBuf::from(arg(args, "--data").unwrap());
    let settings = Settings {
        db_url: arg(args, "--db").unwrap().to_string(),
        data_dir: data.clone(),
        posts_per_minute: 0,
        clock: Clock::Fixed(day * DAY_MS + DAY_MS / 2),
    };
    let filter = tracing_subscriber::EnvFilter::new("info");
    let log = std::fs::File::create(data.join(format!("server-{day}.log"))).unwrap();
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(Mutex::new(log))
        .init();
    let app = App::open(&settings).await.expect("the server opens");
    let listener = tokio::net::TcpListener::bind(arg(args, "--listen").unwrap())
        .await
        .unwrap();
    snapslide_server::serve(listener, Arc::new(app))
        .await
        .unwrap();
}

/// A server process of this program, serving as on `day`.
struct Server {
    child: Child,
}

impl Server {
    /// Starts one and waits until it answers `/health`.
    async fn start(db: &str, data: &Path, address: SocketAddr, day: Day) -> Server {
        let child = Command::new(std::env::current_exe().unwrap())
            .args([
                "serve",
                "--db",
                db,
                "--listen",
                &address.to_string(),
                "--day",
                &day.to_string(),
            ])
            .arg("--data")
            .arg(data)
            .stdout(Stdio::null())
            .spawn()
            .expect("the server starts");
        let server = Server { child };
        for _ in 0..600 {
            if let Ok(mut conn) = Conn::open(address).await
                && conn
                    .call("GET", "/health", None, None)
                    .await
                    .is_ok_and(|(s, _)| s == 200)
            {
                return server;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the server did not come up");
    }

    /// SIGTERM, and waits for it to finish.
    fn stop(mut self) {
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .status();
        let _ = self.child.wait();
    }

    /// SIGKILL: no chance to finish anything.
    fn kill_9(mut self) {
        self.child.kill().unwrap();
        let _ = self.child.wait();
    }
}

/// One keep-alive HTTP/1.1 connection.
struct Conn {
    stream: BufReader<TcpStream>,
}

impl Conn {
    async fn open(address: SocketAddr) -> std::io::Result<Conn> {
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        Ok(Conn {
            stream: BufReader::new(stream),
        })
    }

    /// A request; the status and the body.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> std::io::Result<(u16, Vec<u8>)> {
        let mut head = format!("{method} {path} HTTP/1.1\r\nhost: load\r\n");
        if let Some(token) = token {
            head.push_str(&format!("authorization: Bearer {token}\r\n"));
        }
        let body = body.unwrap_or("");
        head.push_str(&format!(
            "content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        ));
        self.stream.get_mut().write_all(head.as_bytes()).await?;
        self.read_response().await
    }

    async fn read_response(&mut self) -> std::io::Result<(u16, Vec<u8>)> {
        let mut line = String::new();
        self.stream.read_line(&mut line).await?;
        let status: u16 = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| {
                std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "no status line")
            })?;
        let mut length = 0;
        loop {
            line.clear();
            self.stream.read_line(&mut line).await?;
            if line.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body).await?;
        Ok((status, body))
    }
}

/// What a run of posts gave: each 201's latency, and which posts were answered 201.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    created: Vec<(Day, usize)>,
    refused: usize,
    /// Posts already on the board when made again after the kill: committed, never answered.
    already: usize,
    failed: usize,
}

/// A post to make: the day, the player, the path and the body.
#[derive(Clone)]
struct Post {
    day: Day,
    player: usize,
    token: String,
    body: String,
}

/// The server to kill (SIGKILL) once this many posts are answered, while the others are in
/// flight.
type KillAt = Option<(usize, Arc<Mutex<Option<Server>>>)>;

/// Makes the posts with [`CLIENTS`] clients. With `kill_at`, kills the server in the middle:
/// the posts it did not answer (in flight, or not sent) are given back, to make again.
async fn post_all(address: SocketAddr, posts: Vec<Post>, kill_at: KillAt) -> (Tally, Vec<Post>) {
    let queue = Arc::new(Mutex::new(VecDeque::from(posts)));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let mut clients = Vec::new();
    for _ in 0..CLIENTS {
        let (queue, tally, kill_at) = (Arc::clone(&queue), Arc::clone(&tally), kill_at.clone());
        clients.push(tokio::spawn(async move {
            let mut conn = Conn::open(address).await.ok();
            loop {
                if let Some((after, server)) = &kill_at {
                    let answered = tally.lock().unwrap().created.len();
                    let mut server = server.lock().unwrap();
                    if answered >= *after
                        && let Some(alive) = server.take()
                    {
                        alive.kill_9();
                    }
                    if server.is_none() {
                        return;
                    }
                }
                let Some(post) = queue.lock().unwrap().pop_front() else {
                    return;
                };
                if !one_post(&mut conn, address, &post, &tally).await {
                    queue.lock().unwrap().push_back(post);
                    if kill_at.is_none() {
                        return;
                    }
                }
            }
        }));
    }
    for client in clients {
        client.await.unwrap();
    }
    let left = std::mem::take(&mut *queue.lock().unwrap()).into();
    let tally = std::mem::take(&mut *tally.lock().unwrap());
    (tally, left)
}

/// One post, timed; whether it was answered (a failed connection is opened again for the next).
async fn one_post(
    conn: &mut Option<Conn>,
    address: SocketAddr,
    post: &Post,
    tally: &Mutex<Tally>,
) -> bool {
    if conn.is_none() {
        *conn = Conn::open(address).await.ok();
    }
    let path = format!("/api/daily/{}/results", format_date(post.day));
    let started = Instant::now();
    let answer = match conn.as_mut() {
        Some(c) => {
            c.call("POST", &path, Some(&post.token), Some(&post.body))
                .await
        }
        None => Err(std::io::Error::other("no connection")),
    };
    let took = started.elapsed();
    let mut tally = tally.lock().unwrap();
    match answer {
        Ok((201, _)) => {
            tally.latencies.push(took);
            tally.created.push((post.day, post.player));
        }
        Ok((409, body)) if String::from_utf8_lossy(&body).contains("already on the board") => {
            tally.already += 1;
        }
        Ok((status, body)) => {
            tally.refused += 1;
            eprintln!("refused {status}: {}", String::from_utf8_lossy(&body));
        }
        Err(_) => {
            tally.failed += 1;
            *conn = None;
            return false;
        }
    }
    true
}

/// Each player's code for a day: the day's shortest solve with a few detours, at a human pace
/// of the player's own.
fn codes_for(day: Day, players: usize) -> Vec<String> {
    let options = engine_options(Some(Path::new("/tmp/snapslide-load-tables")));
    let daily = DayBoard::make(day, &options).unwrap();
    let solution = npuzzle::solve(&daily.board, &options).unwrap().moves;
    let there = Move::ALL
        .into_iter()
        .find(|&mv| daily.board.can_move(mv))
        .unwrap();
    (0..players)
        .map(|player| {
            let detours = player % 4;
            let mut moves: Vec<Move> = (0..detours)
                .flat_map(|_| [there, there.inverse()])
                .collect();
            moves.extend(&solution);
            let mut pace = SplitMix64::new((day as u64) << 32 ^ player as u64);
            let mut at = 0;
            let times: Vec<u64> = (0..moves.len())
                .map(|_| {
                    let t = at;
                    at += 150 + pace.below(300);
                    t
                })
                .collect();
            let total = at + 200;
            Challenge::new(daily.board.clone(), moves, total, Some(times))
                .unwrap()
                .code()
                .to_string()
        })
        .collect()
}

/// The CPU time this process has used (user and system), from /proc (Linux; `None`
/// elsewhere): the load generator shares the machine's cores with the server it loads.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's name (which is in parentheses): utime and stime are
    // the 12th and 13th, in clock ticks (100 a second on Linux).
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// A percentile of sorted latencies, in ms.
fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let index = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index].as_secs_f64() * 1000.0
}

/// A free port on 127.0.0.1.
fn free_address() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
}

/// Registers the players through the API; their tokens.
async fn register(address: SocketAddr) -> Vec<String> {
    let mut conn = Conn::open(address).await.unwrap();
    let mut tokens = Vec::new();
    for player in 0..PLAYERS {
        tokens.push(register_one(&mut conn, &format!("Player {player}")).await);
    }
    tokens
}

/// Registers a player of `name` through the API; their token.
async fn register_one(conn: &mut Conn, name: &str) -> String {
    let body = format!("{{\"name\": \"{name}\"}}");
    let (status, answer) = conn
        .call("POST", "/api/players", None, Some(&body))
        .await
        .unwrap();
    assert_eq!(status, 201, "{}", String::from_utf8_lossy(&answer));
    let made: serde_json::Value = serde_json::from_slice(&answer).unwrap();
    made["token"].as_str().unwrap().to_string()
}

/// The database to load: `--db URL` (a PostgreSQL server: a fresh database is made on it), or
/// a SQLite file in `data`.
async fn database(args: &[String], data: &Path) -> String {
    let Some(server) = arg(args, "--db") else {
        return format!("sqlite://{}", data.join("load.db").display());
    };
    sqlx::any::install_default_drivers();
    let name = format!("snapslide_load_{}", new_player_id());
    let admin = sqlx::AnyPool::connect(server).await.unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    let base = server.rsplit_once('/').map_or(server, |(base, _)| base);
    format!("{base}/{name}")
}

async fn drive(args: &[String]) {
    let kill = args.iter().any(|a| a == "--kill");
    let data = std::env::temp_dir().join(format!("snapslide-load-{}", std::process::id()));
    std::fs::create_dir_all(&data).unwrap();
    let db = database(args, &data).await;
    let store_name = if db.starts_with("sqlite:") {
        "SQLite"
    } else {
        "PostgreSQL"
    };
    let first_day = day_at(Clock::System.now_ms()) - 30;
    let days: Vec<Day> = (first_day..first_day + DAYS).collect();
    let made = Instant::now();
    let codes: Vec<Vec<String>> = days.iter().map(|&day| codes_for(day, PLAYERS)).collect();
    println!(
        "{store_name}: {} codes made in {:.1} s",
        PLAYERS * DAYS as usize,
        made.elapsed().as_secs_f64()
    );
    let address = free_address();
    let mut server = Server::start(&db, &data, address, days[0]).await;
    let tokens = register(address).await;
    let (mut all, mut posting, mut posting_cpu) = (Tally::default(), Duration::ZERO, 0.0);
    for (index, &day) in days.iter().enumerate() {
        if index > 0 {
            server.stop();
            server = Server::start(&db, &data, address, day).await;
        }
        let posts: Vec<Post> = (0..PLAYERS)
            .map(|player| Post {
                day,
                player,
                token: tokens[player].clone(),
                body: format!("{{\"code\": \"{}\"}}", codes[index][player]),
            })
            .collect();
        let (started, cpu_before) = (Instant::now(), cpu_seconds());
        let killing = kill && index == 4;
        let (tally, left) = if killing {
            let alive = Arc::new(Mutex::new(Some(server)));
            let posted = post_all(address, posts, Some((PLAYERS / 2, Arc::clone(&alive)))).await;
            assert!(alive.lock().unwrap().is_none(), "killed");
            server = Server::start(&db, &data, address, day).await;
            posted
        } else {
            post_all(address, posts, None).await
        };
        let slowest = tally.latencies.iter().max().copied().unwrap_or_default();
        println!(
            "  day {}: {} answered 201, slowest {:.1} ms",
            index + 1,
            tally.created.len(),
            slowest.as_secs_f64() * 1000.0
        );
        merge(&mut all, tally);
        if killing {
            println!(
                "killed the server (SIGKILL) with {} of day 5's posts answered 201 and {} in flight \
                 (no answer); started again, they and the rest posted again",
                all.created.len() - 4 * PLAYERS,
                all.failed
            );
            let (tally, _) = post_all(address, left, None).await;
            merge(&mut all, tally);
        }
        posting += started.elapsed();
        posting_cpu += cpu_seconds()
            .zip(cpu_before)
            .map_or(0.0, |(after, before)| after - before);
    }
    report(store_name, &all, posting, posting_cpu);
    server.stop();
    check_durability(&db, &days, &all).await;
    if !args.iter().any(|a| a == "--no-big-day") {
        big_day(&db, &data, address).await;
    }
    let _ = std::fs::remove_dir_all(&data);
}

fn merge(all: &mut Tally, tally: Tally) {
    all.latencies.extend(tally.latencies);
    all.created.extend(tally.created);
    all.refused += tally.refused;
    all.already += tally.already;
    all.failed += tally.failed;
}

/// The posts' latencies and rate, and the CPU the load generator took while posting.
fn report(store: &str, all: &Tally, posting: Duration, posting_cpu: f64) {
    let mut sorted = all.latencies.clone();
    sorted.sort();
    println!(
        "{store}: {} results answered 201 ({} refused, {} failed) by {CLIENTS} clients in {:.2} s: \
         {:.0} results/s; POST latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        all.created.len(),
        all.refused,
        all.failed,
        posting.as_secs_f64(),
        all.created.len() as f64 / posting.as_secs_f64(),
        percentile(&sorted, 0.50),
        percentile(&sorted, 0.99),
        percentile(&sorted, 1.0),
    );
    println!(
        "  the load generator (this process, on the same cores) used {posting_cpu:.2} CPU-s of \
         those {:.2} s",
        posting.as_secs_f64()
    );
}

/// Every result answered 201 is in the database after the run (and the restarts).
async fn check_durability(db: &str, days: &[Day], all: &Tally) {
    let store = Store::open(db).await.unwrap();
    let mut found = 0;
    let mut kept = HashSet::new();
    for &day in days {
        for result in store.day_results(day, 36, false).await.unwrap() {
            found += 1;
            let player: usize = result
                .row
                .name
                .trim_start_matches("Player ")
                .parse()
                .unwrap();
            kept.insert((day, player));
        }
    }
    let missing = all
        .created
        .iter()
        .filter(|posted| !kept.contains(posted))
        .count();
    println!(
        "durability: {} answered 201, {found} found after the restarts, {missing} answered 201 but \
         missing; {} in flight at the kill were committed without an answer (409 when posted again)",
        all.created.len(),
        all.already
    );
    assert_eq!(
        found,
        all.created.len() + all.already,
        "nothing kept twice or unaccounted"
    );
    store.close().await;
    assert_eq!(missing, 0, "a result answered 201 was lost");
}

/// Where a big day's page spends its time, in this process: the query, the ranking, the HTML.
async fn page_parts(store: &Store, day: Day) {
    let daily = DayBoard::make(
        day,
        &engine_options(Some(Path::new("/tmp/snapslide-load-tables"))),
    )
    .unwrap();
    for _ in 0..3 {
        let started = Instant::now();
        let mut results = store.day_results(day, 36, false).await.unwrap();
        let queried = started.elapsed();
        snapslide_server::ranking::rank_in_place(&mut results);
        let ranked = started.elapsed();
        let html = snapslide_server::web::day_page_html(&daily, &results, false).into_string();
        let rendered = started.elapsed();
        println!(
            "  page of {} results in-process: query {:.1} ms, ranking {:.1} ms, HTML {:.1} ms ({} KB)",
            results.len(),
            queried.as_secs_f64() * 1000.0,
            (ranked - queried).as_secs_f64() * 1000.0,
            (rendered - ranked).as_secs_f64() * 1000.0,
            html.len() / 1024
        );
    }
}

/// Keeps a result of `day` for a new player named `Big {index}`, straight in the database.
async fn keep_big_day_result(store: Store, day: Day, index: usize, code: String) {
    let player = Player {
        id: new_player_id(),
        name: format!("Big {index}"),
    };
    let key = player.name.to_lowercase();
    let added = store.add_player(&player, &key, &token_hash(&key), 0).await;
    assert!(added.unwrap());
    let solve = challenge::decode(&code).unwrap();
    let result = NewResult {
        day,
        player_id: player.id,
        moves: solve.moves().len() as i64,
        time_ms: solve.time_ms() as i64,
        code: &code,
        code_hash: &token_hash(&code),
        posted_ms: 0,
    };
    assert!(store.add_result(&result).await.unwrap());
}

/// `GET path`, timed: the ms it took and the body's size.
async fn timed_get(conn: &mut Conn, path: &str) -> (Duration, usize) {
    let started = Instant::now();
    let (status, body) = conn.call("GET", path, None, None).await.unwrap();
    let took = started.elapsed();
    assert_eq!(status, 200);
    (took, body.len())
}

/// A day with 10,000 results (written straight to the database, many at once so that they
/// are committed together); its page and its export fetched first (read whole), 20 times as
/// kept, and then after each of [`LATE_RESULTS`] results posted through the API (made anew).
async fn big_day(db: &str, data: &Path, address: SocketAddr) {
    let day = day_at(Clock::System.now_ms()) - 40;
    let store = Store::open(db).await.unwrap();
    let mut codes = codes_for(day, BIG_DAY_RESULTS + LATE_RESULTS);
    let late = codes.split_off(BIG_DAY_RESULTS);
    let keeping: Vec<_> = (codes.into_iter().enumerate())
        .map(|(index, code)| tokio::spawn(keep_big_day_result(store.clone(), day, index, code)))
        .collect();
    for kept in keeping {
        kept.await.unwrap();
    }
    page_parts(&store, day).await;
    store.close().await;
    let server = Server::start(db, data, address, day).await;
    let mut conn = Conn::open(address).await.unwrap();
    let date = format_date(day);
    let paths = [
        format!("/daily/{date}"),
        format!("/api/daily/{date}/results"),
    ];
    let mut times: [(Duration, Vec<Duration>, Vec<Duration>, usize); 2] = Default::default();
    for (path, (first, _, _, _)) in paths.iter().zip(&mut times) {
        *first = timed_get(&mut conn, path).await.0;
    }
    for (path, (_, kept, _, bytes)) in paths.iter().zip(&mut times) {
        for _ in 0..20 {
            let (took, size) = timed_get(&mut conn, path).await;
            kept.push(took);
            *bytes = size;
        }
    }
    for (index, code) in late.iter().enumerate() {
        let token = register_one(&mut conn, &format!("Late {index}")).await;
        let body = format!("{{\"code\": \"{code}\"}}");
        let posted = conn
            .call(
                "POST",
                &format!("/api/daily/{date}/results"),
                Some(&token),
                Some(&body),
            )
            .await
            .unwrap();
        assert_eq!(posted.0, 201, "{}", String::from_utf8_lossy(&posted.1));
        for (path, (_, _, anew, _)) in paths.iter().zip(&mut times) {
            anew.push(timed_get(&mut conn, path).await.0);
        }
    }
    for (path, (first, kept, anew, bytes)) in paths.iter().zip(&mut times) {
        kept.sort();
        anew.sort();
        println!(
            "GET {path} with {BIG_DAY_RESULTS} results ({} KB): first (read whole) {:.1} ms; \
             kept p50 {:.1} ms, max {:.1} ms; after a new result (made anew) p50 {:.1} ms, max {:.1} ms",
            *bytes / 1024,
            first.as_secs_f64() * 1000.0,
            percentile(kept, 0.5),
            percentile(kept, 1.0),
            percentile(anew, 0.5),
            percentile(anew, 1.0),
        );
    }
    server.stop();
}
