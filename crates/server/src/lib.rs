//! Snapslide's daily board of results: a small server (axum on tokio, sqlx on SQLite or
//! PostgreSQL) that checks every result by replaying it with the app's own code, a web page of
//! the day's ranking, and `verify`, which re-checks an export offline. See docs/server.md.

#![warn(missing_docs, clippy::missing_errors_doc)]

pub mod api;
pub mod app;
pub mod cache;
pub mod check;
pub mod daily;
pub mod date;
pub mod error;
pub mod export;
pub mod images;
pub mod names;
pub mod ranking;
pub mod rate_limit;
pub mod refusal;
pub mod routes;
pub mod store;
pub mod token;
pub mod verify;
pub mod web;
pub mod writer;

pub use app::{App, Settings, StartError};
pub use error::ApiError;
pub use routes::{router, serve};
