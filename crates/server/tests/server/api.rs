//! The API driven through its real router against SQLite, and against PostgreSQL when
//! `SNAPSLIDE_TEST_POSTGRES` names a server (each test makes its own database there): every
//! refusal, the 201 path with real solves of today's daily, the token kept only as its hash,
//! names unique without regard to case or composition.

use crate::support::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use challenge::Challenge;
use npuzzle::Move;
use serde_json::json;
use snapslide_server::App;
use snapslide_server::date::format_date;
use sqlx::{AnyPool, Row};
use std::sync::Arc;

/// Runs a scenario against SQLite, and against PostgreSQL when one is given.
macro_rules! on_both_stores {
    ($($scenario:ident),* $(,)?) => {$(
        mod $scenario {
            #[tokio::test]
            async fn sqlite() {
                super::$scenario(&super::Db::sqlite()).await;
            }

            #[tokio::test]
            async fn postgres() {
                if let Some(db) = super::Db::postgres(stringify!($scenario)).await {
                    super::$scenario(&db).await;
                }
            }
        }
    )*};
}

on_both_stores!(
    a_solve_of_todays_daily_is_ranked_and_a_second_is_refused,
    a_post_without_a_players_token_is_401,
    each_result_that_does_not_stand_up_is_refused_with_its_reason,
    a_result_outside_its_day_anywhere_on_earth_is_refused,
    bodies_that_are_not_the_json_asked_for_are_refused,
    names_are_unique_without_regard_to_case_or_composition,
    the_token_is_kept_only_as_its_hash,
    posts_past_the_limit_are_429_with_retry_after,
    the_days_results_are_open_data_that_verify_holds,
    the_daily_is_the_apps_and_dates_are_checked,
    of_one_players_posts_at_the_same_moment_exactly_one_counts,
    a_servers_kept_ranking_brought_up_to_date_is_the_ranking_made_from_scratch,
);

async fn a_solve_of_todays_daily_is_ranked_and_a_second_is_refused(db: &Db) {
    let app = db.app(0).await;
    let date = format_date(today());
    let ann = player(&app, "Ann").await;
    let posted = post_code(&app, &date, &solve_of_today(0, 1), &ann).await;
    assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text());
    assert_eq!(posted.json["rank"], 1);
    assert_eq!(posted.json["of"], 1);
    assert_eq!(posted.json["moves"], 36);
    assert_eq!(posted.json["optimal"], 36);
    assert!(posted.json["time_ms"].as_u64().unwrap() > 5_000);
    // The first counts, as in Wordle.
    let again = post_code(&app, &date, &solve_of_today(1, 2), &ann).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text());
    assert!(
        again.error().contains("first one counts"),
        "{}",
        again.error()
    );
    // Someone else's solve is theirs.
    let bob = player(&app, "Bob").await;
    let copied = post_code(&app, &date, &solve_of_today(0, 1), &bob).await;
    assert_eq!(copied.status, StatusCode::CONFLICT, "{}", copied.text());
    // Bob's own, slower and longer: second of two.
    let slower = post_code(&app, &date, &solve_of_today(3, 9), &bob).await;
    assert_eq!(slower.status, StatusCode::CREATED, "{}", slower.text());
    assert_eq!(
        (slower.json["rank"].as_u64(), slower.json["of"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(slower.json["moves"], 42);
}

async fn a_post_without_a_players_token_is_401(db: &Db) {
    let app = db.app(0).await;
    let path = format!("/api/daily/{}/results", format_date(today()));
    let body = json!({ "code": solve_of_today(0, 3) });
    let unknown = "ab".repeat(32);
    for token in [None, Some("nonsense"), Some(unknown.as_str())] {
        let answer = post_json(&app, &path, &body, token).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert_eq!(answer.headers["www-authenticate"], "Bearer");
        assert!(answer.error().contains("token"), "{}", answer.error());
    }
    let wrong_scheme = Request::post(&path)
        .header("content-type", "application/json")
        .header("authorization", format!("Basic {unknown}"))
        .body(Body::from(body.to_string()))
        .unwrap();
    assert_eq!(
        send(&app, wrong_scheme).await.status,
        StatusCode::UNAUTHORIZED
    );
}

/// A solve of today's daily with its last move turned back: the code's check passes, its moves
/// do not solve the board.
fn unsolved_code() -> String {
    let code = solve_of_today(0, 4);
    let mut input = challenge::fuzzing::unseal(&code).unwrap();
    // 3 + 4 + 4 bits, the board's 45, the move count's 7 (36 moves): move 36 at bits 133–134.
    let bit = 63 + 2 * 35 + 1;
    input[1 + bit / 8] ^= 0x80 >> (bit % 8);
    let sealed = challenge::fuzzing::seal(&input);
    assert_eq!(
        challenge::decode(&sealed),
        Err(challenge::CodeError::NotSolved)
    );
    sealed
}

/// Today's shortest solve whose first 12 moves come 25 ms apart (11 slides in 275 ms), the
/// rest 300 ms apart: too fast for the server's 10 slides, not for the code's 30 moves.
fn solve_with_a_burst() -> String {
    let (daily, solution) = daily_and_solution(today());
    let times: Vec<u64> = (0..solution.len() as u64)
        .map(|i| if i < 12 { i * 25 } else { 275 + (i - 11) * 300 })
        .collect();
    code_of(&daily.board, solution, times)
}

/// The payload bits of a code (before its check), and a code sealed from payload bits.
fn payload_bits(code: &str) -> Vec<bool> {
    let input = challenge::fuzzing::unseal(code).unwrap();
    let count = (input.len() - 1) * 8 - usize::from(input[0]);
    (0..count)
        .map(|i| input[1 + i / 8] >> (7 - i % 8) & 1 == 1)
        .collect()
}

fn sealed(bits: &[bool]) -> String {
    let mut input = vec![((8 - bits.len() % 8) % 8) as u8];
    for chunk in bits.chunks(8) {
        input.push((0..8).fold(0u8, |byte, i| {
            byte << 1 | u8::from(chunk.get(i) == Some(&true))
        }));
    }
    challenge::fuzzing::seal(&input)
}

/// Today's shortest solve, moves 34 ms apart (a pace a person keeps over any 10), with its
/// total written as the last move's time: 36 slides in 1.19 s, over 30 a second.
fn solve_too_fast_overall() -> String {
    let (daily, solution) = daily_and_solution(today());
    let times: Vec<u64> = (0..36).map(|i| i * 34).collect();
    let code = code_of(&daily.board, solution, times);
    // The fields before the total: 3 + 4 + 4 + 45 + 7 bits, 72 of moves, the times' flag and
    // 36 times of 9 bits; then the total less the last time, now 0 (order-8 Golomb: 1 and 8 zeros).
    let mut bits = payload_bits(&code)[..460].to_vec();
    bits.extend([true, false, false, false, false, false, false, false, false]);
    let too_fast = sealed(&bits);
    assert_eq!(
        challenge::decode(&too_fast),
        Err(challenge::CodeError::TooFast)
    );
    too_fast
}

async fn each_result_that_does_not_stand_up_is_refused_with_its_reason(db: &Db) {
    let app = db.app(0).await;
    let date = format_date(today());
    let token = player(&app, "Refused").await;
    let (daily, solution) = daily_and_solution(today());
    let (yesterday, yesterdays_solution) = daily_and_solution(today() - 1);
    let goal_first = Move::ALL
        .into_iter()
        .find(|&mv| npuzzle::Board::goal(4, 4).unwrap().can_move(mv))
        .unwrap();
    let after_the_win: Vec<Move> =
        [solution.clone(), vec![goal_first, goal_first.inverse()]].concat();
    let without_times =
        Challenge::new(daily.board.clone(), solution.clone(), 20_000, None).unwrap();
    let cases: Vec<(&str, String, &str)> = vec![
        ("not a code", "HELLO-WORLD".into(), "damaged"),
        ("empty", String::new(), "no challenge code"),
        (
            "another day's board",
            code_of(
                &yesterday.board,
                yesterdays_solution,
                human_times(36, 300, 5),
            ),
            "not of that day's daily",
        ),
        (
            "moves that do not solve it",
            unsolved_code(),
            "do not solve",
        ),
        (
            "moves after the win",
            code_of(&daily.board, after_the_win, human_times(38, 300, 6)),
            "after the board is solved",
        ),
        (
            "no move times",
            without_times.code().to_string(),
            "no move times",
        ),
        (
            "10 slides in a third of a second",
            solve_with_a_burst(),
            "over 30 slides a second",
        ),
        (
            "a total under slides / 30 s",
            solve_too_fast_overall(),
            "faster than any person",
        ),
    ];
    for (what, code, reason) in cases {
        let answer = post_code(&app, &date, &code, &token).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{what}: {}",
            answer.text()
        );
        assert!(
            answer.error().contains(reason),
            "{what}: {}",
            answer.error()
        );
    }
    // Times that go backwards cannot be written in a code (each move's time is the time since
    // the one before); the server's own check of them is a unit test of `check`.
    let fine = post_code(&app, &date, &solve_of_today(0, 7), &token).await;
    assert_eq!(
        fine.status,
        StatusCode::CREATED,
        "refusals leave the day open: {}",
        fine.text()
    );
}

async fn a_result_outside_its_day_anywhere_on_earth_is_refused(db: &Db) {
    let app = db.app(0).await;
    let token = player(&app, "Late").await;
    let code = solve_of_today(0, 8);
    for day in [today() - 2, today() + 2] {
        let answer = post_code(&app, &format_date(day), &code, &token).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text()
        );
        assert!(answer.error().contains("closed"), "{}", answer.error());
    }
    for bad in ["2026-02-30", "yesterday", "2026-12-7"] {
        let answer = post_code(&app, bad, &code, &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(answer.error().contains("YYYY-MM-DD"), "{}", answer.error());
    }
}

async fn bodies_that_are_not_the_json_asked_for_are_refused(db: &Db) {
    let app = db.app(0).await;
    let raw = |content_type: &str, body: String| {
        Request::post("/api/players")
            .header("content-type", content_type)
            .body(Body::from(body))
            .unwrap()
    };
    let cases = [
        (
            raw("application/json", "{\"name\": ".into()),
            StatusCode::BAD_REQUEST,
        ),
        (
            raw("application/json", "{\"nom\": \"Ann\"}".into()),
            StatusCode::BAD_REQUEST,
        ),
        (
            raw("application/json", "[1, 2]".into()),
            StatusCode::BAD_REQUEST,
        ),
        (
            raw("text/plain", "{\"name\": \"Ann\"}".into()),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            raw(
                "application/json",
                format!("{{\"name\": \"{}\"}}", "a".repeat(5_000)),
            ),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
    ];
    for (request, status) in cases {
        let answer = send(&app, request).await;
        assert_eq!(answer.status, status, "{}", answer.text());
        assert!(!answer.error().is_empty(), "a sentence: {}", answer.text());
    }
    let unsent = send(
        &app,
        Request::post("/api/players").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(unsent.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        get(&app, "/api/nothing").await.status,
        StatusCode::NOT_FOUND
    );
    let put = Request::put("/api/players").body(Body::empty()).unwrap();
    assert_eq!(send(&app, put).await.status, StatusCode::METHOD_NOT_ALLOWED);
}

async fn names_are_unique_without_regard_to_case_or_composition(db: &Db) {
    let app = db.app(0).await;
    let made = post_json(&app, "/api/players", &json!({ "name": " Zo\u{eb} " }), None).await;
    assert_eq!(made.status, StatusCode::CREATED);
    assert_eq!(made.json["player"], "Zo\u{eb}");
    for taken in ["zo\u{eb}", "ZOE\u{308}", "Zoe\u{308}"] {
        let answer = post_json(&app, "/api/players", &json!({ "name": taken }), None).await;
        assert_eq!(answer.status, StatusCode::CONFLICT, "{taken:?}");
        assert!(answer.error().contains("taken"), "{}", answer.error());
    }
    for bad in ["", "<b>", &"x".repeat(25), "-dash", "a/b"] {
        let answer = post_json(&app, "/api/players", &json!({ "name": bad }), None).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad:?}");
    }
    let other = post_json(&app, "/api/players", &json!({ "name": "Zoe" }), None).await;
    assert_eq!(other.status, StatusCode::CREATED, "Zoe is not Zoë");
}

async fn the_token_is_kept_only_as_its_hash(db: &Db) {
    let app = db.app(0).await;
    let token = player(&app, "Secret").await;
    assert_eq!(token.len(), 64, "256 bits");
    let pool = AnyPool::connect(&db.url).await.unwrap();
    let rows = sqlx::query("SELECT name, name_key, token_hash FROM players")
        .fetch_all(&pool)
        .await
        .unwrap();
    let kept: Vec<String> = rows
        .iter()
        .flat_map(|row| (0..3).map(|i| row.get::<String, _>(i)))
        .collect();
    pool.close().await;
    assert!(kept.contains(&snapslide_server::token::token_hash(&token)));
    assert!(kept.iter().all(|value| !value.contains(&token)), "{kept:?}");
    if db.is_sqlite() {
        let disk = bytes_under(&db.scratch.0);
        let found = disk.windows(token.len()).any(|w| w == token.as_bytes());
        assert!(!found, "the token is nowhere on disk");
    }
}

async fn posts_past_the_limit_are_429_with_retry_after(db: &Db) {
    let app = db.app(2).await;
    player(&app, "One").await;
    player(&app, "Two").await;
    let third = post_json(&app, "/api/players", &json!({ "name": "Three" }), None).await;
    assert_eq!(third.status, StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = third.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=30).contains(&wait), "{wait}");
    assert!(third.error().contains("try again"), "{}", third.error());
    assert_eq!(
        get(&app, "/health").await.status,
        StatusCode::OK,
        "reads are not limited"
    );
}

async fn the_days_results_are_open_data_that_verify_holds(db: &Db) {
    let app = db.app(0).await;
    let date = format_date(today());
    for (name, detours, seed) in [("Cat", 0, 11), ("Dee", 2, 12), ("Eve", 1, 13)] {
        let token = player(&app, name).await;
        let posted = post_code(&app, &date, &solve_of_today(detours, seed), &token).await;
        assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text());
    }
    let export = get(&app, &format!("/api/daily/{date}/results")).await;
    assert_eq!(export.status, StatusCode::OK);
    let export: snapslide_server::export::Export = serde_json::from_value(export.json).unwrap();
    assert_eq!(export.results.len(), 3);
    let ranks: Vec<u64> = export.results.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, [1, 2, 3]);
    assert!(
        export
            .results
            .windows(2)
            .all(|w| w[0].time_ms <= w[1].time_ms)
    );
    assert!(snapslide_server::verify::differences(&export, &options()).is_empty());
    let csv = get(&app, &format!("/api/daily/{date}/results.csv")).await;
    assert_eq!(csv.headers["content-type"], "text/csv; charset=utf-8");
    assert_eq!(
        snapslide_server::export::from_csv(&csv.text())
            .unwrap()
            .results,
        export.results
    );
}

async fn the_daily_is_the_apps_and_dates_are_checked(db: &Db) {
    let app = db.app(0).await;
    // The board the app deals (src/newgame.rs): its recipe, from the day's seed.
    let puzzle = snapslide_game::DailyPuzzle::of(today(), snapslide_game::DAILY_PHOTOS.len());
    let recipe = snapslide_game::Recipe::Exact(snapslide_game::DAILY_DISTANCE);
    let shape = snapslide_game::DailyPuzzle::shape();
    let apps = snapslide_game::make_board(shape, recipe, puzzle.seed, &options()).unwrap();
    let answer = get(&app, &format!("/api/daily/{}", format_date(today()))).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json["tiles"], json!(apps.tiles()));
    assert_eq!(
        (
            answer.json["width"].as_u64(),
            answer.json["optimal"].as_u64()
        ),
        (Some(4), Some(36))
    );
    let future = get(&app, &format!("/api/daily/{}", format_date(today() + 3))).await;
    assert_eq!(future.status, StatusCode::NOT_FOUND);
    assert_eq!(
        get(&app, "/api/daily/2026-13-01").await.status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(get(&app, "/health").await.json["ok"], true);
    assert_eq!(
        get(&app, "/version").await.json["version"],
        env!("CARGO_PKG_VERSION")
    );
}

async fn of_one_players_posts_at_the_same_moment_exactly_one_counts(db: &Db) {
    let app = db.app(0).await;
    let date = format_date(today());
    let token = player(&app, "Twice").await;
    let posts = (0..8u64).map(|seed| {
        let (app, date, token) = (app.clone(), date.clone(), token.clone());
        tokio::spawn(async move {
            post_code(&app, &date, &solve_of_today(1, 40 + seed), &token)
                .await
                .status
        })
    });
    let mut statuses = Vec::new();
    for post in posts {
        statuses.push(post.await.unwrap());
    }
    let created = statuses
        .iter()
        .filter(|&&s| s == StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "{statuses:?}");
    assert!(
        statuses
            .iter()
            .all(|&s| s == StatusCode::CREATED || s == StatusCode::CONFLICT)
    );
    let export = get(&app, &format!("/api/daily/{date}/results")).await;
    assert_eq!(export.json["results"].as_array().unwrap().len(), 1);
    // Past the server's own check, the database keeps one result a player a day.
    let hash = snapslide_server::token::token_hash(&token);
    let player = app.store.player_by_token(&hash).await.unwrap().unwrap();
    let code = solve_of_today(2, 99);
    let again = snapslide_server::store::NewResult {
        day: today(),
        player_id: player.id,
        moves: 40,
        time_ms: 20_000,
        code: &code,
        code_hash: &snapslide_server::token::token_hash(&code),
        posted_ms: 0,
    };
    assert!(
        !app.store.add_result(&again).await.unwrap(),
        "the first counts"
    );
}

/// The day's page, JSON export and CSV export as a server serves them.
async fn day_as_served(app: &Arc<App>, date: &str) -> [String; 3] {
    let paths = [
        format!("/daily/{date}"),
        format!("/api/daily/{date}/results"),
        format!("/api/daily/{date}/results.csv"),
    ];
    let mut served = [String::new(), String::new(), String::new()];
    for (path, text) in paths.iter().zip(&mut served) {
        let answer = get(app, path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        *text = answer.text();
    }
    served
}

async fn a_servers_kept_ranking_brought_up_to_date_is_the_ranking_made_from_scratch(db: &Db) {
    let (kept, other) = (db.app(0).await, db.app(0).await);
    let date = format_date(today());
    let post = async |app: &Arc<App>, name: &str, detours: usize, seed: u64| {
        let token = player(app, name).await;
        let posted = post_code(app, &date, &solve_of_today(detours, seed), &token).await;
        assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text());
    };
    post(&kept, "Ann", 2, 31).await;
    post(&kept, "Bob", 1, 32).await;
    let before = day_as_served(&kept, &date).await;
    assert!(before[0].contains("2 results"), "{}", before[0]);
    // Another server on the database takes results that rank above, between and below.
    post(&other, "Cy", 0, 33).await;
    post(&other, "Dee", 3, 34).await;
    post(&kept, "Eve", 1, 35).await;
    let from_scratch = day_as_served(&db.app(0).await, &date).await;
    assert!(from_scratch[0].contains("5 results"), "{}", from_scratch[0]);
    assert_eq!(day_as_served(&kept, &date).await, from_scratch);
    // Two servers writing at once may give two results one number: the one numbered below
    // the kept ranking's newest is found all the same.
    post(&other, "Fay", 0, 36).await;
    let pool = AnyPool::connect(&db.url).await.unwrap();
    let fay = "(SELECT id FROM players WHERE name = 'Fay')";
    sqlx::query(&format!(
        "UPDATE results SET seq = 1 WHERE player_id = {fay}"
    ))
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let from_scratch = day_as_served(&db.app(0).await, &date).await;
    assert!(from_scratch[0].contains("6 results"), "{}", from_scratch[0]);
    assert_eq!(day_as_served(&kept, &date).await, from_scratch);
}
