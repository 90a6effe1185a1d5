//! The daily's shared board, the app's side (issue 68, docs/server.md): a thin plugin over the
//! `board-client` crate. It owns the background poster (a thread of its own, never a frame's
//! work) and what the HUD shows of the board ([`BoardView`]): this day's result (queued,
//! posting, waiting for the server, posted with its rank, refused with the server's
//! sentence), the player's name, and the day's ranking (fetched, or kept from before for
//! offline). The HUD asks with [`BoardCommand`]s; the poster's reports become [`BoardNews`]
//! messages, told to whoever listens, as they change the view.
//!
//! The server's address is `SNAPSLIDE_SERVER`, else the settings' `server`; with neither, no
//! poster starts, the HUD shows no button, and nothing leaves the device. A result leaves it
//! only when the player taps Post.

mod words;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use board_client::{Ask, KeptRanking, Outcome, Poster, PosterConfig, Report, Standing, Wake};

pub use board_client::check_name;
pub use words::{ordinal, standing_words};

use crate::frame::AppSet;
use crate::persist::DataDir;
use crate::play::settings::Settings;

/// The environment variable that names the board's server (it wins over the settings).
pub const SERVER_ENV: &str = "SNAPSLIDE_SERVER";

/// What the HUD asks of the board.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum BoardCommand {
    /// Post this result of a day (queued first; posted once there is a player).
    Post {
        /// The day, `YYYY-MM-DD`.
        date: String,
        /// The solve's challenge code.
        code: String,
    },
    /// Be known on the board by this name (checked by the rules already).
    Name(String),
    /// Fetch the day's ranking.
    Fetch(String),
}

/// What the poster told, as it changed [`BoardView`].
#[derive(Message, Clone, Debug, PartialEq)]
pub struct BoardNews(pub Report);

/// Where a day's result is, as the card says it.
#[derive(Clone, Debug, PartialEq)]
pub enum DayPost {
    /// In the queue, waiting for its first try or for a player's name.
    Queued,
    /// Being posted now.
    Posting,
    /// The server could not be reached (or was busy): tried again later.
    Waiting,
    /// On the board.
    Posted(Standing),
    /// Refused, with the server's sentence.
    Refused(String),
}

/// What the HUD shows of the board. Written only here, from the poster's reports.
#[derive(Resource, Debug, Default)]
pub struct BoardView {
    /// The server's address, when there is one (else no button, no menu entry).
    pub server: Option<String>,
    /// The player's name on the board, once made.
    pub player: Option<String>,
    /// Each day's result, by date.
    pub days: BTreeMap<String, DayPost>,
    /// A name was asked for and the server's answer is awaited.
    pub naming: bool,
    /// The server could not be reached at the last try (what waits is tried again).
    pub offline: bool,
    /// The server's sentence for the last name refused.
    pub name_refused: Option<String>,
    /// The latest ranking: fetched now, or kept from before.
    pub ranking: Option<KeptRanking>,
    /// Whether the ranking shown was fetched since the app started.
    pub ranking_fresh: bool,
    /// Why the last fetch failed, if it did.
    pub ranking_failed: Option<String>,
    /// A file the board could not keep.
    pub trouble: Option<String>,
}

impl BoardView {
    /// Whether the board is there to post to (an address is set).
    pub fn enabled(&self) -> bool {
        self.server.is_some()
    }
}

/// The poster, behind a lock only so that the resource may be shared between threads: only
/// this module's systems reach it, through `ResMut` and `get_mut`.
#[derive(Resource, Default)]
struct PosterHandle(Mutex<Option<Poster>>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<BoardCommand>()
        .add_message::<BoardNews>()
        .init_resource::<BoardView>()
        .init_resource::<PosterHandle>()
        .add_systems(
            Update,
            (
                (start_poster, read_reports).chain().in_set(AppSet::Input),
                follow_commands.in_set(AppSet::Preferences),
            ),
        );
}

/// The server's address: [`SERVER_ENV`]'s, else the settings'; none when blank.
pub fn server_address(setting: Option<&str>) -> Option<String> {
    pick_address(std::env::var(SERVER_ENV).ok().as_deref(), setting)
}

/// The first address given and not blank: the environment's, then the settings'.
pub fn pick_address(from_env: Option<&str>, setting: Option<&str>) -> Option<String> {
    [from_env, setting]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|address| !address.is_empty())
        .map(str::to_string)
}

/// Starts the poster when the address is known (or changes) and there is a data folder;
/// stops it when the address goes.
fn start_poster(
    settings: Res<Settings>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    dir: Option<Res<DataDir>>,
    mut view: ResMut<BoardView>,
    mut handle: ResMut<PosterHandle>,
    mut looked: Local<bool>,
) {
    let dir_changed = dir.as_ref().is_some_and(|dir| dir.is_changed());
    if *looked && !settings.is_changed() && !dir_changed {
        return;
    }
    *looked = true;
    let folder: Option<PathBuf> = dir.and_then(|dir| dir.0.clone());
    let address = folder
        .as_ref()
        .and(server_address(settings.server.as_deref()));
    if address == view.server {
        return;
    }
    let poster = handle.0.get_mut().unwrap_or_else(|e| e.into_inner());
    *poster = None;
    view.server = None;
    let (Some(address), Some(folder)) = (address, folder) else {
        return;
    };
    let mut config = PosterConfig::new(&address, folder.clone());
    config.wake = proxy.map(|proxy| {
        let proxy = Mutex::new((**proxy).clone());
        Wake(Arc::new(move || {
            let _ = crate::app::background::lock(&proxy)
                .send_event(bevy::winit::WinitUserEvent::WakeUp);
        }))
    });
    match Poster::start(config) {
        Ok(started) => {
            info!("the daily's board: {address}");
            *poster = Some(started);
            view.server = Some(address);
            view.player = board_client::player::load(&folder)
                .ok()
                .flatten()
                .map(|player| player.name);
            view.ranking = board_client::kept::load(&folder);
        }
        Err(error) => {
            warn!("the daily's board cannot start: {error}");
            view.trouble = Some(error.to_string());
        }
    }
}

/// Takes the poster's reports into the view, and tells each as a [`BoardNews`].
fn read_reports(
    mut handle: ResMut<PosterHandle>,
    mut view: ResMut<BoardView>,
    mut news: MessageWriter<BoardNews>,
    mut frames: MessageWriter<crate::app::redraw::FrameRequest>,
) {
    let poster = handle.0.get_mut().unwrap_or_else(|e| e.into_inner());
    let Some(poster) = poster.as_ref() else {
        return;
    };
    for report in poster.reports() {
        take_report(&mut view, &report);
        news.write(BoardNews(report));
        // The controls draw it in this frame; egui settles its layout in the next.
        frames.write(crate::app::redraw::FrameRequest::OneMore);
    }
}

/// A report's change to the view.
pub fn take_report(view: &mut BoardView, report: &Report) {
    match report {
        Report::Registered(name) => {
            view.offline = false;
            view.player = Some(name.clone());
            view.naming = false;
            view.name_refused = None;
        }
        Report::Naming(_) => view.naming = true,
        Report::PlayerForgotten => {
            view.player = None;
            view.naming = false;
            let said = "The board no longer knows your name: choose one again to post.";
            view.name_refused = Some(said.to_string());
        }
        Report::NameRefused(sentence) => {
            view.naming = false;
            view.name_refused = Some(sentence.clone());
        }
        Report::Queue(entries) => {
            for (date, outcome) in entries {
                let post = match outcome {
                    Outcome::Pending => DayPost::Queued,
                    Outcome::Done(posted) => {
                        DayPost::Posted(posted.map(Into::into).unwrap_or_default())
                    }
                    Outcome::Refused(error) => DayPost::Refused(error.clone()),
                };
                view.days.insert(date.clone(), post);
            }
        }
        Report::Posting(date) => {
            view.offline = false;
            view.days.insert(date.clone(), DayPost::Posting);
        }
        Report::Waiting { why, .. } => {
            debug!("the daily's board: {why}");
            view.offline = true;
            for post in view.days.values_mut() {
                if matches!(post, DayPost::Posting | DayPost::Queued) {
                    *post = DayPost::Waiting;
                }
            }
        }
        Report::Posted(date, standing) => {
            view.days.insert(date.clone(), DayPost::Posted(*standing));
        }
        Report::Refused(date, sentence) => {
            view.days
                .insert(date.clone(), DayPost::Refused(sentence.clone()));
        }
        Report::Ranking(kept) => {
            view.ranking = Some(kept.clone());
            view.ranking_fresh = true;
            view.ranking_failed = None;
        }
        Report::RankingFailed(_, why) => view.ranking_failed = Some(why.clone()),
        Report::Trouble(why) => {
            warn!("the daily's board: {why}");
            view.trouble = Some(why.clone());
        }
    }
}

/// Passes the HUD's asks to the poster.
fn follow_commands(
    mut commands: MessageReader<BoardCommand>,
    mut handle: ResMut<PosterHandle>,
    mut view: ResMut<BoardView>,
) {
    let poster = handle.0.get_mut().unwrap_or_else(|e| e.into_inner());
    for command in commands.read() {
        let Some(poster) = poster.as_ref() else {
            continue;
        };
        match command.clone() {
            BoardCommand::Post { date, code } => {
                view.days.entry(date.clone()).or_insert(DayPost::Queued);
                poster.ask(Ask::Post { date, code });
            }
            BoardCommand::Name(name) => {
                view.naming = true;
                view.name_refused = None;
                poster.ask(Ask::Register(name));
            }
            BoardCommand::Fetch(date) => poster.ask(Ask::Ranking(date)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for the board's server on 127.0.0.1: 201 for a result, a ranking of two
    /// for a GET; what it was asked, a line a request ("POST /api/daily/…/results").
    fn fake_server() -> (String, std::sync::mpsc::Receiver<String>) {
        use std::io::{BufRead, BufReader, Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (asked, heard) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let mut reader = BufReader::new(stream);
                let (mut first, mut length) = (String::new(), 0);
                reader.read_line(&mut first).unwrap();
                loop {
                    let mut line = String::new();
                    reader.read_line(&mut line).unwrap();
                    if let Some(n) = line.to_lowercase().strip_prefix("content-length:") {
                        length = n.trim().parse().unwrap();
                    }
                    if line.trim().is_empty() {
                        break;
                    }
                }
                reader.read_exact(&mut vec![0; length]).unwrap();
                let request: String = first.split(' ').take(2).collect::<Vec<_>>().join(" ");
                let (status, body) = if request.starts_with("POST") {
                    let posted = r#"{"rank":2,"of":2,"moves":40,"optimal":36,"time_ms":20000}"#;
                    ("201 Created", posted.to_string())
                } else {
                    let row = |rank, name, time| {
                        format!(
                            r#"{{"rank":{rank},"name":"{name}","moves":40,"optimal":36,"time_ms":{time},"code":"X"}}"#
                        )
                    };
                    let rows = [row(1, "Ann", 16_600), row(2, "Zoe", 20_000)].join(",");
                    let date = request.split('/').nth(3).unwrap_or_default().to_string();
                    (
                        "200 OK",
                        format!(
                            r#"{{"date":"{date}","width":4,"height":4,"tiles":[],"optimal":36,"results":[{rows}]}}"#
                        ),
                    )
                };
                let mut stream = reader.into_inner();
                let answer = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                // Told before answered: the test reads it once the answer is in.
                let _ = asked.send(request);
                stream.write_all(answer.as_bytes()).unwrap();
            }
        });
        (url, heard)
    }

    #[test]
    fn a_post_asked_by_the_hud_reaches_the_server_and_its_standing_the_view() {
        let (url, heard) = fake_server();
        let dir = std::env::temp_dir().join(format!("snapslide-board-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let player = board_client::Player {
            name: "Zoe".into(),
            token: "ab".repeat(32),
        };
        board_client::player::save(&dir, &player).unwrap();
        let mut app = App::new();
        app.add_plugins((
            crate::frame::plugin,
            crate::messages::plugin,
            crate::play::settings::plugin,
        ))
        .add_plugins((crate::app::redraw::core_plugin, plugin))
        .insert_resource(DataDir(Some(dir.clone())))
        .insert_resource(Settings(crate::game::Preferences {
            server: Some(url.clone()),
            ..default()
        }));
        app.update();
        let view = app.world().resource::<BoardView>();
        assert_eq!(view.server.as_deref(), Some(url.as_str()));
        assert_eq!(view.player.as_deref(), Some("Zoe"));
        let date = "2026-12-07".to_string();
        let code = "CODE".to_string();
        app.world_mut().write_message(BoardCommand::Post {
            date: date.clone(),
            code,
        });
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            app.update();
            let view = app.world().resource::<BoardView>();
            if let Some(DayPost::Posted(standing)) = view.days.get(&date) {
                assert_eq!(
                    standing_words(standing),
                    "2nd of 2 today, 3.4 s behind the fastest"
                );
                assert_eq!(view.ranking.as_ref().unwrap().ranking.results.len(), 2);
                break;
            }
            assert!(std::time::Instant::now() < deadline, "{view:?}");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let asked: Vec<String> = heard.try_iter().collect();
        let path = format!("/api/daily/{date}/results");
        assert_eq!(asked, [format!("POST {path}"), format!("GET {path}")]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_environment_names_the_server_before_the_settings_and_blank_is_none() {
        let env = Some("http://127.0.0.1:8080");
        let set = Some(" https://board.example ");
        assert_eq!(pick_address(env, set).as_deref(), env);
        assert_eq!(
            pick_address(Some("  "), set).as_deref(),
            Some("https://board.example")
        );
        assert_eq!(pick_address(None, Some("")), None);
        assert_eq!(pick_address(None, None), None);
    }

    #[test]
    fn reports_change_what_the_card_says() {
        let mut view = BoardView::default();
        let date = "2026-12-07".to_string();
        take_report(&mut view, &Report::Posting(date.clone()));
        assert_eq!(view.days[&date], DayPost::Posting);
        let why = "down".to_string();
        let retry_in = std::time::Duration::from_secs(1);
        take_report(&mut view, &Report::Waiting { why, retry_in });
        assert_eq!(view.days[&date], DayPost::Waiting);
        let standing = Standing {
            rank: Some(12),
            of: Some(340),
            time_ms: Some(20_000),
            fastest_ms: Some(16_600),
        };
        take_report(&mut view, &Report::Posted(date.clone(), standing));
        assert_eq!(view.days[&date], DayPost::Posted(standing));
        take_report(&mut view, &Report::NameRefused("taken".into()));
        assert_eq!(view.name_refused.as_deref(), Some("taken"));
        take_report(&mut view, &Report::Registered("Ann".into()));
        assert_eq!(
            (view.player.as_deref(), view.name_refused),
            (Some("Ann"), None)
        );
    }
}
