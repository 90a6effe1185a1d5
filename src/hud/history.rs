//! The solve history's sheets: every solve, newest first (Solves), and the speedsolver's
//! statistics of each category (Statistics), in the player's words.

use bevy_egui::egui;

use crate::game::solves::{Ending, Solve};
use crate::game::stats::{AVERAGES, Average, Metric, Statistics, StatsReport, format_figure};
use crate::words::{day_name, result_time};

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
    let board = format!("{}×{}", solve.width, solve.height);
    [day, board, time, moves, tps, shortest]
}

/// The Solves sheet's contents: newest first.
pub fn solves(ui: &mut egui::Ui, history: &[Solve], today: crate::game::Day) {
    if history.is_empty() {
        ui.label("No solves yet: every game you finish is kept here.");
        return;
    }
    egui::Grid::new("solves").striped(true).show(ui, |ui| {
        for heading in ["Day", "Board", "Time", "Moves", "TPS", "Shortest"] {
            ui.label(crate::hud::style::caption(heading));
        }
        ui.end_row();
        for solve in history.iter().rev().take(SOLVES_LISTED) {
            for cell in solve_row(solve, today) {
                ui.label(cell);
            }
            ui.end_row();
        }
    });
    if history.len() > SOLVES_LISTED {
        ui.label(
            egui::RichText::new(format!("and {} older", history.len() - SOLVES_LISTED)).weak(),
        );
    }
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

/// The Statistics sheet's contents: one table for each category.
pub fn statistics(ui: &mut egui::Ui, report: &StatsReport) {
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
        egui::Grid::new(("statistics", name.clone()))
            .striped(true)
            .show(ui, |ui| {
                for heading in ["", "Current", "Best"] {
                    ui.label(crate::hud::style::caption(heading));
                }
                ui.end_row();
                for row in statistics_rows(stats) {
                    for cell in row {
                        ui.label(cell);
                    }
                    ui.end_row();
                }
            });
        ui.add_space(12.0);
    }
}

#[cfg(test)]
mod tests {
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
        };
        let row = solve_row(&solve, 20_000);
        assert_eq!(
            row,
            ["Today", "4×4", "2.34 s", "5 (3 MTM)", "2.13", "5"].map(String::from)
        );
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
