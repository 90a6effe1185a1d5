#!/usr/bin/env python3
"""Static checks of ios/ that need no Xcode (ios/check.sh runs them):

- Info.plist parses and holds the camera's usage description, a UILaunchScreen dictionary
  whose colour exists in the asset catalog, the crate's version, and the URL scheme of the
  challenge crate's LINK_PREFIX in CFBundleURLTypes (the one src/platform/links.rs accepts),
  and a plist without it is caught;
- the Xcode project parses (the `pbxproj` package from PyPI), its one target runs
  build_rust_deps.sh in a build phase, copies the repository's assets and the asset catalog,
  and names Info.plist, iOS 15 and the crate's version;
- build_rust_deps.sh maps Xcode's architectures to the three iOS Rust targets, builds the
  `snapslide` binary and joins them with lipo;
- the AppIcon set lists existing, opaque PNGs of the sizes it declares.

Prints one line per problem and exits 1 if there is any.
"""

import json
import plistlib
import re
import struct
import sys
import tomllib
from pathlib import Path
from xml.parsers.expat import ExpatError

IOS = Path(__file__).resolve().parent
ROOT = IOS.parent
APP = IOS / "Snapslide"
CATALOG = APP / "Assets.xcassets"
CHALLENGE = ROOT / "crates/challenge/src/challenge.rs"
LINKS = ROOT / "src/platform/links.rs"
PROJECT = IOS / "Snapslide.xcodeproj/project.pbxproj"
SCRIPT = IOS / "build_rust_deps.sh"
DEPLOYMENT_TARGET = "15.0"
# Xcode's architecture and platform -> the Rust target build_rust_deps.sh must build.
RUST_TARGETS = {
    ("arm64", "iphoneos"): "aarch64-apple-ios",
    ("arm64", "iphonesimulator"): "aarch64-apple-ios-sim",
    ("x86_64", "iphonesimulator"): "x86_64-apple-ios",
}

try:
    from pbxproj import XcodeProject
except ImportError:  # pragma: no cover - reported as a problem below
    XcodeProject = None


def cargo():
    return tomllib.loads((ROOT / "Cargo.toml").read_text())


def version_code(version):
    """major * 1_000_000 + minor * 1_000 + patch, the same build number as Android's."""
    major, minor, patch = (int(part) for part in version.split("-")[0].split("."))
    return major * 1_000_000 + minor * 1_000 + patch


def check_plist(version, problems):
    try:
        info = plistlib.loads((APP / "Info.plist").read_bytes())
    except (plistlib.InvalidFileException, ExpatError, ValueError, OSError) as error:
        problems.append(f"Info.plist does not parse: {error}")
        return
    if not str(info.get("NSCameraUsageDescription", "")).strip():
        problems.append("Info.plist has no NSCameraUsageDescription (the camera would crash)")
    launch = info.get("UILaunchScreen")
    if not isinstance(launch, dict):
        problems.append("Info.plist has no UILaunchScreen dictionary")
    elif "UIColorName" in launch and not (CATALOG / f"{launch['UIColorName']}.colorset").is_dir():
        problems.append(f"the launch screen's colour {launch['UIColorName']} is not in the catalog")
    if "UILaunchStoryboardName" in info:
        problems.append("Info.plist names a launch storyboard; the project ships none")
    if info.get("CFBundleShortVersionString") != version:
        problems.append(
            f"CFBundleShortVersionString {info.get('CFBundleShortVersionString')} "
            f"is not Cargo.toml's {version}"
        )
    if info.get("CFBundleVersion") != str(version_code(version)):
        problems.append(f"CFBundleVersion is not {version_code(version)}")
    if info.get("CFBundleExecutable") != "$(EXECUTABLE_NAME)":
        problems.append("CFBundleExecutable must be $(EXECUTABLE_NAME)")
    check_url_scheme(info, problems)
    without = {key: value for key, value in info.items() if key != "CFBundleURLTypes"}
    found = []
    check_url_scheme(without, found)
    if not found:
        problems.append("the URL scheme check missed an Info.plist without CFBundleURLTypes")


def check_url_scheme(info, problems):
    """Challenge links open the app: CFBundleURLTypes lists the scheme of the challenge crate's
    LINK_PREFIX, which links.rs accepts too."""
    prefix = re.search(r'LINK_PREFIX: &str = "([a-z]+)://', CHALLENGE.read_text())
    scheme = re.search(r'const SCHEME: &str = "([^"]*)";', LINKS.read_text())
    if prefix is None or scheme is None or prefix.group(1) != scheme.group(1):
        problems.append("the challenge crate's LINK_PREFIX and links.rs' SCHEME do not agree")
        return
    url_types = info.get("CFBundleURLTypes")
    schemes = [
        scheme
        for url_type in (url_types if isinstance(url_types, list) else [])
        if isinstance(url_type, dict)
        for scheme in url_type.get("CFBundleURLSchemes", [])
    ]
    if prefix.group(1) not in schemes:
        problems.append(f"Info.plist's CFBundleURLTypes do not list the {prefix.group(1)!r} "
                        f"scheme: challenge links would not open the app")


def check_project(version, problems):
    if XcodeProject is None:
        problems.append("the pbxproj package is missing (pip install pbxproj; make test does)")
        return
    try:
        project = XcodeProject.load(str(PROJECT))
    except Exception as error:  # the parser raises several kinds
        problems.append(f"project.pbxproj does not parse: {error}")
        return
    targets = project.objects.get_targets()
    if len(targets) != 1:
        problems.append(f"expected one target, found {len(targets)}")
        return
    phases = [project.objects[key] for key in targets[0].buildPhases]
    scripts = [p for p in phases if p.isa == "PBXShellScriptBuildPhase"]
    if not any("build_rust_deps.sh" in str(p.shellScript) for p in scripts):
        problems.append("no build phase of the target runs build_rust_deps.sh")
    resources = [p for p in phases if p.isa == "PBXResourcesBuildPhase"]
    copied = set()
    for phase in resources:
        for key in phase.files:
            reference = project.objects[project.objects[key].fileRef]
            copied.add((reference.lastKnownFileType, reference.path))
    if ("folder", "../assets") not in copied or not (IOS / "../assets").is_dir():
        problems.append("the target does not copy the repository's assets folder")
    if ("folder.assetcatalog", "Assets.xcassets") not in copied:
        problems.append("the target does not copy Assets.xcassets")
    check_settings(project, targets[0], version, problems)


def check_settings(project, target, version, problems):
    """The target's configurations: Info.plist, iOS 15, the crate's version, the icon set."""
    configurations = project.objects[target.buildConfigurationList].buildConfigurations
    for key in configurations:
        configuration = project.objects[key]
        name = configuration.name
        setting = lambda key: str(configuration.buildSettings.get(key, None))  # noqa: E731
        if not (IOS / setting("INFOPLIST_FILE")).is_file():
            problems.append(f"{name}: INFOPLIST_FILE {setting('INFOPLIST_FILE')} is missing")
        if setting("IPHONEOS_DEPLOYMENT_TARGET") != DEPLOYMENT_TARGET:
            problems.append(f"{name}: the deployment target is not {DEPLOYMENT_TARGET}")
        if setting("MARKETING_VERSION") != version:
            problems.append(f"{name}: MARKETING_VERSION is not Cargo.toml's {version}")
        if setting("CURRENT_PROJECT_VERSION") != str(version_code(version)):
            problems.append(f"{name}: CURRENT_PROJECT_VERSION is not {version_code(version)}")
        icon = setting("ASSETCATALOG_COMPILER_APPICON_NAME")
        if not (CATALOG / f"{icon}.appiconset").is_dir():
            problems.append(f"{name}: the app icon set {icon} is not in the catalog")


def check_script(manifest, problems):
    text = SCRIPT.read_text()
    binaries = {b.get("name") for b in manifest.get("bin", [])}
    if "snapslide" not in binaries or "--bin snapslide" not in text:
        problems.append("build_rust_deps.sh must build the crate's `snapslide` binary")
    mapping = re.findall(r"^\s*(\w+)/(\w+)\)\s*echo\s+([\w-]+)", text, re.MULTILINE)
    mapped = {(arch, platform): target for arch, platform, target in mapping}
    for (arch, platform), target in RUST_TARGETS.items():
        if mapped.get((arch, platform)) != target:
            problems.append(f"build_rust_deps.sh does not build {target} for {arch} on {platform}")
    if "lipo -create" not in text:
        problems.append("build_rust_deps.sh does not join the architectures with lipo")
    if not SCRIPT.stat().st_mode & 0o111:
        problems.append("build_rust_deps.sh is not executable")


def png_header(path):
    data = path.read_bytes()[:26]
    if not data.startswith(b"\x89PNG\r\n\x1a\n") or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">IIBB", data[16:26])


def check_icons(problems):
    icon_set = CATALOG / "AppIcon.appiconset"
    try:
        images = json.loads((icon_set / "Contents.json").read_text())["images"]
    except (OSError, ValueError, KeyError) as error:
        problems.append(f"AppIcon.appiconset/Contents.json: {error}")
        return
    if not images:
        problems.append("the AppIcon set lists no image")
    for image in images:
        path = icon_set / image.get("filename", "")
        if not path.is_file():
            problems.append(f"the AppIcon set lists {path.name}, which is missing")
            continue
        side = float(image["size"].split("x")[0]) * float(image.get("scale", "1x")[:-1])
        header = png_header(path)
        if header is None or header[:2] != (side, side) or header[3] != 2:
            problems.append(f"{path.name} is not an opaque RGB PNG of {side:g} pixels")


def main():
    problems = []
    manifest = cargo()
    version = manifest["package"]["version"]
    check_plist(version, problems)
    check_project(version, problems)
    check_script(manifest, problems)
    check_icons(problems)
    for problem in problems:
        print(f"ios: {problem}", file=sys.stderr)
    if not problems:
        print("ios: Info.plist (with the challenge links' URL scheme), the Xcode project, the "
              "build script and the icon are consistent (a plist without the scheme was caught)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
