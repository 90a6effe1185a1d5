//! How to play, in the player's words.

use bevy::prelude::*;
use bevy_egui::EguiContexts;

use super::modal::{modal, sheet_width, title};
use crate::hud::{Hud, View};

/// How to play, in the player's words.
pub const HELP: &str = "Slide the tiles back into place to rebuild the photo. One cell is \
empty; any tile beside it can slide into it.\n\n\
• Tap a tile in the empty cell's row or column: it slides, with every tile between it and \
the gap.\n\
• Drag a tile toward the gap: it follows your finger, with the tiles between. A swipe \
that starts on the gap or beside the board moves the tile beside the gap that way.\n\
• Keys: the arrows or WASD move the tile beside the gap; Ctrl+Z undoes, Ctrl+Y redoes; \
Esc opens the menu.\n\n\
Undo lowers the move counter; Restart goes back to the start of the same puzzle. Hint \
outlines the next move of a shortest solution (tap it again to play it), and Solve plays a \
whole solution, the shortest possible up to 4×4. A game the app helped with sets no best \
score.";

/// The sheet.
pub(super) fn show(mut contexts: EguiContexts, mut hud: ResMut<Hud>, view: View) -> Result {
    let ctx = contexts.ctx_mut()?;
    let width = sheet_width(view.layout.window_points());
    let closed = modal(ctx, "help", width, |ui| {
        title(ui, "How to play", &mut hud);
        ui.label(HELP);
    });
    super::close_if(closed, &mut hud);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_does_not_say_where_the_gap_starts() {
        assert!(!HELP.contains("bottom-right"), "the gap starts anywhere");
    }
}
