//! The app going to the background and coming back (a phone's home button, a call): on
//! suspend the game's clock, its slides and any solution's playback stop where they are (the
//! virtual clock is paused: this module alone pauses it, and the game's clock reads
//! [`Suspended`]), the game is saved and the sounds stop; on resume everything goes on from
//! exactly there. A solver task keeps running in the background meanwhile, and the
//! platform's answers wait in its inbox.

use bevy::prelude::*;
use bevy::window::AppLifecycle;

use crate::frame::AppSet;

/// Whether the app is in the background.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Suspended(pub bool);

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<AppLifecycle>()
        .init_resource::<Suspended>()
        .add_systems(Update, follow_lifecycle.in_set(AppSet::Input));
}

/// Whether the app is going to, or in, the background in this lifecycle state.
pub fn is_suspending(state: AppLifecycle) -> bool {
    matches!(state, AppLifecycle::WillSuspend | AppLifecycle::Suspended)
}

fn follow_lifecycle(
    mut events: MessageReader<AppLifecycle>,
    mut suspended: ResMut<Suspended>,
    mut time: ResMut<Time<Virtual>>,
) {
    for &state in events.read() {
        let now = is_suspending(state);
        if now == suspended.0 {
            continue;
        }
        suspended.0 = now;
        if now {
            time.pause();
            info!("suspended: clock paused, game saved");
        } else {
            time.unpause();
            info!("resumed");
        }
    }
}
