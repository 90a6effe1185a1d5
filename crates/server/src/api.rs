//! The JSON API: thin handlers over plain functions that take the [`App`] and the request's
//! parts, and answer a value or an [`ApiError`].

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use snapslide_game::Day;

use crate::app::App;
use crate::cache::DayRanking;
use crate::check::check_result;
use crate::daily::{DayBoard, unavailable};
use crate::date::{format_date, has_begun, parse_date, takes_results};
use crate::error::ApiError;
use crate::export::{Export, to_csv};
use crate::names::{checked_name, name_key};
use crate::store::{NewResult, Player};
use crate::token::{looks_like_token, new_player_id, new_token, token_hash};

/// A JSON body, refused as the API refuses (415, 413, 400) rather than as axum does.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(json_refusal(&rejection)),
        }
    }
}

/// The API's refusal for a body axum could not read as JSON.
fn json_refusal(rejection: &JsonRejection) -> ApiError {
    match rejection.status() {
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::NotJson,
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge,
        _ => ApiError::BadJson(rejection.body_text()),
    }
}

/// `GET /api/daily/{date}`: the day's board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyInfo {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The start board, row-major, 0 the gap.
    pub tiles: Vec<u8>,
    /// Its shortest solution's length.
    pub optimal: usize,
}

/// `POST /api/players`'s body.
#[derive(Clone, Debug, Deserialize)]
pub struct NewPlayer {
    /// The name asked for.
    pub name: String,
}

/// `POST /api/players`'s answer: the name as kept, and the token, shown this once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerMade {
    /// The name as kept and shown (NFC, trimmed).
    pub player: String,
    /// The token to post with: kept by the player, never by the server.
    pub token: String,
}

/// `POST /api/daily/{date}/results`'s body.
#[derive(Clone, Debug, Deserialize)]
pub struct NewResultBody {
    /// The challenge code (or its link) of the solve.
    pub code: String,
}

/// `POST /api/daily/{date}/results`'s answer: where the result stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Posted {
    /// Its rank that day.
    pub rank: u64,
    /// The results that day, this one included.
    pub of: u64,
    /// Its moves.
    pub moves: u64,
    /// The day's shortest solution.
    pub optimal: u64,
    /// Its time, ms.
    pub time_ms: u64,
}

/// The day of `date` whose board is out somewhere.
///
/// # Errors
///
/// [`ApiError::BadDate`], or [`ApiError::NotYet`] for a day not begun anywhere.
pub fn day_out(app: &App, date: &str) -> Result<Day, ApiError> {
    let day = parse_date(date).ok_or_else(|| ApiError::BadDate(date.chars().take(40).collect()))?;
    if has_begun(day, app.clock.now_ms()) {
        Ok(day)
    } else {
        Err(ApiError::NotYet(format_date(day)))
    }
}

/// The day's board.
///
/// # Errors
///
/// As [`day_out`], and [`ApiError::Unavailable`] when the engine fails.
pub async fn daily_info(app: &App, date: &str) -> Result<DailyInfo, ApiError> {
    let daily = app.dailies.board(day_out(app, date)?).await?;
    Ok(DailyInfo {
        date: format_date(daily.day),
        width: daily.board.width(),
        height: daily.board.height(),
        tiles: daily.board.tiles().to_vec(),
        optimal: daily.optimal,
    })
}

/// Makes a player of `name` and gives them a token (kept only as its hash).
///
/// # Errors
///
/// [`ApiError::BadName`], [`ApiError::NameTaken`], [`ApiError::Unavailable`].
pub async fn register(app: &App, name: &str) -> Result<PlayerMade, ApiError> {
    let name = checked_name(name).ok_or(ApiError::BadName)?;
    let token = new_token();
    let player = Player {
        id: new_player_id(),
        name,
    };
    let now = app.clock.now_ms();
    let added = (app.store)
        .add_player(&player, &name_key(&player.name), &token_hash(&token), now)
        .await
        .map_err(database)?;
    if !added {
        return Err(ApiError::NameTaken(player.name));
    }
    tracing::info!(player = %player.name, "player made");
    Ok(PlayerMade {
        player: player.name,
        token,
    })
}

/// The player an `Authorization: Bearer TOKEN` header names.
///
/// # Errors
///
/// [`ApiError::Unauthorized`] without one or for an unknown token; [`ApiError::Unavailable`].
pub async fn player_of(app: &App, authorization: Option<&str>) -> Result<Player, ApiError> {
    let token = authorization
        .and_then(|value| value.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .filter(|token| looks_like_token(token))
        .ok_or(ApiError::Unauthorized)?;
    (app.store.player_by_token(&token_hash(token)).await)
        .map_err(database)?
        .ok_or(ApiError::Unauthorized)
}

/// Posts a player's result of a day: the token's player, the day open, the first result, and
/// the code replayed against the day's daily; then where it stands.
///
/// # Errors
///
/// [`ApiError::Unauthorized`], [`ApiError::BadDate`], [`ApiError::DayClosed`],
/// [`ApiError::AlreadyPosted`], [`ApiError::Refused`] (with the reason),
/// [`ApiError::Unavailable`].
pub async fn submit(
    app: &App,
    date: &str,
    authorization: Option<&str>,
    code: &str,
) -> Result<Posted, ApiError> {
    let player = player_of(app, authorization).await?;
    let day = parse_date(date).ok_or_else(|| ApiError::BadDate(date.chars().take(40).collect()))?;
    let now = app.clock.now_ms();
    if !takes_results(day, now) {
        return Err(ApiError::DayClosed(format_date(day)));
    }
    if app
        .store
        .has_result(day, player.id)
        .await
        .map_err(database)?
    {
        return Err(ApiError::AlreadyPosted(format_date(day)));
    }
    let daily = app.dailies.board(day).await?;
    let checked = check_result(code, &daily)?;
    let kept_code = checked.challenge.code();
    let code_hash = token_hash(kept_code);
    if app
        .store
        .has_code(day, &code_hash)
        .await
        .map_err(database)?
    {
        return Err(ApiError::SolveTaken);
    }
    let result = NewResult {
        day,
        player_id: player.id,
        moves: checked.moves as i64,
        time_ms: checked.time_ms as i64,
        code: kept_code,
        code_hash: &code_hash,
        posted_ms: now,
    };
    if !app.store.add_result(&result).await.map_err(database)? {
        return Err(ApiError::AlreadyPosted(format_date(day)));
    }
    let (rank, of) = (app.store)
        .standing(day, result.time_ms, result.moves)
        .await
        .map_err(database)?;
    tracing::info!(date = %format_date(day), player = %player.name, moves = checked.moves,
        time_ms = checked.time_ms, rank, of, "result posted");
    Ok(Posted {
        rank,
        of,
        moves: checked.moves as u64,
        optimal: daily.optimal as u64,
        time_ms: checked.time_ms,
    })
}

/// A day's results, ranked, with who made each (and each code, `with_codes`): the ranking
/// this server kept for the day with the results kept since merged in, or read whole.
///
/// # Errors
///
/// [`ApiError::Unavailable`] when the database fails.
pub async fn ranked_results(
    app: &App,
    daily: &DayBoard,
    with_codes: bool,
) -> Result<Arc<DayRanking>, ApiError> {
    let name = format!("ranking {} {with_codes}", format_date(daily.day));
    let mut ranking = None;
    if let Some((_, kept)) = app.rankings.latest(&name) {
        ranking = brought_up_to_date(app, daily, with_codes, kept).await?;
    }
    let ranking = match ranking {
        Some(ranking) => ranking,
        None => {
            let rows = (app.store)
                .day_rows_after(daily.day, daily.optimal as u64, with_codes, -1)
                .await
                .map_err(database)?;
            Arc::new(DayRanking::new(rows))
        }
    };
    let count = ranking.results.len() as u64;
    app.rankings.put(name, count, Arc::clone(&ranking));
    Ok(ranking)
}

/// A kept ranking with the day's results numbered past it merged in; `None` when they are
/// not all of the day's results (a number given twice, by servers writing at once), so the
/// day must be read whole.
///
/// # Errors
///
/// [`ApiError::Unavailable`] when the database fails.
async fn brought_up_to_date(
    app: &App,
    daily: &DayBoard,
    with_codes: bool,
    kept: Arc<DayRanking>,
) -> Result<Option<Arc<DayRanking>>, ApiError> {
    let newer = (app.store)
        .day_rows_after(daily.day, daily.optimal as u64, with_codes, kept.last_seq)
        .await
        .map_err(database)?;
    // Counted after the rows were read, so the count includes every result kept or read:
    // when it is their number, they are the day's results, each once.
    let count = app.store.count_results(daily.day).await.map_err(database)?;
    if (kept.results.len() + newer.results.len()) as u64 != count {
        return Ok(None);
    }
    if newer.results.is_empty() {
        return Ok(Some(kept));
    }
    Ok(Some(Arc::new(kept.merged(newer))))
}

/// A day's whole board, as exported.
///
/// # Errors
///
/// As [`day_out`], and [`ApiError::Unavailable`].
pub async fn export(app: &App, date: &str) -> Result<Export, ApiError> {
    let daily = app.dailies.board(day_out(app, date)?).await?;
    let ranking = ranked_results(app, &daily, true).await?;
    Ok(Export {
        date: format_date(daily.day),
        width: daily.board.width(),
        height: daily.board.height(),
        tiles: daily.board.tiles().to_vec(),
        optimal: daily.optimal as u64,
        results: (ranking.results.iter())
            .map(|result| result.row.clone())
            .collect(),
    })
}

/// What was made under `name` from the results of `day`, kept while their count is the same,
/// or made now by `make` (which answers the count of results it was made from, and the bytes).
///
/// # Errors
///
/// [`ApiError::Unavailable`] when the database fails, and `make`'s errors.
pub async fn made_from_results(
    app: &App,
    name: String,
    day: Day,
    make: impl AsyncFnOnce() -> Result<(u64, Bytes), ApiError>,
) -> Result<Bytes, ApiError> {
    let count = app.store.count_results(day).await.map_err(database)?;
    if let Some(kept) = app.made.get(&name, count) {
        return Ok(kept);
    }
    let (count, bytes) = make().await?;
    app.made.put(name, count, bytes.clone());
    Ok(bytes)
}

/// A day's export as JSON or CSV bytes, kept while its results are the same.
///
/// # Errors
///
/// As [`export`].
pub async fn export_bytes(app: &App, date: &str, csv: bool) -> Result<Bytes, ApiError> {
    let day = day_out(app, date)?;
    let name = format!("{} {}", if csv { "csv" } else { "json" }, format_date(day));
    made_from_results(app, name, day, async || {
        let export = export(app, date).await?;
        let bytes = if csv {
            Bytes::from(to_csv(&export))
        } else {
            Bytes::from(serde_json::to_vec(&export).map_err(|e| unavailable("JSON", &e))?)
        };
        Ok((export.results.len() as u64, bytes))
    })
    .await
}

/// Logs a database failure and answers it as [`ApiError::Unavailable`].
pub fn database(error: sqlx::Error) -> ApiError {
    unavailable("the database failed", &error)
}

/// `GET /api/daily/{date}`.
///
/// # Errors
///
/// As [`daily_info`].
pub async fn get_daily(
    State(app): State<Arc<App>>,
    Path(date): Path<String>,
) -> Result<Json<DailyInfo>, ApiError> {
    daily_info(&app, &date).await.map(Json)
}

/// `POST /api/players`: 201 with the name and token.
///
/// # Errors
///
/// As [`JsonBody`] and [`register`].
pub async fn post_player(
    State(app): State<Arc<App>>,
    JsonBody(body): JsonBody<NewPlayer>,
) -> Result<(StatusCode, Json<PlayerMade>), ApiError> {
    let made = register(&app, &body.name).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// `POST /api/daily/{date}/results`: 201 with where the result stands.
///
/// # Errors
///
/// As [`JsonBody`] and [`submit`].
pub async fn post_result(
    State(app): State<Arc<App>>,
    Path(date): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<NewResultBody>,
) -> Result<(StatusCode, Json<Posted>), ApiError> {
    let authorization = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok());
    let posted = submit(&app, &date, authorization, &body.code).await?;
    Ok((StatusCode::CREATED, Json(posted)))
}

/// `GET /api/daily/{date}/results`.
///
/// # Errors
///
/// As [`export_bytes`].
pub async fn get_results(
    State(app): State<Arc<App>>,
    Path(date): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let bytes = export_bytes(&app, &date, false).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], bytes))
}

/// `GET /api/daily/{date}/results.csv`.
///
/// # Errors
///
/// As [`export_bytes`].
pub async fn get_results_csv(
    State(app): State<Arc<App>>,
    Path(date): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let bytes = export_bytes(&app, &date, true).await?;
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8")], bytes))
}

/// `GET /health`: 200 while the database answers.
///
/// # Errors
///
/// [`ApiError::Unavailable`] (503) when it does not.
pub async fn health(State(app): State<Arc<App>>) -> Result<Json<serde_json::Value>, ApiError> {
    app.store.ping().await.map_err(database)?;
    Ok(Json(serde_json::json!({ "ok": true })))
}

/// `GET /version`: the server's name and version.
pub async fn version() -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "name": env!("CARGO_PKG_NAME"),
        "version": env!("CARGO_PKG_VERSION"),
    }))
}
