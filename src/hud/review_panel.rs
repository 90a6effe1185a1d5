//! The panel while a finished game is reviewed: how it compares with the shortest, and the
//! steps along the shortest line.

use bevy::prelude::*;
use bevy_egui::egui;
use npuzzle::Shape;

use super::View;
use super::style::{self, MIN_TOUCH};
use crate::board::theme::Theme;
use crate::history::review::{Review, ReviewCommand};

/// What the review found, in words (scrolling, on a narrow phone, rather than running under
/// the controls).
pub(super) fn summary(ui: &mut egui::Ui, review: &Review, shape: Shape) {
    match &review.found {
        Some(found) => {
            egui::ScrollArea::vertical()
                .max_height(ui.available_height())
                .show(ui, |ui| {
                    for line in crate::words::review_lines(&found.summary) {
                        ui.label(line);
                    }
                    let line_mtm = npuzzle::mtm_length(&found.line);
                    ui.label(egui::RichText::new(mtm_line(found.yours_mtm, line_mtm)).weak());
                });
        }
        None if review.working() => {
            // Wrapped: on a phone the words would run past the panel's edge.
            ui.horizontal_wrapped(|ui| {
                style::spinner(ui);
                ui.label(comparing(shape));
            });
        }
        None => {
            ui.label("The shortest solution could not be found in time.");
        }
    }
}

/// Both counts of the two lines: "Counted as slides of a line (MTM): yours 21, this line's
/// 19." The shortest line is the fewest single-tile moves; a line of fewer slides may exist.
pub fn mtm_line(yours: usize, line: usize) -> String {
    format!("Counted as slides of a line (MTM): yours {yours}, this line's {line}.")
}

/// What the review is doing while it works: up to 4×4 it finds the shortest; past that, the
/// app's best, which is not proved shortest.
fn comparing(shape: Shape) -> &'static str {
    if crate::assist::proves_shortest(shape) {
        "Comparing your game with the shortest…"
    } else {
        "Comparing your game with the app's best…"
    }
}

/// Back, forward, play and done (the first row ignores taps while `held`).
pub(super) fn controls(
    ui: &mut egui::Ui,
    theme: Theme,
    width: f32,
    view: &View,
    commands: &mut MessageWriter<ReviewCommand>,
    held: bool,
) {
    let review = &view.review;
    let game = &view.current.game;
    let line = review.found.as_ref().map_or(0, |f| f.line.len());
    let step = game.moves();
    let gap = ui.spacing().item_spacing.x;
    let third = ((width - 2.0 * gap) / 3.0).floor();
    ui.horizontal(|ui| {
        if style::wide_button(ui, step > 0, "⏴ Back", third).clicked() && !held {
            commands.write(ReviewCommand::Backward);
        }
        let playing = view.playback.active() && !view.playback.paused;
        let label = if playing { "Pause" } else { "Play" };
        if style::wide_button(ui, step < line, label, third).clicked() && !held {
            commands.write(ReviewCommand::Play);
        }
        if style::wide_button(ui, step < line, "Next ⏵", third).clicked() && !held {
            commands.write(ReviewCommand::Forward);
        }
    });
    ui.horizontal(|ui| {
        ui.add_sized(
            [width / 2.0 - gap, MIN_TOUCH],
            egui::Label::new(format!("Move {step} of {line}")),
        );
        if style::primary_button(ui, theme, true, "Done", width / 2.0).clicked() {
            commands.write(ReviewCommand::Done);
        }
    });
}
