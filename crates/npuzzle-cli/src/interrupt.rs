//! Ctrl-C: the first stops the searches that hold the flag it sets, so that what they found is
//! still reported; a second ends the process at once.

use npuzzle::CancelFlag;

/// A flag that the first Ctrl-C sets; a second Ctrl-C ends the process at once (exit 130).
pub fn cancel_on_interrupt() -> CancelFlag {
    let flag = CancelFlag::new();
    let set = flag.clone();
    // Where no handler can be set, Ctrl-C ends the process, as it would without one.
    let _ = ctrlc::set_handler(move || {
        if set.is_cancelled() {
            std::process::exit(130);
        }
        set.cancel();
    });
    flag
}
