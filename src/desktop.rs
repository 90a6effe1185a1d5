//! Desktop photo picking: the async file dialog (rfd) and drag and drop onto the window.
//! Phones get their own pickers in the platform code.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::{IoTaskPool, Task, futures::check_ready};
use bevy::window::FileDragAndDrop;

use crate::board::Notice;
use crate::hud::PickPhoto;
use crate::photo::PhotoSource;
use crate::play::Settings;

/// The open file dialog, if any, and when it opened; the frame keeps running while it is open.
#[derive(Resource, Default)]
struct PhotoDialog(Option<(Task<Option<PathBuf>>, Instant)>);

/// A dialog that comes back empty faster than this never opened (no portal, no zenity).
const NO_DIALOG: Duration = Duration::from_millis(400);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PhotoDialog>()
        .add_systems(Update, (open_dialog, poll_dialog, dropped_files));
}

fn open_dialog(mut requests: MessageReader<PickPhoto>, mut dialog: ResMut<PhotoDialog>) {
    if requests.read().count() == 0 || dialog.0.is_some() {
        return;
    }
    let task = IoTaskPool::get().spawn(async {
        rfd::AsyncFileDialog::new()
            .set_title("Choose a photo")
            .add_filter("Photos", &["png", "jpg", "jpeg", "webp"])
            .pick_file()
            .await
            .map(|file| file.path().to_path_buf())
    });
    dialog.0 = Some((task, Instant::now()));
}

fn poll_dialog(
    mut dialog: ResMut<PhotoDialog>,
    mut settings: ResMut<Settings>,
    mut notices: MessageWriter<Notice>,
) {
    let Some((task, opened)) = dialog.0.as_mut() else {
        return;
    };
    let opened = *opened;
    if let Some(picked) = check_ready(task) {
        dialog.0 = None;
        match picked {
            Some(path) => settings.photo = PhotoSource::File(path),
            None if opened.elapsed() < NO_DIALOG => {
                notices.write(Notice(
                    "The file dialog could not open here; drop a photo on the window instead."
                        .into(),
                ));
            }
            None => {}
        }
    }
}

fn dropped_files(mut drops: MessageReader<FileDragAndDrop>, mut settings: ResMut<Settings>) {
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            settings.photo = PhotoSource::File(path_buf.clone());
        }
    }
}
