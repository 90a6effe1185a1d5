//! The panel beside the board (landscape) or below it (portrait, in thumb reach): what board
//! this is, the counters, one status area (the solver's progress, a solution's playback, what
//! the solver said, the win's result), and the actions. The status area takes all the room
//! between the counters and the actions, whatever it says, and scrolls with its bar in sight
//! where it says more; nothing in the panel moves when a status appears, so a tap never lands
//! on the wrong control. A short portrait panel (a small phone, whose board spans the width)
//! puts the counters in the menu's row; a narrow panel (large text on a small phone) is one
//! scrolling column instead, the actions above the status for the same reason.

use std::time::Instant;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

mod actions;
mod counters;
mod status;

use super::state::Toolbar;
use super::style::{self, MIN_TOUCH, value};
use super::{Actions, Hud, Sheet, View, egui_rect};
use crate::board::layout::ScreenLayout;
use crate::board::theme::{Palette, Theme};
use crate::play::newgame::NewGameJob;
use crate::play::settings::Settings;
use actions::actions_rows;
use counters::{Shape, counters};
use status::{finding, status};

/// The status area's least height beside the board: two rows of controls.
pub const STATUS_HEIGHT: f32 = 2.0 * MIN_TOUCH + 14.0;

/// The least page beside the board, in the controls' points: the app's name, the board's
/// name, the counters, the status area, the actions, and the room between them.
const BESIDE_PAGE: f32 = 48.0 + MIN_TOUCH + 58.0 + STATUS_HEIGHT + 40.0 + TOOLBAR_HEIGHT;

/// The actions' height: two rows of buttons.
pub const TOOLBAR_HEIGHT: f32 = 2.0 * MIN_TOUCH + 10.0;

pub(super) fn show(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut hud: ResMut<Hud>,
    new_game: Res<NewGameJob>,
    view: View,
    mut actions: Actions,
    mut overflow: Local<[Option<egui::Rect>; 3]>,
) -> Result {
    if hud.sheet.hides_board() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let covered = hud.sheet != Sheet::None;
    let rect = panel_rect(&view.layout);
    let narrow = rect.width() < NARROW;
    // A panel too short for its page (large text on a small phone, a phone on its side with
    // its bars) flows and scrolls: the actions come right after the counters, in sight.
    let one_row = view.layout.portrait && rect.height() < PANEL_PAGE;
    let page = page_rect(rect, &view.layout, one_row);
    let drawn = panel_area(ctx, rect, |ui| {
        if covered {
            super::sheets::modal::covered(ui);
        }
        let mut parts = Parts {
            settings: &settings,
            hud: &mut hud,
            finding: new_game.showing(),
            view: &view,
            actions: &mut actions,
        };
        if narrow || page.height() > rect.height() + 0.5 {
            // The bar, always in sight, lies over the page's right edge rather than take
            // room from it: four buttons keep their row where they fit the panel.
            ui.spacing_mut().scroll.floating_allocated_width = 0.0;
            let scrolled = egui::ScrollArea::vertical()
                .max_height(rect.height())
                .show(ui, |ui| flowing(ui, rect.width(), narrow, &mut parts));
            // Unscrolled, the actions are where they are first seen.
            (scrolled.state.offset.y == 0.0).then_some(scrolled.inner)
        } else {
            Some(contents(ui, (page, one_row), &mut parts, &mut overflow[1]))
        }
    });
    report_overflow("panel", drawn.response.rect, rect, &mut overflow[0]);
    // At the text size the app is designed for, every action is in sight without scrolling
    // (the play-test found Restart and New game below the fold of a phone on its side).
    if let Some(actions) = drawn.inner.filter(|_| view.layout.text_scale <= 1.0) {
        report_overflow("toolbar", actions, rect, &mut overflow[2]);
    }
    Ok(())
}

/// The room between the panel's edge and its controls, in the controls' points.
const PANEL_PADDING: f32 = 8.0;

/// The panel's area on the screen, `rect` large whatever size it was last drawn at: egui lays
/// an area's contents out in the size it last had, so a panel that once flowed in a short
/// rect (200 % text on a phone on its side) stayed that short back at 100 % (play-test 70:
/// Undo, Hint, Restart and New game hidden until a restart).
fn panel_area<R>(
    ctx: &egui::Context,
    rect: egui::Rect,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> egui::InnerResponse<R> {
    egui::Area::new(egui::Id::new("panel"))
        .fixed_pos(rect.min)
        .constrain(false)
        .order(egui::Order::Background)
        .show(ctx, |ui| {
            ui.set_width(rect.width());
            ui.set_min_height(rect.height());
            add(ui)
        })
}

/// The height the panel's controls need with the board's name and the counters on rows of
/// their own, in the controls' points (header, counters, two lines of status, two rows of
/// actions); a shorter portrait panel puts the counters in the menu's row.
pub const PANEL_PAGE: f32 = 314.0;

/// The height the panel's controls need at the least, in the controls' points: the counters
/// and the menu in a row, and two rows of actions. What the layout gives a portrait panel at
/// the least, less its padding, so a phone at 100 % never scrolls its buttons below the fold.
pub const PANEL_PAGE_LEAST: f32 = crate::board::layout::PANEL_LEAST - 2.0 * PANEL_PADDING;

/// The top of the panel's status area, in the controls' points: below the header and the
/// counters (where the actions come first, below the header alone). Notices hang from here,
/// so the menu, Peek and the counters stay in sight (play-test 70: a notice covered them for
/// 8 s).
pub fn status_top(layout: &ScreenLayout) -> f32 {
    let rect = panel_rect(layout);
    let spacing = 10.0;
    let title = match layout.portrait || layout.compact {
        true => 0.0,
        false => APP_NAME_HEIGHT + spacing,
    };
    let one_row = layout.portrait && rect.height() < PANEL_PAGE;
    let flows =
        rect.width() < NARROW || page_rect(rect, layout, one_row).height() > rect.height() + 0.5;
    let counters = if layout.compact { 48.0 } else { 58.0 };
    // A flowing page's counters stacked come after the actions: below the header then.
    let stacked = rect.width() < COUNTERS_IN_A_ROW;
    let above = match (flows, one_row) {
        (true, _) if stacked => MIN_TOUCH + spacing,
        (false, true) => MIN_TOUCH + ONE_ROW_SPACING,
        _ => MIN_TOUCH + counters + 2.0 * spacing,
    };
    rect.min.y + title + above
}

/// The app's name's height above the panel beside the board, in the controls' points.
const APP_NAME_HEIGHT: f32 = 38.0;

/// Where the panel's controls go, in the controls' points: the panel less its padding.
fn panel_rect(layout: &ScreenLayout) -> egui::Rect {
    egui_rect(layout.in_points(layout.panel)).shrink(PANEL_PADDING)
}

/// The room between the rows of a short portrait panel's page (the menu's row, the status,
/// the two rows of actions), in the controls' points.
const ONE_ROW_SPACING: f32 = 6.0;

// A short portrait page holds the menu's row, the two rows of actions and the room between
// them and the status, with some left for the status (scrolled, its bar in sight).
const _: () = assert!(
    MIN_TOUCH + 3.0 * ONE_ROW_SPACING + TOOLBAR_HEIGHT - 10.0 + 10.0 <= PANEL_PAGE_LEAST
        && PANEL_PAGE_LEAST < PANEL_PAGE
);

/// The page the panel's controls are laid out on: the panel, or taller where the controls
/// need more (then the panel flows and scrolls instead). Beside the board its foot is the
/// board's, so the actions end where the board does and the status area takes the room above
/// them (play-test 70: a fixed status area hid the friend's result over 280 empty points).
fn page_rect(rect: egui::Rect, layout: &ScreenLayout, one_row: bool) -> egui::Rect {
    let least = if one_row {
        PANEL_PAGE_LEAST
    } else {
        PANEL_PAGE
    };
    let needed = least + toolbar_height(rect.width()) - TOOLBAR_HEIGHT;
    let foot = if layout.portrait || layout.compact {
        rect.max.y
    } else {
        let board = layout.in_points(layout.board_rect());
        board.max.y.max(rect.min.y + BESIDE_PAGE).min(rect.max.y)
    };
    rect.with_max_y(foot.max(rect.min.y + needed))
}

/// What the panel's page is drawn from.
struct Parts<'a, 'v, 'w> {
    settings: &'a Settings,
    hud: &'a mut Hud,
    finding: bool,
    view: &'a View<'v>,
    actions: &'a mut Actions<'w>,
}

/// The panel's page: header, counters (in the header's row where the page is `one_row`),
/// the status area, and the actions at the page's bottom. It is laid out on the screen, so it
/// is never scrolled: a short panel flows instead. Returns where the actions were drawn.
fn contents(
    ui: &mut egui::Ui,
    (page, one_row): (egui::Rect, bool),
    parts: &mut Parts,
    overflow: &mut Option<egui::Rect>,
) -> egui::Rect {
    let (settings, view) = (parts.settings, parts.view);
    let theme = settings.theme;
    if one_row {
        // Rows closer together: a small phone's status gets a line more.
        ui.spacing_mut().item_spacing.y = ONE_ROW_SPACING;
        header_with_counters(ui, settings, view, parts.hud);
    } else {
        header(ui, theme, view, parts.hud, false);
        counters(ui, theme, settings.meter, view, Shape::Row);
    }
    // Two rows of actions (a narrow panel's three flow instead), the page's room between.
    let toolbar = TOOLBAR_HEIGHT - 10.0 + ui.spacing().item_spacing.y;
    let toolbar_top = page.max.y - toolbar;
    let status_rect = egui::Rect::from_min_max(
        ui.cursor().min,
        egui::pos2(page.max.x, toolbar_top - ui.spacing().item_spacing.y),
    );
    // The status takes the room there is; one longer than its area (a challenge's two
    // results on a small phone) scrolls there, its first line and its bar in sight, rather
    // than being cut by the actions.
    let said = ui.scope_builder(egui::UiBuilder::new().max_rect(status_rect), |ui| {
        egui::ScrollArea::vertical()
            .id_salt("status")
            .max_height(status_rect.height())
            .min_scrolled_height(status_rect.height())
            .auto_shrink([false, true])
            .scroll_source(egui::scroll_area::ScrollSource::ALL)
            .show(ui, |ui| status_area(ui, parts));
    });
    report_overflow("status", said.response.rect, status_rect, overflow);
    let toolbar_rect = egui::Rect::from_min_size(
        egui::pos2(page.min.x, toolbar_top),
        egui::vec2(page.width(), toolbar),
    );
    ui.scope_builder(egui::UiBuilder::new().max_rect(toolbar_rect), |ui| {
        toolbar_area(ui, page.width(), parts);
    })
    .response
    .rect
}

/// A narrow or short panel's page (large text on a small phone, a phone on its side): one
/// column at the parts' own heights, scrolled where it is taller than the panel. The actions
/// come before the status, so they are in sight and a status that appears moves no button.
/// Returns where the actions were drawn.
fn flowing(ui: &mut egui::Ui, width: f32, narrow: bool, parts: &mut Parts) -> egui::Rect {
    let (settings, view) = (parts.settings, parts.view);
    header(ui, settings.theme, view, parts.hud, narrow);
    // The counters keep their row while three columns fit (a phone on its side with a notch
    // is narrow and short: one a row would push New game below the fold).
    let stacked = narrow && width < COUNTERS_IN_A_ROW;
    let shape = if stacked { Shape::Stacked } else { Shape::Row };
    // Stacked, the counters are three rows: the actions come first, in sight (play-test 70:
    // at 200 % on a phone only the board's name showed above the fold).
    if !stacked {
        counters(ui, settings.theme, settings.meter, view, shape);
    }
    let actions = ui.scope(|ui| toolbar_area(ui, width, parts)).response.rect;
    ui.add_space(ui.spacing().item_spacing.y);
    if stacked {
        counters(ui, settings.theme, settings.meter, view, shape);
    }
    let status = ui.scope(|ui| status_area(ui, parts)).response.rect;
    // News in the status (the win, a hint) is brought into sight once, below the actions
    // (play-test 59: at 200 % text the win line was below the fold): its first lines, no
    // further than it takes (play-test 70: a win on a phone on its side scrolled the menu
    // and the counters off the top); the scroll bar shows there is more.
    if news_arrived(ui, view) {
        let first_lines = status.with_max_y(status.max.y.min(status.min.y + NEWS_IN_SIGHT));
        ui.scroll_to_rect(first_lines, None);
    }
    actions
}

/// How much of a status with news is brought into sight, in the controls' points: its first
/// two lines.
const NEWS_IN_SIGHT: f32 = 48.0;

/// Whether the status has news the player has not been shown: the game won, or a hint
/// given, since the panel was last drawn.
fn news_arrived(ui: &egui::Ui, view: &View) -> bool {
    let id = egui::Id::new("panel-news");
    let news = (view.won(), view.hint.tile());
    let last = ui.data_mut(|data| data.get_temp::<(bool, Option<u8>)>(id));
    ui.data_mut(|data| data.insert_temp(id, news));
    last.is_some_and(|last| last != news) && (news.0 || news.1.is_some())
}

/// The status area's contents: a review's summary, the search for a new puzzle, or the
/// game's status.
fn status_area(ui: &mut egui::Ui, parts: &mut Parts) {
    let view = parts.view;
    if view.current.game.is_replay() {
        super::replay_panel::summary(ui, &view.replaying, &mut parts.actions.replay);
    } else if view.current.game.is_review() {
        super::review_panel::summary(ui, &view.review, view.current.game.board().shape());
    } else if parts.finding {
        finding(ui, parts.actions);
    } else {
        status(ui, parts.settings, view, parts.hud, parts.actions);
    }
}

/// The actions' rows: a review's controls, or the game's.
/// A row that has just turned into another (Stop into Review as a solution ends, Solve into
/// Pause) ignores taps for a moment, so a tap meant for the old button does not press the new.
fn toolbar_area(ui: &mut egui::Ui, width: f32, parts: &mut Parts) {
    let view = parts.view;
    let held = !parts.hud.toolbar.show(toolbar_of(view), Instant::now());
    if view.current.game.is_replay() {
        let theme = parts.settings.theme;
        super::replay_panel::controls(ui, theme, width, view, parts.actions, held);
    } else if view.current.game.is_review() {
        let review = &mut parts.actions.review;
        super::review_panel::controls(ui, parts.settings.theme, width, view, review, held);
    } else {
        actions_rows(ui, parts.settings, width, view, parts.actions, held);
    }
}

/// Which row of actions the game's state calls for.
fn toolbar_of(view: &View) -> Toolbar {
    let game = &view.current.game;
    if game.is_replay() {
        Toolbar::Replay
    } else if game.is_review() {
        Toolbar::Review
    } else if view.playback.active() {
        Toolbar::Playback
    } else if game.is_won() {
        Toolbar::Won
    } else {
        Toolbar::Play
    }
}

/// The width under which four buttons do not fit a row (two rows of two then).
pub const NARROW: f32 = 300.0;

/// The width under which the three counters do not fit a row (one a row then).
pub const COUNTERS_IN_A_ROW: f32 = 240.0;

/// The actions' height for a panel this wide: two rows, or three where four buttons do not
/// fit one.
fn toolbar_height(width: f32) -> f32 {
    if width < NARROW {
        3.0 * MIN_TOUCH + 20.0
    } else {
        TOOLBAR_HEIGHT
    }
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

/// The board's name and the menu button; the app's name too where there is room. In a narrow
/// panel the button is its icon alone (a screen reader still hears "Menu").
fn header(ui: &mut egui::Ui, theme: Theme, view: &View, hud: &mut Hud, narrow: bool) {
    if !view.layout.portrait && !view.layout.compact {
        ui.label(value("Snapslide", 28.0).color(style::rgb(Palette::of(theme).accent)));
    }
    let board = view.current.game.board();
    let difficulty = match view.challenged.of(&view.current.game) {
        Some(_) => "A friend's challenge".to_string(),
        None => view.current.game.kind().label(),
    };
    let size = format!("{}×{}", board.width(), board.height());
    // The buttons first, at the right; the name in the width left, on two lines if need be.
    // A narrow panel names the board's size alone, so Peek keeps its place (play-test 70:
    // it went at 200 % on a phone); the menu says the rest.
    let name = match narrow {
        true => size,
        false => format!("{size} · {difficulty}"),
    };
    header_row(ui, view, hud, (narrow, true), |ui| {
        // Where even the size does not fit (a small phone at 200 %), the buttons have the row.
        let heading = style::heading(&name);
        if !narrow || text_fits(ui, &heading) {
            ui.add(egui::Label::new(heading).wrap());
        }
    });
}

/// Whether a text fits the width left on one line.
fn text_fits(ui: &egui::Ui, text: &egui::RichText) -> bool {
    let text: egui::WidgetText = text.clone().into();
    let galley = text.into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Body,
    );
    galley.size().x <= ui.available_width()
}

/// A short portrait panel's first row: the counters, Peek, and the menu button (its icon
/// alone, a screen reader still hears "Menu"). The board's name is left out: the board shows
/// its size, and the menu says the rest.
fn header_with_counters(ui: &mut egui::Ui, settings: &Settings, view: &View, hud: &mut Hud) {
    header_row(ui, view, hud, (true, true), |ui| {
        counters(ui, settings.theme, settings.meter, view, Shape::InHeader);
    });
}

/// A row of the thumb's height: the menu button (its icon alone where `icon`) and Peek
/// (where `peek`) at the right, and `left` in the width left.
fn header_row(
    ui: &mut egui::Ui,
    view: &View,
    hud: &mut Hud,
    (icon, peek): (bool, bool),
    left: impl FnOnce(&mut egui::Ui),
) {
    let row = egui::vec2(ui.available_width(), MIN_TOUCH);
    let layout = egui::Layout::right_to_left(egui::Align::Center);
    ui.allocate_ui_with_layout(row, layout, |ui| {
        let menu = if icon { "☰" } else { "☰ Menu" };
        let button = style::button(ui, true, menu);
        button.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Button, true, "Menu"));
        if button.clicked() {
            hud.sheet = Sheet::Menu;
        }
        // Held, the whole photo shows over the board (play-test 59: "See the photo" was the
        // menu's last row). Not while solving blind, nor once the photo is whole.
        let game = &view.current.game;
        let can_peek = !game.blindfolded() && !game.is_won() && view.tiles.picture.is_some();
        hud.peeking =
            peek && can_peek && style::button(ui, true, "Peek").is_pointer_button_down_on();
        ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), left);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::layout::{layout_for, layout_scaled};
    use crate::platform::SafeArea;

    /// The status area's height on a page: what the rows above and below it leave.
    fn status_room(page: egui::Rect, rows: f32) -> f32 {
        page.height() - rows - TOOLBAR_HEIGHT
    }

    #[test]
    fn beside_the_board_the_status_takes_the_room_above_the_actions() {
        // Play-test 70: the friend's result hid in a status area of fixed height, over 280
        // empty points below the actions.
        let layout = layout_for(Vec2::new(1100.0, 720.0), SafeArea::default(), 4, 4);
        let rect = panel_rect(&layout);
        let page = page_rect(rect, &layout, false);
        let board = layout.in_points(layout.board_rect());
        assert!(
            (page.max.y - board.max.y).abs() <= 1.0,
            "{page:?} {board:?}"
        );
        // The app's name, the board's name and the counters above it, with the room between.
        let status = status_room(page, 48.0 + MIN_TOUCH + 58.0 + 40.0);
        assert!(status >= 3.0 * STATUS_HEIGHT, "{status} in {page:?}");
    }

    /// The panel's area drawn in `rect`, a scrolled page of 600 points in it; where it was
    /// drawn.
    fn drawn_in(ctx: &egui::Context, rect: egui::Rect) -> egui::Rect {
        let mut drawn = egui::Rect::NOTHING;
        let mut output = ctx.run_ui(Default::default(), |ctx| {
            drawn = panel_area(ctx, rect, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(rect.height())
                    .show(ui, |ui| ui.allocate_space(egui::vec2(rect.width(), 600.0)));
            })
            .response
            .rect;
        });
        output.textures_delta.clear();
        drawn
    }

    #[test]
    fn the_panel_grows_back_when_the_text_gets_smaller() {
        let ctx = egui::Context::default();
        let small = egui::Rect::from_min_size(egui::pos2(8.0, 8.0), egui::vec2(200.0, 125.0));
        let large = egui::Rect::from_min_size(egui::pos2(8.0, 8.0), egui::vec2(304.0, 266.0));
        for _ in 0..3 {
            drawn_in(&ctx, small);
        }
        for _ in 0..3 {
            drawn_in(&ctx, large);
        }
        assert_eq!(drawn_in(&ctx, large), large);
    }

    #[test]
    fn a_small_phone_upright_keeps_its_page_on_the_panel() {
        let safe = SafeArea {
            top: 44.0,
            right: 0.0,
            bottom: 34.0,
            left: 0.0,
        };
        for window in [Vec2::new(320.0, 568.0), Vec2::new(360.0, 640.0)] {
            let layout = layout_scaled(window, safe, (4, 4), 1.0);
            let rect = panel_rect(&layout);
            // The counters share the menu's row, and the page is the panel: nothing scrolls.
            assert!(rect.height() < PANEL_PAGE, "{rect:?}");
            assert_eq!(page_rect(rect, &layout, true), rect);
        }
    }
}
