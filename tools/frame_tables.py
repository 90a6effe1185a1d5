#!/usr/bin/env python3
"""The two tables of docs/architecture.md that say who runs when and who talks to whom, made
from the code of the app (`src/`), so they cannot drift from it:

- the frame's steps: for each step of `AppSet` (src/frame.rs), in order, and for the other
  schedules a system is added to (`Last`, `Startup`, …), the modules that add systems to it
  (a set of a module's own, such as `HudStep`, counts where `configure_sets` puts it; a
  system ordered only after a step, in none, is listed as "after" it);
- the messages: for each type the app derives `Message` for, the modules that write it
  (`MessageWriter`) and those that read it (`MessageReader`).

A module is named by its file (`play::input`), at most two levels deep (`hud::panel`). Test
modules (`#[cfg(test)] mod tests { … }`) are left out: the tables are what the app runs.

Each table sits in the doc between `<!-- frame_tables: NAME -->` and `<!-- /frame_tables -->`.

Usage: tools/frame_tables.py           checks the doc against the code (exit 1 on a difference)
       tools/frame_tables.py --write   writes the tables into the doc
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
DOC = os.path.join(ROOT, "docs", "architecture.md")
TYPE = r"(?:[A-Za-z_][A-Za-z0-9_]*::)*([A-Za-z_][A-Za-z0-9_]*)"
LIFETIMES = r"(?:'[a-z_]+,\s*)*"


def module_of(path):
    parts = os.path.relpath(path, SRC)[:-3].split(os.sep)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return "::".join(parts[:2]) or "lib"


def without_tests(text):
    """The text with comments and `#[cfg(test)]` items (a module or a function) taken out."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    while (found := re.search(r"#\[cfg\(test\)\]", text)):
        brace = text.find("{", found.end())
        semi = text.find(";", found.end())
        if semi != -1 and (brace == -1 or semi < brace):
            text = text[:found.start()] + text[semi + 1:]
            continue
        text = text[:found.start()] + text[closing(text, brace) + 1:]
    return text


def closing(text, at, opening="{", close="}"):
    depth = 0
    for i in range(at, len(text)):
        depth += text[i] == opening
        depth -= text[i] == close
        if depth == 0:
            return i
    return len(text) - 1


def sources():
    for folder, _, names in os.walk(SRC):
        for name in sorted(names):
            if name.endswith(".rs"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as file:
                    yield module_of(path), without_tests(file.read())


def calls(text, name):
    """The argument text of every call `name(…)`."""
    for found in re.finditer(rf"\b{name}\(", text):
        start = found.end() - 1
        yield text[start + 1:closing(text, start, "(", ")")]


def app_steps():
    with open(os.path.join(SRC, "frame.rs"), encoding="utf-8") as file:
        text = file.read()
    body = re.search(r"pub enum AppSet \{(.*?)\n\}", text, flags=re.S).group(1)
    return re.findall(r"^\s*([A-Z][A-Za-z]*),", re.sub(r"//[^\n]*", "", body), flags=re.M)


def set_homes(files):
    """Where each set of the app's own (`HudStep`, `DecideStep`) is put: its `AppSet` step."""
    homes = {}
    for _, text in files:
        for args in calls(text, "configure_sets"):
            step = re.search(r"in_set\((?:\w+::)*AppSet::(\w+)\)", args)
            for own in set(re.findall(r"\b(\w+Step)::", args)):
                if step:
                    homes[own] = step.group(1)
    return homes


def steps_table(files):
    homes = set_homes(files)
    runs = {}
    for module, text in files:
        for args in calls(text, "add_systems"):
            schedule = args.split(",", 1)[0].strip()
            steps = set(re.findall(r"in_set\((?:\w+::)*AppSet::(\w+)\)", args))
            after = re.findall(r"after\((?:\w+::)*AppSet::(\w+)\)", args)
            steps |= {f"after {step}" for step in after}
            steps |= {homes[own] for own in re.findall(r"\b(\w+Step)::", args) if own in homes}
            if schedule != "Update":
                steps = {schedule}
            elif not steps:
                steps = {"Update, in no step"}
            for step in steps:
                runs.setdefault(step, set()).add(module)
    order = [f"{when}{step}" for step in app_steps() for when in ("", "after ")
             if when == "" or f"after {step}" in runs]
    others = sorted(step for step in runs if step not in order)
    rows = ["| step | modules with systems in it |", "| --- | --- |"]
    for step in order + others:
        rows.append(f"| `{step}` | {', '.join(sorted(runs.get(step, [])))} |")
    return rows


def messages_table(files):
    defined = set()
    for _, text in files:
        for found in re.finditer(r"#\[derive\(([^)]*)\)\]\s*(?:#\[[^\]]*\]\s*)*pub(?:\([^)]*\))?\s+(?:struct|enum)\s+(\w+)", text):
            if re.search(r"\bMessage\b", found.group(1)):
                defined.add(found.group(2))
    writers, readers = {}, {}
    for module, text in files:
        for found in re.finditer(rf"MessageWriter<{LIFETIMES}{TYPE}>", text):
            writers.setdefault(found.group(1), set()).add(module)
        for found in re.finditer(rf"MessageReader<{LIFETIMES}{TYPE}>", text):
            readers.setdefault(found.group(1), set()).add(module)
    rows = ["| message | written by | read by |", "| --- | --- | --- |"]
    for name in sorted(defined):
        written = ", ".join(sorted(writers.get(name, []))) or "nobody"
        read = ", ".join(sorted(readers.get(name, []))) or "nobody"
        rows.append(f"| `{name}` | {written} | {read} |")
    return rows


def replaced(doc, name, rows):
    start, end = f"<!-- frame_tables: {name} -->", "<!-- /frame_tables -->"
    at = doc.find(start)
    if at < 0:
        sys.exit(f"{os.path.relpath(DOC, ROOT)} has no `{start}` marker")
    stop = doc.find(end, at)
    return doc[:at] + start + "\n" + "\n".join(rows) + "\n" + doc[stop:]


def main():
    files = list(sources())
    with open(DOC, encoding="utf-8") as file:
        doc = file.read()
    made = replaced(doc, "steps", steps_table(files))
    made = replaced(made, "messages", messages_table(files))
    if "--write" in sys.argv[1:]:
        if made != doc:
            with open(DOC, "w", encoding="utf-8") as file:
                file.write(made)
        print("frame tables written")
        return
    if made != doc:
        old, new = doc.splitlines(), made.splitlines()
        differ = [f"  doc:  {a}\n  code: {b}" for a, b in zip(old, new) if a != b][:10]
        print("docs/architecture.md's frame tables differ from the code "
              "(tools/frame_tables.py --write makes them again):\n" + "\n".join(differ))
        sys.exit(1)
    print("frame tables: docs/architecture.md says what the code does")


if __name__ == "__main__":
    main()
