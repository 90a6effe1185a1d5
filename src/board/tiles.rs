//! The photo cut for the board, as textures: the chosen photo is decoded and cut in the
//! background (a big photo never stalls a frame) for the shape each new game brings, and a
//! photo that cannot be used gives a notice and the game goes on with the one it had.

use std::time::Instant;

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use image::RgbaImage;

use crate::app::background::Background;
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::frame::AppSet;
use crate::game::Day;
use crate::messages::{BoardReplacing, Change, GameChanged, Notice};
use crate::photo::{self, FramedPhoto, PhotoError, PreparedPhoto};
use crate::play::session::{Session, SessionCommand};
use crate::play::settings::Settings;

/// The board a photo is cut for: the photo (and its framing) and the board's columns and rows.
pub type CutFor = (FramedPhoto, usize, usize);

/// The photo cut for the current board, as textures.
#[derive(Resource, Default)]
pub struct PhotoTiles {
    /// Tile textures, row-major by goal cell (tile `t` is at index `t - 1`, the last is the
    /// blank's, shown on the win).
    pub tiles: Vec<Handle<Image>>,
    /// The whole picture as cut, for the preview.
    pub picture: Option<RgbaImage>,
    /// What the tiles were cut from and for.
    pub made_from: Option<CutFor>,
    /// Bumped whenever the textures change.
    pub version: u64,
    /// A photo is being decoded and cut.
    pub loading: bool,
    /// The photo's width over its height, upright, once it is known.
    pub aspect: Option<f32>,
    /// The tiles are too alike to be placed by eye (a field of stars): they are numbered,
    /// unless the player turned the numbers off (`snapslide_photo::likeness`).
    pub alike: bool,
}

/// The system set that keeps the tiles cut; the board draws after it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CutTiles;

/// A photo being decoded and cut in the background, and what it is for; the board the tiles
/// are wanted for: its shape, and the day whose photo a puzzle of the day shows (none before
/// the first game, whose board is a placeholder); and whether a new game is on its way (told
/// by [`BoardReplacing`]).
#[derive(Resource, Default)]
struct PhotoJob {
    job: Option<(CutFor, Cutting, Instant)>,
    board: Option<(usize, usize, Option<Day>)>,
    new_board_coming: bool,
}

/// The background task decoding and cutting a photo.
type Cutting = Background<Result<Cut, PhotoError>>;

/// A photo cut for a board, and whether its tiles are too alike to be placed by eye.
type Cut = (PreparedPhoto, bool);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PhotoTiles>()
        .init_resource::<PhotoJob>()
        .add_systems(
            Update,
            keep_tiles_cut.in_set(AppSet::Animate).in_set(CutTiles),
        )
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// A photo being cut: the status's spinner moves, and the board comes.
fn report_motion(tiles: Res<PhotoTiles>, mut frames: MessageWriter<FrameRequest>) {
    if tiles.loading {
        frames.write(FrameRequest::Moving);
    }
}

fn to_bevy_image(tile: &RgbaImage) -> Image {
    Image::new(
        Extent3d {
            width: tile.width(),
            height: tile.height(),
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        tile.as_raw().clone(),
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

/// What `keep_tiles_cut` writes besides the tiles, and the settings that decide whether a
/// photo's alike tiles are said to be numbered.
#[derive(bevy::ecs::system::SystemParam)]
struct Said<'w> {
    settings: Res<'w, Settings>,
    notices: MessageWriter<'w, Notice>,
    commands: MessageWriter<'w, SessionCommand>,
    frames: MessageWriter<'w, FrameRequest>,
}

impl Said<'_> {
    /// A photo that could not be used: a notice, and the photo the game goes on with (not for
    /// the puzzle of the day, which has its own). Both are read in the next frame, which must
    /// come.
    fn refused(&mut self, notice: String, fallback: Option<FramedPhoto>) {
        self.notices.write(Notice(notice));
        if let Some(photo) = fallback {
            self.commands.write(SessionCommand::UsePhoto(photo));
        }
        self.frames.write(FrameRequest::OneMore);
    }
}

/// Notes the board each new game brings (its shape, and its day: a review shows the finished
/// game's photo, the day's for the puzzle of the day), and whether a new game is on its way.
/// Returns whether either changed.
fn follow_new_boards(
    job: &mut PhotoJob,
    changes: &mut MessageReader<GameChanged>,
    replacing: &mut MessageReader<BoardReplacing>,
) -> bool {
    let mut told = false;
    for changed in changes.read() {
        if let Change::Reset(game, _) = &changed.change {
            let board = &changed.board;
            job.board = Some((board.width(), board.height(), game.kept().kind().day()));
            told = true;
        }
    }
    if let Some(&BoardReplacing(coming)) = replacing.read().last() {
        job.new_board_coming = coming;
        told = true;
    }
    told
}

/// Keeps the tiles cut from the chosen photo for the board's shape: when a new board comes,
/// the photo changes or a new game stops being made, and while a cut is under way.
fn keep_tiles_cut(
    session: Res<Session>,
    mut replacing: MessageReader<BoardReplacing>,
    mut changes: MessageReader<GameChanged>,
    mut tiles: ResMut<PhotoTiles>,
    mut job: ResMut<PhotoJob>,
    mut images: ResMut<Assets<Image>>,
    mut said: Said,
) {
    let told = follow_new_boards(&mut job, &mut changes, &mut replacing);
    if !told && !session.is_changed() && job.job.is_none() {
        return;
    }
    // The board on show before the first game is a placeholder: the photo is decoded once,
    // for the first game's board.
    let Some((width, height, day)) = job.board else {
        return;
    };
    let photo = crate::photo::photo_for(day, &session.photo);
    let is_wanted = |cut: &CutFor| cut.0 == photo && (cut.1, cut.2) == (width, height);
    if tiles.made_from.as_ref().is_some_and(is_wanted) {
        job.job = None;
        // Written only when it changes: a write marks the tiles changed, and the board view
        // builds its sprites again for changed tiles (it did so every frame, undoing a drag).
        tiles
            .reborrow()
            .map_unchanged(|t| &mut t.loading)
            .set_if_neq(false);
        return;
    }
    // A new game on its way (a photo just framed, say) brings its own board: the photo is cut
    // for that one, not for the board about to go.
    if job.new_board_coming && job.job.is_none() {
        return;
    }
    if !job.job.as_ref().is_some_and(|(key, ..)| is_wanted(key)) {
        let wanted = (photo.clone(), width, height);
        job.job = Some((wanted.clone(), start_cutting(&wanted), Instant::now()));
    }
    tiles
        .reborrow()
        .map_unchanged(|t| &mut t.loading)
        .set_if_neq(true);
    let Some((wanted, result)) = finished_cut(&mut job, &mut tiles, &photo, day, &mut said) else {
        return;
    };
    tiles.loading = false;
    match result {
        Ok((prepared, alike)) => {
            let new_photo = tiles.made_from.as_ref().is_none_or(|had| had.0 != wanted.0);
            if alike && new_photo && said.settings.show_numbers.is_none() {
                said.notices.write(Notice(
                    "This photo's tiles look alike, so they are numbered (Options turns the \
                     numbers off)."
                        .into(),
                ));
            }
            show(prepared, wanted, &mut tiles, &mut images);
            tiles.alike = alike;
        }
        Err(error) => {
            let notice = format!(
                "Could not use {}: {error}",
                crate::photo::label(&photo.source)
            );
            // Keep the photo we had (or the bundled one), and the game goes on.
            let had = tiles.made_from.as_ref().map(|(photo, ..)| photo.clone());
            let fallback = had
                .filter(|had| *had != photo)
                .unwrap_or_else(|| FramedPhoto::whole(crate::photo::default_photo()));
            said.refused(notice, day.is_none().then_some(fallback));
        }
    }
}

/// The cut when it is done: what it was for and what came of it (logged with its time). A
/// task lost on the way is said as a photo that could not be used.
fn finished_cut(
    job: &mut PhotoJob,
    tiles: &mut ResMut<PhotoTiles>,
    photo: &FramedPhoto,
    day: Option<Day>,
    said: &mut Said,
) -> Option<(CutFor, Result<Cut, PhotoError>)> {
    let (_, task, started) = job.job.as_mut()?;
    let Some(result) = task.poll() else {
        if task.is_lost() {
            job.job = None;
            tiles.loading = false;
            let notice = format!("Could not use {}.", crate::photo::label(&photo.source));
            let fallback = FramedPhoto::whole(crate::photo::default_photo());
            said.refused(notice, day.is_none().then_some(fallback));
        }
        return None;
    };
    info!(
        "photo decoded and cut in {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let (wanted, ..) = job.job.take()?;
    Some((wanted, result))
}

fn start_cutting(wanted: &CutFor) -> Cutting {
    let (framed, width, height) = wanted.clone();
    Background::spawn("photo", move || {
        let image = photo::load_shared(&framed.source)?;
        let board = (width as u32, height as u32);
        let (turns, crop) = photo::crop_for(&framed, (image.width(), image.height()), board);
        let prepared = photo::prepare_framed(&image, turns, crop, board.0, board.1);
        let alike = photo::likeness::tiles_alike(&prepared.tiles, width);
        Ok((prepared, alike))
    })
}

fn show(
    prepared: PreparedPhoto,
    cut_for: CutFor,
    tiles: &mut PhotoTiles,
    images: &mut Assets<Image>,
) {
    for old in tiles.tiles.drain(..) {
        images.remove(&old);
    }
    tiles.tiles = prepared
        .tiles
        .iter()
        .map(|tile| images.add(to_bevy_image(tile)))
        .collect();
    tiles.picture = Some(prepared.picture);
    tiles.aspect = Some(prepared.aspect);
    tiles.made_from = Some(cut_for);
    tiles.version += 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the frames in which the tiles were seen changed.
    #[derive(Resource, Default)]
    struct SeenChanged(usize);

    fn watch(tiles: Res<PhotoTiles>, mut seen: ResMut<SeenChanged>) {
        if tiles.is_changed() {
            seen.0 += 1;
        }
    }

    #[test]
    fn tiles_already_cut_are_left_unchanged_frame_after_frame() {
        // The board view builds every sprite again when the tiles change: a write each frame
        // undid a drag's follow of the finger, and rebuilt the board sixty times a second.
        let mut app = App::new();
        app.add_message::<GameChanged>()
            .add_message::<Notice>()
            .add_message::<SessionCommand>()
            .add_message::<FrameRequest>()
            .init_resource::<Assets<Image>>()
            .init_resource::<Session>()
            .init_resource::<Settings>()
            .add_message::<BoardReplacing>()
            .init_resource::<SeenChanged>()
            .add_plugins(plugin)
            .add_systems(PostUpdate, watch);
        let photo = crate::photo::photo_for(None, &Session::default().photo);
        app.world_mut().resource_mut::<PhotoTiles>().made_from = Some((photo, 4, 4));
        app.world_mut().resource_mut::<PhotoJob>().board = Some((4, 4, None));
        for _ in 0..5 {
            app.update();
        }
        // The first frame sees the tiles as the test set them; none after.
        assert_eq!(app.world().resource::<SeenChanged>().0, 1);
        assert!(!app.world().resource::<PhotoTiles>().loading);
    }
}
