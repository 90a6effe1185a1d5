//! A word to the player before any window opens (a second copy of the game, started from a
//! launcher, has no terminal to say it on): a desktop notification through the freedesktop
//! Notifications service on the session bus, which GNOME, KDE, Xfce and most Linux desktops
//! run. Elsewhere, or with no such service, nothing is shown and the caller's standard error
//! is all there is.

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::Duration;

/// How long the notification service is waited for: a bus with no service to start would
/// otherwise hold the call for D-Bus's 25 seconds.
const WAIT: Duration = Duration::from_secs(3);

/// Shows `summary` with `body` as a desktop notification; whether the desktop took it.
pub fn notify(summary: &str, body: &str) -> bool {
    let (summary, body) = (summary.to_string(), body.to_string());
    let (sent, answer) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("snapslide-notice".into())
        .spawn(move || {
            let _ = sent.send(bevy::tasks::block_on(send(&summary, &body)));
        });
    if spawned.is_err() {
        return false;
    }
    match answer.recv_timeout(WAIT) {
        Ok(Ok(())) => true,
        Ok(Err(error)) => {
            eprintln!("snapslide: no desktop notification ({error})");
            false
        }
        Err(_) => false,
    }
}

/// The Notify call (org.freedesktop.Notifications, version 1.2 of the specification).
async fn send(summary: &str, body: &str) -> zbus::Result<()> {
    let bus = zbus::Connection::session().await?;
    let hints: HashMap<&str, zbus::zvariant::Value> = HashMap::new();
    let actions: Vec<&str> = Vec::new();
    // The app's name, no notification replaced, no icon, the words, the server's own timeout.
    let call = ("Snapslide", 0u32, "", summary, body, actions, hints, -1i32);
    bus.call_method(
        Some("org.freedesktop.Notifications"),
        "/org/freedesktop/Notifications",
        Some("org.freedesktop.Notifications"),
        "Notify",
        &call,
    )
    .await?;
    Ok(())
}
