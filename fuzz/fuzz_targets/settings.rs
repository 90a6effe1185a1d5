//! Any bytes as the settings file: an error or preferences, never a panic; preferences read
//! back from what they write are the same, with nothing lost.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snapslide_game::{Preferences, SPEEDS};

fuzz_target!(|data: &[u8]| {
    let Ok(read) = Preferences::read(data) else {
        return;
    };
    assert!(SPEEDS.contains(&read.value.speed), "{}", read.value.speed);
    let bytes = serde_json::to_vec(&read.value).expect("preferences write as JSON");
    let again = Preferences::read(&bytes).expect("written preferences read back");
    assert_eq!(again.value, read.value);
    assert!(again.lost.is_empty(), "lost {:?}", again.lost);
});
