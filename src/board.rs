//! The board on screen: the photo's tiles as sprites, laid out for the window, with eased slides,
//! the shake of an illegal tap, and the photo filling in on the win.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use bevy::window::PrimaryWindow;
use image::RgbaImage;

use crate::AppSet;
use crate::hud::{PANEL_HEIGHT, PANEL_WIDTH};
use crate::input::BoardLayout;
use crate::photo::{self, PhotoSource};
use crate::play::{Animating, CurrentGame, GameChanged, Phase, Settings};

/// How long one slide takes.
pub const SLIDE_SECONDS: f32 = 0.12;
/// How long the shake of an illegal input takes.
pub const SHAKE_SECONDS: f32 = 0.25;
/// Space kept around the board, in logical pixels.
pub const MARGIN: f32 = 16.0;

/// The photo cut for the current board, as textures.
#[derive(Resource, Default)]
pub struct PhotoTiles {
    /// Tile textures, row-major by goal cell (tile `t` is at index `t - 1`, the last is the blank's).
    pub tiles: Vec<Handle<Image>>,
    /// The upright square, for the preview.
    pub square: Option<RgbaImage>,
    /// What the tiles were cut from: the source and the side.
    pub made_from: Option<(PhotoSource, usize)>,
    /// Bumped whenever the textures change.
    pub version: u64,
}

/// A message for the player from the app (a bad photo, a corrupt file…), shown by the HUD.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Notice(pub String);

/// One tile on screen.
#[derive(Component, Debug, Clone, Copy)]
pub struct TileSprite(pub u8);

/// The photo's missing piece, shown once the board is complete.
#[derive(Component, Debug, Clone, Copy)]
pub struct FillIn;

/// The backdrop that shows between tiles.
#[derive(Component, Debug, Clone, Copy)]
struct Backdrop;

/// A slide in progress.
#[derive(Component, Debug, Clone, Copy)]
struct Slide {
    from: Vec2,
    to: Vec2,
    elapsed: f32,
    duration: f32,
}

/// The shake in progress: which cell (all tiles if `None`) and for how long.
#[derive(Resource, Default, Debug, Clone, Copy)]
struct Shake(Option<(Option<usize>, f32)>);

/// What the tiles on screen were built for.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
struct Built(Option<(u64, u64, [u32; 4])>);

/// Everything the board spawns.
type BoardEntities = Or<(With<TileSprite>, With<Backdrop>, With<FillIn>)>;
/// The sprites that show a piece of the photo.
type PhotoPieces = Or<(With<TileSprite>, With<FillIn>)>;

/// Eases a slide: fast out, soft landing (cubic ease-out).
pub fn ease_out_cubic(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    1.0 - (1.0 - t).powi(3)
}

/// The board's layout for a window: beside the HUD in landscape, below it in portrait.
pub fn layout_for(window: Vec2, width: usize, height: usize) -> BoardLayout {
    let landscape = window.x >= window.y;
    let (area, center) = if landscape {
        let area = Vec2::new(window.x - PANEL_WIDTH, window.y);
        (area, Vec2::new(-PANEL_WIDTH / 2.0, 0.0))
    } else {
        let area = Vec2::new(window.x, window.y - PANEL_HEIGHT);
        (area, Vec2::new(0.0, -PANEL_HEIGHT / 2.0))
    };
    let area = (area - Vec2::splat(2.0 * MARGIN)).max(Vec2::splat(1.0));
    let cell = (area.x / width.max(1) as f32)
        .min(area.y / height.max(1) as f32)
        .floor()
        .max(1.0);
    BoardLayout {
        center: center.round(),
        cell,
        width,
        height,
    }
}

/// How long a slide takes: [`SLIDE_SECONDS`], shortened when a fast solution playback needs
/// the time between its moves.
pub fn slide_seconds(playing_solution: bool, moves_per_second: f32) -> f32 {
    if playing_solution && moves_per_second.is_finite() && moves_per_second > 0.0 {
        SLIDE_SECONDS.min(0.8 / moves_per_second)
    } else {
        SLIDE_SECONDS
    }
}

/// Whether the window is in portrait, where the HUD goes on top.
pub fn is_portrait(window: Vec2) -> bool {
    window.x < window.y
}

/// The gap between tiles for a cell size.
pub fn gap_for(cell: f32) -> f32 {
    (cell * 0.03).clamp(1.0, 6.0).round()
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Notice>()
        .init_resource::<PhotoTiles>()
        .init_resource::<Shake>()
        .init_resource::<Built>()
        .init_resource::<PhotoJob>()
        .add_systems(Startup, spawn_camera)
        .add_systems(
            Update,
            (update_layout, ensure_photo, rebuild_tiles, start_slides)
                .chain()
                .in_set(AppSet::Animate),
        )
        .add_systems(
            Update,
            (animate, fit_tiles)
                .chain()
                .after(start_slides)
                .in_set(AppSet::Animate),
        )
        .add_systems(Update, keep_awake.after(animate).in_set(AppSet::Animate))
        .add_systems(OnEnter(Phase::Won), fill_in);
}

/// Asks for the next frame at once while something moves, for when the app sleeps between
/// inputs (a reactive update mode).
fn keep_awake(
    animating: Res<Animating>,
    shake: Res<Shake>,
    playback: Res<crate::solver_task::Playback>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if animating.0 || shake.0.is_some() || (playback.active() && !playback.paused) {
        redraw.write(bevy::window::RequestRedraw);
    }
}

fn spawn_camera(mut commands: Commands) {
    // Photos need neither tonemapping (it shifts their colours) nor multisampling (every
    // sprite is axis-aligned); both cost a full-screen pass, which software renderers feel.
    commands.spawn((
        Name::new("Camera"),
        Camera2d,
        bevy::render::view::Msaa::Off,
        bevy::core_pipeline::tonemapping::Tonemapping::None,
    ));
}

fn update_layout(
    windows: Query<&Window, With<PrimaryWindow>>,
    current: Res<CurrentGame>,
    mut layout: ResMut<BoardLayout>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let board = current.game.board();
    let next = layout_for(window.size(), board.width(), board.height());
    if *layout != next {
        *layout = next;
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

/// A photo being decoded and cut in the background, and what it is for.
#[derive(Resource, Default)]
struct PhotoJob(Option<PhotoWork>);

/// The key (source, side) and the task preparing it.
type PhotoWork = (
    (PhotoSource, usize),
    Task<Result<photo::PreparedPhoto, photo::PhotoError>>,
);

/// Keeps the tiles cut from the chosen photo for the board's side. Decoding runs on the
/// `AsyncComputeTaskPool`, so a big photo never stalls a frame.
fn ensure_photo(
    mut settings: ResMut<Settings>,
    current: Res<CurrentGame>,
    mut tiles: ResMut<PhotoTiles>,
    mut job: ResMut<PhotoJob>,
    mut images: ResMut<Assets<Image>>,
    mut notices: MessageWriter<Notice>,
) {
    let n = current.game.board().width();
    let wanted = (settings.photo.clone(), n);
    if tiles.made_from.as_ref() == Some(&wanted) {
        job.0 = None;
        return;
    }
    if job.0.as_ref().map(|(key, _)| key) != Some(&wanted) {
        let source = wanted.0.clone();
        let task = AsyncComputeTaskPool::get().spawn(async move {
            photo::load(&source).map(|image| photo::prepare(&image, n as u32))
        });
        job.0 = Some((wanted.clone(), task));
    }
    let Some((_, task)) = job.0.as_mut() else {
        return;
    };
    let Some(result) = check_ready(task) else {
        return;
    };
    job.0 = None;
    let prepared = match result {
        Ok(prepared) => prepared,
        Err(error) => {
            notices.write(Notice(format!(
                "Could not use {}: {error}",
                settings.photo.label()
            )));
            // Keep the photo we had (or the bundled one), and the game goes on.
            let fallback = tiles
                .made_from
                .as_ref()
                .map(|(source, _)| source.clone())
                .unwrap_or_default();
            let fallback = if fallback == settings.photo {
                PhotoSource::default()
            } else {
                fallback
            };
            settings.photo = fallback;
            return;
        }
    };
    for old in tiles.tiles.drain(..) {
        images.remove(&old);
    }
    tiles.tiles = prepared
        .tiles
        .iter()
        .map(|tile| images.add(to_bevy_image(tile)))
        .collect();
    tiles.square = Some(prepared.square);
    tiles.made_from = Some(wanted);
    tiles.version += 1;
}

#[allow(clippy::too_many_arguments)]
fn rebuild_tiles(
    mut commands: Commands,
    current: Res<CurrentGame>,
    tiles: Res<PhotoTiles>,
    layout: Res<BoardLayout>,
    phase: Res<State<Phase>>,
    mut built: ResMut<Built>,
    existing: Query<Entity, BoardEntities>,
) {
    let key = (
        current.generation,
        tiles.version,
        [
            layout.center.x.to_bits(),
            layout.center.y.to_bits(),
            layout.cell.to_bits(),
            (layout.width * 100 + layout.height) as u32,
        ],
    );
    let cut_for = tiles.made_from.as_ref().map(|(_, n)| *n);
    if built.0 == Some(key) || cut_for != Some(current.game.board().width()) {
        return;
    }
    built.0 = Some(key);
    for entity in &existing {
        commands.entity(entity).despawn();
    }
    commands.spawn((
        Name::new("Backdrop"),
        Backdrop,
        Sprite::from_color(Color::srgb(0.08, 0.09, 0.11), layout.size()),
        Transform::from_translation(layout.center.extend(0.0)),
    ));
    let board = current.game.board();
    for (cell, &tile) in board.tiles().iter().enumerate() {
        if tile == 0 {
            continue;
        }
        let Some(image) = tiles.tiles.get(tile as usize - 1) else {
            continue;
        };
        commands.spawn((
            Name::new(format!("Tile {tile}")),
            TileSprite(tile),
            Sprite {
                image: image.clone(),
                custom_size: Some(Vec2::splat(layout.cell)),
                ..default()
            },
            Transform::from_translation(layout.cell_center(cell).extend(1.0)),
        ));
    }
    if *phase.get() == Phase::Won {
        spawn_fill_in(&mut commands, &tiles, &layout, board.blank());
    }
}

fn spawn_fill_in(commands: &mut Commands, tiles: &PhotoTiles, layout: &BoardLayout, cell: usize) {
    if let Some(image) = tiles.tiles.last() {
        commands.spawn((
            Name::new("Fill-in"),
            FillIn,
            DespawnOnExit(Phase::Won),
            Sprite {
                image: image.clone(),
                custom_size: Some(Vec2::splat(layout.cell)),
                ..default()
            },
            Transform::from_translation(layout.cell_center(cell).extend(1.0)),
        ));
    }
}

fn fill_in(
    mut commands: Commands,
    current: Res<CurrentGame>,
    tiles: Res<PhotoTiles>,
    layout: Res<BoardLayout>,
    existing: Query<(), With<FillIn>>,
) {
    if existing.is_empty() {
        spawn_fill_in(&mut commands, &tiles, &layout, current.game.board().blank());
    }
}

#[allow(clippy::too_many_arguments)]
fn start_slides(
    mut commands: Commands,
    settings: Res<Settings>,
    playback: Res<crate::solver_task::Playback>,
    mut changes: MessageReader<GameChanged>,
    current: Res<CurrentGame>,
    layout: Res<BoardLayout>,
    mut shake: ResMut<Shake>,
    sprites: Query<(Entity, &TileSprite, &Transform, Option<&Slide>)>,
) {
    for change in changes.read() {
        match change {
            GameChanged::Slid { by_app, .. } => {
                let duration = slide_seconds(*by_app && playback.active(), settings.speed);
                let board = current.game.board();
                for (entity, tile, transform, slide) in &sprites {
                    let Some(cell) = board.position_of(tile.0) else {
                        continue;
                    };
                    let to = layout.cell_center(cell);
                    let target = slide
                        .map(|s| s.to)
                        .unwrap_or(transform.translation.truncate());
                    if target.distance(to) > 0.5 {
                        commands.entity(entity).insert(Slide {
                            from: transform.translation.truncate(),
                            to,
                            elapsed: 0.0,
                            duration,
                        });
                    }
                }
            }
            GameChanged::Bumped(cell) => shake.0 = Some((*cell, 0.0)),
            GameChanged::Reset | GameChanged::Won => {}
        }
    }
}

fn animate(
    mut commands: Commands,
    time: Res<Time>,
    current: Res<CurrentGame>,
    layout: Res<BoardLayout>,
    mut shake: ResMut<Shake>,
    mut animating: ResMut<Animating>,
    mut sprites: Query<(Entity, &TileSprite, &mut Transform, Option<&mut Slide>)>,
) {
    let dt = time.delta_secs();
    let mut busy = false;
    let shake_now = shake.0.map(|(cell, t)| (cell, t + dt));
    shake.0 = shake_now.filter(|(_, t)| *t < SHAKE_SECONDS);
    let board = current.game.board();
    for (entity, tile, mut transform, slide) in &mut sprites {
        let mut position = match slide {
            Some(mut slide) => {
                slide.elapsed += dt;
                let t = slide.elapsed / slide.duration.max(0.001);
                if t >= 1.0 {
                    commands.entity(entity).remove::<Slide>();
                    slide.to
                } else {
                    busy = true;
                    slide.from.lerp(slide.to, ease_out_cubic(t))
                }
            }
            None => transform.translation.truncate(),
        };
        if let Some((cell, t)) = shake.0 {
            let here = board.position_of(tile.0);
            if cell.is_none() || here == cell {
                let strength = (1.0 - t / SHAKE_SECONDS) * layout.cell * 0.06;
                let home = here.map(|c| layout.cell_center(c)).unwrap_or(position);
                position = home + Vec2::new((t * 60.0).sin() * strength, 0.0);
            }
        } else if shake_now.is_some() {
            // The shake just ended: back home.
            if let Some(cell) = board.position_of(tile.0) {
                position = layout.cell_center(cell);
            }
        }
        transform.translation.x = position.x;
        transform.translation.y = position.y;
    }
    animating.0 = busy;
}

/// Sizes the tiles: a gap while playing, none once the photo is complete.
fn fit_tiles(
    layout: Res<BoardLayout>,
    phase: Res<State<Phase>>,
    mut sprites: Query<&mut Sprite, PhotoPieces>,
) {
    let gap = if *phase.get() == Phase::Won {
        0.0
    } else {
        gap_for(layout.cell)
    };
    let size = Vec2::splat((layout.cell - gap).max(1.0));
    for mut sprite in &mut sprites {
        if sprite.custom_size != Some(size) {
            sprite.custom_size = Some(size);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn easing_starts_at_zero_and_lands_at_one() {
        assert_eq!(ease_out_cubic(0.0), 0.0);
        assert_eq!(ease_out_cubic(1.0), 1.0);
        assert_eq!(ease_out_cubic(2.0), 1.0);
        assert!(
            ease_out_cubic(0.5) > 0.5,
            "ease-out is ahead at the midpoint"
        );
    }

    #[test]
    fn slides_shorten_only_for_fast_playback() {
        assert_eq!(slide_seconds(false, 30.0), SLIDE_SECONDS);
        assert_eq!(slide_seconds(true, 2.0), SLIDE_SECONDS);
        assert!(slide_seconds(true, 30.0) < SLIDE_SECONDS / 2.0);
        assert_eq!(slide_seconds(true, f32::NAN), SLIDE_SECONDS);
    }

    #[test]
    fn the_board_fits_beside_or_below_the_hud() {
        let wide = layout_for(Vec2::new(1280.0, 800.0), 4, 4);
        assert!(wide.size().x <= 1280.0 - PANEL_WIDTH);
        assert!(wide.size().y <= 800.0);
        // It stays left of the HUD panel on the right.
        assert!(wide.center.x + wide.size().x / 2.0 <= 640.0 - PANEL_WIDTH + 1.0);
        let tall = layout_for(Vec2::new(400.0, 800.0), 4, 4);
        assert!(tall.size().x <= 400.0);
        assert!(tall.center.y + tall.size().y / 2.0 <= 400.0 - PANEL_HEIGHT + 1.0);
        // A tiny window still gives a usable layout.
        let tiny = layout_for(Vec2::new(10.0, 10.0), 8, 8);
        assert!(tiny.cell >= 1.0);
    }
}
