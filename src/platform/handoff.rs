//! A challenge handed to the copy of the game already open on the data folder: a desktop's
//! link click starts `snapslide --open CODE`, which finds the folder held and, instead of
//! stopping, gives the code to the running copy through a local socket in the data folder
//! (`open.sock`, Unix only). The running copy opens it as a phone opens a tapped link
//! ([`PlatformEvent::OpenLink`]). Nothing leaves the device.

use std::io::{Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::log::{info, warn};

use super::{Inbox, PlatformEvent};

/// The socket's name in the data folder.
const SOCKET: &str = "open.sock";
/// The most a code (or a message holding its link) can be: more is not one.
const MOST_BYTES: u64 = 4096;
/// How long either side waits for the other.
const PATIENCE: Duration = Duration::from_secs(2);

/// The socket's path for a data folder.
fn socket_in(dir: &Path) -> PathBuf {
    dir.join(SOCKET)
}

/// Gives `text` (a challenge's code or link) to the copy open on `dir`.
///
/// # Errors
///
/// The operating system's, when no copy listens there (an older version, a folder held by
/// something else) or it does not answer in time.
pub fn send(dir: &Path, text: &str) -> std::io::Result<()> {
    let mut stream = UnixStream::connect(socket_in(dir))?;
    stream.set_write_timeout(Some(PATIENCE))?;
    stream.write_all(text.as_bytes())?;
    stream.shutdown(std::net::Shutdown::Write)?;
    // The running copy answers once it has the code.
    stream.set_read_timeout(Some(PATIENCE))?;
    let mut answer = [0u8; 2];
    stream.read_exact(&mut answer)?;
    Ok(())
}

/// Listens on `dir`'s socket (the folder is held by this copy, so a socket left there by a
/// copy that was killed is stale) and queues each code handed over in `inbox`, on a thread of
/// its own. A socket that cannot be made only means codes cannot be handed over: said in the
/// log.
pub fn listen(dir: &Path, inbox: Inbox) {
    let path = socket_in(dir);
    let _ = std::fs::remove_file(&path);
    let listener = match UnixListener::bind(&path) {
        Ok(listener) => listener,
        Err(error) => {
            warn!(
                "{}: codes cannot be handed to this copy: {error}",
                path.display()
            );
            return;
        }
    };
    let spawned = std::thread::Builder::new()
        .name("snapslide-handoff".into())
        .spawn(move || {
            for stream in listener.incoming().flatten() {
                if let Some(text) = received(stream) {
                    info!("a challenge was handed over by another launch");
                    inbox.push(PlatformEvent::OpenLink(text));
                }
            }
        });
    if let Err(error) = spawned {
        warn!("codes cannot be handed to this copy: {error}");
    }
}

/// The text one launch handed over (at most [`MOST_BYTES`], in time, as UTF-8), answered.
fn received(mut stream: UnixStream) -> Option<String> {
    stream.set_read_timeout(Some(PATIENCE)).ok()?;
    let mut bytes = Vec::new();
    (&mut stream)
        .take(MOST_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    stream.write_all(b"ok").ok()?;
    Some(text.to_string())
}
