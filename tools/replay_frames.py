#!/usr/bin/python3
"""The 8× replay's frame times under Xvfb and Mesa's software renderer, for one or more builds
of the game, taken in turns (issue 71's "nothing slower").

Each launch, for each build in turn:

- a new data folder gets one solve, imported with `--import-solves` from a CSV written here: a
  4×4 scrambled by MOVES random blank moves (a fixed seed) and solved by undoing them, a move
  every 250 ms;
- the game is started with `--frame-stats` under Xvfb (1280×800) on an accessibility bus of its
  own, and a pyatspi client, as tests/screen_reader.py does, presses Menu, Solves, the solve's
  Watch and the replay's speed, 8×;
- the frame lines the game logs every 2 seconds ("frames: N in S s, mean M ms, worst W ms, K
  over 33.3 ms") are read for as long as the replay runs at 8×, less the first window (it
  holds the sheet's closing), and the game is stopped.

It prints each launch's windows, then for each build the frames counted, their mean, the worst
window's worst frame and the frames over 33.3 ms. Bounded: every wait has a time limit, and a
launch that does not reach the replay fails the run.

The accessibility bus is on in every launch (AccessKit then updates its tree as frames come):
the figures compare builds with each other, not with a launch without a screen reader.

Usage: tools/replay_frames.py BINARY [BINARY...] [--rounds N] [--moves N]
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import screen_reader as sr  # noqa: E402 (the bus and the tree, as the screen-reader test reads them)

TIMEOUT_S = 60
MOVE_MS = 250
FRAMES = re.compile(r"frames: (\d+) in ([\d.]+) s, mean ([\d.]+) ms, worst ([\d.]+) ms, "
                    r"(\d+) over")
# The blank's moves, and the letter of the tile each moves (the opposite way).
BLANK = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
TILE_LETTER = {"U": "D", "D": "U", "L": "R", "R": "L"}
INVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}


def fail(message):
    print(f"replay frames: FAILED: {message}")
    sys.exit(1)


def scramble_and_solution(moves, seed):
    """A 4×4 after `moves` random blank moves (none undoing the last), in the slash form, and
    its solution (the moves undone) in the tile-direction notation."""
    rng = random.Random(seed)
    cells = list(range(1, 16)) + [0]
    blank, walk = 15, []
    while len(walk) < moves:
        step = rng.choice("UDLR")
        row, col = divmod(blank, 4)
        to_row, to_col = row + BLANK[step][0], col + BLANK[step][1]
        if not (0 <= to_row < 4 and 0 <= to_col < 4) or (walk and walk[-1] == INVERSE[step]):
            continue
        to = to_row * 4 + to_col
        cells[blank], cells[to] = cells[to], 0
        blank = to
        walk.append(step)
    rows = [" ".join(str(t) for t in cells[r * 4:r * 4 + 4]) for r in range(4)]
    solution = "".join(TILE_LETTER[INVERSE[step]] for step in reversed(walk))
    return "/".join(rows), solution


def write_solve(path, moves):
    scramble, solution = scramble_and_solution(moves, 71)
    times = " ".join(str((i + 1) * MOVE_MS) for i in range(moves))
    with open(path, "w") as out:
        out.write("finished_at,size,mode,result,time_ms,moves,scramble,solution,times_ms\n")
        out.write(f"2026-12-07T12:00:00.000Z,4x4,random,solved,{moves * MOVE_MS},{moves},"
                  f"{scramble},{solution},{times}\n")


def the_game(pyatspi):
    """The newest copy of the game on the bus (the one before may linger a moment)."""
    found = sr.applications(pyatspi)
    return found[-1] if found else None


def names(app):
    """Every node under `app`, as (name, node)."""
    return [(name, node) for _, name, node in sr.nodes(app)]


def press(app, what, matches):
    """Waits for a node whose name `matches`, and does its first action."""
    def found():
        return next((node for name, node in names(app) if matches(name)), None)
    node = sr.wait_for(f"{what} on the bus", found)
    node.queryAction().doAction(0)


def watch_at_8x(pyatspi):
    app = sr.wait_for("the game on the accessibility bus", lambda: the_game(pyatspi))
    sr.wait_for("the board", lambda: any(name.startswith("Tile ") for name, _ in names(app)))
    press(app, "Menu", lambda name: name == "Menu")
    press(app, "Solves", lambda name: name == "Solves")
    press(app, "the solve's Watch", lambda name: name.startswith("Watch"))
    press(app, "the replay's speed", lambda name: name.startswith("Speed:"))
    press(app, "8×", lambda name: name == "8×")
    sr.wait_for("the speed at 8×", lambda: any(name == "Speed: 8×" for name, _ in names(app)))


def launch(pyatspi, binary, moves, scratch):
    """One launch: the solve imported, watched at 8×; the frame windows logged meanwhile."""
    env = dict(os.environ, SNAPSLIDE_DATA_DIR=os.path.join(scratch, "data"),
               XDG_CACHE_HOME=os.path.join(scratch, "cache"), XDG_RUNTIME_DIR=scratch)
    csv = os.path.join(scratch, "solve.csv")
    write_solve(csv, moves)
    imported = subprocess.run([binary, "--import-solves", csv], env=env, capture_output=True,
                              text=True, timeout=TIMEOUT_S)
    if imported.returncode != 0:
        fail(f"the solve was not imported: {imported.stdout}{imported.stderr}")
    log_path = os.path.join(scratch, "game.log")
    with open(log_path, "w") as log:
        game = subprocess.Popen(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", binary,
                                 "--frame-stats"], env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        watch_at_8x(pyatspi)
        with open(log_path) as log:
            before = len(log.readlines())
        time.sleep(moves * MOVE_MS / 8 / 1000)
    finally:
        subprocess.run(["kill", "--", f"-{game.pid}"], check=False)
        game.wait(timeout=30)
    with open(log_path) as log:
        lines = log.readlines()[before:]
    windows = [tuple(float(g) for g in m.groups()) for line in lines
               if (m := FRAMES.search(line))]
    # The first window holds the sheet's closing and the speed's choice.
    return windows[1:]


def summary(windows):
    frames = sum(w[0] for w in windows)
    seconds = sum(w[1] for w in windows)
    worst = max((w[3] for w in windows), default=0.0)
    over = sum(w[4] for w in windows)
    mean = seconds * 1000 / frames if frames else 0.0
    return f"{frames:.0f} frames, mean {mean:.2f} ms, worst {worst:.2f} ms, {over:.0f} over 33.3 ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=240)
    args = parser.parse_args()
    sr.in_a_session_of_its_own()
    import pyatspi
    sr.start_the_accessibility_bus(None)
    binaries = [os.path.abspath(b) for b in args.binaries]
    windows = {binary: [] for binary in binaries}
    for round_ in range(args.rounds):
        for binary in binaries:
            with tempfile.TemporaryDirectory(prefix="snapslide-replay-") as scratch:
                got = launch(pyatspi, binary, args.moves, scratch)
            windows[binary].extend(got)
            print(f"round {round_ + 1}, {os.path.basename(binary)}: {summary(got)}", flush=True)
    print(f"\nthe 8× replay of a {args.moves}-move 4×4, {args.rounds} launches each:")
    for binary in binaries:
        print(f"  {binary}: {summary(windows[binary])}")


if __name__ == "__main__":
    main()
