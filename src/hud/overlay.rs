//! What is painted over the board in the controls' pass: the whole photo while Peek is held,
//! the notices, and the win's brief celebration (the marks on the tiles are board_marks.rs's).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::style::{self, rgb};
use super::{Hud, Sheet, View};
use crate::board::layout::ScreenLayout;
use crate::board::theme::{Palette, Theme};
use crate::platform::SystemPreferences;
use crate::play::settings::Settings;

/// How long the win's celebration lasts, in seconds.
pub const CELEBRATION_SECONDS: f32 = 2.5;

pub(super) fn show(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    hud: Res<Hud>,
    view: View,
    system: Res<SystemPreferences>,
    mut picture: Local<Picture>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("board-overlay"),
    ));
    if hud.peeking && hud.sheet == Sheet::None {
        peek(ctx, &painter, &view, &mut picture);
    }
    notices(ctx, settings.theme, &hud, &view);
    // The win's own moment only: not again when the finished game comes back after its
    // review (play-test 59: confetti after Review → Done).
    if let Some(since) = hud.won_at.filter(|_| hud.result_open) {
        let t = since.elapsed().as_secs_f32();
        if t < CELEBRATION_SECONDS {
            let calm = settings.calm_motion(system.reduce_motion);
            celebrate(ctx, settings.theme, &view, t, calm);
            ctx.request_repaint();
        }
    }
    Ok(())
}

/// The whole photo as a texture, made again when the tiles are cut anew.
#[derive(Default)]
pub(super) struct Picture(Option<(u64, egui::TextureHandle)>);

/// The whole photo over the board, while the player holds Peek.
fn peek(ctx: &egui::Context, painter: &egui::Painter, view: &View, picture: &mut Picture) {
    let Some(image) = view.tiles.picture.as_ref() else {
        return;
    };
    if picture
        .0
        .as_ref()
        .is_none_or(|(v, _)| *v != view.tiles.version)
    {
        let texture = super::thumbnails::texture(ctx, "peek", image);
        picture.0 = Some((view.tiles.version, texture));
    }
    let Some((_, texture)) = picture.0.as_ref() else {
        return;
    };
    let board = view.layout.in_points(view.layout.board_rect());
    let rect = egui::Rect::from_min_max(
        egui::pos2(board.min.x, board.min.y),
        egui::pos2(board.max.x, board.max.y),
    );
    let whole = egui::Rect::from_min_max(egui::Pos2::ZERO, egui::pos2(1.0, 1.0));
    painter.image(texture.id(), rect, whole, egui::Color32::WHITE);
}

/// Where the notices go, in the controls' points: in the panel, from its status area down,
/// never over a tile (play-test 59: a notice covered the board's bottom row and took the taps
/// meant for it) nor over the menu, Peek and the counters (play-test 70); while a sheet is
/// open, at the window's foot, over the sheet's dimmed backdrop and clear of its title and
/// Close (play-test 70: a notice covered Close). Returns the corner, how the card hangs from
/// it, and its width.
pub fn notice_place(layout: &ScreenLayout, sheet_open: bool) -> (egui::Pos2, egui::Align2, f32) {
    if sheet_open {
        let window = layout.window_points();
        let foot = (layout.window.y - layout.usable.max.y.min(layout.window.y)) / layout.ui_scale;
        let at = egui::pos2(window.x / 2.0, window.y - foot - 8.0);
        return (at, egui::Align2::CENTER_BOTTOM, window.x - 32.0);
    }
    let panel = layout.in_points(layout.panel);
    let at = egui::pos2(panel.min.x + 8.0, super::panel::status_top(layout));
    (at, egui::Align2::LEFT_TOP, panel.width() - 16.0)
}

/// The notices, as a card the pointer passes through (a tap reaches the control or the board
/// under it); they go by themselves.
fn notices(ctx: &egui::Context, theme: Theme, hud: &Hud, view: &View) {
    if hud.notices.is_empty() {
        return;
    }
    let p = Palette::of(theme);
    let (at, pivot, width) = notice_place(&view.layout, hud.sheet != Sheet::None);
    egui::Area::new(egui::Id::new("notices"))
        .fixed_pos(at)
        .pivot(pivot)
        .order(egui::Order::Tooltip)
        .interactable(false)
        .show(ctx, |ui| {
            ui.set_max_width(width.max(120.0));
            style::card(theme).show(ui, |ui| {
                for (notice, _) in &hud.notices {
                    ui.label(egui::RichText::new(notice).color(rgb(p.warning)));
                }
            });
        });
    ctx.request_repaint_after(std::time::Duration::from_secs(1));
}

/// A "Solved!" banner and a shower of confetti over the finished photo, fading out (the
/// banner alone when motion is calmed).
fn celebrate(ctx: &egui::Context, theme: Theme, view: &View, t: f32, calm: bool) {
    let p = Palette::of(theme);
    let board = view.layout.in_points(view.layout.board_rect());
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::new("celebration"),
    ));
    let fade = (1.0 - t / CELEBRATION_SECONDS).clamp(0.0, 1.0);
    let colours = [p.accent, p.good, p.warning, p.text];
    let pieces = if calm { 0 } else { 48u32 };
    for i in 0..pieces {
        // A fixed scatter: each piece has its own column, speed, size and colour.
        let r = |salt: u32| {
            ((i.wrapping_mul(2_654_435_761) ^ salt.wrapping_mul(40_503)) % 1000) as f32 / 1000.0
        };
        let x = board.min.x + r(1) * board.width();
        let y = board.min.y + (r(2) * 0.3 + t * (0.4 + r(3) * 0.5)) * board.height();
        if y > board.max.y {
            continue;
        }
        let size = egui::vec2(5.0 + r(4) * 6.0, 3.0 + r(5) * 4.0);
        let colour = rgb(colours[(i % 4) as usize]).gamma_multiply(fade);
        painter.rect_filled(
            egui::Rect::from_center_size(egui::pos2(x, y), size),
            1.5,
            colour,
        );
    }
    let galley = painter.layout_no_wrap(
        "Solved!".into(),
        egui::FontId::new(44.0, style::bold()),
        rgb(p.on_accent),
    );
    let center = egui::pos2(board.center().x, board.min.y + board.height() * 0.2);
    let back = egui::Rect::from_center_size(center, galley.size() + egui::vec2(40.0, 20.0));
    painter.rect_filled(back, 18.0, rgb(p.accent).gamma_multiply(fade));
    painter.galley(
        back.min + egui::vec2(20.0, 10.0),
        galley,
        rgb(p.on_accent).gamma_multiply(fade),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::layout::layout_for;
    use crate::platform::SafeArea;

    #[test]
    fn a_notice_covers_no_tile_upright_or_on_its_side() {
        for window in [
            Vec2::new(360.0, 640.0),
            Vec2::new(800.0, 360.0),
            Vec2::new(1100.0, 720.0),
        ] {
            let layout = layout_for(window, SafeArea::default(), 4, 4);
            let board = layout.in_points(layout.board_rect());
            let board = egui::Rect::from_min_max(
                egui::pos2(board.min.x, board.min.y),
                egui::pos2(board.max.x, board.max.y),
            );
            let (at, pivot, width) = notice_place(&layout, false);
            // The card hangs down and right from its corner: any height stays off the board.
            assert_eq!(pivot, egui::Align2::LEFT_TOP);
            let card = egui::Rect::from_min_size(at, egui::vec2(width, 2000.0));
            assert!(!card.intersects(board), "{window}: {card:?} over {board:?}");
            // Nor over the menu's row at the panel's top.
            let panel = layout.in_points(layout.panel);
            assert!(
                at.y >= panel.min.y + 8.0 + 48.0,
                "{window}: {at:?} in {panel:?}"
            );
        }
    }
}
