//! Every refusal and failure of the API as one type, answered as one kind of response: a status
//! and `{"error": "<one sentence a player understands>"}`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use thiserror::Error;

use crate::refusal::Refusal;

/// The largest request body read, in bytes: a result's code fits well within it.
pub const MAX_BODY_BYTES: usize = 4 * 1024;

/// Why a request was not answered as asked. Each message is what the player reads.
#[derive(Debug, Error)]
pub enum ApiError {
    /// The body is not JSON, or not the JSON this request takes.
    #[error("The request is not the JSON expected: {0}")]
    BadJson(String),
    /// The body is not marked as JSON.
    #[error("Send the request as JSON (Content-Type: application/json)")]
    NotJson,
    /// The body is larger than [`MAX_BODY_BYTES`].
    #[error("The request is larger than 4 KB: a result's code fits well within that")]
    TooLarge,
    /// A date that is not one.
    #[error(
        "“{0}” is not a date the board has: write it as YYYY-MM-DD, from 2000-01-01 on, for example 2026-12-07"
    )]
    BadDate(String),
    /// A day whose board is not out anywhere on Earth yet.
    #[error("The board of {0} is not out anywhere on Earth yet")]
    NotYet(String),
    /// A day that is no longer (or not yet) its date anywhere on Earth.
    #[error(
        "Results for {0} are closed: a day takes results while it is that date somewhere on \
         Earth, and for an hour after"
    )]
    DayClosed(String),
    /// A name outside the rules.
    #[error(
        "A name is 1 to 24 letters, digits, spaces, or - _ . and begins with a letter or digit"
    )]
    BadName,
    /// A name already taken (without regard to case).
    #[error("The name “{0}” is taken: choose another")]
    NameTaken(String),
    /// No token, or one that is not a player's.
    #[error(
        "Post with your player token (Authorization: Bearer TOKEN): this one is missing or unknown"
    )]
    Unauthorized,
    /// The player's result of that day is already in.
    #[error("Your result for {0} is already on the board: the first one counts")]
    AlreadyPosted(String),
    /// The same solve is already on the day's board (one solve is one player's).
    #[error("This very solve is already on the board: post your own")]
    SolveTaken,
    /// The result does not stand up to its replay.
    #[error("{0}")]
    Refused(#[from] Refusal),
    /// Too many posts from one address.
    #[error("Too many posts from your address: try again in {0} s")]
    RateLimited(u64),
    /// Nothing here.
    #[error("There is nothing here")]
    NotFound,
    /// A method this address does not take.
    #[error("This address does not take that method")]
    MethodNotAllowed,
    /// The database or the disk failed (logged with its cause): the server's trouble, not the
    /// player's.
    #[error("The board cannot be reached right now: try again in a minute")]
    Unavailable,
}

impl ApiError {
    /// The status code this refusal is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadJson(_) | ApiError::BadDate(_) => StatusCode::BAD_REQUEST,
            ApiError::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::NotYet(_) | ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::DayClosed(_) | ApiError::BadName | ApiError::Refused(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::NameTaken(_) | ApiError::AlreadyPosted(_) | ApiError::SolveTaken => {
                StatusCode::CONFLICT
            }
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.to_string() });
        let mut response = (self.status(), axum::Json(body)).into_response();
        let headers = response.headers_mut();
        match self {
            ApiError::Unauthorized => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            ApiError::RateLimited(seconds) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            }
            _ => {}
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_is_a_4xx_and_only_the_servers_trouble_is_not() {
        let refusals = [
            ApiError::BadJson("x".into()),
            ApiError::NotJson,
            ApiError::TooLarge,
            ApiError::BadDate("x".into()),
            ApiError::NotYet("x".into()),
            ApiError::DayClosed("x".into()),
            ApiError::BadName,
            ApiError::NameTaken("x".into()),
            ApiError::Unauthorized,
            ApiError::AlreadyPosted("x".into()),
            ApiError::SolveTaken,
            ApiError::Refused(Refusal::NoTimes),
            ApiError::RateLimited(3),
            ApiError::NotFound,
            ApiError::MethodNotAllowed,
        ];
        for refusal in refusals {
            assert!(refusal.status().is_client_error(), "{refusal:?}");
        }
        assert_eq!(
            ApiError::Unavailable.status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
    }

    #[test]
    fn a_rate_limit_says_when_to_try_again() {
        let response = ApiError::RateLimited(42).into_response();
        assert_eq!(response.headers()[header::RETRY_AFTER], "42");
        let response = ApiError::Unauthorized.into_response();
        assert_eq!(response.headers()[header::WWW_AUTHENTICATE], "Bearer");
    }
}
