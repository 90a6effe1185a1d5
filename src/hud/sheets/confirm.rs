//! The question before the game in progress is lost: what would be lost, and the choice.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::modal::{modal, sheet_width};
use crate::hud::state::question;
use crate::hud::style;
use crate::hud::{Actions, Hud, HudAction, Sheet, View};
use crate::play::settings::Settings;

/// The sheet.
pub(super) fn show(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut hud: ResMut<Hud>,
    view: View,
    mut actions: Actions,
) -> Result {
    let Sheet::Confirm(pending) = hud.sheet.clone() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let width = sheet_width(view.layout.window_points());
    let question = question(&pending, &view.current.game);
    let closed = modal(ctx, "confirm", width, |ui| {
        ask(ui, &settings, &question, &mut hud, &mut actions)
    });
    super::close_if(closed, &mut hud);
    Ok(())
}

fn ask(
    ui: &mut egui::Ui,
    settings: &Settings,
    question: &str,
    hud: &mut Hud,
    actions: &mut Actions,
) {
    ui.label(style::heading("Lose this game?"));
    ui.label(question);
    ui.horizontal(|ui| {
        if style::button(ui, true, "Keep playing").clicked() {
            hud.sheet = Sheet::None;
        }
        if style::primary_button(ui, settings.theme, true, "Yes, start over", 180.0).clicked() {
            actions.hud.write(HudAction::Confirm);
        }
    });
}
