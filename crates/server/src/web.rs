//! The page: a day's board and photo, and its ranking as a table whose rows open each solve's
//! replay GIF. Server-rendered HTML and CSS, no script; maud escapes every name.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use maud::{DOCTYPE, Markup, PreEscaped, html};
use snapslide_game::Day;

use crate::api::{database, day_out, made_from_results, ranked_results};
use crate::app::App;
use crate::daily::DayBoard;
use crate::date::{day_at, format_date, has_begun, long_date};
use crate::error::ApiError;
use crate::images::PICTURE_SIDE;
use crate::ranking::time_text;
use crate::store::DayResult;

/// The page's style: one column, readable from a 360-px phone up.
const STYLE: &str = "
:root { color-scheme: light dark; --line: #8884; --dim: #777; --accent: #2a6fdb; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
main { max-width: 44rem; margin: 0 auto; padding: 0.75rem; }
h1 { font-size: 1.35rem; margin: 0.25rem 0; }
h2 { font-size: 1.15rem; margin: 1.25rem 0 0.25rem; }
nav { display: flex; justify-content: space-between; gap: 0.5rem; margin: 0.5rem 0; }
a { color: var(--accent); }
.dim { color: var(--dim); font-size: 0.9rem; }
.pictures { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 0.75rem; margin: 0.5rem 0; }
.pictures figure { margin: 0; }
.board img { width: min(100%, 30rem); height: auto; display: block; border-radius: 4px; }
.board { flex: 1 1 16rem; }
.photo img { width: 6rem; height: auto; display: block; border-radius: 4px; }
figcaption { font-size: 0.85rem; color: var(--dim); }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 0.35rem 0.3rem; border-bottom: 1px solid var(--line); text-align: right;
  white-space: nowrap; }
th { font-size: 0.85rem; color: var(--dim); font-weight: 600; }
th.name, td.name { text-align: left; overflow-wrap: anywhere; white-space: normal; width: 100%; }
td.name a { text-decoration: none; }
td.name a::after { content: ' ▶'; font-size: 0.75em; }
footer { margin: 1.5rem 0 1rem; }
";

/// `GET /`: today's page (the day in UTC, as the app's).
pub async fn today(State(app): State<Arc<App>>) -> Response {
    let day = day_at(app.clock.now_ms());
    page_or_error(day_page_markup(&app, &format_date(day)).await)
}

/// `GET /daily/{date}`.
pub async fn day_page(State(app): State<Arc<App>>, Path(date): Path<String>) -> Response {
    page_or_error(day_page_markup(&app, &date).await)
}

/// `GET /daily/{date}/board.png`: the day's board with its photo's tiles.
pub async fn board_png(State(app): State<Arc<App>>, Path(date): Path<String>) -> Response {
    let made = async {
        let daily = app.dailies.board(day_out(&app, &date)?).await?;
        app.images.board_png(&daily).await
    };
    picture_or_error(made.await, "image/png")
}

/// `GET /daily/{date}/photo.png`: the day's photo whole, small.
pub async fn photo_png(State(app): State<Arc<App>>, Path(date): Path<String>) -> Response {
    let made = async {
        let daily = app.dailies.board(day_out(&app, &date)?).await?;
        app.images.photo_png(&daily).await
    };
    picture_or_error(made.await, "image/png")
}

/// `GET /daily/{date}/replays/{player}.gif`: a result's replay, made once.
pub async fn replay_gif(
    State(app): State<Arc<App>>,
    Path((date, file)): Path<(String, String)>,
) -> Response {
    let made = async {
        let daily = app.dailies.board(day_out(&app, &date)?).await?;
        let player_id: i64 = (file.strip_suffix(".gif"))
            .and_then(|id| id.parse().ok())
            .ok_or(ApiError::NotFound)?;
        let code = (app.store.result_code(daily.day, player_id).await)
            .map_err(database)?
            .ok_or(ApiError::NotFound)?;
        // Checked when posted: a code that no longer decodes is not served.
        let solve = challenge::decode(&code).map_err(|_| ApiError::NotFound)?;
        app.images.replay(&daily, player_id, solve).await
    };
    picture_or_error(made.await, "image/gif")
}

/// A picture's bytes (kept a year by browsers: a day's pictures never change), or the error.
fn picture_or_error(made: Result<Vec<u8>, ApiError>, kind: &'static str) -> Response {
    match made {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, kind),
                (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
            ],
            bytes,
        )
            .into_response(),
        Err(error) => error.into_response(),
    }
}

/// The page of `date`: its board and its ranking, kept while its results are the same.
async fn day_page_markup(app: &App, date: &str) -> Result<Bytes, ApiError> {
    let daily = app.dailies.board(day_out(app, date)?).await?;
    let next_out = has_begun(daily.day + 1, app.clock.now_ms());
    let name = format!("page {} {next_out}", format_date(daily.day));
    made_from_results(app, name, daily.day, async || {
        let ranking = ranked_results(app, &daily, false).await?;
        let html = day_page_html(&daily, &ranking.results, next_out).into_string();
        Ok((ranking.results.len() as u64, Bytes::from(html)))
    })
    .await
}

/// A page, or the error as a page with its status.
fn page_or_error(page: Result<Bytes, ApiError>) -> Response {
    match page {
        Ok(html) => ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response(),
        Err(error) => {
            let status = error.status();
            let body = layout(
                "Snapslide daily",
                html! {
                    h1 { "Snapslide daily" }
                    p { (error.to_string()) "." }
                    p { a href="/" { "Today's board" } }
                },
            );
            (status, Html(body.into_string())).into_response()
        }
    }
}

/// The document around a page's content.
fn layout(title: &str, content: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body { main { (content) } }
        }
    }
}

/// The page of a day: the board and photo, the ranking, the open data.
pub fn day_page_html(daily: &DayBoard, results: &[DayResult], next_out: bool) -> Markup {
    let date = format_date(daily.day);
    layout(
        &format!("Snapslide daily · {date}"),
        html! {
            h1 { "Snapslide daily" }
            p.dim { (long_date(daily.day)) " · " (daily.board.width()) "×" (daily.board.height())
                " · the shortest solve is " (daily.optimal) " moves" }
            (day_links(daily.day, next_out))
            (pictures(daily))
            h2 { "Ranking" }
            (ranking(daily, results))
            footer.dim {
                "Open data, re-checked by anyone with " code { "snapslide-server verify" } ": "
                a href={ "/api/daily/" (date) "/results" } { "results.json" } " · "
                a href={ "/api/daily/" (date) "/results.csv" } { "results.csv" }
            }
        },
    )
}

/// Links to the day before, today, and the day after (once it is out somewhere).
fn day_links(day: Day, next_out: bool) -> Markup {
    html! {
        nav {
            a href={ "/daily/" (format_date(day - 1)) } { "← " (format_date(day - 1)) }
            a href="/" { "Today" }
            @if next_out {
                a href={ "/daily/" (format_date(day + 1)) } { (format_date(day + 1)) " →" }
            } @else {
                span {}
            }
        }
    }
}

/// The day's board and its photo.
fn pictures(daily: &DayBoard) -> Markup {
    let date = format_date(daily.day);
    html! {
        div.pictures {
            figure.board {
                img src={ "/daily/" (date) "/board.png" } width=(PICTURE_SIDE) height=(PICTURE_SIDE)
                    alt={ "The day's board, shuffled " (daily.optimal) " moves from solved" };
                figcaption { "The board to solve" }
            }
            figure.photo {
                img src={ "/daily/" (date) "/photo.png" } width="96" height="96"
                    alt="The picture it makes when solved";
                figcaption { "Solved" }
            }
        }
    }
}

/// The ranking as a table: place, name (opening the replay), time, moves, moves over the
/// shortest.
fn ranking(daily: &DayBoard, results: &[DayResult]) -> Markup {
    let date = format_date(daily.day);
    html! {
        @if results.is_empty() {
            p { "No results yet. Solve the daily in Snapslide and post it from the win card." }
        } @else {
            p.dim { (results.len()) " results, each checked by replaying its moves. "
                "Tap a name to watch the solve." }
            table {
                thead { tr {
                    th scope="col" { "#" }
                    th.name scope="col" { "Name" }
                    th scope="col" { "Time" }
                    th scope="col" { "Moves" }
                    th scope="col" title="Moves over the shortest solve" { "+" }
                } }
                tbody {
                    @for result in results {
                        tr {
                            td { (result.row.rank) }
                            td.name { a href={ "/daily/" (date) "/replays/" (result.player_id) ".gif" }
                                title={ "Watch " (result.row.name) "'s solve" } { (result.row.name) } }
                            td { (time_text(result.row.time_ms)) }
                            td { (result.row.moves) }
                            td { "+" (result.row.moves.saturating_sub(result.row.optimal)) }
                        }
                    }
                }
            }
        }
    }
}
