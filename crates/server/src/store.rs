//! Every fact the server keeps, in SQLite (the default: a file, WAL, `synchronous=FULL`, so a
//! result answered 201 survives kill -9) or PostgreSQL: one set of migrations and one set of
//! queries through sqlx's `Any` driver. Reads run on the pool; writes are committed together
//! by one task (writer.rs).

use std::borrow::Cow;

use sqlx::any::{AnyPoolOptions, AnyRow, install_default_drivers};
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::{AnyPool, Executor, Row};
use std::future::Future;
use std::pin::Pin;

use crate::ranking::{Ranked, RankedResult};
use crate::writer::{Write, Writer};

/// The migrations, in the repository's `crates/server/migrations`, built into the binary.
const MIGRATIONS: [(i64, &str, &str); 2] = [
    (
        1,
        "players and results",
        include_str!("../migrations/0001_players_and_results.sql"),
    ),
    (
        2,
        "results in order",
        include_str!("../migrations/0002_results_in_order.sql"),
    ),
];

/// What SQLite is set to on every connection: write-ahead log, every commit synced to disk
/// before it is answered, a writer waiting (not failing) while another writes.
/// Checkpoints are not made by a commit (which would make that post wait for them) but by a
/// task of their own, every [`CHECKPOINT_EVERY`].
const SQLITE_PRAGMAS: &str = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
     PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 0;";

/// How often SQLite's write-ahead log is copied back into the database (a passive checkpoint:
/// it never blocks a writer).
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// The built-in migrations, as sqlx's migrator reads them.
#[derive(Debug)]
struct BuiltIn;

impl MigrationSource<'static> for BuiltIn {
    fn resolve(self) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send>> {
        let migrations = MIGRATIONS
            .iter()
            .map(|&(version, description, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(description),
                    MigrationType::Simple,
                    Cow::Borrowed(sql),
                    false,
                )
            })
            .collect();
        Box::pin(async move { Ok(migrations) })
    }
}

/// A player as the server knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The player's id (random, never shown as a name).
    pub id: i64,
    /// The name, as shown.
    pub name: String,
}

/// A checked result to keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewResult<'a> {
    /// The day.
    pub day: i64,
    /// Whose.
    pub player_id: i64,
    /// Moves made.
    pub moves: i64,
    /// The total time, ms.
    pub time_ms: i64,
    /// The code, whole.
    pub code: &'a str,
    /// The code's SHA-256 (hex): one solve is taken once a day.
    pub code_hash: &'a str,
    /// When it was posted, ms since 1970.
    pub posted_ms: i64,
}

/// A day's result with who made it, in the ranking's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DayResult {
    /// The player's id (the replay GIF's address).
    pub player_id: i64,
    /// The name's key, as kept (orders ties).
    pub name_key: String,
    /// The ranked row, as exported.
    pub row: RankedResult,
}

impl Ranked for DayResult {
    fn row(&self) -> &RankedResult {
        &self.row
    }

    fn tie_key(&self) -> String {
        self.name_key.clone()
    }

    fn row_mut(&mut self) -> &mut RankedResult {
        &mut self.row
    }
}

/// Results of a day read together: in no order, and the highest of their numbers (the
/// order results were kept in).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DayRows {
    /// The results.
    pub results: Vec<DayResult>,
    /// The highest number among them, or the number they were read past when there are none.
    pub last_seq: i64,
}

/// The database, SQLite or PostgreSQL.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    writer: Writer,
}

impl Store {
    /// Connects to `url` (`sqlite://PATH`, created if missing, or `postgres://…`) and brings
    /// its schema up to date.
    ///
    /// # Errors
    ///
    /// A sqlx error when the database cannot be reached or migrated.
    pub async fn open(url: &str) -> Result<Store, sqlx::Error> {
        install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let url = sqlite_creates(url);
        let connections = if sqlite { 8 } else { 16 };
        // Every connection is opened at start, not by the first posts (which would wait for
        // it, and for its statements to be prepared).
        let pool = AnyPoolOptions::new()
            .max_connections(connections)
            .min_connections(connections)
            .after_connect(move |connection, _| {
                Box::pin(async move {
                    if sqlite {
                        connection.execute(SQLITE_PRAGMAS).await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        let migrator = Migrator::new(BuiltIn).await?;
        migrator.run(&pool).await?;
        let writer = Writer::start(pool.clone());
        if sqlite {
            tokio::spawn(checkpoints(pool.clone()));
        }
        Ok(Store { pool, writer })
    }

    /// Closes every connection (on shutdown).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Whether the database answers.
    ///
    /// # Errors
    ///
    /// A sqlx error when it does not.
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        sqlx::query("SELECT 1").execute(&self.pool).await.map(drop)
    }

    /// Adds a player (committed with the writes beside it); `false` when the name's key (or, by a chance of 2^-128, the token's hash)
    /// is taken.
    ///
    /// # Errors
    ///
    /// A sqlx error when the database fails.
    pub async fn add_player(
        &self,
        player: &Player,
        name_key: &str,
        token_hash: &str,
        now_ms: i64,
    ) -> Result<bool, sqlx::Error> {
        let write = Write::Player {
            id: player.id,
            name: player.name.clone(),
            name_key: name_key.to_string(),
            token_hash: token_hash.to_string(),
            now_ms,
        };
        self.writer.write(write).await
    }

    /// The player whose token has this hash.
    ///
    /// # Errors
    ///
    /// A sqlx error when the database fails.
    pub async fn player_by_token(&self, token_hash: &str) -> Result<Option<Player>, sqlx::Error> {
        let row = sqlx::query("SELECT id, name FROM players WHERE token_hash = $1")
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| {
            Ok(Player {
                id: row.try_get(0)?,
                name: row.try_get(1)?,
            })
        })
        .transpose()
    }

    /// Whether the same code (by its hash) is on the day's board.
    ///
    /// # Errors
    ///
    /// A sqlx error when the database fails.
    pub async fn has_code(&self, day: i64, code_hash: &str) -> Result<bool, sqlx::Error> {
        let row = sqlx::query("SELECT 1 FROM results WHERE day = $1 AND code_hash = $2")
            .bind(day)
            .bind(code_hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Whether the player has a result for the day.
    ///
    /// # Errors
    ///
    /// A sqlx error when the database fails.
    pub async fn has_result(&self, day: i64, player_id: i64) -> Result<bool, sqlx::Error> {
        let row = sqlx::query("SELECT 1 FROM results WHERE day = $1 AND player_id = $2")
            .bind(day)
            .bind(player_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Keeps a result; `false` when the player already has one for the day (the first counts),
    /// or the same code is already on the day's board.
    ///
    /// # Errors
    ///
    /// A sqlx error when the database fails.
    pub async fn add_result(&self, result: &NewResult<'_>) -> Result<bool, sqlx::Error> {
        let write = Write::Result {
            day: result.day,
            player_id: result.player_id,
            moves: result.moves,
            time_ms: result.time_ms,
            code: result.code.to_string(),
            code_hash: result.code_hash.to_string(),
            posted_ms: result.posted_ms,
        };
        self.writer.write(write).await
    }

    /// Where a time and moves stand on a day: (rank, results that day).
    ///
    /// # Errors
    ///
    /// A sqlx error when the database fails.
    pub async fn standing(
        &self,
        day: i64,
        time_ms: i64,
        moves: i64,
    ) -> Result<(u64, u64), sqlx::Error> {
        let row = sqlx::query(
            "SELECT \
               (SELECT COUNT(*) FROM results WHERE day = $1 \
                  AND (time_ms < $2 OR (time_ms = $2 AND moves < $3))), \
               (SELECT COUNT(*) FROM results WHERE day = $1)",
        )
        .bind(day)
        .bind(time_ms)
        .bind(moves)
        .fetch_one(&self.pool)
        .await?;
        let better: i64 = row.try_get(0)?;
        let of: i64 = row.try_get(1)?;
        Ok((better as u64 + 1, of as u64))
    }

    /// Every result of a day with its player, in no order (the caller ranks them); with each
    /// code when `with_codes` (the export), without (the page, which shows none).
    ///
    /// # Errors
    ///
    /// A sqlx error when the database fails.
    pub async fn day_results(
        &self,
        day: i64,
        optimal: u64,
        with_codes: bool,
    ) -> Result<Vec<DayResult>, sqlx::Error> {
        let rows = self.day_rows_after(day, optimal, with_codes, -1).await?;
        Ok(rows.results)
    }

    /// A day's results numbered past `after` (every one for -1), in no order, with the
    /// highest number among them (`after` when there are none).
    ///
    /// # Errors
    ///
    /// A sqlx error when the database fails.
    pub async fn day_rows_after(
        &self,
        day: i64,
        optimal: u64,
        with_codes: bool,
        after: i64,
    ) -> Result<DayRows, sqlx::Error> {
        let code = if with_codes { "r.code" } else { "''" };
        let query = format!(
            "SELECT p.id, p.name, p.name_key, r.moves, r.time_ms, {code}, r.seq FROM results r \
             JOIN players p ON p.id = r.player_id WHERE r.day = $1 AND r.seq > $2"
        );
        let rows = (sqlx::query(&query).bind(day).bind(after))
            .fetch_all(&self.pool)
            .await?;
        let mut found = DayRows {
            results: Vec::with_capacity(rows.len()),
            last_seq: after,
        };
        for row in &rows {
            found.results.push(day_result(row, optimal)?);
            found.last_seq = found.last_seq.max(row.try_get(6)?);
        }
        Ok(found)
    }

    /// How many results a day has.
    ///
    /// # Errors
    ///
    /// A sqlx error when the database fails.
    pub async fn count_results(&self, day: i64) -> Result<u64, sqlx::Error> {
        let row = sqlx::query("SELECT COUNT(*) FROM results WHERE day = $1")
            .bind(day)
            .fetch_one(&self.pool)
            .await?;
        let count: i64 = row.try_get(0)?;
        Ok(count as u64)
    }

    /// The code of a player's result of a day.
    ///
    /// # Errors
    ///
    /// A sqlx error when the database fails.
    pub async fn result_code(
        &self,
        day: i64,
        player_id: i64,
    ) -> Result<Option<String>, sqlx::Error> {
        let row = sqlx::query("SELECT code FROM results WHERE day = $1 AND player_id = $2")
            .bind(day)
            .bind(player_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| row.try_get(0)).transpose()
    }
}

/// A row of [`Store::day_rows_after`]'s query as a result (ranked later).
fn day_result(row: &AnyRow, optimal: u64) -> Result<DayResult, sqlx::Error> {
    let moves: i64 = row.try_get(3)?;
    let time_ms: i64 = row.try_get(4)?;
    Ok(DayResult {
        player_id: row.try_get(0)?,
        name_key: row.try_get(2)?,
        row: RankedResult {
            rank: 0,
            name: row.try_get(1)?,
            moves: moves as u64,
            optimal,
            time_ms: time_ms as u64,
            code: row.try_get(5)?,
        },
    })
}

/// Checkpoints SQLite's write-ahead log every [`CHECKPOINT_EVERY`] until the pool is closed.
async fn checkpoints(pool: AnyPool) {
    while !pool.is_closed() {
        tokio::time::sleep(CHECKPOINT_EVERY).await;
        let checkpoint = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&pool)
            .await;
        if let Err(error) = checkpoint
            && !pool.is_closed()
        {
            tracing::warn!(%error, "the checkpoint failed");
        }
    }
}

/// A SQLite URL that creates its file when missing (`mode=rwc`), unless it says a mode.
fn sqlite_creates(url: &str) -> String {
    if url.starts_with("sqlite:") && !url.contains("mode=") {
        let joiner = if url.contains('?') { '&' } else { '?' };
        format!("{url}{joiner}mode=rwc")
    } else {
        url.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sqlite_file_is_created_when_missing() {
        assert_eq!(sqlite_creates("sqlite://a.db"), "sqlite://a.db?mode=rwc");
        assert_eq!(
            sqlite_creates("sqlite://a.db?x=1"),
            "sqlite://a.db?x=1&mode=rwc"
        );
        assert_eq!(
            sqlite_creates("sqlite://a.db?mode=ro"),
            "sqlite://a.db?mode=ro"
        );
        assert_eq!(sqlite_creates("postgres://h/db"), "postgres://h/db");
    }
}
