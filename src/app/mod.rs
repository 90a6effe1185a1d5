//! The app's machinery around the game: drawing only when something changes (`redraw`), going
//! to the background and back (`lifecycle`), the threads that work off the frame
//! (`background`), the engine's tables and threads (`engine_setup`), and the developers'
//! figures (`diagnostics`). It tells the rest nothing of the game; it keeps the frame running.

pub mod background;
pub mod diagnostics;
pub mod engine_setup;
pub mod lifecycle;
pub mod redraw;
