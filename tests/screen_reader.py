#!/usr/bin/python3
"""A screen reader's view of the game, with the real stack: a D-Bus session of its own, the
accessibility bus (Debian's at-spi2-core) switched on, the game under Xvfb, and a client written
with pyatspi (what Orca is built on). The client, as a screen reader would:

- finds the application on the bus and reads its controls and its board: the buttons, the
  counters ("Moves 0"), and all 15 tiles of a 4×4 board ("Tile 7, row 2, column 3, slides left
  into the gap") and the gap;
- activates a movable tile through its AT-SPI action and sees the move counter's label change
  to "Moves 1" and the tile's cell change;
- activates Hint and hears which tile it names, sees the hinted cell marked, and the
  second tap worded after the Play it button;
- starts a second copy on the same data folder, as a launcher would, and sees the desktop
  notification it sends (to a notification service of the test's own on the session bus)
  and its exit code, 3;
- then opens a friend's challenge code (made by `npuzzle code encode`) with `--open` on a
  fresh data folder, and reads the challenge's board cell by cell, and the friend's result.

It prints what it read, in order. Run by `make screen-reader` (in `make test`), which installs
what it needs; it starts its own D-Bus session when none is given.

Usage: tests/screen_reader.py path/to/snapslide path/to/npuzzle
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TIMEOUT_S = 60
LAUNCHER = "/usr/libexec/at-spi-bus-launcher"


def fail(message):
    print(f"screen reader: FAILED: {message}")
    sys.exit(1)


def in_a_session_of_its_own():
    """Runs this script again inside `dbus-run-session`, so the bus it starts is its own."""
    if os.environ.get("SNAPSLIDE_A11Y_SESSION"):
        return
    env = dict(os.environ, SNAPSLIDE_A11Y_SESSION="1")
    result = subprocess.run(["dbus-run-session", "--", sys.executable, *sys.argv], env=env)
    sys.exit(result.returncode)


def start_the_accessibility_bus(scratch):
    """The accessibility bus, switched on as a desktop does when a screen reader starts: its
    `IsEnabled`, and `ScreenReaderEnabled`, which AccessKit waits for before it joins."""
    subprocess.Popen([LAUNCHER, "--launch-immediately"], stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
    for status in ["IsEnabled", "ScreenReaderEnabled"]:
        for _ in range(50):
            on = subprocess.run(["busctl", "--user", "set-property", "org.a11y.Bus",
                                 "/org/a11y/bus", "org.a11y.Status", status, "b", "true"],
                                capture_output=True)
            if on.returncode == 0:
                break
            time.sleep(0.1)
        else:
            fail(f"the accessibility bus did not start ({status})")


def start_the_game(binary, scratch, args=("--size", "4", "--seed", "7"), data="data"):
    env = dict(os.environ,
               SNAPSLIDE_DATA_DIR=os.path.join(scratch, data),
               XDG_CACHE_HOME=os.path.join(scratch, "cache"),
               XDG_RUNTIME_DIR=scratch,
               # The requests the game took are in its log, should a step fail.
               RUST_LOG=os.environ.get("RUST_LOG", "info,snapslide::hud::access=debug"))
    command = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", binary, *args]
    log = open(os.path.join(scratch, "game.log"), "w")
    # A session of its own, so that stopping it stops the game too, not only xvfb-run.
    return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def stop(game):
    """Stops the game, xvfb-run and its X server: the whole process group, waiting until every
    process in it is gone (the game saves as it quits, into the scratch folder)."""
    try:
        os.killpg(game.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.time() + 30
    while time.time() < deadline:
        game.poll()
        try:
            os.killpg(game.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    try:
        os.killpg(game.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    game.wait()


def nodes(root):
    """Every node under `root`, depth first, as (role name, name, node)."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        try:
            found.append((node.getRoleName(), node.name or "", node))
            stack.extend(reversed([node.getChildAtIndex(i) for i in range(node.childCount)]))
        except Exception:
            continue
    return found


def wait_for(what, probe, timeout=TIMEOUT_S):
    """Polls `probe` until it returns something true; its value, or a failure."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.2)
    fail(f"{what} within {timeout} s")


def applications(pyatspi):
    """Every application on the bus called Snapslide."""
    desktop = pyatspi.Registry.getDesktop(0)
    apps = [desktop.getChildAtIndex(i) for i in range(desktop.childCount)]
    return [app for app in apps if app is not None and "snapslide" in (app.name or "").lower()]


def application(pyatspi):
    found = applications(pyatspi)
    return found[0] if found else None


def names(app):
    return [(role, name) for role, name, _ in nodes(app) if name]


def tiles_of(app):
    return {int(m.group(1)): (name, node) for role, name, node in nodes(app)
            if (m := re.match(r"Tile (\d+), row \d, column \d", name))}


def board_of(app):
    """The cells' labels, once they make one whole 4×4 board (15 tiles and the gap, each cell
    once) and it reads the same twice in a row: the game settled, not mid-change."""
    def cells():
        labels = [name for _, name in names(app)
                  if name.startswith("Tile ") or name.startswith("Empty, ")]
        places = [re.search(r"row (\d), column (\d)", label).groups() for label in labels]
        tiles = {label.split(",")[0] for label in labels if label.startswith("Tile ")}
        whole = len(labels) == 16 and len(set(places)) == 16 and len(tiles) == 15
        return sorted(labels) if whole else None
    first = cells()
    return first if first and cells() == first else None


def puzzle_found(app):
    """Whether the game's own puzzle is on show: its distance is said, nothing is being found."""
    labels = [name for _, name in names(app)]
    finding = any(label.startswith("Finding a puzzle") for label in labels)
    return not finding and any("from solved" in label for label in labels)


def read_the_board(pyatspi):
    app = wait_for("the game on the accessibility bus", lambda: application(pyatspi))
    # Under load the first board on show is a stand-in while the puzzle is found ("Finding a
    # puzzle…"): a tile tapped on it is not one of the puzzle's.
    wait_for("the puzzle found", lambda: puzzle_found(app))
    wait_for("a whole board of labelled cells", lambda: board_of(app))
    tiles = tiles_of(app)
    read = names(app)
    print(f"screen reader: the application: {app.name!r}; it reads, in order:")
    for role, name in read:
        print(f"  {role}: {name}")
    labels = [name for _, name in read]
    for wanted in ["Undo", "Redo", "Hint", "Solve", "Restart", "New game", "Moves 0"]:
        if not any(label.startswith(wanted) for label in labels):
            fail(f"no control labelled {wanted!r}")
    if not any(label.startswith("Empty, row") for label in labels):
        fail("the gap is not labelled")
    return app, tiles


def move_a_tile(app, tiles):
    # A tile beside the gap: it slides alone, one move on the counter.
    movable = [(t, name, node) for t, (name, node) in tiles.items()
               if "into the gap" in name and "between" not in name]
    if not movable:
        fail("no tile beside the gap says it can slide")
    tile, name, node = movable[0]
    action = node.queryAction()
    print(f"screen reader: activating {name!r} ({action.getName(0)})")
    action.doAction(0)
    wait_for("the move counter saying Moves 1",
             lambda: any(label.startswith("Moves 1") for _, label in names(app)))
    def now():
        label = tiles_of(app).get(tile, (name,))[0]
        return label if label != name else None

    moved = wait_for(f"tile {tile} in another cell", now)
    print(f"screen reader: now {moved!r}, and the counter reads Moves 1")
    # The move is said once (play-test 70: every move was announced twice): the live region
    # takes one text for it, not one and then another.
    said = set()
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline:
        said.update(label for _, label in names(app)
                    if label.startswith(f"Tile {tile} moved"))
        time.sleep(0.05)
    if len(said) != 1:
        fail(f"the move was announced as {sorted(said)!r}, not once")
    words = said.pop()
    if not words.endswith("from solved."):
        fail(f"the move's words {words!r} do not say how far the board is (the meter is on)")
    print(f"screen reader: the move is announced once: {words!r}")


def ask_for_a_hint(app):
    hint = [node for role, name, node in nodes(app) if name == "Hint" and "button" in role]
    if not hint:
        fail("no Hint button")
    hint[0].queryAction().doAction(0)
    # The hint names its move (the status and the live region), the hinted cell says so, and
    # the second tap is worded after the button's real name (play-test 59.3).
    said = wait_for("the hint's words", lambda: [label for _, label in names(app)
                                                 if label.startswith("Hint: tile ")
                                                 and "Tap Play it" in label])
    print(f"screen reader: after Hint it reads {said[0]!r}")
    marked = [label for _, label in names(app) if label.endswith("The hint's move")]
    if not marked:
        fail("no cell says it is the hint's move")
    print(f"screen reader: the hinted cell reads {marked[0]!r}")
    if not [name for role, name, _ in nodes(app) if name == "Play it" and "button" in role]:
        fail("no Play it button after the hint")


# A friend's board: the goal with the gap moved up, then left; their solve is right, down.
CHALLENGE_BOARD = "1 2 3 4/5 6 7 8/9 10 0 11/13 14 15 12"
CHALLENGE_MOVES = "RD"


# A notification service (org.freedesktop.Notifications) that prints the first notification
# it is sent, "app|summary|body", and ends; "ready" once it holds its name.
NOTIFICATIONS = r"""
from gi.repository import Gio, GLib
XML = ('<node><interface name="org.freedesktop.Notifications"><method name="Notify">'
       + ''.join(f'<arg type="{t}" direction="in"/>'
                 for t in ["s", "u", "s", "s", "s", "as", "a{sv}", "i"])
       + '<arg type="u" direction="out"/></method></interface></node>')
loop = GLib.MainLoop()
def notified(connection, sender, path, interface, method, args, invocation):
    app, _, _, summary, body = args.unpack()[:5]
    print(f"{app}|{summary}|{body}", flush=True)
    invocation.return_value(GLib.Variant("(u)", (1,)))
    GLib.timeout_add(200, loop.quit)
def on_bus(connection, name):
    interface = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
    connection.register_object("/org/freedesktop/Notifications", interface, notified, None, None)
Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.Notifications",
                 Gio.BusNameOwnerFlags.NONE, on_bus, lambda *_: print("ready", flush=True),
                 lambda *_: loop.quit())
loop.run()
"""


def a_second_copy_says_so(binary, scratch):
    """A second copy on the game's data folder, started with no terminal to read: it sends a
    desktop notification and ends with code 3."""
    service = subprocess.Popen([sys.executable, "-c", NOTIFICATIONS], stdout=subprocess.PIPE,
                               text=True)
    try:
        if service.stdout.readline().strip() != "ready":
            fail("the test's notification service did not start")
        env = dict(os.environ, SNAPSLIDE_DATA_DIR=os.path.join(scratch, "data"),
                   XDG_CACHE_HOME=os.path.join(scratch, "cache"), XDG_RUNTIME_DIR=scratch,
                   DISPLAY=os.environ.get("DISPLAY", ":0"))
        try:
            second = subprocess.run([binary, "--size", "4"], env=env, capture_output=True,
                                    text=True, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            fail(f"a second copy of the game kept running for {TIMEOUT_S} s")
        if second.returncode != 3:
            fail(f"a second copy ended with {second.returncode}, not 3: {second.stderr}")
        try:
            said, _ = service.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            fail("a second copy sent no desktop notification")
        if not said.startswith("Snapslide|Snapslide is already open|"):
            fail(f"a second copy's notification: {said!r}")
        print(f"screen reader: a second copy is refused with code 3 and notifies {said.strip()!r}")
    finally:
        service.kill()


def challenge_code(npuzzle, scratch):
    """A code for the friend's solve of CHALLENGE_BOARD, as `npuzzle code encode` makes it."""
    board = os.path.join(scratch, "friend.txt")
    with open(board, "w") as out:
        out.write(CHALLENGE_BOARD + "\n")
    made = subprocess.run([npuzzle, "code", "encode", board, "--moves", CHALLENGE_MOVES,
                           "--time-ms", "12340"], capture_output=True, text=True)
    if made.returncode != 0:
        fail(f"npuzzle made no code: {made.stderr.strip()}")
    return made.stdout.strip()


def expected_cells(board):
    """The cells' labels' beginnings a screen reader should read for a board: "Tile 11, row
    3, column 4" and "Empty, row 3, column 3"."""
    rows = [row.split() for row in board.split("/")]
    return sorted(f"Tile {tile}, row {r + 1}, column {c + 1}" if tile != "0"
                  else f"Empty, row {r + 1}, column {c + 1}"
                  for r, row in enumerate(rows) for c, tile in enumerate(row))


def open_a_challenge(pyatspi, binary, npuzzle, scratch):
    code = challenge_code(npuzzle, scratch)
    print(f"screen reader: opening the friend's code {code}")
    game = start_the_game(binary, scratch, args=("--open", code), data="friend")
    try:
        wanted = expected_cells(CHALLENGE_BOARD)

        def the_friends_board():
            # The game before may linger on the bus a moment: every Snapslide there is asked.
            for app in applications(pyatspi):
                cells = board_of(app)
                read = sorted(label.split(",")[0] + "," + ",".join(label.split(",")[1:3])
                              for label in cells or [])
                if read == wanted:
                    return app
            return None

        app = wait_for("the friend's board, cell by cell", the_friends_board)
        said = wait_for("the friend's result", lambda: [label for _, label in names(app)
                                                        if "friend's challenge" in label])
        print(f"screen reader: the friend's board is on show, and it reads {said!r}")
    finally:
        stop(game)


def main():
    if len(sys.argv) != 3:
        fail(__doc__.strip().splitlines()[-1])
    for tool in ["dbus-run-session", "busctl", "xvfb-run", LAUNCHER]:
        if not os.path.exists(tool) and shutil.which(tool) is None:
            fail(f"{tool} is missing (make screen-reader-deps installs it)")
    in_a_session_of_its_own()
    import pyatspi
    with tempfile.TemporaryDirectory(prefix="snapslide-screen-reader-") as scratch:
        start_the_accessibility_bus(scratch)
        # The meter on: a move's words then end with how far the board is.
        os.makedirs(os.path.join(scratch, "data"))
        with open(os.path.join(scratch, "data", "settings.json"), "w") as settings:
            settings.write('{"meter": true}')
        game = start_the_game(os.path.abspath(sys.argv[1]), scratch)
        try:
            app, tiles = read_the_board(pyatspi)
            move_a_tile(app, tiles)
            ask_for_a_hint(app)
            a_second_copy_says_so(os.path.abspath(sys.argv[1]), scratch)
            stop(game)
            open_a_challenge(pyatspi, os.path.abspath(sys.argv[1]), sys.argv[2], scratch)
        except SystemExit:
            with open(os.path.join(scratch, "game.log")) as log:
                print("screen reader: the game's log ends:")
                print("".join(log.readlines()[-25:]))
            raise
        finally:
            stop(game)
    print("screen reader: passed")


if __name__ == "__main__":
    main()
