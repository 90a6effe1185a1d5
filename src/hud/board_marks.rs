//! The marks over the board's tiles: their numbers, a check on tiles already home, the hint's
//! outline and the gap's. What to mark is decided, and the numbers laid out, in the controls'
//! egui pass (egui makes its glyphs there), from the game as it was before this frame's
//! changes; the marks are placed after the board view moved its tiles, in the same frame,
//! where it says it drew them (`OnScreen`, which also says when nothing may be marked: a win,
//! a blind solve's first move): a number moves with its tile, and the gap's outline leaves a
//! cell as the tile sliding into it arrives. The hint's outline stays for the frame that plays
//! the hinted move.

use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiFullOutput, PrimaryEguiContext, egui};

use super::style::{self, rgb};
use super::{Hud, Sheet, View};
use crate::board::layout::ScreenLayout;
use crate::board::theme::Palette;
use crate::board::view::OnScreen;
use crate::play::settings::Settings;

/// What the controls' pass chose to mark over the board, for [`place`] to put on the tiles.
#[derive(Resource, Default)]
pub(super) struct BoardMarks {
    /// Each tile's number, laid out, at the tile's number less one (none while numbers are
    /// off).
    numbers: Vec<Arc<egui::Galley>>,
    /// The check's colour on tiles already home (none while the marks are off).
    home: Option<egui::Color32>,
    /// The hinted tile and its outline's colour.
    hinted: Option<(u8, egui::Color32)>,
    /// Whether the gap is outlined.
    gap: bool,
}

/// Chooses the marks (in the controls' pass): numbers, checks and the hint while the game is
/// played in sight (blindfolded, nothing tells one tile from another), the gap's outline while
/// the game goes on.
pub(super) fn choose(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    hud: Res<Hud>,
    view: View,
    on_screen: Res<OnScreen>,
    mut marks: ResMut<BoardMarks>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    *marks = BoardMarks::default();
    if hud.sheet.hides_board() {
        return Ok(());
    }
    let board = view.current.game.board();
    let p = Palette::of(settings.theme);
    let playing = !view.won() && !view.current.game.blindfolded();
    let longer = board.width().max(board.height());
    if settings.numbers_shown(longer, view.tiles.alike) && playing {
        let font = egui::FontId::new(number_size(&view.layout), style::bold());
        let number = |tile: u8| {
            let text = tile.to_string();
            ctx.fonts_mut(|fonts| fonts.layout_no_wrap(text, font.clone(), egui::Color32::WHITE))
        };
        // The tiles on screen may still be the last board's, a new one waiting for its photo.
        let tiles = board.tiles().len().max(on_screen.tiles.len() + 1);
        marks.numbers = (1..tiles as u8).map(number).collect();
    }
    marks.home = (settings.mark_correct && playing).then(|| rgb(p.good));
    marks.hinted = view.hint.tile().map(|tile| (tile, rgb(p.accent)));
    marks.gap = gap_outlined(view.won(), &hud.sheet);
    Ok(())
}

/// A tile's number's size in the controls' points: a share of the tile, so the numbers grow
/// with the tiles and not with the player's text size (play-test 70: at 200 % they covered
/// most of each tile), within a size readable on a small tile and not glaring on a big one.
pub fn number_size(layout: &ScreenLayout) -> f32 {
    let pixels = (layout.board.cell * 0.22).clamp(11.0, 28.0 * screen_scale(layout));
    pixels / layout.ui_scale
}

/// How much the marks are scaled for the screen alone (the controls' scale less the player's
/// text size): a mark's size in points times this and the text size is its size in pixels.
fn screen_scale(layout: &ScreenLayout) -> f32 {
    layout.ui_scale / layout.text_scale.max(0.01)
}

/// Whether the gap is outlined: while the game goes on and the board shows, a sheet over it
/// or not (a sheet's backdrop dims the outline with the tiles; play-test 59 found the gap
/// lost its outline under the board's dimming).
fn gap_outlined(won: bool, sheet: &Sheet) -> bool {
    !won && !sheet.hides_board()
}

/// Places the marks chosen in this frame's pass on the tiles where the board view drew them,
/// under everything else egui paints (a sheet's backdrop dims them with the tiles).
pub(super) fn place(
    marks: Res<BoardMarks>,
    on_screen: Res<OnScreen>,
    screen: Res<ScreenLayout>,
    mut outputs: Query<&mut EguiFullOutput, With<PrimaryEguiContext>>,
) {
    let Ok(mut output) = outputs.single_mut() else {
        return;
    };
    let Some(full) = output.0.as_mut() else {
        return;
    };
    let shapes = marks.shapes(&on_screen, &screen);
    let clip_rect = egui::Rect::from_min_size(egui::Pos2::ZERO, {
        let window = screen.window_points();
        egui::vec2(window.x, window.y)
    });
    let clipped = shapes
        .into_iter()
        .map(|shape| egui::epaint::ClippedShape { clip_rect, shape });
    full.shapes.splice(0..0, clipped);
}

impl BoardMarks {
    /// The marks' shapes over the tiles as drawn, in the controls' points.
    fn shapes(&self, on_screen: &OnScreen, screen: &ScreenLayout) -> Vec<egui::Shape> {
        let cell = screen.board.cell / screen.ui_scale;
        let square = |at: Vec2| {
            let centre = screen.to_screen(at) / screen.ui_scale;
            egui::Rect::from_center_size(
                egui::pos2(centre.x, centre.y),
                egui::Vec2::splat(cell - 4.0),
            )
        };
        let mut shapes = Vec::new();
        if let Some(gap) = on_screen.gap.filter(|_| self.gap) {
            gap_outline(&mut shapes, square(screen.board.cell_center(gap)));
        }
        for tile in &on_screen.tiles {
            let rect = square(tile.at);
            // The frame's changes may have won the game or blanked the tiles since the pass.
            let number = usize::from(tile.tile).checked_sub(1);
            let number = number
                .and_then(|i| self.numbers.get(i))
                .filter(|_| !on_screen.plain);
            if let Some(galley) = number {
                number_tag(&mut shapes, rect, galley.clone(), 1.0 / screen.text_scale);
            }
            if let Some(colour) = self.home.filter(|_| tile.home && !on_screen.plain) {
                home_mark(&mut shapes, rect, cell, colour, 1.0 / screen.text_scale);
            }
            if let Some((_, colour)) = self.hinted.filter(|(t, _)| *t == tile.tile) {
                let stroke = egui::Stroke::new(4.0, colour);
                shapes.push(egui::Shape::rect_stroke(
                    rect,
                    6.0,
                    stroke,
                    egui::StrokeKind::Inside,
                ));
            }
        }
        shapes
    }
}

/// A tile's number in the tile's top-left corner, on a dark tag; `unit` is one point of the
/// tag's room at 100 % text (the tag grows with the tile, as its number does, not the text).
fn number_tag(
    shapes: &mut Vec<egui::Shape>,
    tile: egui::Rect,
    galley: Arc<egui::Galley>,
    unit: f32,
) {
    let back = egui::Rect::from_min_size(
        tile.min + egui::vec2(4.0, 4.0) * unit,
        galley.size() + egui::vec2(10.0, 2.0) * unit,
    );
    shapes.push(egui::Shape::rect_filled(
        back,
        6.0 * unit,
        egui::Color32::from_black_alpha(150),
    ));
    shapes.push(egui::Shape::galley(
        back.min + egui::vec2(5.0, 1.0) * unit,
        galley,
        egui::Color32::WHITE,
    ));
}

/// The mark on a tile already home: a check mark in a disc (a shape, not a colour alone);
/// `unit` is one point at 100 % text in the points drawn in (the mark grows with the tile,
/// not the text).
fn home_mark(
    shapes: &mut Vec<egui::Shape>,
    tile: egui::Rect,
    cell: f32,
    colour: egui::Color32,
    unit: f32,
) {
    let radius = (cell * 0.08 / unit).clamp(6.0, 11.0) * unit;
    let centre = tile.right_bottom() - egui::Vec2::splat(radius + 4.0 * unit);
    shapes.push(egui::Shape::circle_filled(centre, radius, colour));
    let tick = [
        centre + egui::vec2(-0.5, 0.0) * radius,
        centre + egui::vec2(-0.12, 0.38) * radius,
        centre + egui::vec2(0.5, -0.35) * radius,
    ];
    let stroke = egui::Stroke::new((radius * 0.28).max(1.5), egui::Color32::WHITE);
    shapes.push(egui::Shape::line_segment([tick[0], tick[1]], stroke));
    shapes.push(egui::Shape::line_segment([tick[1], tick[2]], stroke));
}

/// The gap's outline, light outside and dark inside, so it shows on a dark photo and on a
/// bright one.
fn gap_outline(shapes: &mut Vec<egui::Shape>, rect: egui::Rect) {
    let outer = egui::Stroke::new(2.0, egui::Color32::from_white_alpha(220));
    let inner = egui::Stroke::new(2.0, egui::Color32::from_black_alpha(170));
    let inside = egui::StrokeKind::Inside;
    shapes.push(egui::Shape::rect_stroke(rect, 6.0, outer, inside));
    shapes.push(egui::Shape::rect_stroke(
        rect.shrink(2.0),
        5.0,
        inner,
        inside,
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marks_lie_where_the_board_view_drew_the_tiles() {
        let screen = ScreenLayout::default();
        let tile = |tile: u8, at: Vec2| crate::board::view::ShownTile {
            tile,
            at,
            home: true,
        };
        // Tile 3 drawn a third of the way between two cells, the gap shown at cell 0.
        let between = screen
            .board
            .cell_center(1)
            .lerp(screen.board.cell_center(2), 0.3);
        let on_screen = OnScreen {
            tiles: vec![tile(1, screen.board.cell_center(3)), tile(3, between)],
            gap: Some(0),
            plain: false,
        };
        let marks = BoardMarks {
            hinted: Some((3, egui::Color32::RED)),
            gap: true,
            ..default()
        };
        let centres: Vec<egui::Pos2> = marks
            .shapes(&on_screen, &screen)
            .iter()
            .filter_map(|shape| match shape {
                egui::Shape::Rect(rect) => Some(rect.rect.center()),
                _ => None,
            })
            .collect();
        let points = |world: Vec2| {
            let at = screen.to_screen(world) / screen.ui_scale;
            egui::pos2(at.x, at.y)
        };
        let near = |a: egui::Pos2, b: egui::Pos2| a.distance(b) < 0.01;
        assert!(
            near(centres[0], points(screen.board.cell_center(0))),
            "the gap"
        );
        assert!(
            near(centres[2], points(between)),
            "the hint on the sliding tile"
        );
        assert_eq!(
            centres.len(),
            3,
            "two strokes for the gap, one for the hint"
        );
        // The checks on tiles at home, unless this frame's changes won the game or blanked
        // the tiles after the pass chose them.
        let checked = BoardMarks {
            home: Some(egui::Color32::GREEN),
            ..default()
        };
        let checks = |on_screen: &OnScreen| {
            let shapes = checked.shapes(on_screen, &screen);
            let discs = shapes
                .iter()
                .filter(|s| matches!(s, egui::Shape::Circle(_)));
            discs.count()
        };
        assert_eq!(checks(&on_screen), 2);
        let plain = OnScreen {
            plain: true,
            ..on_screen.clone()
        };
        assert_eq!(checks(&plain), 0, "a mark on the whole photo");
    }

    #[test]
    fn a_number_grows_with_its_tile_not_with_the_text() {
        use crate::board::layout::layout_scaled;
        use crate::platform::SafeArea;
        let phone = Vec2::new(360.0, 640.0);
        for text in [1.0, 1.5, 2.0] {
            let layout = layout_scaled(phone, SafeArea::default(), (4, 4), text);
            // On the screen, in pixels: the same share of the tile at any text size.
            let pixels = number_size(&layout) * layout.ui_scale;
            let share = pixels / layout.board.cell;
            assert!(
                (0.2..=0.23).contains(&share),
                "{text}: {pixels} px on {layout:?}"
            );
        }
        // A 4K screen's tiles are larger, and so are their numbers.
        let big = layout_scaled(Vec2::new(3840.0, 2160.0), SafeArea::default(), (4, 4), 1.0);
        assert!(number_size(&big) * big.ui_scale > 28.0);
    }

    #[test]
    fn the_gap_keeps_its_outline_under_a_sheet_but_not_once_won_or_hidden() {
        assert!(gap_outlined(false, &Sheet::None));
        assert!(
            gap_outlined(false, &Sheet::Menu),
            "dimmed under the menu, still outlined"
        );
        assert!(gap_outlined(false, &Sheet::Help));
        assert!(
            !gap_outlined(true, &Sheet::None),
            "the won board has no gap"
        );
        assert!(
            !gap_outlined(false, &Sheet::Framing),
            "the framing sheet hides the board"
        );
    }
}
