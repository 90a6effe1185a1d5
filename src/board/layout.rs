//! Where things go on the screen: the board and the controls' panel, for any window (a phone
//! upright or on its side, a tablet, a desktop window, a 4K screen) and the platform's safe
//! area (status bar, notch, gesture bar, on any edge). Portrait, the phone's layout, puts the
//! board at the top, filling the width, and the controls below it in thumb reach; landscape
//! puts the controls beside the board, the two kept together in the middle of a wide screen,
//! and a short window (a phone on its side) gets the compact panel. The controls grow with a
//! large screen ([`ScreenLayout::ui_scale`], egui's zoom), so their text stays readable.
//!
//! Screen positions are logical pixels (y down, origin top-left), as the platform reports
//! touches; the board's sprites use world units (the 2D camera's: y up, origin at the
//! window's centre). Both are here, and nowhere else.

use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResized, WindowScaleFactorChanged};

use crate::frame::AppSet;
use crate::messages::{Change, GameChanged};
use crate::platform::{SafeArea, SystemPreferences};
use crate::play::settings::Settings;

/// The controls' width beside the board (landscape), in the controls' points.
pub const PANEL_WIDTH: f32 = 320.0;
/// The height the controls would like below the board (portrait), in the controls' points:
/// a row for the counters and the menu, two lines of status, two rows of actions. The board
/// gives up room for it down to [`BOARD_SHARE`] of the width.
pub const PANEL_WANTED: f32 = 250.0;
/// The least height the controls get below the board (portrait), in the controls' points at
/// 100 % text: a row for the counters and the menu and two rows of actions. Larger text gets
/// no more (the board keeps [`BOARD_SHARE`]): the panel scrolls.
pub const PANEL_LEAST: f32 = 190.0;
/// The least share of the usable width the board spans upright, at any text size, where the
/// panel keeps [`PANEL_LEAST`] (play-test 70: at 360 × 640 the board was 58 %).
pub const BOARD_SHARE: f32 = 0.86;
/// The height the full panel needs beside the board (with the app's name and room for the
/// status); a shorter window gets the compact panel, in the controls' points.
pub const PANEL_FULL_HEIGHT: f32 = 430.0;
/// Space kept around the board, in logical pixels.
pub const MARGIN: f32 = 12.0;
/// The smallest window a desktop window can be shrunk to, in logical pixels (a phone on its
/// side is 640 × 360; smaller windows are laid out too, just smaller).
pub const MIN_WINDOW: Vec2 = Vec2::new(320.0, 320.0);
/// The window the controls are drawn at their own size for; larger screens scale them up.
pub const DESIGN_WINDOW: Vec2 = Vec2::new(1280.0, 800.0);
/// The most the controls are scaled up for a large screen.
pub const MAX_SCREEN_SCALE: f32 = 3.0;

/// Where the board is drawn, in world units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardLayout {
    /// The centre of the board.
    pub center: Vec2,
    /// The side of one cell, gap included.
    pub cell: f32,
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

impl Default for BoardLayout {
    fn default() -> Self {
        BoardLayout {
            center: Vec2::ZERO,
            cell: 100.0,
            width: 4,
            height: 4,
        }
    }
}

impl BoardLayout {
    /// The world position of a cell's centre.
    pub fn cell_center(&self, cell: usize) -> Vec2 {
        let column = (cell % self.width.max(1)) as f32;
        let row = (cell / self.width.max(1)) as f32;
        let half = self.size() / 2.0;
        self.center
            + Vec2::new(
                -half.x + (column + 0.5) * self.cell,
                half.y - (row + 0.5) * self.cell,
            )
    }

    /// The cell under a world point, if it is on the board.
    pub fn cell_at(&self, point: Vec2) -> Option<usize> {
        if self.cell.is_nan() || self.cell <= 0.0 || !point.is_finite() {
            return None;
        }
        let half = self.size() / 2.0;
        let x = point.x - (self.center.x - half.x);
        let y = (self.center.y + half.y) - point.y;
        if x < 0.0 || y < 0.0 {
            return None;
        }
        let column = (x / self.cell) as usize;
        let row = (y / self.cell) as usize;
        (column < self.width && row < self.height).then(|| row * self.width + column)
    }

    /// The size of the whole board.
    pub fn size(&self) -> Vec2 {
        Vec2::new(self.width as f32, self.height as f32) * self.cell
    }
}

/// The whole screen's layout: the window, the board, and the controls' panel.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct ScreenLayout {
    /// The window's size, in logical pixels.
    pub window: Vec2,
    /// The board, in world units.
    pub board: BoardLayout,
    /// The controls' panel, in screen coordinates.
    pub panel: Rect,
    /// Whether the window is taller than wide (controls below the board).
    pub portrait: bool,
    /// Whether the panel beside the board is the compact one (a short window: no title,
    /// smaller counters).
    pub compact: bool,
    /// The controls' scale: egui's zoom, so one of the controls' points is this many logical
    /// pixels (1 on a phone or a desktop window, more on a large screen or with larger text).
    pub ui_scale: f32,
    /// The window less the safe area, in screen coordinates: where anything may be drawn.
    pub usable: Rect,
    /// The player's text size it was laid out for (1 for 100 %).
    pub text_scale: f32,
}

impl Default for ScreenLayout {
    fn default() -> Self {
        layout_for(Vec2::new(1100.0, 720.0), SafeArea::default(), 4, 4)
    }
}

impl ScreenLayout {
    /// A screen position in world units.
    pub fn to_world(&self, screen: Vec2) -> Vec2 {
        Vec2::new(
            screen.x - self.window.x / 2.0,
            self.window.y / 2.0 - screen.y,
        )
    }

    /// A world position on the screen.
    pub fn to_screen(&self, world: Vec2) -> Vec2 {
        Vec2::new(world.x + self.window.x / 2.0, self.window.y / 2.0 - world.y)
    }

    /// The board cell under a screen position.
    pub fn cell_at_screen(&self, screen: Vec2) -> Option<usize> {
        self.board.cell_at(self.to_world(screen))
    }

    /// The board's rectangle on the screen.
    pub fn board_rect(&self) -> Rect {
        let half = self.board.size() / 2.0;
        let center = self.to_screen(self.board.center);
        Rect::from_center_half_size(center, half)
    }

    /// A rectangle on the screen in the controls' points (egui's, with [`Self::ui_scale`]).
    pub fn in_points(&self, rect: Rect) -> Rect {
        Rect::from_corners(rect.min / self.ui_scale, rect.max / self.ui_scale)
    }

    /// The window's size in the controls' points.
    pub fn window_points(&self) -> Vec2 {
        self.window / self.ui_scale
    }
}

/// How much the controls are scaled up for a screen larger than [`DESIGN_WINDOW`] (never
/// down: a phone's controls are drawn at their own size).
pub fn screen_scale(window: Vec2) -> f32 {
    let ratio = (window / DESIGN_WINDOW).min_element();
    if ratio.is_finite() {
        ratio.clamp(1.0, MAX_SCREEN_SCALE)
    } else {
        1.0
    }
}

/// The layout for a window of this size, the safe area kept clear, and a board of
/// `width` × `height` cells, with the controls at their size for the screen.
pub fn layout_for(window: Vec2, safe: SafeArea, width: usize, height: usize) -> ScreenLayout {
    layout_scaled(window, safe, (width, height), 1.0)
}

/// The layout with the player's text size (`text_scale`, 1 for 100 %) on top of the screen's
/// scale. The board is whole, its cells square and as large as the room beside (or above) the
/// controls allows; nothing overlaps, and nothing is under the safe area.
pub fn layout_scaled(
    window: Vec2,
    safe: SafeArea,
    (width, height): (usize, usize),
    text_scale: f32,
) -> ScreenLayout {
    let window = window.max(Vec2::ONE);
    let usable = Rect::new(
        safe.left,
        safe.top,
        (window.x - safe.right).max(safe.left + 1.0),
        (window.y - safe.bottom).max(safe.top + 1.0),
    );
    let ui_scale = screen_scale(window) * text_scale.clamp(0.5, 4.0);
    let portrait = window.x < window.y;
    let cells = Vec2::new(width.max(1) as f32, height.max(1) as f32);
    let compact = !portrait && usable.height() < PANEL_FULL_HEIGHT * ui_scale;
    let (board_rect, panel) = if portrait {
        let least = PANEL_LEAST * screen_scale(window);
        portrait_places(usable, cells, (PANEL_WANTED * ui_scale, least))
    } else {
        landscape_places(usable, cells, PANEL_WIDTH * ui_scale)
    };
    let center = board_rect.center();
    ScreenLayout {
        window,
        board: BoardLayout {
            center: Vec2::new(center.x - window.x / 2.0, window.y / 2.0 - center.y).round(),
            cell: board_rect.width() / cells.x,
            width,
            height,
        },
        panel,
        portrait,
        compact,
        ui_scale,
        usable,
        text_scale,
    }
}

/// The side of the largest square cell with which `cells` fit `area`, the margins kept.
fn fit(area: Vec2, cells: Vec2) -> f32 {
    let area = (area - Vec2::splat(2.0 * MARGIN)).max(Vec2::ONE);
    (area / cells).min_element().floor().max(1.0)
}

/// Portrait: the board at the top, centred, filling the width; the panel below it, to the
/// bottom of the usable area. The panel gets the height it `wants` where the board still
/// fills the width; else the board gives up room for it down to [`BOARD_SHARE`] of the width,
/// never taking the panel's `least` (with large text the panel scrolls rather than squeeze the
/// board away).
fn portrait_places(usable: Rect, cells: Vec2, (wants, least): (f32, f32)) -> (Rect, Rect) {
    let height = board_height(usable, cells, (wants, least));
    let size = cells * fit(Vec2::new(usable.width(), height), cells);
    let min = Vec2::new(usable.center().x - size.x / 2.0, usable.min.y + MARGIN);
    let board = Rect::from_corners(min, min + size);
    let panel = Rect::new(
        usable.min.x,
        board.max.y + MARGIN,
        usable.max.x,
        usable.max.y,
    );
    (board, panel)
}

/// The height the board's area gets upright (margins included): what the panel's `wants`
/// leave, or more where that would make the board narrower than [`BOARD_SHARE`] of the width
/// (so much and no more, and never into the panel's `least`).
fn board_height(usable: Rect, cells: Vec2, (wants, least): (f32, f32)) -> f32 {
    let left = usable.height() - wants;
    // The cell that spans the share, whole pixels (fit floors the cell).
    let cell = (BOARD_SHARE * usable.width() / cells.x).ceil();
    let share = cell * cells.y + 2.0 * MARGIN;
    let most = (usable.height() - least).max(1.0);
    left.max(share.min(most)).max(1.0)
}

/// Landscape: the board beside a panel `panel_width` wide, the two side by side in the middle
/// of the usable area (a wide screen does not push them apart); the board centred up and down.
fn landscape_places(usable: Rect, cells: Vec2, panel_width: f32) -> (Rect, Rect) {
    let panel_width = panel_width.min(usable.width() / 2.0);
    let area = Vec2::new(usable.width() - panel_width, usable.height());
    let size = cells * fit(area, cells);
    let group = size.x + 2.0 * MARGIN + panel_width;
    let left = usable.min.x + ((usable.width() - group) / 2.0).max(0.0).floor();
    let min = Vec2::new(left + MARGIN, usable.center().y - size.y / 2.0);
    let board = Rect::from_corners(min, min + size);
    let panel_left = (board.max.x + MARGIN).min(usable.max.x - panel_width);
    let panel = Rect::new(
        panel_left,
        usable.min.y,
        panel_left + panel_width,
        usable.max.y,
    );
    (board, panel)
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<WindowResized>()
        .add_message::<WindowScaleFactorChanged>()
        .init_resource::<ScreenLayout>()
        .add_systems(PreUpdate, follow_the_window)
        .add_systems(Update, follow_the_board.in_set(AppSet::React));
}

/// What the layout is made for besides the window: the safe area and the text size (the
/// player's, or the device's).
#[derive(bevy::ecs::system::SystemParam)]
struct Room<'w> {
    safe: Res<'w, SafeArea>,
    settings: Res<'w, Settings>,
    system: Res<'w, SystemPreferences>,
}

impl Room<'_> {
    fn changed(&self) -> bool {
        self.safe.is_changed() || self.settings.is_changed() || self.system.is_changed()
    }

    fn text_scale(&self) -> f32 {
        self.settings.text_scale(self.system.font_scale)
    }
}

/// Lays out again when the window's size or scale, the safe area or the text size changed
/// (before input is read: a tap is found on the layout on screen).
fn follow_the_window(
    mut resized: MessageReader<WindowResized>,
    mut rescaled: MessageReader<WindowScaleFactorChanged>,
    windows: Query<&Window, With<PrimaryWindow>>,
    room: Room,
    mut layout: ResMut<ScreenLayout>,
    mut first: Local<bool>,
) {
    let told = resized.read().count() + rescaled.read().count() > 0 || room.changed();
    let Ok(window) = windows.single() else {
        return;
    };
    if told || !std::mem::replace(&mut *first, true) {
        let board = (layout.board.width, layout.board.height);
        let next = layout_scaled(window.size(), *room.safe, board, room.text_scale());
        set(&mut layout, next);
    }
}

/// Lays out for a new board's shape.
fn follow_the_board(
    mut changes: MessageReader<GameChanged>,
    room: Room,
    mut layout: ResMut<ScreenLayout>,
) {
    let Some(board) = changes
        .read()
        .filter(|changed| matches!(changed.change, Change::Reset(..)))
        .map(|changed| &changed.board)
        .last()
    else {
        return;
    };
    let shape = (board.width(), board.height());
    let next = layout_scaled(layout.window, *room.safe, shape, room.text_scale());
    set(&mut layout, next);
}

/// Changes the layout if it differs (so its readers see a change only when there is one).
fn set(layout: &mut ResMut<ScreenLayout>, next: ScreenLayout) {
    if **layout != next {
        **layout = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> BoardLayout {
        BoardLayout {
            center: Vec2::new(100.0, -50.0),
            cell: 50.0,
            width: 4,
            height: 3,
        }
    }

    #[test]
    fn cell_centres_map_back_to_their_cells() {
        let l = board();
        for cell in 0..12 {
            assert_eq!(l.cell_at(l.cell_center(cell)), Some(cell), "cell {cell}");
        }
        // Top-left is cell 0: left of and above the centre.
        let c0 = l.cell_center(0);
        assert!(c0.x < l.center.x && c0.y > l.center.y);
    }

    #[test]
    fn points_off_the_board_are_no_cell() {
        let l = board();
        let half = l.size() / 2.0;
        assert_eq!(l.cell_at(l.center + Vec2::new(half.x + 1.0, 0.0)), None);
        assert_eq!(l.cell_at(l.center + Vec2::new(0.0, half.y + 1.0)), None);
        assert_eq!(l.cell_at(l.center - half - Vec2::ONE), None);
        assert_eq!(l.cell_at(Vec2::NAN), None);
        let broken = BoardLayout { cell: 0.0, ..l };
        assert_eq!(broken.cell_at(l.center), None);
    }

    #[test]
    fn screen_points_become_world_points_and_back() {
        let layout = layout_for(Vec2::new(800.0, 600.0), SafeArea::default(), 4, 4);
        assert_eq!(layout.to_world(Vec2::new(400.0, 300.0)), Vec2::ZERO);
        assert_eq!(layout.to_world(Vec2::ZERO), Vec2::new(-400.0, 300.0));
        let p = Vec2::new(123.0, 456.0);
        assert_eq!(layout.to_screen(layout.to_world(p)), p);
        // The board's cells are found from the screen too.
        let rect = layout.board_rect();
        assert_eq!(layout.cell_at_screen(rect.min + Vec2::splat(1.0)), Some(0));
        assert_eq!(layout.cell_at_screen(rect.max - Vec2::splat(1.0)), Some(15));
    }

    /// The windows the app is laid out for: phones upright and on their side, tablets both
    /// ways, desktop windows, a 4K screen.
    const WINDOWS: [(f32, f32); 10] = [
        (360.0, 640.0),
        (430.0, 932.0),
        (360.0, 800.0),
        (800.0, 360.0),
        (640.0, 360.0),
        (768.0, 1024.0),
        (1024.0, 768.0),
        (1100.0, 720.0),
        (1280.0, 800.0),
        (3840.0, 2160.0),
    ];
    /// Boards: squares, and the shapes of photos upright and on their side.
    const BOARDS: [(usize, usize); 6] = [(3, 3), (4, 4), (8, 8), (3, 4), (4, 3), (6, 8)];

    /// A notch or bars on the edges a phone has them in this orientation.
    fn phone_safe_area(window: Vec2) -> SafeArea {
        if window.x < window.y {
            SafeArea {
                top: 48.0,
                right: 0.0,
                bottom: 34.0,
                left: 0.0,
            }
        } else {
            SafeArea {
                top: 0.0,
                right: 24.0,
                bottom: 21.0,
                left: 48.0,
            }
        }
    }

    /// Everything a layout must hold, whatever the window: the board whole, inside the safe
    /// area, its cells square; the panel inside the safe area, as large as the controls need,
    /// apart from the board; and the board as large as the room left allows.
    fn assert_holds(layout: &ScreenLayout, safe: SafeArea) {
        let window = layout.window;
        let usable = Rect::new(
            safe.left,
            safe.top,
            window.x - safe.right,
            window.y - safe.bottom,
        );
        let (board, panel) = (layout.board_rect(), layout.panel);
        let context = format!(
            "{window} {:?}: board {board:?}, panel {panel:?}",
            (layout.board.width, layout.board.height)
        );
        assert_eq!(
            board.union(usable),
            usable,
            "the board leaves the safe area: {context}"
        );
        assert_eq!(
            panel.union(usable),
            usable,
            "the panel leaves the safe area: {context}"
        );
        assert!(board.intersect(panel).is_empty(), "they overlap: {context}");
        let needed = if layout.portrait {
            usable.width()
        } else {
            PANEL_WIDTH
        };
        assert!(
            panel.width() >= needed.min(usable.width() / 2.0) - 0.5,
            "panel too narrow: {context}"
        );
        if layout.portrait {
            // What it wants, or at least its least where the board would be too narrow.
            let wanted = (PANEL_WANTED * layout.ui_scale).min(PANEL_LEAST);
            let wanted = wanted.min(usable.height() / 2.0);
            assert!(panel.height() >= wanted - 0.5, "panel too short: {context}");
        }
        // As large as fits: a cell one pixel larger would not.
        let cells = Vec2::new(layout.board.width as f32, layout.board.height as f32);
        let room = if layout.portrait {
            Vec2::new(usable.width(), panel.min.y - usable.min.y)
        } else {
            Vec2::new(usable.width() - panel.width(), usable.height())
        };
        let bigger = cells * (layout.board.cell + 1.0) + Vec2::splat(2.0 * MARGIN);
        assert!(
            bigger.x > room.x || bigger.y > room.y,
            "the board could be larger: {context}"
        );
    }

    #[test]
    fn every_window_holds_the_whole_board_and_the_controls() {
        for (w, h) in WINDOWS {
            let window = Vec2::new(w, h);
            for safe in [SafeArea::default(), phone_safe_area(window)] {
                for (columns, rows) in BOARDS {
                    for text in [1.0, 1.25, 1.5, 2.0] {
                        let layout = layout_scaled(window, safe, (columns, rows), text);
                        assert_holds(&layout, safe);
                    }
                }
            }
        }
    }

    /// Phones upright, from the smallest the app lays out for to the largest, with the
    /// play-test's insets (a status bar of 44 and a gesture bar of 34) on all of them.
    const PHONES: [(f32, f32); 5] = [
        (320.0, 568.0),
        (360.0, 640.0),
        (375.0, 667.0),
        (390.0, 844.0),
        (430.0, 932.0),
    ];

    #[test]
    fn upright_the_board_spans_the_phone_at_any_text_size() {
        // Play-test 70: at 360 × 640 the 4×4 board was 208 px wide, tiles of 52 px.
        let safe = SafeArea {
            top: 44.0,
            right: 0.0,
            bottom: 34.0,
            left: 0.0,
        };
        for (w, h) in PHONES {
            for text in [1.0, 2.0] {
                let layout = layout_scaled(Vec2::new(w, h), safe, (4, 4), text);
                assert_holds(&layout, safe);
                let share = layout.board_rect().width() / layout.usable.width();
                let context = format!("{w}×{h} at {text}: {layout:?}");
                assert!(
                    share >= 0.85,
                    "the board is {share:.3} of the width: {context}"
                );
                // The controls take what is left, and at 100 % it holds them all: a row for
                // the counters and the menu, two rows of actions.
                assert!(layout.panel.min.y >= layout.board_rect().max.y, "{context}");
                assert!(layout.panel.max.y <= layout.usable.max.y, "{context}");
                assert!(
                    layout.panel.height() >= PANEL_LEAST,
                    "the panel is clipped: {context}"
                );
            }
        }
    }

    #[test]
    fn larger_text_scales_the_controls_and_leaves_the_board_room() {
        let phone = Vec2::new(360.0, 640.0);
        let normal = layout_scaled(phone, SafeArea::default(), (4, 4), 1.0);
        let large = layout_scaled(phone, SafeArea::default(), (4, 4), 2.0);
        assert_eq!(large.ui_scale, 2.0);
        assert!(large.panel.height() > normal.panel.height());
        assert!(large.board_rect().width() >= 360.0 * BOARD_SHARE - 1.0);
    }

    #[test]
    fn a_phone_on_its_side_puts_the_panel_beside_the_board_and_the_notch_stays_clear() {
        let window = Vec2::new(800.0, 360.0);
        let safe = phone_safe_area(window);
        let layout = layout_for(window, safe, 5, 5);
        assert!(!layout.portrait && layout.compact);
        assert!(
            layout.board_rect().min.x >= safe.left,
            "the board under the notch"
        );
        assert!(layout.board_rect().max.x <= layout.panel.min.x);
        // The whole board fits the height: five rows, not two and a half.
        assert!(layout.board.cell * 5.0 <= 360.0 - safe.bottom);
        assert!(layout.board.cell >= 56.0, "{layout:?}");
    }

    #[test]
    fn a_4k_screen_keeps_board_and_panel_together_and_the_text_readable() {
        let layout = layout_for(Vec2::new(3840.0, 2160.0), SafeArea::default(), 4, 4);
        let (board, panel) = (layout.board_rect(), layout.panel);
        assert!(
            panel.min.x - board.max.x <= 2.0 * MARGIN + 1.0,
            "{board:?} {panel:?}"
        );
        // The group sits in the middle, not the panel at the far edge.
        let left_gap = board.min.x;
        let right_gap = 3840.0 - panel.max.x;
        assert!(
            (left_gap - right_gap).abs() <= 2.0 * MARGIN + 2.0,
            "{left_gap} {right_gap}"
        );
        assert!(
            layout.ui_scale >= 2.5,
            "the controls stay small: {}",
            layout.ui_scale
        );
        // A phone or a desktop window draws the controls at their own size.
        assert_eq!(
            layout_for(Vec2::new(360.0, 640.0), SafeArea::default(), 4, 4).ui_scale,
            1.0
        );
        assert_eq!(
            layout_for(Vec2::new(1100.0, 720.0), SafeArea::default(), 4, 4).ui_scale,
            1.0
        );
    }

    #[test]
    fn portrait_puts_the_board_on_top_filling_the_width() {
        // A phone: 1080 × 2400 pixels at scale 3.
        let phone = layout_for(Vec2::new(360.0, 800.0), SafeArea::default(), 4, 4);
        assert!(phone.portrait);
        assert!(phone.board_rect().width() >= 360.0 - 2.0 * MARGIN - 4.0);
        assert!(phone.panel.min.y >= phone.board_rect().max.y);
    }

    #[test]
    fn a_tiny_window_still_shows_the_board_from_its_corner() {
        // Smaller than any window manager allows: the board in view and nothing over it.
        let tiny = layout_for(Vec2::new(200.0, 200.0), SafeArea::default(), 4, 4);
        let rect = tiny.board_rect();
        assert!(rect.intersect(tiny.panel).is_empty(), "{tiny:?}");
        assert!(rect.min.x >= 0.0 && rect.min.y >= 0.0, "{rect:?}");
        assert_eq!(tiny.cell_at_screen(rect.min + Vec2::splat(1.0)), Some(0));
    }
}
