//! Every solve, newest first: watch one again, remove one (with Undo).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::modal::{modal, sheet_width, title};
use crate::hud::history::SolvesAction;
use crate::hud::{Actions, Hud, Sheet, View};

/// The sheet.
pub(super) fn show(
    mut contexts: EguiContexts,
    mut hud: ResMut<Hud>,
    view: View,
    mut actions: Actions,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let width = sheet_width(view.layout.window_points());
    let closed = modal(ctx, "solves", width, |ui| {
        title(ui, "Solves", &mut hud);
        solves(ui, &view, &mut hud, &mut actions);
    });
    super::close_if(closed, &mut hud);
    Ok(())
}

/// The Solves sheet's list, and what the player asked of it: watch a solve (the sheet
/// closes), remove one, or bring it back.
fn solves(ui: &mut egui::Ui, view: &View, hud: &mut Hud, actions: &mut Actions) {
    use crate::history::records::HistoryCommand;
    let removed = view.removed.0.as_ref().map(|(_, solve)| solve);
    let today = crate::game::today();
    match crate::hud::history::solves(ui, &view.history, removed, today) {
        Some(SolvesAction::Watch(solve)) => {
            if let Some(watched) = crate::history::replay::Watched::of_solve(solve) {
                let watch = crate::history::replay::ReplayCommand::Watch(Box::new(watched));
                actions.replay.write(watch);
                hud.sheet = Sheet::None;
            }
        }
        Some(SolvesAction::Remove(at)) => {
            actions.history.write(HistoryCommand::Remove(at));
        }
        Some(SolvesAction::Undo) => {
            actions.history.write(HistoryCommand::Undo);
        }
        None => {}
    }
}
