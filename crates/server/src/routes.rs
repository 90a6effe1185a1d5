//! The server's routes, the middleware that logs each request and limits posts, and serving
//! until SIGTERM or ctrl-c (graceful shutdown).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::Method;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio::net::TcpListener;

use crate::app::App;
use crate::error::{ApiError, MAX_BODY_BYTES};
use crate::{api, web};

/// Every route of the server, with its middleware.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(web::today))
        .route("/daily/{date}", get(web::day_page))
        .route("/daily/{date}/board.png", get(web::board_png))
        .route("/daily/{date}/photo.png", get(web::photo_png))
        .route("/daily/{date}/replays/{file}", get(web::replay_gif))
        .route("/api/daily/{date}", get(api::get_daily))
        .route("/api/players", post(api::post_player))
        .route(
            "/api/daily/{date}/results",
            get(api::get_results).post(api::post_result),
        )
        .route("/api/daily/{date}/results.csv", get(api::get_results_csv))
        .route("/health", get(api::health))
        .route("/version", get(api::version))
        .fallback(|| async { ApiError::NotFound })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app),
            limit_posts,
        ))
        .layer(middleware::from_fn(log_request))
        .with_state(app)
}

/// Refuses a post past the client address's limit with 429 and Retry-After.
async fn limit_posts(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    if request.method() == Method::POST {
        let address = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip());
        if let Err(seconds) = app.limiter.take(address) {
            tracing::info!(%address, seconds, "rate limited");
            return ApiError::RateLimited(seconds).into_response();
        }
    }
    next.run(request).await
}

/// Logs each request: method, path, status and how long it took.
async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let status = response.status().as_u16();
    tracing::info!(%method, path, status, ms, "request");
    response
}

/// Serves `app` on `listener` until SIGTERM or ctrl-c, then finishes the requests under way
/// and closes the database. The boards of the days open now are made first.
///
/// # Errors
///
/// An I/O error from the listener.
pub async fn serve(listener: TcpListener, app: Arc<App>) -> std::io::Result<()> {
    app.dailies.warm_up(app.clock.now_ms()).await;
    let warming = tokio::spawn(keep_warm(Arc::clone(&app)));
    let service = router(Arc::clone(&app)).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, service)
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    warming.abort();
    app.store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// Makes each new day's board before its first post, every ten minutes.
async fn keep_warm(app: Arc<App>) {
    loop {
        tokio::time::sleep(std::time::Duration::from_secs(600)).await;
        app.dailies.warm_up(app.clock.now_ms()).await;
    }
}

/// Waits for ctrl-c or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => drop(signal.recv().await),
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
    tracing::info!("shutting down: finishing the requests under way");
}
