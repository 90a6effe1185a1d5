//! The challenge's sheets: a finished game as a code to send, and a friend's code to open.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::modal::{modal, sheet_width, title};
use crate::game::{DailyResults, Game};
use crate::history::challenge::challenge_of;
use crate::hud::style;
use crate::hud::{Actions, Hud, Sheet, View};
use crate::messages::OpenChallenge;
use crate::messages::{PasteChallenge, ShareText};
use crate::play::settings::Settings;
use crate::words::{day_share_text, moves_text, result_time};
use challenge::Challenge;

/// The text sent with a challenge made of `game`: "Snapslide 4×4 · 41 moves (shortest 36) ·
/// 58.12 s · beat me: snapslide://c/CODE".
pub fn challenge_text(game: &Game, challenge: &Challenge) -> String {
    let game = game.kept();
    let board = game.start();
    let shortest = game
        .shortest()
        .map_or(String::new(), |s| format!(" (shortest {s})"));
    format!(
        "Snapslide {}×{} · {}{shortest} · {} · beat me: {}",
        board.width(),
        board.height(),
        moves_text(challenge.moves().len()),
        result_time(std::time::Duration::from_millis(challenge.time_ms())),
        challenge.link()
    )
}

/// Whether a challenge's sheet is open (sending one, sharing the day's result, opening one).
pub(super) fn is_open(sheet: &Sheet) -> bool {
    matches!(
        sheet,
        Sheet::SendChallenge(_) | Sheet::ShareDay(..) | Sheet::OpenChallenge(_)
    )
}

/// The sheet.
pub(super) fn show(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut hud: ResMut<Hud>,
    view: View,
    mut actions: Actions,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let width = sheet_width(view.layout.window_points());
    let by_sheet = view.platform.0.shares_by_sheet();
    let closed = draw(ctx, (width, by_sheet), &settings, &mut hud, &mut actions);
    super::close_if(closed, &mut hud);
    Ok(())
}

/// The challenge's sheet that is open; whether it was closed by a tap beside it.
fn draw(
    ctx: &egui::Context,
    (width, by_sheet): (f32, bool),
    settings: &Settings,
    hud: &mut Hud,
    actions: &mut Actions,
) -> bool {
    let verb = if by_sheet { "Share" } else { "Copy" };
    match hud.sheet.clone() {
        Sheet::SendChallenge(text) => modal(ctx, "send-challenge", width, |ui| {
            title(ui, "Challenge a friend", hud);
            send(ui, settings, (&text, verb), actions);
        }),
        Sheet::ShareDay(text, with_solve) => modal(ctx, "share-day", width, |ui| {
            title(ui, "Share today's result", hud);
            share_day(ui, settings, (&text, with_solve.as_deref(), verb), actions);
        }),
        Sheet::OpenChallenge(mut typed) => {
            let mut opened = false;
            let closed = modal(ctx, "open-challenge", width, |ui| {
                title(ui, "Open a challenge", hud);
                opened = open(ui, settings, &mut typed, actions);
            });
            match &mut hud.sheet {
                _ if opened => hud.sheet = Sheet::None,
                Sheet::OpenChallenge(kept) => *kept = typed,
                _ => {}
            }
            closed
        }
        _ => false,
    }
}

/// The text to send, to select and copy, and Copy (the clipboard on the desktop) or Share (a
/// phone's share sheet).
fn send(ui: &mut egui::Ui, settings: &Settings, (text, verb): (&str, &str), actions: &mut Actions) {
    ui.label("Send this to a friend: the link opens your board in Snapslide, checks your solve, and times theirs against it.");
    let mut shown = text.to_string();
    ui.add(
        egui::TextEdit::multiline(&mut shown)
            .desired_width(f32::INFINITY)
            .desired_rows(3),
    );
    if style::primary_button(ui, settings.theme, true, verb, 160.0).clicked() {
        actions.share.write(ShareText(text.to_string()));
    }
}

/// The code as typed, Open (or Enter) and Paste; whether the sheet is to close (a code was
/// opened). A code the app would refuse keeps the sheet and what was typed, with the reason
/// under it, so one typo costs one correction.
fn open(ui: &mut egui::Ui, settings: &Settings, typed: &mut String, actions: &mut Actions) -> bool {
    let mut opened = false;
    ui.label("Paste or type a friend's challenge code, or its snapslide:// link.");
    let field = ui.add(
        egui::TextEdit::singleline(typed)
            .desired_width(f32::INFINITY)
            .hint_text("snapslide://c/…"),
    );
    let entered = field.lost_focus() && ui.input(|input| input.key_pressed(egui::Key::Enter));
    let refusal_id = ui.id().with("refusal");
    if field.changed() {
        ui.data_mut(|data| data.remove::<String>(refusal_id));
    }
    if let Some(refusal) = ui.data(|data| data.get_temp::<String>(refusal_id)) {
        let warning = style::rgb(crate::board::theme::Palette::of(settings.theme).warning);
        ui.label(egui::RichText::new(refusal).color(warning));
    }
    ui.horizontal(|ui| {
        if style::button(ui, true, "Paste").clicked() {
            actions.paste.write(PasteChallenge);
            opened = true;
        }
        let ready = !typed.trim().is_empty();
        let pressed = style::primary_button(ui, settings.theme, ready, "Open", 160.0).clicked();
        if ready && (pressed || entered) {
            match crate::history::challenge::read_code(typed) {
                Ok(_) => {
                    actions.open_challenge.write(OpenChallenge(typed.clone()));
                    opened = true;
                }
                Err(refused) => {
                    ui.data_mut(|data| data.insert_temp(refusal_id, refused));
                    // The reason is drawn in the next pass.
                    ui.ctx().request_repaint();
                }
            }
        }
    });
    opened
}

/// The sheet that sends this finished game, if it can be sent: the puzzle of the day's result
/// (the solve's code only if the player chooses), or a challenge.
pub fn send_sheet(game: &Game, days: &DailyResults) -> Option<Sheet> {
    let challenge = challenge_of(game);
    match game.kept().kind().day() {
        Some(day) if game.kept().is_won() => {
            let result = days.0.get(&day)?;
            let text = day_share_text(day, result, days.streak(crate::game::today()));
            let link = challenge.map(|c| format!("{text} · my solve: {}", c.link()));
            Some(Sheet::ShareDay(text, link))
        }
        _ => challenge.map(|c| Sheet::SendChallenge(challenge_text(game, &c))),
    }
}

/// The day's result, to copy as it is or with the solve's code.
fn share_day(
    ui: &mut egui::Ui,
    settings: &Settings,
    (text, with_solve, verb): (&str, Option<&str>, &str),
    actions: &mut Actions,
) {
    ui.label("Your result, without the board: it spoils nothing for those yet to play.");
    let mut shown = text.to_string();
    ui.add(
        egui::TextEdit::multiline(&mut shown)
            .desired_width(f32::INFINITY)
            .desired_rows(2),
    );
    ui.horizontal_wrapped(|ui| {
        if style::primary_button(ui, settings.theme, true, verb, 120.0).clicked() {
            actions.share.write(ShareText(text.to_string()));
        }
        let with_code = format!("{verb} with my solve as a code");
        if let Some(with_solve) = with_solve
            && style::button(ui, true, &with_code).clicked()
        {
            actions.share.write(ShareText(with_solve.to_string()));
        }
    });
}
