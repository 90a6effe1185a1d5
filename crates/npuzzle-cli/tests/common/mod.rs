//! What the `npuzzle` command's tests share: running it with standard input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs a command with `stdin` on its standard input, and returns its output.
pub fn run(command: &mut Command, stdin: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A command that fails on its arguments exits without reading: its closed pipe is fine.
    match child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
    child.wait_with_output().unwrap()
}
