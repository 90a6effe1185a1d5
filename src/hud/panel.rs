//! The panel beside the board (landscape) or below it (portrait, in thumb reach): what board
//! this is, the counters, one status area of fixed height (the solver's progress, a
//! solution's playback, what the solver said, the win's result), and the actions. Nothing in
//! it moves when a status appears, so a tap never lands on the wrong control.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::style::{self, MIN_TOUCH, caption, clock, value};
use super::{Actions, Hud, HudAction, Pending, Sheet, View, egui_rect};
use crate::assist::JobStage;
use crate::game::SPEEDS;
use crate::meter::Trend;
use crate::newgame::NewGameJob;
use crate::review::ReviewCommand;
use crate::settings::{Settings, SettingsCommand};
use crate::theme::{Palette, Theme};
use crate::words::{how_far, moves_text};

/// The status area's height in landscape: two rows of controls.
pub const STATUS_HEIGHT: f32 = 2.0 * MIN_TOUCH + 14.0;
/// The actions' height: two rows of buttons.
pub const TOOLBAR_HEIGHT: f32 = 2.0 * MIN_TOUCH + 10.0;

pub(super) fn show(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut hud: ResMut<Hud>,
    new_game: Res<NewGameJob>,
    view: View,
    mut actions: Actions,
    mut overflow: Local<[Option<egui::Rect>; 2]>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let rect = egui_rect(view.layout.in_points(view.layout.panel)).shrink(8.0);
    let theme = settings.theme;
    let drawn = egui::Area::new(egui::Id::new("panel"))
        .fixed_pos(rect.min)
        .constrain(false)
        .order(egui::Order::Background)
        .show(ctx, |ui| {
            ui.set_width(rect.width());
            header(ui, theme, &view, &mut hud);
            counters(ui, theme, settings.meter, &view);
            // Portrait (and a short window): the actions sit at the panel's bottom, in thumb
            // reach, and the status takes the room between; landscape: the actions follow the
            // status.
            let toolbar_top = if view.layout.portrait || view.layout.compact {
                rect.max.y - TOOLBAR_HEIGHT
            } else {
                ui.cursor().min.y + STATUS_HEIGHT + ui.spacing().item_spacing.y
            };
            let status_rect = egui::Rect::from_min_max(
                ui.cursor().min,
                egui::pos2(rect.max.x, toolbar_top - ui.spacing().item_spacing.y),
            );
            let review = &view.review;
            let reviewing = view.current.game.is_review();
            let said = ui.scope_builder(egui::UiBuilder::new().max_rect(status_rect), |ui| {
                ui.set_clip_rect(status_rect);
                if reviewing {
                    super::review_panel::summary(ui, review);
                } else if new_game.showing() {
                    finding(ui, &mut actions);
                } else {
                    status(ui, &settings, &view, &mut hud, &mut actions);
                }
            });
            report_overflow("status", said.response.rect, status_rect, &mut overflow[1]);
            let toolbar_rect = egui::Rect::from_min_size(
                egui::pos2(rect.min.x, toolbar_top),
                egui::vec2(rect.width(), TOOLBAR_HEIGHT),
            );
            ui.scope_builder(egui::UiBuilder::new().max_rect(toolbar_rect), |ui| {
                if reviewing {
                    super::review_panel::controls(
                        ui,
                        theme,
                        rect.width(),
                        &view,
                        &mut actions.review,
                    );
                } else {
                    toolbar(ui, &settings, rect.width(), &view, &mut actions);
                }
            });
        });
    report_overflow("panel", drawn.response.rect, rect, &mut overflow[0]);
    Ok(())
}

/// Warns, once for each way it happens, when what is drawn runs past its place (cut at the
/// window's edge, under the board, or clipped in the status area): the layout checks under
/// Xvfb look for it.
pub(super) fn report_overflow(
    what: &str,
    drawn: egui::Rect,
    place: egui::Rect,
    last: &mut Option<egui::Rect>,
) {
    let fits = place.expand(0.5).contains_rect(drawn);
    if !fits && *last != Some(drawn) {
        warn!("the {what}'s controls run past its edge: {drawn:?} drawn in {place:?}");
    }
    *last = (!fits).then_some(drawn);
}

/// The board's name and the menu button; the app's name too where there is room.
fn header(ui: &mut egui::Ui, theme: Theme, view: &View, hud: &mut Hud) {
    if !view.layout.portrait && !view.layout.compact {
        ui.label(value("Snapslide", 28.0).color(style::rgb(Palette::of(theme).accent)));
    }
    ui.horizontal(|ui| {
        let board = view.current.game.board();
        let difficulty = view.current.game.kind().label();
        ui.label(style::heading(&format!(
            "{}×{} · {difficulty}",
            board.width(),
            board.height()
        )));
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if style::button(ui, true, "☰ Menu").clicked() {
                hud.sheet = Sheet::Menu;
            }
        });
    });
}

/// Moves, time and tiles left, and the meter when it is on; captions above values, each in a
/// column of its own width, so the row keeps its shape whatever the numbers (and egui has no
/// layout to remember and redo when a digit changes).
fn counters(ui: &mut egui::Ui, theme: Theme, meter_on: bool, view: &View) {
    let game = &view.current.game;
    let third = (ui.available_width() / 3.0).floor();
    let size = counter_size(view);
    if game.is_review() {
        review_counters(ui, third, size, view);
        return;
    }
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 0.0;
        counter(
            ui,
            third,
            "Moves",
            (value(game.moves().to_string(), size), size),
        );
        counter(
            ui,
            third,
            "Time",
            (value(clock(game.elapsed()), size), size),
        );
        if meter_on {
            counter(ui, third, "Shortest", (meter(ui, theme, size, view), size));
        } else {
            let left = value(game.tiles_out_of_place().to_string(), size);
            counter(ui, third, "Tiles left", (left, size));
        }
    });
}

/// The counters' figures' size: smaller in the compact panel of a short window.
fn counter_size(view: &View) -> f32 {
    if view.layout.compact { 22.0 } else { 30.0 }
}

/// A review's own counters: the player's moves, the shortest, and the step along it.
fn review_counters(ui: &mut egui::Ui, third: f32, size: f32, view: &View) {
    let yours = view.current.game.kept().moves();
    let shortest = view.review.found.as_ref().map(|f| f.summary.shortest);
    let shortest = shortest.map_or("…".to_string(), |moves| moves.to_string());
    let step = view.current.game.moves();
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 0.0;
        counter(ui, third, "Yours", (value(yours.to_string(), size), size));
        counter(ui, third, "Shortest", (value(shortest, size), size));
        counter(ui, third, "Step", (value(step.to_string(), size), size));
    });
}

/// One counter: a caption above its value, in a column `width` wide.
fn counter(ui: &mut egui::Ui, width: f32, name: &str, (number, size): (egui::RichText, f32)) {
    let layout = egui::Layout::top_down(egui::Align::Min);
    // The caption's line, and the figure's: about a fifth taller than its size.
    let height = 22.0 + size * 1.2;
    ui.allocate_ui_with_layout(egui::vec2(width, height), layout, |ui| {
        ui.set_width(width);
        ui.spacing_mut().item_spacing.y = 2.0;
        ui.label(caption(name));
        ui.label(number);
    });
}

/// The meter's number: green for a move closer, amber for one away, for a moment.
fn meter(ui: &egui::Ui, theme: Theme, size: f32, view: &View) -> egui::RichText {
    let p = Palette::of(theme);
    let shown = view.meter.shown(view.current.position);
    let text = shown.map_or("…".to_string(), |(r, _)| r.text());
    let colour = match view.meter.flashing() {
        Some(Trend::Closer) => style::rgb(p.good),
        Some(Trend::Further) => style::rgb(p.warning),
        None if !shown.is_some_and(|(_, current)| current) => style::rgb(p.muted),
        None => style::rgb(p.text),
    };
    if view.meter.flashing().is_some() || view.meter.measuring() {
        ui.ctx().request_repaint();
    }
    value(text, size).color(colour)
}

/// A new puzzle is being looked for.
/// A new puzzle is being looked for: one row, so it fits the status area of the smallest
/// phone (the question of how far is the menu's; here only that it is coming, and Cancel).
fn finding(ui: &mut egui::Ui, actions: &mut Actions) {
    ui.horizontal(|ui| {
        ui.spinner();
        ui.label("Finding a puzzle…");
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if style::button(ui, true, "Cancel").clicked() {
                actions
                    .cancel_new_game
                    .write(crate::messages::CancelNewGame);
            }
        });
    });
}

/// The one status area: what matters most right now.
fn status(
    ui: &mut egui::Ui,
    settings: &Settings,
    view: &View,
    hud: &mut Hud,
    actions: &mut Actions,
) {
    let theme = settings.theme;
    if view.won() {
        result(ui, theme, view);
    } else if let Some(job) = &view.job.0 {
        ui.horizontal_wrapped(|ui| {
            ui.spinner();
            ui.label(job.words());
        });
        ui.horizontal(|ui| {
            if let JobStage::BuildingTables(fraction) = job.stage() {
                ui.add(
                    egui::ProgressBar::new(fraction).desired_width(ui.available_width() - 110.0),
                );
            }
            if style::button(ui, true, "Cancel").clicked() {
                actions.solver.write(crate::messages::SolverCommand::Cancel);
            }
        });
    } else if view.playback.active() {
        playback(ui, settings, view);
    } else if let Some(status) = &view.status.0 {
        said(ui, &status.text, status.details.as_deref(), hud);
    } else if view.current.game.helped() {
        ui.label(
            egui::RichText::new(format!(
                "Helped by the app: no best score for this game. {} since.",
                moves_text(view.current.game.moves_since_help())
            ))
            .weak(),
        );
    } else if view.tiles.loading {
        ui.horizontal_wrapped(|ui| {
            ui.spinner();
            ui.label("Loading the photo…");
        });
    } else if view.current.game.moves() == 0 {
        let game = &view.current.game;
        let shape = game.board().shape();
        if let Some(how_far) = how_far(game.kind(), shape, game.shortest()) {
            ui.label(style::value(how_far, 19.0));
        }
        let how = "Tap a tile in line with the gap.";
        ui.label(egui::RichText::new(how).weak());
    }
}

/// What the solver said, and a "How?" that opens the details (the method, for the curious
/// player who asks) on a sheet of their own, where they can be read whole and scrolled.
fn said(ui: &mut egui::Ui, text: &str, details: Option<&str>, hud: &mut Hud) {
    ui.horizontal_wrapped(|ui| {
        ui.label(text);
        if let Some(details) = details
            && ui.link(egui::RichText::new("How?").weak()).clicked()
        {
            hud.sheet = Sheet::How(details.to_string());
        }
    });
}

/// A solution playing: how far along and how fast, and what the solver said of it (whether
/// it is the shortest).
fn playback(ui: &mut egui::Ui, settings: &Settings, view: &View) {
    ui.label(format!(
        "{} · {:.1} moves a second",
        view.playback.words(),
        settings.speed
    ));
    if let Some(status) = &view.status.0 {
        ui.label(egui::RichText::new(&status.text).weak());
    }
}

/// Pause, stop, slower and faster, while a solution plays.
fn playback_row(
    ui: &mut egui::Ui,
    settings: &Settings,
    width: f32,
    view: &View,
    actions: &mut Actions,
) {
    use crate::messages::SolverCommand;
    let quarter = quarter_of(ui, width);
    ui.horizontal(|ui| {
        let label = if view.playback.paused {
            "Resume"
        } else {
            "Pause"
        };
        if style::wide_button(ui, true, label, quarter).clicked() {
            actions.solver.write(SolverCommand::TogglePause);
        }
        if style::wide_button(ui, true, "Stop", quarter).clicked() {
            actions.solver.write(SolverCommand::Stop);
        }
        let speed = settings.speed;
        if style::wide_button(ui, speed > *SPEEDS.start(), "Slower", quarter).clicked() {
            actions.settings.write(SettingsCommand::Speed(speed / 1.5));
        }
        if style::wide_button(ui, speed < *SPEEDS.end(), "Faster", quarter).clicked() {
            actions.settings.write(SettingsCommand::Speed(speed * 1.5));
        }
    });
}

/// The width of one of four buttons in a row.
fn quarter_of(ui: &egui::Ui, width: f32) -> f32 {
    ((width - 3.0 * ui.spacing().item_spacing.x) / 4.0).floor()
}

/// The win: moves and time, the best, and what next.
fn result(ui: &mut egui::Ui, theme: Theme, view: &View) {
    let r = &view.result.0;
    let p = Palette::of(theme);
    ui.label(
        style::value(
            format!("Solved in {}, {}", moves_text(r.moves), clock(r.time)),
            20.0,
        )
        .color(style::rgb(p.good)),
    );
    let line = if let Some(daily) = r.daily {
        match daily.extra() {
            0 => "Today's puzzle, in the fewest moves possible!".to_string(),
            extra => format!(
                "Today's puzzle: {} more than the shortest ({}).",
                moves_text(extra),
                daily.shortest
            ),
        }
    } else if r.custom {
        "Boards you set up keep no records.".to_string()
    } else if r.helped {
        "The app helped: no best score.".to_string()
    } else {
        let fewest = view.current.game.shortest() == Some(r.moves);
        let fewest = if fewest {
            "The fewest moves possible! "
        } else {
            ""
        };
        let record = if r.record { "A new record! " } else { "" };
        r.best.map_or_else(String::new, |best| {
            format!(
                "{fewest}{record}Best: {}, {}",
                moves_text(best.moves),
                clock(best.time())
            )
        })
    };
    ui.label(egui::RichText::new(line).weak());
}

/// The actions: undo, redo, hint and solve (while a solution plays, its controls; once won,
/// the review); then restart and a new game.
fn toolbar(ui: &mut egui::Ui, settings: &Settings, width: f32, view: &View, actions: &mut Actions) {
    let game = &view.current.game;
    if view.playback.active() {
        playback_row(ui, settings, width, view, actions);
    } else if game.is_won() {
        // Past 4×4 the review compares with the app's best solution, not a proved shortest.
        let label = if crate::assist::proves_shortest(game.board().shape()) {
            "Review your moves against the shortest"
        } else {
            "Review your moves against the app's best"
        };
        if style::wide_button(ui, true, label, width).clicked() {
            actions.review.write(ReviewCommand::Open);
        }
    } else {
        play_row(ui, width, view, actions);
    }
    let half = ((width - ui.spacing().item_spacing.x) / 2.0).floor();
    ui.horizontal(|ui| {
        if style::wide_button(ui, game.moves() > 0, "Restart", half).clicked() {
            actions.hud.write(HudAction::Replace(Pending::Restart));
        }
        if style::primary_button(ui, settings.theme, true, "New game", half).clicked() {
            actions.hud.write(HudAction::Replace(Pending::NewGame));
        }
    });
}

/// Undo, redo, hint and solve.
fn play_row(ui: &mut egui::Ui, width: f32, view: &View, actions: &mut Actions) {
    use crate::messages::{GameCommand, SolverCommand};
    let game = &view.current.game;
    let thinking = view.job.0.is_some();
    let playable = !game.is_won() && !thinking;
    let quarter = quarter_of(ui, width);
    ui.horizontal(|ui| {
        if style::wide_button(ui, game.can_undo() && !thinking, "Undo", quarter).clicked() {
            actions.game.write(GameCommand::Undo);
        }
        if style::wide_button(ui, game.can_redo() && !thinking, "Redo", quarter).clicked() {
            actions.game.write(GameCommand::Redo);
        }
        let hint = if view.hint.at(view.current.position).is_some() {
            "Play hint"
        } else {
            "Hint"
        };
        if style::wide_button(ui, playable, hint, quarter).clicked() {
            actions.solver.write(SolverCommand::Hint);
        }
        if style::wide_button(ui, playable, "Solve", quarter).clicked() {
            actions.solver.write(SolverCommand::Solve);
        }
    });
}
