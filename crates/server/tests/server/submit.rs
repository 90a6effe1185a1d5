//! The submit path driven by generated input: whatever body, code or date a client sends,
//! the server answers in its own words with a 4xx or takes the result (201): never a 5xx,
//! never a panic, and a refusal is always `{"error": "<a sentence>"}`. A real solve of
//! today's daily, altered in one character, is among the codes tried, so the decoder and the
//! replay see codes that almost hold, not only noise.

use std::sync::{Arc, OnceLock};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use proptest::prelude::*;
use snapslide_server::app::App;
use snapslide_server::date::format_date;

use crate::support::*;

/// One runtime, one app and one player for every case (the store stays SQLite, in a scratch
/// folder), and a real code of today's daily to alter.
struct Bench {
    runtime: tokio::runtime::Runtime,
    /// The database's scratch folder, kept while the app uses it.
    _db: Db,
    app: Arc<App>,
    token: String,
    code: String,
}

fn bench() -> &'static Bench {
    static BENCH: OnceLock<Bench> = OnceLock::new();
    BENCH.get_or_init(|| {
        let runtime = tokio::runtime::Runtime::new().expect("a runtime");
        let db = Db::sqlite();
        let (app, token) = runtime.block_on(async {
            let app = db.app(0).await;
            let token = player(&app, "Fuzzy").await;
            (app, token)
        });
        let code = solve_of_today(0, 7);
        Bench {
            runtime,
            _db: db,
            app,
            token,
            code,
        }
    })
}

/// Checks an answer is the server's own: a 2xx, or a 4xx with its sentence.
fn answered_in_words(answer: &Answer) -> Result<(), TestCaseError> {
    prop_assert!(
        !answer.status.is_server_error(),
        "{}: {}",
        answer.status,
        answer.text()
    );
    if answer.status.is_client_error() {
        let said = answer.json["error"].as_str().unwrap_or_default();
        prop_assert!(
            said.trim().len() >= 10,
            "a refusal without its sentence: {}",
            answer.text()
        );
    }
    Ok(())
}

/// A body: raw bytes, a JSON value of any shape, or `{"code": …}` with a code near a real one.
fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..600),
        "[ -~]{0,300}".prop_map(|text| format!("{{\"code\": \"{text}\"}}").into_bytes()),
        (any::<prop::sample::Index>(), "[0-9A-Za-z~]").prop_map(|(at, with)| {
            let mut code: Vec<char> = bench().code.chars().collect();
            let at = at.index(code.len());
            code[at] = with.chars().next().unwrap();
            let code: String = code.into_iter().collect();
            format!("{{\"code\": \"{code}\"}}").into_bytes()
        }),
    ]
}

/// A date in the path: today, another day, or text that is no date.
fn date() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(format_date(today())),
        (-400i64..400).prop_map(|days| format_date(today() + days)),
        "[0-9a-z-]{0,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn any_submission_is_answered_in_words_never_by_a_5xx(
        body in body(),
        date in date(),
        with_token in any::<bool>(),
    ) {
        let bench = bench();
        let mut request = Request::post(format!("/api/daily/{date}/results"))
            .header("content-type", "application/json");
        if with_token {
            request = request.header("authorization", format!("Bearer {}", bench.token));
        }
        let sent = String::from_utf8_lossy(&body).into_owned();
        let request = request.body(Body::from(body)).unwrap();
        let answer = bench.runtime.block_on(send(&bench.app, request));
        answered_in_words(&answer).map_err(|e| TestCaseError::fail(format!("{e} for {sent} on {date}")))?;
        if answer.status == StatusCode::CREATED {
            prop_assert!(answer.json["rank"].as_u64().is_some(), "{}", answer.text());
        }
    }
}
