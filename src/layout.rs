//! Where things go on the screen: the board and the controls' panel, for the window's size and
//! the platform's safe area (status bar, notch, gesture bar). Portrait, the phone's layout,
//! puts the board at the top, filling the width, and the controls below it in thumb reach;
//! landscape puts the controls beside the board.
//!
//! Screen positions are logical pixels (y down, origin top-left), as the platform reports
//! touches; the board's sprites use world units (the 2D camera's: y up, origin at the
//! window's centre). Both are here, and nowhere else.

use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResized, WindowScaleFactorChanged};

use crate::frame::AppSet;
use crate::messages::{Change, GameChanged};
use crate::platform::SafeArea;

/// The controls' width beside the board (landscape), in logical pixels.
pub const PANEL_WIDTH: f32 = 320.0;
/// The least height the controls get below the board (portrait), in logical pixels.
pub const PANEL_MIN_HEIGHT: f32 = 330.0;
/// Space kept around the board, in logical pixels.
pub const MARGIN: f32 = 12.0;
/// The smallest window the app lays out for, in logical pixels (a small phone is 360 wide).
pub const MIN_WINDOW: Vec2 = Vec2::new(360.0, 640.0);

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
}

/// The layout for a window of this size, the safe area kept clear, and a board of
/// `width` × `height` cells. A window smaller than [`MIN_WINDOW`] (the window manager keeps a
/// desktop window from shrinking further; without one it can) is laid out as if it had that
/// size, from its top-left corner: what does not fit is cut at the edge, nothing overlaps.
pub fn layout_for(window: Vec2, safe: SafeArea, width: usize, height: usize) -> ScreenLayout {
    let room = window.max(MIN_WINDOW);
    let usable = Rect::new(
        safe.left,
        safe.top,
        (room.x - safe.right).max(safe.left + 1.0),
        (room.y - safe.bottom).max(safe.top + 1.0),
    );
    let portrait = room.x < room.y;
    let cells = Vec2::new(width.max(1) as f32, height.max(1) as f32);
    let fit = |area: Vec2| {
        let area = (area - Vec2::splat(2.0 * MARGIN)).max(Vec2::ONE);
        (area / cells).min_element().floor().max(1.0)
    };
    let (board_rect, panel) = if portrait {
        let cell = fit(Vec2::new(
            usable.width(),
            usable.height() - PANEL_MIN_HEIGHT,
        ));
        let size = cells * cell;
        let min = Vec2::new(usable.center().x - size.x / 2.0, usable.min.y + MARGIN);
        let board = Rect::from_corners(min, min + size);
        let panel = Rect::new(
            usable.min.x,
            board.max.y + MARGIN,
            usable.max.x,
            usable.max.y,
        );
        (board, panel)
    } else {
        let area = Vec2::new(usable.width() - PANEL_WIDTH, usable.height());
        let size = cells * fit(area);
        let center = Vec2::new(usable.min.x + area.x / 2.0, usable.center().y);
        let board = Rect::from_center_half_size(center, size / 2.0);
        let panel = Rect::new(
            usable.max.x - PANEL_WIDTH,
            usable.min.y,
            usable.max.x,
            usable.max.y,
        );
        (board, panel)
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
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<WindowResized>()
        .add_message::<WindowScaleFactorChanged>()
        .init_resource::<ScreenLayout>()
        .add_systems(PreUpdate, follow_the_window)
        .add_systems(Update, follow_the_board.in_set(AppSet::React));
}

/// Lays out again when the window's size or scale, or the safe area, changed (before input is
/// read: a tap is found on the layout on screen).
fn follow_the_window(
    mut resized: MessageReader<WindowResized>,
    mut rescaled: MessageReader<WindowScaleFactorChanged>,
    windows: Query<&Window, With<PrimaryWindow>>,
    safe: Res<SafeArea>,
    mut layout: ResMut<ScreenLayout>,
    mut first: Local<bool>,
) {
    let told = resized.read().count() + rescaled.read().count() > 0 || safe.is_changed();
    let Ok(window) = windows.single() else {
        return;
    };
    if told || !std::mem::replace(&mut *first, true) {
        let board = layout.board;
        set(
            &mut layout,
            layout_for(window.size(), *safe, board.width, board.height),
        );
    }
}

/// Lays out for a new board's shape.
fn follow_the_board(
    mut changes: MessageReader<GameChanged>,
    safe: Res<SafeArea>,
    mut layout: ResMut<ScreenLayout>,
) {
    let Some(board) = changes
        .read()
        .filter(|changed| matches!(changed.change, Change::Reset(_)))
        .map(|changed| &changed.board)
        .last()
    else {
        return;
    };
    let next = layout_for(layout.window, *safe, board.width(), board.height());
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

    fn assert_apart(layout: &ScreenLayout) {
        let board = layout.board_rect();
        assert!(
            board.intersect(layout.panel).is_empty(),
            "{board:?} overlaps {:?}",
            layout.panel
        );
        let screen = Rect::from_corners(Vec2::ZERO, layout.window);
        assert_eq!(board.union(screen), screen, "the board leaves the window");
    }

    #[test]
    fn landscape_puts_the_panel_beside_the_board() {
        let wide = layout_for(Vec2::new(1280.0, 800.0), SafeArea::default(), 4, 4);
        assert!(!wide.portrait);
        assert_apart(&wide);
        assert!(wide.board_rect().max.x <= wide.panel.min.x);
        assert_eq!(wide.panel.width(), PANEL_WIDTH);
    }

    #[test]
    fn portrait_puts_the_board_on_top_filling_the_width() {
        // A phone: 1080 × 2400 pixels at scale 3.
        let phone = layout_for(Vec2::new(360.0, 800.0), SafeArea::default(), 4, 4);
        assert!(phone.portrait);
        assert_apart(&phone);
        assert!(phone.board_rect().width() >= 360.0 - 2.0 * MARGIN - 4.0);
        assert!(phone.panel.min.y >= phone.board_rect().max.y);
        assert!(phone.panel.height() >= PANEL_MIN_HEIGHT);
    }

    #[test]
    fn the_safe_area_stays_clear() {
        let safe = SafeArea {
            top: 48.0,
            right: 0.0,
            bottom: 34.0,
            left: 0.0,
        };
        let phone = layout_for(Vec2::new(360.0, 800.0), safe, 3, 4);
        assert!(phone.board_rect().min.y >= 48.0);
        assert!(phone.panel.max.y <= 800.0 - 34.0);
        assert_apart(&phone);
    }

    #[test]
    fn the_smallest_window_still_shows_a_playable_board() {
        let small = layout_for(MIN_WINDOW, SafeArea::default(), 8, 8);
        assert!(small.board.cell >= 32.0, "{small:?}");
        let small = layout_for(MIN_WINDOW, SafeArea::default(), 4, 4);
        assert!(small.board.cell >= 64.0, "{small:?}");
        assert!(small.panel.height() >= PANEL_MIN_HEIGHT);
        // Smaller still (no window manager to stop it): the smallest layout, from the top-left
        // corner, the board in view and nothing drawn over it.
        let tiny = layout_for(Vec2::new(300.0, 300.0), SafeArea::default(), 4, 4);
        assert!(tiny.board.cell >= 64.0, "{tiny:?}");
        let rect = tiny.board_rect();
        assert!(rect.intersect(tiny.panel).is_empty(), "{tiny:?}");
        assert!(
            rect.min.x >= 0.0 && rect.min.y >= 0.0 && rect.min.x < 300.0,
            "{rect:?}"
        );
        assert_eq!(tiny.cell_at_screen(rect.min + Vec2::splat(1.0)), Some(0));
    }
}
