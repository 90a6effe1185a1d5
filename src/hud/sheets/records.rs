//! Best scores: the fewest moves and the fastest time for every board and difficulty played,
//! and how many were won; the puzzles of the day, which keep their own list.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::modal::{modal, sheet_width, title};
use crate::game::Record;
use crate::hud::{Hud, View};
use crate::words::{day_rows, days_summary, moves_text, result_time};

/// The sheet.
pub(super) fn show(mut contexts: EguiContexts, mut hud: ResMut<Hud>, view: View) -> Result {
    let ctx = contexts.ctx_mut()?;
    let width = sheet_width(view.layout.window_points());
    let closed = modal(ctx, "records", width, |ui| {
        title(ui, "Records", &mut hud);
        records(ui, &view);
    });
    super::close_if(closed, &mut hud);
    Ok(())
}

/// Best moves and time for every board and difficulty played, and how many were won; the
/// puzzles of the day, which keep their own list.
fn records(ui: &mut egui::Ui, view: &View) {
    let today = crate::game::today();
    if let Some(days) = days_summary(&view.days.0, today) {
        ui.label(days);
        days_grid(ui, &day_rows(&view.days.0, today));
        ui.add_space(8.0);
    }
    if view.scores.0.0.is_empty() {
        ui.label(
            egui::RichText::new("Solve a shuffled puzzle on your own to set a best score.").weak(),
        );
        return;
    }
    // Short captions: the four columns fit a phone's sheet (328 px on a 360 px screen).
    let rows: Vec<[String; 4]> = view
        .scores
        .0
        .0
        .iter()
        .map(|(key, best)| record_row(&record_name(key), *best))
        .collect();
    table(ui, "records", ["Board", "Fewest", "Fastest", "Won"], &rows);
}

/// The latest puzzles of the day: the day, moves, time, and against the shortest.
fn days_grid(ui: &mut egui::Ui, rows: &[[String; 4]]) {
    table(ui, "days", ["Day", "Moves", "Time", "Shortest"], rows);
}

/// A table of four columns under their captions (a line a row where they do not fit).
fn table(ui: &mut egui::Ui, id: &str, captions: [&str; 4], rows: &[[String; 4]]) {
    let rows: Vec<Vec<String>> = rows.iter().cloned().map(Vec::from).collect();
    crate::hud::table::table(ui, id, &captions, &rows, None);
}

/// "4x4-medium" as "4×4 Medium".
fn record_name(key: &str) -> String {
    let (board, difficulty) = key.split_once('-').unwrap_or((key, ""));
    let mut chars = difficulty.chars();
    let difficulty: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    format!("{} {difficulty}", board.replace('x', "×"))
}

/// A best score's row: the board, the fewest moves, the fastest time, the games won.
fn record_row(name: &str, best: Record) -> [String; 4] {
    [
        name.to_string(),
        moves_text(best.moves),
        result_time(best.time()),
        best.wins.to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_keys_read_as_boards() {
        assert_eq!(record_name("4x4-medium"), "4×4 Medium");
        assert_eq!(record_name("3x4-easy"), "3×4 Easy");
    }
}
