//! The session: what the player plays with now, beside their preferences (`settings`): the
//! photo on the board and the board the next game takes. It changes only here, by
//! [`SessionCommand`]s (the menu's choices, a photo picked or refused, the command line, the
//! game restored or played); everything else reads it.

use bevy::prelude::*;

use crate::photo::PhotoSource;

/// The photo and the next game's board.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Session {
    /// The photo the player chose (the puzzle of the day shows its own: `photo::photo_for`).
    pub photo: PhotoSource,
    /// The next game's board: columns and rows.
    pub board: (usize, usize),
}

impl Default for Session {
    fn default() -> Self {
        Session {
            photo: PhotoSource::default(),
            board: (4, 4),
        }
    }
}

/// A change of the session.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum SessionCommand {
    /// This photo from now on (the board on show is cut from it at once).
    UsePhoto(PhotoSource),
    /// This board for the next game: columns and rows.
    SetBoard(usize, usize),
}

/// The session and its commands. The commands of a frame take effect at the start of the next
/// (`PreUpdate`), before anything of that frame reads the session.
pub fn plugin(app: &mut App) {
    app.add_message::<SessionCommand>()
        .init_resource::<Session>()
        .add_systems(PreUpdate, follow_commands);
}

fn follow_commands(mut commands: MessageReader<SessionCommand>, mut session: ResMut<Session>) {
    for command in commands.read() {
        match command {
            SessionCommand::UsePhoto(photo) => {
                let photo = photo.clone().sanitized();
                if session.photo != photo {
                    session.photo = photo;
                }
            }
            &SessionCommand::SetBoard(width, height) => {
                if crate::game::playable(width, height) && session.board != (width, height) {
                    session.board = (width, height);
                }
            }
        }
    }
}
