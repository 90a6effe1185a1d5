//! What the player hears: the effects and their one player (`audio`), and the board you can
//! hear, a tone for the distance to solved after each move (`tone`, which only chooses and
//! tells `audio` what to play).

pub(crate) mod audio;
pub mod tone;
