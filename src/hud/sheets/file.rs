//! The app's own file dialog, on a desktop whose system dialog cannot open (no portal and no
//! zenity, as on a plain X11 desktop): the folders browsed in a window of the app's, a photo
//! file chosen there read as one chosen in the system's dialog (play-test 59: "Choose a
//! photo…" could only say "drop a photo on the window").

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui_file_dialog::{DialogState, FileDialog};

use crate::hud::{Hud, Sheet, View};
use crate::messages::PhotoFileChosen;

/// The dialog while it is open (where the player has browsed to).
#[derive(Default)]
pub(in crate::hud) struct Browsing(Option<FileDialog>);

pub(in crate::hud) fn show(
    mut contexts: EguiContexts,
    mut hud: ResMut<Hud>,
    view: View,
    mut browsing: Local<Browsing>,
    mut chosen: MessageWriter<PhotoFileChosen>,
) -> Result {
    if hud.sheet != Sheet::PickFile {
        browsing.0 = None;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let window = view.layout.window_points();
    let dialog = browsing.0.get_or_insert_with(|| opened(window));
    dialog.update(ctx);
    match dialog.state() {
        DialogState::Open => {}
        DialogState::Picked(path) => {
            chosen.write(PhotoFileChosen(path.clone()));
            hud.sheet = Sheet::None;
        }
        _ => hud.sheet = Sheet::None,
    }
    Ok(())
}

/// A dialog for one photo file, opened in the Pictures folder (else the home folder), as
/// large as the window allows.
fn opened(window: Vec2) -> FileDialog {
    let size = egui::vec2((window.x - 24.0).min(760.0), (window.y - 24.0).min(520.0));
    let start = directories::UserDirs::new().and_then(|dirs| {
        dirs.picture_dir()
            .map(|pictures| pictures.to_path_buf())
            .or_else(|| Some(dirs.home_dir().to_path_buf()))
    });
    let mut dialog = FileDialog::new()
        .title("Choose a photo")
        .as_modal(true)
        .default_size(size)
        .max_size(size)
        .min_size(size.min(egui::vec2(300.0, 240.0)))
        .add_file_filter_extensions("Photos", vec!["png", "jpg", "jpeg", "webp"])
        .default_file_filter("Photos");
    if let Some(start) = start {
        dialog = dialog.initial_directory(start);
    }
    dialog.pick_file();
    dialog
}
