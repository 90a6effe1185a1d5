//! `snapslide-server`: serves the daily's board of results, or (`verify`) re-checks an export
//! of one offline.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand};
use snapslide_server::daily::engine_options;
use snapslide_server::date::Clock;
use snapslide_server::{App, Settings, verify};

/// The daily's shared board: every result checked by replaying it.
#[derive(Parser, Debug)]
#[command(
    name = "snapslide-server",
    version,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

/// What else the binary does.
#[derive(Subcommand, Debug)]
enum Command {
    /// Re-checks an export (a file or a URL, JSON or CSV) offline: every code replayed, the
    /// ranking recomputed, any difference named. Exits 1 when there is one.
    Verify {
        /// The export: a path, or an http:// or https:// address.
        source: String,
        /// Where the engine's tables are cached (made in a second when missing).
        #[arg(long)]
        tables: Option<PathBuf>,
    },
}

/// How to serve.
#[derive(Args, Debug)]
struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The database: sqlite://PATH or postgres://USER@HOST/DB (default: snapslide.db in the
    /// data folder).
    #[arg(long)]
    db: Option<String>,
    /// The data folder: the SQLite file by default, the engine's tables, the pictures made.
    #[arg(long, default_value = "snapslide-data")]
    data: PathBuf,
    /// Posts a minute per client address (0: no limit, for load tests).
    #[arg(long, default_value_t = 10)]
    posts_per_minute: u32,
    /// Logs as JSON lines (for a log collector) rather than text.
    #[arg(long)]
    log_json: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Verify { source, tables }) => verify_command(&source, tables),
        None => serve_command(cli.serve),
    }
}

/// Re-checks an export and says what it found.
fn verify_command(source: &str, tables: Option<PathBuf>) -> ExitCode {
    let export = match verify::load(source) {
        Ok(export) => export,
        Err(why) => {
            eprintln!("snapslide-server verify: {why}");
            return ExitCode::from(2);
        }
    };
    let differences = verify::differences(&export, &engine_options(tables.as_deref()));
    if differences.is_empty() {
        println!(
            "{}: {} results, every code replayed and the ranking recomputed: it holds",
            export.date,
            export.results.len()
        );
        return ExitCode::SUCCESS;
    }
    let plural = if differences.len() == 1 { "" } else { "s" };
    println!("{}: {} difference{plural}", export.date, differences.len());
    for difference in &differences {
        println!("- {difference}");
    }
    ExitCode::FAILURE
}

/// Serves until SIGTERM or ctrl-c.
fn serve_command(args: ServeArgs) -> ExitCode {
    init_logs(args.log_json);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("snapslide-server: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            tracing::error!("{why}");
            eprintln!("snapslide-server: {why}");
            ExitCode::FAILURE
        }
    }
}

/// Opens the database and the data folder, then serves.
async fn serve(args: ServeArgs) -> Result<(), String> {
    let db_url = (args.db.clone())
        .unwrap_or_else(|| format!("sqlite://{}", args.data.join("snapslide.db").display()));
    let settings = Settings {
        db_url,
        data_dir: args.data.clone(),
        posts_per_minute: args.posts_per_minute,
        clock: Clock::System,
    };
    let app = App::open(&settings).await.map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
    let store = if settings.db_url.starts_with("sqlite:") {
        "SQLite"
    } else {
        "PostgreSQL"
    };
    tracing::info!(listen = %args.listen, store, data = %args.data.display(),
        posts_per_minute = args.posts_per_minute, "serving");
    snapslide_server::serve(listener, Arc::new(app))
        .await
        .map_err(|e| e.to_string())
}

/// Logs to standard error, as text or JSON lines; `RUST_LOG` chooses what (default: info).
fn init_logs(json: bool) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    if json {
        logs.json().init();
    } else {
        logs.init();
    }
}
