//! The panel's actions: undo, redo, hint and solve (a solution's playback controls while it
//! plays, the review once won), then restart and a new game.

use bevy_egui::egui;

use super::{Actions, NARROW, View};
use crate::game::SPEEDS;
use crate::history::replay::ReplayCommand;
use crate::history::review::ReviewCommand;
use crate::hud::style;
use crate::hud::{HudAction, Sheet};
use crate::messages::Pending;
use crate::play::settings::{Settings, SettingsCommand};

/// Four buttons in a row, or two rows of two in a narrow panel; which was clicked, if any
/// (none while the row is `held`, just after it changed under the finger).
fn four_buttons(
    ui: &mut egui::Ui,
    width: f32,
    buttons: [(&str, bool); 4],
    held: bool,
) -> Option<usize> {
    let mut clicked = None;
    let per_row = if width < NARROW { 2 } else { 4 };
    let gaps = (per_row - 1) as f32 * ui.spacing().item_spacing.x;
    let each = ((width - gaps) / per_row as f32).floor();
    for (row, chunk) in buttons.chunks(per_row).enumerate() {
        ui.horizontal(|ui| {
            for (i, (label, enabled)) in chunk.iter().enumerate() {
                if style::wide_button(ui, *enabled, label, each).clicked() && !held {
                    clicked = Some(row * per_row + i);
                }
            }
        });
    }
    clicked
}

/// Pause, stop, slower and faster, while a solution plays.
fn playback_row(
    ui: &mut egui::Ui,
    settings: &Settings,
    width: f32,
    view: &View,
    actions: &mut Actions,
    held: bool,
) {
    use crate::messages::SolverCommand;
    let pause = if view.playback.paused {
        "Resume"
    } else {
        "Pause"
    };
    let speed = settings.speed;
    let buttons = [
        (pause, true),
        ("Stop", true),
        ("Slower", speed > *SPEEDS.start()),
        ("Faster", speed < *SPEEDS.end()),
    ];
    match four_buttons(ui, width, buttons, held) {
        Some(0) => {
            actions.solver.write(SolverCommand::TogglePause);
        }
        Some(1) => {
            actions.solver.write(SolverCommand::Stop);
        }
        Some(2) => {
            actions.settings.write(SettingsCommand::Speed(speed / 1.5));
        }
        Some(3) => {
            actions.settings.write(SettingsCommand::Speed(speed * 1.5));
        }
        _ => {}
    }
}

/// The actions: undo, redo, hint and solve (while a solution plays, its controls; once won,
/// the review); then restart and a new game. The first row ignores taps while `held`.
pub(super) fn actions_rows(
    ui: &mut egui::Ui,
    settings: &Settings,
    width: f32,
    view: &View,
    actions: &mut Actions,
    held: bool,
) {
    let game = &view.current.game;
    if view.playback.active() {
        playback_row(ui, settings, width, view, actions, held);
    } else if game.is_won() {
        // The review says what it compares with (the shortest, or past 4×4 the app's best):
        // a label that says it too would shrink to fit a phone.
        let third = ((width - 2.0 * ui.spacing().item_spacing.x) / 3.0).floor();
        let send = crate::hud::sheets::challenge::send_sheet(game, &view.days.0);
        let share = match send {
            Some(Sheet::ShareDay(..)) => "Share",
            _ => "Challenge",
        };
        ui.horizontal(|ui| {
            let watched = crate::history::replay::Watched::of_game(game);
            let replay = style::wide_button(ui, watched.is_some(), "Replay", third);
            if let Some(watched) = watched.filter(|_| replay.clicked() && !held) {
                actions
                    .replay
                    .write(ReplayCommand::Watch(Box::new(watched)));
            }
            if style::wide_button(ui, true, "Review", third).clicked() && !held {
                actions.review.write(ReviewCommand::Open);
            }
            let challenge = style::wide_button(ui, send.is_some(), share, third);
            if let Some(sheet) = send.filter(|_| challenge.clicked() && !held) {
                actions.hud.write(HudAction::Open(sheet));
            }
        });
    } else {
        play_row(ui, width, view, actions, held);
    }
    let half = ((width - ui.spacing().item_spacing.x) / 2.0).floor();
    ui.horizontal(|ui| {
        // A leg of a run is not restarted alone: its clock is the run's.
        let restart = game.moves() > 0 && game.run().is_none();
        if style::wide_button(ui, restart, "Restart", half).clicked() {
            actions
                .replace
                .write(crate::messages::ReplaceGame(Pending::Restart));
        }
        if style::primary_button(ui, settings.theme, true, "New game", half).clicked() {
            actions
                .replace
                .write(crate::messages::ReplaceGame(Pending::NewGame));
        }
    });
}

/// Undo, redo, hint and solve.
fn play_row(ui: &mut egui::Ui, width: f32, view: &View, actions: &mut Actions, held: bool) {
    use crate::messages::{GameCommand, SolverCommand};
    let game = &view.current.game;
    let thinking = view.job.0.is_some();
    // Solved blind, the app helps with nothing; Done says the board is solved.
    let blind = game.run().is_some_and(|run| run.event.is_blind());
    let playable = !game.is_won() && !thinking && !blind;
    let hint = if view.hint.shown() { "Play it" } else { "Hint" };
    let last = match blind {
        true => ("Done", game.moves() > 0 && !game.is_won()),
        false => ("Solve", playable),
    };
    let buttons = [
        ("Undo", game.can_undo() && !thinking),
        ("Redo", game.can_redo() && !thinking),
        (hint, playable),
        last,
    ];
    match four_buttons(ui, width, buttons, held) {
        Some(0) => {
            actions.game.write(GameCommand::Undo);
        }
        Some(1) => {
            actions.game.write(GameCommand::Redo);
        }
        Some(2) => {
            actions.solver.write(SolverCommand::Hint);
        }
        Some(3) if blind => {
            actions.game.write(GameCommand::Declare);
        }
        Some(3) => {
            actions.solver.write(SolverCommand::Solve);
        }
        _ => {}
    }
}
