//! The set-up sheet: type a board, or tap the numbers into an empty grid, checked as you go.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::modal::{sheet_width, title};
use crate::board::theme::Palette;
use crate::game::{Game, GameKind, SetupGrid, check_setup};
use crate::hud::style::{self, MIN_TOUCH, rgb};
use crate::hud::{Actions, Hud, Sheet, View};
use crate::messages::Pending;
use crate::play::settings::Settings;

pub(in crate::hud) fn show(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut hud: ResMut<Hud>,
    view: View,
    mut actions: Actions,
) -> Result {
    let Sheet::Setup(form) = &hud.sheet else {
        return Ok(());
    };
    let mut form = form.clone();
    let ctx = contexts.ctx_mut()?;
    let p = Palette::of(settings.theme);
    let mut start = None;
    let width = sheet_width(view.layout.window_points());
    let tapped_beside = super::modal::modal(ctx, "setup", width, |ui| {
        title(ui, "Set up a board", &mut hud);
        ui.label("Type the rows (0 for the gap), or tap the cells in the order 1, 2, 3…");
        let typed = ui.add(
            egui::TextEdit::multiline(&mut form.text)
                .font(egui::TextStyle::Monospace)
                .desired_rows(4)
                .desired_width(f32::INFINITY)
                .hint_text(form.example.as_str()),
        );
        // The grid follows the text, its size too, once the rows make a rectangle.
        if typed.changed()
            && let Some(grid) = SetupGrid::from_text(&form.text)
        {
            form.grid = grid;
        }
        // Text that makes no grid (a row short, a word): the grid is not the board typed,
        // and must not say it is full.
        let matches = form.text.trim().is_empty() || SetupGrid::from_text(&form.text).is_some();
        grid(ui, &mut form, matches);
        let verdict = check_setup(&form.text);
        match &verdict {
            Ok(_) => {
                ui.label(egui::RichText::new("Solvable").color(rgb(p.good)));
            }
            Err(reason) if !form.text.trim().is_empty() => {
                let said = crate::words::setup_error_text(reason);
                ui.label(egui::RichText::new(said).color(rgb(p.bad)));
                // The rule behind it, for the curious.
                if let Some(details) = reason.details() {
                    ui.collapsing("Why?", |ui| ui.label(details));
                }
            }
            Err(_) => {}
        }
        ui.horizontal(|ui| {
            if style::button(ui, true, "Clear").clicked() {
                let (w, h) = (form.grid.width, form.grid.height());
                form = crate::hud::state::SetupForm::new(w, h);
            }
            if style::primary_button(ui, settings.theme, verdict.is_ok(), "Play it", 160.0)
                .clicked()
                && let Ok(board) = verdict
            {
                start = Some(board);
            }
        });
    });
    let closed = (tapped_beside && hud.may_close()) || hud.sheet == Sheet::None;
    if closed || start.is_some() {
        // Kept until it is played: a "Keep playing" or a tap beside the sheet loses nothing.
        hud.leave_setup(form);
    } else {
        hud.sheet = Sheet::Setup(form);
    }
    if let Some(board) = start {
        let game = Box::new(Game::new(board, GameKind::Custom));
        hud.sheet = Sheet::None;
        actions
            .replace
            .write(crate::messages::ReplaceGame(Pending::Start(game)));
    }
    Ok(())
}

/// The grid to tap numbers into; full, it writes the text.
fn grid(ui: &mut egui::Ui, form: &mut crate::hud::state::SetupForm, matches: bool) {
    let label = match form.grid.next_number() {
        _ if !matches => "The grid shows the last board the text made; mend the text above, or \
                          Clear to tap one in."
            .to_string(),
        Some(n) => format!("Next number: {n}"),
        None => "The grid is full.".to_string(),
    };
    ui.label(egui::RichText::new(label).weak());
    let width = form.grid.width;
    egui::Grid::new("setup-grid")
        .spacing([4.0, 4.0])
        .show(ui, |ui| {
            for row in 0..form.grid.height() {
                for column in 0..width {
                    let cell = row * width + column;
                    let label = match form.grid.cells[cell] {
                        Some(0) => " ".to_string(),
                        Some(t) => t.to_string(),
                        None => "·".to_string(),
                    };
                    let button = egui::Button::new(label).min_size(egui::Vec2::splat(MIN_TOUCH));
                    if ui.add(button).clicked()
                        && let Some(text) = form.grid.tap(cell)
                    {
                        form.text = text;
                    }
                }
                ui.end_row();
            }
        });
}
