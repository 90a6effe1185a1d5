//! The board as a screen reader meets it (AccessKit, through egui's tree): every cell is a node
//! over the board, "Tile 7, row 2, column 3, slides left into the gap" or "Empty, row 4,
//! column 4", whose default action slides the tile exactly as a tap does (a `BoardIntent`, so
//! undo, the counters, the sound and the save behave the same); a live region says what each
//! move did ("Tile 7 moved left. 23 moves from solved."), and the win. The nodes are drawn in a
//! layer the pointer passes through, so taps and swipes still reach the board; the keyboard
//! reaches them with Tab, and the cell with the keyboard's focus is ringed.

use std::time::Duration;

use bevy::a11y::{AccessibilityRequested, ActionRequest};
use bevy::prelude::*;
use bevy::winit::accessibility::WinitActionRequestHandlers;
use bevy::winit::{EventLoopProxyWrapper, WinitUserEvent};
use bevy_egui::EguiContexts;
use bevy_egui::{EguiInput, EguiPreUpdateSet, PrimaryEguiContext, egui};
use npuzzle::Board;

use super::style::rgb;
use super::{Hud, Sheet, View};
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::board::theme::Palette;
use crate::messages::BoardIntent;
use crate::play::settings::Settings;
use crate::words;

/// How often a screen reader's requests are looked for while the app sleeps between frames.
pub const ACTION_POLL: Duration = Duration::from_millis(40);

/// The screen reader's requests reach egui, and wake the app when it sleeps.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        forward_actions
            .after(EguiPreUpdateSet::ProcessInput)
            .before(EguiPreUpdateSet::BeginPass),
    )
    .add_systems(Last, (watch_actions, ask_to_act.in_set(ReportMotion)));
}

/// Hands the screen reader's requests (a tile's default action, a button's) to egui, whose
/// widgets answer them as clicks.
fn forward_actions(
    mut requests: MessageReader<ActionRequest>,
    mut inputs: Query<&mut EguiInput, With<PrimaryEguiContext>>,
) {
    for request in requests.read() {
        debug!(
            "screen reader: {:?} on {:?}",
            request.0.action, request.0.target_node
        );
        for mut input in &mut inputs {
            input
                .events
                .push(egui::Event::AccessKitActionRequest(request.0.clone()));
        }
    }
}

/// A request taken this frame is answered in the next, which must come at once.
fn ask_to_act(requests: Res<Messages<ActionRequest>>, mut frames: MessageWriter<FrameRequest>) {
    if !requests.is_empty() {
        frames.write(FrameRequest::OneMore);
    }
}

/// Once a screen reader is listening, a thread of its own looks for its requests every
/// [`ACTION_POLL`] and wakes the app for them: Bevy queues them for the next frame, which,
/// while the app rests between inputs, could be half a minute away.
fn watch_actions(
    requested: Option<Res<AccessibilityRequested>>,
    handlers: Option<Res<WinitActionRequestHandlers>>,
    proxy: Option<Res<EventLoopProxyWrapper>>,
    mut watching: Local<bool>,
) {
    let listening = requested.is_some_and(|r| r.get());
    let (Some(handlers), Some(proxy)) = (handlers, proxy) else {
        return;
    };
    let Some(queue) = handlers
        .values()
        .next()
        .cloned()
        .filter(|_| listening && !*watching)
    else {
        return;
    };
    *watching = true;
    let proxy = (**proxy).clone();
    let spawned = std::thread::Builder::new()
        .name("snapslide-screen-reader".into())
        .spawn(move || {
            loop {
                std::thread::sleep(ACTION_POLL);
                let waiting = !crate::app::background::lock(&queue).is_empty();
                if waiting && proxy.send_event(WinitUserEvent::WakeUp).is_err() {
                    return;
                }
            }
        });
    if let Err(error) = spawned {
        warn!("a screen reader's requests will wait for the next frame: {error}");
    }
}

/// Where a tile can slide, in the player's words: "slides left into the gap", or with the
/// tiles between it and the gap named ("with tile 8 between"), or only counted when the
/// tiles are hidden ("with 2 tiles between"); `None` when it cannot move.
fn can_slide(board: &Board, cell: usize, blindfolded: bool) -> Option<String> {
    let moves = board.moves_to_slide_cell(cell)?;
    let direction = words::tile_direction(*moves.first()?);
    // The tiles that go first are the ones between the gap and this one.
    let slid = board.tiles_moved_by(&moves)?;
    let between = &slid[..slid.len() - 1];
    Some(match (between, blindfolded) {
        ([], _) => format!("slides {direction} into the gap"),
        (between, true) => format!(
            "slides {direction} into the gap, with {} between",
            words::tile_count(between.len())
        ),
        (between, false) => format!(
            "slides {direction} into the gap, with {} between",
            words::tile_list(between)
        ),
    })
}

/// What a cell's label says of the board: whether its tiles can move (not while a new board
/// is being made to replace it, after the win, or in a review), and the tile a hint names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellContext {
    /// Whether a tap on a tile in line with the gap slides it.
    pub playable: bool,
    /// The tile the hint on show slides.
    pub hinted: Option<u8>,
    /// Whether the tiles are hidden (a blind solve): no tile is named.
    pub blindfolded: bool,
}

/// A cell's label: its tile (or the gap), where it is, what it can do (if it can do anything)
/// and whether the hint names it. Blindfolded, a tile is "A tile", and the tiles between it
/// and the gap are counted, not named.
pub fn cell_label(board: &Board, cell: usize, context: CellContext) -> String {
    let (column, row) = (cell % board.width() + 1, cell / board.width() + 1);
    let tile = board.tiles()[cell];
    let name = match context.blindfolded {
        true => "A tile".to_string(),
        false => format!("Tile {tile}"),
    };
    let slide = can_slide(board, cell, context.blindfolded).filter(|_| context.playable);
    let mut label = match (tile, slide) {
        (0, _) => format!("Empty, row {row}, column {column}"),
        (_, Some(slide)) => format!("{name}, row {row}, column {column}, {slide}"),
        (_, None) => format!("{name}, row {row}, column {column}"),
    };
    if tile != 0 && context.hinted == Some(tile) {
        label += ". The hint's move";
    }
    label
}

pub(super) fn show(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    hud: Res<Hud>,
    view: View,
    mut intents: MessageWriter<BoardIntent>,
    mut said: Local<String>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if hud.sheet != Sheet::None {
        return Ok(());
    }
    let board = view.current.game.board();
    let replacing = view.replacing();
    let game = &view.current.game;
    let context = CellContext {
        playable: !replacing && !game.is_won() && !game.is_viewer(),
        hinted: view.hint.tile(),
        blindfolded: game.blindfolded(),
    };
    let layout = &view.layout;
    let area = layout.in_points(layout.board_rect());
    let cell = layout.board.cell / layout.ui_scale;
    let ring = egui::Stroke::new(3.0, rgb(Palette::of(settings.theme).accent));
    egui::Area::new(egui::Id::new("board-cells"))
        .fixed_pos(egui::pos2(area.min.x, area.min.y))
        .order(egui::Order::Background)
        .interactable(false)
        .show(ctx, |ui| {
            for index in 0..board.tiles().len() {
                let (column, row) = (index % board.width(), index / board.width());
                let min = egui::pos2(
                    area.min.x + column as f32 * cell,
                    area.min.y + row as f32 * cell,
                );
                let rect = egui::Rect::from_min_size(min, egui::Vec2::splat(cell));
                let movable = context.playable && board.moves_to_slide_cell(index).is_some();
                let sense = if movable {
                    egui::Sense::click()
                } else {
                    egui::Sense::focusable_noninteractive()
                };
                let response = ui.interact(rect, ui.id().with(("cell", index)), sense);
                let kind = if movable {
                    egui::WidgetType::Button
                } else {
                    egui::WidgetType::Label
                };
                // Worded only when egui asks: while a screen reader is listening.
                response.widget_info(|| {
                    egui::WidgetInfo::labeled(kind, true, cell_label(board, index, context))
                });
                if response.has_focus() {
                    ui.painter()
                        .rect_stroke(rect.shrink(2.0), 6.0, ring, egui::StrokeKind::Inside);
                }
                if response.clicked() {
                    intents.write(BoardIntent::Tap(index));
                }
            }
            // Said once a change: a move waits for the meter's reading (when it is on)
            // rather than being said without it and again with it.
            if let Some(text) = announcement(&hud, &settings, &view) {
                *said = text;
            }
            announce(ui, &said);
        });
    Ok(())
}

/// What the last change did, and, with the meter on, how far the board is now; the hint's
/// move while one is on show (it came after the last change). `None` while the meter's
/// reading of the change is on its way: what was said stays.
fn announcement(hud: &Hud, settings: &Settings, view: &View) -> Option<String> {
    if let Some(hint) = view.hint.0 {
        return Some(hint.words());
    }
    let (said, position) = hud.announcement.as_ref()?;
    let reading = view.meter.at(*position).filter(|_| settings.meter);
    match reading {
        Some(reading) => {
            let far = words::distance_text(reading.moves, reading.exact);
            Some(format!("{said} {far}"))
        }
        None if settings.meter && view.meter.measures(*position) => None,
        None => Some(said.clone()),
    }
}

/// The live region: what the last change did, said by the screen reader when it changes.
fn announce(ui: &mut egui::Ui, text: &str) {
    let response = ui.allocate_rect(egui::Rect::NOTHING, egui::Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Label, true, text));
    ui.ctx().accesskit_node_builder(response.id, |node| {
        node.set_live(egui::accesskit::Live::Polite);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::parse_board;

    const PLAYABLE: CellContext = CellContext {
        playable: true,
        hinted: None,
        blindfolded: false,
    };

    #[test]
    fn cells_say_what_they_hold_where_and_what_they_can_do() {
        let board = parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap();
        assert_eq!(cell_label(&board, 4, PLAYABLE), "Empty, row 2, column 2");
        assert_eq!(
            cell_label(&board, 3, PLAYABLE),
            "Tile 4, row 2, column 1, slides right into the gap"
        );
        assert_eq!(
            cell_label(&board, 1, PLAYABLE),
            "Tile 2, row 1, column 2, slides down into the gap"
        );
        assert_eq!(
            cell_label(&board, 0, PLAYABLE),
            "Tile 1, row 1, column 1",
            "in no line with the gap"
        );
        let row = parse_board("0 1 2 3 / 4 5 6 7 / 8 9 10 11 / 12 13 14 15").unwrap();
        assert_eq!(
            cell_label(&row, 3, PLAYABLE),
            "Tile 3, row 1, column 4, slides left into the gap, with tiles 1 and 2 between"
        );
        assert_eq!(
            cell_label(&board, 3, CellContext::default()),
            "Tile 4, row 2, column 1",
            "a board about to be replaced, won or reviewed offers no slide"
        );
        let hinted = CellContext {
            hinted: Some(4),
            ..PLAYABLE
        };
        assert_eq!(
            cell_label(&board, 3, hinted),
            "Tile 4, row 2, column 1, slides right into the gap. The hint's move"
        );
        assert_eq!(
            cell_label(&board, 1, hinted),
            cell_label(&board, 1, PLAYABLE)
        );
    }

    #[test]
    fn blindfolded_cells_name_no_tile() {
        let blind = CellContext {
            blindfolded: true,
            ..PLAYABLE
        };
        let row = parse_board("0 1 2 3 / 4 5 6 7 / 8 9 10 11 / 12 13 14 15").unwrap();
        assert_eq!(
            cell_label(&row, 3, blind),
            "A tile, row 1, column 4, slides left into the gap, with 2 tiles between"
        );
        assert_eq!(
            cell_label(&row, 1, blind),
            "A tile, row 1, column 2, slides left into the gap"
        );
        assert_eq!(cell_label(&row, 5, blind), "A tile, row 2, column 2");
        assert_eq!(cell_label(&row, 0, blind), "Empty, row 1, column 1");
    }
}
