//! Touch, mouse and keys to board input: screen space to cells, gestures to moves.
//!
//! Like Tatham's `interpret_move`, everything here only interprets; [`crate::play`] executes.
//! The mapping functions are plain and tested without a window.

use bevy::input::touch::TouchPhase;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use npuzzle::Move;

use crate::AppSet;
use crate::play::GameCommand;

/// Where the board is drawn, in world units (the 2D camera's: logical pixels, y up).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
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
        let half_w = self.width as f32 * self.cell / 2.0;
        let half_h = self.height as f32 * self.cell / 2.0;
        self.center
            + Vec2::new(
                -half_w + (column + 0.5) * self.cell,
                half_h - (row + 0.5) * self.cell,
            )
    }

    /// The cell under a world point, if it is on the board.
    pub fn cell_at(&self, point: Vec2) -> Option<usize> {
        if self.cell.is_nan() || self.cell <= 0.0 || !point.is_finite() {
            return None;
        }
        let half_w = self.width as f32 * self.cell / 2.0;
        let half_h = self.height as f32 * self.cell / 2.0;
        let x = point.x - (self.center.x - half_w);
        let y = (self.center.y + half_h) - point.y;
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

/// The blank move that slides the tile beside the blank in a swipe's direction (world y up),
/// or `None` for a swipe too short or too diagonal to read.
pub fn swipe_move(delta: Vec2, min_distance: f32) -> Option<Move> {
    if !delta.is_finite() || delta.length() < min_distance {
        return None;
    }
    let (ax, ay) = (delta.x.abs(), delta.y.abs());
    // A swipe must be clearly more along one axis than the other.
    if ax > ay * 1.2 {
        // A tile moving right is the one left of the blank: the blank goes left.
        Some(if delta.x > 0.0 {
            Move::Left
        } else {
            Move::Right
        })
    } else if ay > ax * 1.2 {
        Some(if delta.y > 0.0 { Move::Down } else { Move::Up })
    } else {
        None
    }
}

/// The blank move for a key: arrows and WASD name the direction a tile slides.
pub fn key_move(key: KeyCode) -> Option<Move> {
    match key {
        KeyCode::ArrowRight | KeyCode::KeyD => Some(Move::Left),
        KeyCode::ArrowLeft | KeyCode::KeyA => Some(Move::Right),
        KeyCode::ArrowUp | KeyCode::KeyW => Some(Move::Down),
        KeyCode::ArrowDown | KeyCode::KeyS => Some(Move::Up),
        _ => None,
    }
}

/// What a press and its release were: a tap where it was pressed, or a swipe.
pub fn gesture(press: Vec2, release: Vec2, tap_radius: f32) -> BoardInput {
    let delta = release - press;
    if delta.length() <= tap_radius {
        BoardInput::Tap(press)
    } else {
        BoardInput::Swipe(delta)
    }
}

/// A screen position (logical pixels, y down, origin top-left) in world units for the 2D
/// camera at the origin.
pub fn screen_to_world(screen: Vec2, window_size: Vec2) -> Vec2 {
    Vec2::new(
        screen.x - window_size.x / 2.0,
        window_size.y / 2.0 - screen.y,
    )
}

/// One piece of player input on the board, already in world units.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum BoardInput {
    /// A tap or click at a world point.
    Tap(Vec2),
    /// A swipe or drag by a world vector.
    Swipe(Vec2),
    /// A blank move from a key.
    Slide(Move),
}

/// Whether the HUD has the pointer or keyboard this frame; set by the HUD, read here.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct UiFocus {
    /// The pointer is over a menu or dialog.
    pub pointer: bool,
    /// A text field has the keyboard.
    pub keyboard: bool,
    /// A menu or dialog took the current press (a touch has no hover, so this is what tells
    /// a tap on a dialog over the board from a tap on the board).
    pub captured: bool,
}

/// Where the current mouse press or touch began.
#[derive(Resource, Default, Debug)]
struct PointerStart {
    mouse: Option<Vec2>,
    touch: Option<(u64, Vec2)>,
}

/// How far a pointer may travel and still be a tap, in logical pixels.
pub const TAP_RADIUS: f32 = 12.0;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<BoardInput>()
        .add_message::<bevy::input::touch::TouchInput>()
        .init_resource::<BoardLayout>()
        .init_resource::<UiFocus>()
        .init_resource::<PointerStart>()
        .add_systems(
            Update,
            (keys_to_input, mouse_to_input, touch_to_input).in_set(AppSet::RecordInput),
        );
}

fn keys_to_input(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    focus: Res<UiFocus>,
    mut out: MessageWriter<BoardInput>,
    mut commands: MessageWriter<GameCommand>,
) {
    let Some(keys) = keys else { return };
    if focus.keyboard {
        return;
    }
    let ctrl = keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::SuperLeft,
        KeyCode::SuperRight,
    ]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for &key in keys.get_just_pressed() {
        if let Some(command) = key_command(key, ctrl, shift) {
            commands.write(command);
        } else if !ctrl && let Some(mv) = key_move(key) {
            out.write(BoardInput::Slide(mv));
        }
    }
}

/// The command for a key with Ctrl (or Cmd) and Shift held: undo, redo, or none.
pub fn key_command(key: KeyCode, ctrl: bool, shift: bool) -> Option<GameCommand> {
    match (key, ctrl, shift) {
        (KeyCode::KeyZ, true, false) => Some(GameCommand::Undo),
        (KeyCode::KeyZ, true, true) | (KeyCode::KeyY, true, _) => Some(GameCommand::Redo),
        _ => None,
    }
}

fn mouse_to_input(
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    focus: Res<UiFocus>,
    mut start: ResMut<PointerStart>,
    mut out: MessageWriter<BoardInput>,
) {
    let Some(buttons) = buttons else { return };
    let Ok(window) = windows.single() else {
        return;
    };
    let size = window.size();
    let cursor = window.cursor_position();
    if buttons.just_pressed(MouseButton::Left) {
        start.mouse = if focus.pointer {
            None
        } else {
            cursor.map(|c| screen_to_world(c, size))
        };
    }
    if buttons.just_released(MouseButton::Left)
        && let Some(press) = start.mouse.take()
        && !focus.captured
    {
        let release = cursor.map(|c| screen_to_world(c, size)).unwrap_or(press);
        out.write(gesture(press, release, TAP_RADIUS));
    }
}

fn touch_to_input(
    mut touches: MessageReader<bevy::input::touch::TouchInput>,
    windows: Query<&Window, With<PrimaryWindow>>,
    focus: Res<UiFocus>,
    mut start: ResMut<PointerStart>,
    mut out: MessageWriter<BoardInput>,
) {
    let Ok(window) = windows.single() else {
        touches.clear();
        return;
    };
    let size = window.size();
    for touch in touches.read() {
        let point = screen_to_world(touch.position, size);
        match touch.phase {
            TouchPhase::Started => {
                if start.touch.is_none() && !focus.pointer {
                    start.touch = Some((touch.id, point));
                }
            }
            TouchPhase::Ended => {
                if let Some((id, press)) = start.touch
                    && id == touch.id
                {
                    start.touch = None;
                    if !focus.captured {
                        out.write(gesture(press, point, TAP_RADIUS));
                    }
                }
            }
            TouchPhase::Canceled => {
                if start.touch.is_some_and(|(id, _)| id == touch.id) {
                    start.touch = None;
                }
            }
            TouchPhase::Moved => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> BoardLayout {
        BoardLayout {
            center: Vec2::new(100.0, -50.0),
            cell: 50.0,
            width: 4,
            height: 3,
        }
    }

    #[test]
    fn cell_centres_map_back_to_their_cells() {
        let l = layout();
        for cell in 0..12 {
            assert_eq!(l.cell_at(l.cell_center(cell)), Some(cell), "cell {cell}");
        }
        // Top-left is cell 0: left of and above the centre.
        let c0 = l.cell_center(0);
        assert!(c0.x < l.center.x && c0.y > l.center.y);
    }

    #[test]
    fn points_off_the_board_are_no_cell() {
        let l = layout();
        let half = l.size() / 2.0;
        assert_eq!(l.cell_at(l.center + Vec2::new(half.x + 1.0, 0.0)), None);
        assert_eq!(l.cell_at(l.center + Vec2::new(0.0, half.y + 1.0)), None);
        assert_eq!(l.cell_at(l.center - half - Vec2::ONE), None);
        assert_eq!(l.cell_at(Vec2::NAN), None);
        let broken = BoardLayout { cell: 0.0, ..l };
        assert_eq!(broken.cell_at(l.center), None);
    }

    #[test]
    fn swipes_move_the_tile_in_their_direction() {
        assert_eq!(swipe_move(Vec2::new(80.0, 5.0), 20.0), Some(Move::Left));
        assert_eq!(swipe_move(Vec2::new(-80.0, 5.0), 20.0), Some(Move::Right));
        assert_eq!(swipe_move(Vec2::new(3.0, 80.0), 20.0), Some(Move::Down));
        assert_eq!(swipe_move(Vec2::new(3.0, -80.0), 20.0), Some(Move::Up));
        assert_eq!(swipe_move(Vec2::new(5.0, 5.0), 20.0), None);
        assert_eq!(swipe_move(Vec2::new(50.0, 50.0), 20.0), None);
        assert_eq!(swipe_move(Vec2::new(f32::INFINITY, 0.0), 20.0), None);
    }

    #[test]
    fn keys_name_the_direction_a_tile_slides() {
        assert_eq!(key_move(KeyCode::ArrowRight), Some(Move::Left));
        assert_eq!(key_move(KeyCode::KeyD), Some(Move::Left));
        assert_eq!(key_move(KeyCode::ArrowUp), Some(Move::Down));
        assert_eq!(key_move(KeyCode::KeyS), Some(Move::Up));
        assert_eq!(key_move(KeyCode::KeyA), Some(Move::Right));
        assert_eq!(key_move(KeyCode::Space), None);
    }

    #[test]
    fn ctrl_z_undoes_and_ctrl_y_redoes() {
        assert_eq!(
            key_command(KeyCode::KeyZ, true, false),
            Some(GameCommand::Undo)
        );
        assert_eq!(
            key_command(KeyCode::KeyZ, true, true),
            Some(GameCommand::Redo)
        );
        assert_eq!(
            key_command(KeyCode::KeyY, true, false),
            Some(GameCommand::Redo)
        );
        assert_eq!(key_command(KeyCode::KeyZ, false, false), None);
        assert_eq!(key_command(KeyCode::KeyW, true, false), None);
    }

    #[test]
    fn gestures_are_taps_or_swipes() {
        let p = Vec2::new(10.0, 10.0);
        assert_eq!(gesture(p, p + Vec2::splat(3.0), 12.0), BoardInput::Tap(p));
        assert_eq!(
            gesture(p, p + Vec2::new(40.0, 0.0), 12.0),
            BoardInput::Swipe(Vec2::new(40.0, 0.0))
        );
    }

    #[test]
    fn screen_points_become_world_points() {
        let size = Vec2::new(800.0, 600.0);
        assert_eq!(screen_to_world(Vec2::new(400.0, 300.0), size), Vec2::ZERO);
        assert_eq!(screen_to_world(Vec2::ZERO, size), Vec2::new(-400.0, 300.0));
    }
}
