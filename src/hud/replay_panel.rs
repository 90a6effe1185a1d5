//! The panel while a solve is watched again: whose it is, its timeline to drag along, its
//! speeds, and back, play and next; then Play this board, Compare and Done.

use bevy::prelude::*;
use bevy_egui::egui;

use super::style::{self, MIN_TOUCH};
use super::{Actions, View};
use crate::board::theme::Theme;
use crate::game::replay::{Replay, Speed};
use crate::history::replay::{ReplayCommand, Replaying, own_game_of};
use crate::messages::Pending;
use crate::words::{moves_text, result_time};

/// The timeline, then the solve's line ("Your solve: 41 moves (29 MTM)") and Save as GIF
/// (scrolling, on a narrow phone, rather than running under the controls).
pub(super) fn summary(
    ui: &mut egui::Ui,
    replaying: &Replaying,
    commands: &mut MessageWriter<ReplayCommand>,
) {
    let Some(watched) = &replaying.watched else {
        return;
    };
    egui::ScrollArea::vertical()
        .max_height(ui.available_height())
        .show(ui, |ui| {
            // The timeline first: the smallest phone's status has room for it and one line.
            ui.spacing_mut().item_spacing.y = 2.0;
            timeline(ui, &watched.replay, replaying.head.ms(), commands);
            ui.scope(|ui| {
                // Rows as tall as the text: the link adds no button's height to the line.
                ui.spacing_mut().interact_size.y = ui.text_style_height(&egui::TextStyle::Body);
                ui.horizontal_wrapped(|ui| {
                    ui.label(solve_line(&watched.whose, &watched.replay, replaying.board));
                    if replaying.making_gif() {
                        style::spinner(ui);
                        ui.label("Making the GIF…");
                    } else if ui.link("Save as GIF").clicked() {
                        commands.write(ReplayCommand::SaveGif);
                    }
                });
            });
        });
}

/// "Your solve: 41 moves (29 MTM)" (the board is the header's, the time the counters'); for a
/// run, the board on show first: "Board 2 of 3, 4×4. Your solve: 93 moves (70 MTM)".
pub fn solve_line(whose: &str, replay: &Replay, board: usize) -> String {
    let mtm: usize = (0..replay.boards())
        .map(|b| npuzzle::mtm_length(replay.moves_of(b)))
        .sum();
    let line = format!("{whose}: {} ({mtm} MTM)", moves_text(replay.len()));
    if replay.boards() == 1 {
        return line;
    }
    let shape = replay.start_of(board).shape();
    let (of, columns, rows) = (replay.boards(), shape.width, shape.height);
    format!("Board {} of {of}, {columns}×{rows}. {line}", board + 1)
}

/// The timeline's height: a finger's, a little under the buttons' (the line below it fits the
/// smallest phone's status).
const TIMELINE_HEIGHT: f32 = 40.0;

/// The timeline: the playhead's place in the solve's time, dragged to go anywhere.
fn timeline(
    ui: &mut egui::Ui,
    replay: &Replay,
    ms: u64,
    commands: &mut MessageWriter<ReplayCommand>,
) {
    let mut at = ms as f64;
    let total = replay.total_ms().max(1) as f64;
    ui.spacing_mut().slider_width = (ui.available_width() - 8.0).max(MIN_TOUCH);
    let slider = egui::Slider::new(&mut at, 0.0..=total).show_value(false);
    let response = ui.add_sized([ui.available_width(), TIMELINE_HEIGHT], slider);
    let said = format!(
        "Timeline: {} of {}",
        result_time(std::time::Duration::from_millis(ms)),
        result_time(std::time::Duration::from_millis(replay.total_ms()))
    );
    response.widget_info(|| egui::WidgetInfo::slider(true, at, &said));
    if response.changed() {
        commands.write(ReplayCommand::Seek(at.round() as u64));
    }
}

/// Back, play and next (ignoring taps while `held`); then Play this board, Compare and Done.
pub(super) fn controls(
    ui: &mut egui::Ui,
    theme: Theme,
    width: f32,
    view: &View,
    actions: &mut Actions,
    held: bool,
) {
    let Some(watched) = &view.replaying.watched else {
        return;
    };
    let head = &view.replaying.head;
    let step = view.replaying.step(view.current.game.moves());
    let len = watched.replay.len();
    let gap = ui.spacing().item_spacing.x;
    let third = ((width - 2.0 * gap) / 3.0).floor();
    let quarter = ((width - 3.0 * gap) / 4.0).floor();
    ui.horizontal(|ui| {
        if icon_button(ui, (step > 0, quarter), "⏴", "A move back").clicked() && !held {
            actions.replay.write(ReplayCommand::Step(false));
        }
        let label = if head.paused { "Play" } else { "Pause" };
        if style::wide_button(ui, len > 0, label, quarter).clicked() && !held {
            actions.replay.write(ReplayCommand::TogglePause);
        }
        if icon_button(ui, (step < len, quarter), "⏵", "A move on").clicked() && !held {
            actions.replay.write(ReplayCommand::Step(true));
        }
        speed_choice(ui, head.speed, quarter, &mut actions.replay);
    });
    ui.horizontal(|ui| {
        let own = style::wide_button(ui, true, "Play this board", third);
        if let Some(game) = own_game_of(&view.replaying).filter(|_| own.clicked()) {
            let pending = Pending::Start(Box::new(game));
            actions.replace.write(crate::messages::ReplaceGame(pending));
        }
        if style::wide_button(ui, len > 0, "Compare", third).clicked() {
            actions.replay.write(ReplayCommand::Compare);
        }
        if style::primary_button(ui, theme, true, "Done", third).clicked() {
            actions.replay.write(ReplayCommand::Done);
        }
    });
}

/// The speed, chosen from a list: 0.25× to 8×, and Instant.
fn speed_choice(
    ui: &mut egui::Ui,
    speed: Speed,
    width: f32,
    commands: &mut MessageWriter<ReplayCommand>,
) {
    let mut chosen = speed;
    let choice = egui::ComboBox::from_id_salt("replay-speed")
        .selected_text(speed.label())
        .width(width - 8.0)
        .height(400.0)
        .show_ui(ui, |ui| {
            for speed in Speed::ALL {
                ui.selectable_value(&mut chosen, speed, speed.label());
            }
        });
    let said = format!("Speed: {}", speed.label());
    (choice.response)
        .widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::ComboBox, true, &said));
    if chosen != speed {
        commands.write(ReplayCommand::Speed(chosen));
    }
}

/// A button that shows a glyph and is heard by its name.
fn icon_button(
    ui: &mut egui::Ui,
    (enabled, width): (bool, f32),
    glyph: &str,
    name: &str,
) -> egui::Response {
    let button = style::wide_button(ui, enabled, glyph, width);
    button.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Button, enabled, name));
    button
}
