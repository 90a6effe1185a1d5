//! The panel's one status area: what matters most right now (the solver's progress, a
//! solution's playback, what the solver said, the win's result, how to start).

use bevy_egui::egui;

use super::{Actions, Hud, Sheet, View};
use crate::assist::JobStage;
use crate::board::theme::{Palette, Theme};
use crate::game::WinResult;
use crate::hud::style;
use crate::play::settings::Settings;
use crate::words::{how_far, moves_text, result_time};

/// A new puzzle is being looked for: one row where it fits, so it fits the status area of
/// the smallest phone (the question of how far is the menu's; here only that it is coming,
/// and Cancel).
pub(super) fn finding(ui: &mut egui::Ui, actions: &mut Actions) {
    // Cancel at the row's end, or on a row of its own where the words fill a narrow panel.
    ui.horizontal_wrapped(|ui| {
        style::spinner(ui);
        ui.label("Finding a puzzle…");
        if style::button(ui, true, "Cancel").clicked() {
            actions
                .cancel_new_game
                .write(crate::messages::CancelNewGame);
        }
    });
}

/// The one status area: what matters most right now.
pub(super) fn status(
    ui: &mut egui::Ui,
    settings: &Settings,
    view: &View,
    hud: &mut Hud,
    actions: &mut Actions,
) {
    let theme = settings.theme;
    if view.won() {
        result(ui, theme, view, actions);
        crate::hud::sheets::board::win_card(ui, settings, view, hud, actions);
        if hud.solves_kept {
            ui.label(egui::RichText::new("Kept in your solves.").weak());
        }
    } else if let Some(text) = line_read(hud, view) {
        ui.label(text);
    } else if let Some(job) = &view.job.0 {
        ui.horizontal_wrapped(|ui| {
            style::spinner(ui);
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
        let since = view.current.game.moves_since_help();
        ui.label(egui::RichText::new(helped_words(since)).weak());
    } else if view.tiles.loading {
        ui.horizontal_wrapped(|ui| {
            style::spinner(ui);
            ui.label("Loading the photo…");
        });
    } else if let Some(friend) = view.challenged.of(&view.current.game) {
        let time = result_time(std::time::Duration::from_millis(friend.time_ms()));
        let said = format!(
            "A friend's challenge: {} in {time}. Beat it!",
            moves_text(friend.moves().len())
        );
        ui.label(style::value(said, 17.0));
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

/// The row or column read last, while the board is as it was read.
fn line_read(hud: &Hud, view: &View) -> Option<String> {
    let (text, at) = hud.line_read.as_ref()?;
    (*at == view.current.position).then(|| text.clone())
}

/// What the solver said, and a "How?" that opens the details (the method, for the curious
/// player who asks) on a sheet of their own, where they can be read whole and scrolled.
fn said(ui: &mut egui::Ui, text: &str, details: Option<&str>, hud: &mut Hud) {
    let Some(details) = details else {
        // Alone, the words wrap as any label's, at the text's own line height.
        ui.label(text);
        return;
    };
    ui.scope(|ui| {
        // Rows as tall as the text, set before the wrapped row starts (its first row takes
        // its height then): a wrapped first line is not set apart from the rest.
        ui.spacing_mut().interact_size.y = ui.text_style_height(&egui::TextStyle::Body);
        ui.horizontal_wrapped(|ui| {
            ui.label(text);
            if ui.link(egui::RichText::new("How?").weak()).clicked() {
                hud.sheet = Sheet::How(details.to_string());
            }
        });
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

/// What the status says of a game the app helped with; the moves since, once there are some
/// (after a restart there are none, and "0 moves since" says nothing).
fn helped_words(moves_since_help: usize) -> String {
    let said = "The app helped with this game: it keeps no best score.";
    match moves_since_help {
        0 => said.to_string(),
        moves => format!("{said} {} of your own since.", moves_text(moves)),
    }
}

/// A challenge won: who won, then the player's result and the friend's side by side (moves,
/// the moves as slides of a line, time, and moves a second); each one's name watches it.
fn versus(
    ui: &mut egui::Ui,
    theme: Theme,
    (r, game): (&WinResult, &crate::game::Game),
    friend: &challenge::Challenge,
    actions: &mut Actions,
) {
    let yours = (r.moves, r.time.as_millis() as u64);
    let theirs = (friend.moves().len(), friend.time_ms());
    let verdict = crate::history::challenge::verdict(yours, theirs);
    let colour = style::rgb(verdict_colour(&Palette::of(theme), yours, theirs));
    ui.label(style::value(&verdict, 18.0).color(colour));
    let mtm = (
        npuzzle::mtm_length(&game.history_in_effect()),
        npuzzle::mtm_length(friend.moves()),
    );
    // Each result's name is a link that watches it: the friend's solve, or the player's own.
    let watch = [
        crate::history::replay::Watched::of_game(game),
        crate::history::replay::Watched::of_challenge(friend),
    ];
    let mut watched = None;
    let [captions, rows @ ..] = versus_rows(yours, theirs, mtm);
    let captions: Vec<&str> = captions.iter().map(String::as_str).collect();
    let rows: Vec<Vec<String>> = rows.into_iter().map(Vec::from).collect();
    let mut link = |ui: &mut egui::Ui, who: usize| {
        let Some(solve) = watch[who].as_ref() else {
            return;
        };
        let link = ui.link("⏵ Watch");
        let name = format!("Watch {}", solve.whose.to_lowercase());
        link.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Link, true, &name));
        if link.clicked() {
            watched = Some(solve.clone());
        }
    };
    ui.scope(|ui| {
        // Rows as tall as the text, so the two results fit the status area.
        ui.spacing_mut().interact_size.y = ui.text_style_height(&egui::TextStyle::Body);
        ui.spacing_mut().item_spacing.y = 2.0;
        let link_width = style::text_width(ui, "⏵ Watch", egui::TextStyle::Body);
        crate::hud::table::table(
            ui,
            "versus",
            &captions,
            &rows,
            Some((link_width, &mut link)),
        );
    });
    if let Some(watched) = watched {
        let watch = crate::history::replay::ReplayCommand::Watch(Box::new(watched));
        actions.replay.write(watch);
    }
}

/// The verdict's colour: success for a race won, the warning's for one lost (play-test 70
/// found a loss in the success colour), the text's for a tie. Results are (moves, time): the
/// race is on time, then on moves, as [`crate::history::challenge::verdict`] says first.
fn verdict_colour(p: &Palette, yours: (usize, u64), theirs: (usize, u64)) -> [u8; 3] {
    match (yours.1, yours.0).cmp(&(theirs.1, theirs.0)) {
        std::cmp::Ordering::Less => p.good,
        std::cmp::Ordering::Greater => p.warning,
        std::cmp::Ordering::Equal => p.text,
    }
}

/// The two results side by side: a heading row, then the player's and the friend's moves,
/// moves as slides of a line (MTM), time and moves a second.
pub fn versus_rows(
    yours: (usize, u64),
    theirs: (usize, u64),
    (your_mtm, their_mtm): (usize, usize),
) -> [[String; 5]; 3] {
    let time = |ms: u64| result_time(std::time::Duration::from_millis(ms));
    let tps = |(moves, ms): (usize, u64)| match ms {
        0 => "–".to_string(),
        ms => format!("{:.2}", moves as f64 * 1000.0 / ms as f64),
    };
    let row = |who: &str, (moves, ms): (usize, u64), mtm: usize| {
        let [a, b, c, d] = [
            moves.to_string(),
            mtm.to_string(),
            time(ms),
            tps((moves, ms)),
        ];
        [who.to_string(), a, b, c, d]
    };
    [
        ["", "Moves", "MTM", "Time", "TPS"].map(String::from),
        row("You", yours, your_mtm),
        row("Friend", theirs, their_mtm),
    ]
}

/// A run's end: "Marathon ×10 done in 3:12", "Blind: DNF, the board is not solved", or no
/// claim the player did it alone when the app helped.
fn run_headline(run: &crate::game::event::Run, r: &WinResult, dnf: bool) -> String {
    let event = run.event.label();
    match (dnf, r.helped) {
        (true, _) => format!("{event}: DNF, the board is not solved"),
        (_, true) => format!("{event} done, with the app's help"),
        _ => format!("{event} done in {}", result_time(r.time)),
    }
}

/// A run's figures: "10 boards, 812 moves (590 MTM), 4.21 moves a second".
fn run_line(run: &crate::game::event::Run, game: &crate::game::Game) -> String {
    let (moves, mtm) = (game.total_moves(), game.total_mtm());
    let seconds = game.elapsed().as_secs_f64();
    let tps = match seconds > 0.0 {
        true => format!(", {:.2} moves a second", moves as f64 / seconds),
        false => String::new(),
    };
    let moves = format!("{} ({mtm} MTM){tps}", moves_text(moves));
    match run.legs() {
        1 => moves,
        legs => format!("{legs} boards, {moves}"),
    }
}

/// The win's first line: "Solved in 80 moves, 1:04" when the player solved it, and no claim
/// that they did when the app helped (it may have made every move). The counters give the
/// moves counted as slides of a line (MTM) beside it.
fn headline(r: &WinResult) -> String {
    if r.helped {
        "Solved, with the app's help".to_string()
    } else {
        format!("Solved in {}, {}", moves_text(r.moves), result_time(r.time))
    }
}

/// The win: moves and time, and the best (or the friend's result beside the player's).
fn result(ui: &mut egui::Ui, theme: Theme, view: &View, actions: &mut Actions) {
    let r = &view.result.0;
    let p = Palette::of(theme);
    // A friend's challenge: who won, and the two results side by side.
    if let Some(friend) = view.challenged.of(&view.current.game) {
        versus(ui, theme, (r, &view.current.game), friend, actions);
        return;
    }
    if let Some(run) = view.current.game.run() {
        let dnf = view.current.game.is_dnf();
        let color = if dnf { p.warning } else { p.good };
        let headline = run_headline(run, r, dnf);
        ui.label(style::value(headline, 20.0).color(style::rgb(color)));
        ui.label(egui::RichText::new(run_line(run, &view.current.game)).weak());
        for record in &view.result.1 {
            ui.label(style::value(record, 17.0).color(style::rgb(p.accent)));
        }
        return;
    }
    ui.label(style::value(headline(r), 20.0).color(style::rgb(p.good)));
    let line = if r.helped {
        format!(
            "{}, {}. No best score for a game the app helped with.",
            moves_text(r.moves),
            result_time(r.time)
        )
    } else if let Some(daily) = r.daily {
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
    } else {
        let fewest = view.current.game.shortest() == Some(r.moves);
        let fewest = if fewest {
            "The fewest moves possible! "
        } else {
            ""
        };
        let record = match (r.first, r.record) {
            (true, _) => "Your first win at this size and difficulty! ",
            (false, true) => "A new record! ",
            (false, false) => "",
        };
        r.best.map_or_else(String::new, |best| {
            format!(
                "{fewest}{record}Best: {}, {}",
                moves_text(best.moves),
                result_time(best.time())
            )
        })
    };
    ui.label(egui::RichText::new(line).weak());
    for record in &view.result.1 {
        ui.label(style::value(record, 17.0).color(style::rgb(p.accent)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_is_said_without_a_count_of_nothing() {
        assert!(!helped_words(0).contains('0'), "{}", helped_words(0));
        assert!(helped_words(3).contains("3 moves of your own"));
    }

    #[test]
    fn a_challenge_puts_the_two_results_side_by_side() {
        let rows = versus_rows((16, 6_710), (14, 4_280), (13, 11));
        assert_eq!(rows[0], ["", "Moves", "MTM", "Time", "TPS"]);
        assert_eq!(rows[1], ["You", "16", "13", "6.71 s", "2.38"]);
        assert_eq!(rows[2], ["Friend", "14", "11", "4.28 s", "3.27"]);
        assert_eq!(versus_rows((3, 0), (3, 0), (1, 1))[1][4], "–");
    }

    #[test]
    fn a_lost_challenge_is_not_shown_in_the_success_colour() {
        let p = Palette::of(Theme::Dark);
        // Faster wins, whatever the moves (speedsolvers race on time).
        assert_eq!(verdict_colour(&p, (18, 2_000), (14, 9_000)), p.good);
        assert_eq!(verdict_colour(&p, (14, 9_000), (18, 2_000)), p.warning);
        assert_eq!(verdict_colour(&p, (14, 3_000), (14, 2_000)), p.warning);
        assert_eq!(verdict_colour(&p, (13, 2_000), (14, 2_000)), p.good);
        assert_eq!(verdict_colour(&p, (14, 2_000), (14, 2_000)), p.text);
        // The words agree with the colour.
        let verdict = crate::history::challenge::verdict;
        assert!(verdict((14, 9_000), (18, 2_000)).starts_with("Your friend won on time"));
        assert!(verdict((18, 2_000), (14, 9_000)).starts_with("You won on time"));
    }

    #[test]
    fn a_helped_win_does_not_say_the_player_solved_it() {
        let mut result = WinResult {
            moves: 80,
            time: std::time::Duration::from_secs(64),
            ..Default::default()
        };
        assert_eq!(headline(&result), "Solved in 80 moves, 1:04");
        result.time = std::time::Duration::from_millis(24_370);
        assert_eq!(headline(&result), "Solved in 80 moves, 24.37 s");
        result.helped = true;
        assert!(!headline(&result).contains("Solved in"));
    }
}
