//! The server's tests, in one binary (each test binary links axum, sqlx and the game):
//! the API through its real router (`api`), the submit path driven by generated input
//! (`submit`), the day's page (`page`) and `verify` (`verify`), on what they share (`support`).

mod api;
mod page;
mod submit;
mod support;
mod verify;
