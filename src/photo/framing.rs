//! Framing a photo: whenever a photo arrives (the camera, the gallery, the file dialog, a drop,
//! a bundled photo's thumbnail, the command line), it is decoded in the background and shown
//! whole with a framing of the board's shape over it, started where the subject most likely is.
//! The player pans it with a finger or the mouse, zooms with two fingers, the wheel or `+`/`-`,
//! nudges it with the arrows, turns the photo, and switches between the boards that suit it;
//! the framing never leaves the photo, and never cuts a tile from fewer than 64 of its pixels.
//! Play (the controls' `Pending::Framed`) starts a game cut from the framing; Cancel leaves the
//! game as it was.
//!
//! This module owns the sheet's state and reads the gestures itself (plain window events, like
//! `input`), so the tests drive it headless; the controls draw it and send its commands.

use std::sync::Arc;
use std::time::Instant;

use bevy::input::ButtonState;
use bevy::input::keyboard::KeyboardInput;
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::input::touch::{TouchInput, TouchPhase};
use bevy::prelude::*;
use bevy::window::WindowEvent;
use image::{DynamicImage, RgbaImage};

use crate::app::background::Background;
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::board::layout::ScreenLayout;
use crate::frame::AppSet;
use crate::game::{MAX_SIDE, MIN_SIDE, photo_shapes};
use crate::messages::Notice;
use crate::photo::{self, FramedPhoto, PhotoError, PhotoSource};
use crate::play::session::Session;

/// What the controls ask of the framing sheet.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum FramingCommand {
    /// Decode this photo and frame it, from its framing if it has one, else where its subject
    /// most likely is (the sheet opens once it is ready).
    Open(FramedPhoto),
    /// Turn the photo a quarter clockwise.
    Turn,
    /// The framing for another board (columns, rows), keeping the framing's centre.
    Board(u32, u32),
    /// Zoom the framing by this factor about its centre (above 1: a smaller framing).
    Zoom(f32),
    /// The sheet closed (Play, Cancel or Back): the decoded photo goes.
    Close,
}

/// The sheet is ready to be shown (the controls open it).
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FramingOpened;

/// A photo being framed.
pub struct FramingSheet {
    /// Where it comes from (the photo itself, decoded, is kept by `photo::load_shared` for the
    /// board's cut).
    pub source: PhotoSource,
    /// A smaller copy to draw, turned as the player turned the photo.
    pub preview: Arc<RgbaImage>,
    /// Counts the preview's changes (a turn), so the controls know to make a new texture.
    pub version: u64,
    /// Quarter turns clockwise the player gave the photo.
    pub turns: u8,
    /// The framing, in the turned photo's pixels.
    pub framing: photo::Framing,
    /// When the photo was decoded (the sheet's speed is measured from here).
    pub decoded: Instant,
}

impl FramingSheet {
    /// The photo's size as the player sees it (turned).
    pub fn size(&self) -> (u32, u32) {
        self.framing.photo
    }

    /// The boards that suit the photo: the square sizes and the photo-shaped ones that fit at
    /// 64 pixels a tile.
    pub fn boards(&self) -> Vec<(u32, u32)> {
        let (w, h) = self.size();
        let squares = (MIN_SIDE..=MAX_SIDE).map(|n| (n, n));
        let shaped = photo_shapes(w as f32 / h as f32).into_iter();
        squares
            .chain(shaped)
            .map(|(c, r)| (c as u32, r as u32))
            .filter(|&board| snapslide_photo::framing::fits((w, h), board))
            .collect()
    }

    /// The photo and framing to play, as the session keeps them.
    pub fn framed(&self) -> FramedPhoto {
        FramedPhoto {
            source: self.source.clone(),
            framing: Some(photo::photo_framing(&self.framing, self.turns)),
        }
    }
}

/// The framing sheet's state: the sheet, once its photo is decoded, and the decoding under way.
#[derive(Resource, Default)]
pub struct FramingState {
    /// The sheet on show.
    pub sheet: Option<FramingSheet>,
    /// The photo being decoded, and when that began.
    opening: Option<(Background<Result<Opened, PhotoError>>, Instant)>,
    /// What input has seen of the pointer and the touches on the sheet.
    pointer: Pointer,
}

impl FramingState {
    /// Whether a photo is being decoded for the sheet.
    pub fn opening(&self) -> bool {
        self.opening.is_some()
    }
}

/// A photo decoded for the sheet: the photo, its preview (turned), and the framing it starts
/// on.
struct Opened {
    source: PhotoSource,
    preview: RgbaImage,
    turns: u8,
    framing: photo::Framing,
    decoded: Instant,
}

/// The pointer and touches seen on the sheet.
#[derive(Default, Debug)]
struct Pointer {
    cursor: Option<Vec2>,
    dragging: Option<Vec2>,
    touches: Vec<(u64, Vec2)>,
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<FramingCommand>()
        .add_message::<FramingOpened>()
        .init_resource::<FramingState>()
        .add_systems(Update, follow_gestures.in_set(AppSet::Input))
        .add_systems(
            Update,
            (follow_commands, finish_opening)
                .chain()
                .in_set(AppSet::Decide),
        )
        .add_systems(Last, report_motion.in_set(ReportMotion));
}

/// A photo being decoded moves (its spinner).
fn report_motion(framing: Res<FramingState>, mut frames: MessageWriter<FrameRequest>) {
    if framing.opening() {
        frames.write(FrameRequest::Moving);
    }
}

/// Decodes a photo (or takes the one decoded last), refuses one too small for any board, and
/// frames it for `board`: as the player framed it before, else where the subject most likely
/// is (on a board that fits, if `board` does not).
fn open(framed: FramedPhoto, board: (u32, u32)) -> Result<Opened, PhotoError> {
    let photo = photo::load_shared(&framed.source)?;
    let decoded = Instant::now();
    let size = (photo.width(), photo.height());
    let too_small = PhotoError::TooSmallToPlay {
        width: size.0,
        height: size.1,
    };
    if !photo::holds_a_board(size.0, size.1) {
        return Err(too_small);
    }
    let (turns, crop) = photo::crop_for(&framed, size, board);
    let preview = DynamicImage::ImageRgba8(photo::turn(photo::preview(&photo), turns));
    let turned = if turns % 2 == 0 {
        size
    } else {
        (size.1, size.0)
    };
    let kept = crop.and_then(|crop| photo::Framing::from_crop(turned, board, crop).ok());
    let framing = match kept {
        Some(framing) => framing,
        None => {
            let largest = photo::Framing::centred(turned, board)
                .or_else(|| photo::Framing::centred(turned, (3, 3)))
                .ok_or(too_small)?;
            photo::subject_framing(&preview, largest)
        }
    };
    Ok(Opened {
        source: framed.source,
        preview: preview.into_rgba8(),
        turns,
        framing,
        decoded,
    })
}

fn follow_commands(
    mut commands: MessageReader<FramingCommand>,
    session: Res<Session>,
    mut framing: ResMut<FramingState>,
) {
    for command in commands.read() {
        match command {
            FramingCommand::Open(framed) => {
                let (framed, board) = (framed.clone(), session.board);
                let board = (board.0 as u32, board.1 as u32);
                let task = Background::spawn("framing", move || open(framed, board));
                framing.opening = Some((task, Instant::now()));
            }
            FramingCommand::Close => {
                framing.sheet = None;
                framing.opening = None;
            }
            FramingCommand::Turn => turn(&mut framing),
            &FramingCommand::Board(columns, rows) => {
                if let Some(sheet) = framing.sheet.as_mut()
                    && let Some(reshaped) = sheet.framing.for_board((columns, rows))
                {
                    sheet.framing = reshaped;
                }
            }
            &FramingCommand::Zoom(factor) => {
                if let Some(sheet) = framing.sheet.as_mut() {
                    sheet.framing = sheet.framing.zoomed(factor, sheet.framing.center);
                }
            }
        }
    }
}

/// The photo and its framing turned a quarter clockwise.
fn turn(framing: &mut FramingState) {
    let Some(sheet) = framing.sheet.as_mut() else {
        return;
    };
    sheet.turns = (sheet.turns + 1) % 4;
    sheet.framing = sheet.framing.turned();
    sheet.preview = Arc::new(image::imageops::rotate90(sheet.preview.as_ref()));
    sheet.version += 1;
}

/// Takes the decoded photo: the sheet opens, or the player hears why the photo cannot be
/// played (and the game goes on).
fn finish_opening(
    mut framing: ResMut<FramingState>,
    mut opened: MessageWriter<FramingOpened>,
    mut notices: MessageWriter<Notice>,
) {
    let Some((task, started)) = framing.opening.as_mut() else {
        return;
    };
    let started = *started;
    let Some(result) = task.poll() else {
        if task.is_lost() {
            framing.opening = None;
            notices.write(Notice("That photo could not be opened.".into()));
        }
        return;
    };
    framing.opening = None;
    match result {
        Ok(done) => {
            let version = framing.sheet.as_ref().map_or(0, |s| s.version + 1);
            let ms = |since: Instant| since.elapsed().as_secs_f64() * 1000.0;
            info!(
                "framing: the photo was decoded in {:.0} ms; the sheet is ready {:.0} ms after",
                ms(started) - ms(done.decoded),
                ms(done.decoded)
            );
            framing.sheet = Some(FramingSheet {
                source: done.source,
                preview: Arc::new(done.preview),
                version,
                turns: done.turns,
                framing: done.framing,
                decoded: done.decoded,
            });
            opened.write(FramingOpened);
        }
        Err(error) => {
            notices.write(Notice(refusal(&error)));
        }
    }
}

/// Why a photo cannot be framed, in the player's words: too small, or too thin (one side
/// long enough, the other not); a file not there, or not allowed, without the system's codes.
fn refusal(error: &PhotoError) -> String {
    let side = snapslide_photo::framing::MIN_BOARD_SIDE * photo::MIN_TILE_PIXELS;
    match error {
        PhotoError::TooSmallToPlay { width, height } if width.max(height) >= &side => format!(
            "That photo is too thin to play ({width} × {height} pixels): a board needs at \
             least {side} pixels each way."
        ),
        PhotoError::TooSmallToPlay { width, height } => format!(
            "That photo is too small to play ({width} × {height} pixels): a board needs at \
             least {side} × {side}."
        ),
        PhotoError::Read { path, source } => {
            let name = path
                .file_name()
                .map_or(path.as_os_str(), |n| n)
                .to_string_lossy();
            match source.kind() {
                std::io::ErrorKind::NotFound => format!("There is no photo called {name} there."),
                std::io::ErrorKind::PermissionDenied => {
                    format!("Snapslide isn't allowed to read {name}.")
                }
                _ => format!("{name} could not be read from the disk."),
            }
        }
        other => format!("That photo could not be used: {other}."),
    }
}

/// Where the photo is drawn on the sheet, in logical pixels: the room left by the sheet's
/// controls (below it upright, beside it on its side), the photo fitted in whole.
pub fn photo_rect(layout: &ScreenLayout, size: (u32, u32)) -> Rect {
    let room = sheet_room(layout);
    let (w, h) = (size.0.max(1) as f32, size.1.max(1) as f32);
    let scale = (room.width() / w).min(room.height() / h);
    Rect::from_center_size(room.center(), Vec2::new(w, h) * scale)
}

/// The sheet's room for the photo, in logical pixels: the window less the safe area, a margin
/// and the controls' bar ([`controls_rect`]).
pub fn sheet_room(layout: &ScreenLayout) -> Rect {
    let window = layout.usable.inflate(-12.0);
    let bar = controls_rect(layout);
    if layout.portrait {
        Rect::new(window.min.x, window.min.y, window.max.x, bar.min.y - 12.0)
    } else {
        Rect::new(window.min.x, window.min.y, bar.min.x - 12.0, window.max.y)
    }
}

/// The height of the sheet's controls below the photo, upright, in the controls' points: the
/// title, two rows of boards, Turn and zoom, Cancel and Play.
pub const CONTROLS_HEIGHT: f32 = 340.0;

/// Where the sheet's controls go, in logical pixels: a bar at the bottom upright, at the right
/// on its side (in the panel's place).
pub fn controls_rect(layout: &ScreenLayout) -> Rect {
    if layout.portrait {
        let height = (CONTROLS_HEIGHT * layout.ui_scale).min(layout.window.y * 0.6);
        let top = layout.panel.max.y - height;
        Rect::new(
            layout.panel.min.x,
            top,
            layout.panel.max.x,
            layout.panel.max.y,
        )
    } else {
        layout.panel
    }
}

/// Reads the pointer, the touches, the wheel and the keys while the sheet is open: a drag pans
/// the framing, two fingers zoom it about their middle (and pan it with them), the wheel and
/// `+`/`-` zoom it, the arrows nudge it.
fn follow_gestures(
    mut events: MessageReader<WindowEvent>,
    layout: Res<ScreenLayout>,
    mut framing: ResMut<FramingState>,
) {
    let framing = &mut *framing;
    let Some(sheet) = framing.sheet.as_mut() else {
        events.clear();
        framing.pointer = Pointer::default();
        return;
    };
    let view = photo_rect(&layout, sheet.size());
    let to_photo = sheet.size().0 as f32 / view.width().max(1.0);
    for event in events.read() {
        let gesture = match event {
            WindowEvent::CursorMoved(moved) => framing.pointer.moved(moved.position),
            WindowEvent::MouseButtonInput(button) if button.button == MouseButton::Left => {
                framing.pointer.pressed(button.state, view)
            }
            WindowEvent::TouchInput(touch) => framing.pointer.touched(touch, view),
            WindowEvent::MouseWheel(wheel) => framing.pointer.wheel(wheel, view),
            WindowEvent::KeyboardInput(key) => key_gesture(key),
            _ => None,
        };
        if let Some(gesture) = gesture {
            sheet.framing = gesture.apply(sheet.framing, view, to_photo);
        }
    }
}

/// What a gesture does to the framing, in screen terms.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Gesture {
    /// Move the framing by this many logical pixels.
    Pan(Vec2),
    /// Zoom by a factor about a screen point (and move with the fingers).
    Pinch { factor: f32, about: Vec2, pan: Vec2 },
    /// Zoom about the framing's centre.
    Zoom(f32),
    /// Nudge by a fraction of the framing's size.
    Nudge(Vec2),
}

impl Gesture {
    fn apply(self, framing: photo::Framing, view: Rect, to_photo: f32) -> photo::Framing {
        let in_photo = |p: Vec2| ((p - view.min) * to_photo).into();
        match self {
            Gesture::Pan(delta) => framing.panned(delta.x * to_photo, delta.y * to_photo),
            Gesture::Pinch { factor, about, pan } => framing
                .zoomed(factor, in_photo(about))
                .panned(pan.x * to_photo, pan.y * to_photo),
            Gesture::Zoom(factor) => framing.zoomed(factor, framing.center),
            Gesture::Nudge(by) => framing.panned(by.x * framing.width, by.y * framing.height()),
        }
    }
}

/// The keys' gestures: `+`/`-` zoom, the arrows nudge the framing a twentieth of its size.
fn key_gesture(key: &KeyboardInput) -> Option<Gesture> {
    if key.state != ButtonState::Pressed {
        return None;
    }
    let nudge = |x: f32, y: f32| Some(Gesture::Nudge(Vec2::new(x, y) / 20.0));
    match key.key_code {
        KeyCode::Equal | KeyCode::NumpadAdd => Some(Gesture::Zoom(1.25)),
        KeyCode::Minus | KeyCode::NumpadSubtract => Some(Gesture::Zoom(0.8)),
        KeyCode::ArrowLeft => nudge(-1.0, 0.0),
        KeyCode::ArrowRight => nudge(1.0, 0.0),
        KeyCode::ArrowUp => nudge(0.0, -1.0),
        KeyCode::ArrowDown => nudge(0.0, 1.0),
        _ => None,
    }
}

impl Pointer {
    fn moved(&mut self, to: Vec2) -> Option<Gesture> {
        let from = self.cursor.replace(to)?;
        self.dragging.map(|_| Gesture::Pan(to - from))
    }

    fn pressed(&mut self, state: ButtonState, view: Rect) -> Option<Gesture> {
        self.dragging = match state {
            ButtonState::Pressed => self.cursor.filter(|at| view.contains(*at)),
            ButtonState::Released => None,
        };
        None
    }

    /// One finger pans; two pinch (the first two that came down on the photo).
    fn touched(&mut self, touch: &TouchInput, view: Rect) -> Option<Gesture> {
        let (id, at) = (touch.id, touch.position);
        match touch.phase {
            TouchPhase::Started if view.contains(at) && self.touches.len() < 2 => {
                self.touches.push((id, at));
                None
            }
            TouchPhase::Moved => {
                let index = self.touches.iter().position(|(t, _)| *t == id)?;
                let before = self.touches.clone();
                self.touches[index].1 = at;
                gesture_between(&before, &self.touches)
            }
            TouchPhase::Ended | TouchPhase::Canceled => {
                self.touches.retain(|(t, _)| *t != id);
                None
            }
            _ => None,
        }
    }

    /// The wheel zooms about the cursor: a line a tenth, a pixel a five-hundredth (a
    /// trackpad's scroll).
    fn wheel(&mut self, wheel: &MouseWheel, view: Rect) -> Option<Gesture> {
        let about = self
            .cursor
            .filter(|at| view.contains(*at))
            .unwrap_or(view.center());
        let steps = match wheel.unit {
            MouseScrollUnit::Line => wheel.y / 10.0,
            MouseScrollUnit::Pixel => wheel.y / 500.0,
        };
        let factor = (1.0 + steps.abs()).powf(steps.signum());
        Some(Gesture::Pinch {
            factor,
            about,
            pan: Vec2::ZERO,
        })
    }
}

/// What the fingers did between two readings: one finger drags the framing with it; two zoom by
/// how much farther apart they are (apart: a smaller framing, in closer), about their middle,
/// and drag the framing with the middle.
fn gesture_between(before: &[(u64, Vec2)], after: &[(u64, Vec2)]) -> Option<Gesture> {
    match (before, after) {
        ([(_, a)], [(_, b)]) => Some(Gesture::Pan(*b - *a)),
        ([(_, a0), (_, a1)], [(_, b0), (_, b1)]) => {
            let (apart_before, apart_after) = (a0.distance(*a1), b0.distance(*b1));
            if apart_before < 1.0 || apart_after < 1.0 {
                return None;
            }
            let (mid_before, mid_after) = ((*a0 + *a1) / 2.0, (*b0 + *b1) / 2.0);
            Some(Gesture::Pinch {
                factor: apart_after / apart_before,
                about: mid_before,
                pan: mid_after - mid_before,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingers_moving_apart_zoom_in_about_their_middle_and_one_finger_pans() {
        let before = [(1, Vec2::new(100.0, 100.0)), (2, Vec2::new(200.0, 100.0))];
        let after = [(1, Vec2::new(50.0, 100.0)), (2, Vec2::new(250.0, 100.0))];
        assert_eq!(
            gesture_between(&before, &after),
            Some(Gesture::Pinch {
                factor: 2.0,
                about: Vec2::new(150.0, 100.0),
                pan: Vec2::ZERO,
            })
        );
        let moved = [(1, Vec2::new(130.0, 90.0))];
        assert_eq!(
            gesture_between(&before[..1], &moved),
            Some(Gesture::Pan(Vec2::new(30.0, -10.0)))
        );
    }

    #[test]
    fn a_photo_too_small_or_too_thin_or_missing_is_refused_in_the_players_words() {
        let thin = refusal(&PhotoError::TooSmallToPlay {
            width: 4000,
            height: 50,
        });
        assert!(
            thin.contains("too thin") && thin.contains("4000 × 50"),
            "{thin}"
        );
        let small = refusal(&PhotoError::TooSmallToPlay {
            width: 100,
            height: 80,
        });
        assert!(
            small.contains("too small") && small.contains("192 × 192"),
            "{small}"
        );
        let missing = refusal(&PhotoError::Read {
            path: "/home/me/cat.jpg".into(),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        });
        assert_eq!(missing, "There is no photo called cat.jpg there.");
        assert!(!missing.contains("os error"));
    }
}
