//! The framing sheet as the player sees it: the whole photo with the framing of the board's shape
//! over it (the rest dimmed, the board's tiles outlined), and beside or below it the boards
//! that suit the photo, Turn, zoom out and in, Cancel and Play. The framing moves with the
//! player's fingers, the mouse, the wheel and the keys (the `framing` module reads them).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::board::theme::{Palette, Theme};
use crate::hud::style::{self, rgb};
use crate::hud::thumbnails::texture;
use crate::hud::{Actions, Hud, Sheet, View};
use crate::messages::Pending;
use crate::photo::framing::{self, FramingCommand, FramingSheet, FramingState};
use crate::play::settings::Settings;

/// The preview on show, as a texture, and the preview's version it was made from; and the
/// controls' last overflow reported.
#[derive(Default)]
pub(in crate::hud) struct Drawn {
    texture: Option<(u64, egui::TextureHandle)>,
    overflow: Option<egui::Rect>,
}

/// The sheet.
pub(in crate::hud) fn show(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut hud: ResMut<Hud>,
    framing: Res<FramingState>,
    view: View,
    mut actions: Actions,
    mut drawn: Local<Drawn>,
) -> Result {
    let Some(sheet) = framing.sheet.as_ref() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let drawn = &mut *drawn;
    if drawn
        .texture
        .as_ref()
        .is_none_or(|(v, _)| *v != sheet.version)
    {
        drawn.texture = Some((sheet.version, texture(ctx, "framing", &sheet.preview)));
        let ms = sheet.decoded.elapsed().as_secs_f64() * 1000.0;
        info!("framing: the sheet is drawn {ms:.0} ms after the photo was decoded");
    }
    let Some((_, texture)) = drawn.texture.as_ref() else {
        return Ok(());
    };
    let layout = &view.layout;
    let photo = rect(layout.in_points(framing::photo_rect(layout, sheet.size())));
    let bar = rect(layout.in_points(framing::controls_rect(layout)));
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui_size(layout.window_points()));
    let theme = settings.theme;
    egui::Area::new(egui::Id::new("framing"))
        .fixed_pos(egui::Pos2::ZERO)
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            ui.set_min_size(window.size());
            // The sheet's background is the window's own (the clear colour): the board and
            // the panel are not drawn under it, and a software renderer would feel a
            // full-window fill on every frame of a drag.
            let painter = ui.painter();
            let uv = egui::Rect::from_min_max(egui::Pos2::ZERO, egui::pos2(1.0, 1.0));
            painter.image(texture.id(), photo, uv, egui::Color32::WHITE);
            draw_frame(painter, theme, sheet, photo);
            let place = bar.shrink(8.0);
            let short = layout.compact;
            let shown = ui.scope_builder(egui::UiBuilder::new().max_rect(place), |ui| {
                controls(ui, (theme, short), sheet, &mut hud, &mut actions);
            });
            let shown = shown.response.rect;
            crate::hud::panel::report_overflow("framing sheet", shown, place, &mut drawn.overflow);
        });
    Ok(())
}

/// The framing over the photo: the outside dimmed, the framing outlined, its tiles marked.
fn draw_frame(painter: &egui::Painter, theme: Theme, sheet: &FramingSheet, photo: egui::Rect) {
    let (w, _) = sheet.size();
    let crop = sheet.framing.crop();
    let scale = photo.width() / w as f32;
    let at = |x: u32, y: u32| photo.min + egui::vec2(x as f32, y as f32) * scale;
    let framed = egui::Rect::from_min_max(
        at(crop.x, crop.y),
        at(crop.x + crop.width, crop.y + crop.height),
    );
    let dim = egui::Color32::from_black_alpha(170);
    for outside in [
        egui::Rect::from_min_max(photo.min, egui::pos2(photo.max.x, framed.min.y)),
        egui::Rect::from_min_max(egui::pos2(photo.min.x, framed.max.y), photo.max),
        egui::Rect::from_min_max(
            egui::pos2(photo.min.x, framed.min.y),
            egui::pos2(framed.min.x, framed.max.y),
        ),
        egui::Rect::from_min_max(
            egui::pos2(framed.max.x, framed.min.y),
            egui::pos2(photo.max.x, framed.max.y),
        ),
    ] {
        painter.rect_filled(outside, 0.0, dim);
    }
    let (columns, rows) = sheet.framing.board;
    let line = egui::Stroke::new(1.0, egui::Color32::from_white_alpha(110));
    for c in 1..columns {
        let x = framed.min.x + framed.width() * c as f32 / columns as f32;
        painter.line_segment(
            [egui::pos2(x, framed.min.y), egui::pos2(x, framed.max.y)],
            line,
        );
    }
    for r in 1..rows {
        let y = framed.min.y + framed.height() * r as f32 / rows as f32;
        painter.line_segment(
            [egui::pos2(framed.min.x, y), egui::pos2(framed.max.x, y)],
            line,
        );
    }
    let stroke = egui::Stroke::new(3.0, rgb(Palette::of(theme).accent));
    painter.rect_stroke(framed, 0.0, stroke, egui::StrokeKind::Outside);
}

/// The sheet's controls: the boards that suit the photo, Turn and zoom, Cancel and Play. Play
/// and Cancel sit at the bottom, in thumb reach, and are always on screen; the rest fills the
/// room above them (on a short window, a phone on its side, without the hint; the boards
/// scroll where they do not fit).
fn controls(
    ui: &mut egui::Ui,
    (theme, short): (Theme, bool),
    sheet: &FramingSheet,
    hud: &mut Hud,
    actions: &mut Actions,
) {
    if short {
        // Three rows of boards above Turn and Play in a phone's height on its side.
        ui.spacing_mut().item_spacing.y = 4.0;
    }
    ui.with_layout(egui::Layout::bottom_up(egui::Align::Min), |ui| {
        play_or_cancel(ui, theme, sheet, hud, actions);
        turn_and_zoom(ui, sheet, actions);
        ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
            // On a phone on its side the photo and its framing say what the sheet is for: the
            // room goes to the boards, every one of them in sight (three rows of them fit).
            if !short {
                ui.label(style::heading("Frame your photo"));
                let hint = "Drag to move the frame; pinch, scroll or +/− to zoom.";
                ui.label(egui::RichText::new(hint).small().weak());
            }
            // Rows of boards in the room left; where they still do not fit (large text) they
            // scroll, with the bar always in sight, so no board is hidden without a sign.
            let room = ui.available_height();
            let shown = egui::ScrollArea::vertical()
                .scroll_source(egui::scroll_area::ScrollSource::ALL)
                .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                .show(ui, |ui| {
                    ui.horizontal_wrapped(|ui| boards(ui, theme, sheet, actions));
                });
            if shown.content_size.y > room + 0.5 && ui.ctx().zoom_factor() <= 1.0 {
                warn_once_hidden(shown.content_size.y, room);
            }
        });
    });
}

/// Warns (the layout checks under Xvfb look for it) when boards are out of sight at the
/// text size the app is designed for.
fn warn_once_hidden(needed: f32, room: f32) {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        warn!("the framing sheet's boards run past its edge: {needed:.0} points in {room:.0}");
    });
}

/// The boards that suit the photo, as chips; the one framed is marked.
fn boards(ui: &mut egui::Ui, theme: Theme, sheet: &FramingSheet, actions: &mut Actions) {
    for (columns, rows) in sheet.boards() {
        let chosen = sheet.framing.board == (columns, rows);
        if style::chip(ui, theme, chosen, &format!("{columns}×{rows}")).clicked() {
            actions.framing.write(FramingCommand::Board(columns, rows));
        }
    }
}

/// Turn the photo, zoom out and in.
fn turn_and_zoom(ui: &mut egui::Ui, sheet: &FramingSheet, actions: &mut Actions) {
    ui.horizontal(|ui| {
        if style::button(ui, true, "↻ Turn").clicked() {
            actions.framing.write(FramingCommand::Turn);
        }
        let (narrowest, widest) = (sheet.framing.min_width(), sheet.framing.max_width());
        if style::button(ui, sheet.framing.width < widest - 0.5, "−").clicked() {
            actions.framing.write(FramingCommand::Zoom(0.8));
        }
        if style::button(ui, sheet.framing.width > narrowest + 0.5, "+").clicked() {
            actions.framing.write(FramingCommand::Zoom(1.25));
        }
    });
}

/// Cancel leaves everything as it was; Play starts a game cut from the framing (asked first
/// when a game with moves would be lost).
fn play_or_cancel(
    ui: &mut egui::Ui,
    theme: Theme,
    sheet: &FramingSheet,
    hud: &mut Hud,
    actions: &mut Actions,
) {
    let half = ((ui.available_width() - ui.spacing().item_spacing.x) / 2.0).floor();
    ui.horizontal(|ui| {
        if style::wide_button(ui, true, "Cancel", half).clicked() {
            hud.sheet = Sheet::None;
        }
        if style::primary_button(ui, theme, true, "Play", half).clicked() {
            let (columns, rows) = sheet.framing.board;
            let board = (columns as usize, rows as usize);
            let pending = Pending::Framed(sheet.framed(), board);
            actions.replace.write(crate::messages::ReplaceGame(pending));
        }
    });
}

fn rect(rect: Rect) -> egui::Rect {
    egui::Rect::from_min_max(
        egui::pos2(rect.min.x, rect.min.y),
        egui::pos2(rect.max.x, rect.max.y),
    )
}

fn egui_size(size: Vec2) -> egui::Vec2 {
    egui::vec2(size.x, size.y)
}
