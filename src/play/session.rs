//! The session: what the player plays with now, beside their preferences (`settings`): the
//! photo on the board and the board the next game takes. It changes only here, by
//! [`SessionCommand`]s (the menu's choices, a photo picked or refused, the command line, the
//! game restored), and follows the board played (a board set up or brought back becomes the
//! next game's); everything else reads it.

use bevy::prelude::*;

use crate::frame::AppSet;
use crate::messages::{Change, GameChanged};
use crate::photo::FramedPhoto;

/// The photo and the next game's board.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Session {
    /// The photo the player chose, and the part of it framed (the puzzle of the day shows its
    /// own: `photo::photo_for`).
    pub photo: FramedPhoto,
    /// The next game's board: columns and rows.
    pub board: (usize, usize),
}

impl Default for Session {
    fn default() -> Self {
        Session {
            photo: FramedPhoto::whole(crate::photo::default_photo()),
            board: (4, 4),
        }
    }
}

/// A change of the session.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum SessionCommand {
    /// This photo, framed so, from now on (the board on show is cut from it at once).
    UsePhoto(FramedPhoto),
    /// This board for the next game: columns and rows.
    SetBoard(usize, usize),
}

/// The session and its commands: the commands take effect before the new games and the
/// photo they are for are made ([`AppSet::Preferences`]); the board played is followed once the
/// game has changed ([`AppSet::React`]).
pub fn plugin(app: &mut App) {
    app.add_message::<SessionCommand>()
        .init_resource::<Session>()
        .add_systems(Update, follow_commands.in_set(AppSet::Preferences))
        .add_systems(Update, follow_the_board.in_set(AppSet::React));
}

fn follow_commands(mut commands: MessageReader<SessionCommand>, mut session: ResMut<Session>) {
    for command in commands.read() {
        match command {
            SessionCommand::UsePhoto(photo) => {
                let photo = FramedPhoto {
                    source: crate::photo::sanitized(photo.source.clone()),
                    framing: photo.framing,
                };
                if session.photo != photo {
                    session.photo = photo;
                }
            }
            &SessionCommand::SetBoard(width, height) => set_board(&mut session, (width, height)),
        }
    }
}

/// The board played (set up, brought back, a new one) becomes the one the menu shows and the
/// next game takes.
fn follow_the_board(mut changes: MessageReader<GameChanged>, mut session: ResMut<Session>) {
    for changed in changes.read() {
        if matches!(changed.change, Change::Reset(..)) {
            let board = &changed.board;
            set_board(&mut session, (board.width(), board.height()));
        }
    }
}

fn set_board(session: &mut ResMut<Session>, board: (usize, usize)) {
    if crate::game::playable(board.0, board.1) && session.board != board {
        session.board = board;
    }
}
