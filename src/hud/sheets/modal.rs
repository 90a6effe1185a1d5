//! What every sheet over the board is built from: its width for the window, a modal frame
//! that closes on a tap beside it, and a title with a close button.

use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::egui::scroll_area::ScrollSource;

use crate::hud::style;
use crate::hud::{Hud, Sheet};

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
    // A strip of the board shows above and below it: 64 points, less on a short window (a
    // phone on its side at large text is 170 points tall).
    let height = ctx.content_rect().height();
    let tallest = height - (height * 0.15).min(64.0);
    let layer = egui::LayerId::new(egui::Order::Foreground, egui::Id::new(id));
    let opening = !ctx.memory(|memory| memory.areas().visible_last_frame(&layer));
    let (sheet, kept_top) = held_in_place(ctx, id, opening);
    let shown = sheet.show(ctx, |ui| {
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
    });
    if kept_top.is_none() && !opening {
        let top = shown.response.rect.top() - ctx.content_rect().top();
        ctx.data_mut(|data| data.insert_temp(top_id(id), top));
    }
    shown.backdrop_response.clicked()
}

/// What a sheet covers: greyed, out of reach, and out of a screen reader's tree (its nodes
/// hidden, so that New game behind the menu is neither read nor pressed).
pub fn covered(ui: &mut egui::Ui) {
    ui.disable();
    ui.ctx()
        .accesskit_node_builder(ui.unique_id(), |node| node.set_hidden());
}

/// Where a sheet's top is kept while it stays open (see [`held_in_place`]).
fn top_id(id: &str) -> egui::Id {
    egui::Id::new((id, "top"))
}

/// A sheet opens centred; once shown, its top stays where it is while it is open, so that
/// what is under the pointer stays there as the sheet grows or shrinks (a line of advice
/// coming or going under a field). The modal to show, and the top kept, if one is.
fn held_in_place(ctx: &egui::Context, id: &str, opening: bool) -> (egui::Modal, Option<f32>) {
    let modal = egui::Modal::new(egui::Id::new(id));
    if opening {
        ctx.data_mut(|data| data.remove::<f32>(top_id(id)));
        return (modal, None);
    }
    match ctx.data(|data| data.get_temp::<f32>(top_id(id))) {
        Some(top) => {
            let area = egui::Modal::default_area(egui::Id::new(id))
                .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, top));
            (modal.area(area), Some(top))
        }
        None => (modal, None),
    }
}

/// Where a sheet's contents find whether it is opening (its inner scroll areas start at the
/// top then): see [`opening`].
const OPENING: &str = "sheet-opening";

/// Whether the sheet being drawn has just opened: a scroll area inside it starts at its top.
pub fn opening(ui: &egui::Ui) -> bool {
    ui.data(|data| data.get_temp(egui::Id::new(OPENING)))
        .unwrap_or(false)
}

/// A sheet's title with a close button: the button at the right, the title beside it, or
/// below it where the two do not fit one row (a small phone at large text), so that no word
/// of the title is broken.
pub fn title(ui: &mut egui::Ui, text: &str, hud: &mut Hud) {
    let heading = egui::RichText::new(text).heading();
    let spacing = ui.spacing();
    let close = style::text_width(ui, "Close", egui::TextStyle::Button)
        + 2.0 * spacing.button_padding.x
        + spacing.item_spacing.x;
    let beside =
        style::text_width(ui, text, egui::TextStyle::Heading) + close <= ui.available_width();
    let row = egui::vec2(ui.available_width(), style::MIN_TOUCH);
    let layout = egui::Layout::right_to_left(egui::Align::Center);
    ui.allocate_ui_with_layout(row, layout, |ui| {
        if style::button(ui, true, "Close").clicked() {
            hud.sheet = Sheet::None;
        }
        if beside {
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                ui.label(heading.clone());
            });
        }
    });
    if !beside {
        ui.add(egui::Label::new(heading).wrap());
    }
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

    /// One pass of `ctx` with a sheet of `lines` lines; where its contents began.
    fn top_of_sheet(ctx: &egui::Context, lines: usize) -> f32 {
        let mut top = 0.0;
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(400.0, 800.0),
            )),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            modal(ui.ctx(), "setup", 300.0, |ui| {
                top = ui.min_rect().top();
                for line in 0..lines {
                    ui.label(format!("line {line}"));
                }
            });
        });
        output.textures_delta.clear();
        top
    }

    /// Two passes of a button, covered or not, the second with a screen reader's press on
    /// it: whether the press took, and whether the button's container was hidden.
    fn pressed_by_a_screen_reader(covering: bool) -> (bool, bool) {
        use egui::accesskit::{Action, ActionRequest, TreeId};
        let ctx = egui::Context::default();
        ctx.enable_accesskit();
        let (mut button, mut container, mut pressed, mut hidden) = (None, None, false, false);
        for pass in 0..2 {
            let mut input = egui::RawInput::default();
            if let (1, Some(id)) = (pass, button) {
                input
                    .events
                    .push(egui::Event::AccessKitActionRequest(ActionRequest {
                        action: Action::Click,
                        target_tree: TreeId::ROOT,
                        target_node: egui::Id::accesskit_id(&id),
                        data: None,
                    }));
            }
            let mut output = ctx.run_ui(input, |ui| {
                ui.scope(|ui| {
                    if covering {
                        covered(ui);
                    }
                    container = Some(ui.unique_id());
                    let response = ui.button("New game");
                    button = Some(response.id);
                    pressed |= response.clicked();
                });
            });
            output.textures_delta.clear();
            let update = output.platform_output.accesskit_update.expect("a tree");
            let id = container.expect("drawn").accesskit_id();
            hidden = update
                .nodes
                .iter()
                .any(|(node, data)| *node == id && data.is_hidden());
        }
        (pressed, hidden)
    }

    #[test]
    fn what_a_sheet_covers_is_hidden_from_a_screen_reader_and_cannot_be_pressed() {
        assert_eq!(pressed_by_a_screen_reader(false), (true, false));
        assert_eq!(pressed_by_a_screen_reader(true), (false, true));
    }

    #[test]
    fn a_sheet_that_grows_keeps_its_top_where_it_was() {
        let ctx = egui::Context::default();
        for _ in 0..3 {
            top_of_sheet(&ctx, 3);
        }
        let before = top_of_sheet(&ctx, 3);
        for _ in 0..3 {
            top_of_sheet(&ctx, 12);
        }
        let grown = top_of_sheet(&ctx, 12);
        assert!(
            (grown - before).abs() < 0.5,
            "the sheet's top moved from {before} to {grown} as it grew"
        );
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
