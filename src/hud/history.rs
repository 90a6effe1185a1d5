//! The solve history's sheets: every solve, newest first (Solves), and the speedsolver's
//! statistics of each category (Statistics), in the player's words.

use bevy_egui::egui;

use std::collections::BTreeMap;

use crate::game::solves::{Ending, Solve};
use crate::game::stats::{
    AVERAGES, Attempt, Average, Category, Metric, Statistics, StatsReport, format_figure, group,
    rolling_average,
};
use crate::words::{day_name, result_time};

/// How many of the latest solves the chart plots.
pub const CHARTED: usize = 100;

/// The history as the Statistics sheet shows it: each category's statistics, and its
/// chart's lines, counted once for each history (not every frame the sheet is open).
#[derive(Default)]
pub struct Counted {
    /// The statistics of each category.
    pub report: StatsReport,
    /// Each category's chart (see [`chart_lines`]), where it has two results or more.
    pub charts: BTreeMap<Category, ChartLines>,
    /// How many results each chart's times are of.
    pub charted: BTreeMap<Category, usize>,
}

/// A chart's three lines: the times, the ao5 and the ao12, in seconds.
pub type ChartLines = [Vec<[f64; 2]>; 3];

impl Counted {
    /// Counts a history.
    pub fn of(history: &[Solve]) -> Counted {
        Counted::of_attempts(history.iter().filter_map(Solve::attempt).collect())
    }

    /// Counts the attempts the history's solves make (what the sheet counts off the frame).
    pub fn of_attempts(attempts: Vec<(Category, Attempt)>) -> Counted {
        let results = group(attempts);
        let report = StatsReport::of_groups(&results);
        let charted = results.iter().filter(|(_, results)| results.len() >= 2);
        let charts = charted
            .clone()
            .map(|(category, results)| (*category, chart_lines(results)))
            .collect();
        let charted = charted
            .map(|(category, results)| (*category, results.len().min(CHARTED)))
            .collect();
        Counted {
            report,
            charts,
            charted,
        }
    }
}

/// The chart's three lines over the last [`CHARTED`] results, in seconds: the times, the ao5
/// and the ao12 (a point for each result where there is a value; a DNF has none).
pub fn chart_lines(results: &[Attempt]) -> [Vec<[f64; 2]>; 3] {
    let from = results.len().saturating_sub(CHARTED);
    let seconds = |value: Option<f64>| value.map(|ms| ms / 1000.0);
    let line = |values: Vec<Option<f64>>| -> Vec<[f64; 2]> {
        values
            .into_iter()
            .enumerate()
            .skip(from)
            .filter_map(|(i, v)| v.map(|v| [(i + 1) as f64, v]))
            .collect()
    };
    let times = results
        .iter()
        .map(|r| seconds(r.value(Metric::Time)))
        .collect();
    let rolling = |n| {
        rolling_average(results, n, Metric::Time)
            .into_iter()
            .map(|average| seconds(average.value()))
            .collect()
    };
    [line(times), line(rolling(5)), line(rolling(12))]
}

/// The chart of a category's last solves, with its figures as text for a screen reader.
/// The narrowest chart with its legend inside it, in the controls' points.
const NARROW_CHART: f32 = 280.0;

fn chart(ui: &mut egui::Ui, name: &str, lines: &ChartLines, charted: usize) {
    use egui_plot::{Legend, Line, Plot, PlotPoints};
    let [times, ao5, ao12] = lines;
    let visuals = ui.visuals();
    let colours = [
        visuals.weak_text_color(),
        visuals.selection.bg_fill,
        visuals.warn_fg_color,
    ];
    // A narrow sheet (a small phone at large text) keys the lines below the chart: a legend
    // inside it would cover half the lines.
    let narrow = ui.available_width() < NARROW_CHART;
    // Whole in sight on a short window too (a phone on its side at large text).
    let height = (ui.ctx().content_rect().height() * 0.6).min(180.0);
    let mut plot = Plot::new(("chart", name))
        .height(height)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .y_axis_label("seconds");
    if !narrow {
        plot = plot.legend(Legend::default().text_style(egui::TextStyle::Small));
    }
    let lines = [("time", times), ("ao5", ao5), ("ao12", ao12)];
    let response = plot
        .show(ui, |plot| {
            for ((label, points), colour) in lines.iter().zip(colours) {
                let line = Line::new(*label, PlotPoints::from(points.to_vec())).color(colour);
                plot.line(line);
            }
        })
        .response;
    if narrow {
        ui.horizontal_wrapped(|ui| {
            for ((label, _), colour) in lines.iter().zip(colours) {
                ui.label(egui::RichText::new(format!("— {label}")).color(colour));
            }
        });
    }
    // Worded only when egui asks: while a screen reader is listening.
    response.widget_info(|| {
        let said: Vec<String> = times.iter().map(|[_, s]| format!("{s:.2}")).collect();
        let text = format!("The last {charted} times, in seconds: {}", said.join(", "));
        egui::WidgetInfo::labeled(egui::WidgetType::Label, true, text)
    });
}

/// How many solves the Solves sheet lists.
pub const SOLVES_LISTED: usize = 200;

/// A solve's row: the day, the board, the time, the moves (STM, and MTM), moves a second and
/// the board's shortest solution.
pub fn solve_row(solve: &Solve, today: crate::game::Day) -> [String; 6] {
    let day = day_name(solve.finished_at_ms.div_euclid(86_400_000), today);
    let time = match solve.result {
        Ending::Solved => result_time(std::time::Duration::from_millis(solve.time_ms)),
        Ending::Dnf => "DNF".into(),
    };
    let moves = format!("{} ({} MTM)", solve.stm(), solve.mtm());
    let tps = solve.tps().map_or("–".into(), |tps| format!("{tps:.2}"));
    let shortest = solve.shortest.map_or("–".into(), |s| s.to_string());
    let board = format!("{}×{} {}", solve.width, solve.height, mode_text(solve));
    [day, board, time, moves, tps, shortest]
}

/// A solve's mode as the Solves list says it: the difficulty, the day's puzzle, a board set up,
/// the event (a marathon, a relay, a blind solve), and whether the app helped.
fn mode_text(solve: &Solve) -> String {
    use crate::game::solves::Mode;
    let mode = match &solve.mode {
        Mode::Shuffled(difficulty) => difficulty.label().to_lowercase(),
        Mode::Daily(_) => "daily".into(),
        Mode::Custom => "set up".into(),
        Mode::Event(event) => event.label().to_lowercase(),
        Mode::Other(key) => key.clone(),
    };
    match solve.helped {
        true => format!("{mode}, helped"),
        false => mode,
    }
}

/// What the player asked of the Solves sheet.
pub enum SolvesAction<'a> {
    /// Watch this solve again.
    Watch(&'a Solve),
    /// Remove the solve at this place in the history (oldest first).
    Remove(usize),
    /// Bring back the solve removed last.
    Undo,
}

/// The Solves sheet's contents: newest first, each with Watch where its moves were kept and
/// Remove; Undo for the solve removed last. What the player tapped.
pub fn solves<'a>(
    ui: &mut egui::Ui,
    history: &'a [Solve],
    removed: Option<&Solve>,
    today: crate::game::Day,
) -> Option<SolvesAction<'a>> {
    let mut action = None;
    if let Some(removed) = removed {
        ui.horizontal_wrapped(|ui| {
            let row = solve_row(removed, today);
            ui.label(format!(
                "Removed the solve of {}, {}, {}.",
                row[0], row[1], row[2]
            ));
            if crate::hud::style::button(ui, true, "Undo").clicked() {
                action = Some(SolvesAction::Undo);
            }
        });
    }
    if history.is_empty() {
        ui.label("No solves yet: every game you finish is kept here.");
        return action;
    }
    let listed: Vec<&Solve> = history.iter().rev().take(SOLVES_LISTED).collect();
    let rows: Vec<Vec<String>> = listed
        .iter()
        .map(|solve| Vec::from(solve_row(solve, today)))
        .collect();
    let mut buttons = |ui: &mut egui::Ui, index: usize| {
        let (solve, row) = (listed[index], &rows[index]);
        let which = format!("the solve of {}, {}, {}", row[0], row[1], row[2]);
        let kept = solve.moves_kept();
        ui.horizontal(|ui| {
            let watch = crate::hud::style::button(ui, kept, "⏵");
            let name = format!("Watch {which}");
            watch.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Button, kept, &name));
            if watch.clicked() {
                action = Some(SolvesAction::Watch(solve));
            }
            let remove = crate::hud::style::button(ui, true, "×");
            let name = format!("Remove {which}");
            remove.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Button, true, &name));
            if remove.clicked() {
                action = Some(SolvesAction::Remove(history.len() - 1 - index));
            }
        });
    };
    let captions = ["Day", "Board", "Time", "Moves", "TPS", "Shortest", ""];
    let buttons_width = 2.0 * crate::hud::style::MIN_TOUCH + ui.spacing().item_spacing.x;
    crate::hud::table::table(
        ui,
        "solves",
        &captions,
        &rows,
        Some((buttons_width, &mut buttons)),
    );
    if history.len() > SOLVES_LISTED {
        ui.label(
            egui::RichText::new(format!("and {} older", history.len() - SOLVES_LISTED)).weak(),
        );
    }
    action
}

/// A figure for the player: "14.21", "DNF", or "–" without enough solves.
fn figure(metric: Metric, value: Average) -> String {
    format_figure(metric, value).unwrap_or_else(|| "–".into())
}

/// One category's rows: the figure's name, then its current and best value, for each metric.
pub fn statistics_rows(stats: &Statistics) -> Vec<[String; 3]> {
    let mut rows = Vec::new();
    for (metric, unit) in [
        (Metric::Time, "time"),
        (Metric::Moves, "moves"),
        (Metric::Tps, "TPS"),
    ] {
        let figures = stats.figures(metric);
        rows.push([
            format!("single ({unit})"),
            figure(metric, figures.single.current),
            figure(metric, figures.single.best),
        ]);
        for (n, pair) in AVERAGES.iter().zip(figures.averages) {
            rows.push([
                format!("ao{n} ({unit})"),
                figure(metric, pair.current),
                figure(metric, pair.best),
            ]);
        }
        rows.push([
            format!("mean ({unit})"),
            figure(metric, figures.mean),
            String::new(),
        ]);
    }
    rows
}

/// The Statistics sheet's contents: one table for each category, with its chart.
pub fn statistics(ui: &mut egui::Ui, counted: &Counted) {
    let report = &counted.report;
    if report.is_empty() {
        ui.label(
            "No solves yet. Statistics count games of Random difficulty (a uniformly random \
             board, as speedsolvers scramble); games at a difficulty, the puzzle of the day and \
             boards you set up are in Solves.",
        );
        return;
    }
    for (category, stats) in &report.categories {
        let name = category.to_string().replace('x', "×");
        ui.label(crate::hud::style::heading(&name));
        let dnf = match stats.dnfs {
            0 => String::new(),
            n => format!(", {n} DNF"),
        };
        ui.label(format!("{} solves{dnf}", stats.solves));
        if let (Some(lines), Some(charted)) =
            (counted.charts.get(category), counted.charted.get(category))
        {
            chart(ui, &name, lines, *charted);
        }
        let rows: Vec<Vec<String>> = statistics_rows(stats).into_iter().map(Vec::from).collect();
        let captions = ["", "Current", "Best"];
        crate::hud::table::table(ui, ("statistics", &name), &captions, &rows, None);
        ui.add_space(12.0);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::game::stats::{Attempt, Category, Mode};

    #[test]
    fn a_solve_reads_as_a_row_with_both_move_counts_and_centiseconds() {
        let solve = Solve {
            finished_at_ms: 20_000 * 86_400_000 + 5,
            width: 4,
            height: 4,
            mode: crate::game::solves::Mode::Custom,
            start: Vec::new(),
            moves: "RRRUL".into(),
            times_ms: Vec::new(),
            time_ms: 2_345,
            result: Ending::Solved,
            helped: false,
            photo: String::new(),
            shortest: Some(5),
            counted: None,
            legs: Vec::new(),
        };
        let row = solve_row(&solve, 20_000);
        assert_eq!(
            row,
            ["Today", "4×4 set up", "2.34 s", "5 (3 MTM)", "2.13", "5"].map(String::from)
        );
    }

    #[test]
    fn a_solve_s_row_says_its_mode() {
        use crate::game::event::Event;
        use crate::game::solves::Mode;
        let row = |mode: Mode, helped: bool| {
            let solve = Solve {
                finished_at_ms: 0,
                width: 4,
                height: 4,
                mode,
                start: Vec::new(),
                moves: "R".into(),
                times_ms: Vec::new(),
                time_ms: 1_000,
                result: Ending::Dnf,
                helped,
                photo: String::new(),
                shortest: None,
                counted: None,
                legs: Vec::new(),
            };
            solve_row(&solve, 0)[1].clone()
        };
        let relay = Mode::Event(Event::Relay { up_to: 4 });
        let blind = Mode::Event(Event::Blind {
            width: 4,
            height: 4,
        });
        let marathon = Mode::Event(Event::Marathon {
            width: 4,
            height: 4,
            count: 10,
        });
        let rows = [row(relay, false), row(blind, false), row(marathon, true)];
        assert_eq!(
            rows,
            ["4×4 relay 3×3–4×4", "4×4 blind", "4×4 marathon ×10, helped"].map(String::from)
        );
    }

    /// How wide the Statistics sheet's contents are drawn in a sheet `width` points wide,
    /// with 30 random-state solves (one a DNF), and how tall.
    fn statistics_drawn(width: f32) -> egui::Vec2 {
        let counted = Counted::of(&sample_history(30));
        let ctx = egui::Context::default();
        ctx.set_fonts(crate::hud::style::fonts());
        let mut drawn = egui::Vec2::ZERO;
        for _ in 0..2 {
            let mut output = ctx.run_ui(Default::default(), |ui| {
                ui.set_width(width);
                ui.set_max_width(width);
                let shown = ui.scope(|ui| statistics(ui, &counted));
                drawn = shown.response.rect.size();
            });
            output.textures_delta.clear();
        }
        drawn
    }

    /// `n` random-state 4×4 solves, the eighth a DNF.
    pub(in crate::hud) fn sample_history(n: u64) -> Vec<Solve> {
        (0..n)
            .map(|i| Solve {
                finished_at_ms: 20_000 * 86_400_000 + i as i64 * 60_000,
                width: 4,
                height: 4,
                mode: crate::game::solves::Mode::Shuffled(crate::game::Difficulty::Random),
                start: Vec::new(),
                moves: String::new(),
                times_ms: Vec::new(),
                time_ms: 12_345 + i * 777 % 9_000,
                result: if i == 7 { Ending::Dnf } else { Ending::Solved },
                helped: false,
                photo: String::new(),
                shortest: None,
                counted: Some(crate::game::solves::MoveCounts {
                    stm: 60 + i as u32,
                    mtm: Some(40 + i as u32),
                }),
                legs: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn the_statistics_fit_a_small_phone_at_double_text_and_a_wide_sheet() {
        // A 360-point phone at 200 % text: its sheet is 148 points wide; at 100 %, 328.
        for width in [148.0, 328.0, 520.0] {
            let drawn = statistics_drawn(width);
            assert!(
                drawn.x <= width + 0.5,
                "{drawn:?} drawn in a sheet {width} wide"
            );
            assert!(drawn.y > 200.0, "the figures are all there: {drawn:?}");
        }
    }

    #[test]
    fn the_chart_plots_the_last_hundred_times_and_their_averages_in_seconds() {
        let mut results: Vec<Attempt> = (0..150u64)
            .map(|i| Attempt::solved(10_000 + i * 10, 60, 40))
            .collect();
        results[149] = Attempt::dnf(60, 40);
        let [times, ao5, ao12] = chart_lines(&results);
        assert_eq!(times.len(), 99, "the last 100, the DNF without a point");
        assert_eq!(times[0], [51.0, 10.5]);
        assert_eq!(
            ao5.len(),
            100,
            "the DNF's ao5 is a value (one DNF is dropped)"
        );
        assert_eq!(ao12.first().map(|p| p[0]), Some(51.0));
        let short = chart_lines(&results[..4]);
        assert!(short[1].is_empty(), "no ao5 of four results");
    }

    #[test]
    fn statistics_read_as_speedsolvers_name_them() {
        let times = [14_210, 15_000, 13_000, 16_000, 14_000];
        let category = Category::new(4, 4, Mode::Single);
        let report = StatsReport::new(times.map(|ms| (category, Attempt::solved(ms, 60, 40))));
        let rows = statistics_rows(report.get(&category).unwrap());
        let ao5 = rows.iter().find(|r| r[0] == "ao5 (time)").unwrap();
        assert_eq!(ao5[1], "14.40");
        let ao12 = rows.iter().find(|r| r[0] == "ao12 (time)").unwrap();
        assert_eq!(ao12[1], "–", "not enough solves");
        let single = rows.iter().find(|r| r[0] == "single (time)").unwrap();
        assert_eq!((single[1].as_str(), single[2].as_str()), ("14.00", "13.00"));
    }
}
