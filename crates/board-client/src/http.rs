//! The API's calls, blocking, each with a timeout: make a player, post a result, fetch a day's
//! ranking. An answer is read as the API writes it: 201/200 with its JSON, a refusal (4xx)
//! with the server's sentence, the server's trouble (5xx, 429 with Retry-After) as a reason
//! to try again later.

use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

use crate::wire::{NewPlayer, NewResult, PlayerMade, Posted, Ranking, Refusal};

/// Why a call did not get the answer it asked for.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CallError {
    /// The address is not an `http://` or `https://` one.
    #[error("“{0}” is not a board's address: write it as http://host:port or https://host")]
    BadAddress(String),
    /// The server could not be reached (no network, refused, timed out).
    #[error("The board cannot be reached: {0}")]
    Unreachable(String),
    /// The server answered that it cannot take the request now (5xx, or 429): try again, after
    /// `retry_after` when it said.
    #[error("The board is busy (HTTP {status}): it will be tried again")]
    Busy {
        /// The status.
        status: u16,
        /// The server's Retry-After.
        retry_after: Option<Duration>,
    },
    /// The server refused the request (4xx), with its sentence.
    #[error("{error}")]
    Refused {
        /// The status.
        status: u16,
        /// The server's sentence, for the player.
        error: String,
    },
    /// The answer is not what the API answers.
    #[error("The board's answer could not be read: {0}")]
    BadAnswer(String),
}

impl CallError {
    /// Whether the call may succeed if tried again later (the server unreachable or busy).
    pub fn is_transient(&self) -> bool {
        matches!(self, CallError::Unreachable(_) | CallError::Busy { .. })
    }
}

/// A board's server: its address, and an agent whose every call has a timeout.
#[derive(Clone, Debug)]
pub struct Server {
    base: String,
    agent: ureq::Agent,
}

impl Server {
    /// The server at `address` (`http://host:port` or `https://host`, a trailing `/` allowed),
    /// each call given at most `timeout` in all.
    ///
    /// # Errors
    ///
    /// [`CallError::BadAddress`] for anything else.
    pub fn new(address: &str, timeout: Duration) -> Result<Server, CallError> {
        let base = address.trim().trim_end_matches('/');
        let rest = base
            .strip_prefix("http://")
            .or_else(|| base.strip_prefix("https://"));
        if rest.is_none_or(|host| host.is_empty() || host.contains(char::is_whitespace)) {
            return Err(CallError::BadAddress(address.chars().take(80).collect()));
        }
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(timeout))
            .timeout_connect(Some(timeout.min(Duration::from_secs(10))))
            .max_redirects(0)
            .user_agent(concat!("snapslide/", env!("CARGO_PKG_VERSION")))
            .build();
        Ok(Server {
            base: base.to_string(),
            agent: ureq::Agent::new_with_config(config),
        })
    }

    /// The address, as given (without a trailing `/`).
    pub fn address(&self) -> &str {
        &self.base
    }

    /// `POST /api/players {name}`: a new player, and their token.
    ///
    /// # Errors
    ///
    /// A [`CallError`]; a name taken or outside the rules is [`CallError::Refused`] with the
    /// server's sentence.
    pub fn register(&self, name: &str) -> Result<PlayerMade, CallError> {
        let body = NewPlayer {
            name: name.to_string(),
        };
        self.post(&format!("{}/api/players", self.base), &body, None)
    }

    /// `POST /api/daily/{date}/results {code}` as the token's player.
    ///
    /// # Errors
    ///
    /// A [`CallError`]; 409 (already posted that day) is [`CallError::Refused`] with status
    /// 409: the caller decides what it means.
    pub fn post_result(&self, token: &str, date: &str, code: &str) -> Result<Posted, CallError> {
        let body = NewResult {
            code: code.to_string(),
        };
        let url = format!("{}/api/daily/{}/results", self.base, path_date(date));
        self.post(&url, &body, Some(token))
    }

    /// `GET /api/daily/{date}/results`: the day's ranking.
    ///
    /// # Errors
    ///
    /// A [`CallError`].
    pub fn ranking(&self, date: &str) -> Result<Ranking, CallError> {
        let url = format!("{}/api/daily/{}/results", self.base, path_date(date));
        answer(self.agent.get(&url).call())
    }

    /// POSTs `body` as JSON, with a bearer token if given.
    fn post<B: Serialize, T: DeserializeOwned>(
        &self,
        url: &str,
        body: &B,
        token: Option<&str>,
    ) -> Result<T, CallError> {
        let json = serde_json::to_string(body).map_err(|e| CallError::BadAnswer(e.to_string()))?;
        let mut request = self
            .agent
            .post(url)
            .header("content-type", "application/json");
        if let Some(token) = token {
            request = request.header("authorization", &format!("Bearer {token}"));
        }
        answer(request.send(json.as_bytes()))
    }
}

/// A date as it may go in a path: only its digits and dashes (the app's dates are
/// `YYYY-MM-DD`; anything else is the server's to refuse, not a way to another address).
fn path_date(date: &str) -> String {
    date.chars()
        .filter(|c| c.is_ascii_digit() || *c == '-')
        .collect()
}

/// Reads an answer: 2xx as `T`, else the [`CallError`] its status means.
fn answer<T: DeserializeOwned>(
    sent: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
) -> Result<T, CallError> {
    let mut response = sent.map_err(|error| CallError::Unreachable(error.to_string()))?;
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    let text = response
        .body_mut()
        .read_to_string()
        .map_err(|error| CallError::Unreachable(error.to_string()))?;
    match status {
        200..=299 => serde_json::from_str(&text).map_err(|e| CallError::BadAnswer(e.to_string())),
        429 | 500..=599 => Err(CallError::Busy {
            status,
            retry_after,
        }),
        400..=499 => Err(CallError::Refused {
            status,
            error: serde_json::from_str::<Refusal>(&text)
                .map(|refusal| refusal.error)
                .unwrap_or_else(|_| format!("The board refused it (HTTP {status})")),
        }),
        _ => Err(CallError::BadAnswer(format!("HTTP {status}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_http_address_is_a_server() {
        let second = Duration::from_secs(1);
        assert!(Server::new("http://127.0.0.1:8080/", second).is_ok());
        assert_eq!(
            Server::new("https://board.example", second)
                .unwrap()
                .address(),
            "https://board.example"
        );
        for bad in ["", "board.example", "ftp://x", "http://", "http://a b"] {
            let error = Server::new(bad, second).unwrap_err();
            assert!(matches!(error, CallError::BadAddress(_)), "{bad}: {error}");
        }
    }

    #[test]
    fn a_date_in_a_path_is_only_digits_and_dashes() {
        assert_eq!(path_date("2026-12-07"), "2026-12-07");
        assert_eq!(path_date("../../players?x"), "");
    }
}
