//! The API's bodies, as the app sends and reads them (docs/server.md, "The API"). The server
//! keeps its own types; the tests in `tests/against_server.rs` send these to the real server
//! and read its answers back into them, so the two cannot drift apart unseen.

use serde::{Deserialize, Serialize};

/// `POST /api/players`'s body: the name asked for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewPlayer {
    /// The name, 1–24 letters, digits, spaces or `-_.`.
    pub name: String,
}

/// `POST /api/players`'s answer (201): the name as kept, and the token, shown this once.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerMade {
    /// The name as the server keeps it (NFC, trimmed).
    pub player: String,
    /// The token to post with (never logged: see the `Debug` below).
    pub token: String,
}

impl std::fmt::Debug for PlayerMade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayerMade")
            .field("player", &self.player)
            .field("token", &"(hidden)")
            .finish()
    }
}

/// `POST /api/daily/{date}/results`'s body: the solve's challenge code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewResult {
    /// The challenge code: the board, every move and its time.
    pub code: String,
}

/// `POST /api/daily/{date}/results`'s answer (201): where the result stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// One row of `GET /api/daily/{date}/results`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The place (ties share one).
    pub rank: u64,
    /// The player's name.
    pub name: String,
    /// Moves made.
    pub moves: u64,
    /// The day's shortest solution.
    pub optimal: u64,
    /// The total time, ms.
    pub time_ms: u64,
    /// The solve's challenge code.
    pub code: String,
}

/// `GET /api/daily/{date}/results`: the day's board and every result, ranked by time then
/// moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranking {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// The daily's columns.
    pub width: usize,
    /// The daily's rows.
    pub height: usize,
    /// The daily's start board, row-major, 0 the gap.
    pub tiles: Vec<u8>,
    /// The daily's shortest solution.
    pub optimal: u64,
    /// Every result, ranked.
    pub results: Vec<Row>,
}

impl Ranking {
    /// The fastest result's time, ms (the first row's: rows are ranked by time).
    pub fn fastest_ms(&self) -> Option<u64> {
        self.results.iter().map(|row| row.time_ms).min()
    }

    /// The row of the player named `name` (names are unique without regard to case).
    pub fn row_of(&self, name: &str) -> Option<&Row> {
        let key = name.to_lowercase();
        self.results
            .iter()
            .find(|row| row.name.to_lowercase() == key)
    }
}

/// A refusal's body: `{"error": "<one sentence a player understands>"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// The sentence.
    pub error: String,
}
