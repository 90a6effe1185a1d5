//! About the app: its version, what it is built with, and the credits of what it ships.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::modal::{modal, sheet_width, title};
use crate::hud::{Hud, View};

/// The sheet.
pub(super) fn show(mut contexts: EguiContexts, mut hud: ResMut<Hud>, view: View) -> Result {
    let ctx = contexts.ctx_mut()?;
    let width = sheet_width(view.layout.window_points());
    let closed = modal(ctx, "about", width, |ui| {
        title(ui, "About Snapslide", &mut hud);
        ui.label(format!("Snapslide {}", env!("CARGO_PKG_VERSION")));
        ui.label("A photo sliding puzzle, built with Bevy and egui on the npuzzle engine.");
        ui.label(
            egui::RichText::new(
                "Photos: scikit-image's sample data (CC0 and public domain). Sounds: CC0. \
                 Font: Manrope (SIL Open Font License).",
            )
            .small()
            .weak(),
        );
    });
    super::close_if(closed, &mut hud);
    Ok(())
}
