//! Any bytes as the best scores file: an error or scores, never a panic; scores read back
//! from what they write are the same, with nothing lost.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snapslide_game::BestScores;

fuzz_target!(|data: &[u8]| {
    let Ok(read) = BestScores::read(data) else {
        return;
    };
    let bytes = serde_json::to_vec(&read.value).expect("scores write as JSON");
    let again = BestScores::read(&bytes).expect("written scores read back");
    assert_eq!(again.value, read.value);
    assert!(again.lost.is_empty(), "lost {:?}", again.lost);
});
