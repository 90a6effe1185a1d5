//! Every write goes through one task that commits what is waiting together, in one transaction
//! (group commit): with SQLite's `synchronous=FULL` a commit costs a sync of the disk (a few
//! ms), so 32 posts arriving at once cost one or two syncs, not 32 in a row, and writers never
//! wait on each other's locks. A batch that fails is retried one write at a time, so one bad
//! write fails alone.

use sqlx::{AnyConnection, AnyPool};
use tokio::sync::{mpsc, oneshot};

/// The most writes committed together.
const MAX_BATCH: usize = 256;
/// The writes that may wait for the writer before a poster waits to hand theirs in.
const QUEUE: usize = 4_096;

/// A write to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// A new player (ignored when the name's key is taken).
    Player {
        /// The player's id.
        id: i64,
        /// The name as shown.
        name: String,
        /// The name's key.
        name_key: String,
        /// The token's hash.
        token_hash: String,
        /// When, ms since 1970.
        now_ms: i64,
    },
    /// A result (ignored when the player has one that day, or the code is on the board),
    /// numbered 1 + the day's highest number so far (the order results were kept in).
    Result {
        /// The day.
        day: i64,
        /// Whose.
        player_id: i64,
        /// Moves made.
        moves: i64,
        /// Total time, ms.
        time_ms: i64,
        /// The code.
        code: String,
        /// The code's hash.
        code_hash: String,
        /// When, ms since 1970.
        posted_ms: i64,
    },
}

/// A write and where its answer goes: whether it was made.
struct Job {
    write: Write,
    answer: oneshot::Sender<Result<bool, sqlx::Error>>,
}

/// The way to the writing task.
#[derive(Clone, Debug)]
pub struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    /// Starts the writing task on the pool (within a tokio runtime); it ends when the last
    /// [`Writer`] is dropped.
    pub fn start(pool: AnyPool) -> Writer {
        let (jobs, waiting) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool, waiting));
        Writer { jobs }
    }

    /// Makes a write, committed with those waiting beside it; whether it was made (`false`:
    /// it conflicted and was ignored).
    ///
    /// # Errors
    ///
    /// The database's error, or [`sqlx::Error::PoolClosed`] when the writer has stopped.
    pub async fn write(&self, write: Write) -> Result<bool, sqlx::Error> {
        let (answer, answered) = oneshot::channel();
        let job = Job { write, answer };
        self.jobs
            .send(job)
            .await
            .map_err(|_| sqlx::Error::PoolClosed)?;
        answered.await.map_err(|_| sqlx::Error::PoolClosed)?
    }
}

/// The writing task: takes what is waiting (up to [`MAX_BATCH`]) and commits it together.
async fn run(pool: AnyPool, mut waiting: mpsc::Receiver<Job>) {
    while let Some(first) = waiting.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match waiting.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let writes: Vec<&Write> = batch.iter().map(|job| &job.write).collect();
        match commit(&pool, &writes).await {
            Ok(made) => {
                for (job, made) in batch.into_iter().zip(made) {
                    let _ = job.answer.send(Ok(made));
                }
            }
            Err(_) => {
                for job in batch {
                    let made = commit(&pool, &[&job.write]).await;
                    let _ = job.answer.send(made.map(|made| made[0]));
                }
            }
        }
    }
}

/// The writes in one transaction; whether each was made.
async fn commit(pool: &AnyPool, writes: &[&Write]) -> Result<Vec<bool>, sqlx::Error> {
    let mut transaction = pool.begin().await?;
    let mut made = Vec::with_capacity(writes.len());
    for write in writes {
        made.push(apply(&mut transaction, write).await?);
    }
    transaction.commit().await?;
    Ok(made)
}

/// One write's statement; whether it changed a row.
async fn apply(connection: &mut AnyConnection, write: &Write) -> Result<bool, sqlx::Error> {
    let done =
        match write {
            Write::Player {
                id,
                name,
                name_key,
                token_hash,
                now_ms,
            } => {
                sqlx::query(
                    "INSERT INTO players (id, name, name_key, token_hash, created_ms) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                )
                .bind(id)
                .bind(name)
                .bind(name_key)
                .bind(token_hash)
                .bind(now_ms)
                .execute(connection)
                .await?
            }
            Write::Result {
                day,
                player_id,
                moves,
                time_ms,
                code,
                code_hash,
                posted_ms,
            } => sqlx::query(
                "INSERT INTO results (day, player_id, moves, time_ms, code, code_hash, posted_ms, \
                 seq) VALUES ($1, $2, $3, $4, $5, $6, $7, \
                 (SELECT COALESCE(MAX(seq), 0) + 1 FROM results WHERE day = $1)) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(day)
            .bind(player_id)
            .bind(moves)
            .bind(time_ms)
            .bind(code)
            .bind(code_hash)
            .bind(posted_ms)
            .execute(connection)
            .await?,
        };
    Ok(done.rows_affected() == 1)
}
