//! The menu: the next game (size and difficulty), the photo (chosen from thumbnails, or from
//! the gallery or camera), the options, and the way to the other sheets. The game waits
//! underneath, its clock stopped; nothing here throws it away without asking.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::modal::{modal, sheet_height, sheet_width, title};
use crate::board::theme::Theme;
use crate::game::{
    DAILY_DISTANCE, DAILY_SHAPE, Difficulty, MAX_SIDE, MIN_SIDE, Recipe, SPEEDS, TEXT_SIZES,
    device_text_scale, photo_shapes,
};
use crate::hud::style::{self, heading};
use crate::hud::thumbnails::{Thumbnails, texture, thumbnail};
use crate::hud::{Actions, Hud, Sheet, View};
use crate::messages::Pending;
use crate::messages::{PhotoOrigin, PickPhoto};
use crate::photo::framing::FramingCommand;
use crate::photo::{FramedPhoto, PhotoSource, bundled_title};
use crate::platform::PlatformHandle;
use crate::play::session::SessionCommand;
use crate::play::settings::{Settings, SettingsCommand};
use crate::words::{article, date_text, days_text, moves_text};

/// The height under which the menu scrolls whole, title and all, in the controls' points.
const SHORT_WINDOW: f32 = 320.0;

/// A texture of the player's own photo, made from the picture on the board.
#[derive(Default)]
pub(in crate::hud) struct OwnThumbnail(Option<(u64, egui::TextureHandle)>);

/// The sheet.
#[allow(clippy::too_many_arguments)]
pub(in crate::hud) fn show(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut hud: ResMut<Hud>,
    mut thumbnails: ResMut<Thumbnails>,
    mut own: Local<OwnThumbnail>,
    platform: Res<PlatformHandle>,
    view: View,
    mut actions: Actions,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    thumbnails.request();
    thumbnails.poll(ctx);
    refresh_own(ctx, &view, &mut own);
    let width = sheet_width(view.layout.window_points());
    let tapped_beside = modal(ctx, "menu", width, |ui| {
        title(ui, "Menu", &mut hud);
        let window = view.layout.window_points();
        let mut scroll = egui::ScrollArea::vertical()
            .max_height(sheet_height(window))
            .min_scrolled_height(sheet_height(window) - 40.0)
            .scroll_source(egui::scroll_area::ScrollSource::ALL);
        if super::modal::opening(ui) {
            scroll = scroll.vertical_scroll_offset(0.0);
        }
        let mut body = |ui: &mut egui::Ui| {
            daily(ui, settings.theme, &view, &mut actions);
            ui.separator();
            next_game(ui, &settings, &view, &mut actions);
            ui.separator();
            events(ui, &view, &mut actions);
            ui.separator();
            photos(
                ui,
                settings.theme,
                &view,
                &thumbnails,
                &own,
                platform.0.photo_origins(),
                &mut actions,
            );
            ui.separator();
            options(ui, &settings, &view, &mut actions);
            ui.separator();
            more(ui, &mut hud, &view, platform.0.offers_quit(), &mut actions);
        };
        // A short window (a phone on its side at large text) scrolls the whole sheet, its
        // title too: a scroll inside it showed about one row of chips (play-test 70).
        if window.y < SHORT_WINDOW {
            body(ui);
        } else {
            scroll.show(ui, body);
        }
    });
    if tapped_beside && hud.may_close() && hud.sheet == Sheet::Menu {
        hud.sheet = Sheet::None;
    }
    Ok(())
}

/// The puzzle of the day: today's, how you did, and the streak.
fn daily(ui: &mut egui::Ui, theme: Theme, view: &View, actions: &mut Actions) {
    let today = crate::game::today();
    ui.label(heading("Puzzle of the day"));
    ui.label(format!(
        "{} · {}×{} · {} from solved",
        date_text(today),
        DAILY_SHAPE.0,
        DAILY_SHAPE.1,
        moves_text(DAILY_DISTANCE)
    ));
    let streak = view.days.streak(today);
    if let Some(result) = view.days.0.0.get(&today) {
        let how = match result.extra() {
            0 => "the shortest possible!".to_string(),
            extra => format!("{} more than the shortest", moves_text(extra)),
        };
        ui.label(format!("Today: {} — {how}", moves_text(result.moves)));
    }
    if streak > 0 {
        let streak = days_text(streak);
        ui.label(egui::RichText::new(format!("Streak: {streak} in a row")).weak());
    }
    if style::primary_button(ui, theme, true, "Play today's puzzle", ui.available_width()).clicked()
    {
        actions
            .replace
            .write(crate::messages::ReplaceGame(Pending::Daily));
    }
}

/// Size and difficulty of the next game, and the button that starts it. Besides the square
/// boards, boards shaped like the photo (3×4 for a portrait phone photo, …).
fn next_game(ui: &mut egui::Ui, settings: &Settings, view: &View, actions: &mut Actions) {
    let theme = settings.theme;
    ui.label(heading("New game"));
    ui.horizontal_wrapped(|ui| {
        for n in MIN_SIDE..=MAX_SIDE {
            board_chip(ui, theme, view, actions, (n, n));
        }
    });
    let shaped = view.tiles.aspect.map(photo_shapes).unwrap_or_default();
    if !shaped.is_empty() {
        ui.label(egui::RichText::new("Shaped like the photo").small().weak());
        ui.horizontal_wrapped(|ui| {
            for shape in shaped {
                board_chip(ui, theme, view, actions, shape);
            }
        });
    }
    ui.horizontal_wrapped(|ui| {
        for d in Difficulty::CHOOSABLE {
            if style::chip(ui, theme, settings.difficulty == d, d.label()).clicked() {
                actions.settings.write(SettingsCommand::Difficulty(d));
            }
        }
    });
    let (width, height) = view.session.board;
    if let Ok(shape) = npuzzle::Shape::new(width, height) {
        let meaning = match settings.difficulty.recipe(shape) {
            Recipe::Exact(moves) => format!("The shortest solution has exactly {moves} moves."),
            Recipe::Shuffle(moves) => format!("Shuffled by {moves} random moves."),
            Recipe::Uniform => "Any board, uniformly at random.".to_string(),
        };
        ui.label(egui::RichText::new(meaning).small().weak());
    }
    let label = format!(
        "Start {} {width}×{height} {} game",
        article(width),
        settings.difficulty.label().to_lowercase()
    );
    if style::primary_button(ui, theme, true, &label, ui.available_width()).clicked() {
        actions
            .replace
            .write(crate::messages::ReplaceGame(Pending::NewGame));
    }
}

/// The speedsolvers' runs of boards on one clock, on the board chosen above: marathons of 10
/// and 42, a relay from 3×3 up to it (a square board past 3×3), and a blind solve.
fn events(ui: &mut egui::Ui, view: &View, actions: &mut Actions) {
    use crate::game::event::Event;
    ui.label(heading("Speedsolving runs"));
    let (width, height) = view.session.board;
    let marathon = |count| Event::Marathon {
        width: width as u8,
        height: height as u8,
        count,
    };
    let mut runs = vec![marathon(10), marathon(42)];
    if width == height && width > 3 {
        runs.push(Event::Relay { up_to: width as u8 });
    }
    runs.push(Event::Blind {
        width: width as u8,
        height: height as u8,
    });
    ui.label(
        egui::RichText::new(
            "Random boards back to back on one clock, or one solved blind: the tiles go blank at \
             the first move; tap Done when you think it is solved. Each keeps its own statistics.",
        )
        .small()
        .weak(),
    );
    ui.horizontal_wrapped(|ui| {
        for event in runs {
            let label = match event {
                Event::Relay { .. } => event.label(),
                _ => format!("{} on {width}×{height}", event.label()),
            };
            if style::button(ui, true, &label).clicked() {
                actions
                    .replace
                    .write(crate::messages::ReplaceGame(Pending::Event(event)));
            }
        }
    });
}

/// A board to choose for the next game.
fn board_chip(
    ui: &mut egui::Ui,
    theme: Theme,
    view: &View,
    actions: &mut Actions,
    board: (usize, usize),
) {
    let (width, height) = board;
    let chosen = view.session.board == board;
    if style::chip(ui, theme, chosen, &format!("{width}×{height}")).clicked() {
        actions
            .session
            .write(SessionCommand::SetBoard(width, height));
    }
}

fn refresh_own(ctx: &egui::Context, view: &View, own: &mut OwnThumbnail) {
    let Some(picture) = &view.tiles.picture else {
        return;
    };
    if own
        .0
        .as_ref()
        .is_some_and(|(v, _)| *v == view.tiles.version)
    {
        return;
    }
    let small = thumbnail(&image::DynamicImage::ImageRgba8(picture.clone()));
    own.0 = Some((view.tiles.version, texture(ctx, "thumbnail-own", &small)));
}

/// The photos to choose from, by sight, and the gallery and camera.
#[allow(clippy::too_many_arguments)]
fn photos(
    ui: &mut egui::Ui,
    theme: Theme,
    view: &View,
    thumbnails: &Thumbnails,
    own: &OwnThumbnail,
    origins: &[PhotoOrigin],
    actions: &mut Actions,
) {
    let photo = &view.session.photo;
    ui.label(heading("Photo"));
    ui.horizontal_wrapped(|ui| {
        if !matches!(photo.source, PhotoSource::Bundled(_))
            && let Some((_, texture)) = &own.0
        {
            thumbnail_button(
                ui,
                theme,
                texture,
                true,
                &crate::photo::label(&photo.source),
            );
        }
        if thumbnails.ready.is_empty() {
            style::spinner(ui);
        }
        for (name, texture) in &thumbnails.ready {
            let source = PhotoSource::Bundled(name.clone());
            let chosen = photo.source == source;
            if thumbnail_button(ui, theme, texture, chosen, &bundled_title(name)).clicked() {
                let framed = FramedPhoto::whole(source);
                actions.framing.write(FramingCommand::Open(framed));
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        if style::button(ui, true, "Frame the photo").clicked() {
            actions.framing.write(FramingCommand::Open(photo.clone()));
        }
        for &origin in origins {
            let label = match origin {
                PhotoOrigin::Gallery => "Choose a photo…",
                PhotoOrigin::Camera => "Take a photo",
            };
            if style::button(ui, true, label).clicked() {
                actions.pick_photo.write(PickPhoto(origin));
            }
        }
    });
}

fn thumbnail_button(
    ui: &mut egui::Ui,
    theme: Theme,
    texture: &egui::TextureHandle,
    chosen: bool,
    title: &str,
) -> egui::Response {
    let p = crate::board::theme::Palette::of(theme);
    let stroke = if chosen {
        egui::Stroke::new(3.0, style::rgb(p.accent))
    } else {
        egui::Stroke::NONE
    };
    let image = egui::Image::new((texture.id(), egui::Vec2::splat(72.0))).corner_radius(10);
    // Every thumbnail has the same frame (the chosen one's is outlined), so the row stays even.
    let fill = if chosen {
        style::rgb(p.raised)
    } else {
        egui::Color32::TRANSPARENT
    };
    let response = ui.add(
        egui::Button::image(image)
            .stroke(stroke)
            .fill(fill)
            .frame(true),
    );
    // A picture has no words: a screen reader hears the photo's name, and which is chosen.
    response.widget_info(|| {
        let mut info =
            egui::WidgetInfo::labeled(egui::WidgetType::Button, true, format!("Photo: {title}"));
        info.selected = Some(chosen);
        info
    });
    response.on_hover_text(title)
}

fn options(ui: &mut egui::Ui, settings: &Settings, view: &View, actions: &mut Actions) {
    ui.label(heading("Options"));
    ui.scope(|ui| {
        style::square_checkboxes(ui, settings.theme);
        let (width, height) = view.session.board;
        option_boxes(ui, settings, (width, height, view.tiles.alike), actions);
        let calm = settings.calm_motion(view.system.reduce_motion);
        let label = "Calm motion: no spring, confetti or shake";
        toggle(
            ui,
            calm,
            label,
            |on| SettingsCommand::ReduceMotion(Some(on)),
            actions,
        );
        let instant = "Instant slides: tiles jump, with no slide shown";
        toggle(
            ui,
            settings.instant,
            instant,
            SettingsCommand::Instant,
            actions,
        );
        if cfg!(not(any(target_os = "android", target_os = "ios"))) {
            let hover = "Hover: a tile slides when the pointer enters it (no click)";
            toggle(ui, settings.hover, hover, SettingsCommand::Hover, actions);
        }
    });
    text_sizes(ui, settings, view, actions);
    ui.horizontal_wrapped(|ui| {
        ui.label("Theme");
        for theme in [Theme::Dark, Theme::Light] {
            if style::chip(ui, settings.theme, settings.theme == theme, theme.label()).clicked() {
                actions.settings.write(SettingsCommand::Theme(theme));
            }
        }
    });
}

/// A checkbox for a setting: a click asks the settings to change.
fn toggle(
    ui: &mut egui::Ui,
    on: bool,
    label: &str,
    command: fn(bool) -> SettingsCommand,
    actions: &mut Actions,
) {
    let mut value = on;
    if ui.checkbox(&mut value, label).changed() {
        actions.settings.write(command(value));
    }
}

/// The text size: the device's (where it tells it), or 100 % to 200 %.
fn text_sizes(ui: &mut egui::Ui, settings: &Settings, view: &View, actions: &mut Actions) {
    let theme = settings.theme;
    // Text drawn at a new size moves everything in the menu: the sizes stay in sight
    // (play-test 59: choosing 200 % scrolled the menu away from them).
    let resized = resized(ui, view.layout.text_scale);
    let shown = |response: egui::Response| {
        if resized {
            response.scroll_to_me(Some(egui::Align::Center));
        }
        response
    };
    ui.label("Text size");
    ui.horizontal_wrapped(|ui| {
        // The size the text is drawn at, which a phone's largest sizes exceed.
        let device = match view.system.font_scale.and_then(device_text_scale) {
            Some(scale) => format!("Device ({:.0} %)", scale * 100.0),
            None => "Device".to_string(),
        };
        let chosen = settings.text_size.is_none();
        let chip = style::chip(ui, theme, chosen, &device);
        if chip.clicked() {
            actions.settings.write(SettingsCommand::TextSize(None));
        }
        if chosen {
            shown(chip);
        }
        for percent in TEXT_SIZES {
            let chosen = settings.text_size == Some(percent);
            let chip = style::chip(ui, theme, chosen, &format!("{percent} %"));
            if chosen {
                shown(chip.clone());
            }
            if chip.clicked() {
                actions
                    .settings
                    .write(SettingsCommand::TextSize(Some(percent)));
            }
        }
    });
}

/// Whether the text is drawn at another size than when the menu was last drawn.
fn resized(ui: &egui::Ui, text_scale: f32) -> bool {
    let id = egui::Id::new("menu-text-scale");
    let last = ui.data_mut(|data| {
        let last = data.get_temp::<f32>(id);
        data.insert_temp(id, text_scale);
        last
    });
    last.is_some_and(|last| last != text_scale)
}

fn option_boxes(
    ui: &mut egui::Ui,
    settings: &Settings,
    (width, height, alike): (usize, usize, bool),
    actions: &mut Actions,
) {
    let numbers = settings.numbers_shown(width.max(height), alike);
    toggle(
        ui,
        numbers,
        "Show tile numbers",
        SettingsCommand::ShowNumbers,
        actions,
    );
    let marks = "Mark tiles already in place";
    toggle(
        ui,
        settings.mark_correct,
        marks,
        SettingsCommand::MarkCorrect,
        actions,
    );
    let meter = "Shortest-path meter: moves to go, after every move";
    toggle(ui, settings.meter, meter, SettingsCommand::Meter, actions);
    toggle(ui, settings.sound, "Sound", SettingsCommand::Sound, actions);
    let tone = "Distance tone: a note after each move, higher as the board nears solved";
    // Unset, it plays while a screen reader listens (egui builds its nodes only then).
    let listening = ui.ctx().accesskit_node_builder(ui.id(), |_| ()).is_some();
    let heard = settings.tone.unwrap_or(listening);
    toggle(ui, heard, tone, SettingsCommand::Tone, actions);
    let haptics = "Vibrate on slides (phones)";
    toggle(
        ui,
        settings.haptics,
        haptics,
        SettingsCommand::Haptics,
        actions,
    );
    ui.label(format!(
        "Speed of the app's solutions: {:.1} moves a second",
        settings.speed
    ));
    ui.spacing_mut().slider_width = ui.available_width().min(320.0);
    let mut speed = settings.speed;
    let slider = egui::Slider::new(&mut speed, SPEEDS)
        .logarithmic(true)
        .show_value(false);
    let response = ui.add(slider);
    response.widget_info(|| {
        egui::WidgetInfo::slider(true, speed as f64, "Speed of the app's solutions")
    });
    if response.changed() {
        actions.settings.write(SettingsCommand::Speed(speed));
    }
}

fn more(ui: &mut egui::Ui, hud: &mut Hud, view: &View, quit: bool, actions: &mut Actions) {
    ui.horizontal_wrapped(|ui| {
        if style::button(ui, true, "Set up a board").clicked() {
            hud.open_setup(view.current.game.board().shape());
        }
        if style::button(ui, true, "Records").clicked() {
            hud.sheet = Sheet::Records;
        }
        if style::button(ui, true, "Solves").clicked() {
            hud.sheet = Sheet::Solves;
        }
        if style::button(ui, true, "Statistics").clicked() {
            hud.sheet = Sheet::Statistics;
        }
        if style::button(ui, !view.history.is_empty(), "Export solves").clicked() {
            let stamp = crate::words::file_stamp(crate::game::solves::now_ms());
            actions.files.write(crate::messages::ShareFile {
                name: format!("snapslide-solves-{stamp}.csv"),
                bytes: crate::game::solves_csv::export_csv(&view.history).into_bytes(),
                mime: "text/csv",
            });
        }
        super::board::menu_entry(ui, hud, view, actions);
        if style::button(ui, true, "Open a challenge").clicked() {
            hud.sheet = Sheet::OpenChallenge(String::new());
        }
        if style::button(ui, view.tiles.picture.is_some(), "See the photo").clicked() {
            hud.sheet = Sheet::Preview;
        }
        if style::button(ui, true, "How to play").clicked() {
            hud.sheet = Sheet::Help;
        }
        if style::button(ui, true, "About").clicked() {
            hud.sheet = Sheet::About;
        }
        if quit && style::button(ui, true, "Quit").clicked() {
            actions.exit.write(AppExit::Success);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_photo_s_thumbnail_is_named_for_a_screen_reader() {
        let ctx = egui::Context::default();
        ctx.enable_accesskit();
        let texture = ctx.load_texture("photo", egui::ColorImage::example(), Default::default());
        let mut output = ctx.run_ui(Default::default(), |ui| {
            thumbnail_button(ui, Theme::Dark, &texture, true, "Astronaut");
        });
        output.textures_delta.clear();
        let update = output.platform_output.accesskit_update.expect("a tree");
        let named: Vec<_> = update
            .nodes
            .iter()
            .filter(|(_, node)| node.label() == Some("Photo: Astronaut"))
            .collect();
        assert_eq!(named.len(), 1, "{:?}", update.nodes);
        assert_eq!(named[0].1.toggled(), Some(egui::accesskit::Toggled::True));
    }
}
