//! Small pictures of the bundled photos, so the player picks a photo by sight, not by file
//! name. They are decoded once, in the background, the first time the menu is opened.

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use bevy_egui::egui;
use image::RgbaImage;

use crate::photo::{self, BUNDLED};

/// The side of a thumbnail, in pixels.
pub const THUMBNAIL_SIDE: u32 = 112;

/// The bundled photos' thumbnails: being made, or ready as egui textures.
#[derive(Resource, Default)]
pub struct Thumbnails {
    task: Option<Task<Vec<(String, RgbaImage)>>>,
    /// (bundled photo name, texture), in the order of [`BUNDLED`].
    pub ready: Vec<(String, egui::TextureHandle)>,
    started: bool,
}

impl Thumbnails {
    /// Starts making them, once.
    pub fn request(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        self.task = Some(AsyncComputeTaskPool::get().spawn(async {
            BUNDLED
                .iter()
                .filter_map(|(name, bytes)| {
                    let image = photo::decode(bytes).ok()?;
                    Some((name.to_string(), thumbnail(&image)))
                })
                .collect()
        }));
    }

    /// Turns finished thumbnails into textures.
    pub fn poll(&mut self, ctx: &egui::Context) {
        let Some(task) = self.task.as_mut() else {
            return;
        };
        let Some(done) = check_ready(task) else {
            ctx.request_repaint();
            return;
        };
        self.task = None;
        self.ready = done
            .into_iter()
            .map(|(name, image)| {
                let texture = texture(ctx, &format!("thumbnail-{name}"), &image);
                (name, texture)
            })
            .collect();
    }
}

/// A square thumbnail of a picture.
pub fn thumbnail(image: &image::DynamicImage) -> RgbaImage {
    photo::square(image, THUMBNAIL_SIDE)
}

/// An egui texture of a picture.
pub fn texture(ctx: &egui::Context, name: &str, image: &RgbaImage) -> egui::TextureHandle {
    let pixels = egui::ColorImage::from_rgba_unmultiplied(
        [image.width() as usize, image.height() as usize],
        image.as_raw(),
    );
    ctx.load_texture(name, pixels, egui::TextureOptions::LINEAR)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Thumbnails>();
}
