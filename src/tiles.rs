//! The photo cut for the board, as textures: the chosen photo is decoded and cut in the
//! background (a big photo never stalls a frame), and a photo that cannot be used gives a
//! notice and the game goes on with the one it had.

use std::time::Instant;

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use image::RgbaImage;

use crate::background::Background;
use crate::frame::AppSet;
use crate::messages::Notice;
use crate::photo::{self, PhotoError, PhotoSource, PreparedPhoto};
use crate::play::CurrentGame;
use crate::redraw::{Motion, ReportMotion};
use crate::session::{Session, SessionCommand};

/// The board a photo is cut for: its source and the board's columns and rows.
pub type CutFor = (PhotoSource, usize, usize);

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
}

/// The system set that keeps the tiles cut; the board draws after it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CutTiles;

/// A photo being decoded and cut in the background, and what it is for.
#[derive(Resource, Default)]
struct PhotoJob(Option<(CutFor, Cutting, Instant)>);

/// The background task decoding and cutting a photo.
type Cutting = Background<Result<PreparedPhoto, PhotoError>>;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PhotoTiles>()
        .init_resource::<PhotoJob>()
        .add_systems(
            Update,
            keep_tiles_cut.in_set(AppSet::Animate).in_set(CutTiles),
        )
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// A photo being cut: the status's spinner moves, and the board comes.
fn report_motion(tiles: Res<PhotoTiles>, mut motion: ResMut<Motion>) {
    if tiles.loading {
        motion.moving();
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

/// Keeps the tiles cut from the chosen photo for the board's shape.
fn keep_tiles_cut(
    session: Res<Session>,
    current: Res<CurrentGame>,
    mut tiles: ResMut<PhotoTiles>,
    mut job: ResMut<PhotoJob>,
    mut images: ResMut<Assets<Image>>,
    mut notices: MessageWriter<Notice>,
    mut commands: MessageWriter<SessionCommand>,
) {
    if current.generation == 0 {
        // The board on show before the first game is a placeholder: the photo is decoded once,
        // for the first game's board.
        return;
    }
    let board = current.game.board();
    // A review shows the finished game's photo (the day's, for the puzzle of the day).
    let day = current.game.kept().day();
    let photo = crate::photo::photo_for(day, &session.photo);
    let is_wanted =
        |cut: &CutFor| cut.0 == photo && (cut.1, cut.2) == (board.width(), board.height());
    if tiles.made_from.as_ref().is_some_and(is_wanted) {
        job.0 = None;
        tiles.loading = false;
        return;
    }
    if !job.0.as_ref().is_some_and(|(key, ..)| is_wanted(key)) {
        let wanted = (photo.clone(), board.width(), board.height());
        job.0 = Some((wanted.clone(), start_cutting(&wanted), Instant::now()));
    }
    tiles.loading = true;
    let Some((_, task, started)) = job.0.as_mut() else {
        return;
    };
    let Some(result) = task.poll() else {
        if task.is_lost() {
            job.0 = None;
            tiles.loading = false;
            notices.write(Notice(format!("Could not use {}.", photo.label())));
            if day.is_none() {
                commands.write(SessionCommand::UsePhoto(PhotoSource::default()));
            }
        }
        return;
    };
    info!(
        "photo decoded and cut in {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let Some((wanted, ..)) = job.0.take() else {
        return;
    };
    tiles.loading = false;
    match result {
        Ok(prepared) => show(prepared, wanted, &mut tiles, &mut images),
        Err(error) => {
            notices.write(Notice(format!("Could not use {}: {error}", photo.label())));
            // Keep the photo we had (or the bundled one), and the game goes on.
            let had = tiles.made_from.as_ref().map(|(source, ..)| source.clone());
            let fallback = had.filter(|source| *source != photo).unwrap_or_default();
            if day.is_none() {
                commands.write(SessionCommand::UsePhoto(fallback));
            }
        }
    }
}

fn start_cutting(wanted: &CutFor) -> Cutting {
    let (source, width, height) = wanted.clone();
    Background::spawn("photo", move || {
        photo::load(&source).map(|image| photo::prepare(&image, width as u32, height as u32))
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
