#!/usr/bin/env python3
"""Every resource of the app has one owner, the only module that writes it; the others read it
or send its owner a message. A resource defined in the app (`#[derive(Resource)]`) is owned by
the top-level module of `src/` that defines it (`src/hud/state.rs` is in `hud`); a resource the
app does not define (Bevy's `ClearColor`, `Time<Virtual>`) may be written by one module only,
and `NextState<S>` belongs to the owner of `S`. A module writes a resource when it takes it as
`ResMut`, asks for `resource_mut`, or inserts or initialises it. Tests (`#[cfg(test)]` blocks and
`tests/`) are left out: they set up the world as they please.

Prints each resource written by a module other than its owner, or by more than one module, and
exits 1; else one line and 0.

Usage: tools/check_ownership.py [source folder] (default: src/)
       tools/check_ownership.py --self-test   (plants a shared resource; must find it)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
TYPE = rf"{IDENT}(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>)?"
DEFINED = re.compile(rf"#\[derive\(([^)]*)\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?"
                     rf"(?:struct|enum)\s+({IDENT})")
WRITES = [
    re.compile(rf"\bResMut<\s*(?:'\w+\s*,\s*)?({TYPE})\s*>"),
    re.compile(rf"\b(?:get_)?resource_mut::<({TYPE})>"),
    re.compile(rf"\b(?:init_resource|get_resource_or_init|remove_resource)::<({TYPE})>"),
]
INSERT = re.compile(r"\binsert_resource\(\s*([A-Za-z_][A-Za-z0-9_:]*)")


def strip(text):
    """The text without comments and without `#[cfg(test)]` items (a test module's braces are
    matched to find its end)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    while True:
        found = re.search(r"#\[cfg\(test\)\]\s*(?:pub\s+)?mod\s+\w+\s*\{", text)
        if not found:
            return text
        depth, end = 0, found.end() - 1
        for end in range(found.end() - 1, len(text)):
            depth += text[end] == "{"
            depth -= text[end] == "}"
            if depth == 0:
                break
        text = text[:found.start()] + text[end + 1:]


def module_of(source_dir, path):
    """The top-level module of a file: `lib` for lib.rs, `hud` for hud.rs and hud/…"""
    first = os.path.relpath(path, source_dir).split(os.sep)[0]
    return first[:-3] if first.endswith(".rs") else first


def files(source_dir):
    for folder, _, names in os.walk(source_dir):
        for name in sorted(names):
            if name.endswith(".rs"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as file:
                    yield path, strip(file.read())


def base(type_name):
    """The name a resource is known by: `NextState<Phase>` is `Phase`'s, `Res<X>` is `X`."""
    type_name = type_name.replace(" ", "")
    inner = re.fullmatch(rf"NextState<({IDENT})>", type_name)
    return inner.group(1) if inner else type_name


def inserted_type(text, at, name, defined):
    """The type `insert_resource(name…)` inserts: the name itself when it is a type, else the
    type the variable is bound to (a `let`, or a parameter): the first one whose path makes the
    value (`DataDir::for_options`), else the first one named."""
    head = name.split("::")[0]
    if head in defined or head[:1].isupper():
        return head
    before = text[:at]
    binding = None
    for found in re.finditer(rf"\blet\s+(?:mut\s+)?{re.escape(head)}\b[^;]*;", before):
        binding = found.group(0)
    if binding is None:
        params = re.findall(rf"\b{re.escape(head)}\s*:\s*&?\s*({TYPE})", before)
        binding = params[-1] if params else ""
    makers = re.findall(rf"\b({IDENT})::", binding)
    types = [t for t in makers + re.findall(IDENT, binding) if t in defined or t[:1].isupper()]
    known = [t for t in types if t in defined]
    return (known or types or [None])[0]


def check(source_dir):
    """The problems: (resource, owner or None, writers) for each resource written wrongly."""
    sources = list(files(source_dir))
    defined = {}
    for path, text in sources:
        for derive, name in DEFINED.findall(text):
            if re.search(r"\bResource\b", derive):
                defined[name] = module_of(source_dir, path)
    writers = {}
    for path, text in sources:
        module = module_of(source_dir, path)
        written = [base(m.group(1)) for pattern in WRITES for m in pattern.finditer(text)]
        for found in INSERT.finditer(text):
            inserted = inserted_type(text, found.start(), found.group(1), defined)
            if inserted:
                written.append(inserted)
        for resource in written:
            writers.setdefault(resource, set()).add(module)
    problems = []
    for resource, modules in sorted(writers.items()):
        owner = defined.get(resource)
        if owner is not None and modules != {owner}:
            problems.append((resource, owner, sorted(modules)))
        elif owner is None and len(modules) > 1:
            problems.append((resource, None, sorted(modules)))
    return problems, len(writers)


def report(problems):
    for resource, owner, modules in problems:
        if owner:
            others = [m for m in modules if m != owner]
            print(f"{resource} is {owner}'s, but written by {', '.join(others)}")
        else:
            print(f"{resource} is written by {', '.join(modules)}: give it one owner")


def self_test():
    """A resource written by a module that does not define it is found, and so is a foreign
    resource written by two modules; one written only by its owner (also through a variable,
    a SystemParam field, a NextState, or in a test) is not."""
    import tempfile
    sources = {
        "owner.rs": "#[derive(Resource, Default)]\npub struct Owned(u8);\n"
                    "#[derive(States)]\npub enum Phase { A }\n"
                    "fn a(mut o: ResMut<Owned>, mut n: ResMut<NextState<Phase>>) {}\n"
                    "fn b(app: &mut App) {\n"
                    "    let o = app.world().resource::<Other>().map(Owned::new);\n"
                    "    app.insert_resource(o);\n}\n",
        "thief.rs": "#[derive(SystemParam)]\nstruct P<'w> { o: ResMut<'w, Owned> }\n"
                    "fn c(mut clear: ResMut<ClearColor>) {}\n"
                    "#[cfg(test)]\nmod tests { fn t(w: &mut World) { w.resource_mut::<Phase>(); } }\n",
        "other/mod.rs": "#[derive(Resource)]\npub struct Other;\n"
                        "fn d(mut clear: ResMut<ClearColor>) {}\n",
    }
    with tempfile.TemporaryDirectory() as folder:
        for name, text in sources.items():
            os.makedirs(os.path.dirname(os.path.join(folder, name)), exist_ok=True)
            with open(os.path.join(folder, name), "w") as file:
                file.write(text)
        problems, _ = check(folder)
    expected = [("ClearColor", None, ["other", "thief"]), ("Owned", "owner", ["owner", "thief"])]
    if problems != expected:
        print(f"ownership self-test failed: found {problems}")
        return 1
    print("ownership self-test: passed")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    source_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "src")
    problems, resources = check(source_dir)
    if problems:
        report(problems)
        sys.exit(1)
    print(f"ownership: each of the {resources} resources written in "
          f"{os.path.relpath(source_dir, ROOT)} has one owner")


if __name__ == "__main__":
    main()
