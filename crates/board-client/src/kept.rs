//! The day's ranking as last fetched, kept in the data folder (`board-ranking.json`, written
//! whole) so that Today's board shows it offline, saying when it was fetched. Written only
//! when what was fetched differs from what is kept.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::wire::Ranking;

/// The kept ranking's file in the data folder.
pub const RANKING_FILE: &str = "board-ranking.json";

/// A ranking and when it was fetched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptRanking {
    /// When it was fetched, ms since the Unix epoch.
    pub fetched_ms: u64,
    /// The ranking.
    pub ranking: Ranking,
}

/// The ranking kept in `dir`, if any can be read (a damaged file is as none: it is fetched
/// again).
pub fn load(dir: &Path) -> Option<KeptRanking> {
    let bytes = std::fs::read(dir.join(RANKING_FILE)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Keeps `kept` in `dir`, unless the same ranking is kept already (then nothing is written:
/// the time it was fetched is the first that saw it so).
///
/// # Errors
///
/// The atomic write's.
pub fn save(dir: &Path, kept: &KeptRanking) -> Result<bool, atomic_file::WriteError> {
    if load(dir).is_some_and(|old| old.ranking == kept.ranking) {
        return Ok(false);
    }
    let json = serde_json::to_vec(kept).expect("a ranking is JSON");
    atomic_file::write(&dir.join(RANKING_FILE), &json)?;
    Ok(true)
}
