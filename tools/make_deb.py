#!/usr/bin/env python3
"""Snapslide's Debian package, with plain `dpkg-deb --build` (standard library only).

    tools/make_deb.py [--uncompressed] BINARY OUT_DIR
                                        builds OUT_DIR/snapslide_VERSION_ARCH.deb (xz, or
                                        not compressed: make test's quick package of the
                                        debug build) and prints its path
    tools/make_deb.py --check DEB       checks a package as a player's machine would see it

The package holds the binary in /usr/bin, the desktop entry and the AppStream metainfo from
linux/, and the app icon (android/icon/make_icons.py's drawing) at 48, 64, 128, 256 and 512
pixels in the hicolor theme. Depends lists the packages of the shared libraries the binary
links (found with readelf and `dpkg -S` on this machine); the window's own libraries (X11,
Wayland, Vulkan), which the game opens at run time, are recommended.

The check: the files are where they belong (`dpkg-deb --contents`), `desktop-file-validate`
and `appstreamcli validate --no-net` pass, every library the binary links is in Depends, and
the binary, extracted with `dpkg-deb -x` into a throwaway root, answers `--help`.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP_ID = "org.snapslide.Snapslide"
ICON_SIZES = (48, 64, 128, 256, 512)
# Opened at run time (winit, wgpu), so not in the binary's NEEDED: a desktop has them.
RECOMMENDS = "libvulkan1, mesa-vulkan-drivers | vulkan-icd, libxkbcommon-x11-0, libx11-xcb1, " \
    "libxcursor1, libxi6, libxrandr2, libwayland-client0, libwayland-cursor0"
# The files every package must hold (beside the icons).
EXPECTED = ["./usr/bin/snapslide",
            f"./usr/share/applications/{APP_ID}.desktop",
            f"./usr/share/metainfo/{APP_ID}.metainfo.xml",
            "./usr/share/doc/snapslide/copyright"]


def icon_path(size):
    return f"usr/share/icons/hicolor/{size}x{size}/apps/{APP_ID}.png"


def package_info():
    with open(ROOT / "Cargo.toml", "rb") as file:
        manifest = tomllib.load(file)
    package = manifest["package"]
    return package["version"], package["description"], manifest["workspace"]["package"]["license"]


def needed_libraries(binary):
    """The shared libraries the binary links (its NEEDED entries)."""
    dynamic = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True,
                             check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)


def owning_package(library):
    """The Debian package holding this library on this machine (without its :arch), or None."""
    found = subprocess.run(["dpkg", "-S", f"*/{library}"], capture_output=True, text=True)
    for line in found.stdout.splitlines():
        name = line.split(":", 1)[0].split(",")[0].strip()
        if name:
            return name
    return None


def depends(binary):
    packages = set()
    for library in needed_libraries(binary):
        package = owning_package(library)
        if package is None:
            sys.exit(f"make_deb: no installed package holds {library}, which the binary links")
        packages.add(package)
    return ", ".join(sorted(packages))


def icons():
    sys.dont_write_bytecode = True  # no __pycache__ left in android/icon
    sys.path.insert(0, str(ROOT / "android/icon"))
    import make_icons  # noqa: E402 (the icon's one drawing)
    return {size: make_icons.ios_png(size) for size in ICON_SIZES}


def copyright_text(license_name):
    return ("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
            "Upstream-Name: snapslide\n\n"
            "Files: *\n"
            "Copyright: the Snapslide authors\n"
            f"License: {license_name}\n"
            " The bundled photos, fonts and sounds keep their own licences (assets/*/LICENSE.md\n"
            " in the source).\n")


def build(binary, out_dir, compression="xz"):
    version, description, license_name = package_info()
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                          check=True).stdout.strip()
    stage = Path(tempfile.mkdtemp(prefix="snapslide-deb-"))
    try:
        files = {
            f"usr/share/applications/{APP_ID}.desktop":
                (ROOT / f"linux/{APP_ID}.desktop").read_bytes(),
            f"usr/share/metainfo/{APP_ID}.metainfo.xml":
                (ROOT / f"linux/{APP_ID}.metainfo.xml").read_bytes(),
            "usr/share/doc/snapslide/copyright": copyright_text(license_name).encode(),
        }
        files.update({icon_path(size): png for size, png in icons().items()})
        for name, data in files.items():
            path = stage / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            path.chmod(0o644)
        (stage / "usr/bin").mkdir(parents=True)
        shutil.copyfile(binary, stage / "usr/bin/snapslide")
        (stage / "usr/bin/snapslide").chmod(0o755)
        size_kb = (sum(len(data) for data in files.values()) + os.path.getsize(binary)) // 1024
        control = (f"Package: snapslide\nVersion: {version}\nArchitecture: {arch}\n"
                   "Maintainer: Snapslide <engineer@snapslide.dev>\n"
                   f"Installed-Size: {size_kb}\nDepends: {depends(binary)}\n"
                   f"Recommends: {RECOMMENDS}\nSection: games\nPriority: optional\n"
                   f"Description: {description}\n"
                   " A photo cut into tiles and shuffled: slide them back until the photo is\n"
                   " whole. Boards from 3x3 to 8x8, a puzzle of the day, hints and solves from\n"
                   " an optimal solver, replays, challenges and statistics.\n")
        (stage / "DEBIAN").mkdir()
        (stage / "DEBIAN/control").write_text(control)
        for folder, _, _ in os.walk(stage):
            os.chmod(folder, 0o755)
        out = Path(out_dir) / f"snapslide_{version}_{arch}.deb"
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["dpkg-deb", "--root-owner-group", f"-Z{compression}", "--build", str(stage), str(out)],
                       check=True, stdout=subprocess.DEVNULL)
        print(out)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def check(deb):
    """Problems with the package, as sentences (none: it is fine)."""
    problems = []
    listing = subprocess.run(["dpkg-deb", "--contents", deb], capture_output=True, text=True,
                             check=True).stdout
    names = {line.split()[-1] for line in listing.splitlines() if line.strip()}
    for name in EXPECTED + [f"./{icon_path(size)}" for size in ICON_SIZES]:
        if name not in names:
            problems.append(f"{name} is not in the package")
    root = Path(tempfile.mkdtemp(prefix="snapslide-deb-root-"))
    try:
        subprocess.run(["dpkg-deb", "-x", deb, str(root)], check=True)
        desktop = root / f"usr/share/applications/{APP_ID}.desktop"
        metainfo = root / f"usr/share/metainfo/{APP_ID}.metainfo.xml"
        for command in (["desktop-file-validate", str(desktop)],
                        ["appstreamcli", "validate", "--no-net", str(metainfo)]):
            ran = subprocess.run(command, capture_output=True, text=True)
            if ran.returncode != 0 or (command[0] == "desktop-file-validate" and ran.stdout):
                problems.append(f"{command[0]} refuses it:\n{ran.stdout}{ran.stderr}")
        binary = root / "usr/bin/snapslide"
        fields = subprocess.run(["dpkg-deb", "--field", deb, "Depends"], capture_output=True,
                                text=True, check=True).stdout
        listed = {part.strip().split()[0] for part in fields.split(",") if part.strip()}
        for library in needed_libraries(binary):
            package = owning_package(library)
            if package not in listed:
                problems.append(f"{library} (of {package}) is linked but not in Depends: {fields}")
        help_text = subprocess.run([str(binary), "--help"], capture_output=True, text=True,
                                   timeout=30)
        if help_text.returncode != 0 or "usage: snapslide" not in help_text.stdout:
            problems.append(f"the extracted binary's --help fails: {help_text.returncode} "
                            f"{(help_text.stdout + help_text.stderr)[:300]}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return problems


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--check":
        problems = check(args[1])
        for problem in problems:
            print(f"deb: {problem}", file=sys.stderr)
        if not problems:
            print(f"deb: {args[1]} is fine (contents, desktop entry, metainfo, Depends, --help)")
        return 1 if problems else 0
    compression = "xz"
    if args[:1] == ["--uncompressed"]:
        compression, args = "none", args[1:]
    if len(args) == 2 and not args[0].startswith("-"):
        build(args[0], args[1], compression)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
