//! The panel while a solve is watched again: whose it is, its timeline to drag along, its
//! speeds, and back, play and next; then Play this board, Compare and Done.

use bevy::prelude::*;
use bevy_egui::egui;

use super::style::{self, MIN_TOUCH};
use super::{Actions, HudAction, Pending, View};
use crate::game::replay::{Replay, Speed};
use crate::replay::{ReplayCommand, Replaying, own_game_of};
use crate::theme::Theme;
use crate::words::{moves_text, result_time};

/// The solve's line ("Your solve: 4×4, 41 moves (29 MTM), 58.12 s"), the timeline, and the
/// speeds (scrolling, on a narrow phone, rather than running under the controls).
pub(super) fn summary(
    ui: &mut egui::Ui,
    theme: Theme,
    replaying: &Replaying,
    commands: &mut MessageWriter<ReplayCommand>,
) {
    let Some(watched) = &replaying.watched else {
        return;
    };
    egui::ScrollArea::vertical()
        .max_height(ui.available_height())
        .show(ui, |ui| {
            ui.label(style::heading(&solve_line(&watched.whose, &watched.replay)));
            timeline(ui, &watched.replay, replaying.head.ms(), commands);
            ui.horizontal_wrapped(|ui| {
                for speed in Speed::ALL {
                    let chosen = replaying.head.speed == speed;
                    if style::chip(ui, theme, chosen, speed.label()).clicked() {
                        commands.write(ReplayCommand::Speed(speed));
                    }
                }
            });
        });
}

/// "Your solve: 4×4, 41 moves (29 MTM), 58.12 s".
pub fn solve_line(whose: &str, replay: &Replay) -> String {
    let board = replay.start();
    let mtm = npuzzle::mtm_length(replay.moves());
    let time = result_time(std::time::Duration::from_millis(replay.total_ms()));
    format!(
        "{whose}: {}×{}, {} ({mtm} MTM), {time}",
        board.width(),
        board.height(),
        moves_text(replay.len()),
    )
}

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
    let response = ui.add_sized([ui.available_width(), MIN_TOUCH], slider);
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
    let step = view.current.game.moves();
    let len = watched.replay.len();
    let gap = ui.spacing().item_spacing.x;
    let third = ((width - 2.0 * gap) / 3.0).floor();
    ui.horizontal(|ui| {
        if style::wide_button(ui, step > 0, "⏴ Back", third).clicked() && !held {
            actions.replay.write(ReplayCommand::Step(false));
        }
        let label = if head.paused { "Play" } else { "Pause" };
        if style::wide_button(ui, len > 0, label, third).clicked() && !held {
            actions.replay.write(ReplayCommand::TogglePause);
        }
        if style::wide_button(ui, step < len, "Next ⏵", third).clicked() && !held {
            actions.replay.write(ReplayCommand::Step(true));
        }
    });
    ui.horizontal(|ui| {
        if style::wide_button(ui, true, "Play this board", third).clicked() {
            let game = own_game_of(watched);
            actions
                .hud
                .write(HudAction::Replace(Pending::Start(Box::new(game))));
        }
        if style::wide_button(ui, len > 0, "Compare", third).clicked() {
            actions.replay.write(ReplayCommand::Compare);
        }
        if style::primary_button(ui, theme, true, "Done", third).clicked() {
            actions.replay.write(ReplayCommand::Done);
        }
    });
}
