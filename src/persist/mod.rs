//! Settings, records, the game in progress and the player's photos, in the platform's data
//! folder (`~/.local/share/snapslide` on Linux, the app's internal storage on a phone).
//!
//! At start the files are read and what they hold is sent to the modules that own it
//! ([`Restored`], the session's and the game's commands); this module writes nobody's resource
//! but its own. After that a file is written only when its contents change, off the frame (see
//! `writer`): a whole file replaced atomically, a journal (the game's, the solves') appended
//! to; while the player only looks at the board, nothing is
//! written. The game is saved when the game says it changed, and at once when the app is
//! closed or goes to the background.

mod files;
mod folder_lock;
mod saver;
mod writer;

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::prelude::*;
use bevy::window::WindowCloseRequested;

pub use files::{
    Loaded, Problem, StoreError, load_all, save_json, write_atomic, write_atomic_with,
};
pub use folder_lock::{HoldError, hold_data_folder};
pub use saver::{Said, Saver, saved_again};
pub use writer::{Job, SharedDisk, SharedSteps, Writer, Written};

use crate::app::lifecycle::Suspended;
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::cli::CliOptions;
use crate::frame::AppSet;
use crate::game::files::{DAILY_FILE, SCORES_FILE, SETTINGS_FILE};
use crate::game::save_log::Told;
use crate::game::solves::HistoryRecord;
use crate::history::records::{Days, Scores};
use crate::messages::{
    Began, Change, GameChanged, GameCommand, HistoryChanged, NewGame, Notice, Pending,
    PhotoArrived, ReplaceGame, Restored, SolvesKept,
};
use crate::photo::framing::FramingCommand;
use crate::photo::{FramedPhoto, PhotoSource};
use crate::play::CurrentGame;
use crate::play::session::{Session, SessionCommand};
use crate::play::settings::Settings;

/// The folder the player's photos are kept in, inside the data folder.
pub const PHOTOS_DIR: &str = "photos";
/// How long closing or suspending waits for the last writes.
const FLUSH_LIMIT: Duration = Duration::from_secs(2);

/// The folder the files live in; `None` keeps nothing (for screenshots and tests).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct DataDir(pub Option<PathBuf>);

impl DataDir {
    /// The platform's data folder for the app, overridable with `SNAPSLIDE_DATA_DIR`; none for
    /// a screenshot, which leaves the player's files alone unless a folder is named for it.
    pub fn for_options(options: &CliOptions) -> DataDir {
        if options.screenshot.is_some() && std::env::var_os("SNAPSLIDE_DATA_DIR").is_none() {
            DataDir(None)
        } else {
            DataDir(crate::platform::data_dir())
        }
    }
}

/// Restores the files at start, keeps picked photos, and saves what changes. The data folder
/// follows the command line ([`CliOptions`], inserted before this plugin), unless one is set
/// already (the tests set their own).
pub fn plugin(app: &mut App) {
    if !app.world().contains_resource::<DataDir>() {
        let dir = app
            .world()
            .get_resource::<CliOptions>()
            .map(DataDir::for_options)
            .unwrap_or_default();
        app.insert_resource(dir);
    }
    app.add_message::<WindowCloseRequested>()
        .init_resource::<Saver>()
        .add_systems(Startup, restore)
        .add_systems(Update, keep_photo.in_set(AppSet::Controls))
        // Last: a quit from the menu is saved in the frame it is asked, which is the last one.
        .add_systems(Last, save_changes.before(ReportMotion));
}

/// What `restore` sends.
#[derive(bevy::ecs::system::SystemParam)]
struct Restoring<'w> {
    restored: MessageWriter<'w, Restored>,
    commands: MessageWriter<'w, GameCommand>,
    new_game: MessageWriter<'w, NewGame>,
    session: MessageWriter<'w, SessionCommand>,
    framing: MessageWriter<'w, FramingCommand>,
    replace: MessageWriter<'w, ReplaceGame>,
    notices: MessageWriter<'w, Notice>,
}

/// Loads the files and starts the first game: the one the player had (in progress or
/// finished), or a new one. What was read goes to its owners as messages.
fn restore(
    dir: Res<DataDir>,
    options: Res<CliOptions>,
    mut saver: ResMut<Saver>,
    mut out: Restoring,
) {
    let mut loaded = dir.0.as_deref().map(load_all).unwrap_or_default();
    let mut rewrite = Vec::new();
    for problem in loaded.problems.drain(..) {
        warn!("{}", problem.log);
        out.notices.write(Notice(problem.player));
        rewrite.extend(problem.rewrite);
    }
    if let (Some(dir), Some((log, first))) = (dir.0.as_deref(), loaded.journal.take()) {
        saver.resume_game(dir, log, first);
    }
    let solves = loaded.solves.take().map(|(solves, first)| {
        if let Some(dir) = dir.0.as_deref() {
            saver.resume_solves(dir, first);
        }
        solves
    });
    let restored = Restored {
        settings: loaded.settings.take(),
        scores: loaded.scores.take(),
        days: loaded.days.take(),
        solves,
    };
    // The files hold what was read (or nothing, which the defaults stand for): unchanged, they
    // are not written again. A file read in part is written once with what was kept.
    let defaults = Restored::default();
    if let Some(dir) = dir.0.as_deref() {
        let settings = restored.settings.clone().unwrap_or_default();
        saver.restored(dir, SETTINGS_FILE, &settings, &rewrite);
        let scores = restored.scores.clone().unwrap_or_default();
        saver.restored(dir, SCORES_FILE, &scores, &rewrite);
        let days = restored.days.clone().unwrap_or_default();
        saver.restored(dir, DAILY_FILE, &days, &rewrite);
    }
    if restored != defaults {
        out.restored.write(restored);
    }
    start_first_game(&options, loaded.game, &mut out);
}

/// The game the player had (in progress or finished), or a new one. What the command line
/// asks besides (another board, seed or framed photo) replaces a game brought back only as
/// any replacement does: asked first when it has moves to lose.
fn start_first_game(
    options: &CliOptions,
    game: Option<(crate::game::Game, Option<FramedPhoto>)>,
    out: &mut Restoring,
) {
    let photo = options.photo.as_ref().map(|file| FramedPhoto {
        source: PhotoSource::File(file.clone()),
        framing: options.crop,
    });
    // Without a frame on the command line, the player frames the photo (Play asks first).
    if let Some(photo) = photo.clone().filter(|photo| photo.framing.is_none()) {
        if let Some((columns, rows)) = options.size {
            out.session.write(SessionCommand::SetBoard(columns, rows));
        }
        out.framing.write(FramingCommand::Open(photo));
    }
    // A board, a seed or a framed photo asks for a new game (a size given with a photo to
    // frame is the framing sheet's).
    let framed = photo.filter(|photo| photo.framing.is_some());
    let sized = options.size.is_some() && options.photo.is_none();
    let asks = framed.is_some() || options.seed.is_some() || sized;
    let fresh = Pending::Fresh {
        photo: framed,
        size: options.size,
        seed: options.seed,
    };
    match game {
        // Not a review's board, which older versions saved in place of the finished game.
        Some((game, photo)) if !game.is_viewer() => {
            let photo = photo.unwrap_or_else(|| FramedPhoto::whole(crate::photo::default_photo()));
            out.session.write(SessionCommand::UsePhoto(photo));
            out.commands.write(GameCommand::Resume(Box::new(game)));
            if asks {
                out.replace.write(ReplaceGame(fresh));
            }
        }
        // A challenge opened with nothing to bring back: its board is the first game.
        _ if let Some(Ok(challenge)) = options
            .open
            .as_deref()
            .map(crate::history::challenge::read_code) =>
        {
            let board = challenge.start().clone();
            let game = crate::game::Game::new(board, crate::game::GameKind::Custom);
            out.commands.write(GameCommand::Start(Box::new(game)));
        }
        // Nothing to lose: the new game at once.
        _ => {
            if let Pending::Fresh {
                photo: Some(photo), ..
            } = &fresh
            {
                out.session.write(SessionCommand::UsePhoto(photo.clone()));
            }
            if let Some((columns, rows)) = options.size {
                out.session.write(SessionCommand::SetBoard(columns, rows));
            }
            out.new_game.write(NewGame::Settings { seed: options.seed });
        }
    }
}

/// The solve history in `dir`, oldest first (empty without one), read without writing: lines
/// that cannot be read are left out, as at start.
fn history_in(dir: &Path) -> Result<Vec<crate::game::solves::Solve>, journal::JournalError> {
    let loaded = journal::read(&dir.join(crate::game::solves::SOLVES_FILE))?;
    Ok(crate::game::solves::solves_in(&loaded).solves)
}

/// The speedsolver's statistics of the solve history in `dir`.
pub fn stats_in(dir: &Path) -> Result<crate::game::stats::StatsReport, journal::JournalError> {
    let solves = history_in(dir)?;
    Ok(crate::game::stats::StatsReport::new(
        solves.iter().filter_map(|solve| solve.attempt()),
    ))
}

/// `--export-solves`: every solve of the history in `dir`, as CSV in `file` (written whole or
/// not at all); how many.
pub fn export_solves(dir: &Path, file: &Path) -> Result<usize, String> {
    let solves = history_in(dir).map_err(|e| e.to_string())?;
    let text = crate::game::solves_csv::export_csv(&solves);
    write_atomic(file, text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(solves.len())
}

/// `--import-solves`: the solves of a CSV file added to the history in `dir`, all or none (a
/// line that cannot be read, or is not a solve a person could have played, refuses the file,
/// with its number, and the history is left as it was); a solve the history has already is
/// skipped. What was added and skipped.
pub fn import_solves(
    dir: &Path,
    file: &Path,
) -> Result<crate::game::solves_csv::NewSolves, String> {
    use crate::game::solves_csv::{MAX_BYTES, import_csv, new_solves};
    let name = file.display();
    let size = std::fs::metadata(file)
        .map_err(|e| format!("{name}: {e}"))?
        .len();
    if size > MAX_BYTES as u64 {
        return Err(format!(
            "{name} is {size} bytes: more than any history ({MAX_BYTES})"
        ));
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("{name}: {e}"))?;
    let now = crate::game::solves::now_ms();
    let solves =
        import_csv(&text, now).map_err(|e| format!("{name}: {e}; nothing was imported"))?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(crate::game::solves::SOLVES_FILE);
    let (mut history, loaded) = journal::Journal::open(&path).map_err(|e| e.to_string())?;
    let new = new_solves(&crate::game::solves::solves_in(&loaded).solves, solves);
    let lines: Vec<String> = new.added.iter().map(|solve| solve.encode()).collect();
    history
        .append_all(&lines, true)
        .map_err(|e| e.to_string())?;
    Ok(new)
}

/// Keeps a photo the player picked in the data folder (so the game in progress still has it
/// after a restart), and hands it to the player to frame.
fn keep_photo(
    mut arrived: MessageReader<PhotoArrived>,
    dir: Res<DataDir>,
    mut framing: MessageWriter<FramingCommand>,
    mut notices: MessageWriter<Notice>,
) {
    for photo in arrived.read() {
        let folder = dir
            .0
            .clone()
            .unwrap_or_else(std::env::temp_dir)
            .join(PHOTOS_DIR);
        match store_photo(&folder, &photo.bytes) {
            Ok(path) => {
                let framed = FramedPhoto::whole(PhotoSource::Picked(path));
                framing.write(FramingCommand::Open(framed));
            }
            Err(reason) => {
                notices.write(Notice(format!("Could not use {}: {reason}", photo.name)));
            }
        }
    }
}

/// Checks that the bytes are a whole image the app reads, writes them to `folder` named by
/// their contents, and removes the photos picked before. Returns the new file.
pub fn store_photo(folder: &Path, bytes: &[u8]) -> Result<PathBuf, String> {
    let extension = crate::photo::file_extension(bytes).map_err(|e| e.to_string())?;
    let path = folder.join(format!(
        "{:016x}.{extension}",
        npuzzle::hash::fnv1a(bytes.iter().copied())
    ));
    if !path.exists() {
        write_atomic(&path, bytes).map_err(|e| e.to_string())?;
    }
    if let Ok(entries) = std::fs::read_dir(folder) {
        for entry in entries.flatten() {
            if entry.path() != path {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    Ok(path)
}

/// What `save_changes` reads.
#[derive(bevy::ecs::system::SystemParam)]
struct SaveInputs<'w, 's> {
    settings: Res<'w, Settings>,
    session: Res<'w, Session>,
    scores: Res<'w, Scores>,
    days: Res<'w, Days>,
    history: MessageReader<'w, 's, HistoryChanged>,
    current: Res<'w, CurrentGame>,
    suspended: Res<'w, Suspended>,
    time: Res<'w, Time<Real>>,
    changes: MessageReader<'w, 's, GameChanged>,
    closing: MessageReader<'w, 's, WindowCloseRequested>,
    exit: MessageReader<'w, 's, AppExit>,
}

/// What `save_changes` says.
#[derive(bevy::ecs::system::SystemParam)]
struct SaveOutputs<'w> {
    notices: MessageWriter<'w, Notice>,
    kept: MessageWriter<'w, SolvesKept>,
    frames: MessageWriter<'w, FrameRequest>,
}

/// Hands the writer every file whose contents changed: the game's journal what the game told
/// this frame (and when the app closes, quits or is suspended, the game with its clock as it
/// is then, waiting for the write to land); then tries again the files that wait.
fn save_changes(
    dir: Res<DataDir>,
    mut saver: ResMut<Saver>,
    mut inputs: SaveInputs,
    mut out: SaveOutputs,
) {
    let changes: Vec<GameChanged> = inputs.changes.read().cloned().collect();
    let closing = inputs.closing.read().count() > 0
        || inputs.exit.read().count() > 0
        || (inputs.suspended.is_changed() && inputs.suspended.0);
    let Some(dir) = dir.0.as_deref() else {
        return;
    };
    // The game's journal first: its moves never wait for another file.
    let (game, photo) = (&inputs.current.game, &inputs.session.photo);
    let told: Vec<Told> = changes.iter().filter_map(told_of).collect();
    // The board on show before the first game is none of the player's.
    if inputs.current.started() {
        saver.save_game(dir, &told, game, photo);
        if closing {
            saver.close_game(game, photo);
        }
    }
    if inputs.settings.is_changed() {
        saver.save(dir, SETTINGS_FILE, &inputs.settings.0);
    }
    if inputs.scores.is_changed() {
        saver.save(dir, SCORES_FILE, &inputs.scores.0);
    }
    if inputs.days.is_changed() {
        saver.save(dir, DAILY_FILE, &inputs.days.0);
    }
    let history: Vec<HistoryRecord> = inputs.history.read().map(|c| c.0.clone()).collect();
    saver.save_solves(dir, &history);
    // When closing, files that wait for a retry are tried once more, at once.
    let now = inputs.time.elapsed();
    let mut said = saver.check(now, closing, game, photo);
    if closing {
        if !saver.writer.flush(FLUSH_LIMIT) {
            warn!("the last save did not finish in {FLUSH_LIMIT:?}");
        }
        said.extend(saver.check(now, false, game, photo));
    }
    for said in said {
        match said {
            Said::Notice(text) => {
                out.notices.write(Notice(text));
            }
            Said::SolvesKept => {
                out.kept.write(SolvesKept);
            }
        }
        // What is said is read in the next frame, which must come.
        out.frames.write(FrameRequest::OneMore);
    }
}

/// What a change of the game means for its save, as the game told it.
fn told_of(changed: &GameChanged) -> Option<Told<'_>> {
    Some(match &changed.change {
        Change::Slid { act, .. } => Told::Slid(act, changed.clock),
        Change::Reset(_, Began::Restarted) => Told::Restarted(changed.clock),
        Change::Reset(_, Began::Resumed) => Told::Resumed,
        Change::Reset(game, Began::New) => Told::Began(game),
        Change::Helped => Told::Helped(changed.clock),
        Change::Won(game) => Told::Ended(game),
        Change::Bumped(_) | Change::Left(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picked_photo_is_kept_by_its_contents_and_replaces_the_last() {
        let folder = std::env::temp_dir().join(format!("snapslide-photos-{}", std::process::id()));
        let first = crate::photo::bundled("rocket.jpg").unwrap();
        let second = crate::photo::bundled("chelsea.png").unwrap();
        let a = store_photo(&folder, first).unwrap();
        assert_eq!(
            store_photo(&folder, first).unwrap(),
            a,
            "the same photo, the same file"
        );
        assert_eq!(a.extension().unwrap(), "jpg");
        let b = store_photo(&folder, second).unwrap();
        assert_eq!(std::fs::read(&b).unwrap(), second);
        assert!(!a.exists(), "the photo picked before is gone");
        // Not an image, or a JPEG cut short: refused, and nothing is written.
        assert!(store_photo(&folder, b"hello").is_err());
        assert!(store_photo(&folder, &first[..first.len() / 2]).is_err());
        let names: Vec<_> = std::fs::read_dir(&folder).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
        std::fs::remove_dir_all(folder).unwrap();
    }
}
