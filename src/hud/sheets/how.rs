//! How the solver found what it said: the method, the time, the positions, the bound.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::modal::{modal, sheet_width, title};
use crate::hud::{Hud, Sheet, View};

/// The sheet.
pub(super) fn show(mut contexts: EguiContexts, mut hud: ResMut<Hud>, view: View) -> Result {
    let Sheet::How(details) = hud.sheet.clone() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let width = sheet_width(view.layout.window_points());
    let tall = view.layout.window_points().y * 0.6;
    let closed = modal(ctx, "how", width, |ui| {
        title(ui, "How it was found", &mut hud);
        egui::ScrollArea::vertical()
            .max_height(tall)
            .scroll_source(egui::scroll_area::ScrollSource::ALL)
            .show(ui, |ui| {
                ui.label(details);
            });
    });
    super::close_if(closed, &mut hud);
    Ok(())
}
