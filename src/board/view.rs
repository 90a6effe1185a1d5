//! The board on screen: the photo's tiles as sprites, drawn from what the game's changes say
//! (the board at each new game, each tile's slide, a bump, the win). Tiles slide with a little
//! spring for as long as the game says, an illegal tap shakes, and the photo fills in on the
//! win. Nothing here changes the game, and nothing asks it anything. The window's background
//! (its clear colour) is this module's too.

use bevy::prelude::*;
use npuzzle::Board;

use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::board::layout::{BoardLayout, ScreenLayout};
use crate::board::theme::Palette;
use crate::board::tiles::PhotoTiles;
use crate::frame::AppSet;
use crate::messages::{BoardHidden, Change, GameChanged};
use crate::platform::SystemPreferences;
use crate::play::input::DragPreview;
use crate::play::settings::Settings;

/// How long the shake of an illegal input takes, in seconds.
pub const SHAKE_SECONDS: f32 = 0.25;

/// One tile on screen: which, the cell the game last put it on, and whether that is its place
/// in the solved board (each slide says).
#[derive(Component, Debug, Clone, Copy)]
struct TileSprite {
    /// The tile's number.
    tile: u8,
    /// Its cell.
    cell: usize,
    /// Whether the cell is its place in the solved board.
    home: bool,
}

/// The photo's missing piece, shown once the board is complete.
#[derive(Component, Debug, Clone, Copy)]
struct FillIn;

/// The board as it is drawn, for the marks placed over it (hud's board_marks: numbers, checks,
/// outlines) and for the diagnostics: written by the board view after it moved its sprites,
/// only when it changed.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct OnScreen {
    /// Each tile where it is drawn (world units), by tile number.
    pub tiles: Vec<ShownTile>,
    /// The gap's cell as the tiles show it: the cell no tile covers, a sliding tile covering the
    /// cell it left until it is drawn nearer the next (none on a won board, before the first,
    /// or while a new board waits for its photo).
    pub gap: Option<usize>,
    /// Whether nothing may be marked on the tiles: the photo is whole (won), or the tiles are
    /// blank (a blind solve under way), as of this frame's changes.
    pub plain: bool,
}

/// A tile as it is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShownTile {
    /// The tile's number.
    pub tile: u8,
    /// The centre of its sprite, in world units.
    pub at: Vec2,
    /// Whether the game's last change left it on its place in the solved board.
    pub home: bool,
}

/// The backdrop that shows between tiles: lines along the gaps between cells, and a patch
/// under the cells no tile covers whole (see [`patch_backdrop`]). Never one sheet under every
/// tile: a software renderer pays for each pixel it blends, and the tiles hide most of it.
#[derive(Component, Debug, Clone, Copy)]
struct Backdrop;

/// The backdrop's patch.
#[derive(Component, Debug, Clone, Copy)]
struct Patch;

/// A slide in progress.
#[derive(Component, Debug, Clone, Copy)]
struct Slide {
    /// The cell it left: the tile is drawn as covering it until halfway.
    from_cell: usize,
    from: Vec2,
    to: Vec2,
    elapsed: f32,
    duration: f32,
    /// Eased without the spring's overshoot (motion calmed).
    calm: bool,
}

impl Slide {
    /// How much of its time has gone, 1 when it is over.
    fn progress(&self) -> f32 {
        self.elapsed / self.duration.max(0.001)
    }

    /// Where the slide draws its tile now, with `room` for the spring's overshoot (see
    /// [`spring`]).
    fn at(&self, room: f32) -> Vec2 {
        let t = self.progress();
        let eased = match self.calm {
            true => calm(t),
            false => spring(t, room),
        };
        self.from.lerp(self.to, eased)
    }

    /// Whether `at` is nearer the cell the tile goes to than the one it left (the spring gets
    /// there well before its time is half up).
    fn past_halfway(&self, at: Vec2) -> bool {
        let way = self.to - self.from;
        (at - self.from).dot(way) >= way.length_squared() / 2.0
    }
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

/// The tiles on screen, by tile number (index 0 is unused), and the board they show: the one
/// the last new game brought, waiting to be drawn until its photo is cut for it. All of it as
/// the game's changes told it: nothing here asks the game.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
struct Built {
    /// The board as the game's last change left it, and whether a new game's tiles are yet
    /// to be drawn.
    board: Option<(Board, bool)>,
    /// Whether the game is won (the photo complete: no gaps, the missing piece filled in).
    won: bool,
    /// Whether the tiles are shown blank (a blind solve under way).
    blindfolded: bool,
    /// Whether a new game (not the first) is to fly in.
    shuffle_in: bool,
    sprites: Vec<Option<Entity>>,
}

/// Everything the board spawns.
type BoardEntities = Or<(With<TileSprite>, With<Backdrop>, With<FillIn>)>;
/// The backdrop's patch, which moves and grows, apart from the tiles.
type PatchSprite<'w, 's> = Query<
    'w,
    's,
    (&'static mut Sprite, &'static mut Transform),
    (With<Patch>, Without<TileSprite>),
>;
/// The tiles as drawn: where, and the slide under way.
type DrawnTiles<'w, 's> = Query<
    'w,
    's,
    (
        &'static TileSprite,
        &'static Transform,
        Option<&'static Slide>,
    ),
>;
/// The tile sprites added, moved to another cell, or moved on screen since the last run.
type MovedTiles = Or<(Changed<TileSprite>, (With<TileSprite>, Changed<Transform>))>;
/// The sprites that show a piece of the photo.
type PhotoPieces = Or<(With<TileSprite>, With<FillIn>)>;

/// A slide's progress with a little spring: fast out, a slight overshoot, then home. The
/// overshoot is at most `room`, a fraction of the way: the gap between tiles over a cell, so
/// that a tile never reaches into the one beyond the gap (on big tiles the gap is a smaller
/// part of a cell, and the overshoot is cut to it).
pub fn spring(t: f32, room: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    // Ease-out-back with a gentle overshoot (about 4.5 % of the way at most).
    let c = 1.1;
    let eased = 1.0 + (c + 1.0) * (t - 1.0).powi(3) + c * (t - 1.0).powi(2);
    // Its highest point is where its slope is 0: t - 1 = -2c / 3(c + 1).
    let top = -2.0 * c / (3.0 * (c + 1.0));
    let peak = (c + 1.0) * top.powi(3) + c * top.powi(2);
    let over = (eased - 1.0).max(0.0);
    eased - over + over * (room.max(0.0) / peak).min(1.0)
}

/// A slide's progress with motion calmed: eased out, no overshoot.
pub fn calm(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    1.0 - (1.0 - t).powi(3)
}

/// How much shorter a slide is shown with motion calmed.
pub const CALM_SLIDE: f32 = 0.6;

/// Whether motion is calmed now: the player's setting, else the device's.
fn calmed(settings: &Settings, system: &SystemPreferences) -> bool {
    settings.calm_motion(system.reduce_motion)
}

/// How far a slide may overshoot, as a part of the way: the gap between tiles over a cell.
fn overshoot_room(layout: &BoardLayout) -> f32 {
    gap_for(layout.cell) / layout.cell.max(1.0)
}

/// The gap between tiles for a cell size.
pub fn gap_for(cell: f32) -> f32 {
    (cell * 0.03).clamp(1.0, 6.0).round()
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Shake>()
        .init_resource::<Built>()
        .init_resource::<OnScreen>()
        .insert_resource(ClearColor(Palette::color(Palette::DARK.background)))
        .add_systems(Startup, spawn_camera)
        .add_systems(
            Update,
            (
                clear_to_theme,
                rebuild_tiles,
                fill_in,
                start_slides,
                animate,
                follow_the_finger,
                patch_backdrop,
                fit_tiles,
                blindfold,
                hide_under_sheet,
                publish.run_if(drawn_moved),
            )
                .chain()
                .in_set(AppSet::Animate)
                .after(crate::board::tiles::CutTiles),
        )
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// Slides, the shake and a tile following the finger move on screen.
fn report_motion(
    slides: Query<(), With<Slide>>,
    shake: Res<Shake>,
    preview: Res<DragPreview>,
    mut frames: MessageWriter<FrameRequest>,
) {
    if !slides.is_empty() || shake.active() || preview.0.is_some() {
        frames.write(FrameRequest::Moving);
    }
}

/// Paints the window's background in the theme's colour.
fn clear_to_theme(settings: Res<Settings>, mut clear: ResMut<ClearColor>) {
    if !settings.is_changed() {
        return;
    }
    let wanted = Palette::color(Palette::of(settings.theme).background);
    if clear.0 != wanted {
        clear.0 = wanted;
    }
}

/// Hides the whole board while a sheet fills the window (the framing sheet): under a software
/// renderer, drawing it unseen costs a sheet's drag a good part of each frame. Sprites built
/// while it is hidden (the window resized) are hidden too.
fn hide_under_sheet(
    mut hides: MessageReader<BoardHidden>,
    mut hidden: Local<bool>,
    mut board: Query<&mut Visibility, BoardEntities>,
) {
    if let Some(&BoardHidden(hide)) = hides.read().last() {
        *hidden = hide;
    }
    let wanted = if *hidden {
        Visibility::Hidden
    } else {
        Visibility::Inherited
    };
    for mut visibility in &mut board {
        visibility.set_if_neq(wanted);
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

/// Everything `rebuild_tiles` reads besides what it builds.
#[derive(bevy::ecs::system::SystemParam)]
struct Drawn<'w> {
    settings: Res<'w, Settings>,
    system: Res<'w, SystemPreferences>,
    tiles: Res<'w, PhotoTiles>,
    screen: Res<'w, ScreenLayout>,
}

impl Drawn<'_> {
    /// Whether what the tiles look like changed: the photo's cut, the layout, the theme.
    fn changed(&self) -> bool {
        self.tiles.is_changed() || self.screen.is_changed() || self.settings.is_changed()
    }
}

/// Keeps the board as the game's changes leave it; a new game after the first flies in,
/// unless it is under way already (a game brought back) or won.
fn follow_the_board(built: &mut ResMut<Built>, changes: &mut MessageReader<GameChanged>) {
    for changed in changes.read() {
        let pending = match &changed.change {
            Change::Reset(game, _) => {
                built.shuffle_in = built.board.is_some() && game.moves() == 0 && !changed.won;
                true
            }
            _ => built.board.as_ref().is_some_and(|(_, pending)| *pending),
        };
        built.board = Some((changed.board.clone(), pending));
        built.won = changed.won;
        built.blindfolded = changed.blindfolded;
    }
}

/// Builds every sprite for a new game's board, once its photo is cut for it; again, as the
/// game's changes have left the board, when the photo's cut, the layout or the theme change.
fn rebuild_tiles(
    mut commands: Commands,
    mut changes: MessageReader<GameChanged>,
    drawn: Drawn,
    mut built: ResMut<Built>,
    existing: Query<Entity, BoardEntities>,
) {
    follow_the_board(&mut built, &mut changes);
    let Some((board, pending)) = built.board.clone() else {
        return;
    };
    let cut_for = drawn.tiles.made_from.as_ref().map(|(_, w, h)| (*w, *h));
    let fits = cut_for == Some((board.width(), board.height()));
    if !fits || !(pending || drawn.changed()) {
        return;
    }
    let shuffle_in = pending && built.shuffle_in && !calmed(&drawn.settings, &drawn.system);
    built.board = Some((board.clone(), false));
    let (layout, theme) = (drawn.screen.board, drawn.settings.theme);
    let tiles = &drawn.tiles;
    for entity in &existing {
        commands.entity(entity).despawn();
    }
    spawn_backdrop(
        &mut commands,
        &layout,
        Palette::color(Palette::of(theme).backdrop),
    );
    built.sprites = vec![None; board.tiles().len()];
    for (cell, &tile) in board.tiles().iter().enumerate() {
        let Some(image) = tile
            .checked_sub(1)
            .and_then(|i| tiles.tiles.get(i as usize))
        else {
            continue;
        };
        let home = cell + 1 == tile as usize;
        let mut sprite = commands.spawn((
            Name::new(format!("Tile {tile}")),
            TileSprite { tile, cell, home },
            piece(image, &layout, cell),
        ));
        if shuffle_in {
            sprite.insert(shuffle_slide(&layout, tile, cell));
        }
        built.sprites[tile as usize] = Some(sprite.id());
    }
}

/// The backdrop: a line along each gap between columns and between rows (half as wide along
/// the board's edges, which it does not pass), and its patch, placed each frame.
fn spawn_backdrop(commands: &mut Commands, layout: &BoardLayout, color: Color) {
    let (size, gap) = (layout.size(), gap_for(layout.cell));
    let low = layout.center - size / 2.0;
    let high = layout.center + size / 2.0;
    // Half a pixel wider on each side, under the tiles: no seam where float edges disagree.
    let half = gap / 2.0 + 0.5;
    let across = |at: f32, low: f32, high: f32| ((at - half).max(low), (at + half).min(high));
    for column in 0..=layout.width {
        let (x0, x1) = across(low.x + column as f32 * layout.cell, low.x, high.x);
        commands.spawn(backdrop_piece(
            color,
            Vec2::new(x0, low.y),
            Vec2::new(x1, high.y),
        ));
    }
    for row in 0..=layout.height {
        let (y0, y1) = across(low.y + row as f32 * layout.cell, low.y, high.y);
        commands.spawn(backdrop_piece(
            color,
            Vec2::new(low.x, y0),
            Vec2::new(high.x, y1),
        ));
    }
    commands.spawn((Patch, backdrop_piece(color, layout.center, layout.center)));
}

/// A piece of the backdrop over the rectangle from `low` to `high` (world units).
fn backdrop_piece(color: Color, low: Vec2, high: Vec2) -> impl Bundle {
    (
        Name::new("Backdrop"),
        Backdrop,
        Sprite::from_color(color, high - low),
        Transform::from_translation(((low + high) / 2.0).extend(0.0)),
    )
}

/// The cells no tile covers whole: the gap, both cells of each slide, and each tile drawn off
/// its cell (dragged, shaken).
fn open_cells(gap: usize, layout: &BoardLayout, tiles: &DrawnTiles) -> Vec<usize> {
    let mut open = vec![gap];
    for (tile, transform, slide) in tiles {
        if let Some(slide) = slide {
            open.extend([slide.from_cell, tile.cell]);
        } else if transform.translation.truncate() != layout.cell_center(tile.cell) {
            open.push(tile.cell);
        }
    }
    open
}

/// Lays the backdrop's patch under the rectangle of cells that holds every open cell (mostly
/// the gap alone, or the gap and the cell a tile slides from).
fn patch_backdrop(
    built: Res<Built>,
    screen: Res<ScreenLayout>,
    tiles: DrawnTiles,
    mut patch: PatchSprite,
) {
    let (Some((board, false)), Ok((mut sprite, mut transform))) =
        (&built.board, patch.single_mut())
    else {
        return;
    };
    let layout = screen.board;
    let open = open_cells(board.blank(), &layout, &tiles);
    let corners = open.iter().flat_map(|&cell| {
        let centre = layout.cell_center(cell);
        [centre - layout.cell / 2.0, centre + layout.cell / 2.0]
    });
    let (low, high) = corners.fold((Vec2::MAX, Vec2::MIN), |(lo, hi), c| (lo.min(c), hi.max(c)));
    let size = Some(high - low);
    if sprite.custom_size != size {
        sprite.custom_size = size;
    }
    let centre = ((low + high) / 2.0).extend(0.0);
    if transform.translation != centre {
        transform.translation = centre;
    }
}

/// How long the shuffle's flight takes, in seconds (each tile a little after the one before).
pub const SHUFFLE_SECONDS: f32 = 0.45;

/// A tile's flight from its solved cell to its shuffled one, when a new puzzle appears; the
/// tiles leave one after another, 15 ms apart.
fn shuffle_slide(layout: &BoardLayout, tile: u8, cell: usize) -> Slide {
    Slide {
        from_cell: tile as usize - 1,
        from: layout.cell_center(tile as usize - 1),
        to: layout.cell_center(cell),
        elapsed: -0.015 * tile as f32,
        duration: SHUFFLE_SECONDS,
        calm: false,
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

/// The photo's missing piece fills the gap the game's last change names while the game is won
/// (once the board's tiles are drawn), and goes when a game under way comes.
fn fill_in(
    mut commands: Commands,
    built: Res<Built>,
    tiles: Res<PhotoTiles>,
    screen: Res<ScreenLayout>,
    existing: Query<Entity, With<FillIn>>,
) {
    if !built.is_changed() {
        return;
    }
    let Some((board, pending)) = &built.board else {
        return;
    };
    if !built.won {
        existing.iter().for_each(|e| commands.entity(e).despawn());
        return;
    }
    let image = tiles.tiles.last();
    if let (false, true, Some(image)) = (*pending, existing.is_empty(), image) {
        commands.spawn((
            Name::new("Fill-in"),
            FillIn,
            piece(image, &screen.board, board.blank()),
        ));
    }
}

/// Starts a slide for each tile the game moved, to the cell the game says, for as long as the
/// game gives it.
fn start_slides(
    mut commands: Commands,
    mut changes: MessageReader<GameChanged>,
    (settings, system): (Res<Settings>, Res<SystemPreferences>),
    screen: Res<ScreenLayout>,
    built: Res<Built>,
    mut shake: ResMut<Shake>,
    mut sprites: Query<(&Transform, &mut TileSprite)>,
) {
    let calm = calmed(&settings, &system);
    for changed in changes.read() {
        match &changed.change {
            Change::Slid { steps, seconds, .. } => {
                for step in steps {
                    let entity = built.sprites.get(step.tile as usize).copied().flatten();
                    let Some((entity, (transform, mut sprite))) =
                        entity.and_then(|e| sprites.get_mut(e).ok().map(|s| (e, s)))
                    else {
                        continue;
                    };
                    sprite.cell = step.to;
                    sprite.home = step.home;
                    commands.entity(entity).insert(Slide {
                        from_cell: step.from,
                        from: transform.translation.truncate(),
                        to: screen.board.cell_center(step.to),
                        elapsed: 0.0,
                        duration: if calm {
                            *seconds * CALM_SLIDE
                        } else {
                            *seconds
                        },
                        calm,
                    });
                }
            }
            // Calmed, an illegal tap only bumps (the sound and haptic stay).
            Change::Bumped(cell) if !calm => shake.0 = Some((*cell, 0.0)),
            Change::Bumped(_) => {}
            Change::Reset(..) | Change::Won(_) | Change::Helped | Change::Left(_) => {}
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
                if slide.progress() >= 1.0 {
                    commands.entity(entity).remove::<Slide>();
                    slide.to
                } else {
                    slide.at(overshoot_room(&layout))
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
        // Only a tile that moves is written: at rest nothing changes, so `publish` is not run.
        if transform.translation.truncate() != position {
            transform.translation.x = position.x;
            transform.translation.y = position.y;
        }
    }
}

/// The tiles a drag from `cell` carries toward the gap (the one pressed and those between it
/// and the gap), each by how far the pointer went that way (`travel`, world units), at most
/// one cell; none if the tile is not in line with the gap.
pub fn dragged(board: &Board, cell: usize, travel: Vec2, side: f32) -> Vec<(usize, Vec2)> {
    let Some(moves) = board.moves_to_slide_cell(cell) else {
        return Vec::new();
    };
    let toward = moves[0].inverse();
    let (columns, rows) = toward.delta();
    let way = Vec2::new(columns as f32, -(rows as f32));
    let offset = way * travel.dot(way).clamp(0.0, side);
    let shape = board.shape();
    std::iter::successors(Some(cell), |&c| shape.step(c, toward))
        .take(moves.len())
        .map(|c| (c, offset))
        .collect()
}

/// Lets the tiles a drag carries follow the pointer (after the slides have moved, so a tile
/// let go starts its slide from where the finger left it); a drag let go without a move
/// springs back home.
fn follow_the_finger(
    preview: Res<DragPreview>,
    built: Res<Built>,
    screen: Res<ScreenLayout>,
    mut carried: Local<Vec<usize>>,
    mut sprites: Query<(&TileSprite, &mut Transform), Without<Slide>>,
) {
    if !preview.is_changed() {
        return;
    }
    let layout = screen.board;
    let shown = match (preview.0, &built.board) {
        (Some((cell, travel)), Some((board, _))) => dragged(board, cell, travel, layout.cell),
        _ => Vec::new(),
    };
    let was = std::mem::replace(&mut *carried, shown.iter().map(|(c, _)| *c).collect());
    for (sprite, mut transform) in &mut sprites {
        let offset = shown
            .iter()
            .find(|(c, _)| *c == sprite.cell)
            .map(|(_, o)| *o);
        if offset.is_some() || was.contains(&sprite.cell) {
            let at = layout.cell_center(sprite.cell) + offset.unwrap_or(Vec2::ZERO);
            transform.translation.x = at.x;
            transform.translation.y = at.y;
        }
    }
}

/// Solved blind, the tiles lose their picture at the first move (a plain grid, one tile like
/// another) and get it back when the solve ends, as the game's changes say.
fn blindfold(
    built: Res<Built>,
    tiles: Res<PhotoTiles>,
    settings: Res<Settings>,
    mut sprites: Query<(&TileSprite, &mut Sprite)>,
) {
    let hidden = built.blindfolded;
    let plain = Palette::color(Palette::of(settings.theme).raised);
    for (tile, mut sprite) in &mut sprites {
        let shown = tile
            .tile
            .checked_sub(1)
            .and_then(|i| tiles.tiles.get(i as usize));
        let (image, color) = match (hidden, shown) {
            (false, Some(image)) => (image.clone(), Color::WHITE),
            _ => (Handle::default(), plain),
        };
        if sprite.image != image {
            sprite.image = image;
        }
        if sprite.color != color {
            sprite.color = color;
        }
    }
}

/// Sizes the tiles: a gap while playing, none once the photo is complete.
fn fit_tiles(
    screen: Res<ScreenLayout>,
    built: Res<Built>,
    mut sprites: Query<&mut Sprite, PhotoPieces>,
) {
    let cell = screen.board.cell;
    let gap = if built.won { 0.0 } else { gap_for(cell) };
    let size = Vec2::splat((cell - gap).max(1.0));
    for mut sprite in &mut sprites {
        if sprite.custom_size != Some(size) {
            sprite.custom_size = Some(size);
        }
    }
}

/// Whether what `publish` tells may differ from the last time: the board was built again or
/// changed phase, or a tile's sprite was added, moved or taken away (Bevy's change detection
/// on the view's own sprites: nothing is worked out again while the board rests).
fn drawn_moved(
    built: Res<Built>,
    moved: Query<(), MovedTiles>,
    mut removed: RemovedComponents<TileSprite>,
) -> bool {
    built.is_changed() || !moved.is_empty() || removed.read().count() > 0
}

/// Tells what is marked over the board (in this frame, after the tiles moved) where the tiles
/// are drawn and which cell shows empty.
fn publish(built: Res<Built>, sprites: DrawnTiles, mut on_screen: ResMut<OnScreen>) {
    let mut tiles: Vec<ShownTile> = sprites
        .iter()
        .map(|(sprite, transform, _)| ShownTile {
            tile: sprite.tile,
            at: transform.translation.truncate(),
            home: sprite.home,
        })
        .collect();
    tiles.sort_by_key(|shown| shown.tile);
    let gap = match &built.board {
        Some((board, false)) if !built.won => {
            let mut covered = vec![false; board.tiles().len()];
            for (sprite, transform, slide) in &sprites {
                let cell = match slide {
                    Some(s) if !s.past_halfway(transform.translation.truncate()) => s.from_cell,
                    _ => sprite.cell,
                };
                if let Some(covered) = covered.get_mut(cell) {
                    *covered = true;
                }
            }
            // A new board's tiles flying in can pass one another: then the game's gap.
            let mut open = covered.iter().enumerate().filter(|(_, c)| !**c);
            match (open.next(), open.next()) {
                (Some((cell, _)), None) => Some(cell),
                _ => Some(board.blank()),
            }
        }
        _ => None,
    };
    let plain = built.won || built.blindfolded;
    on_screen.set_if_neq(OnScreen { tiles, gap, plain });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drag_carries_the_tile_pressed_and_those_before_it_toward_the_gap_only() {
        let board = npuzzle::parse_board("1 2 3 / 4 5 6 / 7 8 0").unwrap();
        // The 3 (top right) dragged down 30 units (world y falls): the 3 and the 6 follow.
        let carried = dragged(&board, 2, Vec2::new(4.0, -30.0), 100.0);
        assert_eq!(
            carried,
            vec![(2, Vec2::new(0.0, -30.0)), (5, Vec2::new(0.0, -30.0))]
        );
        // Never past one cell, never away from the gap, never a tile out of line.
        let far = dragged(&board, 2, Vec2::new(0.0, -500.0), 100.0);
        assert_eq!(far[0].1, Vec2::new(0.0, -100.0));
        assert_eq!(
            dragged(&board, 2, Vec2::new(0.0, 40.0), 100.0)[0].1,
            Vec2::ZERO
        );
        assert!(dragged(&board, 0, Vec2::new(0.0, -40.0), 100.0).is_empty());
        assert!(
            dragged(&board, 8, Vec2::new(0.0, -40.0), 100.0).is_empty(),
            "the gap"
        );
        // Along the bottom row: the 7 dragged right takes the 8 along.
        let row = dragged(&board, 6, Vec2::new(25.0, 0.0), 100.0);
        assert_eq!(
            row,
            vec![(6, Vec2::new(25.0, 0.0)), (7, Vec2::new(25.0, 0.0))]
        );
    }

    /// A 2×2 board after tile 3 slid right from cell 2 into the gap at cell 3 (tiles 1 and 2
    /// at rest, 10 units a cell), `publish` run as the app runs it; tile 3's entity, and `(1, 2)`'s.
    fn a_slide_on_a_small_board() -> (App, Entity, Entity) {
        let mut app = App::new();
        app.init_resource::<OnScreen>()
            .add_systems(Update, publish.run_if(drawn_moved));
        let board = npuzzle::parse_board("1 2 / 0 3").unwrap();
        app.insert_resource(Built {
            board: Some((board, false)),
            ..default()
        });
        let at = |cell: usize| Transform::from_xyz(cell as f32 * 10.0, 0.0, 1.0);
        let sprite = |tile: u8, cell: usize| TileSprite {
            tile,
            cell,
            home: true,
        };
        app.world_mut().spawn((sprite(1, 0), at(0)));
        let two = app.world_mut().spawn((sprite(2, 1), at(1))).id();
        let slide = Slide {
            from_cell: 2,
            from: Vec2::new(20.0, 0.0),
            to: Vec2::new(30.0, 0.0),
            elapsed: 0.0,
            duration: 0.1,
            calm: false,
        };
        let sliding = app.world_mut().spawn((sprite(3, 3), at(2), slide)).id();
        (app, sliding, two)
    }

    /// The gap `publish` says after an update.
    fn shown_gap(app: &mut App) -> Option<usize> {
        app.update();
        app.world().resource::<OnScreen>().gap
    }

    /// Where tile `entity` is drawn, and how much of its slide's time has gone.
    fn drawn_at(app: &mut App, entity: Entity, x: f32, elapsed: f32) {
        if let Some(mut slide) = app.world_mut().get_mut::<Slide>(entity) {
            slide.elapsed = elapsed;
        }
        let mut transform = app.world_mut().get_mut::<Transform>(entity).unwrap();
        transform.translation.x = x;
    }

    #[test]
    fn the_gap_shows_where_the_tiles_leave_it_not_ahead_of_them() {
        // The game's gap is at cell 2 at once, the one drawn only once the tile is drawn
        // halfway across.
        let (mut app, sliding, _) = a_slide_on_a_small_board();
        assert_eq!(shown_gap(&mut app), Some(3), "ahead of the tile");
        // The spring is most of the way in its first fifth: where the tile is drawn counts,
        // not how much of the slide's time has gone (a fifth, here).
        drawn_at(&mut app, sliding, 23.0, 0.02);
        assert_eq!(shown_gap(&mut app), Some(3), "ahead, a third of the way");
        drawn_at(&mut app, sliding, 26.0, 0.02);
        assert_eq!(
            shown_gap(&mut app),
            Some(2),
            "behind the tile, 60 % of the way"
        );
        let three = app.world().resource::<OnScreen>().tiles[2];
        assert_eq!(
            three.at,
            Vec2::new(26.0, 0.0),
            "its marks where it is drawn"
        );
        app.world_mut().entity_mut(sliding).remove::<Slide>();
        assert_eq!(shown_gap(&mut app), Some(2));
        let on_screen = app.world().resource::<OnScreen>();
        let shown: Vec<u8> = on_screen.tiles.iter().map(|t| t.tile).collect();
        assert_eq!(shown, [1, 2, 3]);
        app.world_mut().resource_mut::<Built>().won = true;
        assert_eq!(shown_gap(&mut app), None, "a won board has no gap");
    }

    #[test]
    fn tiles_flying_past_one_another_leave_the_outline_on_the_game_s_gap() {
        // Tile 2 flying in from cell 0, still nearer it (where tile 1 is): cells 1 and 2 are
        // open, and the outline goes on the game's gap (2), not the first of them.
        let (mut app, sliding, two) = a_slide_on_a_small_board();
        app.world_mut().entity_mut(sliding).remove::<Slide>();
        let flying = Slide {
            from_cell: 0,
            from: Vec2::ZERO,
            to: Vec2::new(10.0, 0.0),
            elapsed: 0.0,
            duration: 0.45,
            calm: false,
        };
        app.world_mut().entity_mut(two).insert(flying);
        drawn_at(&mut app, two, 2.0, 0.0);
        assert_eq!(shown_gap(&mut app), Some(2));
    }

    #[test]
    fn the_missing_piece_fills_the_gap_the_win_names_and_goes_with_a_new_game() {
        // No tile sprite at all: the fill-in's cell comes from the game's change, not from
        // looking for the cell no sprite is on.
        let mut app = App::new();
        app.init_resource::<PhotoTiles>()
            .init_resource::<ScreenLayout>()
            .add_systems(Update, fill_in);
        app.world_mut().resource_mut::<PhotoTiles>().tiles = vec![Handle::default(); 4];
        let won = npuzzle::parse_board("1 2 / 3 0").unwrap();
        app.insert_resource(Built {
            board: Some((won.clone(), false)),
            won: true,
            ..default()
        });
        let fill_ins = |app: &mut App| {
            let mut query = app.world_mut().query_filtered::<&Transform, With<FillIn>>();
            let at: Vec<Vec2> = query
                .iter(app.world())
                .map(|t| t.translation.truncate())
                .collect();
            at
        };
        app.update();
        let layout = app.world().resource::<ScreenLayout>().board;
        assert_eq!(fill_ins(&mut app), [layout.cell_center(3)]);
        app.update();
        assert_eq!(fill_ins(&mut app).len(), 1, "one piece, not one a frame");
        app.world_mut().resource_mut::<Built>().won = false;
        app.update();
        assert!(
            fill_ins(&mut app).is_empty(),
            "a game under way has its gap"
        );
    }

    #[test]
    fn the_backdrop_lies_only_where_no_tile_covers_the_board() {
        // 4×4, the gap at the last cell.
        let mut app = App::new();
        app.init_resource::<ScreenLayout>()
            .add_systems(
                Startup,
                |mut commands: Commands, screen: Res<ScreenLayout>| {
                    spawn_backdrop(&mut commands, &screen.board, Color::BLACK)
                },
            )
            .add_systems(Update, patch_backdrop);
        let board = npuzzle::random::shuffled(npuzzle::Shape::new(4, 4).unwrap(), 0, 1);
        app.insert_resource(Built {
            board: Some((board.clone(), false)),
            ..default()
        });
        let layout = app.world().resource::<ScreenLayout>().board;
        let mut sprites = Vec::new();
        for (cell, &tile) in board.tiles().iter().enumerate().filter(|(_, t)| **t != 0) {
            let home = true;
            let at = Transform::from_translation(layout.cell_center(cell).extend(1.0));
            sprites.push(
                app.world_mut()
                    .spawn((TileSprite { tile, cell, home }, at))
                    .id(),
            );
        }
        let patch = |app: &mut App| {
            app.update();
            let mut query = app
                .world_mut()
                .query_filtered::<(&Sprite, &Transform), With<Patch>>();
            let (sprite, transform) = query.single(app.world()).unwrap();
            (
                sprite.custom_size.unwrap(),
                transform.translation.truncate(),
            )
        };
        let cell = layout.cell;
        assert_eq!(patch(&mut app), (Vec2::splat(cell), layout.cell_center(15)));
        // Everything the backdrop blends at rest: the gap and thin lines, not a fifth of the board
        // (one sheet under the tiles was all of it).
        let mut pieces = app.world_mut().query_filtered::<&Sprite, With<Backdrop>>();
        let area: f32 = pieces
            .iter(app.world())
            .map(|s| s.custom_size.unwrap().element_product())
            .sum();
        assert!(area < 0.2 * layout.size().element_product(), "{area}");
        // The 12 slides down into the gap: both its cells.
        let slide = Slide {
            from_cell: 11,
            from: layout.cell_center(11),
            to: layout.cell_center(15),
            elapsed: 0.0,
            duration: 0.1,
            calm: false,
        };
        app.world_mut().entity_mut(sprites[11]).insert(slide);
        let (size, at) = patch(&mut app);
        assert_eq!(size, Vec2::new(cell, 2.0 * cell));
        assert_eq!(at, (layout.cell_center(11) + layout.cell_center(15)) / 2.0);
        // The 1 shaken in the far corner: the whole board.
        app.world_mut()
            .get_mut::<Transform>(sprites[0])
            .unwrap()
            .translation
            .x += 3.0;
        assert_eq!(patch(&mut app), (layout.size(), layout.center));
    }

    #[test]
    fn a_sheet_over_the_window_hides_every_piece_of_the_board_even_new_ones() {
        let mut app = App::new();
        app.add_message::<BoardHidden>()
            .add_systems(Update, hide_under_sheet);
        let tile = |tile: u8| TileSprite {
            tile,
            cell: tile as usize,
            home: false,
        };
        let first = app.world_mut().spawn((tile(1), Visibility::default())).id();
        let shown = |app: &mut App| {
            let mut pieces = app.world_mut().query::<&Visibility>();
            let pieces: Vec<_> = pieces.iter(app.world()).copied().collect();
            pieces.iter().filter(|v| **v != Visibility::Hidden).count()
        };
        app.update();
        assert_eq!(shown(&mut app), 1);
        app.world_mut().write_message(BoardHidden(true));
        app.update();
        assert_eq!(shown(&mut app), 0, "drawn under the sheet");
        // Built again while hidden (the window resized under the sheet): hidden too.
        app.world_mut().spawn((tile(2), Visibility::default()));
        app.world_mut().spawn((Backdrop, Visibility::default()));
        app.update();
        assert_eq!(shown(&mut app), 0, "a new piece shows through the sheet");
        app.world_mut().write_message(BoardHidden(false));
        app.update();
        assert_eq!(shown(&mut app), 3);
        assert_eq!(
            app.world().get::<Visibility>(first),
            Some(&Visibility::Inherited)
        );
    }

    #[test]
    fn a_sliding_tile_overshoots_but_never_into_the_tile_beyond_the_gap() {
        for cell in [8.0, 20.0, 48.0, 100.0, 200.0, 400.0, 2000.0] {
            let gap = gap_for(cell);
            let room = gap / cell;
            assert!(spring(0.0, room).abs() < 1e-6);
            assert!((spring(1.0, room) - 1.0).abs() < 1e-6);
            assert_eq!(spring(2.0, room), spring(1.0, room));
            assert!(spring(0.5, room) > 0.5, "fast out: ahead at the midpoint");
            let peak = (0..=1000)
                .map(|i| spring(i as f32 / 1000.0, room))
                .fold(0.0, f32::max);
            // Past its cell by at most the gap: it reaches the next tile's edge, never over it.
            let past = (peak - 1.0) * cell;
            assert!(past > 0.0, "a {cell} px tile slides with no spring");
            assert!(
                past <= gap + 1e-3,
                "a {cell} px tile overshoots {past} px into a {gap} px gap"
            );
        }
    }

    #[test]
    fn a_calm_slide_never_overshoots_and_still_lands() {
        let mut last = 0.0;
        for i in 0..=100 {
            let at = calm(i as f32 / 100.0);
            assert!((0.0..=1.0).contains(&at) && at >= last, "{at} at {i}");
            last = at;
        }
        assert_eq!(calm(1.0), 1.0);
    }

    #[test]
    fn the_gap_between_tiles_never_swallows_a_tile_and_grows_with_it() {
        let mut last = 0.0;
        for cell in [8.0, 20.0, 48.0, 100.0, 200.0, 400.0, 2000.0] {
            let gap = gap_for(cell);
            assert!(gap >= 1.0, "a {cell} px tile touches its neighbour");
            assert!(
                gap <= cell * 0.15,
                "a {cell} px tile loses {gap} px to its gap"
            );
            assert!(gap >= last, "the gap shrank as tiles grew");
            last = gap;
        }
    }
}
