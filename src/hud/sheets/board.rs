//! The daily's shared board in the controls: the win card's "Post to today's board" and what
//! became of the post, the sheet that asks for a name the first time, and Today's board (the
//! ranking as a table, from the file kept when offline). What they show is the leaderboard's
//! [`BoardView`]; what they ask goes to it as [`BoardCommand`]s. With no server's address
//! there is no button and no menu entry.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::modal::{modal, sheet_width, title};
use crate::board::layout::ScreenLayout;
use crate::board::theme::Palette;
use crate::hud::style;
use crate::hud::{Actions, Hud, Sheet, View};
use crate::leaderboard::{BoardCommand, BoardView, DayPost, check_name, standing_words};
use crate::play::settings::Settings;
use crate::words::{moves_text, result_time};

/// What the card says while a result waits for the server.
pub const QUEUED: &str = "Queued: it will be posted when the server can be reached.";

/// A day as the API writes it: `YYYY-MM-DD`.
pub fn date_of(day: crate::game::Day) -> String {
    let (year, month, date) = crate::game::civil_date(day);
    format!("{year:04}-{month:02}-{date:02}")
}

/// Today, as the API writes it.
pub fn today() -> String {
    date_of(crate::game::today())
}

/// The win card's part: on a daily the player solved alone, Post (or what became of the
/// post); nothing without a server's address or on another game.
pub(in crate::hud) fn win_card(
    ui: &mut egui::Ui,
    settings: &Settings,
    view: &View,
    hud: &mut Hud,
    actions: &mut Actions,
) {
    let game = &view.current.game;
    let (Some(day), true) = (game.kind().day(), view.board.enabled()) else {
        return;
    };
    if view.challenged.of(game).is_some() || game.run().is_some() {
        return;
    }
    let date = date_of(day);
    let warning = style::rgb(Palette::of(settings.theme).warning);
    match view.board.days.get(&date) {
        None if game.helped() => {
            let said = "The app helped with this solve: it cannot go on today's board.";
            ui.label(egui::RichText::new(said).weak());
        }
        None => {
            let wide = ui.available_width().min(260.0);
            let post = "Post to today's board";
            if style::primary_button(ui, settings.theme, true, post, wide).clicked() {
                if let Some(challenge) = crate::history::challenge::challenge_of(game) {
                    let code = challenge.code().to_string();
                    actions.board.write(BoardCommand::Post { date, code });
                }
                if view.board.player.is_none() {
                    hud.sheet = Sheet::BoardName(String::new());
                }
            }
        }
        Some(_) if view.board.player.is_none() && view.board.naming => {
            let said = if view.board.offline {
                QUEUED
            } else {
                "Posting…"
            };
            ui.label(egui::RichText::new(said).weak());
        }
        Some(_) if view.board.player.is_none() => {
            ui.label(egui::RichText::new("Give a name to post it.").weak());
            if style::button(ui, true, "Choose a name").clicked() {
                hud.sheet = Sheet::BoardName(String::new());
            }
        }
        Some(DayPost::Queued | DayPost::Waiting) => {
            ui.label(egui::RichText::new(QUEUED).weak());
        }
        Some(DayPost::Posting) => {
            ui.horizontal_wrapped(|ui| {
                style::spinner(ui);
                ui.label("Posting…");
            });
        }
        Some(DayPost::Posted(standing)) => {
            ui.label(style::value(standing_words(standing), 17.0));
            if style::button(ui, true, "Today's board").clicked() {
                actions.board.write(BoardCommand::Fetch(date));
                hud.sheet = Sheet::TodaysBoard;
            }
        }
        Some(DayPost::Refused(sentence)) => {
            let said = format!("Not posted: {sentence}");
            ui.label(egui::RichText::new(said).color(warning));
        }
    }
}

/// The menu's entry for Today's board (only with a server's address); it fetches the day's
/// ranking as it opens.
pub(in crate::hud) fn menu_entry(
    ui: &mut egui::Ui,
    hud: &mut Hud,
    view: &View,
    actions: &mut Actions,
) {
    if view.board.enabled() && style::button(ui, true, "Today's board").clicked() {
        actions.board.write(BoardCommand::Fetch(today()));
        hud.sheet = Sheet::TodaysBoard;
    }
}

/// Whether one of the board's sheets is open.
pub(super) fn is_open(sheet: &Sheet) -> bool {
    matches!(sheet, Sheet::BoardName(_) | Sheet::TodaysBoard)
}

/// The board's sheets: the name asked for, and Today's board.
pub(super) fn show(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    layout: Res<ScreenLayout>,
    board: Res<BoardView>,
    mut hud: ResMut<Hud>,
    mut commands: MessageWriter<BoardCommand>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let width = sheet_width(layout.window_points());
    let closed = match hud.sheet.clone() {
        Sheet::BoardName(mut typed) => {
            if board.player.is_some() {
                // The server made the player: the post goes on.
                hud.sheet = Sheet::None;
                return Ok(());
            }
            let closed = modal(ctx, "board-name", width, |ui| {
                title(ui, "Your name on the board", &mut hud);
                name_form(ui, &settings, &board, &mut typed, &mut commands);
            });
            if let Sheet::BoardName(kept) = &mut hud.sheet {
                *kept = typed;
            }
            closed
        }
        Sheet::TodaysBoard => modal(ctx, "todays-board", width, |ui| {
            title(ui, "Today's board", &mut hud);
            ranking(ui, &board);
        }),
        _ => return Ok(()),
    };
    super::close_if(closed, &mut hud);
    Ok(())
}

/// The name's field and Post: the rules checked here first, then the server's answer (a name
/// taken is its sentence, and the player types another).
fn name_form(
    ui: &mut egui::Ui,
    settings: &Settings,
    board: &BoardView,
    typed: &mut String,
    commands: &mut MessageWriter<BoardCommand>,
) {
    ui.label("The board shows your name beside your time. You choose it once; it stays on this device with the key that posts as you.");
    let field = ui.add(
        egui::TextEdit::singleline(typed)
            .char_limit(40)
            .desired_width(f32::INFINITY)
            .hint_text("1–24 letters, digits, spaces, - _ ."),
    );
    // The sheet opens to be typed in: the field has the keys at once.
    if super::modal::opening(ui) {
        field.request_focus();
    }
    let warning = style::rgb(Palette::of(settings.theme).warning);
    let checked = check_name(typed);
    let said = match (&checked, &board.name_refused) {
        (Err(why), _) if !typed.trim().is_empty() => Some(why.to_string()),
        (_, Some(refused)) if !field.changed() => Some(refused.clone()),
        _ => None,
    };
    if let Some(said) = said {
        ui.label(egui::RichText::new(said).color(warning));
    }
    if board.naming && board.offline {
        let said = "The board cannot be reached now: your name and your result will be posted when it can.";
        ui.label(said);
        return;
    }
    if board.naming {
        ui.horizontal_wrapped(|ui| {
            style::spinner(ui);
            ui.label("Asking the board…");
        });
        return;
    }
    let entered = field.lost_focus() && ui.input(|input| input.key_pressed(egui::Key::Enter));
    let pressed = style::primary_button(ui, settings.theme, checked.is_ok(), "Post", 160.0);
    if let (Ok(name), true) = (checked, pressed.clicked() || entered) {
        commands.write(BoardCommand::Name(name));
    }
}

/// The day's ranking: rank, name, time, moves; when it was fetched, and whether it is the
/// file kept from before (offline).
fn ranking(ui: &mut egui::Ui, board: &BoardView) {
    let Some(kept) = board
        .ranking
        .as_ref()
        .filter(|kept| kept.ranking.date == today())
    else {
        let said = match &board.ranking_failed {
            Some(why) => format!("Today's board cannot be fetched now. {why}"),
            None => "Fetching today's board…".to_string(),
        };
        ui.label(said);
        return;
    };
    let when = clock_time(kept.fetched_ms);
    let said = match (&board.ranking_failed, board.ranking_fresh) {
        (Some(_), _) | (None, false) => format!("Offline: as fetched at {when} (UTC)."),
        (None, true) => format!("Fetched at {when} (UTC)."),
    };
    ui.label(egui::RichText::new(said).weak());
    let results = &kept.ranking.results;
    if results.is_empty() {
        ui.label("No result yet today: be the first.");
        return;
    }
    let rows: Vec<Vec<String>> = results
        .iter()
        .map(|row| {
            let time = result_time(std::time::Duration::from_millis(row.time_ms));
            let mine = board
                .player
                .as_deref()
                .is_some_and(|me| me.eq_ignore_ascii_case(&row.name));
            let name = if mine {
                format!("{} (you)", row.name)
            } else {
                row.name.clone()
            };
            vec![row.rank.to_string(), name, time, row.moves.to_string()]
        })
        .collect();
    crate::hud::table::table(
        ui,
        "todays-board",
        &["Rank", "Name", "Time", "Moves"],
        &rows,
        None,
    );
    let of = moves_text(kept.ranking.optimal as usize);
    ui.label(egui::RichText::new(format!("The shortest solution is {of}.")).weak());
}

/// "14:05", UTC, of a time in ms since the epoch.
fn clock_time(ms: u64) -> String {
    let minutes = ms / 60_000 % (24 * 60);
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_as_the_api_writes_them() {
        assert_eq!(date_of(crate::game::day_of(2026, 12, 7)), "2026-12-07");
        // 7 December 2026, 17:23:37 UTC.
        assert_eq!(clock_time(1_796_664_217_047), "17:23");
    }
}
