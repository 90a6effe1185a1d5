//! The page through the real router: today's board and photo, the ranking as a table whose
//! rows open each solve's replay GIF (made once, kept on disk), names escaped.

use crate::support::*;
use axum::http::StatusCode;
use snapslide_server::date::format_date;
use snapslide_server::ranking::RankedResult;
use snapslide_server::store::DayResult;
use snapslide_server::web::day_page_html;

#[tokio::test]
async fn todays_page_shows_the_board_and_the_ranking_with_replays() {
    let db = Db::sqlite();
    let app = db.app(0).await;
    let date = format_date(today());
    for (name, detours, seed) in [("Ann", 0, 21), ("Bob", 2, 22)] {
        let token = player(&app, name).await;
        assert_eq!(
            post_code(&app, &date, &solve_of_today(detours, seed), &token)
                .await
                .status,
            StatusCode::CREATED
        );
    }
    let page = get(&app, "/").await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(
        html.contains("<table>") && html.contains("<th scope=\"col\">Time</th>"),
        "{html}"
    );
    assert_eq!(
        html.matches("<tr>").count(),
        3,
        "a header row and a row a result"
    );
    assert!(html.contains(&format!("src=\"/daily/{date}/board.png\"")));
    assert!(html.contains(&format!("src=\"/daily/{date}/photo.png\"")));
    assert_eq!(
        get(&app, &format!("/daily/{date}")).await.text(),
        html,
        "/ is today's"
    );
    let cy = player(&app, "Cy").await;
    assert_eq!(
        post_code(&app, &date, &solve_of_today(1, 23), &cy)
            .await
            .status,
        StatusCode::CREATED
    );
    let html = get(&app, "/").await.text();
    assert_eq!(
        html.matches("<tr>").count(),
        4,
        "a result more: the page made again"
    );
    let replays: Vec<&str> = html
        .split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .filter(|href| href.ends_with(".gif"))
        .collect();
    assert_eq!(replays.len(), 3);
    let gif = get(&app, replays[0]).await;
    assert_eq!(gif.status, StatusCode::OK);
    assert_eq!(gif.headers["content-type"], "image/gif");
    assert!(gif.bytes.starts_with(b"GIF89a"));
    let kept = db.scratch.0.join("pictures/replays").join(&date);
    assert_eq!(
        std::fs::read_dir(&kept).unwrap().count(),
        1,
        "made once, kept on disk"
    );
    assert_eq!(get(&app, replays[0]).await.bytes, gif.bytes);
    for picture in ["board.png", "photo.png"] {
        let png = get(&app, &format!("/daily/{date}/{picture}")).await;
        assert_eq!(png.status, StatusCode::OK);
        assert!(png.bytes.starts_with(b"\x89PNG"), "{picture}");
    }
}

#[tokio::test]
async fn pages_that_are_not_there_say_so_in_html() {
    let db = Db::sqlite();
    let app = db.app(0).await;
    let date = format_date(today());
    let missing = get(&app, &format!("/daily/{date}/replays/12345.gif")).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    let bad = get(&app, "/daily/not-a-date").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.text().contains("is not a date"), "{}", bad.text());
    let future = get(&app, &format!("/daily/{}", format_date(today() + 5))).await;
    assert_eq!(future.status, StatusCode::NOT_FOUND);
    let empty = get(&app, "/").await.text();
    assert!(empty.contains("No results yet"), "{empty}");
}

#[test]
fn names_are_escaped() {
    let (daily, _) = daily_and_solution(today());
    let row = RankedResult {
        rank: 1,
        name: "<script>alert(1)</script>".into(),
        moves: 40,
        optimal: 36,
        time_ms: 41_250,
        code: String::new(),
    };
    let html = day_page_html(
        &daily,
        &[DayResult {
            player_id: 7,
            name_key: "x".into(),
            row,
        }],
        false,
    )
    .into_string();
    assert!(!html.contains("<script>"), "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("41.250 s") && html.contains("+4"));
}
