//! What the controls show and what the player asked of them, in plain Rust with a few thin
//! systems: which sheet is open, the win's result card, the notices, and the questions asked
//! before a game in progress is thrown away. The egui views read and change this; the tests
//! drive it without a window.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use bevy::prelude::*;

use crate::app::diagnostics::ACTIONS_LOG;
use crate::app::redraw::{FrameRequest, ReportMotion};
use crate::frame::AppSet;
use crate::game::event::Run;
use crate::game::{Game, Position, SetupGrid, example_text};
use crate::history::challenge::Challenged;
use crate::history::replay::ReplayNews;
use crate::messages::{
    Back, BoardCovered, BoardHidden, BoardIntent, Change, GameChanged, GameCommand, NewGame,
    NoFileDialog, Notice, Pending, ReplaceGame,
};
use crate::photo::framing::{FramingCommand, FramingOpened};
use crate::play::CurrentGame;
use crate::play::session::SessionCommand;

/// The steps of the controls in the frame: they are drawn and read, then what was asked is
/// answered (a question asked, or the game's command sent).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HudStep {
    /// The egui views.
    Draw,
    /// The actions and Back.
    Answer,
}

/// How long a short notice stays, unless tapped away; a longer one stays as long as it takes
/// to read (see [`reading_time`]).
pub const NOTICE_TIME: Duration = Duration::from_secs(8);

/// How long a notice stays on show: [`NOTICE_TIME`], or for a long one two seconds to see it
/// and a slow reader's 12 characters a second.
pub fn reading_time(text: &str) -> Duration {
    let reading =
        Duration::from_secs(2) + Duration::from_secs_f32(text.chars().count() as f32 / 12.0);
    reading.max(NOTICE_TIME)
}
/// The most notices shown at once.
pub const MAX_NOTICES: usize = 3;

/// A sheet over the board: one at a time.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Sheet {
    /// Nothing: the board and the panel.
    #[default]
    None,
    /// The menu: a new game, the photo, the options.
    Menu,
    /// How to play.
    Help,
    /// About the app.
    About,
    /// The whole photo.
    Preview,
    /// Best scores.
    Records,
    /// Every solve, newest first.
    Solves,
    /// The speedsolver's statistics.
    Statistics,
    /// A finished game as a challenge to send: the text, with its link.
    SendChallenge(String),
    /// The day's result to share (it gives nothing away), and the same with the solve's code
    /// added, for a player who chooses to.
    ShareDay(String, Option<String>),
    /// A friend's challenge code to open, as typed so far.
    OpenChallenge(String),
    /// Set up your own board.
    Setup(SetupForm),
    /// A question before the game in progress is lost.
    Confirm(Pending),
    /// How the solver found what it said: the method, the time, the positions, the bound.
    How(String),
    /// The photo just chosen, to frame (`framing` holds it).
    Framing,
    /// The app's own file dialog, where the system's cannot open (a desktop without one).
    PickFile,
    /// The name to be known by on the daily's board, as typed so far (`sheets::board`).
    BoardName(String),
    /// The day's ranking on the shared board (`sheets::board`).
    TodaysBoard,
}

impl Sheet {
    /// Whether the game's clock stops while this sheet is open.
    pub fn pauses(&self) -> bool {
        *self != Sheet::None
    }

    /// Whether this sheet fills the window (the framing sheet), so that nothing under it (the
    /// board, the panel) need be drawn.
    pub fn hides_board(&self) -> bool {
        *self == Sheet::Framing
    }
}

/// The set-up sheet's state: the text typed and the grid tapped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SetupForm {
    /// The board as text.
    pub text: String,
    /// The grid being tapped in.
    pub grid: SetupGrid,
    /// An example of the shape, shown in the empty text field.
    pub example: String,
}

impl SetupForm {
    /// An empty form for a board of this shape.
    pub fn new(width: usize, height: usize) -> SetupForm {
        SetupForm {
            text: String::new(),
            grid: SetupGrid::new(width, height),
            example: example_text(width, height),
        }
    }
}

/// Carries out a replacement the player said yes to (or that loses nothing).
fn carry_out(pending: Pending, out: &mut Answers) {
    let (commands, new_game) = (&mut out.commands, &mut out.new_game);
    match pending {
        Pending::NewGame => {
            new_game.write(NewGame::Settings { seed: None });
        }
        Pending::Daily => {
            new_game.write(NewGame::Daily);
        }
        Pending::Event(event) => {
            let run = Run::start(event);
            new_game.write(NewGame::Leg { run, elapsed_ms: 0 });
        }
        Pending::Restart => {
            commands.write(GameCommand::Restart);
        }
        Pending::Start(game) | Pending::Challenge(game) => {
            commands.write(GameCommand::Start(game));
        }
        Pending::Framed(photo, (columns, rows)) => {
            out.session.write(SessionCommand::UsePhoto(photo));
            out.session.write(SessionCommand::SetBoard(columns, rows));
            new_game.write(NewGame::Settings { seed: None });
        }
        Pending::Fresh { photo, size, seed } => {
            if let Some(photo) = photo {
                out.session.write(SessionCommand::UsePhoto(photo));
            }
            if let Some((columns, rows)) = size {
                out.session.write(SessionCommand::SetBoard(columns, rows));
            }
            new_game.write(NewGame::Settings { seed });
        }
    }
}

/// The question asked before `pending` replaces `game`: what comes, and what is lost (a run
/// is named, with its board and all its moves).
pub fn question(pending: &Pending, game: &Game) -> String {
    let what = match pending {
        Pending::NewGame | Pending::Fresh { .. } => "Start a new game?".to_string(),
        Pending::Daily => "Play today's puzzle?".to_string(),
        Pending::Restart => "Start this puzzle again from the beginning?".to_string(),
        Pending::Start(_) => "Play the board you set up?".to_string(),
        Pending::Challenge(_) => "Play your friend's challenge?".to_string(),
        Pending::Framed(..) => "Play this photo?".to_string(),
        Pending::Event(event) => format!("Start a {}?", event.label()),
    };
    let game = game.kept();
    let made = crate::words::moves_text(game.total_moves());
    let lost = match game.run() {
        Some(run) => format!(
            "The {} in progress (board {} of {}, {made})",
            run.event.label(),
            run.leg + 1,
            run.legs()
        ),
        None => format!("The game in progress ({made})"),
    };
    format!("{what} {lost} will be lost.")
}

/// Whether replacing this game needs the player's yes: a game with moves made, not yet won
/// (not a review: the game it replays is kept).
pub fn worth_asking(game: &Game) -> bool {
    game.has_progress()
}

/// What the player asked of the controls that changes the controls' state.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum HudAction {
    /// Yes to the question asked.
    Confirm,
    /// Open a sheet (from a control that does not hold the HUD's state: the panel's actions).
    Open(Sheet),
}

/// The controls' state.
#[derive(Resource, Default, Debug)]
pub struct Hud {
    /// The sheet open over the board.
    pub sheet: Sheet,
    /// The win's result card is on show (dismissed by Back or a tap on the board).
    pub result_open: bool,
    /// Messages for the player, with when they came.
    pub notices: VecDeque<(String, Instant)>,
    /// Every change of the solve history since the last win is on disk, synced: the win card
    /// says the solve is kept.
    pub solves_kept: bool,
    /// The cell the tile moved last reached (the gap's, before any move): the line R and C
    /// read aloud.
    pub last_moved: Option<usize>,
    /// What the last change of the board did, in words, and where the game stood after it:
    /// what a screen reader announces (with the meter's reading, when it is on).
    pub announcement: Option<(String, Position)>,
    /// The row or column read last (R and C, a tap of two or three fingers), and where the
    /// game stood: shown in the status area until the board changes, as well as said.
    pub line_read: Option<(String, Position)>,
    /// The sheet drawn in the last pass: a sheet drawn for the first time ignores the tap
    /// that opened it (egui would read it as a tap beside the sheet, and close it at once).
    pub drawn: Option<std::mem::Discriminant<Sheet>>,
    /// The panel's row of actions on show, and since when.
    pub toolbar: ToolbarHold,
    /// A board being set up, kept while the set-up sheet is closed until it is played.
    pub setup_draft: Option<SetupForm>,
    /// When the game on the board was won (the celebration's start); none for a finished game
    /// brought back (after its review, or at start).
    pub won_at: Option<Instant>,
    /// The player holds Peek: the whole photo is shown over the board while it is held.
    pub peeking: bool,
}

/// How long a row of actions that has just turned into another ignores taps.
pub const CONTROL_HOLD: Duration = Duration::from_millis(400);

/// Which controls the panel's first row of actions shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Toolbar {
    /// Undo, redo, hint and solve.
    #[default]
    Play,
    /// A solution's pause, stop, slower and faster.
    Playback,
    /// The won game's review button.
    Won,
    /// The review's back, play and next.
    Review,
    /// A replay's back, play and next.
    Replay,
}

/// The row of actions on show and when it last turned into another: a tap within
/// [`CONTROL_HOLD`] of that was meant for the old buttons (Stop, as the solution ended) and
/// must not press the new ones (Review).
#[derive(Clone, Copy, Debug, Default)]
pub struct ToolbarHold {
    shown: Toolbar,
    since: Option<Instant>,
}

impl ToolbarHold {
    /// Notes the row drawn at `now`; whether its taps count.
    pub fn show(&mut self, toolbar: Toolbar, now: Instant) -> bool {
        if toolbar != self.shown {
            self.shown = toolbar;
            self.since = Some(now);
        }
        self.since
            .is_none_or(|since| now.saturating_duration_since(since) >= CONTROL_HOLD)
    }
}

impl Hud {
    /// Whether the open sheet may close on a tap beside it: not in the pass it first appears.
    pub fn may_close(&self) -> bool {
        self.drawn == Some(std::mem::discriminant(&self.sheet))
    }
}

impl Hud {
    /// Back: closes the open sheet, else the result card, else opens the menu (the game waits
    /// there, its clock stopped). Never loses the game.
    pub fn back(&mut self) {
        if self.sheet != Sheet::None {
            self.sheet = Sheet::None;
        } else if self.result_open {
            self.result_open = false;
        } else {
            self.sheet = Sheet::Menu;
        }
    }

    /// Opens the set-up sheet on the draft left there, else on an empty grid of this shape.
    pub fn open_setup(&mut self, shape: npuzzle::Shape) {
        let form = self
            .setup_draft
            .take()
            .unwrap_or_else(|| SetupForm::new(shape.width, shape.height));
        self.sheet = Sheet::Setup(form);
    }

    /// Asks first, or returns what to do at once.
    pub fn replace(&mut self, pending: Pending, game: &Game) -> Option<Pending> {
        if worth_asking(game) {
            self.sheet = Sheet::Confirm(pending);
            None
        } else {
            self.sheet = Sheet::None;
            Some(self.going_ahead(pending))
        }
    }

    /// What is about to be carried out: a board set up is played, so its draft is done with.
    fn going_ahead(&mut self, pending: Pending) -> Pending {
        if matches!(pending, Pending::Start(_)) {
            self.setup_draft = None;
        }
        pending
    }

    /// The set-up sheet is left (closed, or Play pressed): its form is kept as the draft.
    pub fn leave_setup(&mut self, form: SetupForm) {
        self.setup_draft = Some(form);
        self.sheet = Sheet::None;
    }

    /// The yes to the question asked, if one was.
    pub fn confirm(&mut self) -> Option<Pending> {
        match std::mem::take(&mut self.sheet) {
            Sheet::Confirm(pending) => Some(self.going_ahead(pending)),
            other => {
                self.sheet = other;
                None
            }
        }
    }

    /// Adds a notice, dropping the oldest past [`MAX_NOTICES`].
    pub fn notify(&mut self, text: String, now: Instant) {
        self.notices.push_back((text, now));
        while self.notices.len() > MAX_NOTICES {
            self.notices.pop_front();
        }
    }

    /// Drops the notices on show for longer than their [`reading_time`].
    pub fn expire_notices(&mut self, now: Instant) {
        self.notices
            .retain(|(text, at)| now.duration_since(*at) < reading_time(text));
    }
}

/// The controls' state and the systems that keep it, without egui (the core has it: the
/// tests drive it headless).
pub fn plugin(app: &mut App) {
    app.add_message::<HudAction>()
        .init_resource::<Hud>()
        .configure_sets(
            Update,
            (HudStep::Draw, HudStep::Answer)
                .chain()
                .in_set(AppSet::Controls),
        )
        .add_systems(
            Update,
            (act, cover_board, close_framing)
                .chain()
                .in_set(HudStep::Answer),
        )
        .add_systems(
            Update,
            (follow_game, follow_replay, read_lines)
                .chain()
                // A replay's news is said in the frame of the change it comes with, over the
                // change's own words, not a frame later.
                .after(crate::history::replay::tell_news)
                .in_set(AppSet::React),
        )
        .add_systems(Last, (log_actions, report_motion.in_set(ReportMotion)));
}

/// Logs the controls' actions and each sheet opened or closed, under the app's action log
/// (`RUST_LOG=snapslide::actions=debug`, see `app::diagnostics`).
fn log_actions(
    mut actions: MessageReader<HudAction>,
    hud: Res<Hud>,
    mut last_sheet: Local<Option<std::mem::Discriminant<Sheet>>>,
) {
    for action in actions.read() {
        debug!(target: ACTIONS_LOG, "action: {action:?}");
    }
    let now = std::mem::discriminant(&hud.sheet);
    if *last_sheet != Some(now) {
        *last_sheet = Some(now);
        debug!(target: ACTIONS_LOG, "sheet: {:?}", hud.sheet);
    }
}

/// Notices count down.
fn report_motion(hud: Res<Hud>, mut frames: MessageWriter<FrameRequest>) {
    if !hud.notices.is_empty() {
        frames.write(FrameRequest::Ticking);
    }
}

/// The player's actions and Back.
/// What `act` sends.
#[derive(bevy::ecs::system::SystemParam)]
struct Answers<'w> {
    commands: MessageWriter<'w, GameCommand>,
    new_game: MessageWriter<'w, NewGame>,
    session: MessageWriter<'w, SessionCommand>,
    frames: MessageWriter<'w, FrameRequest>,
}

/// What other modules ask of the controls: the framing sheet for a photo just chosen, the
/// app's own file dialog where the system's cannot open, a replacement of the game (asked
/// about once the first game is on the board), and the solves kept on disk.
#[derive(bevy::ecs::system::SystemParam)]
struct SheetsOpened<'w, 's> {
    framed: MessageReader<'w, 's, FramingOpened>,
    no_dialog: MessageReader<'w, 's, NoFileDialog>,
    replacing: MessageReader<'w, 's, ReplaceGame>,
    waiting: Local<'s, Vec<Pending>>,
    kept: MessageReader<'w, 's, crate::messages::SolvesKept>,
}

/// Answers the player's actions, Back and the notices, after the controls were drawn: when
/// that changes what they show, the next frame draws it.
fn act(
    mut actions: MessageReader<HudAction>,
    mut back: MessageReader<Back>,
    mut notices: MessageReader<Notice>,
    mut opened: SheetsOpened,
    mut hud: ResMut<Hud>,
    current: Res<CurrentGame>,
    mut out: Answers,
) {
    let asked = !actions.is_empty() || !back.is_empty() || !notices.is_empty();
    let asked = asked || !opened.framed.is_empty() || !opened.no_dialog.is_empty();
    let asked = asked || !opened.kept.is_empty() || !opened.replacing.is_empty();
    if opened.kept.read().count() > 0 {
        hud.solves_kept = true;
    }
    if opened.framed.read().count() > 0 {
        hud.sheet = Sheet::Framing;
    }
    if opened.no_dialog.read().count() > 0 {
        hud.sheet = Sheet::PickFile;
    }
    let replacing = opened.replacing.read().map(|asked| asked.0.clone());
    opened.waiting.extend(replacing);
    if !opened.waiting.is_empty() && !current.started() {
        // Asked before the first game is on the board: asked about once it is.
        out.frames.write(FrameRequest::OneMore);
    }
    let waiting = match current.started() {
        true => std::mem::take(&mut *opened.waiting),
        false => Vec::new(),
    };
    for pending in waiting {
        if let Some(ready) = hud.replace(pending, &current.game) {
            carry_out(ready, &mut out);
        }
    }
    for action in actions.read() {
        let ready = match action.clone() {
            HudAction::Confirm => hud.confirm(),
            HudAction::Open(sheet) => {
                hud.sheet = sheet;
                None
            }
        };
        if let Some(pending) = ready {
            carry_out(pending, &mut out);
        }
    }
    for _ in back.read() {
        hud.back();
    }
    let now = Instant::now();
    for notice in notices.read() {
        hud.notify(notice.0.clone(), now);
    }
    if !hud.notices.is_empty() {
        hud.expire_notices(now);
    }
    if asked {
        out.frames.write(FrameRequest::OneMore);
    }
}

/// The framing sheet's photo goes when the sheet closes (Play, Cancel, Back, a tap beside).
fn close_framing(
    hud: Res<Hud>,
    mut was_open: Local<bool>,
    mut framing: MessageWriter<FramingCommand>,
) {
    let open = hud.sheet == Sheet::Framing;
    if *was_open && !open {
        framing.write(FramingCommand::Close);
    }
    *was_open = open;
}

/// The result card opens on the win and closes on a new board or a tap on the board.
fn follow_game(
    mut changes: MessageReader<GameChanged>,
    mut intents: MessageReader<BoardIntent>,
    challenged: Res<Challenged>,
    mut hud: ResMut<Hud>,
) {
    // The taps read here came before this frame's changes: one closes the card open then, not
    // the one its own winning move opens.
    let open_before = hud.result_open;
    for changed in changes.read() {
        match &changed.change {
            Change::Won(game) => {
                hud.result_open = true;
                hud.solves_kept = false;
                // A blind solve said done too soon ends without a celebration.
                hud.won_at = (!game.is_dnf()).then(Instant::now);
                hud.announcement = Some((won_text(game, &challenged), changed.position));
            }
            Change::Reset(game, began) => {
                hud.last_moved = None;
                hud.result_open = changed.won;
                hud.won_at = None;
                let said = crate::words::board_came_text(game, *began);
                hud.announcement = Some((said, changed.position));
            }
            Change::Slid { steps, .. } => {
                hud.last_moved = steps.last().map(|step| step.to);
                let said = slid_text(steps, changed.blindfolded);
                hud.announcement = said.map(|said| (said, changed.position));
            }
            Change::Bumped(_) => {
                hud.announcement = Some(("That tile cannot move.".into(), changed.position));
            }
            Change::Helped | Change::Left(_) => {}
        }
    }
    // A tap on the board closes the card; the pointer passing over it (hover) does not.
    let tapped = intents
        .read()
        .any(|intent| !matches!(intent, BoardIntent::Hover(_)));
    if tapped && open_before {
        hud.result_open = false;
    }
}

/// What a replay tells is said: a run's next board, and the replay's end.
fn follow_replay(
    mut news: MessageReader<ReplayNews>,
    current: Res<CurrentGame>,
    mut hud: ResMut<Hud>,
) {
    if let Some(news) = news.read().last() {
        let said = news.words();
        hud.announcement = Some((said, current.position));
    }
}

/// A win in words for the live region, with the race's verdict when a friend's challenge was
/// played (what the card shows in colour).
fn won_text(game: &crate::game::Game, challenged: &Challenged) -> String {
    // A run's moves are its boards', as its card counts them.
    let moves = crate::words::moves_text(game.total_moves());
    if game.is_dnf() {
        return "Not solved: a DNF.".to_string();
    }
    if game.helped() {
        return format!("Solved, with the app's help, in {moves}.");
    }
    match challenged.of(game) {
        Some(friend) => {
            let yours = (game.moves(), game.elapsed().as_millis() as u64);
            let theirs = (friend.moves().len(), friend.time_ms());
            let verdict = crate::history::challenge::verdict(yours, theirs);
            format!("Solved in {moves}. {verdict}")
        }
        None => format!("Solved in {moves}!"),
    }
}

/// A slide in words for the live region: the tiles named, or only counted while they are
/// hidden (a blind solve).
fn slid_text(steps: &[crate::game::Step], blindfolded: bool) -> Option<String> {
    let mv = steps.first()?.mv;
    Some(match blindfolded {
        true => crate::words::moved_blind_text(steps.len(), mv),
        false => {
            let tiles: Vec<u8> = steps.iter().map(|step| step.tile).collect();
            crate::words::moved_text(&tiles, mv)
        }
    })
}

/// R and C: the row or column of the tile moved last (the gap's before any move) is said
/// (not while a blind solve hides the tiles).
fn read_lines(
    mut asked: MessageReader<crate::messages::ReadLine>,
    current: Res<CurrentGame>,
    mut hud: ResMut<Hud>,
) {
    let Some(&line) = asked.read().last() else {
        return;
    };
    let board = current.game.board();
    let said = match current.game.blindfolded() {
        true => "The tiles are hidden until you say you are done.".to_string(),
        false => {
            let at = hud.last_moved.unwrap_or_else(|| board.blank());
            let row = line == crate::messages::ReadLine::Row;
            crate::words::line_text(board, row, at)
        }
    };
    hud.line_read = Some((said.clone(), current.position));
    hud.announcement = Some((said, current.position));
}

/// A sheet over the board stops the game's clock and a solution's playback, and one that fills
/// the window hides the board: their owners are told when that changes.
fn cover_board(
    hud: Res<Hud>,
    mut said: Local<(bool, bool)>,
    mut covered: MessageWriter<BoardCovered>,
    mut hidden: MessageWriter<BoardHidden>,
) {
    let (pauses, hides) = (hud.sheet.pauses(), hud.sheet.hides_board());
    if said.0 != pauses {
        covered.write(BoardCovered(pauses));
    }
    if said.1 != hides {
        hidden.write(BoardHidden(hides));
    }
    *said = (pauses, hides);
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_row_that_changed_under_the_finger_ignores_taps_for_a_moment() {
        use super::{CONTROL_HOLD, Toolbar, ToolbarHold};
        let start = std::time::Instant::now();
        let later = |ms| start + std::time::Duration::from_millis(ms);
        let mut hold = ToolbarHold::default();
        assert!(hold.show(Toolbar::Play, start), "the first row takes taps");
        // Solve becomes Pause: a double tap on Solve must not pause.
        assert!(!hold.show(Toolbar::Playback, later(10)));
        assert!(
            hold.show(Toolbar::Playback, later(500)),
            "a steady row takes taps"
        );
        // The solution ends: Stop becomes Review under the finger.
        assert!(!hold.show(Toolbar::Won, later(510)));
        assert!(!hold.show(Toolbar::Won, later(800)));
        let settled = 510 + CONTROL_HOLD.as_millis() as u64;
        assert!(hold.show(Toolbar::Won, later(settled)));
    }

    use super::*;

    #[test]
    fn a_run_won_is_said_with_the_moves_of_all_its_boards() {
        use crate::game::event::{Event, Run};
        let last_leg = Run::start(Event::Relay { up_to: 4 }).next(20, 15, false);
        let start = npuzzle::parse_board("1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 0 15").unwrap();
        let mut game = crate::game::Game::leg(start, last_leg, Duration::from_secs(9));
        game.apply(&[npuzzle::Move::Right]);
        assert!(game.is_won());
        assert_eq!(
            won_text(&game, &Challenged::default()),
            "Solved in 21 moves!"
        );
    }

    #[test]
    fn a_challenge_won_is_said_with_the_race_s_verdict() {
        let start = npuzzle::parse_board("1 2 3 / 4 5 6 / 7 0 8").unwrap();
        let mut game = crate::game::Game::new(start.clone(), crate::game::GameKind::Custom);
        game.apply(&[npuzzle::Move::Right]);
        assert!(game.is_won());
        let mut challenged = Challenged::default();
        assert_eq!(won_text(&game, &challenged), "Solved in 1 move!");
        let friend = challenge::Challenge::new(start, vec![npuzzle::Move::Right], 60_000, None);
        challenged.playing = Some(friend.unwrap());
        let said = won_text(&game, &challenged);
        assert_eq!(
            said,
            "Solved in 1 move. You won on time, by 1:00, with the same moves."
        );
    }
    use npuzzle::{Move, parse_board};

    fn game() -> Game {
        Game::new(
            parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap(),
            crate::game::Difficulty::Easy,
        )
    }

    #[test]
    fn a_game_with_moves_is_asked_about_before_it_is_replaced() {
        let mut hud = Hud::default();
        let mut fresh = game();
        assert_eq!(
            hud.replace(Pending::NewGame, &fresh),
            Some(Pending::NewGame),
            "nothing to lose: at once"
        );
        fresh.apply(&[Move::Up]);
        assert_eq!(hud.replace(Pending::NewGame, &fresh), None);
        assert_eq!(hud.sheet, Sheet::Confirm(Pending::NewGame));
        assert_eq!(hud.confirm(), Some(Pending::NewGame));
        assert_eq!(hud.sheet, Sheet::None);
        assert_eq!(hud.confirm(), None, "no question, no answer");
    }

    #[test]
    fn back_closes_the_sheet_then_the_result_then_opens_the_menu() {
        let mut hud = Hud {
            sheet: Sheet::Help,
            result_open: true,
            ..Hud::default()
        };
        hud.back();
        assert_eq!((hud.sheet.clone(), hud.result_open), (Sheet::None, true));
        hud.back();
        assert_eq!((hud.sheet.clone(), hud.result_open), (Sheet::None, false));
        hud.back();
        assert_eq!(hud.sheet, Sheet::Menu);
        assert!(hud.sheet.pauses());
    }

    #[test]
    fn questions_say_what_is_lost() {
        use super::{Duration, Game, Pending, Run, question};
        use crate::game::Difficulty;
        use crate::game::event::Event;
        use npuzzle::{Move, parse_board};
        let board = parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap();
        let mut game = Game::new(board, Difficulty::Easy);
        game.apply(&[Move::Up]);
        assert_eq!(
            question(&Pending::NewGame, &game),
            "Start a new game? The game in progress (1 move) will be lost."
        );
        let friend = question(&Pending::Challenge(Box::new(game.clone())), &game);
        assert!(
            friend.starts_with("Play your friend's challenge?"),
            "{friend}"
        );
        // A run on its third board, 48 moves in: named, with its board and all its moves.
        let marathon = Event::Marathon {
            width: 3,
            height: 3,
            count: 10,
        };
        let mut run = Run::start(marathon);
        (run.leg, run.moves_before) = (2, 47);
        let leg = Game::leg(game.board().clone(), run, Duration::ZERO);
        let mut leg = leg;
        assert!(!leg.apply(&[Move::Down]).moves().is_empty());
        assert_eq!(
            question(&Pending::NewGame, &leg),
            "Start a new game? The Marathon ×10 in progress (board 3 of 10, 48 moves) will be \
             lost."
        );
    }

    #[test]
    fn notices_are_few_and_expire() {
        let mut hud = Hud::default();
        let start = Instant::now();
        for i in 0..5 {
            hud.notify(format!("{i}"), start);
        }
        assert_eq!(hud.notices.len(), MAX_NOTICES);
        assert_eq!(hud.notices[0].0, "2");
        hud.expire_notices(start + NOTICE_TIME);
        assert!(hud.notices.is_empty());
    }

    #[test]
    fn a_board_set_up_is_kept_until_it_is_played() {
        let shape = npuzzle::Shape::new(5, 5).unwrap();
        let mut hud = Hud::default();
        hud.open_setup(shape);
        let Sheet::Setup(mut form) = hud.sheet.clone() else {
            panic!("no set-up sheet");
        };
        for cell in 0..24 {
            if let Some(text) = form.grid.tap(cell) {
                form.text = text;
            }
        }
        hud.leave_setup(form.clone());
        // Play it; a game in progress asks first; "Keep playing" (Back) says no.
        let board = npuzzle::parse_board(&form.text).unwrap();
        let game = Box::new(Game::new(board.clone(), crate::game::GameKind::Custom));
        let start = npuzzle::random::shuffled(shape, 40, 1);
        let mut playing = Game::new(start.clone(), crate::game::GameKind::Custom);
        let first = npuzzle::Move::ALL
            .into_iter()
            .find(|&mv| start.can_move(mv));
        playing.apply(&[first.unwrap()]);
        assert_eq!(hud.replace(Pending::Start(game.clone()), &playing), None);
        hud.back();
        assert_eq!(hud.sheet, Sheet::None);
        hud.open_setup(shape);
        assert_eq!(
            hud.sheet,
            Sheet::Setup(form.clone()),
            "the 24 taps are still there"
        );
        // Played, the draft goes: the next set-up starts empty.
        hud.leave_setup(form);
        assert_eq!(hud.replace(Pending::Start(game.clone()), &playing), None);
        assert!(matches!(hud.confirm(), Some(Pending::Start(_))));
        hud.open_setup(shape);
        assert_eq!(hud.sheet, Sheet::Setup(SetupForm::new(5, 5)));
    }

    #[test]
    fn a_long_notice_stays_long_enough_to_read() {
        let mut hud = Hud::default();
        let start = Instant::now();
        let long = "This photo could not be used: it is larger than 40 megabytes. Choose a \
                    smaller one, or take a new photo with the camera.";
        hud.notify(long.to_string(), start);
        hud.notify("Saved.".to_string(), start);
        hud.expire_notices(start + NOTICE_TIME);
        assert_eq!(
            hud.notices.len(),
            1,
            "the short one went, the long one stays"
        );
        hud.expire_notices(start + NOTICE_TIME * 2);
        assert!(hud.notices.is_empty(), "but not for ever");
    }
}
