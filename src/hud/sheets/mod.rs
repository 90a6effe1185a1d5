//! The sheets over the board, one module each, as the [`Sheet`] they draw: each module's
//! `show` is a system that runs only while its sheet is open (`open`), draws it and answers
//! what the player asked of it. What every sheet is built from (its width, a modal frame, a
//! title with a close button) is in `modal`. They are told what to show by the HUD's state and
//! the game's resources, and tell what the player asked by messages (`Actions`).

mod about;
pub(super) mod board;
pub(crate) mod challenge;
mod confirm;
#[cfg(not(any(target_os = "android", target_os = "ios")))]
pub(super) mod file;
pub(super) mod framing;
mod help;
mod how;
pub(super) mod menu;
pub(super) mod modal;
mod preview;
mod records;
mod setup;
mod solves;
mod statistics;

use bevy::ecs::schedule::ScheduleConfigs;
use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::*;

use super::{Hud, Sheet};

/// The sheets' systems, in the order they draw (at most one sheet is open; one that opens
/// another leaves it to be drawn in the next pass): each runs only while its sheet is open.
/// The desktop's own file dialog is added on its own, where there is one.
pub(super) fn show() -> ScheduleConfigs<ScheduleSystem> {
    (
        menu::show.run_if(open(|sheet| *sheet == Sheet::Menu)),
        setup::show.run_if(open(|sheet| matches!(sheet, Sheet::Setup(_)))),
        confirm::show.run_if(open(|sheet| matches!(sheet, Sheet::Confirm(_)))),
        help::show.run_if(open(|sheet| *sheet == Sheet::Help)),
        about::show.run_if(open(|sheet| *sheet == Sheet::About)),
        preview::show.run_if(open(|sheet| *sheet == Sheet::Preview)),
        records::show.run_if(open(|sheet| *sheet == Sheet::Records)),
        solves::show.run_if(open(|sheet| *sheet == Sheet::Solves)),
        statistics::show.run_if(open(|sheet| *sheet == Sheet::Statistics)),
        challenge::show.run_if(open(challenge::is_open)),
        how::show.run_if(open(|sheet| matches!(sheet, Sheet::How(_)))),
        board::show.run_if(open(board::is_open)),
        framing::show.run_if(open(|sheet| *sheet == Sheet::Framing)),
    )
        .chain()
}

/// A run condition: whether the sheet open is one `is` names.
fn open(is: fn(&Sheet) -> bool) -> impl FnMut(Res<Hud>) -> bool + Clone {
    move |hud: Res<Hud>| is(&hud.sheet)
}

/// Closes the sheet open when the player tapped beside it, unless it must stay (a question
/// being answered).
fn close_if(tapped_beside: bool, hud: &mut Hud) {
    if tapped_beside && hud.may_close() {
        hud.sheet = Sheet::None;
    }
}
