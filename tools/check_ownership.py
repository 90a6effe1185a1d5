#!/usr/bin/env python3
"""Every resource of the app has one owner, the only module that writes it; the others read it
or send its owner a message. A resource or state defined in the app (`#[derive(Resource)]`,
`#[derive(States)]`, `#[derive(SubStates)]`) is owned by the top-level module of `src/` that
defines it (`src/hud/state.rs` is in `hud`); a resource the app does not define (Bevy's
`ClearColor`, `Time<Virtual>`) may be written by one module only. `NextState<S>` and `State<S>`
are `S`'s. A module writes a resource when it takes it as `ResMut` (by name or by path,
`crate::settings::Settings`) or as `Mut` (from `resource_scope`, `resource_mut`, …), asks for
`resource_mut`, `resource_scope` or `get_resource_or_insert_with`, or inserts, initialises or
removes it (`insert_resource(x)` inserts the type of `x`: a constructor's, a variable's, or the
return type of the method that makes it, read from the source). Tests (`#[cfg(test)]` modules
and `tests/`) are left out: they set up the world as they please. Comments and what strings say
are not code.

Prints each resource written by a module other than its owner, or by more than one module, and
each value inserted whose type it cannot tell, and exits 1; else one line and 0.

Usage: tools/check_ownership.py [source folder] (default: src/)
       tools/check_ownership.py --self-test   (runs CASES below: each must find what it says)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
PATH = rf"(?:::)?(?:{IDENT}::)*{IDENT}"
TYPE = rf"{PATH}(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>)?"
LIFETIME = r"(?:'\w+\s*,\s*)?"
DEFINED = re.compile(rf"#\[derive\(([^)]*)\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?"
                     rf"(?:struct|enum)\s+({IDENT})")
OWNED_DERIVES = re.compile(r"\b(?:Resource|States|SubStates)\b")
# Writes that name their type, whatever it is.
WRITES = [
    re.compile(rf"\bResMut<\s*{LIFETIME}({TYPE})\s*>"),
    re.compile(rf"\b(?:get_)?resource_mut::<({TYPE})>"),
    re.compile(rf"\b(?:init_resource|get_resource_or_init|get_resource_or_insert_with"
               rf"|remove_resource|resource_scope|init_state|add_sub_state|add_computed_state)"
               rf"::<\s*({TYPE})\s*[,>]"),
    # The resource `resource_scope` lends its closure: `|world, mut x: Mut<T>|`.
    re.compile(rf"\bresource_scope\s*\(\s*(?:move\s*)?\|[^|]*:\s*Mut<\s*{LIFETIME}({TYPE})\s*>"),
]
# `Mut<T>` elsewhere is a write when T is one of the app's resources (it is also a component's).
MUT = re.compile(rf"(?<![A-Za-z0-9_])Mut<\s*{LIFETIME}({TYPE})\s*>")
# Calls that write the type of the value they are given (unless a turbofish names it: WRITES).
VALUE_WRITES = re.compile(r"\b(insert_resource|insert_state|set_state|get_resource_or_insert_with)"
                          r"\s*\(")
# Methods that give back the type they are called on, or the type they are asked for.
SAME = {"clone", "cloned", "copied", "to_owned", "unwrap", "expect", "unwrap_or_default",
        "unwrap_or", "unwrap_or_else"}
ASKED = {"resource", "resource_mut", "get_resource", "get_resource_mut", "resource_ref"}
RAW_STRING = re.compile(r'b?r(#*)"')
CHARACTER = re.compile(r"'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^'\\\n])'")


def blank(text):
    """The text with its comments removed and its strings' and characters' contents blanked
    (a `"//"` in a string starts no comment; lines are kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else "")
                    i += 1
        elif (raw := RAW_STRING.match(text, i)) and not re.match(r"\w", text[i - 1:i]):
            end = text.find('"' + raw.group(1), raw.end())
            end = n if end < 0 else end
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end + 1 + len(raw.group(1))
        elif c == '"':
            i += 1
            newlines = 0
            while i < n and text[i] != '"':
                step = 2 if text[i] == "\\" else 1
                newlines += text.count("\n", i, i + step)
                i += step
            out.append('""' + "\n" * newlines)
            i += 1
        elif c == "'" and (char := CHARACTER.match(text, i)):
            out.append("' '")
            i = char.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip(text):
    """The code of a file: no comments, no strings' contents, no `#[cfg(test)]` modules (a test
    module's braces are matched to find its end)."""
    text = blank(text)
    while True:
        found = re.search(r"#\[cfg\(test\)\]\s*(?:pub\s+)?mod\s+\w+\s*\{", text)
        if not found:
            return text
        end = closing(text, found.end() - 1)
        text = text[:found.start()] + text[end:]


def closing(text, at):
    """The index just after the bracket that closes the one at `at` (`(`, `[`, `{` or `<`)."""
    pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
    opening, depth = text[at], 0
    for end in range(at, len(text)):
        depth += text[end] == opening
        depth -= text[end] == pairs[opening]
        if depth == 0:
            return end + 1
    return len(text)


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
    """The name a resource is known by: paths dropped (`crate::settings::Settings` is
    `Settings`), `NextState<Phase>` and `State<Phase>` are `Phase`'s."""
    type_name = re.sub(rf"(?:\b{IDENT})?::", "", type_name.replace(" ", ""))
    inner = re.fullmatch(rf"(?:Next)?State<({IDENT})>", type_name)
    return inner.group(1) if inner else type_name


def is_type(name, defined):
    return name in defined or name[:1].isupper()


def returns(sources):
    """What each function of the source returns: {name: {type}} and {(impl type, name): type}
    (`Self` is the impl's type)."""
    by_name, by_impl = {}, {}
    for _, text in sources:
        impls = []
        for found in re.finditer(rf"\bimpl\b\s*(?:<[^{{]*?>)?\s*(?:{TYPE}\s+for\s+)?"
                                 rf"({TYPE})[^{{;]*\{{", text):
            impls.append((found.end() - 1, closing(text, found.end() - 1), base(found.group(1))))
        for found in re.finditer(rf"\bfn\s+({IDENT})\s*(?:<[^(]*>)?\s*\(", text):
            after = closing(text, found.end() - 1)
            arrow = re.match(rf"\s*->\s*({TYPE})", text[after:])
            if not arrow:
                continue
            owner = [name for start, end, name in impls if start < found.start() < end]
            value = base(arrow.group(1))
            if value == "Self" and owner:
                value = owner[-1]
            by_name.setdefault(found.group(1), set()).add(value)
            if owner:
                by_impl[(owner[-1], found.group(1))] = value
    return by_name, by_impl


def expr_type(expr, before, defined, made, depth=0):
    """The type of an expression, or None: a constructor's (`ClearColor(…)`, `Owned { … }`,
    `Phase::Won`, `Kept::default`, `DataDir::for_options(…)`: its return type, else its type),
    a closure's value, a variable's type (its `let` in `before`, or a parameter), or the return
    type of the last method called on it (`Mode::Fast.settings()` is what `settings` returns;
    `.clone()`, `.unwrap_or_default()` keep the type; `.resource::<T>()` is `T`)."""
    by_name, by_impl = made
    expr = expr.strip()
    closure = re.match(r"(?:move\s*)?\|[^|]*\|\s*", expr)
    if closure:
        expr = expr[closure.end():].strip()
        if expr.startswith("{"):
            expr = expr[1:closing(expr, 0) - 1].split(";")[-1]
        return expr_type(expr, before, defined, made, depth)
    expr = re.sub(r"^(?:&\s*)?(?:mut\s+)?", "", expr)
    head = re.match(rf"(?:::)?(?:{IDENT}(?:::<[^>]*>)?::)*{IDENT}", expr)
    if not head or depth > 4:
        return None
    # The calls after the head: [(method or None for the head's own call, turbofish, args)].
    calls, i = [], head.end()
    while i < len(expr):
        rest = expr[i:]
        gap = len(rest) - len(rest.lstrip())
        i += gap
        if i >= len(expr):
            break
        if expr[i] in "({[":
            end = closing(expr, i)
            if calls and calls[-1][2] is None:
                calls[-1] = (calls[-1][0], calls[-1][1], expr[i + 1:end - 1])
            elif not calls:
                calls.append((None, None, expr[i + 1:end - 1]))
            i = end
        elif expr[i] == ".":
            method = re.match(rf"\.\s*({IDENT})\s*(?:::<(.*?)>(?=\s*\())?", expr[i:])
            if not method:
                return None
            calls.append((method.group(1), method.group(2), None))
            i += method.end()
        elif expr[i] == "?":
            i += 1
        else:
            return None
    for method, turbofish, args in reversed([c for c in calls if c[0]]):
        if method in SAME:
            continue
        if method in ASKED and turbofish:
            return base(turbofish)
        if method == "map" and args:
            return expr_type(args, before, defined, made, depth + 1)
        found = by_name.get(method, set())
        return next(iter(found)) if len(found) == 1 else None
    segments = [re.sub(r"::<.*", "", s) for s in head.group(0).strip(":").split("::")]
    types = [s for s in segments if is_type(s, defined)]
    if types:
        last = segments.index(types[-1])
        after = segments[last + 1] if last + 1 < len(segments) else None
        if after and not after.isupper() and not is_type(after, defined):
            return by_impl.get((types[-1], after), types[-1])
        return types[-1]
    if len(segments) > 1:
        return None
    return variable_type(segments[0], before, defined, made, depth + 1)


def variable_type(name, before, defined, made, depth):
    """The type of a variable: its last `let` before (`let x: T`, else its value's), else the
    last parameter of that name (`x: T`)."""
    bindings = list(re.finditer(rf"\blet\s+(?:mut\s+)?{re.escape(name)}\s*(?::\s*({TYPE}))?\s*="
                                rf"([^;]*);", before))
    if bindings:
        annotated, value = bindings[-1].groups()
        if annotated:
            return base(annotated)
        return expr_type(value, before[:bindings[-1].start()], defined, made, depth)
    params = re.findall(rf"\b{re.escape(name)}\s*:\s*&?\s*(?:mut\s+)?({TYPE})", before)
    return base(params[-1]) if params else None


def check(source_dir):
    """The problems: (resource, owner or None, writers) for each resource written wrongly, and
    (what was inserted, "?", module) for each value whose type cannot be told."""
    sources = list(files(source_dir))
    defined = {}
    for path, text in sources:
        for derive, name in DEFINED.findall(text):
            if OWNED_DERIVES.search(derive):
                defined[name] = module_of(source_dir, path)
    made = returns(sources)
    writers, unknown = {}, []
    for path, text in sources:
        module = module_of(source_dir, path)
        written = [base(m.group(1)) for pattern in WRITES for m in pattern.finditer(text)]
        written += [t for t in (base(m.group(1)) for m in MUT.finditer(text)) if t in defined]
        for found in VALUE_WRITES.finditer(text):
            end = closing(text, found.end() - 1)
            value = text[found.end():end - 1]
            inserted = expr_type(value, text[:found.start()], defined, made)
            if inserted:
                written.append(inserted)
            else:
                where = os.path.relpath(path, source_dir)
                unknown.append((f"{found.group(1)}({' '.join(value.split())})", "?", [where]))
        for resource in written:
            writers.setdefault(resource, set()).add(module)
    problems = []
    for resource, modules in sorted(writers.items()):
        owner = defined.get(resource)
        if owner is not None and modules != {owner}:
            problems.append((resource, owner, sorted(modules)))
        elif owner is None and len(modules) > 1:
            problems.append((resource, None, sorted(modules)))
    return problems + unknown, len(writers)


def report(problems):
    for resource, owner, modules in problems:
        if owner == "?":
            print(f"{modules[0]}: cannot tell what {resource} writes: name its type "
                  f"(`let x: T = …`, or a turbofish)")
        elif owner:
            others = [m for m in modules if m != owner]
            print(f"{resource} is {owner}'s, but written by {', '.join(others)}")
        else:
            print(f"{resource} is written by {', '.join(modules)}: give it one owner")


# The self-test's cases: (name, the files of a source folder, the problems it must find).
OWNER = ("owner.rs", "#[derive(Resource, Default)]\npub struct Owned(u8);\n"
                     "#[derive(States, Default)]\npub enum Phase { #[default] A }\n"
                     "fn a(mut o: ResMut<Owned>, mut n: ResMut<NextState<Phase>>) {}\n")
CASES = [
    # A resource written by a module that does not define it is found, and so is a foreign
    # resource written by two modules; one written only by its owner (through a variable, a
    # SystemParam field, a NextState, or in a test) is not.
    ("shared", {
        "owner.rs": OWNER[1] + "fn b(app: &mut App) {\n"
                    "    let o = app.world().resource::<Other>().map(Owned::new);\n"
                    "    app.insert_resource(o);\n}\n",
        "thief.rs": "#[derive(SystemParam)]\nstruct P<'w> { o: ResMut<'w, Owned> }\n"
                    "fn c(mut clear: ResMut<ClearColor>) {}\n"
                    "#[cfg(test)]\nmod tests {\n"
                    "    fn t(w: &mut World) { w.resource_mut::<Phase>(); }\n}\n",
        "other/mod.rs": "#[derive(Resource)]\npub struct Other;\n"
                        "fn d(mut clear: ResMut<ClearColor>) {}\n",
    }, [("ClearColor", None, ["other", "thief"]), ("Owned", "owner", ["owner", "thief"])]),
    # A type named by its path is the type: `crate::owner::Owned` is `Owned`.
    ("path_qualified", {
        "owner.rs": OWNER[1],
        "thief.rs": "fn c(mut o: ResMut<crate::owner::Owned>,\n"
                    "     mut t: ResMut<bevy::time::Time<bevy::time::Virtual>>) {}\n",
        "other.rs": "fn d(mut t: ResMut<'_, Time<Virtual>>) {}\n",
    }, [("Owned", "owner", ["owner", "thief"]), ("Time<Virtual>", None, ["other", "thief"])]),
    # A state belongs to the module that defines it: another module's NextState of it is found.
    ("next_state_of_another", {
        "owner.rs": OWNER[1] + "fn b(app: &mut App) { app.init_state::<Phase>(); }\n",
        "thief.rs": "fn c(mut next: ResMut<NextState<Phase>>) {}\n"
                    "#[derive(SubStates, Clone, PartialEq, Eq, Hash, Debug, Default)]\n"
                    "#[source(Phase = Phase::A)]\nenum Inner { #[default] B }\n",
        "other.rs": "fn d(mut next: ResMut<NextState<Inner>>) {}\n",
    }, [("Inner", "thief", ["other"]), ("Phase", "owner", ["owner", "thief"])]),
    # `resource_scope` lends the resource to its closure as `Mut<T>` (named there or in the
    # turbofish); a `Mut<T>` of an app's resource anywhere else is a write too.
    ("resource_scope", {
        "owner.rs": OWNER[1] + "#[derive(Resource)]\npub struct Kept;\n"
                    "#[derive(Resource)]\npub struct Held;\n",
        "thief.rs": "fn c(world: &mut World) {\n"
                    "    world.resource_scope(|world, mut owned: Mut<Owned>| owned.0 += 1);\n"
                    "    world.resource_scope::<Kept, _>(|world, kept| {});\n"
                    "    let held: Mut<'_, Held> = world.resource_mut();\n}\n",
    }, [("Held", "owner", ["thief"]), ("Kept", "owner", ["thief"]),
        ("Owned", "owner", ["owner", "thief"])]),
    # `get_resource_or_insert_with` inserts (the type of what its closure makes) and lends it.
    ("get_resource_or_insert_with", {
        "owner.rs": OWNER[1] + "#[derive(Resource, Default)]\npub struct Kept;\n"
                    "#[derive(Resource, Default)]\npub struct Held;\n",
        "thief.rs": "fn c(world: &mut World) {\n"
                    "    world.get_resource_or_insert_with(|| Owned(3)).0 += 1;\n"
                    "    world.get_resource_or_insert_with(Kept::default);\n"
                    "    world.get_resource_or_insert_with::<Held>(Default::default);\n}\n",
    }, [("Held", "owner", ["thief"]), ("Kept", "owner", ["thief"]),
        ("Owned", "owner", ["owner", "thief"])]),
    # A "//" or "/*" in a string, or a quote in a character, starts no comment: the code after
    # it on the line is read. What a string says is not code.
    ("slashes_in_a_string", {
        "owner.rs": OWNER[1] + "fn s() -> &'static str { \"ResMut<ClearColor> // \\\" \" }\n",
        "thief.rs": "const URL: &str = \"https://example.org\"; fn c(o: ResMut<Owned>) {}\n"
                    "const RAW: &str = r#\"a \"/*\" b\"#; fn d(c: ResMut<ClearColor>) {}\n"
                    "const Q: char = '\"'; fn e(t: ResMut<Time<Virtual>>) {} // */ \"\n",
        "other.rs": "fn f(c: ResMut<ClearColor>, t: ResMut<Time<Virtual>>) {}\n"
                    "/* \"ResMut<Owned>\" */\n",
    }, [("ClearColor", None, ["other", "thief"]), ("Owned", "owner", ["owner", "thief"]),
        ("Time<Virtual>", None, ["other", "thief"])]),
    # What a method returns is what it inserts: `Mode::Fast.settings()` inserts WinitSettings
    # (the method's return type), not a Mode.
    ("inserted_by_a_method", {
        "owner.rs": OWNER[1] + "#[derive(Clone, Copy)]\npub enum Mode { Fast }\n"
                    "impl Mode {\n    pub fn settings(self) -> WinitSettings { todo!() }\n"
                    "    pub fn owned(self) -> Owned { todo!() }\n}\n"
                    "fn b(app: &mut App) {\n    app.insert_resource(Mode::Fast.settings());\n}\n",
        "thief.rs": "fn c(app: &mut App) {\n"
                    "    app.insert_resource(crate::owner::Mode::Fast.owned());\n}\n",
        "other.rs": "fn d(mut w: ResMut<WinitSettings>) {}\n",
    }, [("Owned", "owner", ["owner", "thief"]), ("WinitSettings", None, ["other", "owner"])]),
]


def self_test():
    """Runs each case of CASES in a folder of its own: each must find what it expects."""
    import tempfile
    failed = 0
    for name, sources, expected in CASES:
        with tempfile.TemporaryDirectory() as folder:
            for path, text in sources.items():
                os.makedirs(os.path.dirname(os.path.join(folder, path)), exist_ok=True)
                with open(os.path.join(folder, path), "w") as file:
                    file.write(text)
            problems, _ = check(folder)
        if problems != expected:
            print(f"ownership self-test {name}: failed\n"
                  f"  found    {problems}\n  expected {expected}")
            failed += 1
    if failed:
        return 1
    print(f"ownership self-test: the {len(CASES)} cases passed")
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
