//! What every sheet over the board is built from: its width for the window, a modal frame
//! that closes on a tap beside it, and a title with a close button.

use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::egui::scroll_area::ScrollSource;

use super::style;
use super::{Hud, Sheet};

/// The widest a sheet grows, in logical pixels.
pub const SHEET_WIDTH: f32 = 520.0;

/// A sheet's width for this window: all of a phone's but a margin (a small phone at 200 %
/// text is 160 points wide), never wider than [`SHEET_WIDTH`].
pub fn sheet_width(window: Vec2) -> f32 {
    (window.x - 32.0).clamp(120.0, SHEET_WIDTH)
}

/// The height of a sheet's scrolled part for this window: all of it but the title, the
/// frame's margins and a strip of the board above and below.
pub fn sheet_height(window: Vec2) -> f32 {
    (window.y - 160.0).max(window.y * 0.5)
}

/// A modal sheet `width` wide, scrolled where it is taller than the window; returns whether the player closed it by tapping beside it.
/// (Escape is Back, which the controls' state answers once: egui's own reading of it would
/// close the sheet a second time, and a second close opens the menu.)
pub fn modal(
    ctx: &egui::Context,
    id: &str,
    width: f32,
    contents: impl FnOnce(&mut egui::Ui),
) -> bool {
    // A sheet taller than the window (large text on a small phone) scrolls whole, dragged
    // with a mouse as with a finger.
    let tallest = ctx.content_rect().height() - 64.0;
    let layer = egui::LayerId::new(egui::Order::Foreground, egui::Id::new(id));
    let opening = !ctx.memory(|memory| memory.areas().visible_last_frame(&layer));
    egui::Modal::new(egui::Id::new(id))
        .show(ctx, |ui| {
            ui.set_width(width);
            ui.set_max_width(width);
            let mut scroll = egui::ScrollArea::vertical()
                .id_salt("sheet")
                .max_height(tallest)
                // A centred sheet's room is measured from its centre down: without this it
                // would scroll at half the window's height.
                .min_scrolled_height(tallest)
                .scroll_source(ScrollSource::ALL);
            if opening {
                scroll = scroll.vertical_scroll_offset(0.0);
            }
            scroll.show(ui, |ui| {
                // A sheet opens at its top, not where it was last scrolled.
                ui.data_mut(|data| data.insert_temp(egui::Id::new(OPENING), opening));
                contents(ui);
            });
        })
        .backdrop_response
        .clicked()
}

/// Where a sheet's contents find whether it is opening (its inner scroll areas start at the
/// top then): see [`opening`].
const OPENING: &str = "sheet-opening";

/// Whether the sheet being drawn has just opened: a scroll area inside it starts at its top.
pub fn opening(ui: &egui::Ui) -> bool {
    ui.data(|data| data.get_temp(egui::Id::new(OPENING)))
        .unwrap_or(false)
}

/// A sheet's title with a close button.
pub fn title(ui: &mut egui::Ui, text: &str, hud: &mut Hud) {
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(text).heading());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if style::button(ui, true, "Close").clicked() {
                hud.sheet = Sheet::None;
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One pass of `ctx`, with the sheet shown or not; whether its contents saw it opening.
    fn pass(ctx: &egui::Context, shown: bool) -> Option<bool> {
        let mut seen = None;
        let mut output = ctx.run_ui(Default::default(), |ui| {
            if shown {
                modal(ui.ctx(), "menu", 300.0, |ui| seen = Some(opening(ui)));
            }
        });
        output.textures_delta.clear();
        seen
    }

    #[test]
    fn a_sheet_knows_it_is_opening_only_in_its_first_pass() {
        let ctx = egui::Context::default();
        assert_eq!(pass(&ctx, true), Some(true));
        assert_eq!(pass(&ctx, true), Some(false), "still open");
        assert_eq!(pass(&ctx, false), None);
        assert_eq!(pass(&ctx, true), Some(true), "opened again: at its top");
    }
}
