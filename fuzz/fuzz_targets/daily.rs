//! Any bytes as the puzzles of the day's file: an error or results, never a panic; results
//! read back from what they write are the same, with nothing lost, and their streak counts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snapslide_game::DailyResults;

fuzz_target!(|data: &[u8]| {
    let Ok(read) = DailyResults::read(data) else {
        return;
    };
    let bytes = serde_json::to_vec(&read.value).expect("results write as JSON");
    let again = DailyResults::read(&bytes).expect("written results read back");
    assert_eq!(again.value, read.value);
    assert!(again.lost.is_empty(), "lost {:?}", again.lost);
    // Any day, the first or last of the file's, has a streak no longer than the file.
    for day in read
        .value
        .0
        .keys()
        .take(1)
        .chain(read.value.0.keys().last())
    {
        assert!(read.value.streak(*day) <= read.value.0.len());
    }
});
