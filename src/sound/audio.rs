//! Sound effects: a click for every slide, a bump for an illegal input, a chord for the win,
//! and the distance tones `tone` chooses (made here the first time each is heard). The
//! effects are built in; the Sound setting mutes them, and they stop when the app goes to the
//! background.

use std::collections::HashMap;
use std::sync::Arc;

use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings};
use bevy::prelude::*;

use crate::app::lifecycle::Suspended;
use crate::frame::AppSet;
use crate::messages::{Change, GameChanged};
use crate::play::settings::Settings;
use crate::sound::tone::{
    CHIME_SECONDS, Chime, NOTE_SECONDS, PlayTone, STEPS, Tone, frequency, wav,
};

/// The three effects, loaded once.
#[derive(Resource)]
struct Sounds {
    click: Handle<AudioSource>,
    bump: Handle<AudioSource>,
    win: Handle<AudioSource>,
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Made>()
        .add_systems(Startup, load_sounds)
        .add_systems(
            Update,
            (
                play_sounds,
                play_tones.after(crate::sound::tone::ChooseTones),
                silence_when_suspended,
            )
                .in_set(AppSet::Animate),
        );
}

fn source(bytes: impl Into<Arc<[u8]>>) -> AudioSource {
    AudioSource {
        bytes: bytes.into(),
    }
}

/// The distance tones made so far, by note and pan (a pan in tenths), and the chimes.
#[derive(Resource, Default)]
struct Made {
    notes: HashMap<(u32, i8), Handle<AudioSource>>,
    chimes: HashMap<(Chime, i8), Handle<AudioSource>>,
}

impl Made {
    /// The sounds of a tone, made the first time each is heard.
    fn sounds(
        &mut self,
        tone: &Tone,
        sources: &mut Assets<AudioSource>,
    ) -> Vec<Handle<AudioSource>> {
        let pan = (tone.pan * 10.0).round() as i8;
        let note = self.notes.entry((tone.step, pan)).or_insert_with(|| {
            let hz = frequency(tone.step);
            sources.add(source(wav(hz, hz, NOTE_SECONDS, tone.pan)))
        });
        let mut sounds = vec![note.clone()];
        if let Some(chime) = tone.chime {
            let made = self.chimes.entry((chime, pan)).or_insert_with(|| {
                let (from, to) = match chime {
                    Chime::Home => (frequency(STEPS + 7), frequency(STEPS + 12)),
                    Chime::Left => (frequency(STEPS + 12), frequency(STEPS + 7)),
                };
                sources.add(source(wav(from, to, CHIME_SECONDS, tone.pan)))
            });
            sounds.push(made.clone());
        }
        sounds
    }
}

/// Plays the distance tones `tone` chose.
fn play_tones(
    mut commands: Commands,
    mut tones: MessageReader<PlayTone>,
    mut made: ResMut<Made>,
    mut sources: ResMut<Assets<AudioSource>>,
) {
    for PlayTone(tone) in tones.read() {
        for handle in made.sounds(tone, &mut sources) {
            commands.spawn((AudioPlayer(handle), PlaybackSettings::DESPAWN));
        }
    }
}

fn load_sounds(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
    commands.insert_resource(Sounds {
        click: sources.add(source(
            include_bytes!("../../assets/sounds/click.wav").as_slice(),
        )),
        bump: sources.add(source(
            include_bytes!("../../assets/sounds/bump.wav").as_slice(),
        )),
        win: sources.add(source(
            include_bytes!("../../assets/sounds/win.wav").as_slice(),
        )),
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
