//! The app's side of the daily's shared board (docs/server.md), without Bevy: the API's wire
//! types ([`wire`]), its calls with a timeout each ([`http`], blocking `ureq`), the queue of
//! results kept in a journal in the data folder ([`queue`]), the player's token
//! ([`player`]), the day's ranking kept for offline ([`kept`]), and the background
//! [`poster`] that posts every queued result until the server has it, exactly once.

#![warn(missing_docs, clippy::missing_errors_doc)]

pub mod http;
pub mod kept;
pub mod player;
pub mod poster;
pub mod queue;
pub mod wire;

pub use http::{CallError, Server};
pub use kept::KeptRanking;
pub use player::{NameError, Player, check_name};
pub use poster::{Ask, Backoff, Poster, PosterConfig, PosterError, Report, Standing, Wake};
pub use queue::{Entry, Outcome, Queue};
pub use wire::{Posted, Ranking, Row};
