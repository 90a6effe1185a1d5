//! The smaller sheets: the question before a game is lost, how to play, about, the whole
//! photo, and the records.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::history::Counted;
use super::sheet::{modal, sheet_width, title};
use super::style;
use super::thumbnails::texture;
use super::{Actions, Hud, HudAction, Sheet, View};
use crate::app::background::Background;
use crate::game::Record;
use crate::play::settings::Settings;
use crate::words::{day_rows, days_summary, moves_text, result_time};

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

/// The statistics of the history as it was last counted (by its length): counted again only
/// when a solve was added, not every frame the sheet is open, and off the frame (10,000
/// solves take milliseconds), so that opening the sheet holds no frame.
#[derive(Default)]
pub(super) struct StatsCache {
    counted: Option<(usize, Counted)>,
    counting: Option<(usize, Background<Counted>)>,
}

impl StatsCache {
    /// The history's statistics once counted; `None` while they are being counted.
    fn of(&mut self, history: &[crate::game::solves::Solve]) -> Option<&Counted> {
        let len = history.len();
        if self.counted.as_ref().is_none_or(|(n, _)| *n != len) {
            self.count(history);
        }
        self.counted
            .as_ref()
            .filter(|(n, _)| *n == len)
            .map(|(_, counted)| counted)
    }

    /// Starts counting this history (its attempts picked here, their averages off the frame),
    /// or, on a later frame, takes the count when it is done; counted here if the thread is
    /// lost.
    fn count(&mut self, history: &[crate::game::solves::Solve]) {
        let len = history.len();
        if self.counting.as_ref().is_none_or(|(n, _)| *n != len) {
            let attempts: Vec<_> = history.iter().filter_map(|s| s.attempt()).collect();
            let task = Background::spawn("statistics", move || Counted::of_attempts(attempts));
            self.counting = Some((len, task));
            return;
        }
        let Some((_, task)) = self.counting.as_mut() else {
            return;
        };
        if let Some(counted) = task.poll() {
            self.counted = Some((len, counted));
            self.counting = None;
        } else if task.is_lost() {
            self.counted = Some((len, Counted::of(history)));
            self.counting = None;
        }
    }
}

/// The picture on show in the preview, as a texture.
#[derive(Default)]
pub(super) struct PreviewTexture(Option<(u64, egui::TextureHandle)>);

pub(super) fn show(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut hud: ResMut<Hud>,
    mut preview: Local<PreviewTexture>,
    mut stats: Local<StatsCache>,
    view: View,
    mut actions: Actions,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let width = sheet_width(view.layout.window_points());
    let sheet = hud.sheet.clone();
    let closed = match sheet {
        Sheet::Confirm(pending) => {
            let question = crate::hud::state::question(&pending, &view.current.game);
            modal(ctx, "confirm", width, |ui| {
                confirm(ui, &settings, &question, &mut hud, &mut actions)
            })
        }
        Sheet::Help => modal(ctx, "help", width, |ui| {
            title(ui, "How to play", &mut hud);
            ui.label(HELP);
        }),
        Sheet::About => modal(ctx, "about", width, |ui| {
            title(ui, "About Snapslide", &mut hud);
            about(ui);
        }),
        Sheet::Preview => {
            let image = preview_texture(ctx, &view, &mut preview);
            modal(ctx, "preview", width, |ui| {
                title(ui, "The photo", &mut hud);
                if let Some((texture, size)) = image {
                    let scale = (width / size.x).min(view.layout.window_points().y * 0.7 / size.y);
                    ui.add(egui::Image::new((texture, size * scale)).corner_radius(12));
                }
            })
        }
        Sheet::Records => modal(ctx, "records", width, |ui| {
            title(ui, "Records", &mut hud);
            records(ui, &view);
        }),
        Sheet::Solves => modal(ctx, "solves", width, |ui| {
            title(ui, "Solves", &mut hud);
            solves(ui, &view, &mut hud, &mut actions);
        }),
        Sheet::Statistics => statistics(ctx, width, &mut hud, stats.of(&view.history)),
        Sheet::SendChallenge(_) | Sheet::ShareDay(..) | Sheet::OpenChallenge(_) => {
            let by_sheet = view.platform.0.shares_by_sheet();
            super::challenge_sheets::show(ctx, (width, by_sheet), &settings, &mut hud, &mut actions)
        }
        Sheet::How(details) => modal(ctx, "how", width, |ui| {
            title(ui, "How it was found", &mut hud);
            let tall = view.layout.window_points().y * 0.6;
            egui::ScrollArea::vertical()
                .max_height(tall)
                .scroll_source(egui::scroll_area::ScrollSource::ALL)
                .show(ui, |ui| {
                    ui.label(details);
                });
        }),
        _ => return Ok(()),
    };
    if closed && hud.may_close() {
        hud.sheet = Sheet::None;
    }
    Ok(())
}

/// The Solves sheet's list, and what the player asked of it: watch a solve (the sheet
/// closes), remove one, or bring it back.
fn solves(ui: &mut egui::Ui, view: &View, hud: &mut Hud, actions: &mut Actions) {
    use super::history::SolvesAction;
    use crate::history::records::HistoryCommand;
    let removed = view.removed.0.as_ref().map(|(_, solve)| solve);
    let today = crate::game::today();
    match super::history::solves(ui, &view.history, removed, today) {
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

/// The statistics sheet; whether it was closed by a tap beside it. For developers, the
/// sheet's part of a frame, its chart included (RUST_LOG=snapslide::hud::dialogs=debug).
fn statistics(ctx: &egui::Context, width: f32, hud: &mut Hud, report: Option<&Counted>) -> bool {
    let started = std::time::Instant::now();
    let closed = modal(ctx, "statistics", width, |ui| {
        title(ui, "Statistics", hud);
        match report {
            Some(report) => super::history::statistics(ui, report),
            None => {
                ui.horizontal(|ui| {
                    style::spinner(ui);
                    ui.label("Counting your solves…");
                });
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(30));
            }
        }
    });
    debug!(
        "the statistics sheet drawn in {:.2} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    closed
}

fn confirm(
    ui: &mut egui::Ui,
    settings: &Settings,
    question: &str,
    hud: &mut Hud,
    actions: &mut Actions,
) {
    ui.label(style::heading("Lose this game?"));
    ui.label(question);
    ui.horizontal(|ui| {
        if style::button(ui, true, "Keep playing").clicked() {
            hud.sheet = Sheet::None;
        }
        if style::primary_button(ui, settings.theme, true, "Yes, start over", 180.0).clicked() {
            actions.hud.write(HudAction::Confirm);
        }
    });
}

fn about(ui: &mut egui::Ui) {
    ui.label(format!("Snapslide {}", env!("CARGO_PKG_VERSION")));
    ui.label("A photo sliding puzzle, built with Bevy and egui on the npuzzle engine.");
    ui.label(
        egui::RichText::new(
            "Photos: scikit-image's sample data (CC0 and public domain). Sounds: CC0. \
             Font: Manrope (SIL Open Font License).",
        )
        .small()
        .weak(),
    );
}

fn preview_texture(
    ctx: &egui::Context,
    view: &View,
    preview: &mut PreviewTexture,
) -> Option<(egui::TextureId, egui::Vec2)> {
    let picture = view.tiles.picture.as_ref()?;
    if preview
        .0
        .as_ref()
        .is_none_or(|(v, _)| *v != view.tiles.version)
    {
        preview.0 = Some((view.tiles.version, texture(ctx, "preview", picture)));
    }
    let size = egui::vec2(picture.width() as f32, picture.height() as f32);
    preview.0.as_ref().map(|(_, t)| (t.id(), size))
}

/// Best moves and time for every board and difficulty played, and how many were won; the
/// puzzles of the day, which keep their own list.
fn records(ui: &mut egui::Ui, view: &View) {
    let today = crate::game::today();
    if let Some(days) = days_summary(&view.days.0, today) {
        ui.label(days);
        days_grid(ui, &day_rows(&view.days.0, today));
        ui.add_space(8.0);
    }
    if view.scores.0.0.is_empty() {
        ui.label(
            egui::RichText::new("Solve a shuffled puzzle on your own to set a best score.").weak(),
        );
        return;
    }
    // Short captions: the four columns fit a phone's sheet (328 px on a 360 px screen).
    let rows: Vec<[String; 4]> = view
        .scores
        .0
        .0
        .iter()
        .map(|(key, best)| record_row(&record_name(key), *best))
        .collect();
    table(ui, "records", ["Board", "Fewest", "Fastest", "Won"], &rows);
}

/// The latest puzzles of the day: the day, moves, time, and against the shortest.
fn days_grid(ui: &mut egui::Ui, rows: &[[String; 4]]) {
    table(ui, "days", ["Day", "Moves", "Time", "Shortest"], rows);
}

/// A table of four columns under their captions (a line a row where they do not fit).
fn table(ui: &mut egui::Ui, id: &str, captions: [&str; 4], rows: &[[String; 4]]) {
    let rows: Vec<Vec<String>> = rows.iter().cloned().map(Vec::from).collect();
    super::table::table(ui, id, &captions, &rows, None);
}

/// "4x4-medium" as "4×4 Medium".
fn record_name(key: &str) -> String {
    let (board, difficulty) = key.split_once('-').unwrap_or((key, ""));
    let mut chars = difficulty.chars();
    let difficulty: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    format!("{} {difficulty}", board.replace('x', "×"))
}

/// A best score's row: the board, the fewest moves, the fastest time, the games won.
fn record_row(name: &str, best: Record) -> [String; 4] {
    [
        name.to_string(),
        moves_text(best.moves),
        result_time(best.time()),
        best.wins.to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cache's answer once the thread is done (within a generous limit).
    fn counted_within(cache: &mut StatsCache, history: &[crate::game::solves::Solve]) -> bool {
        let started = std::time::Instant::now();
        while started.elapsed() < std::time::Duration::from_secs(30) {
            if cache.of(history).is_some() {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        false
    }

    #[test]
    fn the_statistics_are_counted_off_the_frame_once_for_each_history() {
        let mut history = super::super::history::tests::sample_history(30);
        let mut cache = StatsCache::default();
        assert!(
            cache.of(&history).is_none(),
            "counted on the frame that asked"
        );
        assert!(counted_within(&mut cache, &history));
        let solves = |cache: &mut StatsCache, history: &[_]| {
            let counted = cache
                .of(history)
                .map(|c| c.report.categories.values().next().cloned());
            counted.flatten().map(|stats| stats.solves)
        };
        assert_eq!(
            solves(&mut cache, &history),
            Some(30),
            "kept, not counted again"
        );
        history.extend(super::super::history::tests::sample_history(1));
        assert!(cache.of(&history).is_none(), "a new solve is counted again");
        assert!(counted_within(&mut cache, &history));
        assert_eq!(solves(&mut cache, &history), Some(31));
    }

    #[test]
    fn record_keys_read_as_boards() {
        assert_eq!(record_name("4x4-medium"), "4×4 Medium");
        assert_eq!(record_name("3x4-easy"), "3×4 Easy");
        assert!(!HELP.contains("bottom-right"), "the gap starts anywhere");
    }
}
