#!/usr/bin/env python3
"""Draws Snapslide's app icon, a 3x3 grid of tiles with one gap, in the accent on ink, and
writes it where the phone projects want it:

- android/app/src/main/res/drawable/ic_launcher_foreground.xml (the adaptive icon's layer);
- ios/Snapslide/Assets.xcassets/AppIcon.appiconset/AppIcon-1024.png (opaque, as the App Store
  asks), rendered here with no library but zlib.

Run it from anywhere after changing the drawing: `python3 android/icon/make_icons.py`.
`python3 android/icon/make_icons.py --check` only says whether the files are up to date
(the Android layer exactly; the PNG by size and colour type), for android/check.sh.
"""

import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ANDROID_LAYER = ROOT / "android/app/src/main/res/drawable/ic_launcher_foreground.xml"
IOS_ICON = ROOT / "ios/Snapslide/Assets.xcassets/AppIcon.appiconset/AppIcon-1024.png"

INK = (0x12, 0x14, 0x19)
ACCENT = (0xFF, 0x8A, 0x3D)
# The grid in a unit square: three tiles and two gaps across, the bottom-right tile missing.
TILE, GAP, RADIUS = 12 / 44, 4 / 44, 2 / 44
GAP_CELL = (2, 2)


def tiles():
    """The tiles' (x, y, size) in the unit square, row by row."""
    for row in range(3):
        for col in range(3):
            if (col, row) != GAP_CELL:
                yield col * (TILE + GAP), row * (TILE + GAP), TILE


def android_layer():
    """The adaptive icon's foreground: 108 dp, the grid 44 dp wide in the 66 dp safe zone."""
    origin, scale = 32.0, 44.0
    paths = []
    for x, y, size in tiles():
        x, y, s, r = origin + x * scale, origin + y * scale, size * scale, RADIUS * scale
        side = s - 2 * r
        paths.append(
            f"M{x + r:g},{y:g}h{side:g}a{r:g},{r:g} 0,0 1,{r:g},{r:g}v{side:g}"
            f"a{r:g},{r:g} 0,0 1,{-r:g},{r:g}h{-side:g}a{r:g},{r:g} 0,0 1,{-r:g},{-r:g}"
            f"v{-side:g}a{r:g},{r:g} 0,0 1,{r:g},{-r:g}z"
        )
    accent = "#FF{:02X}{:02X}{:02X}".format(*ACCENT)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        "<!-- Made by android/icon/make_icons.py: edit the drawing there. -->\n"
        '<vector xmlns:android="http://schemas.android.com/apk/res/android"\n'
        '    android:width="108dp"\n'
        '    android:height="108dp"\n'
        '    android:viewportWidth="108"\n'
        '    android:viewportHeight="108">\n'
        "    <path\n"
        f'        android:fillColor="{accent}"\n'
        f'        android:pathData="{"".join(paths)}" />\n'
        "</vector>\n"
    )


def coverage(px, py, x, y, size, radius):
    """How much of the pixel centred at (px, py) a rounded square covers, 0 to 1."""
    cx = min(max(px, x + radius), x + size - radius)
    cy = min(max(py, y + radius), y + size - radius)
    distance = ((px - cx) ** 2 + (py - cy) ** 2) ** 0.5 - radius
    return min(max(0.5 - distance, 0.0), 1.0)


def ios_png(side=1024):
    """The iOS icon: opaque RGB, the grid 60 % of the side, centred."""
    grid = 0.6 * side
    origin = (side - grid) / 2
    boxes = [(origin + x * grid, origin + y * grid, s * grid) for x, y, s in tiles()]
    radius = RADIUS * grid
    rows = []
    for py in range(side):
        row = bytearray([0])  # filter: none
        near = [b for b in boxes if b[1] - 1 <= py + 0.5 <= b[1] + b[2] + 1]
        for px in range(side):
            a = 0.0
            for x, y, s in near:
                if x - 1 <= px + 0.5 <= x + s + 1:
                    a = max(a, coverage(px + 0.5, py + 0.5, x, y, s, radius))
            row += bytes(round(i + (c - i) * a) for i, c in zip(INK, ACCENT))
        rows.append(bytes(row))
    return png(side, side, b"".join(rows))


def png(width, height, raw):
    """An 8-bit RGB PNG from filtered scanlines."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def png_header(path):
    """(width, height, bit depth, colour type) of a PNG file, or None."""
    data = path.read_bytes()[:33] if path.exists() else b""
    if len(data) < 33 or not data.startswith(b"\x89PNG\r\n\x1a\n") or data[12:16] != b"IHDR":
        return None
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    return width, height, depth, colour


def check():
    """Problems with the files on disk, as sentences."""
    problems = []
    if not ANDROID_LAYER.exists() or ANDROID_LAYER.read_text() != android_layer():
        problems.append(f"{ANDROID_LAYER.relative_to(ROOT)} is not what make_icons.py draws")
    if png_header(IOS_ICON) != (1024, 1024, 8, 2):
        problems.append(f"{IOS_ICON.relative_to(ROOT)} is not a 1024x1024 opaque RGB PNG")
    return problems


def main():
    if sys.argv[1:] == ["--check"]:
        problems = check()
        for problem in problems:
            print(f"icon: {problem}", file=sys.stderr)
        return 1 if problems else 0
    ANDROID_LAYER.parent.mkdir(parents=True, exist_ok=True)
    ANDROID_LAYER.write_text(android_layer())
    IOS_ICON.parent.mkdir(parents=True, exist_ok=True)
    IOS_ICON.write_bytes(ios_png())
    print(f"wrote {ANDROID_LAYER.relative_to(ROOT)} and {IOS_ICON.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
