//! The day's board, made exactly as the app deals it (crates/game), and kept once made: it is
//! a pure function of the date, so servers need not share it.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use npuzzle::generate::GenerateError;
use npuzzle::{Board, Options};
use snapslide_game::{DAILY_DISTANCE, DAILY_PHOTOS, DailyPuzzle, Day};

use crate::date::{day_at, takes_results};
use crate::error::ApiError;

/// The engine's tables the server searches with: small ones, built in under a second (the
/// board made does not depend on them, only how fast it is found).
pub const TABLES: &str = "5-5-5";
/// The most days' boards kept in memory (each is a few bytes; the cap only bounds a crawl).
pub const KEPT_DAYS: usize = 400;

/// A day's daily: its board, its shortest solution's length and its photo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DayBoard {
    /// The day (UTC days since 1970).
    pub day: Day,
    /// The start board, the same the app deals that day.
    pub board: Board,
    /// The length of its shortest solution.
    pub optimal: usize,
    /// The day's photo: a file name of `snapslide_game::DAILY_PHOTOS`.
    pub photo: &'static str,
}

impl DayBoard {
    /// Makes the daily of `day` (an exact search: about a second the first time the tables
    /// are built, much less after).
    ///
    /// # Errors
    ///
    /// A [`GenerateError`] when the engine cannot make the board (its tables could not be had).
    pub fn make(day: Day, options: &Options) -> Result<DayBoard, GenerateError> {
        let puzzle = DailyPuzzle::of(day, DAILY_PHOTOS.len());
        Ok(DayBoard {
            day,
            board: puzzle.board(options)?,
            optimal: DAILY_DISTANCE,
            photo: puzzle.photo_name(),
        })
    }
}

/// The engine's options for making boards: [`TABLES`], one thread, the tables cached in
/// `tables` if given.
pub fn engine_options(tables: Option<&Path>) -> Options {
    let options = Options::default().with_partition(TABLES).with_threads(1);
    match tables {
        Some(dir) => options.with_pdb_dir(dir),
        None => options,
    }
}

/// The days' boards made so far, made one at a time off the async threads.
#[derive(Debug)]
pub struct Dailies {
    options: Options,
    made: Mutex<BTreeMap<Day, Arc<DayBoard>>>,
    making: tokio::sync::Mutex<()>,
}

impl Dailies {
    /// No board made yet; boards will be made with `options`.
    pub fn new(options: Options) -> Dailies {
        Dailies {
            options,
            made: Mutex::new(BTreeMap::new()),
            making: tokio::sync::Mutex::new(()),
        }
    }

    /// The daily of `day`, made now if it was not yet.
    ///
    /// # Errors
    ///
    /// [`ApiError::Unavailable`] when the engine fails (logged).
    pub async fn board(&self, day: Day) -> Result<Arc<DayBoard>, ApiError> {
        if let Some(made) = self.kept(day) {
            return Ok(made);
        }
        // One board is made at a time: a crawl of many dates takes one core, not all.
        let _turn = self.making.lock().await;
        if let Some(made) = self.kept(day) {
            return Ok(made);
        }
        let options = self.options.clone();
        let made = tokio::task::spawn_blocking(move || DayBoard::make(day, &options))
            .await
            .map_err(|error| unavailable("making a daily board panicked", &error))?
            .map_err(|error| unavailable("the engine could not make a daily board", &error))?;
        let made = Arc::new(made);
        self.keep(Arc::clone(&made));
        Ok(made)
    }

    /// Makes the boards of the days that take results at `now_ms` and of the day after, so
    /// that no post waits for a board to be made (a day's first board takes up to a second).
    pub async fn warm_up(&self, now_ms: i64) {
        let today = day_at(now_ms);
        for day in today - 1..=today + 2 {
            if takes_results(day, now_ms) || day == today + 1 {
                // A failure is logged, and the board is tried again when asked for.
                let _ = self.board(day).await;
            }
        }
    }

    /// The board of `day`, if made.
    fn kept(&self, day: Day) -> Option<Arc<DayBoard>> {
        let made = self.made.lock().unwrap_or_else(PoisonError::into_inner);
        made.get(&day).cloned()
    }

    /// Keeps a board made, dropping the earliest day past [`KEPT_DAYS`].
    fn keep(&self, board: Arc<DayBoard>) {
        let mut made = self.made.lock().unwrap_or_else(PoisonError::into_inner);
        made.insert(board.day, board);
        while made.len() > KEPT_DAYS {
            made.pop_first();
        }
    }
}

/// Logs a failure of the server's own and answers it as [`ApiError::Unavailable`].
pub fn unavailable(what: &str, error: &dyn std::fmt::Display) -> ApiError {
    tracing::error!(%error, "{what}");
    ApiError::Unavailable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_daily_is_the_apps_and_made_once() {
        let dailies = Dailies::new(engine_options(None));
        let day = 20_787;
        let board = dailies.board(day).await.unwrap();
        let puzzle = DailyPuzzle::of(day, DAILY_PHOTOS.len());
        assert_eq!(board.board, puzzle.board(&engine_options(None)).unwrap());
        assert_eq!(board.optimal, 36);
        assert_eq!(board.photo, puzzle.photo_name());
        let again = dailies.board(day).await.unwrap();
        assert!(Arc::ptr_eq(&board, &again), "kept, not made again");
    }
}
