//! Pages and exports already made, kept while the day's results are the same. Results are
//! only ever added (never changed or removed), so a day's count of results says whether what
//! was made from them still holds: a reader asks for the count (one indexed query) and is
//! served what was made for it, or makes it again. Each server keeps its own; nothing here is
//! a fact servers share.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use axum::body::Bytes;

/// The most pages and exports kept (a few days' of each).
const KEPT: usize = 24;

/// What is kept: for a name (a day's page, export or CSV), the count of results it was made
/// from, when it was made (to drop the oldest), and its bytes.
#[derive(Debug, Default)]
pub struct Made {
    kept: Mutex<HashMap<String, (u64, u64, Bytes)>>,
    made: Mutex<u64>,
}

impl Made {
    /// What was made under `name` from `count` results, if it was.
    pub fn get(&self, name: &str, count: u64) -> Option<Bytes> {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.get(name)
            .filter(|(made_from, _, _)| *made_from == count)
            .map(|(_, _, bytes)| bytes.clone())
    }

    /// Keeps what was made under `name` from `count` results, dropping the oldest past [`KEPT`].
    pub fn put(&self, name: String, count: u64, bytes: Bytes) {
        let tick = {
            let mut made = self.made.lock().unwrap_or_else(PoisonError::into_inner);
            *made += 1;
            *made
        };
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.insert(name, (count, tick, bytes));
        while kept.len() > KEPT {
            let oldest = kept
                .iter()
                .min_by_key(|(_, (_, tick, _))| *tick)
                .map(|(name, _)| name.clone());
            if let Some(oldest) = oldest {
                kept.remove(&oldest);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_was_made_holds_while_the_count_is_the_same() {
        let made = Made::default();
        made.put("page".into(), 3, Bytes::from_static(b"three"));
        assert_eq!(made.get("page", 3), Some(Bytes::from_static(b"three")));
        assert_eq!(made.get("page", 4), None, "a result more: made again");
        assert_eq!(made.get("csv", 3), None);
        for n in 0..KEPT as u64 + 5 {
            made.put(format!("day {n}"), n, Bytes::new());
        }
        assert_eq!(made.get("page", 3), None, "the oldest dropped");
        assert!(
            made.get(&format!("day {}", KEPT as u64 + 4), KEPT as u64 + 4)
                .is_some()
        );
    }
}
