#!/usr/bin/env python3
"""No function of the workspace is longer than 80 lines, from its `fn` line to its closing
brace, tests and benchmarks included: a function that does not fit on a screen does more than
one job. Comments, strings and character literals are blanked before braces are matched, so a
brace inside them does not count. Prints each long function and exits 1, else one line and 0.

Usage: tools/check_functions.py [--limit N] [file or folder …] (default: the whole workspace)
       tools/check_functions.py --self-test   (plants long and short functions; must tell them apart)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMIT = 80
SKIP = {"target", ".git", "node_modules", "build"}
FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")


def blank(text):
    """The text with comments, strings and character literals replaced by spaces (newlines
    kept, so line numbers stay)."""
    out, i, n = [], 0, len(text)

    def spaces(segment):
        return "".join("\n" if ch == "\n" else " " for ch in segment)

    while i < n:
        ch = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif text.startswith("/*", i):
            end, depth = i + 2, 1
            while end < n and depth:
                if text.startswith("/*", end):
                    depth, end = depth + 1, end + 2
                elif text.startswith("*/", end):
                    depth, end = depth - 1, end + 2
                else:
                    end += 1
        elif raw := re.match(r'b?r(#*)"', text[i:i + 260]):
            close = '"' + raw.group(1)
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
        elif ch == '"' or text.startswith('b"', i):
            end = i + (2 if ch == "b" else 1)
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            end += 1
        elif ch == "'" and (char := re.match(r"b?'(\\.[^']*|[^'\\])'", text[i:i + 12])):
            end = i + char.end()
        else:
            out.append(ch)
            i += 1
            continue
        out.append(spaces(text[i:end]))
        i = end
    return "".join(out)


def long_functions(path, limit):
    """(name, first line, length) of each function in the file longer than `limit` lines."""
    with open(path, encoding="utf-8") as f:
        text = blank(f.read())
    found = []
    for match in FN.finditer(text):
        open_at = text.find("{", match.end())
        semicolon = text.find(";", match.end())
        if open_at < 0 or 0 <= semicolon < open_at:
            continue  # a declaration without a body (a trait's required method)
        depth = 0
        for close in range(open_at, len(text)):
            depth += text[close] == "{"
            depth -= text[close] == "}"
            if depth == 0:
                break
        first = text.count("\n", 0, match.start()) + 1
        length = text.count("\n", match.start(), close) + 1
        if length > limit:
            found.append((match.group(1), first, length))
    return found


def rust_files(paths):
    for path in paths:
        if path.endswith(".rs"):
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in SKIP and not d.startswith("."))
            yield from (os.path.join(folder, f) for f in sorted(files) if f.endswith(".rs"))


def self_test():
    """A function of LIMIT + 1 lines is found and one of LIMIT is not, braces in strings,
    characters and comments do not count, lifetimes are not characters, and a trait's
    required method is not a function with a body."""
    import tempfile
    body = lambda n, extra: "\n".join(["    let _ = 0;"] * (n - 2 - len(extra)) + extra)
    tricky = ['    let _ = "}}}";', "    let _ = '{';", "    // }", '    let _ = r#"{"#;']
    source = (f"fn long<'a>(x: &'a u8) {{\n{body(LIMIT + 1, tricky)}\n}}\n"
              f"fn short() {{\n{body(LIMIT, tricky)}\n}}\n"
              "trait T {\n    fn required(&self);\n}\n")
    with tempfile.NamedTemporaryFile("w", suffix=".rs", delete=False) as f:
        f.write(source)
    try:
        found = long_functions(f.name, LIMIT)
    finally:
        os.unlink(f.name)
    if found != [("long", 1, LIMIT + 1)]:
        print(f"functions self-test failed: found {found}")
        return 1
    print("functions self-test: passed")
    return 0


def main(args):
    if args == ["--self-test"]:
        return self_test()
    limit = LIMIT
    if args[:1] == ["--limit"]:
        limit, args = int(args[1]), args[2:]
    paths = args or [ROOT]
    offenders = []
    for path in rust_files(paths):
        for name, line, length in long_functions(path, limit):
            offenders.append(f"{os.path.relpath(path, ROOT)}:{line}: fn {name} is {length} lines")
    for offender in offenders:
        print(offender)
    if offenders:
        print(f"{len(offenders)} functions over {limit} lines")
        return 1
    print(f"functions: none over {limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
