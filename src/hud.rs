//! The HUD and menus (egui): counters, buttons, settings, dialogs, the win result, the tile
//! numbers and the hint highlight. Sizes are in logical pixels; egui follows the window's DPI
//! scale factor, and every button is at least [`MIN_TOUCH`] tall so it can be tapped.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use bevy::app::AppExit;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiInput, EguiPreUpdateSet, EguiPrimaryContextPass, egui};
use npuzzle::{Board, Solvability, parse_board};

use crate::board::{Notice, PhotoTiles, TileSprite, is_portrait};
use crate::game::{Difficulty, Game};
use crate::input::{BoardLayout, UiFocus};
use crate::photo::PhotoSource;
use crate::play::{
    BestScores, CurrentGame, GameCommand, LastResult, MAX_SIZE, MIN_SIZE, Phase, Settings,
};
use crate::solver_task::{HintShown, Playback, SolverCommand, SolverJob, SolverStatus, Stage};

/// The HUD's width beside the board (landscape), in logical pixels.
pub const PANEL_WIDTH: f32 = 300.0;
/// The HUD's height above the board (portrait), in logical pixels.
pub const PANEL_HEIGHT: f32 = 230.0;
/// The smallest height of anything tappable, in logical pixels.
pub const MIN_TOUCH: f32 = 36.0;
/// How long a notice stays.
pub const NOTICE_TIME: Duration = Duration::from_secs(8);

/// Which dialogs are open, and their state.
#[derive(Resource, Default)]
pub struct HudState {
    /// The rules.
    pub help: bool,
    /// About the app.
    pub about: bool,
    /// The whole photo.
    pub preview: bool,
    /// Set up your own board, if open.
    pub setup: Option<Setup>,
    notices: VecDeque<(String, Instant)>,
    preview_texture: Option<(u64, egui::TextureHandle)>,
    styled: bool,
}

/// The "Set up your own board" dialog: a text board, or numbers tapped into a grid.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Setup {
    /// The board as text.
    pub text: String,
    /// The grid being tapped in: `None` for cells not yet given a number.
    pub grid: Vec<Option<u8>>,
    /// The grid's side.
    pub n: usize,
}

impl Setup {
    /// An empty setup for side `n`.
    pub fn new(n: usize) -> Setup {
        Setup {
            text: String::new(),
            grid: vec![None; n * n],
            n,
        }
    }

    /// Taps a grid cell: it takes the next number; when one cell is left it becomes the blank
    /// and the text is written from the grid.
    pub fn tap(&mut self, cell: usize) {
        if cell >= self.grid.len() || self.grid[cell].is_some() {
            return;
        }
        let placed = self.grid.iter().filter(|c| c.is_some()).count();
        let cells = self.grid.len();
        if placed + 1 >= cells {
            return;
        }
        self.grid[cell] = Some((placed + 1) as u8);
        if placed + 2 == cells
            && let Some(last) = self.grid.iter_mut().find(|c| c.is_none())
        {
            *last = Some(0);
        }
        if self.grid.iter().all(Option::is_some) {
            self.text = self
                .grid
                .chunks(self.n)
                .map(|row| {
                    row.iter()
                        .map(|t| t.unwrap_or(0).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join("\n");
        }
    }

    /// The next number a grid tap places.
    pub fn next_number(&self) -> usize {
        self.grid.iter().filter(|c| c.is_some()).count() + 1
    }
}

/// The verdict on a set-up board: a board that can be started, or why not.
pub fn check_setup(text: &str) -> Result<Board, String> {
    let board = parse_board(text).map_err(|e| e.to_string())?;
    if board.width() != board.height() {
        return Err(format!(
            "the board is {}×{}: the photo needs a square board",
            board.width(),
            board.height()
        ));
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&board.width()) {
        return Err(format!(
            "the board is {n}×{n}: sizes go from {MIN_SIZE}×{MIN_SIZE} to {MAX_SIZE}×{MAX_SIZE}",
            n = board.width()
        ));
    }
    let solvability = Solvability::of(&board);
    if !solvability.solvable {
        return Err(format!("unsolvable: {solvability}"));
    }
    if board.is_goal() {
        return Err("this board is already solved".into());
    }
    Ok(board)
}

/// The HUD's view of the game and the solver.
#[derive(SystemParam)]
struct View<'w> {
    current: Res<'w, CurrentGame>,
    phase: Res<'w, State<Phase>>,
    result: Res<'w, LastResult>,
    scores: Res<'w, BestScores>,
    job: Res<'w, SolverJob>,
    playback: Res<'w, Playback>,
    status: Res<'w, SolverStatus>,
    hint: Res<'w, HintShown>,
}

/// What the HUD can ask for.
#[derive(SystemParam)]
struct Actions<'w> {
    game: MessageWriter<'w, GameCommand>,
    solver: MessageWriter<'w, SolverCommand>,
    exit: MessageWriter<'w, AppExit>,
    pick_photo: MessageWriter<'w, PickPhoto>,
}

/// Asks the platform for a photo (the desktop file dialog).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct PickPhoto;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HudState>()
        .add_message::<PickPhoto>()
        .add_systems(
            PreUpdate,
            drop_unchanged_modifiers
                .after(EguiPreUpdateSet::ProcessInput)
                .before(EguiPreUpdateSet::BeginPass),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (collect_notices, panel, dialogs, overlay, track_focus).chain(),
        );
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

fn collect_notices(mut notices: MessageReader<Notice>, mut state: ResMut<HudState>) {
    let now = Instant::now();
    for notice in notices.read() {
        state.notices.push_back((notice.0.clone(), now));
    }
    while state.notices.len() > 4 {
        state.notices.pop_front();
    }
    state
        .notices
        .retain(|(_, at)| now.duration_since(*at) < NOTICE_TIME);
}

fn style(ctx: &egui::Context) {
    ctx.all_styles_mut(|style| {
        use egui::{FontFamily, FontId, TextStyle};
        style.text_styles = [
            (
                TextStyle::Heading,
                FontId::new(24.0, FontFamily::Proportional),
            ),
            (TextStyle::Body, FontId::new(16.0, FontFamily::Proportional)),
            (
                TextStyle::Button,
                FontId::new(16.0, FontFamily::Proportional),
            ),
            (
                TextStyle::Small,
                FontId::new(13.0, FontFamily::Proportional),
            ),
            (
                TextStyle::Monospace,
                FontId::new(16.0, FontFamily::Monospace),
            ),
        ]
        .into();
        style.spacing.interact_size.y = MIN_TOUCH;
        style.spacing.button_padding = egui::vec2(10.0, 6.0);
        style.spacing.item_spacing = egui::vec2(8.0, 8.0);
    });
}

/// "1 move", "2 moves".
fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        format!("1 {word}")
    } else {
        format!("{count} {word}s")
    }
}

fn format_time(time: Duration) -> String {
    let seconds = time.as_secs();
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

fn big_button(ui: &mut egui::Ui, enabled: bool, label: &str) -> bool {
    ui.add_enabled(
        enabled,
        egui::Button::new(label).min_size(egui::vec2(80.0, MIN_TOUCH)),
    )
    .clicked()
}

fn panel(
    mut contexts: EguiContexts,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut state: ResMut<HudState>,
    mut settings: ResMut<Settings>,
    view: View,
    mut actions: Actions,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !state.styled {
        style(ctx);
        state.styled = true;
    }
    let portrait = windows
        .single()
        .map(|w| is_portrait(w.size()))
        .unwrap_or(false);
    let screen = ctx.viewport_rect();
    let (pos, size) = if portrait {
        (screen.min, egui::vec2(screen.width(), PANEL_HEIGHT))
    } else {
        (
            egui::pos2(screen.max.x - PANEL_WIDTH, screen.min.y),
            egui::vec2(PANEL_WIDTH, screen.height()),
        )
    };
    let frame = egui::Frame::side_top_panel(&ctx.global_style());
    let margin = frame.total_margin().sum();
    egui::Area::new(egui::Id::new("hud"))
        .fixed_pos(pos)
        .order(egui::Order::Background)
        .show(ctx, |ui| {
            frame.show(ui, |ui| {
                let inner = size - margin;
                ui.set_min_size(inner);
                ui.set_max_size(inner);
                ui.set_width(inner.x);
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        hud_contents(ui, portrait, &mut state, &mut settings, &view, &mut actions);
                    });
            });
        });
    Ok(())
}

fn hud_contents(
    ui: &mut egui::Ui,
    portrait: bool,
    state: &mut HudState,
    settings: &mut Settings,
    view: &View,
    actions: &mut Actions,
) {
    let game = &view.current.game;
    if !portrait {
        ui.heading("Snapslide");
    }
    // Captions above values: the row keeps its shape however many digits the counts have.
    egui::Grid::new("counters")
        .num_columns(3)
        .spacing([20.0, 0.0])
        .show(ui, |ui| {
            for caption in ["Moves", "Time", "Out of place"] {
                ui.weak(caption);
            }
            ui.end_row();
            ui.strong(game.moves().to_string());
            ui.strong(format_time(game.elapsed()));
            ui.strong(game.tiles_out_of_place().to_string());
            ui.end_row();
        });
    if game.solved_by_app() {
        ui.label(
            egui::RichText::new(format!(
                "Solved by the app ({} moves since)",
                game.moves_since_auto_solve()
            ))
            .small(),
        );
    }
    if *view.phase.get() == Phase::Won {
        let r = &*view.result;
        ui.label(
            egui::RichText::new(format!(
                "Solved in {}, {}",
                plural(r.moves, "move"),
                format_time(r.time)
            ))
            .strong()
            .color(egui::Color32::LIGHT_GREEN),
        );
    }
    let thinking = view.job.0.is_some();
    ui.horizontal_wrapped(|ui| {
        if big_button(ui, game.can_undo() && !thinking, "Undo") {
            actions.game.write(GameCommand::Undo);
        }
        if big_button(ui, game.can_redo() && !thinking, "Redo") {
            actions.game.write(GameCommand::Redo);
        }
        if big_button(ui, true, "Restart") {
            actions.game.write(GameCommand::Restart);
        }
        if big_button(ui, true, "New game") {
            actions.game.write(GameCommand::NewGame { seed: None });
        }
        if big_button(ui, !game.is_won() && !thinking, "Solve") {
            actions.solver.write(SolverCommand::Solve);
        }
        let hint_label = if view.hint.for_board(game.board()).is_some() {
            "Play hint"
        } else {
            "Hint"
        };
        if big_button(ui, !game.is_won() && !thinking, hint_label) {
            actions.solver.write(SolverCommand::Hint);
        }
    });
    if let Some(job) = &view.job.0 {
        let stage = job.stage();
        let words = job.words();
        if let Stage::BuildingTables(fraction) = stage {
            // The first solve on this computer: the tables' build, with its progress.
            ui.horizontal_wrapped(|ui| {
                ui.spinner();
                ui.label(words);
            });
            ui.horizontal(|ui| {
                ui.add(egui::ProgressBar::new(fraction).desired_width(PANEL_WIDTH - 110.0));
                if big_button(ui, true, "Cancel") {
                    actions.solver.write(SolverCommand::Cancel);
                }
            });
            ui.label(
                egui::RichText::new("Built once and kept; later solves start at once.").small(),
            );
        } else {
            ui.horizontal_wrapped(|ui| {
                ui.spinner();
                ui.label(words);
                if big_button(ui, true, "Cancel") {
                    actions.solver.write(SolverCommand::Cancel);
                }
            });
        }
        ui.ctx().request_repaint();
    }
    if view.playback.active() {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("Playing: {} to go", view.playback.moves.len()));
            let label = if view.playback.paused {
                "Resume"
            } else {
                "Pause"
            };
            if big_button(ui, true, label) {
                actions.solver.write(SolverCommand::TogglePause);
            }
            if big_button(ui, true, "Stop") {
                actions.solver.write(SolverCommand::Stop);
            }
        });
        ui.add(
            egui::Slider::new(&mut settings.speed, 0.5..=30.0)
                .logarithmic(true)
                .text("moves/s"),
        );
    }
    if let Some(status) = &view.status.0 {
        ui.label(egui::RichText::new(status).small());
    }
    ui.separator();
    egui::Grid::new("settings-grid")
        .num_columns(2)
        .spacing([8.0, 8.0])
        .show(ui, |ui| {
            ui.label("Size");
            let mut size = settings.size;
            egui::ComboBox::from_id_salt("size")
                .width(120.0)
                .selected_text(format!("{size}×{size}"))
                .show_ui(ui, |ui| {
                    for n in MIN_SIZE..=MAX_SIZE {
                        ui.selectable_value(&mut size, n, format!("{n}×{n}"));
                    }
                });
            if size != settings.size {
                settings.size = size;
                actions.game.write(GameCommand::NewGame { seed: None });
            }
            ui.end_row();
            ui.label("Difficulty");
            let mut difficulty = settings.difficulty;
            egui::ComboBox::from_id_salt("difficulty")
                .width(120.0)
                .selected_text(difficulty.label())
                .show_ui(ui, |ui| {
                    for d in Difficulty::CHOOSABLE {
                        ui.selectable_value(&mut difficulty, d, d.label());
                    }
                });
            if difficulty != settings.difficulty {
                settings.difficulty = difficulty;
                actions.game.write(GameCommand::NewGame { seed: None });
            }
            ui.end_row();
            ui.label("Photo");
            egui::ComboBox::from_id_salt("bundled")
                .width(120.0)
                .selected_text(settings.photo.label())
                .show_ui(ui, |ui| {
                    for (name, _) in crate::photo::BUNDLED {
                        let source = PhotoSource::Bundled(name.to_string());
                        ui.selectable_value(&mut settings.photo, source, name);
                    }
                });
            ui.end_row();
        });
    ui.horizontal_wrapped(|ui| {
        let n = game.board().width();
        let mut numbers = settings.numbers_shown(n);
        if ui.checkbox(&mut numbers, "Show numbers").changed() {
            settings.show_numbers = Some(numbers);
        }
        ui.checkbox(&mut settings.sound, "Sound");
    });
    ui.horizontal_wrapped(|ui| {
        if cfg!(not(any(target_os = "android", target_os = "ios")))
            && big_button(ui, true, "Photo…")
        {
            actions.pick_photo.write(PickPhoto);
        }
        if big_button(ui, true, "Preview") {
            state.preview = !state.preview;
        }
        if big_button(ui, true, "Set up") {
            state.setup = Some(Setup::new(settings.size));
        }
    });
    ui.horizontal_wrapped(|ui| {
        if big_button(ui, true, "Help") {
            state.help = !state.help;
        }
        if big_button(ui, true, "About") {
            state.about = !state.about;
        }
        if cfg!(not(any(target_os = "android", target_os = "ios"))) && big_button(ui, true, "Quit")
        {
            actions.exit.write(AppExit::Success);
        }
    });
    let _ = &view.scores;
}

const HELP: &str = "Slide the tiles back into place to rebuild the photo. The bottom-right \
cell starts empty.\n\n\
• Tap or click a tile in the empty cell's row or column: it slides, with every tile between \
it and the gap.\n\
• Swipe or drag on the board: the tile beside the gap moves that way.\n\
• Keys: the arrows or WASD move the tile beside the gap; Ctrl+Z undoes, Ctrl+Y redoes.\n\n\
Undo lowers the move counter; Restart goes back to the same shuffle. Solve plays a solution \
(optimal up to 4×4); Hint shows the next move, and a second tap plays it. A game the app \
helped with is marked \"solved by the app\" and sets no best score.";

fn dialogs(
    mut contexts: EguiContexts,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut state: ResMut<HudState>,
    tiles: Res<PhotoTiles>,
    view: View,
    mut actions: Actions,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    if state.help {
        let mut open = true;
        egui::Window::new("How to play")
            .open(&mut open)
            .default_width(380.0)
            .show(&ctx, |ui| ui.label(HELP));
        state.help = open;
    }
    if state.about {
        let mut open = true;
        egui::Window::new("About Snapslide")
            .open(&mut open)
            .show(&ctx, |ui| {
                ui.label(format!("Snapslide {}", env!("CARGO_PKG_VERSION")));
                ui.label("A photo sliding puzzle, built with Bevy and egui on the npuzzle engine.");
                ui.label("Photos: scikit-image sample data (CC0 / public domain). Sounds: CC0.");
            });
        state.about = open;
    }
    if state.preview {
        if let Some(square) = &tiles.square {
            let stale = state
                .preview_texture
                .as_ref()
                .is_none_or(|(v, _)| *v != tiles.version);
            if stale {
                let image = egui::ColorImage::from_rgba_unmultiplied(
                    [square.width() as usize, square.height() as usize],
                    square.as_raw(),
                );
                let handle = ctx.load_texture("preview", image, egui::TextureOptions::LINEAR);
                state.preview_texture = Some((tiles.version, handle));
            }
        }
        let mut open = true;
        if let Some((_, texture)) = &state.preview_texture {
            let side = (ctx.viewport_rect().height() * 0.6).min(420.0);
            let id = texture.id();
            egui::Window::new("The photo")
                .open(&mut open)
                .show(&ctx, |ui| {
                    ui.add(egui::Image::new((id, egui::vec2(side, side))));
                });
        }
        state.preview = open;
    }
    if let Some(mut setup) = state.setup.take() {
        let mut open = true;
        let mut start = None;
        egui::Window::new("Set up your own board")
            .open(&mut open)
            .default_width(360.0)
            .max_width(420.0)
            .show(&ctx, |ui| {
                ui.label(
                    "Type a board (rows of numbers, 0 for the gap), or tap the cells in the \
                     order 1, 2, 3…",
                );
                ui.add(
                    egui::TextEdit::multiline(&mut setup.text)
                        .font(egui::TextStyle::Monospace)
                        .desired_rows(4)
                        .hint_text("1 2 3\n4 0 5\n7 8 6"),
                );
                ui.label(format!("Grid: next number {}", setup.next_number()));
                let n = setup.n;
                egui::Grid::new("setup-grid")
                    .spacing([4.0, 4.0])
                    .show(ui, |ui| {
                        for row in 0..n {
                            for column in 0..n {
                                let cell = row * n + column;
                                let label = match setup.grid[cell] {
                                    Some(0) => " ".to_string(),
                                    Some(t) => t.to_string(),
                                    None => "·".to_string(),
                                };
                                if ui
                                    .add(
                                        egui::Button::new(label)
                                            .min_size(egui::vec2(MIN_TOUCH, MIN_TOUCH)),
                                    )
                                    .clicked()
                                {
                                    setup.tap(cell);
                                }
                            }
                            ui.end_row();
                        }
                    });
                let verdict = check_setup(&setup.text);
                ui.horizontal(|ui| {
                    if ui.button("Clear").clicked() {
                        setup = Setup::new(n);
                    }
                    if big_button(ui, verdict.is_ok(), "Start")
                        && let Ok(board) = &verdict
                    {
                        start = Some(board.clone());
                    }
                });
                match &verdict {
                    Ok(_) => {
                        ui.label(
                            egui::RichText::new("Solvable ✔").color(egui::Color32::LIGHT_GREEN),
                        );
                    }
                    Err(reason) if !setup.text.trim().is_empty() => {
                        ui.label(
                            egui::RichText::new(reason)
                                .color(egui::Color32::from_rgb(255, 120, 100)),
                        );
                    }
                    Err(_) => {}
                }
            });
        if let Some(board) = start {
            actions.game.write(GameCommand::Start(Box::new(Game::new(
                board,
                Difficulty::Custom,
            ))));
            open = false;
        }
        if open {
            state.setup = Some(setup);
        }
    }
    if !state.notices.is_empty() {
        egui::Area::new(egui::Id::new("notices"))
            .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(12.0, -12.0))
            .order(egui::Order::Foreground)
            .show(&ctx, |ui| {
                ui.set_max_width(420.0);
                egui::Frame::popup(&ctx.global_style()).show(ui, |ui| {
                    for (notice, _) in &state.notices {
                        ui.label(
                            egui::RichText::new(notice)
                                .color(egui::Color32::from_rgb(255, 170, 90)),
                        );
                    }
                });
            });
        ctx.request_repaint_after(Duration::from_secs(1));
    }
    if *view.phase.get() == Phase::Won {
        let r = &*view.result;
        // Under the board's centre: left of the HUD in landscape, centred in portrait.
        let portrait = windows.single().is_ok_and(|w| is_portrait(w.size()));
        let board_x = if portrait { 0.0 } else { -PANEL_WIDTH / 2.0 };
        egui::Window::new("Solved!")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(board_x, -24.0))
            .show(&ctx, |ui| {
                ui.label(format!(
                    "{} in {}",
                    plural(r.moves, "move"),
                    format_time(r.time)
                ));
                if r.solved_by_app {
                    ui.label("Solved by the app: no best score.");
                }
                if let Some(best) = r.best {
                    let record = if r.record { " — a new record!" } else { "" };
                    ui.label(format!(
                        "Best for this size and difficulty: {}, {}{record}",
                        plural(best.moves, "move"),
                        format_time(Duration::from_millis(best.millis))
                    ));
                }
                if big_button(ui, true, "New game") {
                    actions.game.write(GameCommand::NewGame { seed: None });
                }
            });
    }
    Ok(())
}

/// Tile numbers and the hint's highlight, painted over the sprites.
fn overlay(
    mut contexts: EguiContexts,
    windows: Query<&Window, With<PrimaryWindow>>,
    settings: Res<Settings>,
    view: View,
    layout: Res<BoardLayout>,
    sprites: Query<(&TileSprite, &Transform)>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok(window) = windows.single() else {
        return Ok(());
    };
    let size = window.size();
    let to_screen = |p: Vec2| egui::pos2(p.x + size.x / 2.0, size.y / 2.0 - p.y);
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("board-overlay"),
    ));
    let board = view.current.game.board();
    let hinted = view
        .hint
        .for_board(board)
        .and_then(|mv| board.tile_moved_by(mv));
    let numbers = settings.numbers_shown(board.width()) && *view.phase.get() != Phase::Won;
    if !numbers && hinted.is_none() {
        return Ok(());
    }
    let font = egui::FontId::proportional((layout.cell * 0.22).clamp(10.0, 28.0));
    for (tile, transform) in &sprites {
        let center = transform.translation.truncate();
        let half = layout.cell / 2.0 - 2.0;
        let rect = egui::Rect::from_min_max(
            to_screen(center + Vec2::new(-half, half)),
            to_screen(center + Vec2::new(half, -half)),
        );
        if numbers {
            let corner = rect.min + egui::vec2(4.0, 4.0);
            let text = tile.0.to_string();
            let galley = painter.layout_no_wrap(text.clone(), font.clone(), egui::Color32::WHITE);
            let back = egui::Rect::from_min_size(corner, galley.size() + egui::vec2(8.0, 2.0));
            painter.rect_filled(back, 4.0, egui::Color32::from_black_alpha(150));
            painter.text(
                back.center(),
                egui::Align2::CENTER_CENTER,
                text,
                font.clone(),
                egui::Color32::WHITE,
            );
        }
        if hinted == Some(tile.0) {
            painter.rect_stroke(
                rect,
                4.0,
                egui::Stroke::new(4.0, egui::Color32::from_rgb(255, 215, 0)),
                egui::StrokeKind::Inside,
            );
        }
    }
    Ok(())
}

fn track_focus(
    mut contexts: EguiContexts,
    state: Res<HudState>,
    mut focus: ResMut<UiFocus>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    focus.pointer = ctx.is_pointer_over_egui() || ctx.egui_wants_pointer_input();
    focus.captured = ctx.egui_wants_pointer_input();
    // A clicked button keeps egui's focus too; only typing into the set-up board should keep
    // the arrows and WASD away from the tiles.
    focus.keyboard = state.setup.is_some() && ctx.egui_wants_keyboard_input();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_explains_what_is_wrong() {
        assert!(check_setup("1 2 3 / 4 0 5 / 7 8 6").is_ok());
        let count = check_setup("1 2 3 / 4 0 5 / 7 8").unwrap_err();
        assert!(count.contains("row") || count.contains("square"), "{count}");
        let duplicate = check_setup("1 2 3 / 4 0 5 / 7 8 8").unwrap_err();
        assert!(duplicate.contains('8'), "{duplicate}");
        let unsolvable = check_setup("2 1 3 / 4 5 6 / 7 8 0").unwrap_err();
        assert!(unsolvable.starts_with("unsolvable"), "{unsolvable}");
        assert!(
            check_setup("1 2 3 / 4 5 6 / 7 8 0").is_err(),
            "already solved"
        );
        assert!(check_setup("1 2 / 3 0").is_err(), "too small for the app");
    }

    #[test]
    fn tapping_the_grid_fills_in_order_and_writes_the_text() {
        let mut setup = Setup::new(3);
        // Tap cells 0..7 in order: the last cell becomes the gap.
        for cell in [1, 0, 2, 3, 4, 5, 6, 7] {
            setup.tap(cell);
        }
        setup.tap(1); // already numbered: nothing
        assert_eq!(setup.text, "2 1 3\n4 5 6\n7 8 0");
        assert!(
            check_setup(&setup.text)
                .unwrap_err()
                .starts_with("unsolvable")
        );
        let mut setup = Setup::new(3);
        for cell in [0, 1, 2, 3, 4, 5, 6, 8] {
            setup.tap(cell);
        }
        assert_eq!(setup.text, "1 2 3\n4 5 6\n7 0 8");
        assert!(check_setup(&setup.text).is_ok());
    }
}
