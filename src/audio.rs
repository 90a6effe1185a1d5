//! Sound effects: a click for every slide, a bump for an illegal input, a chord for the win.
//! The sounds are built in; the Sound setting mutes them, and they stop when the app goes to
//! the background.

use std::sync::Arc;

use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings};
use bevy::prelude::*;

use crate::frame::AppSet;
use crate::lifecycle::Suspended;
use crate::messages::{Change, GameChanged};
use crate::settings::Settings;

/// The three effects, loaded once.
#[derive(Resource)]
struct Sounds {
    click: Handle<AudioSource>,
    bump: Handle<AudioSource>,
    win: Handle<AudioSource>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_sounds).add_systems(
        Update,
        (play_sounds, silence_when_suspended).in_set(AppSet::Animate),
    );
}

fn source(bytes: &'static [u8]) -> AudioSource {
    AudioSource {
        bytes: Arc::from(bytes),
    }
}

fn load_sounds(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
    commands.insert_resource(Sounds {
        click: sources.add(source(include_bytes!("../assets/sounds/click.wav"))),
        bump: sources.add(source(include_bytes!("../assets/sounds/bump.wav"))),
        win: sources.add(source(include_bytes!("../assets/sounds/win.wav"))),
    });
}

fn play_sounds(
    mut commands: Commands,
    mut changes: MessageReader<GameChanged>,
    settings: Res<Settings>,
    sounds: Option<Res<Sounds>>,
) {
    let Some(sounds) = sounds else {
        changes.clear();
        return;
    };
    for changed in changes.read() {
        if !settings.sound {
            continue;
        }
        let handle = match changed.change {
            Change::Slid { .. } => &sounds.click,
            Change::Bumped(_) => &sounds.bump,
            // A blind solve said done on a board not solved is no win.
            Change::Won(ref game) if game.is_dnf() => continue,
            Change::Won(_) => &sounds.win,
            Change::Reset(..) | Change::Helped | Change::Left(_) => continue,
        };
        commands.spawn((AudioPlayer(handle.clone()), PlaybackSettings::DESPAWN));
    }
}

/// Stops every sound when the app goes to the background.
fn silence_when_suspended(
    mut commands: Commands,
    suspended: Res<Suspended>,
    playing: Query<Entity, With<AudioPlayer>>,
) {
    if suspended.is_changed() && suspended.0 {
        for entity in &playing {
            commands.entity(entity).despawn();
        }
    }
}
