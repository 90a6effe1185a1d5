//! The board on screen: where it goes in any window (`layout`), the photo cut into textures
//! (`tiles`), the tiles as sprites that slide, shake and fill in as the game's changes tell
//! (`view`), and the palette they and the controls share (`theme`). It only shows: every
//! change it draws is told by `play`.

pub mod layout;
pub mod theme;
pub mod tiles;
pub mod view;
