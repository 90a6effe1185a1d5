#!/usr/bin/env python3
"""Cold starts of the game under Xvfb, from the app's own log lines (standard library only).

Each launch gets a new data folder (SNAPSLIDE_DATA_DIR), cache (XDG_CACHE_HOME) and runtime
folder (XDG_RUNTIME_DIR), runs on Mesa's software renderer in one Xvfb screen (1280x800x24),
and ends once the game has logged both

    first frame N ms after start                 (the window's first frame on screen)
    first frame with the board N ms after start  (the board, its photo cut into tiles)

(then it is sent SIGTERM, which saves the game and quits). Three kinds of launch:

- new: the game as a player's first tap starts it, no flags, an empty data folder;
- resumed: a game left in a folder: launched once with `--seed`, two arrow keys pressed
  (xdotool), quit by SIGTERM (the game saves), then launched again on that folder and its
  cache with no flags, and that second launch measured. The first launch must have left a
  saved game.

It prints each launch's figures and then the medians, in ms.

Usage: tools/cold_start.py path/to/snapslide [--runs N] [--kinds new,resumed]
       tools/cold_start.py --self-test   (the log parsing, no game)
"""

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SCREEN = "1280x800x24"
# The whole launch, from exec to both lines (a debug build on a busy machine takes seconds).
TIMEOUT_S = 60
FIRST_FRAME = re.compile(r"first frame (\d+) ms after start")
BOARD = re.compile(r"first frame with the board (\d+) ms after start")
# Bevy's log lines carry colour codes when they think they go to a terminal.
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def read_figures(lines):
    """The two figures (ms) in the log lines, None where one is missing: (first, board)."""
    first = board = None
    for line in lines:
        line = ANSI.sub("", line)
        if board is None and (found := BOARD.search(line)):
            board = int(found.group(1))
        elif first is None and (found := FIRST_FRAME.search(line)):
            first = int(found.group(1))
    return first, board


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


class Launch:
    """The game started in its folders; its output read on a thread, line by line."""

    def __init__(self, binary, scratch, args):
        self.lines = []
        self.seen = threading.Event()
        env = dict(os.environ,
                   SNAPSLIDE_DATA_DIR=os.path.join(scratch, "data"),
                   XDG_CACHE_HOME=os.path.join(scratch, "cache"),
                   XDG_RUNTIME_DIR=os.path.join(scratch, "runtime"))
        env.pop("WAYLAND_DISPLAY", None)
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
        self.process = subprocess.Popen([binary, *args], env=env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, errors="replace")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)
            if None not in read_figures(self.lines):
                self.seen.set()

    def wait_for_board(self):
        """Both figures, once logged (or the time is up: None for the missing ones)."""
        self.seen.wait(TIMEOUT_S)
        return read_figures(self.lines)

    def quit(self):
        """SIGTERM (the game saves and quits), then a kill if it does not."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def tail(self):
        return "".join(self.lines[-15:])


def measure(binary, scratch, args=()):
    launch = Launch(binary, scratch, list(args))
    try:
        first, board = launch.wait_for_board()
        if board is None or first is None:
            print(f"  no figures within {TIMEOUT_S} s; the game said:\n{launch.tail()}")
        return first, board, launch
    finally:
        launch.quit()


def press_keys(keys):
    """Focuses the game's window and presses the keys (XTEST: real key presses)."""
    window = subprocess.run(["xdotool", "search", "--sync", "--name", "^Snapslide$"],
                            capture_output=True, text=True, timeout=20).stdout.split()
    if not window:
        return False
    subprocess.run(["xdotool", "windowfocus", "--sync", window[0]], timeout=20, check=False)
    for key in keys:
        subprocess.run(["xdotool", "key", key], timeout=20, check=False)
        time.sleep(0.3)
    return True


def resumed(binary, scratch, seed):
    """Leaves a game in the folder (a few moves, quit), then measures the next launch."""
    launch = Launch(binary, scratch, ["--seed", str(seed)])
    try:
        _, board = launch.wait_for_board()
        pressed = board is not None and press_keys(["Left", "Up", "Right", "Down"])
    finally:
        launch.quit()
    # The game in progress is kept in game.journal (crates/game's save_log), or game.json.
    saved = [os.path.join(scratch, "data", name) for name in ("game.journal", "game.json")]
    if not pressed or not any(os.path.exists(path) for path in saved):
        print(f"  the first launch left no game ({saved}); the game said:\n{launch.tail()}")
        return None, None
    first, board, _ = measure(binary, scratch)
    return first, board


def run(binary, runs, kinds):
    figures = {kind: [] for kind in kinds}
    for i in range(runs):
        for kind in kinds:
            scratch = tempfile.mkdtemp(prefix="snapslide-cold-")
            try:
                if kind == "new":
                    first, board, _ = measure(binary, scratch)
                else:
                    first, board = resumed(binary, scratch, 1000 + i)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            figures[kind].append((first, board))
            print(f"{kind} {i + 1}/{runs}: first frame {first} ms, board {board} ms", flush=True)
    print(f"\nmedians of {runs} ({os.path.basename(binary)}):")
    missing = False
    for kind, pairs in figures.items():
        first, board = median(p[0] for p in pairs), median(p[1] for p in pairs)
        missing |= any(None in p for p in pairs)
        print(f"  {kind:8} first frame {first} ms, board {board} ms")
    return 1 if missing else 0


def self_test():
    lines = ["\x1b[2m2026-12-07T17:00:00Z\x1b[0m \x1b[32m INFO\x1b[0m snapslide::app::diagnostics: "
             "first frame with the board 812 ms after start\n",
             "INFO snapslide::app::diagnostics: first frame 240 ms after start\n"]
    assert read_figures(lines) == (240, 812), read_figures(lines)
    assert read_figures(lines[:1]) == (None, 812)
    assert read_figures(lines[1:]) == (240, None)
    assert read_figures(["nothing here\n"]) == (None, None)
    assert median([3, None, 1, 2]) == 2 and median([None]) is None
    print("cold_start self-test: ok")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", nargs="?")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--kinds", default="new,resumed")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.binary:
        parser.error("the game's binary is needed")
    kinds = args.kinds.split(",")
    if any(kind not in ("new", "resumed") for kind in kinds):
        parser.error("--kinds takes new and resumed")
    binary = os.path.abspath(args.binary)
    if os.environ.get("SNAPSLIDE_COLD_START_XVFB") != "1":
        # One Xvfb for every launch: the X server's start is not the game's.
        command = ["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}",
                   sys.executable, os.path.abspath(__file__), binary,
                   "--runs", str(args.runs), "--kinds", args.kinds]
        env = dict(os.environ, SNAPSLIDE_COLD_START_XVFB="1")
        return subprocess.run(command, env=env, check=False).returncode
    return run(binary, args.runs, kinds)


if __name__ == "__main__":
    sys.exit(main())
