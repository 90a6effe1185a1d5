//! The whole photo, to look at.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::modal::{modal, sheet_width, title};
use crate::hud::thumbnails::texture;
use crate::hud::{Hud, View};

/// The picture on show in the preview, as a texture.
#[derive(Default)]
pub(super) struct PreviewTexture(Option<(u64, egui::TextureHandle)>);

/// The sheet.
pub(super) fn show(
    mut contexts: EguiContexts,
    mut hud: ResMut<Hud>,
    view: View,
    mut preview: Local<PreviewTexture>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let width = sheet_width(view.layout.window_points());
    let image = preview_texture(ctx, &view, &mut preview);
    let closed = modal(ctx, "preview", width, |ui| {
        title(ui, "The photo", &mut hud);
        if let Some((texture, size)) = image {
            let scale = (width / size.x).min(view.layout.window_points().y * 0.7 / size.y);
            ui.add(egui::Image::new((texture, size * scale)).corner_radius(12));
        }
    });
    super::close_if(closed, &mut hud);
    Ok(())
}

fn preview_texture(
    ctx: &egui::Context,
    view: &View,
    preview: &mut PreviewTexture,
) -> Option<(egui::TextureId, egui::Vec2)> {
    let picture = view.tiles.picture.as_ref()?;
    if preview
        .0
        .as_ref()
        .is_none_or(|(v, _)| *v != view.tiles.version)
    {
        preview.0 = Some((view.tiles.version, texture(ctx, "preview", picture)));
    }
    let size = egui::vec2(picture.width() as f32, picture.height() as f32);
    preview.0.as_ref().map(|(_, t)| (t.id(), size))
}
