//! egui in Snapslide's own style: the theme's palette, Manrope, rounded controls sized for a
//! thumb, and the few widgets every screen is built from.

use bevy_egui::egui::{
    self, Color32, CornerRadius, FontData, FontDefinitions, FontFamily, FontId, Margin, RichText,
    Stroke, TextStyle, Vec2,
};

use crate::board::theme::{Palette, Theme};

/// The least size of anything tappable, in logical pixels (Android asks 48 dp, iOS 44 pt).
pub const MIN_TOUCH: f32 = 48.0;
/// Corners of buttons and cards.
pub const RADIUS: u8 = 14;
/// The font family for numbers and headings.
pub const BOLD: &str = "manrope-bold";

/// A theme colour for egui.
pub fn rgb(rgb: [u8; 3]) -> Color32 {
    Color32::from_rgb(rgb[0], rgb[1], rgb[2])
}

/// The spinner of work under way, in the accent: egui's own takes the strong text colour,
/// which here is the dark text on the accent, lost on the dark panel (play-test 59).
pub fn spinner(ui: &mut egui::Ui) -> egui::Response {
    let colour = spinner_colour(ui.visuals());
    ui.add(egui::Spinner::new().color(colour))
}

fn spinner_colour(visuals: &egui::Visuals) -> Color32 {
    visuals.selection.bg_fill
}

/// The bold family.
pub fn bold() -> FontFamily {
    FontFamily::Name(BOLD.into())
}

/// Manrope for text, the bold cut for numbers and headings; egui's own fonts stay behind them
/// for symbols and emoji.
pub fn fonts() -> FontDefinitions {
    let mut fonts = FontDefinitions::default();
    fonts.font_data.insert(
        "manrope".into(),
        FontData::from_static(crate::board::theme::FONT).into(),
    );
    fonts.font_data.insert(
        BOLD.into(),
        FontData::from_static(crate::board::theme::FONT_BOLD).into(),
    );
    let fallbacks = fonts
        .families
        .get(&FontFamily::Proportional)
        .cloned()
        .unwrap_or_default();
    let mut proportional = vec!["manrope".to_string()];
    proportional.extend(fallbacks.iter().cloned());
    let mut heavy = vec![BOLD.to_string()];
    heavy.extend(fallbacks);
    fonts
        .families
        .insert(FontFamily::Proportional, proportional);
    fonts.families.insert(bold(), heavy);
    fonts
}

/// The style for a theme.
pub fn apply(ctx: &egui::Context, theme: Theme) {
    let p = Palette::of(theme);
    ctx.all_styles_mut(|style| {
        style.text_styles = [
            (TextStyle::Heading, FontId::new(26.0, bold())),
            (TextStyle::Body, FontId::new(17.0, FontFamily::Proportional)),
            (
                TextStyle::Button,
                FontId::new(17.0, FontFamily::Proportional),
            ),
            (
                TextStyle::Small,
                FontId::new(14.0, FontFamily::Proportional),
            ),
            (
                TextStyle::Monospace,
                FontId::new(16.0, FontFamily::Monospace),
            ),
        ]
        .into();
        let spacing = &mut style.spacing;
        spacing.interact_size.y = MIN_TOUCH;
        spacing.button_padding = egui::vec2(10.0, 10.0);
        spacing.item_spacing = egui::vec2(8.0, 10.0);
        spacing.window_margin = Margin::same(18);
        spacing.slider_width = 180.0;
        // A scroll bar in sight whenever there is more below the fold, not only under the
        // pointer (play-test 70: the friend's result hid under a bar shown on hover).
        spacing.scroll = egui::style::ScrollStyle::thin();
        style.visuals = visuals(theme, &p);
        // A drag on a sheet's text scrolls it, with a mouse as with a finger, rather than
        // selecting the words.
        style.interaction.selectable_labels = false;
    });
    ctx.data_mut(|d| d.insert_temp(disabled_text_id(), rgb(p.disabled_text)));
}

fn visuals(theme: Theme, p: &Palette) -> egui::Visuals {
    let mut v = match theme {
        Theme::Dark => egui::Visuals::dark(),
        Theme::Light => egui::Visuals::light(),
    };
    let radius = CornerRadius::same(RADIUS);
    v.override_text_color = Some(rgb(p.text));
    v.weak_text_color = Some(rgb(p.muted));
    v.panel_fill = rgb(p.surface);
    v.window_fill = rgb(p.surface);
    v.window_stroke = Stroke::new(1.0, rgb(p.stroke));
    v.window_corner_radius = CornerRadius::same(20);
    v.menu_corner_radius = radius;
    v.extreme_bg_color = rgb(p.background);
    v.faint_bg_color = rgb(p.raised);
    v.selection.bg_fill = rgb(p.accent);
    v.selection.stroke = Stroke::new(2.0, rgb(p.on_accent));
    v.hyperlink_color = rgb(p.accent);
    v.warn_fg_color = rgb(p.warning);
    v.error_fg_color = rgb(p.bad);
    let w = &mut v.widgets;
    for (state, fill) in [
        (&mut w.inactive, p.raised),
        (&mut w.hovered, p.stroke),
        (&mut w.active, p.accent),
        (&mut w.open, p.stroke),
    ] {
        state.bg_fill = rgb(fill);
        state.weak_bg_fill = rgb(fill);
        state.corner_radius = radius;
        state.bg_stroke = Stroke::NONE;
        state.fg_stroke = Stroke::new(1.5, rgb(p.text));
        state.expansion = 0.0;
    }
    w.active.fg_stroke = Stroke::new(1.5, rgb(p.on_accent));
    // A control with the keyboard's focus is drawn active: the accent, and a ring in the
    // text's colour (so it shows on the accent button too, in both themes).
    w.active.bg_stroke = Stroke::new(2.5, rgb(p.text));
    w.active.expansion = 1.0;
    w.noninteractive.bg_fill = rgb(p.surface);
    w.noninteractive.bg_stroke = Stroke::new(1.0, rgb(p.stroke));
    w.noninteractive.corner_radius = radius;
    w.noninteractive.fg_stroke = Stroke::new(1.0, rgb(p.text));
    // Disabled controls are drawn in colours of their own (see `looks`), opaque: egui's way,
    // half opacity, blends darker than either colour on this renderer, so a disabled button
    // read as darker, more present, than an enabled one in the light theme.
    v.disabled_alpha = 1.0;
    w.noninteractive.weak_bg_fill = rgb(p.disabled_fill);
    v
}

/// A button's label and fill as it is now: the theme's own disabled colours when it cannot be
/// used (stored in egui's visuals by [`apply`]).
fn looks(ui: &egui::Ui, enabled: bool, text: RichText) -> egui::Button<'static> {
    if enabled {
        return egui::Button::new(text);
    }
    let fill = ui.visuals().widgets.noninteractive.weak_bg_fill;
    let outline = ui.visuals().widgets.noninteractive.bg_stroke;
    let colour = ui.ctx().data(|d| d.get_temp(disabled_text_id()));
    let colour = colour.unwrap_or_else(|| ui.visuals().weak_text_color());
    // Outlined, so its shape shows where its fill is close to the panel's.
    egui::Button::new(text.color(colour))
        .fill(fill)
        .stroke(outline)
}

/// Where [`apply`] keeps the theme's disabled label colour in egui's memory.
fn disabled_text_id() -> egui::Id {
    egui::Id::new("snapslide-disabled-text")
}

/// A button of the thumb's size.
pub fn button(ui: &mut egui::Ui, enabled: bool, label: &str) -> egui::Response {
    let button = looks(ui, enabled, RichText::new(label));
    let response = ui.add_enabled(enabled, button.min_size(Vec2::new(MIN_TOUCH, MIN_TOUCH)));
    named(response, enabled, label)
}

/// A button as wide as `width`, its label centred (on two lines where one does not fit).
pub fn wide_button(ui: &mut egui::Ui, enabled: bool, label: &str, width: f32) -> egui::Response {
    let button = looks(ui, enabled, fitting(ui, label, width)).wrap();
    let response = centred(ui, width, |ui| ui.add_enabled(enabled, button));
    named(response, enabled, label)
}

/// A button's name for a screen reader: its label, without the glyph some labels start with
/// ("⏴ Back" is read "Back", "↻ Turn" "Turn").
pub fn spoken(label: &str) -> &str {
    label
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .trim()
}

/// Names a button for a screen reader by its words ([`spoken`]), whatever egui made of its
/// label (a wrapped or resized label could be read as nothing).
fn named(response: egui::Response, enabled: bool, label: &str) -> egui::Response {
    let name = spoken(label).to_string();
    response.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Button, enabled, &name));
    response
}

/// A widget filling `width` × [`MIN_TOUCH`], its contents centred. A label too long for the
/// width wraps onto a second line in a smaller size rather than running past the width (a
/// phone's quarter of the panel is 76 px).
fn centred(
    ui: &mut egui::Ui,
    width: f32,
    add: impl FnOnce(&mut egui::Ui) -> egui::Response,
) -> egui::Response {
    let layout = egui::Layout::centered_and_justified(egui::Direction::LeftToRight);
    ui.allocate_ui_with_layout(Vec2::new(width, MIN_TOUCH), layout, |ui| {
        ui.set_max_width(width);
        ui.spacing_mut().button_padding = egui::vec2(6.0, 4.0);
        add(ui)
    })
    .inner
}

/// The label of a button `width` wide: its own size where it fits on one line, else a size
/// that fits it on two.
fn fitting(ui: &egui::Ui, label: &str, width: f32) -> RichText {
    let one_line = text_width(ui, label, TextStyle::Button);
    let text = RichText::new(label);
    if one_line + 12.0 <= width {
        text
    } else {
        text.size(TextStyle::Button.resolve(ui.style()).size * 0.82)
    }
}

/// How wide `text` is on one line in a text style, in the controls' points.
pub fn text_width(ui: &egui::Ui, text: &str, style: TextStyle) -> f32 {
    let font = style.resolve(ui.style());
    ui.ctx().fonts_mut(|fonts| {
        fonts
            .layout_no_wrap(text.to_string(), font, Color32::WHITE)
            .size()
            .x
    })
}

/// The screen's main action, in the accent colour.
pub fn primary_button(
    ui: &mut egui::Ui,
    theme: Theme,
    enabled: bool,
    label: &str,
    width: f32,
) -> egui::Response {
    let p = Palette::of(theme);
    let text = fitting(ui, label, width).strong();
    let button = if enabled {
        egui::Button::new(text.color(rgb(p.on_accent))).fill(rgb(p.accent))
    } else {
        looks(ui, false, text)
    };
    let response = centred(ui, width, |ui| ui.add_enabled(enabled, button.wrap()));
    named(response, enabled, label)
}

/// A choice among a few, as a chip that shows whether it is chosen: by its colour, a check
/// mark and a bold label (never by colour alone), and to a screen reader as selected.
pub fn chip(ui: &mut egui::Ui, theme: Theme, selected: bool, label: &str) -> egui::Response {
    let p = Palette::of(theme);
    let (fill, color) = if selected {
        (p.accent, p.on_accent)
    } else {
        (p.raised, p.text)
    };
    let text = if selected {
        // Room for the check mark, drawn below: the fonts have no check glyph.
        RichText::new(format!("     {label}")).strong()
    } else {
        RichText::new(label)
    };
    let response = ui.add(
        egui::Button::new(text.color(rgb(color)))
            .fill(rgb(fill))
            .min_size(Vec2::new(MIN_TOUCH + 8.0, MIN_TOUCH)),
    );
    if selected {
        check_mark(ui, response.rect, rgb(color));
    }
    let spoken = label.replace('×', " by ");
    response.widget_info(|| {
        egui::WidgetInfo::selected(egui::WidgetType::SelectableLabel, true, selected, &spoken)
    });
    response
}

/// A check mark at the left of a chip's label.
fn check_mark(ui: &egui::Ui, chip: egui::Rect, color: egui::Color32) {
    let size = ui.text_style_height(&egui::TextStyle::Button) * 0.6;
    let left = chip.left() + ui.spacing().button_padding.x;
    let middle = chip.center().y;
    let points = vec![
        egui::pos2(left, middle),
        egui::pos2(left + size * 0.35, middle + size * 0.35),
        egui::pos2(left + size, middle - size * 0.45),
    ];
    ui.painter()
        .add(egui::Shape::line(points, egui::Stroke::new(2.5, color)));
}

/// Checkboxes drawn as outlined squares (the rounded, borderless buttons would make them dots),
/// sized to their labels rather than egui's 14 px.
pub fn square_checkboxes(ui: &mut egui::Ui, theme: Theme) {
    let p = Palette::of(theme);
    let spacing = ui.spacing_mut();
    spacing.icon_width = 24.0;
    spacing.icon_width_inner = 14.0;
    spacing.icon_spacing = 10.0;
    let widgets = &mut ui.visuals_mut().widgets;
    for state in [
        &mut widgets.inactive,
        &mut widgets.hovered,
        &mut widgets.active,
    ] {
        state.corner_radius = CornerRadius::same(4);
        state.bg_stroke = Stroke::new(1.5, rgb(p.muted));
    }
}

/// A small caption above a value.
pub fn caption(text: &str) -> RichText {
    RichText::new(text.to_uppercase()).small().weak()
}

/// A big number.
pub fn value(text: impl Into<String>, size: f32) -> RichText {
    RichText::new(text.into()).font(FontId::new(size, bold()))
}

/// A section heading in a sheet.
pub fn heading(text: &str) -> RichText {
    RichText::new(text).font(FontId::new(19.0, bold()))
}

/// A raised card.
pub fn card(theme: Theme) -> egui::Frame {
    egui::Frame::new()
        .fill(rgb(Palette::of(theme).raised))
        .corner_radius(CornerRadius::same(RADIUS))
        .inner_margin(Margin::same(12))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The package's folder, as `cargo test` gives it to the running test (not as it was when
    /// compiled: a build folder shared by checkouts at other paths keeps a test built in another).
    fn manifest_dir() -> String {
        std::env::var("CARGO_MANIFEST_DIR").expect("cargo test gives CARGO_MANIFEST_DIR")
    }

    #[test]
    fn the_spinner_stands_out_on_the_panel_in_both_themes() {
        for theme in [Theme::Dark, Theme::Light] {
            let v = visuals(theme, &Palette::of(theme));
            let [r, g, b, _] = spinner_colour(&v).to_array();
            let [pr, pg, pb, _] = v.panel_fill.to_array();
            let seen = crate::board::theme::contrast([r, g, b], [pr, pg, pb]);
            assert!(
                seen >= 3.0,
                "{theme:?}: the spinner's contrast is {seen:.2}"
            );
        }
    }

    #[test]
    fn a_scroll_bar_shows_without_a_pointer_over_it() {
        let ctx = egui::Context::default();
        apply(&ctx, Theme::Dark);
        let scroll = ctx.global_style().spacing.scroll;
        assert!(scroll.dormant_handle_opacity > 0.5, "{scroll:?}");
        assert!(scroll.dormant_background_opacity > 0.5, "{scroll:?}");
    }

    #[test]
    fn a_button_is_read_by_its_words_without_its_glyph() {
        assert_eq!(spoken("⏴ Back"), "Back");
        assert_eq!(spoken("↻ Turn"), "Turn");
        assert_eq!(spoken("☰ Menu"), "Menu");
        assert_eq!(spoken("Review the game"), "Review the game");
        assert_eq!(spoken("3×3"), "3×3");
    }

    /// Every character outside ASCII in the app's strings, with the file it is in.
    fn symbols_in_strings() -> Vec<(char, String)> {
        let mut found = Vec::new();
        let mut folders = vec![std::path::PathBuf::from(manifest_dir()).join("src")];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                    // The odd pieces between quotes are inside string literals.
                    for piece in line.split('"').skip(1).step_by(2) {
                        for c in piece.chars().filter(|c| !c.is_ascii()) {
                            found.push((c, path.display().to_string()));
                        }
                    }
                }
            }
        }
        found
    }

    #[test]
    fn every_symbol_the_app_writes_is_in_its_fonts() {
        let ctx = egui::Context::default();
        ctx.set_fonts(fonts());
        // The fonts are loaded at the first pass.
        ctx.run_ui(Default::default(), |_| {})
            .textures_delta
            .clear();
        let symbols = symbols_in_strings();
        assert!(
            symbols.iter().any(|(c, _)| *c == '…'),
            "the scan found no strings"
        );
        for family in [FontFamily::Proportional, bold()] {
            let font = FontId::new(16.0, family);
            let missing: Vec<_> = symbols
                .iter()
                .filter(|(c, _)| !ctx.fonts_mut(|f| f.has_glyph(&font, *c)))
                .collect();
            assert!(
                missing.is_empty(),
                "drawn as boxes in {font:?}: {missing:?}"
            );
        }
    }

    #[test]
    fn the_fonts_load_and_keep_egui_fallbacks() {
        let fonts = fonts();
        let proportional = &fonts.families[&FontFamily::Proportional];
        assert_eq!(proportional[0], "manrope");
        assert!(proportional.len() > 1, "no fallback for symbols");
        assert_eq!(fonts.families[&bold()][0], BOLD);
        // The files are real fonts: a TrueType header.
        for name in ["manrope", BOLD] {
            let data = &fonts.font_data[name].font;
            assert_eq!(&data[..4], &[0, 1, 0, 0], "{name} is not a TrueType font");
        }
    }
}
