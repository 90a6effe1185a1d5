#!/usr/bin/env python3
"""A player's first minute under Xvfb, as a player meets it (standard library only):

- launches: the game, started again and again with the mouse untouched, puts the board on
  screen and keeps it there. No `--screenshot` here (it holds frames coming until it has its
  picture, which would hide a frame that never comes): the screen is dumped with `xwd` from
  outside every half second, and the board's area must stop being one flat colour within
  10 s (on an idle two-core machine it takes under 2 s; a board never presented stays flat
  until the mouse moves). Each launch's time is printed;
- the panel fits: in windows of phones upright (360×640, 360×800) and on their side
  (800×360, 640×360), a tablet on its side (1024×768), the desktop's default (1100×720),
  1280×800 and a 4K screen (3840×2160), and with text at 200 % on a phone upright (360×640)
  and on its side (800×360), the game logs no control running past the panel or its status
  area (the game warns when one does).

Usage: tests/first_minute.py path/to/snapslide [launches]
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile

SCREEN = (1280, 800)
# The default window (1100×720) puts the board on the left: this square lies inside it.
BOARD_AREA = (100, 100, 600, 600)
SHOW_WITHIN_S = 10
POLL_S = 0.5
# Windows, and the text size the player chose in Options (per cent).
WINDOWS = [("360x640", 100), ("360x800", 100), ("800x360", 100), ("640x360", 100),
           ("1024x768", 100), ("1100x720", 100), ("1280x800", 100), ("3840x2160", 100),
           ("360x640", 200), ("800x360", 200)]
# A phone's insets (SNAPSLIDE_SAFE_AREA: top,right,bottom,left, logical pixels): bars top and
# bottom when upright, and on its side a notch left or right with the gesture bar below, or
# the bars a rotated screen keeps top and bottom (the play-test's 44,0,34,0).
UPRIGHT_INSETS = ["44,0,34,0"]
SIDEWAYS_INSETS = ["44,0,34,0", "0,44,21,0", "0,0,21,44"]
TIMEOUT_S = 180


def fail(message):
    print(f"first minute: FAILED: {message}")
    sys.exit(1)


def environment(scratch, name):
    """A fresh data folder for each run, one cache for all (the tables are built once)."""
    return dict(os.environ,
                SNAPSLIDE_DATA_DIR=os.path.join(scratch, name),
                XDG_CACHE_HOME=os.path.join(scratch, "cache"),
                XDG_RUNTIME_DIR=scratch)


def launch(binary, scratch, seed):
    """Starts the game and dumps the screen with xwd every half second until the board shows
    (or the time is up); returns the seconds it took, or None."""
    dumps = os.path.join(scratch, f"launch-{seed}")
    os.makedirs(dumps)
    polls = int(SHOW_WITHIN_S / POLL_S)
    inner = (f'date +%s.%N > "{dumps}/started"; "$0" --size 4 --seed {seed} & game=$!; i=0; '
             f'while [ $i -lt {polls} ]; do sleep {POLL_S}; i=$((i+1)); '
             f'xwd -root -silent > "{dumps}/$i.xwd"; '
             f'if python3 "$1" --shown "{dumps}/$i.xwd"; then '
             f'date +%s.%N > "{dumps}/shown"; break; fi; done; '
             f'kill $game; wait $game')
    command = ["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN[0]}x{SCREEN[1]}x24",
               "sh", "-c", inner, binary, os.path.abspath(__file__)]
    try:
        subprocess.run(command, env=environment(scratch, f"data-{seed}"), timeout=TIMEOUT_S,
                       capture_output=True, check=False)
    except subprocess.TimeoutExpired:
        fail(f"launch {seed} did not end within {TIMEOUT_S} s")
    if not os.path.exists(os.path.join(dumps, "shown")):
        return None

    def stamp(name):
        with open(os.path.join(dumps, name)) as file:
            return float(file.read())

    return stamp("shown") - stamp("started")


def board_shown(path):
    """Whether the screen dump at `path` shows a board (more than a few flat colours)."""
    with open(path, "rb") as file:
        return len(pixels(file.read(), BOARD_AREA)) >= 16


def pixels(xwd, area):
    """The distinct colours in `area` (left, top, right, bottom) of a 24/32-bit ZPixmap XWD."""
    fields = struct.unpack(">25I", xwd[:100])
    header_size, pixmap_format, width = fields[0], fields[2], fields[4]
    bits_per_pixel, bytes_per_line, ncolors = fields[11], fields[12], fields[19]
    if pixmap_format != 2 or bits_per_pixel != 32:
        fail(f"unexpected xwd format {pixmap_format}, {bits_per_pixel} bits a pixel")
    start = header_size + 12 * ncolors
    left, top, right, bottom = area
    colours = set()
    for y in range(top, bottom, 7):
        row = start + y * bytes_per_line
        for x in range(left, min(right, width), 7):
            colours.add(xwd[row + 4 * x:row + 4 * x + 3])
    return colours


def check_launches(binary, scratch, count):
    for seed in range(1, count + 1):
        seconds = launch(binary, scratch, seed)
        if seconds is None:
            fail(f"launch {seed} of {count}: no board on screen {SHOW_WITHIN_S} s after start")
        print(f"first minute: launch {seed}: the board is on screen {seconds:.1f} s after start")


def layouts():
    """Each window and text size, bare and with the insets of a phone held that way (a
    layout that fits only without them is the play-test's unreachable Restart)."""
    for window, text_size in WINDOWS:
        width, height = (int(side) for side in window.split("x"))
        yield window, text_size, None
        if max(width, height) <= 1024:
            insets = UPRIGHT_INSETS if height > width else SIDEWAYS_INSETS
            for inset in insets:
                yield window, text_size, inset


# The framing sheet (a photo given without --crop opens it), on phones with their insets.
# A phone's portrait photo: the most boards suit it (ten, in three rows of chips).
PHOTO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                     "rocket-portrait-12mp-exif.jpg")
FRAMING = [("800x360", "44,0,34,0"), ("640x360", "0,44,21,0"), ("360x640", "44,0,34,0")]


def check_panel_fits(binary, scratch):
    for window, text_size, inset in layouts():
        run_layout(binary, scratch, window, text_size, inset, [])
    for window, inset in FRAMING:
        run_layout(binary, scratch, window, 100, inset, ["--photo", PHOTO])


def run_layout(binary, scratch, window, text_size, inset, extra):
    """Takes one screenshot of the game in this window and fails on a control out of its
    place (the game warns of one)."""
    name = f"{window} window at {text_size} % text"
    if inset:
        name += f" with insets {inset}"
    if extra:
        name += " (the framing sheet)"
    tag = f"{window}-{text_size}-{(inset or 'bare').replace(',', '_')}-{len(extra)}"
    shot = os.path.join(scratch, f"panel-{tag}.png")
    width, height = (int(side) for side in window.split("x"))
    screen = f"{max(width, SCREEN[0])}x{max(height, SCREEN[1])}"
    data = f"data-{tag}"
    os.makedirs(os.path.join(scratch, data))
    with open(os.path.join(scratch, data, "settings.json"), "w") as settings:
        settings.write(f'{{"text_size": {text_size}}}')
    command = ["xvfb-run", "-a", "-s", f"-screen 0 {screen}x24", binary,
               "--size", "4", "--seed", "3", "--window", window, "--screenshot", shot] + extra
    env = environment(scratch, data)
    if inset:
        env["SNAPSLIDE_SAFE_AREA"] = inset
    try:
        result = subprocess.run(command, env=env,
                                capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        fail(f"the {name} gave no screenshot within {TIMEOUT_S} s")
    if result.returncode != 0:
        fail(f"the game exited with {result.returncode}:\n{result.stderr[-2000:]}")
    overflow = [line for line in result.stderr.splitlines() if "run past" in line]
    if overflow:
        fail(f"in a {name}: {overflow[0]}")
    print(f"first minute: the panel fits a {name}")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--shown":
        sys.exit(0 if board_shown(sys.argv[2]) else 1)
    if len(sys.argv) not in (2, 3):
        fail(__doc__.strip().splitlines()[-1])
    binary = os.path.abspath(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) == 3 else 5
    for tool in ["xvfb-run", "xwd"]:
        if shutil.which(tool) is None:
            fail(f"{tool} is missing (make screenshot-deps installs it)")
    with tempfile.TemporaryDirectory(prefix="snapslide-first-minute-") as scratch:
        check_launches(binary, scratch, count)
        check_panel_fits(binary, scratch)
    print("first minute: passed")


if __name__ == "__main__":
    main()
