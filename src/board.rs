//! The board on screen: the photo's tiles as sprites, redrawn from the game's state and its
//! changes. Tiles slide with a little spring for as long as the game says, an illegal tap
//! shakes, and the photo fills in on the win. Nothing here changes the game.

use bevy::prelude::*;

use crate::frame::AppSet;
use crate::layout::{BoardLayout, ScreenLayout};
use crate::messages::GameChanged;
use crate::play::{CurrentGame, Phase};
use crate::redraw::{Motion, ReportMotion};
use crate::settings::Settings;
use crate::theme::Palette;
use crate::tiles::PhotoTiles;

/// How long the shake of an illegal input takes, in seconds.
pub const SHAKE_SECONDS: f32 = 0.25;

/// One tile on screen: which, and the cell the game last put it on (each slide says).
#[derive(Component, Debug, Clone, Copy)]
pub struct TileSprite {
    /// The tile's number.
    pub tile: u8,
    /// Its cell.
    pub cell: usize,
}

/// The photo's missing piece, shown once the board is complete.
#[derive(Component, Debug, Clone, Copy)]
pub struct FillIn;

/// The backdrop that shows between tiles.
#[derive(Component, Debug, Clone, Copy)]
struct Backdrop;

/// A slide in progress.
#[derive(Component, Debug, Clone, Copy)]
pub struct Slide {
    from: Vec2,
    to: Vec2,
    elapsed: f32,
    duration: f32,
}

/// The shake in progress: which cell (all tiles if `None`) and for how long.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct Shake(Option<(Option<usize>, f32)>);

impl Shake {
    /// Whether a shake is on show.
    pub fn active(&self) -> bool {
        self.0.is_some()
    }
}

/// The tiles on screen, by tile number (index 0 is unused), and what they were built for.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
struct Built {
    key: Option<(u64, u64, [u32; 5])>,
    sprites: Vec<Option<Entity>>,
}

/// Everything the board spawns.
type BoardEntities = Or<(With<TileSprite>, With<Backdrop>, With<FillIn>)>;
/// The sprites that show a piece of the photo.
type PhotoPieces = Or<(With<TileSprite>, With<FillIn>)>;

/// A slide's progress with a little spring: fast out, a slight overshoot, then home.
pub fn spring(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    // Ease-out-back with a gentle overshoot (about 4 % of the way).
    let c = 1.1;
    1.0 + (c + 1.0) * (t - 1.0).powi(3) + c * (t - 1.0).powi(2)
}

/// The gap between tiles for a cell size.
pub fn gap_for(cell: f32) -> f32 {
    (cell * 0.03).clamp(1.0, 6.0).round()
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Shake>()
        .init_resource::<Built>()
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, clear_to_theme)
        .add_systems(
            Update,
            (rebuild_tiles, start_slides, animate, fit_tiles)
                .chain()
                .in_set(AppSet::Animate)
                .after(crate::tiles::CutTiles),
        )
        .add_systems(OnEnter(Phase::Won), fill_in)
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// Slides and the shake move on screen.
fn report_motion(slides: Query<(), With<Slide>>, shake: Res<Shake>, mut motion: ResMut<Motion>) {
    if !slides.is_empty() || shake.active() {
        motion.moving();
    }
}

/// Paints the window's background in the theme's colour.
fn clear_to_theme(settings: Res<Settings>, mut clear: ResMut<ClearColor>) {
    let wanted = Palette::color(Palette::of(settings.theme).background);
    if clear.0 != wanted {
        clear.0 = wanted;
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

/// Rebuilds every sprite when the board, the photo or the layout changed.
#[allow(clippy::too_many_arguments)]
fn rebuild_tiles(
    mut commands: Commands,
    settings: Res<Settings>,
    current: Res<CurrentGame>,
    tiles: Res<PhotoTiles>,
    screen: Res<ScreenLayout>,
    phase: Res<State<Phase>>,
    mut built: ResMut<Built>,
    existing: Query<Entity, BoardEntities>,
) {
    let layout = screen.board;
    let theme = settings.theme;
    let key = (
        current.generation,
        tiles.version,
        [
            layout.center.x.to_bits(),
            layout.center.y.to_bits(),
            layout.cell.to_bits(),
            (layout.width * 100 + layout.height) as u32,
            theme as u32,
        ],
    );
    let board = current.game.board();
    let cut_for = tiles.made_from.as_ref().map(|(_, w, h)| (*w, *h));
    if built.key == Some(key) || cut_for != Some((board.width(), board.height())) {
        return;
    }
    // A new puzzle on show: its tiles fly from the solved photo to their shuffled cells.
    let shuffle_in = built
        .key
        .is_some_and(|(generation, ..)| generation != current.generation)
        && current.game.moves() == 0
        && !current.game.is_won();
    built.key = Some(key);
    for entity in &existing {
        commands.entity(entity).despawn();
    }
    commands.spawn((
        Name::new("Backdrop"),
        Backdrop,
        Sprite::from_color(Palette::color(Palette::of(theme).backdrop), layout.size()),
        Transform::from_translation(layout.center.extend(0.0)),
    ));
    built.sprites = vec![None; board.tiles().len()];
    for (cell, &tile) in board.tiles().iter().enumerate() {
        let Some(image) = tile
            .checked_sub(1)
            .and_then(|i| tiles.tiles.get(i as usize))
        else {
            continue;
        };
        let mut sprite = commands.spawn((
            Name::new(format!("Tile {tile}")),
            TileSprite { tile, cell },
            piece(image, &layout, cell),
        ));
        if shuffle_in {
            sprite.insert(shuffle_slide(&layout, tile, cell));
        }
        built.sprites[tile as usize] = Some(sprite.id());
    }
    if *phase.get() == Phase::Won {
        spawn_fill_in(&mut commands, &tiles, &layout, board.blank());
    }
}

/// How long the shuffle's flight takes, in seconds (each tile a little after the one before).
pub const SHUFFLE_SECONDS: f32 = 0.45;

/// A tile's flight from its solved cell to its shuffled one, when a new puzzle appears; the
/// tiles leave one after another, 15 ms apart.
fn shuffle_slide(layout: &BoardLayout, tile: u8, cell: usize) -> Slide {
    Slide {
        from: layout.cell_center(tile as usize - 1),
        to: layout.cell_center(cell),
        elapsed: -0.015 * tile as f32,
        duration: SHUFFLE_SECONDS,
    }
}

/// A sprite showing one piece of the photo on a cell.
fn piece(image: &Handle<Image>, layout: &BoardLayout, cell: usize) -> impl Bundle {
    (
        Sprite {
            image: image.clone(),
            custom_size: Some(Vec2::splat(layout.cell)),
            ..default()
        },
        Transform::from_translation(layout.cell_center(cell).extend(1.0)),
    )
}

fn spawn_fill_in(commands: &mut Commands, tiles: &PhotoTiles, layout: &BoardLayout, cell: usize) {
    if let Some(image) = tiles.tiles.last() {
        commands.spawn((
            Name::new("Fill-in"),
            FillIn,
            DespawnOnExit(Phase::Won),
            piece(image, layout, cell),
        ));
    }
}

fn fill_in(
    mut commands: Commands,
    current: Res<CurrentGame>,
    tiles: Res<PhotoTiles>,
    screen: Res<ScreenLayout>,
    existing: Query<(), With<FillIn>>,
) {
    if existing.is_empty() {
        let blank = current.game.board().blank();
        spawn_fill_in(&mut commands, &tiles, &screen.board, blank);
    }
}

/// Starts a slide for each tile the game moved, to the cell the game says, for as long as the
/// game gives it.
fn start_slides(
    mut commands: Commands,
    mut changes: MessageReader<GameChanged>,
    screen: Res<ScreenLayout>,
    built: Res<Built>,
    mut shake: ResMut<Shake>,
    mut sprites: Query<(&Transform, &mut TileSprite)>,
) {
    for change in changes.read() {
        match change {
            GameChanged::Slid { steps, seconds, .. } => {
                for step in steps {
                    let entity = built.sprites.get(step.tile as usize).copied().flatten();
                    let Some((entity, (transform, mut sprite))) =
                        entity.and_then(|e| sprites.get_mut(e).ok().map(|s| (e, s)))
                    else {
                        continue;
                    };
                    sprite.cell = step.to;
                    commands.entity(entity).insert(Slide {
                        from: transform.translation.truncate(),
                        to: screen.board.cell_center(step.to),
                        elapsed: 0.0,
                        duration: *seconds,
                    });
                }
            }
            GameChanged::Bumped(cell) => shake.0 = Some((*cell, 0.0)),
            GameChanged::Reset | GameChanged::Won => {}
        }
    }
}

/// Moves the sliding tiles and shakes the one tapped in vain.
fn animate(
    mut commands: Commands,
    time: Res<Time>,
    screen: Res<ScreenLayout>,
    mut shake: ResMut<Shake>,
    mut sprites: Query<(Entity, &TileSprite, &mut Transform, Option<&mut Slide>)>,
) {
    let dt = time.delta_secs();
    let layout = screen.board;
    let shake_now = shake.0.map(|(cell, t)| (cell, t + dt));
    shake.0 = shake_now.filter(|(_, t)| *t < SHAKE_SECONDS);
    for (entity, tile, mut transform, slide) in &mut sprites {
        let mut position = match slide {
            Some(mut slide) => {
                slide.elapsed += dt;
                let t = slide.elapsed / slide.duration.max(0.001);
                if t >= 1.0 {
                    commands.entity(entity).remove::<Slide>();
                    slide.to
                } else {
                    slide.from.lerp(slide.to, spring(t))
                }
            }
            None => transform.translation.truncate(),
        };
        let here = tile.cell;
        if let Some((cell, t)) = shake.0 {
            if cell.is_none_or(|cell| cell == here) {
                let strength = (1.0 - t / SHAKE_SECONDS) * layout.cell * 0.06;
                let home = layout.cell_center(here);
                position = home + Vec2::new((t * 60.0).sin() * strength, 0.0);
            }
        } else if shake_now.is_some() {
            // The shake just ended: back home.
            position = layout.cell_center(here);
        }
        transform.translation.x = position.x;
        transform.translation.y = position.y;
    }
}

/// Sizes the tiles: a gap while playing, none once the photo is complete.
fn fit_tiles(
    screen: Res<ScreenLayout>,
    phase: Res<State<Phase>>,
    mut sprites: Query<&mut Sprite, PhotoPieces>,
) {
    let cell = screen.board.cell;
    let gap = if *phase.get() == Phase::Won {
        0.0
    } else {
        gap_for(cell)
    };
    let size = Vec2::splat((cell - gap).max(1.0));
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
    fn the_spring_starts_at_zero_overshoots_a_little_and_lands_at_one() {
        assert!(spring(0.0).abs() < 1e-6);
        assert!((spring(1.0) - 1.0).abs() < 1e-6);
        assert_eq!(spring(2.0), spring(1.0));
        assert!(spring(0.5) > 0.5, "fast out: ahead at the midpoint");
        let peak = (0..=100)
            .map(|i| spring(i as f32 / 100.0))
            .fold(0.0, f32::max);
        assert!(peak > 1.0 && peak < 1.06, "overshoot {peak}");
    }

    #[test]
    fn gaps_stay_thin() {
        assert_eq!(gap_for(10.0), 1.0);
        assert_eq!(gap_for(1000.0), 6.0);
    }
}
