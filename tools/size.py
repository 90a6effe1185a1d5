#!/usr/bin/env python3
"""What a build of the game weighs, for `make size` (standard library only).

    tools/size.py BINARY [--map LINKER.map] [--top N]
    tools/size.py --self-test    (the names' crates and the map's lines, no build)

Prints the binary's size, its size at gzip -9, the assets folder's size at gzip -9 (a tar of
assets/; the game embeds those files with include_bytes!, so they are already inside the
binary and the total does not add them twice), and the N biggest crates (10 by default) by
the bytes of code and read-only data the linker kept of each.

The crates come from the linker's map when one is given (a stripped build keeps no symbol
table: `make store` has the linker write a map beside the binary), else from the symbol
table (`nm`, for an unstripped build such as `--release`). Code is counted where it ended up
after inlining and LTO, under the crate whose function holds it; a generic function counts
under the crate that defines it. Anonymous constants and what no symbol names count as
"(unnamed)".
"""

import argparse
import gzip
import io
import re
import subprocess
import sys
import tarfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# An lld map's input-section line: VMA LMA Size Align, then `file:(section)`.
MAP_SECTION = re.compile(r"^\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s+\S.*:\((\.\S+)\)$")
ESCAPES = {"$LT$": "<", "$GT$": ">", "$u20$": " ", "$RF$": "&", "$BP$": "*", "$C$": ",",
           "$u5b$": "[", "$u5d$": "]", "$u7b$": "{", "$u7d$": "}", "$u27$": "'", "$LP$": "(",
           "$RP$": ")", "..": "::"}


def first_component(mangled):
    """The first path component of a legacy-mangled Rust name (`_ZN...`), unescaped, or None
    (the standard library comes v0-mangled, `_R...`: [`crate_of`] reads its first crate)."""
    found = re.search(r"_ZN(\d+)", mangled)
    if not found:
        return None
    start = found.end()
    component = mangled[start:start + int(found.group(1))]
    for escape, text in ESCAPES.items():
        component = component.replace(escape, text)
    return component.lstrip("_")


def crate_of(name):
    """The crate a symbol or section name belongs to: for `<a::B as c::D>::f`, a."""
    component = first_component(name)
    if component is None:
        v0 = re.search(r"_R.*?C(?:s[0-9A-Za-z]*_)?(\d+)", name)
        if v0:
            return name[v0.end():v0.end() + int(v0.group(1))].lstrip("_") or "(unnamed)"
        return "(C)" if re.match(r"^\.?(text|rodata|data)?\.?[A-Za-z_]\w*$", name) else "(unnamed)"
    component = component.lstrip("<&*[( ").removeprefix("mut ").removeprefix("dyn ")
    crate = re.split(r"::|<|>| |,|\[|;", component, maxsplit=1)[0]
    # `<T as a::B>`, `<u8 as a::B>`, `<[T] as a::B>`: a type of no crate's, so the trait's.
    trait = re.search(r" as ([A-Za-z_]\w*)::", component)
    if trait and not component.startswith(crate + "::"):
        crate = trait.group(1)
    return crate or "(unnamed)"


def from_map(path):
    """Bytes of code and read-only data by crate, from an lld map (what rustc links with)."""
    sizes = Counter()
    for line in Path(path).read_text(errors="replace").splitlines():
        found = MAP_SECTION.match(line)
        if found and re.match(r"\.(text|rodata|data\.rel\.ro)", found.group(2)):
            sizes[crate_of(found.group(2))] += int(found.group(1), 16)
    return sizes


def from_symbols(binary):
    listing = subprocess.run(["nm", "-S", "--size-sort", binary], capture_output=True,
                             text=True, check=True).stdout
    sizes = Counter()
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[2].lower() in "trd":
            sizes[crate_of(parts[3])] += int(parts[1], 16)
    return sizes


def gzip_size(data):
    return len(gzip.compress(data, compresslevel=9))


def assets_tar():
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        tar.add(ROOT / "assets", arcname="assets")
    return buffer.getvalue()


def mb(size):
    return f"{size / 1_000_000:.1f} MB"


# Names as rustc 1.95 mangles them (legacy `_ZN`, the standard library's v0 `_R`), in lld map
# sections, and the crate each counts under.
CASES = [
    (".text._ZN8bevy_ecs5world5World5spawn17h0123456789abcdefE", "bevy_ecs"),
    (".text._ZN69_$LT$snapslide_game..kind..GameKind$u20$as$u20$core..clone..Clone$GT$5clone"
     "17hc1d844cdc9fa664fE", "snapslide_game"),
    (".text._ZN46_$LT$T$u20$as$u20$serde_core..de..Expected$GT$3fmt17hc0428dd01ef6fb12E",
     "serde_core"),
    (".text._ZN4core3ptr84drop_in_place$LT$npuzzle..Board$GT$17h0123456789abcdefE", "core"),
    (".text._RNvMs5_NtNtCsjrHSEGnQ3l9_3std2io5errorNtB5_5Error4kind", "std"),
    (".rodata..L__unnamed_12", "(unnamed)"),
    (".text.memcpy", "(C)"),
]
MAP_LINE = ("          2a1b40          2a1b40      1f0    16 /tmp/rustcXYZ/snapslide.o:"
            "(.text._ZN7npuzzle6search7idastar17h0123456789abcdefE)")


def self_test():
    for name, crate in CASES:
        assert crate_of(name) == crate, (name, crate_of(name), crate)
    found = MAP_SECTION.match(MAP_LINE)
    assert found and int(found.group(1), 16) == 0x1F0 and crate_of(found.group(2)) == "npuzzle"
    print(f"size self-test: {len(CASES) + 1} cases ok")
    return 0


def main():
    parser = argparse.ArgumentParser(description="What a build of the game weighs.")
    parser.add_argument("binary", nargs="?")
    parser.add_argument("--map")
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.binary:
        parser.error("the binary is needed")
    binary = Path(args.binary).read_bytes()
    packed = gzip_size(binary)
    assets = assets_tar()
    print(f"{args.binary}")
    print(f"  binary             {mb(len(binary)):>9}  gzip -9 {mb(packed):>9}")
    print(f"  assets/ (embedded) {mb(len(assets)):>9}  gzip -9 {mb(gzip_size(assets)):>9}"
          "  (inside the binary already)")
    print(f"  total at gzip -9   {mb(packed):>9}  (goal: 20 MB or less)")
    sizes = from_map(args.map) if args.map else from_symbols(args.binary)
    if not sizes:
        print("  no crate sizes: the map is empty, or the binary has no symbols (give --map)")
        return 1
    total = sum(sizes.values())
    print(f"  the {args.top} biggest crates (code and read-only data, of {mb(total)} counted,"
          f" from the {'linker map' if args.map else 'symbols'}):")
    for crate, size in sizes.most_common(args.top):
        print(f"    {crate:28} {mb(size):>9} {100 * size / total:5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
