#!/usr/bin/env python3
"""The daily's board as a browser shows it (standard library only): a real `snapslide-server`
on 127.0.0.1 with a throwaway SQLite folder, three players registered and posting real solves
of today's daily through the API (each solve made by `npuzzle solve`, its code by `npuzzle code
encode`, at a human pace), then the day's page in Debian's headless Chromium:

- its DOM, as the browser built it, holds the ranking as a table: a row a player, in the
  order of their times, each name (one with a letter beyond ASCII) as typed and a link to
  the solve's replay GIF;
- its screenshot at a phone's 360×640 and a desktop's 1280×800 is a picture of that size
  with more than a few colours (the photo and the board are drawn, not a blank page);
- a replay GIF the page links to is served, a GIF.

Everything is bounded: the server and each browser run under a time limit, and everything
is stopped at the end. Run by `make server-page` (in `make test`), which installs Chromium.

Usage: tests/server_page.py path/to/snapslide-server path/to/npuzzle [folder for the screenshots]
"""

import datetime
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib

TIMEOUT_S = 60
PLAYERS = [("Ada", 260), ("Bo Li", 180), ("Zoë", 320)]


def fail(message):
    print(f"server page: FAILED: {message}")
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def wait_for_server(base, server):
    deadline = time.time() + TIMEOUT_S
    while time.time() < deadline:
        if server.poll() is not None:
            fail(f"the server stopped at start (exit {server.returncode})")
        try:
            with urllib.request.urlopen(base + "/health", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    fail(f"the server did not answer within {TIMEOUT_S} s")


def solve_code(npuzzle, daily, pace_ms):
    board = "/".join(" ".join(str(t) for t in daily["tiles"][r * daily["width"]:(r + 1) * daily["width"]])
                     for r in range(daily["height"]))
    out = subprocess.run([npuzzle, "solve", "--algorithm", "fast", board], capture_output=True,
                         text=True, timeout=TIMEOUT_S).stdout
    moves = re.search(r"Solution:\s*(\S+)", out).group(1)
    times = ",".join(str(i * pace_ms) for i in range(len(moves)))
    code = subprocess.run([npuzzle, "code", "encode", "-", "--moves", moves, "--times-ms", times],
                          input=board, capture_output=True, text=True, timeout=TIMEOUT_S)
    if code.returncode != 0:
        fail(f"npuzzle code encode: {code.stderr.strip()}")
    return code.stdout.strip().split()[-1]


def post_results(base, npuzzle, date):
    status, body = call(base, "GET", f"/api/daily/{date}")
    if status != 200:
        fail(f"GET /api/daily/{date}: {status} {body[:200]!r}")
    daily = json.loads(body)
    for name, pace in PLAYERS:
        status, body = call(base, "POST", "/api/players", {"name": name})
        if status != 201:
            fail(f"registering {name!r}: {status} {body[:200]!r}")
        token = json.loads(body)["token"]
        code = solve_code(npuzzle, daily, pace)
        status, body = call(base, "POST", f"/api/daily/{date}/results", {"code": code}, token)
        if status != 201:
            fail(f"posting {name!r}'s solve: {status} {body[:200]!r}")
        print(f"server page: {name} posted: {json.loads(body)}")


def chromium(args, scratch):
    """Runs headless Chromium once, with a profile of its own; its standard output."""
    profile = tempfile.mkdtemp(dir=scratch)
    command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={profile}", *args]
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S)
    if result.returncode != 0:
        fail(f"chromium {args}: exit {result.returncode}: {result.stderr[-400:]}")
    return result.stdout


def png_size_and_colours(path):
    """A PNG's width and height, and how many colours its first rows hold (8-bit RGB/RGBA)."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG")
    width, height, depth, kind = struct.unpack(">IIBB", data[16:26])
    chunks, at = b"", 8
    while at < len(data):
        length, name = struct.unpack(">I4s", data[at:at + 8])
        if name == b"IDAT":
            chunks += data[at + 8:at + 8 + length]
        at += 12 + length
    pixels = zlib.decompress(chunks)
    channels = {2: 3, 6: 4}.get(kind)
    if depth != 8 or channels is None:
        return width, height, None
    stride = width * channels + 1
    rows = [pixels[r * stride + 1:(r + 1) * stride] for r in range(min(height, 400))]
    # The filter byte aside, the raw bytes of unfiltered rows are colours; filtered rows give
    # differences, which are as many when the picture is not flat: either counts variety.
    seen = {row[i:i + 3] for row in rows for i in range(0, len(row) - 2, channels * 7)}
    return width, height, len(seen)


def check_the_page(base, date, scratch):
    dom = chromium(["--dump-dom", f"{base}/daily/{date}"], scratch)
    rows = re.findall(r"<tr>(.*?)</tr>", dom, flags=re.S)
    cells = [re.search(r'<td class="name"[^>]*>(.*?)</td>', row, flags=re.S) for row in rows]
    names = [re.sub(r"<[^>]+>", "", cell.group(1)).replace("▶", "").strip()
             for cell in cells if cell]
    expected = [name for name, _ in sorted(PLAYERS, key=lambda p: p[1])]
    if names != expected:
        fail(f"the table's names, in order, are {names}, not {expected}")
    links = re.findall(r'href="(/daily/[^"]+\.gif)"', dom)
    if len(links) != len(PLAYERS):
        fail(f"{len(links)} replay links for {len(PLAYERS)} rows")
    print(f"server page: the DOM's table: {names}, each name a link to its replay")
    for size in ["360,640", "1280,800"]:
        shot = os.path.join(scratch, f"page-{size.replace(',', 'x')}.png")
        chromium([f"--window-size={size}", f"--screenshot={shot}", f"{base}/daily/{date}"], scratch)
        width, height, colours = png_size_and_colours(shot)
        if f"{width},{height}" != size:
            fail(f"the screenshot is {width}×{height}, not {size}")
        if colours is not None and colours < 50:
            fail(f"the {size} screenshot holds {colours} colours: a blank page?")
        print(f"server page: a {width}×{height} screenshot with {colours} colours sampled")
    status, body = call(base, "GET", links[0])
    if status != 200 or body[:6] not in (b"GIF89a", b"GIF87a"):
        fail(f"the replay {links[0]}: {status}, {body[:6]!r}")
    print(f"server page: the replay {links[0]} is a GIF of {len(body)} bytes")


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__)
        sys.exit(2)
    server_binary, npuzzle = sys.argv[1:3]
    keep = sys.argv[3] if len(sys.argv) == 4 else None
    if not shutil.which("chromium"):
        fail("chromium is not installed (make server-page installs it)")
    scratch = tempfile.mkdtemp(prefix="snapslide-page-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(os.path.join(scratch, "server.log"), "w")
    server = subprocess.Popen([server_binary, "--listen", f"127.0.0.1:{port}", "--data",
                               os.path.join(scratch, "data"), "--posts-per-minute", "0"],
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for_server(base, server)
        date = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
        post_results(base, npuzzle, date)
        check_the_page(base, date, scratch)
        for shot in [name for name in os.listdir(scratch) if keep and name.endswith(".png")]:
            shutil.copy(os.path.join(scratch, shot), os.path.join(keep, f"server-{shot}"))
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    shutil.rmtree(scratch, ignore_errors=True)
    print("server page: passed")


if __name__ == "__main__":
    main()
