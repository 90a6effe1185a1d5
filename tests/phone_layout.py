#!/usr/bin/env python3
"""The phone's portrait layout, as a player sees it: the game runs under Xvfb in a phone's
window (360×800 logical pixels at scale 3, so 1080×2400) with a status bar and a gesture bar
simulated, on a 3×4 board cut from the whole portrait phone photo in the test fixtures
(`--crop`, so no framing sheet), and saves a
screenshot; this script reads the PNG (standard library only) and checks what a player would:

- the window has the phone's size at the phone's scale factor;
- nothing is drawn under the status bar or the gesture bar;
- the board sits at the top, centred, spanning at least 85 % of the width (play-test 70), in
  the screen's top two thirds, and its tiles are square (a 3×4 board of a 3:4 photo is 3:4);
- the main action (the accent-coloured "New game") sits in the bottom half, in thumb reach,
  at least 48 logical pixels tall, clear of the gesture bar.

Usage: tests/phone_layout.py path/to/snapslide [screenshot.png]
"""

import os
import struct
import subprocess
import sys
import tempfile
import zlib
from collections import Counter

SCALE = 3
WINDOW = (360, 800)
TOP_INSET, BOTTOM_INSET = 36, 24
MIN_TOUCH = 48
PHOTO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                     "rocket-portrait-12mp-exif.jpg")
# The whole photo, upright (3024 × 4032): a 3×4 frame, so the sheet is skipped.
PHOTO_CROP = "0,0,3024,4032"
TIMEOUT_S = 180


def fail(message):
    print(f"phone layout: FAILED: {message}")
    sys.exit(1)


def run_game(binary, shot, scratch):
    """Starts the game in a phone-sized window under Xvfb, with its data, cache and runtime
    folders in `scratch`, and waits for its screenshot."""
    width, height = WINDOW[0] * SCALE, WINDOW[1] * SCALE
    env = dict(os.environ,
               WINIT_X11_SCALE_FACTOR=str(SCALE),
               SNAPSLIDE_SAFE_AREA=f"{TOP_INSET},0,{BOTTOM_INSET},0",
               SNAPSLIDE_DATA_DIR=os.path.join(scratch, "data"),
               XDG_CACHE_HOME=os.path.join(scratch, "cache"),
               XDG_RUNTIME_DIR=scratch)
    command = ["xvfb-run", "-a", "-s", f"-screen 0 {width}x{height}x24", binary,
               "--window", f"{WINDOW[0]}x{WINDOW[1]}", "--size", "3x4", "--seed", "7",
               "--photo", PHOTO, "--crop", PHOTO_CROP, "--screenshot", shot]
    print(f"phone layout: starting the game in a {width}×{height} window under Xvfb…")
    try:
        result = subprocess.run(command, env=env, capture_output=True, text=True,
                                timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        fail(f"no screenshot within {TIMEOUT_S} s")
    if result.returncode != 0 or not os.path.exists(shot):
        fail(f"the game exited with {result.returncode}:\n{result.stderr[-2000:]}")


def read_png(path):
    """The PNG's width, height and rows of RGB triples (8-bit RGB or RGBA, not interlaced)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if depth != 8 or colour not in (2, 6) or interlace:
        fail(f"unexpected PNG format (depth {depth}, colour type {colour})")
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    previous, rows = bytearray(stride), []
    for y in range(height):
        start = y * (stride + 1)
        line = unfilter(raw[start], bytearray(raw[start + 1:start + 1 + stride]), previous, bpp)
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        previous = line
    return width, height, rows


def unfilter(kind, line, previous, bpp):
    """Undoes one row's PNG filter."""
    if kind == 1:
        for i in range(bpp, len(line)):
            line[i] = (line[i] + line[i - bpp]) & 255
    elif kind == 2:
        line = bytearray((a + b) & 255 for a, b in zip(line, previous))
    elif kind == 3:
        for i in range(len(line)):
            left = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + ((left + previous[i]) >> 1)) & 255
    elif kind == 4:
        for i in range(len(line)):
            a = line[i - bpp] if i >= bpp else 0
            b, c = previous[i], previous[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return line


def is_accent(rgb):
    """The theme's orange accent (the primary button)."""
    r, g, b = rgb
    return r > 200 and 90 < g < 170 and b < 90


def check(width, height, rows):
    if (width, height) != (WINDOW[0] * SCALE, WINDOW[1] * SCALE):
        fail(f"the window is {width}×{height}, not {WINDOW[0] * SCALE}×{WINDOW[1] * SCALE}")
    background = rows[0][width // 2]
    top, bottom = TOP_INSET * SCALE, height - BOTTOM_INSET * SCALE
    for y in list(range(top)) + list(range(bottom, height)):
        drawn = [x for x, rgb in enumerate(rows[y]) if rgb != background]
        if drawn:
            fail(f"something is drawn under the {'status' if y < top else 'gesture'} bar "
                 f"(row {y}, columns {drawn[0]}–{drawn[-1]})")

    def busy(y):
        return sum(rgb != background for rgb in rows[y]) > width // 2

    board_top = next((y for y in range(top, height) if busy(y)), None)
    if board_top is None:
        fail("no board on screen")
    board_bottom = next(y for y in range(board_top, height) if not busy(y))
    middle = rows[(board_top + board_bottom) // 2]
    drawn = [x for x, rgb in enumerate(middle) if rgb != background]
    left, right = drawn[0], drawn[-1] + 1
    board_w, board_h = right - left, board_bottom - board_top
    print(f"phone layout: board {board_w}×{board_h} at ({left}, {board_top}); "
          f"insets {top} and {height - bottom} px")
    if board_top > top + MIN_TOUCH * SCALE:
        fail(f"the board starts at row {board_top}, far below the status bar (row {top})")
    if board_bottom > height * 2 / 3:
        fail(f"the board reaches row {board_bottom}: it should sit in the screen's top part")
    if abs(left - (width - right)) > SCALE * 2:
        fail(f"the board is not centred (margins {left} and {width - right})")
    if board_w < width * 0.85:
        fail(f"the board is {board_w} px wide, under 85 % of the {width} px screen")
    if abs(board_h / board_w - 4 / 3) > 0.02:
        fail(f"a 3×4 board of a portrait photo should be 3:4, is {board_w}×{board_h}")

    # Below the board (the photo may hold orange of its own).
    accent = [(x, y) for y in range(board_bottom, height) for x in range(0, width, SCALE)
              if is_accent(rows[y][x])]
    if not accent:
        fail("no primary button (the accent colour) below the board")
    ys = sorted({y for _, y in accent})
    print(f"phone layout: the primary button spans rows {ys[0]}–{ys[-1]}")
    if ys[0] < height / 2:
        fail(f"the primary button starts at row {ys[0]}, out of thumb reach (upper half)")
    column = Counter(x for x, _ in accent).most_common(1)[0][0]
    run = longest_run([is_accent(rows[y][column]) for y in range(height)])
    if run < (MIN_TOUCH - 2) * SCALE:
        fail(f"the primary button is {run} px tall, under {MIN_TOUCH} dp")


def longest_run(flags):
    """The longest run of true values."""
    best = current = 0
    for flag in flags:
        current = current + 1 if flag else 0
        best = max(best, current)
    return best


def main():
    if len(sys.argv) not in (2, 3):
        fail("usage: tests/phone_layout.py path/to/snapslide [screenshot.png]")
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="snapslide-phone-") as scratch:
        shot = os.path.abspath(sys.argv[2]) if len(sys.argv) == 3 else os.path.join(
            scratch, "phone.png")
        if os.path.exists(shot):
            os.remove(shot)
        run_game(binary, shot, scratch)
        print(f"phone layout: reading {shot}…")
        check(*read_png(shot))
    print("phone layout: passed")


if __name__ == "__main__":
    main()
