//! The one photo picker on screen at a time, and its delegate kept alive: plain Rust, so that
//! iOS's rules for it (`ios.rs`) are tested on any machine.
//!
//! - A second pick while a picker shows is refused: the picker's delegate is what dismisses
//!   it, so replacing the delegate would leave the first picker on screen for good.
//! - UIKit holds delegates weakly, so the slot holds the last one. It is not dropped when its
//!   picker finishes (that happens inside the delegate's own callback, which must not free the
//!   object it runs on) but when the next picker replaces it, outside any of its callbacks.
//! - A picker that left the screen without its callback does not block the next pick.

/// The delegate of the picker on screen, or of the last one.
#[derive(Debug)]
pub(crate) struct PickerSlot<D> {
    kept: Option<D>,
    showing: bool,
}

impl<D> Default for PickerSlot<D> {
    fn default() -> Self {
        Self {
            kept: None,
            showing: false,
        }
    }
}

impl<D> PickerSlot<D> {
    /// Whether a picker shows: its callback has not come, and `on_screen` says it is still
    /// presented.
    pub(crate) fn is_showing(&self, on_screen: impl Fn(&D) -> bool) -> bool {
        self.showing && self.kept.as_ref().is_some_and(on_screen)
    }

    /// Keeps the delegate of a picker about to show, dropping the last one; refused (the
    /// delegate handed back) while a picker shows.
    pub(crate) fn show(&mut self, delegate: D, on_screen: impl Fn(&D) -> bool) -> Result<(), D> {
        if self.is_showing(on_screen) {
            return Err(delegate);
        }
        self.kept = Some(delegate);
        self.showing = true;
        Ok(())
    }

    /// The picker's callback came: a new pick may start. The delegate stays alive until then.
    pub(crate) fn finish(&mut self) {
        self.showing = false;
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::rc::Rc;

    use super::*;

    /// Counts its drops.
    struct Delegate(Rc<Cell<u32>>);

    impl Drop for Delegate {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }

    fn on_screen(_: &Delegate) -> bool {
        true
    }

    #[test]
    fn a_second_pick_is_refused_while_a_picker_shows() {
        let dropped = Rc::new(Cell::new(0));
        let mut slot = PickerSlot::default();
        assert!(!slot.is_showing(on_screen));
        assert!(slot.show(Delegate(dropped.clone()), on_screen).is_ok());
        assert!(slot.is_showing(on_screen));
        let refused = slot.show(Delegate(dropped.clone()), on_screen);
        assert!(refused.is_err(), "a second picker was let in");
        drop(refused);
        assert_eq!(dropped.get(), 1, "only the refused delegate is dropped");
        assert!(
            slot.is_showing(on_screen),
            "the first picker keeps its delegate"
        );
    }

    #[test]
    fn a_finished_delegate_lives_until_the_next_pick_replaces_it() {
        let first = Rc::new(Cell::new(0));
        let second = Rc::new(Cell::new(0));
        let mut slot = PickerSlot::default();
        assert!(slot.show(Delegate(first.clone()), on_screen).is_ok());
        slot.finish();
        assert_eq!(first.get(), 0, "dropped inside its own callback");
        assert!(!slot.is_showing(on_screen));
        assert!(slot.show(Delegate(second.clone()), on_screen).is_ok());
        assert_eq!(first.get(), 1, "the last delegate outlives its replacement");
        assert_eq!(second.get(), 0);
    }

    #[test]
    fn a_picker_gone_without_its_callback_does_not_block_the_next() {
        let dropped = Rc::new(Cell::new(0));
        let mut slot = PickerSlot::default();
        assert!(slot.show(Delegate(dropped.clone()), on_screen).is_ok());
        let gone = |_: &Delegate| false;
        assert!(!slot.is_showing(gone));
        assert!(slot.show(Delegate(dropped.clone()), gone).is_ok());
        assert_eq!(dropped.get(), 1);
    }
}
