//! The server's state: the database, the days' boards, the rate limit, the pictures' folder,
//! the clock.

use std::path::PathBuf;
use std::sync::Arc;

use thiserror::Error;

use crate::cache::{DayRanking, Made};
use crate::daily::{Dailies, engine_options};
use crate::date::Clock;
use crate::images::Images;
use crate::rate_limit::RateLimiter;
use crate::store::Store;

/// How a server is set up.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The database: `sqlite://PATH` or `postgres://…`.
    pub db_url: String,
    /// The data folder: the engine's tables and the pictures made (and the SQLite file by
    /// default).
    pub data_dir: PathBuf,
    /// Posts a minute per client address, 0 for no limit.
    pub posts_per_minute: u32,
    /// The clock (the system's, but for tests).
    pub clock: Clock,
}

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum StartError {
    /// The data folder could not be made.
    #[error("cannot make the data folder {0}: {1}")]
    DataFolder(PathBuf, std::io::Error),
    /// The database could not be opened or migrated.
    #[error("cannot open the database: {0}")]
    Database(#[from] sqlx::Error),
}

/// Everything a request may use. Nothing here is a fact servers would have to share: those
/// are all in the database.
#[derive(Debug)]
pub struct App {
    /// The database.
    pub store: Store,
    /// The days' boards made so far.
    pub dailies: Dailies,
    /// Posts per client address.
    pub limiter: RateLimiter,
    /// The pictures made, on disk.
    pub images: Images,
    /// The clock.
    pub clock: Clock,
    /// Pages and exports made, while their day's results are the same.
    pub made: Made,
    /// The days' rankings made, brought up to date with the results kept since.
    pub rankings: Made<Arc<DayRanking>>,
}

impl App {
    /// Opens the database (migrating it) and the data folder.
    ///
    /// # Errors
    ///
    /// A [`StartError`] when either cannot be had.
    pub async fn open(settings: &Settings) -> Result<App, StartError> {
        let tables = settings.data_dir.join("tables");
        std::fs::create_dir_all(&tables)
            .map_err(|error| StartError::DataFolder(settings.data_dir.clone(), error))?;
        Ok(App {
            store: Store::open(&settings.db_url).await?,
            dailies: Dailies::new(engine_options(Some(&tables))),
            limiter: RateLimiter::new(settings.posts_per_minute),
            images: Images::new(settings.data_dir.join("pictures")),
            clock: settings.clock,
            made: Made::default(),
            rankings: Made::default(),
        })
    }
}
