#!/usr/bin/env python3
"""No module imports one that imports it back: for every crate of the workspace, the modules'
references to each other through `crate::` and `super::` paths (in `use` items, groups
included, and inline in code) must form no cycle. A child's `super::` to its parent is an
edge like any other; the parent's `mod child;` is not (it owns the child, it does not import
it). Prints each cycle found and exits 1, else one line and 0.

In the app (`src/`), the HUD depends on the game and is told by it, never the other way: no
module outside `hud` imports it (only the app's assembly, lib.rs and main.rs, names both).

Usage: tools/check_imports.py [crate source folder …] (default: every crate of the workspace)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRATES = ["src", "crates/npuzzle/src", "crates/npuzzle-cli/src", "crates/challenge/src", "crates/game/src",
          "crates/photo/src", "crates/atomic-file/src", "crates/journal/src", "crates/server/src",
          "crates/board-client/src",
          "android/bridge/src", "android/native/src"]
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def module_of(source_dir, path):
    """The module path (a tuple) of a file: lib.rs/main.rs the root, a/mod.rs and a.rs `a`."""
    parts = os.path.relpath(path, source_dir)[:-3].split(os.sep)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def expand(tree):
    """The paths a `use` tree names: `a::{b, c::{d}}` gives a::b and a::c::d."""
    tree = tree.strip()
    if not tree:
        return []
    brace = tree.find("{")
    if brace < 0:
        return [tree.split(" as ")[0].strip()]
    prefix, inner = tree[:brace], tree[brace + 1:tree.rfind("}")]
    items, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            items.append(inner[start:i])
            start = i + 1
    items.append(inner[start:])
    return [prefix + path for item in items for path in expand(item)]


def inline_modules(text):
    """The spans of the inline modules (`mod tests { … }`) in a file."""
    spans = []
    for found in re.finditer(rf"\bmod\s+{IDENT}\s*\{{", text):
        depth, end = 0, found.end() - 1
        for end in range(found.end() - 1, len(text)):
            depth += text[end] == "{"
            depth -= text[end] == "}"
            if depth == 0:
                break
        spans.append((found.start(), end))
    return spans


def referenced_paths(text):
    """Every `crate::…` and `super::…` path in a file, as the file's module sees it: inside an
    inline module, its own `super::`s are taken off (`super::*` in `mod tests` is the file)."""
    text = strip_comments(text)
    spans = inline_modules(text)
    found = []
    for use in re.finditer(r"\buse\s+([^;]+);", text):
        found += [(p, use.start()) for p in expand(use.group(1))
                  if p.startswith(("crate::", "super::"))]
    for inline in re.finditer(rf"\b(?:crate|super)(?:::{IDENT})+", text):
        if not re.search(r"\buse\s+[^;]*$", text[:inline.start()].rsplit(";", 1)[-1]):
            found.append((inline.group(0), inline.start()))
    paths = []
    for path, at in found:
        depth = sum(start <= at <= end for start, end in spans)
        while depth and path.startswith("super::"):
            path, depth = "self::" + path[len("super::"):], depth - 1
            path = path.replace("self::super::", "super::")
        paths.append(path)
    return paths


def resolve(path, here, modules):
    """The module a path lands in: its longest prefix that is a module."""
    segments = path.replace(" ", "").split("::")
    if segments[0] == "crate":
        base, rest = (), segments[1:]
    elif segments[0] == "self":
        base, rest = here, segments[1:]
    else:
        # `super` is the parent module (of `a::b`, whether a/b.rs or a/b/mod.rs, it is `a`).
        base, rest = here, segments
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    target = base
    for segment in rest:
        if base + (segment,) in modules:
            base = base + (segment,)
            target = base
        else:
            break
    return target


def graph(source_dir):
    files = {}
    for folder, _, names in os.walk(source_dir):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(folder, name)
                files[module_of(source_dir, path)] = path
    modules = set(files)
    edges = {module: set() for module in modules}
    for module, path in files.items():
        with open(path, encoding="utf-8") as file:
            text = file.read()
        for referenced in referenced_paths(text):
            target = resolve(referenced, module, modules)
            if target != module and target in modules:
                edges[module].add(target)
    return edges


def cycles(edges):
    """The strongly connected components of more than one module (Tarjan's)."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for next_node in sorted(edges[node]):
            if next_node not in index:
                visit(next_node)
                low[node] = min(low[node], low[next_node])
            elif next_node in on_stack:
                low[node] = min(low[node], index[next_node])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def name(module):
    return "::".join(module) or "crate"


# In these crates, the modules (first segment) that only the crate's root and their own
# submodules may import.
TOLD_ONLY = {"src": ["hud"]}


def told_only(source_dir, edges):
    """The imports of a module that is only told, by a module other than the root and its own."""
    found = []
    for guarded in TOLD_ONLY.get(os.path.relpath(source_dir, ROOT), []):
        for module in sorted(edges):
            if module and module[0] != guarded:
                found += [f"{name(module)} imports {name(target)}: {guarded} is told, never asked"
                          for target in sorted(edges[module]) if target[:1] == (guarded,)]
    return found


def main():
    dirs = sys.argv[1:] or [os.path.join(ROOT, d) for d in CRATES]
    problems = 0
    for source_dir in dirs:
        edges = graph(source_dir)
        for found in told_only(source_dir, edges):
            problems += 1
            print(f"{os.path.relpath(source_dir, ROOT)}: {found}")
        for component in cycles(edges):
            problems += 1
            members = set(component)
            links = [f"{name(a)} → {name(b)}" for a in component for b in sorted(edges[a])
                     if b in members]
            print(f"import cycle in {os.path.relpath(source_dir, ROOT)}: "
                  + ", ".join(links))
    if problems:
        sys.exit(1)
    print(f"imports: no cycle in {len(dirs)} crates, and nothing outside hud/ imports it")


if __name__ == "__main__":
    main()
