//! Any bytes as the game file (`read_state`) and as a saved game alone (`read_game`): an error
//! or a game, never a panic. A game read is consistent (its history replayed on its start
//! board gives its board, its counter is its history's length), and written back and read
//! again it is the same game, with nothing lost.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snapslide_game::files::{SavedState, read_state};
use snapslide_game::{Game, read_game};

/// The game's board is its start with the moves in effect replayed.
fn check(game: &Game) {
    let history = game.history_in_effect();
    assert_eq!(game.moves(), history.len());
    let mut board = game.start().clone();
    for mv in history {
        assert!(board.apply(mv), "a move in the history runs off the board");
    }
    assert_eq!(&board, game.board());
    assert_eq!(game.is_won(), board.is_goal());
}

fuzz_target!(|data: &[u8]| {
    if let Ok(read) = read_state(data) {
        let (game, photo) = &read.value;
        check(game);
        let bytes = match photo {
            Some(photo) => serde_json::to_vec(&SavedState {
                game: game.to_saved(),
                photo: photo.source.clone(),
                framing: photo.framing,
            }),
            None => serde_json::to_vec(&serde_json::json!({ "game": game.to_saved() })),
        }
        .expect("a game writes as JSON");
        let again = read_state(&bytes).expect("a written game reads back");
        assert_eq!(again.value, read.value);
        assert!(again.lost.is_empty(), "lost {:?}", again.lost);
    }
    if let Ok(read) = read_game(data) {
        check(&read.value);
        let bytes = serde_json::to_vec(&read.value.to_saved()).expect("a game writes as JSON");
        let again = read_game(&bytes).expect("a written game reads back");
        assert_eq!(again.value, read.value);
        assert!(again.lost.is_empty(), "lost {:?}", again.lost);
    }
});
