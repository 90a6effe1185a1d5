#!/usr/bin/env python3
"""Every resource of the app has one owner, the only module that writes it; the others read it
or send its owner a message. A resource or state defined in the app (`#[derive(Resource)]`,
`#[derive(States)]`, `#[derive(SubStates)]`) is owned by the top-level module of `src/` that
defines it (`src/hud/state.rs` is in `hud`); a resource the app does not define (Bevy's
`ClearColor`, `Time<Virtual>`) may be written by one module only. `NextState<S>` and `State<S>`
are `S`'s. A module writes a resource when it takes it as `ResMut` (by name or by path,
`crate::play::settings::Settings`) or as `Mut` (from `resource_scope`, `resource_mut`, …), asks for
`resource_mut`, `resource_scope` or `get_resource_or_insert_with`, or inserts, initialises or
removes it (`insert_resource(x)` inserts the type of `x`: a constructor's, a variable's, or the
return type of the method that makes it, read from the source). Three hidden writes count too:
changing it through `&` (interior mutability: a `Cell`, an atomic, a `Mutex` inside; the call of
a mutator such as `store`, `set`, `take`, `lock`, or of one of its methods that calls one on
`self`, through `Res<T>`, `&T`, a clone, a SystemParam's field or `resource::<T>()`); a `ResMut`
of a name given by `use … as` or `type … =`; and using another module's SystemParam that holds
a `ResMut` (itself or in a SystemParam it holds): each module that names it writes. Tests
(`#[cfg(test)]` modules and `tests/`) are left out: they set up the world as they please.
Comments and what strings say are not code.

Prints each resource written by a module other than its owner, or by more than one module (and
where: file:line), and each value inserted whose type it cannot tell, and exits 1; else one line
and 0. It reads names, not types: a value reached another way (a field of a clone of a field)
is not seen.

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
    """The name a resource is known by: paths dropped (`crate::play::settings::Settings` is
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


# Calls that change what they are called on through `&self`: an atomic's, a `Cell`'s, a lock's,
# a `RefCell`'s, or a collection's behind one of them.
MUTATORS = re.compile(r"(?:store|swap|fetch_\w+|compare_exchange\w*|set|take|replace|lock"
                      r"|try_lock|write|borrow_mut|get_or_init|push\w*|pop\w*|drain|insert"
                      r"|remove|clear)")
# A call at the end of a chain of fields: `x.a.0.method(` (x may be `self`).
CHAIN = re.compile(rf"(?<![\w.:])({IDENT})((?:\s*\.\s*(?:{IDENT}|\d+))*)\s*\.\s*({IDENT})\s*"
                   rf"(?:::<[^()]*>)?\s*\(")
# The same from a resource asked for by its type: `world.resource::<T>().a.method(`.
ASKED_CHAIN = re.compile(rf"\.\s*resource(?:_ref)?::<\s*({TYPE})\s*>\s*\(\s*\)"
                         rf"((?:\s*\.\s*(?:{IDENT}|\d+))*)\s*\.\s*({IDENT})\s*(?:::<[^()]*>)?\s*\(")
WRAPPERS = re.compile(r"(?:&|(Res|Option|Arc|Rc|Box|Ref)<(?:'\w+,)?(.*)>)")
FN = re.compile(rf"\bfn\s+({IDENT})")


def aliases_of(sources, defined):
    """The other names of types: `use a::B as C;` and `type C = a::B;` make C a name of B."""
    aliases = {}
    for _, text in sources:
        for statement in re.finditer(r"\buse\b[^;]*;", text):
            for name, alias in re.findall(rf"({IDENT})\s+as\s+({IDENT})", statement.group(0)):
                aliases[alias] = name
        for alias, name in re.findall(rf"\btype\s+({IDENT})\s*=\s*({TYPE})\s*;", text):
            aliases[alias] = base(name)
    return {alias: name for alias, name in aliases.items()
            if alias != name and alias != "_" and alias not in defined}


def resolver(aliases):
    def resolve(name):
        for _ in range(5):
            inner = re.fullmatch(rf"({IDENT})(<.*)?", name)
            if not inner or inner.group(1) not in aliases:
                return name
            name = aliases[inner.group(1)] + (inner.group(2) or "")
        return name
    return resolve


def impl_spans(text):
    """[(start, end, type)] of each `impl … {}` block of a file."""
    spans = []
    for found in re.finditer(rf"\bimpl\b\s*(?:<[^{{]*?>)?\s*(?:{TYPE}\s+for\s+)?({TYPE})[^{{;]*\{{",
                             text):
        spans.append((found.end() - 1, closing(text, found.end() - 1), base(found.group(1))))
    return spans


def impl_at(spans, at):
    inside = [name for start, end, name in spans if start < at < end]
    return inside[-1] if inside else None


def structs(sources, resolve):
    """The fields of each struct: {name: {field: type}} (`0`, `1`, … for a tuple struct's)."""
    fields = {}
    for _, text in sources:
        for found in re.finditer(rf"\bstruct\s+({IDENT})\s*(?:<[^{{(;]*?>)?\s*([{{(])", text):
            body = text[found.end():closing(text, found.end() - 1) - 1]
            parts, depth, part = [], 0, ""
            for c in body:
                depth += c in "<([{"
                depth -= c in ">)]}"
                if c == "," and depth == 0:
                    parts.append(part)
                    part = ""
                else:
                    part += c
            parts.append(part)
            parts = [re.sub(r"#\[[^\]]*\]|\bpub(?:\([^)]*\))?", "", p).strip() for p in parts]
            own = fields.setdefault(found.group(1), {})
            for number, part in enumerate(p for p in parts if p):
                if found.group(2) == "(":
                    own[str(number)] = part
                elif named := re.fullmatch(rf"({IDENT})\s*:\s*(.+)", part, re.S):
                    own[named.group(1)] = named.group(2)
    return fields


def unwrap(type_name, resolve):
    """What a type holds (`Res<'w, T>`, `&T`, `Option<Res<T>>` are T), and whether a `Res`
    lends it."""
    type_name, through_res = re.sub(r"<(?:'\w+,?)+>$", "", base(type_name.strip())), False
    while wrapped := WRAPPERS.fullmatch(type_name):
        through_res |= wrapped.group(1) == "Res"
        type_name = (wrapped.group(2) if wrapped.group(1) else type_name[1:]).strip()
        type_name = re.sub(r"^mut\b", "", type_name).strip()
    return resolve(type_name), through_res


def writing_methods(sources, resolve):
    """The methods that change a value through `&self`: {type: {method}} (their bodies call a
    mutator on something of `self`, or another such method)."""
    methods = {}
    for _, text in sources:
        spans = impl_spans(text)
        for found in re.finditer(rf"\bfn\s+({IDENT})\s*(?:<[^(]*>)?\s*\(\s*&\s*(?:'\w+\s+)?self\b",
                                 text):
            owner = impl_at(spans, found.start())
            brace = text.find("{", found.end())
            if owner is None or brace < 0 or ";" in text[found.end():brace]:
                continue
            body = text[brace:closing(text, brace)]
            methods.setdefault(resolve(owner), {})[found.group(1)] = body
    writing = {owner: set() for owner in methods}
    changed = True
    while changed:
        changed = False
        for owner, bodies in methods.items():
            for name, body in bodies.items():
                calls = re.findall(rf"\bself\b[^;{{}}]*?\.\s*({IDENT})\s*\(", body)
                if name not in writing[owner] and any(
                        MUTATORS.fullmatch(call) or call in writing[owner] for call in calls):
                    writing[owner].add(name)
                    changed = True
    return writing


def interior_writes(text, context, own_types):
    """The resources changed through `&` in a file: [(resource, offset)]. A type the module
    defines itself is its own, though a resource elsewhere has its name."""
    defined, made, fields, writing, resolve = context
    spans, found_writes = impl_spans(text), []

    def writes(resource, method):
        return MUTATORS.fullmatch(method) or method in writing.get(resource, ())

    for call in CHAIN.finditer(text):
        root, path, method = call.group(1), call.group(2), call.group(3)
        if root == "self":
            held = impl_at(spans, call.start())
            if held is None:
                continue
            held, through_res = unwrap(held, resolve)
        else:
            starts = [f.start() for f in FN.finditer(text, 0, call.start())]
            before = text[starts[-1] if starts else 0:call.start()]
            declared = variable_type(root, before, defined, made, 0)
            if declared is None:
                continue
            held, through_res = unwrap(declared, resolve)
        steps = [step for step in re.split(r"\s*\.\s*", path.strip()) if step]
        while held not in defined and not through_res and steps and held in fields:
            declared = fields[held].get(steps.pop(0))
            if declared is None:
                break
            held, through_res = unwrap(declared, resolve)
        if held in own_types and defined.get(held) != own_types[held]:
            continue
        if (held in defined or through_res) and writes(held, method):
            found_writes.append((held, call.start()))
    for call in ASKED_CHAIN.finditer(text):
        held = resolve(base(call.group(1)))
        if writes(held, call.group(3)):
            found_writes.append((held, call.start()))
    return found_writes


def system_params(sources, source_dir, resolve):
    """What each SystemParam writes, itself or through the SystemParams it holds:
    {name: [(module, {resource})]}."""
    bodies = {}
    for path, text in sources:
        for found in DEFINED.finditer(text):
            if not re.search(r"\bSystemParam\b", found.group(1)):
                continue
            opening = re.compile(r"[{(;]").search(text, found.end())
            body = text[opening.start():closing(text, opening.start())] if opening else ""
            bodies.setdefault(found.group(2), []).append((module_of(source_dir, path), body))

    def writes(name, seen):
        out = set()
        for _, body in bodies.get(name, []):
            out |= {resolve(base(m.group(1))) for pattern in WRITES for m in pattern.finditer(body)}
            for word in set(re.findall(rf"\b{IDENT}\b", body)):
                word = resolve(word)
                if word in bodies and word not in seen:
                    out |= writes(word, seen | {word})
        return out

    return {name: [(module, writes(name, {name})) for module, _ in found]
            for name, found in bodies.items()}


def check(source_dir):
    """The problems: (resource, owner or None, writers) for each resource written wrongly, and
    (what was inserted, "?", module) for each value whose type cannot be told; how many
    resources are written; and where each module writes each: {(resource, module): [place]}."""
    sources = list(files(source_dir))
    defined, types = {}, {}
    for path, text in sources:
        module = module_of(source_dir, path)
        for derive, name in DEFINED.findall(text):
            if OWNED_DERIVES.search(derive):
                defined[name] = module
        for name in re.findall(rf"\b(?:struct|enum)\s+({IDENT})", text):
            types.setdefault(module, {})[name] = module
    resolve = resolver(aliases_of(sources, defined))
    made = returns(sources)
    context = (defined, made, structs(sources, resolve), writing_methods(sources, resolve), resolve)
    params = system_params(sources, source_dir, resolve)
    writers, unknown, places = {}, [], {}
    for path, text in sources:
        module = module_of(source_dir, path)
        written = [(base(m.group(1)), m.start())
                   for pattern in WRITES for m in pattern.finditer(text)]
        written += [(t, m.start()) for m in MUT.finditer(text)
                    if (t := resolve(base(m.group(1)))) in defined]
        for found in VALUE_WRITES.finditer(text):
            end = closing(text, found.end() - 1)
            value = text[found.end():end - 1]
            inserted = expr_type(value, text[:found.start()], defined, made)
            if inserted:
                written.append((inserted, found.start()))
            else:
                where = os.path.relpath(path, source_dir)
                unknown.append((f"{found.group(1)}({' '.join(value.split())})", "?", [where]))
        written += interior_writes(text, context, types.get(module, {}))
        # A SystemParam of another module that holds a ResMut writes for this one.
        for word in re.finditer(rf"\b{IDENT}\b", text):
            found = params.get(resolve(word.group(0)), [])
            if all(definer != module for definer, _ in found):
                written += [(resource, word.start()) for _, held in found for resource in held]
        for resource, at in written:
            resource = resolve(resource)
            writers.setdefault(resource, set()).add(module)
            line = text.count("\n", 0, at) + 1
            places.setdefault((resource, module), []).append(
                f"{os.path.relpath(path, source_dir)}:{line}")
    problems = []
    for resource, modules in sorted(writers.items()):
        owner = defined.get(resource)
        if owner is not None and modules != {owner}:
            problems.append((resource, owner, sorted(modules)))
        elif owner is None and len(modules) > 1:
            problems.append((resource, None, sorted(modules)))
    return problems + unknown, len(writers), places


def report(problems, places):
    for resource, owner, modules in problems:
        if owner == "?":
            print(f"{modules[0]}: cannot tell what {resource} writes: name its type "
                  f"(`let x: T = …`, or a turbofish)")
            continue
        if owner:
            print(f"{resource} is {owner}'s, but written by "
                  f"{', '.join(m for m in modules if m != owner)}")
        else:
            print(f"{resource} is written by {', '.join(modules)}: give it one owner")
        for module in modules:
            if module != owner:
                print(f"  {module}: {', '.join(sorted(set(places[(resource, module)])))}")


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
    # Interior mutability through `Res` is a write: a method of the resource that changes it
    # through `&self` (an atomic's `store`, a `Cell`'s `set`, a `Mutex`'s `lock`, …, or another
    # such method), or such a call on its fields, made through `Res<T>`, `&T`, a clone of one,
    # a SystemParam's field or `resource::<T>()`. Reading (`load`, `get`, `asked`) is not.
    ("interior_mutability", {
        "owner.rs": OWNER[1] + "#[derive(Resource, Clone, Default)]\n"
                    "pub struct Wants(Arc<AtomicBool>);\nimpl Wants {\n"
                    "    pub fn ask(&self) { self.0.store(true, Ordering::Relaxed); }\n"
                    "    pub fn asked(&self) -> bool { self.0.load(Ordering::Relaxed) }\n"
                    "    pub fn again(&self) { self.ask() }\n}\n"
                    "#[derive(Resource, Default)]\npub struct Slot { value: Mutex<Option<u8>> }\n"
                    "#[derive(Resource, Default)]\npub struct Seen(Cell<u8>);\n",
        "thief.rs": "fn c(wants: Res<Wants>) {\n    let wants = wants.clone();\n"
                    "    std::thread::spawn(move || wants.ask());\n}\n"
                    "fn d(slot: Res<crate::owner::Slot>) { slot.value.lock().unwrap().take(); }\n"
                    "fn e(world: &World) { world.resource::<Seen>().0.set(2); }\n",
        "other.rs": "fn f(w: Res<Wants>, seen: &Seen) -> bool { let _ = seen.0.get(); w.asked() }\n"
                    "#[derive(SystemParam)]\nstruct Mine<'w> { wants: Res<'w, Wants> }\n"
                    "impl Mine<'_> {\n    fn go(&self) { self.wants.again(); }\n}\n"
                    "fn g(flag: Res<Foreign>) { flag.0.store(true, Ordering::Relaxed); }\n",
        "user.rs": "fn h(flag: Res<Foreign>) { flag.take(); }\n",
    }, [("Foreign", None, ["other", "user"]), ("Seen", "owner", ["thief"]),
        ("Slot", "owner", ["thief"]), ("Wants", "owner", ["other", "owner", "thief"])]),
    # A type known by another name is that type: `use … as`, `type X = …`.
    ("aliased", {
        "owner.rs": OWNER[1] + "#[derive(Resource, Default)]\npub struct Settings;\n",
        "thief.rs": "use crate::owner::Settings as Prefs;\n"
                    "use bevy::prelude::ClearColor as Clear;\n"
                    "fn c(mut p: ResMut<Prefs>, mut c: ResMut<Clear>) {}\n",
        "other.rs": "use crate::owner::{Owned, Phase as Stage};\n"
                    "type Kept = crate::owner::Settings;\n"
                    "fn d(mut n: ResMut<NextState<Stage>>, k: ResMut<Kept>,\n"
                    "     c: ResMut<ClearColor>) {}\n",
    }, [("ClearColor", None, ["other", "thief"]), ("Phase", "owner", ["other", "owner"]),
        ("Settings", "owner", ["other", "thief"])]),
    # A SystemParam that holds a `ResMut` (itself or through another SystemParam) writes for
    # each module that uses it; one that only reads does not.
    ("system_param_exported", {
        "owner.rs": OWNER[1] + "#[derive(SystemParam)]\n"
                    "pub struct Writer<'w> {\n    o: ResMut<'w, Owned>,\n"
                    "    n: ResMut<'w, NextState<Phase>>,\n}\n"
                    "#[derive(SystemParam)]\npub struct Reader<'w> { o: Res<'w, Owned> }\n",
        "thief.rs": "use crate::owner::Writer;\n"
                    "fn c(mut w: Writer, r: crate::owner::Reader) { w.save(); }\n",
        "other.rs": "#[derive(SystemParam)]\n"
                    "pub struct Wrapped<'w> { inner: crate::owner::Writer<'w> }\n",
        "user.rs": "fn e(w: crate::other::Wrapped) {}\n",
    }, [("Owned", "owner", ["other", "owner", "thief", "user"]),
        ("Phase", "owner", ["other", "owner", "thief", "user"])]),
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
            problems, _, _ = check(folder)
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
    problems, resources, places = check(source_dir)
    if problems:
        report(problems, places)
        sys.exit(1)
    print(f"ownership: each of the {resources} resources written in "
          f"{os.path.relpath(source_dir, ROOT)} has one owner")


if __name__ == "__main__":
    main()
