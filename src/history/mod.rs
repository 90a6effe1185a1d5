//! What was played: the records and every solve (`records`, their one writer in the app),
//! watching a solve again (`replay`), comparing it with the shortest solution (`review`), and
//! a friend's challenge, checked by replay before anything of it is shown (`challenge`).

pub mod challenge;
pub mod records;
pub mod replay;
pub mod review;
