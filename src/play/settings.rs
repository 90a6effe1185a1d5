//! The player's preferences in the app: difficulty, tile numbers and marks, the meter, sound,
//! haptics, playback speed, the theme ([`Preferences`], with their ranges, are in the rules
//! crate). They change only here, by [`SettingsCommand`]s (the controls', and what `persist`
//! read at start); everything else reads them. What the player plays with now (the photo, the
//! next game's board) is the session's (`session`).

use bevy::prelude::*;

use crate::frame::AppSet;
use crate::game::{Difficulty, Preferences, TEXT_SIZES, Theme, speed_in_range};
use crate::messages::Restored;

/// The player's settings (kept in the settings file).
#[derive(Resource, Clone, Debug, Default, PartialEq, Deref)]
pub struct Settings(pub Preferences);

/// A change of the settings.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum SettingsCommand {
    /// The difficulty of new games.
    Difficulty(Difficulty),
    /// Tile numbers on or off.
    ShowNumbers(bool),
    /// Marks on tiles already in place.
    MarkCorrect(bool),
    /// The shortest-path meter.
    Meter(bool),
    /// Sound.
    Sound(bool),
    /// Haptics.
    Haptics(bool),
    /// The speed of the app's solutions, in moves a second (brought into range).
    Speed(f32),
    /// Dark or light.
    Theme(Theme),
    /// The text size in percent, or the device's (`None`).
    TextSize(Option<u16>),
    /// Calm motion, or the device's setting (`None`).
    ReduceMotion(Option<bool>),
    /// Hover: a tile in line with the gap slides when the pointer enters it.
    Hover(bool),
    /// Instant slides: no slide shown.
    Instant(bool),
    /// The distance tone after each move.
    Tone(bool),
}

impl SettingsCommand {
    /// The preferences with this change made.
    pub fn apply(self, preferences: &mut Preferences) {
        match self {
            SettingsCommand::Difficulty(d) => preferences.difficulty = d,
            SettingsCommand::ShowNumbers(on) => preferences.show_numbers = Some(on),
            SettingsCommand::MarkCorrect(on) => preferences.mark_correct = on,
            SettingsCommand::Meter(on) => preferences.meter = on,
            SettingsCommand::Sound(on) => preferences.sound = on,
            SettingsCommand::Haptics(on) => preferences.haptics = on,
            SettingsCommand::Speed(speed) => preferences.speed = speed_in_range(speed),
            SettingsCommand::Theme(theme) => preferences.theme = theme,
            SettingsCommand::TextSize(size) => {
                preferences.text_size = size.filter(|s| TEXT_SIZES.contains(s));
            }
            SettingsCommand::ReduceMotion(calm) => preferences.reduce_motion = calm,
            SettingsCommand::Hover(on) => preferences.hover = on,
            SettingsCommand::Instant(on) => preferences.instant = on,
            SettingsCommand::Tone(on) => preferences.tone = Some(on),
        }
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<SettingsCommand>()
        .init_resource::<Settings>()
        .add_systems(Update, follow_commands.in_set(AppSet::Preferences));
}

/// Takes the settings read at start, then the player's changes, in order. The resource is
/// marked changed (and so saved) only when a value really changed.
fn follow_commands(
    mut restored: MessageReader<Restored>,
    mut commands: MessageReader<SettingsCommand>,
    mut settings: ResMut<Settings>,
) {
    let mut next = settings.0.clone();
    for read in restored.read().filter_map(|r| r.settings.clone()) {
        next = read;
    }
    for command in commands.read() {
        command.apply(&mut next);
    }
    if next != settings.0 {
        settings.0 = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SPEEDS;

    #[test]
    fn a_command_changes_its_setting_and_keeps_the_speed_in_range() {
        let mut preferences = Preferences::default();
        SettingsCommand::Speed(1e6).apply(&mut preferences);
        assert_eq!(preferences.speed, *SPEEDS.end());
        SettingsCommand::ShowNumbers(false).apply(&mut preferences);
        assert!(!preferences.numbers_shown(8, false));
        SettingsCommand::Theme(Theme::Light).apply(&mut preferences);
        assert_eq!(preferences.theme, Theme::Light);
    }
}
