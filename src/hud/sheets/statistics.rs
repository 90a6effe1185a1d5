//! The speedsolver's statistics: averages, bests and the chart, counted off the frame.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::modal::{modal, sheet_width, title};
use crate::app::background::Background;
use crate::hud::history::Counted;
use crate::hud::style;
use crate::hud::{Hud, View};

/// The sheet.
pub(super) fn show(
    mut contexts: EguiContexts,
    mut hud: ResMut<Hud>,
    view: View,
    mut stats: Local<StatsCache>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let width = sheet_width(view.layout.window_points());
    let closed = statistics(ctx, width, &mut hud, stats.of(&view.history));
    super::close_if(closed, &mut hud);
    Ok(())
}

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

/// The statistics sheet; whether it was closed by a tap beside it. For developers, the
/// sheet's part of a frame, its chart included (RUST_LOG=snapslide::hud::sheets::statistics=debug).
fn statistics(ctx: &egui::Context, width: f32, hud: &mut Hud, report: Option<&Counted>) -> bool {
    let started = std::time::Instant::now();
    let closed = modal(ctx, "statistics", width, |ui| {
        title(ui, "Statistics", hud);
        match report {
            Some(report) => crate::hud::history::statistics(ui, report),
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
        let mut history = crate::hud::history::tests::sample_history(30);
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
        history.extend(crate::hud::history::tests::sample_history(1));
        assert!(cache.of(&history).is_none(), "a new solve is counted again");
        assert!(counted_within(&mut cache, &history));
        assert_eq!(solves(&mut cache, &history), Some(31));
    }
}
