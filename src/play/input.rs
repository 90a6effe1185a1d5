//! Touch, mouse and keys to what the player means: a cell tapped, a tile slid, undo, back.
//!
//! Like Tatham's `interpret_move`, everything here only interprets; `play` executes. Gestures
//! are read from the window's events in the order they happened (where a press began, where it
//! ended), never from per-frame state, so a flick whose press, motion and release all arrive
//! within one frame still counts, and keys pressed faster than frames are all kept, in order.
//! The mapping functions are plain and tested without a window.

use bevy::input::ButtonState;
use bevy::input::keyboard::KeyboardInput;
use bevy::input::mouse::MouseButtonInput;
use bevy::input::touch::{TouchInput, TouchPhase};
use bevy::prelude::*;
use bevy::window::WindowEvent;
use npuzzle::Move;

use crate::app::redraw::FrameRequest;
use crate::board::layout::ScreenLayout;
use crate::frame::AppSet;
use crate::messages::{Back, BoardIntent, ControlsFocus, GameCommand};

/// How far a pointer may travel and still be a tap, in logical pixels (about dp on phones).
pub const TAP_RADIUS: f32 = 12.0;
/// How far a swipe must travel, in logical pixels.
pub const SWIPE_MIN: f32 = 20.0;

/// The blank move that slides the tile beside the blank in a swipe's direction (screen
/// coordinates, y down), or `None` for a swipe too short or too diagonal to read.
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
        // A tile moving down is the one above the blank: the blank goes up.
        Some(if delta.y > 0.0 { Move::Up } else { Move::Down })
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

/// The command for a key with Ctrl (or Cmd) and Shift held: undo, redo, or none.
pub fn key_command(key: KeyCode, ctrl: bool, shift: bool) -> Option<GameCommand> {
    match (key, ctrl, shift) {
        (KeyCode::KeyZ, true, false) => Some(GameCommand::Undo),
        (KeyCode::KeyZ, true, true) | (KeyCode::KeyY, true, _) => Some(GameCommand::Redo),
        _ => None,
    }
}

/// What a press and its release (screen positions) mean on the board: a tap on the cell
/// pressed, a drag of the tile pressed, or a swipe that began beside the board; `None` for a
/// tap beside the board or a swipe that cannot be read.
pub fn gesture(layout: &ScreenLayout, press: Vec2, release: Vec2) -> Option<BoardIntent> {
    let delta = release - press;
    let cell = layout.cell_at_screen(press);
    if delta.length() <= TAP_RADIUS {
        return cell.map(BoardIntent::Tap);
    }
    let toward = swipe_move(delta, SWIPE_MIN)?;
    Some(match cell {
        Some(cell) => BoardIntent::Drag { cell, toward },
        None => BoardIntent::Slide(toward),
    })
}

/// A drag under way on the board: the cell it began on, and how far the pointer has gone
/// since, in world units (y up). The board view lets the tile under the finger follow it;
/// what the drag means is decided on release ([`BoardIntent::Drag`]).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct DragPreview(pub Option<(usize, Vec2)>);

/// The drag a held press shows: from the cell pressed, once the pointer has left the tap's
/// radius; none for a press beside the board.
pub fn drag_preview(layout: &ScreenLayout, press: Vec2, now: Vec2) -> Option<(usize, Vec2)> {
    let delta = now - press;
    if !delta.is_finite() || delta.length() <= TAP_RADIUS {
        return None;
    }
    let cell = layout.cell_at_screen(press)?;
    Some((cell, Vec2::new(delta.x, -delta.y)))
}

/// The fingers on the screen together: a tap of two reads the row of the tile moved last, a
/// tap of three its column (as R and C do; on a phone with no screen reader, which takes such
/// taps for itself). Each finger's start, the most down at once, and whether one went beyond a
/// tap's radius (then it was no tap).
#[derive(Default, Debug)]
struct Fingers {
    down: Vec<(u64, Vec2)>,
    most: usize,
    moved: bool,
}

impl Fingers {
    /// Follows one touch; the line to read when the last finger of a tap of several lifts.
    fn follow(&mut self, touch: &TouchInput) -> Option<crate::messages::ReadLine> {
        let start = self
            .down
            .iter()
            .find(|(id, _)| *id == touch.id)
            .map(|(_, at)| *at);
        match touch.phase {
            TouchPhase::Started => {
                self.down.push((touch.id, touch.position));
                self.most = self.most.max(self.down.len());
            }
            TouchPhase::Moved => {
                self.moved |= start.is_some_and(|at| at.distance(touch.position) > TAP_RADIUS);
            }
            TouchPhase::Ended | TouchPhase::Canceled => {
                self.down.retain(|(id, _)| *id != touch.id);
                self.moved |= touch.phase == TouchPhase::Canceled;
                if !self.down.is_empty() {
                    return None;
                }
                let (most, moved) = (
                    std::mem::take(&mut self.most),
                    std::mem::take(&mut self.moved),
                );
                return match most {
                    _ if moved => None,
                    2 => Some(crate::messages::ReadLine::Row),
                    3.. => Some(crate::messages::ReadLine::Column),
                    _ => None,
                };
            }
        }
        None
    }

    /// Whether more than one finger is down: no finger's slide counts then.
    fn several(&self) -> bool {
        self.down.len() > 1
    }
}

/// What input has seen of the pointer, touches and modifier keys so far.
#[derive(Resource, Default, Debug)]
struct Pointer {
    /// The cursor's last position.
    cursor: Option<Vec2>,
    /// Where the mouse press began.
    mouse: Option<Vec2>,
    /// The touch being followed, and where it began.
    touch: Option<(u64, Vec2)>,
    /// Every finger down, for a tap of several.
    fingers: Fingers,
    /// The cell the pointer is over, for hover (a tile moves once as the pointer enters it).
    hovered: Option<usize>,
    ctrl: bool,
    shift: bool,
}

/// Everything interpretation writes.
#[derive(bevy::ecs::system::SystemParam)]
struct Interpreted<'w> {
    intents: MessageWriter<'w, BoardIntent>,
    commands: MessageWriter<'w, GameCommand>,
    back: MessageWriter<'w, Back>,
    read: MessageWriter<'w, crate::messages::ReadLine>,
    preview: ResMut<'w, DragPreview>,
    frames: MessageWriter<'w, FrameRequest>,
}

impl Interpreted<'_> {
    /// Shows the drag from `press` to `now` (none when `now` is `None`), writing only a change.
    fn preview(&mut self, layout: &ScreenLayout, press: Vec2, now: Option<Vec2>) {
        let shown = now.and_then(|now| drag_preview(layout, press, now));
        self.preview.set_if_neq(DragPreview(shown));
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<WindowEvent>()
        .init_resource::<Pointer>()
        .init_resource::<DragPreview>()
        .add_systems(Update, interpret.in_set(AppSet::Input));
}

/// Reads this frame's window events in order and writes what they mean.
fn interpret(
    mut events: MessageReader<WindowEvent>,
    layout: Res<ScreenLayout>,
    settings: Res<crate::play::settings::Settings>,
    mut told: MessageReader<ControlsFocus>,
    mut focus: Local<ControlsFocus>,
    mut pointer: ResMut<Pointer>,
    mut out: Interpreted,
) {
    if let Some(now) = told.read().last() {
        *focus = *now;
    }
    let mut any_input = false;
    for event in events.read() {
        any_input |= is_input(event);
        match event {
            WindowEvent::CursorMoved(moved) => {
                pointer.cursor = Some(moved.position);
                if let Some(press) = pointer.mouse {
                    out.preview(&layout, press, pointer.cursor);
                } else if settings.hover && !focus.pointer {
                    hover(&layout, moved.position, &mut pointer, &mut out);
                }
            }
            WindowEvent::CursorLeft(_) => pointer.cursor = None,
            WindowEvent::MouseButtonInput(button) => {
                mouse_button(button, &layout, &focus, &mut pointer, &mut out)
            }
            WindowEvent::TouchInput(touch) => {
                touch_input(touch, &layout, &focus, &mut pointer, &mut out)
            }
            WindowEvent::KeyboardInput(key) => keyboard(key, &focus, &mut pointer, &mut out),
            WindowEvent::KeyboardFocusLost(_) => (pointer.ctrl, pointer.shift) = (false, false),
            _ => {}
        }
    }
    // After input, one frame more: egui finds what a press hits among the widgets of the pass
    // before, so the controls must be drawn again as the input left them (a sheet closed, a
    // button enabled) before the next press, or that press lands on what is gone.
    if any_input {
        out.frames.write(FrameRequest::OneMore);
    }
}

/// Whether a window event is the player's input.
fn is_input(event: &WindowEvent) -> bool {
    matches!(
        event,
        WindowEvent::CursorMoved(_)
            | WindowEvent::MouseButtonInput(_)
            | WindowEvent::MouseWheel(_)
            | WindowEvent::TouchInput(_)
            | WindowEvent::KeyboardInput(_)
    )
}

/// Hover: the pointer entering a cell asks for its tile to slide (once, however long it
/// stays).
fn hover(layout: &ScreenLayout, position: Vec2, pointer: &mut Pointer, out: &mut Interpreted) {
    let cell = layout.cell_at_screen(position);
    if cell != pointer.hovered {
        pointer.hovered = cell;
        if let Some(cell) = cell {
            out.intents.write(BoardIntent::Hover(cell));
        }
    }
}

fn mouse_button(
    button: &MouseButtonInput,
    layout: &ScreenLayout,
    focus: &ControlsFocus,
    pointer: &mut Pointer,
    out: &mut Interpreted,
) {
    if button.button != MouseButton::Left {
        return;
    }
    match button.state {
        ButtonState::Pressed => pointer.mouse = pointer.cursor.filter(|_| !focus.pointer),
        ButtonState::Released => {
            if let Some(press) = pointer.mouse {
                out.preview(layout, press, None);
            }
            if let Some(press) = pointer.mouse.take()
                && !focus.captured
            {
                let release = pointer.cursor.unwrap_or(press);
                if let Some(intent) = gesture(layout, press, release) {
                    out.intents.write(intent);
                }
            }
        }
    }
}

fn touch_input(
    touch: &TouchInput,
    layout: &ScreenLayout,
    focus: &ControlsFocus,
    pointer: &mut Pointer,
    out: &mut Interpreted,
) {
    let read = pointer.fingers.follow(touch);
    if pointer.fingers.several()
        && let Some((_, press)) = pointer.touch.take()
    {
        // A second finger: the first one's slide is no slide.
        out.preview(layout, press, None);
    }
    if let Some(line) = read.filter(|_| !focus.captured) {
        out.read.write(line);
    }
    match touch.phase {
        TouchPhase::Started
            if pointer.touch.is_none() && !pointer.fingers.several() && !focus.pointer =>
        {
            pointer.touch = Some((touch.id, touch.position));
        }
        TouchPhase::Moved => {
            if let Some((id, press)) = pointer.touch
                && id == touch.id
            {
                out.preview(layout, press, Some(touch.position));
            }
        }
        TouchPhase::Ended | TouchPhase::Canceled => {
            let Some((id, press)) = pointer.touch else {
                return;
            };
            if id != touch.id {
                return;
            }
            pointer.touch = None;
            out.preview(layout, press, None);
            if touch.phase == TouchPhase::Ended
                && !focus.captured
                && let Some(intent) = gesture(layout, press, touch.position)
            {
                out.intents.write(intent);
            }
        }
        _ => {}
    }
}

fn keyboard(
    key: &KeyboardInput,
    focus: &ControlsFocus,
    pointer: &mut Pointer,
    out: &mut Interpreted,
) {
    let pressed = key.state == ButtonState::Pressed;
    match key.key_code {
        KeyCode::ControlLeft | KeyCode::ControlRight | KeyCode::SuperLeft | KeyCode::SuperRight => {
            pointer.ctrl = pressed;
        }
        KeyCode::ShiftLeft | KeyCode::ShiftRight => pointer.shift = pressed,
        _ => {}
    }
    if !pressed || key.repeat {
        return;
    }
    if matches!(key.key_code, KeyCode::Escape | KeyCode::BrowserBack) {
        out.back.write(Back);
    } else if focus.keyboard {
        // A sheet or a text field has the keys.
    } else if let Some(command) = key_command(key.key_code, pointer.ctrl, pointer.shift) {
        out.commands.write(command);
    } else if let Some(line) = key_line(key.key_code).filter(|_| !pointer.ctrl) {
        out.read.write(line);
    } else if !pointer.ctrl
        && let Some(mv) = key_move(key.key_code)
    {
        out.intents.write(BoardIntent::Slide(mv));
    }
}

/// The line of the board a key reads aloud: R its row, C its column.
fn key_line(key: KeyCode) -> Option<crate::messages::ReadLine> {
    match key {
        KeyCode::KeyR => Some(crate::messages::ReadLine::Row),
        KeyCode::KeyC => Some(crate::messages::ReadLine::Column),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::layout::layout_for;
    use crate::platform::SafeArea;

    #[test]
    fn swipes_move_the_tile_in_their_direction() {
        // Screen coordinates: x right, y down.
        assert_eq!(swipe_move(Vec2::new(80.0, 5.0), 20.0), Some(Move::Left));
        assert_eq!(swipe_move(Vec2::new(-80.0, 5.0), 20.0), Some(Move::Right));
        assert_eq!(swipe_move(Vec2::new(3.0, -80.0), 20.0), Some(Move::Down));
        assert_eq!(swipe_move(Vec2::new(3.0, 80.0), 20.0), Some(Move::Up));
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

    /// A touch of finger `id` at `(x, y)`.
    fn finger(id: u64, phase: TouchPhase, (x, y): (f32, f32)) -> TouchInput {
        TouchInput {
            phase,
            position: Vec2::new(x, y),
            window: Entity::PLACEHOLDER,
            force: None,
            id,
        }
    }

    #[test]
    fn a_tap_of_two_fingers_reads_the_row_and_of_three_the_column() {
        use crate::messages::ReadLine;
        use TouchPhase::{Ended, Moved, Started};
        let tap = |fingers: &mut Fingers, ids: &[u64], moved: f32| {
            let mut read = Vec::new();
            for &id in ids {
                read.extend(fingers.follow(&finger(id, Started, (100.0, 100.0 + id as f32))));
            }
            read.extend(fingers.follow(&finger(ids[0], Moved, (100.0 + moved, 100.0))));
            for &id in ids {
                read.extend(fingers.follow(&finger(id, Ended, (100.0, 100.0))));
            }
            read
        };
        let mut fingers = Fingers::default();
        assert_eq!(tap(&mut fingers, &[1, 2], 3.0), [ReadLine::Row]);
        assert_eq!(tap(&mut fingers, &[3, 4, 5], 3.0), [ReadLine::Column]);
        assert_eq!(
            tap(&mut fingers, &[6], 0.0),
            [],
            "one finger is a tap on the board"
        );
        assert_eq!(
            tap(&mut fingers, &[7, 8], 40.0),
            [],
            "a finger that moved made no tap"
        );
        assert_eq!(
            tap(&mut fingers, &[9, 10], 0.0),
            [ReadLine::Row],
            "and the next one does"
        );
    }

    #[test]
    fn gestures_are_taps_on_cells_or_swipes() {
        let layout = layout_for(Vec2::new(800.0, 600.0), SafeArea::default(), 4, 4);
        let rect = layout.board_rect();
        let cell = rect.size() / 4.0;
        let first = rect.min + cell / 2.0;
        assert_eq!(
            gesture(&layout, first, first + Vec2::splat(3.0)),
            Some(BoardIntent::Tap(0))
        );
        let last = rect.max - cell / 2.0;
        assert_eq!(gesture(&layout, last, last), Some(BoardIntent::Tap(15)));
        // A drag that begins on a tile names that tile.
        assert_eq!(
            gesture(&layout, first, first + Vec2::new(40.0, 0.0)),
            Some(BoardIntent::Drag {
                cell: 0,
                toward: Move::Left
            })
        );
        // A tap beside the board means nothing; a swipe from there moves the tile by the gap.
        let beside = Vec2::new(rect.max.x + 5.0, rect.center().y);
        assert_eq!(gesture(&layout, beside, beside), None);
        assert_eq!(
            gesture(&layout, beside, beside + Vec2::new(0.0, 40.0)),
            Some(BoardIntent::Slide(Move::Up))
        );
        assert_eq!(gesture(&layout, first, first + Vec2::splat(40.0)), None);
    }
}
