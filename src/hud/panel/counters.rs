//! The panel's counters: moves, time, and tiles left or the meter (a review's own three), in
//! columns, or one a row in a narrow panel.

use bevy_egui::egui;

use super::View;
use crate::assist::meter::Trend;
use crate::board::theme::{Palette, Theme};
use crate::hud::style::{self, caption, value};
use crate::words::{clock, result_time};

/// Moves, time and tiles left, and the meter when it is on (once won, the moves in MTM; in a
/// review: the player's moves, the shortest, the step). Captions above values, each in a column of its own width, so the
/// row keeps its shape whatever the numbers (and egui has no layout to remember and redo when
/// a digit changes); in a narrow panel, one counter a row, its caption before its value.
pub(super) fn counters(ui: &mut egui::Ui, theme: Theme, meter_on: bool, view: &View, shape: Shape) {
    let size = counter_size(view, shape);
    let figures = counter_figures(ui, theme, meter_on, view, size);
    if shape == Shape::Stacked {
        let row = egui::vec2(ui.available_width(), size * 1.3);
        let layout = egui::Layout::left_to_right(egui::Align::Center);
        for (name, figure) in figures {
            let label = (name, caption(name));
            ui.allocate_ui_with_layout(row, layout, |ui| counter(ui, label, figure));
        }
        return;
    }
    let third = (ui.available_width() / 3.0).floor();
    // The caption's line, and the figure's: about a fifth taller than its size.
    let height = 22.0 + size * 1.2;
    let small = egui::TextStyle::Small.resolve(ui.style());
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 0.0;
        for (name, figure) in figures {
            // A gap to the next column's figure (play-test 70: "24.75 s" and "MTM 14" nearly
            // touched).
            let room = third - COLUMN_GAP;
            let figure = fitted(ui, figure, egui::FontId::new(size, style::bold()), room);
            // A caption wider than its column (a phone's counters beside the menu) too.
            let label = fitted(ui, caption(name), small.clone(), room);
            let layout = egui::Layout::top_down(egui::Align::Min);
            ui.allocate_ui_with_layout(egui::vec2(third, height), layout, |ui| {
                ui.set_width(third);
                ui.spacing_mut().item_spacing.y = 2.0;
                counter(ui, (name, label), figure);
            });
        }
    });
}

/// The least room between one counter's figure and the next column, in the controls' points.
const COLUMN_GAP: f32 = 14.0;

/// How the counters are laid out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Shape {
    /// In a row, each a column: its caption above its figure.
    Row,
    /// One a row, its caption before its figure (a narrow panel).
    Stacked,
    /// In a row, in the menu's row of a short portrait panel: smaller.
    InHeader,
}

/// A text made smaller, where it would run past its column ("38.97 s" at the counters'
/// size); `font` is its font.
fn fitted(ui: &egui::Ui, figure: egui::RichText, font: egui::FontId, width: f32) -> egui::RichText {
    let size = font.size;
    let text = figure.text().to_string();
    let wide = ui.ctx().fonts_mut(|fonts| {
        (fonts
            .layout_no_wrap(text, font, egui::Color32::WHITE)
            .size())
        .x
    });
    match wide > width {
        true => figure.size((size * width / wide).floor()),
        false => figure,
    }
}

/// The counters' figures' size: smaller in the compact panel of a short window and in a
/// narrow one, smaller still in the menu's row.
fn counter_size(view: &View, shape: Shape) -> f32 {
    match shape {
        Shape::InHeader => 20.0,
        Shape::Stacked => 22.0,
        Shape::Row if view.layout.compact => 22.0,
        Shape::Row => 30.0,
    }
}

/// The three counters' captions and figures.
fn counter_figures(
    ui: &egui::Ui,
    theme: Theme,
    meter_on: bool,
    view: &View,
    size: f32,
) -> [(&'static str, egui::RichText); 3] {
    let game = &view.current.game;
    if let Some(watched) = view.replaying.watched.as_ref().filter(|_| game.is_replay()) {
        return replay_figures(
            &watched.replay,
            view.replaying.head.ms(),
            view.replaying.step(game.moves()),
            size,
        );
    }
    if game.is_review() {
        // The compared solve's moves, once found (a solve watched again is not the game kept).
        let found = view.review.found.as_ref();
        let yours = found.map_or(game.kept().moves(), |f| f.summary.moves);
        let shortest = found.map(|f| f.summary.shortest);
        let shortest = shortest.map_or("…".to_string(), |moves| moves.to_string());
        let whose = if view.review.friends {
            "Theirs"
        } else {
            "Yours"
        };
        return [
            (whose, value(yours.to_string(), size)),
            ("Shortest", value(shortest, size)),
            ("Step", value(game.moves().to_string(), size)),
        ];
    }
    let third = if game.is_won() {
        // Nothing is left to count: the moves counted as slides of a line instead.
        ("MTM", value(game.total_mtm().to_string(), size))
    } else if game.blindfolded() {
        // Tiles left (or the meter) would tell a blind solver when the board is solved.
        ("Tiles left", value("–", size))
    } else if meter_on {
        (meter_caption(view), meter(ui, theme, size, view))
    } else {
        let left = game.tiles_out_of_place().to_string();
        ("Tiles left", value(left, size))
    };
    [
        ("Moves", value(game.total_moves().to_string(), size)),
        ("Time", value(time_shown(game), size)),
        third,
    ]
}

/// A replay's counters, live: the moves made so far of all, the time at the playhead, and the
/// moves a second so far.
fn replay_figures(
    replay: &crate::game::replay::Replay,
    ms: u64,
    step: usize,
    size: f32,
) -> [(&'static str, egui::RichText); 3] {
    let time = result_time(std::time::Duration::from_millis(ms));
    let tps = replay
        .tps_at(step)
        .map_or("–".to_string(), |tps| format!("{tps:.2}"));
    [
        ("Moves", value(format!("{step}/{}", replay.len()), size)),
        ("Time", value(time, size)),
        ("TPS", value(tps, size)),
    ]
}

/// The clock while the game runs (whole seconds), the result once it is won (to the
/// centisecond under a minute).
fn time_shown(game: &crate::game::Game) -> String {
    if game.is_won() {
        result_time(game.elapsed())
    } else {
        clock(game.elapsed())
    }
}

/// One counter: its name and caption as drawn, and its figure, laid out by the caller. A
/// screen reader hears them as one node, "Moves 12": the caption's own is hidden.
fn counter(ui: &mut egui::Ui, (name, shown): (&str, egui::RichText), number: egui::RichText) {
    let caption = ui.label(shown);
    let spoken = format!(
        "{} {}",
        name.trim_end_matches([' ', '⏷', '⏶']),
        number.text()
    );
    let figure = ui.label(number);
    figure.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Label, true, &spoken));
    ui.ctx()
        .accesskit_node_builder(caption.id, |node| node.set_hidden());
}

/// The meter's caption: what the last move did to the distance, in words and an arrow as well
/// as in the number's colour, for a moment; else "Shortest".
fn meter_caption(view: &View) -> &'static str {
    match view.meter.flashing() {
        Some(Trend::Closer) => "Closer ⏷",
        Some(Trend::Further) => "Further ⏶",
        None => "Shortest",
    }
}

/// The meter's number: green for a move closer, amber for one away, for a moment.
fn meter(ui: &egui::Ui, theme: Theme, size: f32, view: &View) -> egui::RichText {
    let p = Palette::of(theme);
    let shown = view.meter.shown();
    let text = shown.map_or("…".to_string(), |(r, _)| r.text());
    let colour = match view.meter.flashing() {
        Some(Trend::Closer) => style::rgb(p.good),
        Some(Trend::Further) => style::rgb(p.warning),
        None if !shown.is_some_and(|(_, current)| current) => style::rgb(p.muted),
        None => style::rgb(p.text),
    };
    if view.meter.flashing().is_some() || view.meter.measuring() {
        ui.ctx().request_repaint();
    }
    value(text, size).color(colour)
}
