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
use crate::settings::Settings;

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
            let _ = crate::background::lock(&proxy).send_event(bevy::winit::WinitUserEvent::WakeUp);
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
    mut frames: MessageWriter<crate::redraw::FrameRequest>,
) {
    let poster = handle.0.get_mut().unwrap_or_else(|e| e.into_inner());
    let Some(poster) = poster.as_ref() else {
        return;
    };
    for report in poster.reports() {
        take_report(&mut view, &report);
        news.write(BoardNews(report));
        // The controls draw it in this frame; egui settles its layout in the next.
        frames.write(crate::redraw::FrameRequest::OneMore);
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
