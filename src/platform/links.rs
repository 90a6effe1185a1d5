//! Challenge links that open the app on a phone (`snapslide://c/CODE`): what the system hands
//! over becomes a [`PlatformEvent::OpenLink`], and iOS's launch link is taken once. Plain
//! Rust, so that it is tested on any machine.
//!
//! The link's code is not read here: the challenge module checks it, and refuses a bad one in
//! the player's words, as it does a pasted code.

use super::PlatformEvent;

/// The link's scheme, as the Android manifest's intent filter and iOS's `CFBundleURLTypes`
/// declare it.
pub(super) const SCHEME: &str = "snapslide";

/// The longest link handed on: a challenge's longest code and then some. A longer one is not a
/// challenge's, and is dropped before the app copies it around.
const MAX_LINK_BYTES: usize = challenge::MAX_INPUT_CHARS + 64;

/// What the app is told of a URL the system opened it with (an Android intent's data string,
/// an iOS `NSURL`'s text): [`PlatformEvent::OpenLink`] for a `snapslide:` link (any case, as
/// both systems match schemes), `None` for anything else.
pub(super) fn link_event(url: &str) -> Option<PlatformEvent> {
    let url = url.trim();
    if url.len() > MAX_LINK_BYTES {
        return None;
    }
    let (scheme, _) = url.split_once(':')?;
    scheme
        .eq_ignore_ascii_case(SCHEME)
        .then(|| PlatformEvent::OpenLink(url.to_string()))
}

/// iOS hands the link that launched the app over twice, perhaps: in the launch options, and
/// through the delegate's `application:openURL:options:` (when the delegate was set before
/// UIKit calls it). This gate lets the launch's link through once: a delegate call with the
/// same link before the app first becomes active is the same launch, and is dropped. Any other
/// link, and the same one later (tapped again), goes through.
#[cfg(any(target_os = "ios", test))]
#[derive(Debug)]
pub(crate) struct LaunchLinks {
    /// The launch's link, as handed on, until the app first becomes active.
    launch: Option<String>,
    /// The app has not become active yet.
    launching: bool,
}

#[cfg(any(target_os = "ios", test))]
impl Default for LaunchLinks {
    fn default() -> Self {
        Self {
            launch: None,
            launching: true,
        }
    }
}

#[cfg(any(target_os = "ios", test))]
impl LaunchLinks {
    /// The app finished launching, with this URL in its launch options (if any): the event to
    /// hand on.
    pub(crate) fn launched(&mut self, url: Option<&str>) -> Option<PlatformEvent> {
        let event = link_event(url?)?;
        if let PlatformEvent::OpenLink(link) = &event {
            self.launch = Some(link.clone());
        }
        Some(event)
    }

    /// The system opened this URL in the app: the event to hand on, unless it is the launch's
    /// link again.
    pub(crate) fn opened(&mut self, url: &str) -> Option<PlatformEvent> {
        let event = link_event(url)?;
        let again = matches!(&event, PlatformEvent::OpenLink(link)
            if self.launching && self.launch.as_ref() == Some(link));
        if again {
            self.launch = None;
            return None;
        }
        Some(event)
    }

    /// The app became active: the launch is over.
    pub(crate) fn became_active(&mut self) {
        self.launching = false;
        self.launch = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(text: &str) -> Option<PlatformEvent> {
        Some(PlatformEvent::OpenLink(text.into()))
    }

    #[test]
    fn a_snapslide_link_becomes_an_event_as_given() {
        let code = "snapslide://c/7ZX3KQ2M";
        assert_eq!(link_event(code), link(code));
        assert_eq!(link_event(&format!(" {code}\n")), link(code));
        // iOS matches schemes in any case; the challenge module reads the code in any case.
        assert_eq!(
            link_event("SnapSlide://C/7zx3kq2m"),
            link("SnapSlide://C/7zx3kq2m")
        );
        // A link without its code still reaches the challenge module, which says so.
        assert_eq!(link_event("snapslide://c/"), link("snapslide://c/"));
    }

    #[test]
    fn anything_else_is_no_link() {
        for text in [
            "",
            "   ",
            "7ZX3KQ2M",
            "https://example.org/c/7ZX3KQ2M",
            "snapslides://c/7ZX3KQ2M",
            "snap://snapslide://c/",
            "content://org.snapslide.photos/camera/capture.jpg",
        ] {
            assert_eq!(link_event(text), None, "{text:?}");
        }
        let huge = format!("snapslide://c/{}", "A".repeat(1 << 20));
        assert_eq!(link_event(&huge), None, "a megabyte is no challenge");
        let longest = format!("snapslide://c/{}", "A".repeat(challenge::MAX_INPUT_CHARS));
        assert!(link_event(&longest).is_some(), "the longest code passes");
    }

    #[test]
    fn the_launch_link_is_taken_once() {
        let code = "snapslide://c/7ZX3KQ2M";
        let mut gate = LaunchLinks::default();
        assert_eq!(gate.launched(Some(code)), link(code));
        assert_eq!(
            gate.opened(code),
            None,
            "the delegate's call for the same launch"
        );
        gate.became_active();
        assert_eq!(gate.opened(code), link(code), "tapped again later");
    }

    #[test]
    fn the_launch_link_comes_once_whichever_way_it_comes() {
        let code = "snapslide://c/7ZX3KQ2M";
        // Launched with no link: the delegate's first link is taken.
        let mut gate = LaunchLinks::default();
        assert_eq!(gate.launched(None), None);
        assert_eq!(gate.opened(code), link(code));
        // Another link during the launch is a link of its own.
        let mut gate = LaunchLinks::default();
        assert_eq!(gate.launched(Some(code)), link(code));
        assert_eq!(
            gate.opened("snapslide://c/OTHER"),
            link("snapslide://c/OTHER")
        );
        // Only one repeat is dropped.
        assert_eq!(gate.opened(code), None);
        assert_eq!(gate.opened(code), link(code));
        // A launch URL that is not a link passes nothing, and stops nothing.
        let mut gate = LaunchLinks::default();
        assert_eq!(gate.launched(Some("https://example.org")), None);
        assert_eq!(gate.opened(code), link(code));
    }
}
