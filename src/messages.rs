//! The messages the app's modules exchange, in one place, so that no module imports another to
//! talk to it. Who writes and who reads each, and in which step of the frame, is drawn in
//! docs/architecture.md; a module's own commands (the settings', the session's, the review's,
//! the controls') live with it.

use bevy::prelude::*;
use npuzzle::{Board, Move};

use crate::game::event::{Event, Run};
use crate::game::solves::{HistoryRecord, Solve};
use crate::game::{Act, BestScores, DailyResults, FramedPhoto, Game, Position, Preferences, Step};

/// Whether the controls have the pointer or the keyboard, told by the HUD after it drew them,
/// whenever it changes; input judges the next frame's presses by it (egui hit-tests the same
/// way: by where the controls were in the frame before).
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ControlsFocus {
    /// The pointer is over a menu or dialog.
    pub pointer: bool,
    /// A text field has the keyboard.
    pub keyboard: bool,
    /// A menu or dialog took the current press (a touch has no hover, so this is what tells
    /// a tap on a dialog over the board from a tap on the board).
    pub captured: bool,
}

/// What the player meant on the board, interpreted by `input` from a tap, swipe or key.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardIntent {
    /// A tap on a cell (row-major index): slide the tiles between it and the gap.
    Tap(usize),
    /// A blank move, from a key or a swipe that began off the board.
    Slide(Move),
    /// A drag that began on a cell, pointing the way the blank move names: the tile under the
    /// finger slides toward the gap if it can (the rules decide; a drag from the gap is a
    /// swipe).
    Drag {
        /// The cell the drag began on (row-major index).
        cell: usize,
        /// The blank move the drag's direction names.
        toward: Move,
    },
    /// Hover: the pointer entered a cell, with no button held: its tile slides if it is in
    /// line with the gap (with the tiles between), and nothing happens otherwise.
    Hover(usize),
}

/// A command on the game, from the controls, the keys, the solver, the review or a new game.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum GameCommand {
    /// Undo the last action.
    Undo,
    /// Redo the last undone action.
    Redo,
    /// Back to the start of this shuffle.
    Restart,
    /// Start from a given game (a set-up or generated game, a review, a replay).
    Start(Box<Game>),
    /// Bring back the game the player had (read at start, or after a review or a replay):
    /// the save holds it already.
    Resume(Box<Game>),
    /// A move played by the app (a solution's playback or a played hint).
    AppMove(Move),
    /// The app showed the player a hint or a solution: the game sets no best score.
    Helped,
    /// The player says a blind solve is done (solved, or a DNF).
    Declare,
}

/// Something that replaces the game in progress, waiting for the player's yes when moves would
/// be lost (see [`ReplaceGame`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// A new game with the settings.
    NewGame,
    /// Today's puzzle.
    Daily,
    /// Back to the start of this shuffle.
    Restart,
    /// A board the player set up.
    Start(Box<Game>),
    /// A friend's challenge: its board.
    Challenge(Box<Game>),
    /// A new game on a board of this shape (columns, rows), cut from this photo as framed.
    Framed(FramedPhoto, (usize, usize)),
    /// A new game as the command line asks: its photo (framed), board (columns, rows) and
    /// seed where given, the session's and a random seed where not.
    Fresh {
        /// The photo, framed.
        photo: Option<FramedPhoto>,
        /// The board: columns and rows.
        size: Option<(usize, usize)>,
        /// The shuffle's seed.
        seed: Option<u64>,
    },
    /// A run of a speedsolvers' event, from its first board.
    Event(Event),
}

/// Replace the game in progress with this: the controls ask the player first when the game
/// has moves to lose, and carry it out on a yes (or at once when nothing is lost).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct ReplaceGame(pub Pending);

/// Read a line of the board aloud (R and C on a keyboard): the row or the column of the tile
/// moved last (of the gap before any move), for a screen reader.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadLine {
    /// Its row.
    Row,
    /// Its column.
    Column,
}

/// Asks for a new game, made in the background (an exact shortest distance can take the
/// engine a moment) and then started.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewGame {
    /// With the settings' difficulty and the session's board, from a seed (random if `None`).
    Settings {
        /// The seed.
        seed: Option<u64>,
    },
    /// Today's puzzle of the day.
    Daily,
    /// The next leg of a run of boards on one clock (its first, to start the run).
    Leg {
        /// The run, at the leg to make.
        run: Run,
        /// The clock when the leg before was solved, in ms.
        elapsed_ms: u64,
    },
}

/// A sheet covers the board (true), or no longer (false): the game's clock and a solution's
/// playback wait while it does.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardCovered(pub bool);

/// A sheet fills the window (true), or no longer (false): the board is not drawn under it.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardHidden(pub bool);

/// A new game is being made (true), or no longer (false: started, cancelled or failed): the
/// board on screen is about to be replaced, so it takes no move, and its photo is cut for the
/// board on its way rather than for this one.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardReplacing(pub bool);

/// Stops making the new game asked for (the player's Cancel while it is looked for).
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CancelNewGame;

/// What changed in the game, with where it stands after it: for the views, the sounds, the
/// solver, the meter, the records and the save file, which need not look at the game to know.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct GameChanged {
    /// What happened.
    pub change: Change,
    /// Where the game stands after it.
    pub position: Position,
    /// The board after it.
    pub board: Board,
    /// Whether the game is won after it (a finished game brought back is too).
    pub won: bool,
    /// Whether the tiles are shown blank after it (a blind solve under way).
    pub blindfolded: bool,
    /// The game's clock when it happened.
    pub clock: std::time::Duration,
}

/// What happened to the game.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Tiles slid.
    Slid {
        /// What the slide did to the game's history: an action played, undone or redone.
        act: Act,
        /// Each tile's slide (the tile, the cell it left and the cell it reached), in order.
        steps: Vec<Step>,
        /// Whether the app made the move.
        by_app: bool,
        /// How long the slide is shown, in seconds: the game waits this long before the next.
        seconds: f32,
    },
    /// An illegal input: shake (the cell tapped, if any) and bump.
    Bumped(Option<usize>),
    /// A new board (a new game, a restart, a game brought back, a review): rebuild everything.
    /// The game now on the board, and how it came.
    Reset(Box<Game>, Began),
    /// The app helped (a hint or a solution was shown, or it moved a tile): the game is marked
    /// as helped from now on.
    Helped,
    /// A game with progress left the board for another (told just before the other's
    /// `Reset`): the game as it was left.
    Left(Box<Game>),
    /// The last move completed the board: the finished game, to book its result.
    Won(Box<Game>),
}

/// How a board came on: a new game, the same shuffle again, or the player's own game back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Began {
    /// A new game, or a viewer (a review, a replay).
    New,
    /// The same shuffle from its start.
    Restarted,
    /// The game the player had, brought back.
    Resumed,
}

/// A message for the player from the app (a bad photo, a damaged file…), shown by the HUD.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Notice(pub String);

/// The solve history changed (a solve kept, removed or brought back): `records` tells
/// `persist`, which appends it as one record.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct HistoryChanged(pub HistoryRecord);

/// Every change of the solve history told so far is on disk (appended and synced): the win
/// card may say the solve is kept.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolvesKept;

/// What the player asked the solver for.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum SolverCommand {
    /// Solve the board and play the solution.
    Solve,
    /// Show the first move of a solution; if one is shown for this board, play it.
    Hint,
    /// Stop thinking.
    Cancel,
    /// Pause or resume the playback.
    TogglePause,
    /// Stop the playback.
    Stop,
    /// Play these moves (a line the review shows), as a solution plays.
    Play(Vec<Move>),
}

/// What `persist` read from the player's files at start, for the modules that own it.
#[derive(Message, Clone, Debug, Default, PartialEq)]
pub struct Restored {
    /// The settings, if a settings file was read.
    pub settings: Option<Preferences>,
    /// The best scores, if a scores file was read.
    pub scores: Option<BestScores>,
    /// The puzzles of the day played, if that file was read.
    pub days: Option<DailyResults>,
    /// The solve history, oldest first, if that file was read.
    pub solves: Option<Vec<Solve>>,
}

/// Text for the player to send: a challenge, the day's result. The platform hands it on (the
/// clipboard on the desktop).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct ShareText(pub String);

/// A file made for the player to keep or send (a replay's GIF, an export of the solves): on
/// the desktop it is saved where the player keeps such files, on a phone handed to the share
/// sheet.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct ShareFile {
    /// Its file name.
    pub name: String,
    /// What it holds.
    pub bytes: Vec<u8>,
    /// Its MIME type ("image/gif", "text/csv").
    pub mime: &'static str,
}

/// Open a friend's challenge from its code or link, as the player pasted or typed it (a
/// whole message holding the link will do).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct OpenChallenge(pub String);

/// Open the challenge code on the clipboard.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PasteChallenge;

/// Where the player wants a photo from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhotoOrigin {
    /// The phone's photo picker, or the desktop's file dialog.
    Gallery,
    /// The phone's camera.
    Camera,
}

/// The player asked for a photo; the platform answers later with [`PhotoArrived`] or a
/// [`Notice`].
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PickPhoto(pub PhotoOrigin);

/// The desktop's file dialog could not open (no portal, no zenity: a plain X11 desktop): the
/// app offers its own, a sheet of the HUD.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoFileDialog;

/// A photo file chosen in the app's own file dialog: the platform reads it as one chosen in
/// the system's.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PhotoFileChosen(pub std::path::PathBuf);

/// A photo the player chose, as the bytes of an image file, with a name for it.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PhotoArrived {
    /// The encoded image (JPEG, PNG or WebP).
    pub bytes: Vec<u8>,
    /// A short name for the HUD, such as the file's name.
    pub name: String,
}

/// The platform's back action (Android's back gesture, Escape on the desktop): close the top
/// dialog, else pause to the menu.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Back;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<BoardIntent>()
        .add_message::<ControlsFocus>()
        .add_message::<GameCommand>()
        .add_message::<NewGame>()
        .add_message::<ReplaceGame>()
        .add_message::<ReadLine>()
        .add_message::<CancelNewGame>()
        .add_message::<BoardCovered>()
        .add_message::<BoardHidden>()
        .add_message::<BoardReplacing>()
        .add_message::<GameChanged>()
        .add_message::<Notice>()
        .add_message::<SolvesKept>()
        .add_message::<HistoryChanged>()
        .add_message::<Restored>()
        .add_message::<SolverCommand>()
        .add_message::<PickPhoto>()
        .add_message::<NoFileDialog>()
        .add_message::<PhotoFileChosen>()
        .add_message::<ShareText>()
        .add_message::<ShareFile>()
        .add_message::<PasteChallenge>()
        .add_message::<OpenChallenge>()
        .add_message::<PhotoArrived>()
        .add_message::<Back>();
}
