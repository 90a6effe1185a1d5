#!/usr/bin/env python3
"""The map of every file at the end of docs/architecture.md ("Where things are") is complete and
true: it names each file of the app (`src/`), of `tests/` and of `tools/`, and each file and
folder at the top of a crate's `src/` (`crates/*/src/`; a crate's lib.rs and main.rs are the
crate's own entry), and every file or folder it names is there.

The map is the first code block under the heading. A line that starts within 8 spaces is an
entry: its names (before two spaces; several separated by ", "), then what it is. An entry
indented 2 spaces more than the one above belongs to it: its names are inside that folder (a
crate's inside its `src/`). The lines indented further go on with the description above. A file
or folder named in a description (`(writer.rs)`, `phone-check/`, `docs/journal.md`) is looked
for in the entry's own folder, then beside the entry, then from the top of the checkout (and
by its name alone anywhere in the entry's folder). In `src/` and a crate's `src/`, each file
must be named itself (a folder named stands for nothing in it); under `tests/` and `tools/` a
folder named (`tests/fixtures/`) stands for what it holds. No globs: each file by its name.

Prints each problem and exits 1; else one line and 0.

Usage: tools/check_docs_map.py [checkout] (default: this one)
       tools/check_docs_map.py --self-test   (runs CASES below: each must find what it says)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join("docs", "architecture.md")
HEADING = "## Where things are"
# A file named in a description: a path ending in one of these.
MENTIONED_FILE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.(?:rs|py|sh|md|toml))\b")
# A folder named in a description: a path ending in `/`, then a space, punctuation or the end.
MENTIONED_FOLDER = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)+)(?=[\s:),;]|$)")
# Crate roots: the crate's own entry stands for them.
CRATE_ROOTS = {"lib.rs", "main.rs"}


def map_lines(text):
    """The lines of the map: the first code block after the heading (None without one)."""
    at = text.find(HEADING)
    if at < 0:
        return None
    block = re.search(r"^```[^\n]*\n(.*?)^```", text[at:], re.S | re.M)
    return block.group(1).splitlines() if block else None


def is_crate(checkout, folder):
    return (os.path.isfile(os.path.join(checkout, folder, "Cargo.toml"))
            and os.path.isdir(os.path.join(checkout, folder, "src")))


def entries(lines, checkout):
    """[[names, description, own folders]], the names as paths from the top of the checkout;
    a folder's own folder is its `src/` for a crate."""
    found, parents = [], []  # parents: [(indent, base folder for what is inside)]
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip():
            continue
        if indent > 8:
            if found:
                found[-1][1] += " " + line.strip()
            continue
        names, description = (re.split(r"\s{2,}", line.strip(), maxsplit=1) + [""])[:2]
        while parents and parents[-1][0] >= indent:
            parents.pop()
        base = parents[-1][1] if parents else ""
        paths = []
        for name in (name.strip() for name in names.split(",") if name.strip()):
            path = os.path.normpath(os.path.join(base, name))
            paths.append(path + "/" if name.endswith("/") else path)
        own = []
        for path in paths:
            folder = path.rstrip("/")
            if path.endswith("/") or os.path.isdir(os.path.join(checkout, folder)):
                inside = folder + "/src" if is_crate(checkout, folder) else folder
                own.append(inside)
        found.append([paths, description, own])
        parents.append((indent, own[-1] if own else base))
    return found


def walk(checkout, top):
    """Every file under `top` (a path from the top of the checkout), hidden ones left out."""
    out = []
    for folder, folders, names in os.walk(os.path.join(checkout, top)):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f != "__pycache__")
        for name in sorted(names):
            if not name.startswith("."):
                out.append(os.path.relpath(os.path.join(folder, name), checkout))
    return out


def check(checkout):
    """The problems with the map of the checkout at `checkout`."""
    with open(os.path.join(checkout, DOC), encoding="utf-8") as file:
        lines = map_lines(file.read())
    if lines is None:
        return [f"{DOC}: no map (a code block under \"{HEADING}\")"]
    problems, named = [], set()

    def exists(path):
        return os.path.exists(os.path.join(checkout, path.rstrip("/")))

    for paths, description, own in entries(lines, checkout):
        for path in paths:
            if "*" in path or "?" in path:
                problems.append(f"the map names {path}: name each file, not a pattern")
            elif not exists(path):
                problems.append(f"the map names {path}, which is not there")
            else:
                named.add(path.rstrip("/"))
        beside = [os.path.dirname(path.rstrip("/")) for path in paths]
        mentions = [(m, False) for m in MENTIONED_FILE.findall(description)]
        mentions += [(m, True) for m in MENTIONED_FOLDER.findall(description)]
        for mention, folder in mentions:
            where = [os.path.normpath(os.path.join(start, mention)) for start in own + beside]
            found = next((path for path in where + [mention] if exists(path)), None)
            if found is None and not folder and "/" not in mention:
                alike = [path for start in own for path in walk(checkout, start)
                         if os.path.basename(path) == mention]
                found = alike[0] if len(alike) == 1 else None
            if found is None:
                problems.append(f"the map names {mention} (in what {', '.join(paths)} is), "
                                f"which is not there")
            else:
                named.add(found.rstrip("/"))
    for path in required(checkout):
        top = path.split("/")[0]
        covering = path in named or (top in ("tests", "tools") and any(
            path.startswith(folder + "/") for folder in named if folder not in ("tests",
                                                                                "tools")))
        if not covering:
            problems.append(f"{path} is not in the map ({DOC})")
    return problems


def required(checkout):
    """What the map must name: every file of src/, tests/ and tools/, and what is at the top of
    each crate's src/ (but its lib.rs and main.rs)."""
    out = []
    for top in ("src", "tests", "tools"):
        out += [p for p in walk(checkout, top) if top != "src" or p.endswith(".rs")]
    crates = os.path.join(checkout, "crates")
    for crate in sorted(os.listdir(crates)) if os.path.isdir(crates) else []:
        folder = f"crates/{crate}"
        if not is_crate(checkout, folder):
            continue
        out.append(folder)
        for name in sorted(os.listdir(os.path.join(checkout, folder, "src"))):
            if name not in CRATE_ROOTS and not name.startswith("."):
                out.append(f"{folder}/src/{name}")
    return out


# The self-test's cases: (name, the files of a checkout, the problems it must find).
MAP = "# Architecture\n\n## Where things are\n\n```\n{}```\n"
FILES = {
    "src/main.rs": "", "src/hud/mod.rs": "", "src/hud/panel/mod.rs": "",
    "src/persist.rs": "", "src/persist/writer.rs": "",
    "tests/game.rs": "", "tests/fixtures/a.jpg": "", "tools/check.py": "",
    "tools/phone-check/run.sh": "", "docs/fuzzing.md": "",
    "crates/engine/Cargo.toml": "", "crates/engine/src/lib.rs": "",
    "crates/engine/src/board.rs": "", "crates/engine/src/search/astar.rs": "",
}
COMPLETE = ("src/                the game\n"
            "  main.rs           the binary\n"
            "  hud/              the controls:\n"
            "    mod.rs          the plugin; the panel (panel/mod.rs)\n"
            "  persist.rs, persist/  the files, written atomically (writer.rs)\n"
            "tests/game.rs       tests, with photos (fixtures/)\n"
            "tools/              check.py; the phone check (phone-check/)\n"
            "crates/engine       the engine:\n"
            "  board.rs          the board\n"
            "  search/           the searches\n"
            "docs/               the pages: docs/fuzzing.md\n")
CASES = [
    # Every file named (by its entry, or in a description), every name there: nothing found.
    ("complete", dict(FILES, **{"docs/architecture.md": MAP.format(COMPLETE)}), []),
    # A new file in the app, in a folder of the app, at the top of a crate, in tests/: found.
    ("missing_from_the_map", dict(FILES, **{
        "docs/architecture.md": MAP.format(COMPLETE),
        "src/framing.rs": "", "src/hud/access.rs": "", "crates/engine/src/hash.rs": "",
        "tests/screen_reader.py": "", "crates/engine/src/search/idastar.rs": ""}),
     ["src/framing.rs is not in the map (docs/architecture.md)",
      "src/hud/access.rs is not in the map (docs/architecture.md)",
      "tests/screen_reader.py is not in the map (docs/architecture.md)",
      "crates/engine/src/hash.rs is not in the map (docs/architecture.md)"]),
    # A folder named does not stand for the app's files in it; the map's names must be there,
    # as entries or in a description; a pattern names nothing.
    ("gone_and_patterns", dict(FILES, **{
        "docs/architecture.md": MAP.format(
            COMPLETE.replace("    mod.rs          the plugin; the panel (panel/mod.rs)\n",
                             "    old.rs          the plugin; the panel (panel/mod.rs)\n")
            .replace("(writer.rs)", "(writer.rs, saver.rs)") + "tests/*.py  under Xvfb\n"
            + "docs/  the pages (gone/)\n")}),
     ["the map names src/hud/old.rs, which is not there",
      "the map names saver.rs (in what src/persist.rs, src/persist/ is), which is not there",
      "the map names tests/*.py: name each file, not a pattern",
      "the map names gone/ (in what docs/ is), which is not there",
      "src/hud/mod.rs is not in the map (docs/architecture.md)"]),
    # tests/ and tools/ named whole stand for nothing in them.
    ("top_folders_stand_for_nothing", dict(FILES, **{
        "docs/architecture.md": MAP.format(
            COMPLETE.replace("tools/              check.py; the phone check (phone-check/)\n",
                             "tools/              the checks\n"))}),
     ["tools/check.py is not in the map (docs/architecture.md)",
      "tools/phone-check/run.sh is not in the map (docs/architecture.md)"]),
]


def self_test():
    """Runs each case of CASES in a folder of its own: each must find what it expects."""
    import tempfile
    failed = 0
    for name, files, expected in CASES:
        with tempfile.TemporaryDirectory() as folder:
            for path, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(folder, path)), exist_ok=True)
                with open(os.path.join(folder, path), "w", encoding="utf-8") as file:
                    file.write(text)
            problems = check(folder)
        if problems != expected:
            print(f"docs map self-test {name}: failed\n"
                  f"  found    {problems}\n  expected {expected}")
            failed += 1
    if failed:
        return 1
    print(f"docs map self-test: the {len(CASES)} cases passed")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    checkout = sys.argv[1] if len(sys.argv) > 1 else ROOT
    problems = check(checkout)
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    print(f"docs map: {DOC} names every file of src/, tests/, tools/ and the crates' src/, "
          f"and each file it names is there")


if __name__ == "__main__":
    main()
