//! The controls (egui), by what the player sees: the panel beside or below the board
//! (`panel`), the sheets over it, a module each (`sheets`), the marks on the tiles
//! (`board_marks`) and what else is painted over the board (`overlay`). Their state, and the
//! questions asked before a game is lost, are plain Rust in `state`; the look is in `style`.
//! Sizes are logical pixels: egui follows the window's scale factor, and everything tappable is
//! at least [`style::MIN_TOUCH`] tall.

pub mod access;
mod board_marks;
mod history;
mod overlay;
mod panel;
mod replay_panel;
mod review_panel;
mod sheets;
pub mod state;
pub mod style;
mod table;
mod thumbnails;

use bevy::asset::AssetEventSystems;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{
    EguiContext, EguiContextSettings, EguiContexts, EguiFullOutput, EguiGlobalSettings, EguiInput,
    EguiPostUpdateSet, EguiPreUpdateSet, PrimaryEguiContext, egui,
};

pub use state::{Hud, HudAction, HudStep, Sheet};

use crate::assist::meter::Meter;
use crate::assist::{HintShown, Playback, SolverJob, SolverStatus};
use crate::board::layout::ScreenLayout;
use crate::board::theme::Theme;
use crate::board::tiles::PhotoTiles;
use crate::history::records::{Days, LastResult, Scores};
use crate::messages::{ControlsFocus, GameCommand, PickPhoto, SolverCommand};
use crate::play::CurrentGame;
use crate::play::settings::{Settings, SettingsCommand};

/// What the views read of the game and the solver.
#[derive(SystemParam)]
struct View<'w> {
    current: Res<'w, CurrentGame>,
    result: Res<'w, LastResult>,
    scores: Res<'w, Scores>,
    days: Res<'w, Days>,
    job: Res<'w, SolverJob>,
    playback: Res<'w, Playback>,
    status: Res<'w, SolverStatus>,
    hint: Res<'w, HintShown>,
    layout: Res<'w, ScreenLayout>,
    tiles: Res<'w, PhotoTiles>,
    meter: Res<'w, Meter>,
    review: Res<'w, crate::history::review::Review>,
    replaying: Res<'w, crate::history::replay::Replaying>,
    session: Res<'w, crate::play::session::Session>,
    system: Res<'w, crate::platform::SystemPreferences>,
    new_game: Res<'w, crate::play::newgame::NewGameJob>,
    history: Res<'w, crate::history::records::History>,
    removed: Res<'w, crate::history::records::Removed>,
    challenged: Res<'w, crate::history::challenge::Challenged>,
    platform: Res<'w, crate::platform::PlatformHandle>,
    board: Res<'w, crate::leaderboard::BoardView>,
}

impl View<'_> {
    fn won(&self) -> bool {
        self.current.game.is_won()
    }

    /// Whether the board on screen is about to be replaced by a new game being made: it
    /// takes no move (see `play::enqueue`).
    fn replacing(&self) -> bool {
        self.new_game.making()
    }
}

/// What the views can ask for.
#[derive(SystemParam)]
struct Actions<'w> {
    hud: MessageWriter<'w, HudAction>,
    replace: MessageWriter<'w, crate::messages::ReplaceGame>,
    game: MessageWriter<'w, GameCommand>,
    solver: MessageWriter<'w, SolverCommand>,
    pick_photo: MessageWriter<'w, PickPhoto>,
    review: MessageWriter<'w, crate::history::review::ReviewCommand>,
    replay: MessageWriter<'w, crate::history::replay::ReplayCommand>,
    cancel_new_game: MessageWriter<'w, crate::messages::CancelNewGame>,
    session: MessageWriter<'w, crate::play::session::SessionCommand>,
    settings: MessageWriter<'w, SettingsCommand>,
    framing: MessageWriter<'w, crate::photo::framing::FramingCommand>,
    exit: MessageWriter<'w, AppExit>,
    share: MessageWriter<'w, crate::messages::ShareText>,
    files: MessageWriter<'w, crate::messages::ShareFile>,
    paste: MessageWriter<'w, crate::messages::PasteChallenge>,
    open_challenge: MessageWriter<'w, crate::messages::OpenChallenge>,
    history: MessageWriter<'w, crate::history::records::HistoryCommand>,
    board: MessageWriter<'w, crate::leaderboard::BoardCommand>,
}

/// The theme egui is styled in, and whether its fonts are in place (egui takes new fonts at
/// the start of the next pass, so nothing is drawn in the pass that sets them).
#[derive(Resource, Default)]
struct Styled {
    theme: Option<Theme>,
    fonts_ready: bool,
}

fn fonts_ready(styled: Res<Styled>) -> bool {
    styled.fonts_ready
}

/// The controls, drawn with egui in the frame's [`HudStep::Draw`] (`Update`), before the
/// requests they make are acted on: egui runs in a single pass (begun in `PreUpdate`, ended in
/// `PostUpdate`), not in its own schedule after `Update`, so a tap on a button reaches the game
/// in the frame it is made. The state they draw is `state`'s (in the core).
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((thumbnails::plugin, access::plugin))
        .insert_resource(EguiGlobalSettings {
            auto_create_primary_context: false,
            ..default()
        })
        .add_observer(run_in_update)
        .init_resource::<Styled>()
        // egui writes new glyphs into its font texture after its pass: the texture's change
        // must reach the render world in the same frame, or that frame lacks the glyph (a
        // clock reading "0:3" until the next tick) and nothing may come to draw it again.
        .configure_sets(
            PostUpdate,
            AssetEventSystems.after(EguiPostUpdateSet::PostProcessOutput),
        )
        .add_systems(
            PreUpdate,
            (drop_unchanged_modifiers, modifiers_in_order)
                .after(EguiPreUpdateSet::ProcessInput)
                .before(EguiPreUpdateSet::BeginPass),
        )
        .init_resource::<board_marks::BoardMarks>()
        .add_systems(Update, controls_pass.in_set(HudStep::Draw))
        .add_systems(
            Update,
            board_marks::place.after(crate::frame::AppSet::Animate),
        )
        .add_systems(
            ControlsPass,
            (
                restyle,
                (
                    panel::show,
                    board_marks::choose,
                    overlay::show,
                    access::show,
                    sheets::show(),
                    track_focus,
                )
                    .chain()
                    .run_if(fonts_ready),
            )
                .chain(),
        );
    // The desktop's own file dialog, where the system's cannot open.
    #[cfg(not(any(target_os = "android", target_os = "ios")))]
    app.add_systems(
        ControlsPass,
        sheets::file::show
            .after(sheets::framing::show)
            .before(track_focus)
            .run_if(fonts_ready),
    );
}

/// The controls' egui pass: the views, run by [`controls_pass`] as many times as egui asks
/// (a first layout it throws away, as a grid's first pass).
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ControlsPass;

/// The app's camera carries the primary egui context, run by the app (not in bevy_egui's own
/// schedule after `Update`): the controls are drawn in `Update`, before the game acts on what
/// they asked. Made as the camera is spawned, before any of bevy_egui's systems sees it.
fn run_in_update(camera: On<Add, Camera2d>, mut commands: Commands) {
    commands.entity(camera.entity).insert((
        PrimaryEguiContext,
        EguiContextSettings {
            run_manually: true,
            ..default()
        },
    ));
}

/// Runs the controls' egui pass (the [`ControlsPass`] schedule) on the primary context, with
/// the input bevy_egui gathered in `PreUpdate`; bevy_egui draws its output in `PostUpdate`.
fn controls_pass(world: &mut World) -> Result {
    let insets = safe_insets(
        *world.resource::<crate::platform::SafeArea>(),
        world.resource::<ScreenLayout>().ui_scale,
    );
    let mut contexts = world
        .query_filtered::<(Entity, &mut EguiContext, &mut EguiInput), With<PrimaryEguiContext>>();
    let Ok((entity, mut context, mut input)) = contexts.single_mut(world) else {
        return Ok(());
    };
    let (ctx, mut input) = (context.get_mut().clone(), input.take());
    // The sheets, notices and anything egui places keep clear of the platform's bars and
    // notch, as the board and the panel do.
    input.safe_area_insets = Some(insets);
    let mut result = Ok(());
    let output = ctx.run_ui(input, |_| {
        result = world.try_run_schedule(ControlsPass).map_err(Into::into);
    });
    if let Some(mut full) = world.get_mut::<EguiFullOutput>(entity) {
        **full = Some(output);
    }
    result
}

/// The platform's safe area in the controls' points, as egui takes it: what it places (a
/// sheet, a notice) keeps out of it.
fn safe_insets(safe: crate::platform::SafeArea, ui_scale: f32) -> egui::SafeAreaInsets {
    let points = |pixels: f32| pixels / ui_scale.max(0.01);
    egui::SafeAreaInsets(egui::epaint::MarginF32 {
        left: points(safe.left),
        right: points(safe.right),
        top: points(safe.top),
        bottom: points(safe.bottom),
    })
}

/// bevy_egui 0.42 tells egui the modifier keys on every frame; egui counts that as input and
/// asks for another frame, so the app could never sleep between inputs. Only real changes of
/// the modifiers are passed on.
fn drop_unchanged_modifiers(
    mut inputs: Query<&mut EguiInput>,
    mut last: Local<Option<egui::Modifiers>>,
) {
    for mut input in &mut inputs {
        let mut seen = *last;
        input.events.retain(|event| match event {
            egui::Event::ModifiersChanged(modifiers) => {
                let changed = seen != Some(*modifiers);
                seen = Some(*modifiers);
                changed
            }
            _ => true,
        });
        *last = seen;
    }
}

/// bevy_egui reads the modifier keys once a frame, after all of the frame's keys: Ctrl, A and
/// Ctrl's release arriving in one frame (a quick chord, a frame the app slept through) reached
/// egui as a plain "a", typed into the field instead of selecting all. The frame's keys are read
/// again in order here, and each key pressed while Ctrl (or Cmd) was down gets its modifier
/// back, and loses the text egui was given for it.
fn modifiers_in_order(
    mut keys: MessageReader<bevy::input::keyboard::KeyboardInput>,
    mut inputs: Query<&mut EguiInput>,
    mut held: Local<bool>,
) {
    use bevy::input::keyboard::Key;
    let mut chorded = Vec::new();
    for key in keys.read() {
        match &key.logical_key {
            Key::Control | Key::Super | Key::Meta => *held = key.state.is_pressed(),
            logical => {
                let egui_key = bevy_egui::helpers::bevy_to_egui_key(logical)
                    .or_else(|| bevy_egui::helpers::bevy_to_egui_physical_key(&key.key_code));
                if egui_key.is_some() {
                    chorded.push(*held && key.state.is_pressed());
                }
            }
        }
    }
    if !chorded.contains(&true) {
        return;
    }
    for mut input in &mut inputs {
        input.events = with_chords(std::mem::take(&mut input.events), &chorded);
    }
}

/// egui's events with the keys pressed in a chord marked as such (`chorded`: one flag a key
/// event, in order) and the text typed by them dropped.
fn with_chords(events: Vec<egui::Event>, chorded: &[bool]) -> Vec<egui::Event> {
    let mut flags = chorded.iter().copied();
    let mut out: Vec<egui::Event> = Vec::with_capacity(events.len());
    for event in events {
        let egui::Event::Key {
            key,
            pressed,
            repeat,
            mut modifiers,
            physical_key,
        } = event
        else {
            out.push(event);
            continue;
        };
        if flags.next() == Some(true) {
            modifiers.ctrl = true;
            modifiers.command = true;
            if matches!(out.last(), Some(egui::Event::Text(_))) {
                out.pop();
            }
        }
        out.push(egui::Event::Key {
            key,
            pressed,
            repeat,
            modifiers,
            physical_key,
        });
    }
    out
}

/// Styles egui in the theme, once at start and again when the player changes it.
fn restyle(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    layout: Res<ScreenLayout>,
    mut styled: ResMut<Styled>,
) -> Result {
    if styled.theme.is_some() && !styled.fonts_ready {
        styled.fonts_ready = true;
    }
    let ctx = contexts.ctx_mut()?;
    // The controls' scale for the screen (and the player's text size): egui's zoom.
    if ctx.zoom_factor() != layout.ui_scale {
        ctx.set_zoom_factor(layout.ui_scale);
    }
    if styled.theme == Some(settings.theme) {
        return Ok(());
    }
    if styled.theme.is_none() {
        ctx.set_fonts(style::fonts());
        ctx.request_repaint();
    }
    style::apply(ctx, settings.theme);
    styled.theme = Some(settings.theme);
    Ok(())
}

/// Tells input whether egui has the pointer or the keyboard, when that changes.
fn track_focus(
    mut contexts: EguiContexts,
    mut hud: ResMut<Hud>,
    mut told: Local<ControlsFocus>,
    mut tell: MessageWriter<ControlsFocus>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let drawn = std::mem::discriminant(&hud.sheet);
    if hud.drawn != Some(drawn) {
        hud.drawn = Some(drawn);
    }
    let sheet_open = hud.sheet != Sheet::None;
    let focus = ControlsFocus {
        pointer: sheet_open || ctx.is_pointer_over_egui() || ctx.egui_wants_pointer_input(),
        captured: sheet_open || ctx.egui_wants_pointer_input(),
        // While a sheet is open the keys are the sheet's (Escape still closes it).
        keyboard: sheet_open,
    };
    if focus != *told {
        *told = focus;
        tell.write(focus);
    }
    Ok(())
}

/// The panel's rectangle in egui's terms.
fn egui_rect(rect: Rect) -> egui::Rect {
    egui::Rect::from_min_max(
        egui::pos2(rect.min.x, rect.min.y),
        egui::pos2(rect.max.x, rect.max.y),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a tall sheet's contents begin and end on a 360 × 640 phone with these insets
    /// (in pixels, the controls at `scale`), after a few passes.
    fn sheet_on_phone(safe: crate::platform::SafeArea, scale: f32) -> (f32, f32) {
        let ctx = egui::Context::default();
        let (mut top, mut bottom) = (0.0, 0.0);
        for _ in 0..3 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(360.0, 640.0) / scale,
                )),
                safe_area_insets: Some(safe_insets(safe, scale)),
                ..Default::default()
            };
            let mut output = ctx.run_ui(input, |ui| {
                sheets::modal::modal(ui.ctx(), "tall", 300.0 / scale, |ui| {
                    for line in 0..60 {
                        ui.label(format!("line {line}"));
                    }
                    top = ui.clip_rect().top();
                    bottom = ui.clip_rect().bottom();
                });
            });
            output.textures_delta.clear();
        }
        (top * scale, bottom * scale)
    }

    #[test]
    fn a_sheet_keeps_clear_of_the_phone_s_bars() {
        let bars = crate::platform::SafeArea {
            top: 44.0,
            right: 0.0,
            bottom: 34.0,
            left: 0.0,
        };
        for scale in [1.0, 2.0] {
            let (top, bottom) = sheet_on_phone(bars, scale);
            assert!(top >= 44.0, "under the status bar at {scale}: {top}");
            assert!(
                bottom <= 640.0 - 34.0,
                "under the gesture bar at {scale}: {bottom}"
            );
        }
        let (top, _) = sheet_on_phone(crate::platform::SafeArea::default(), 1.0);
        assert!(top < 44.0, "without bars the sheet uses the room: {top}");
    }

    fn key(key: egui::Key, pressed: bool) -> egui::Event {
        egui::Event::Key {
            key,
            pressed,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
            physical_key: None,
        }
    }

    #[test]
    fn a_key_pressed_with_ctrl_in_the_same_frame_is_a_chord_not_text() {
        // Ctrl+A pressed and released within one frame, then a plain "b".
        let events = vec![
            egui::Event::Text("a".into()),
            key(egui::Key::A, true),
            key(egui::Key::A, false),
            egui::Event::Text("b".into()),
            key(egui::Key::B, true),
        ];
        let out = with_chords(events, &[true, false, false]);
        assert!(!out.contains(&egui::Event::Text("a".into())), "{out:?}");
        assert!(out.contains(&egui::Event::Text("b".into())));
        let egui::Event::Key { modifiers, .. } = &out[0] else {
            panic!("{out:?}");
        };
        assert!(modifiers.command && modifiers.ctrl);
        assert_eq!(out.len(), 4);
    }
}
