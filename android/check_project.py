#!/usr/bin/env python3
"""Static checks of android/ that need no Android SDK (android/check.sh runs them):

- the manifest and every resource XML parse, and the manifest's @type/name references exist;
- the manifest names an activity class that exists in the Java sources (a GameActivity);
- android.app.lib_name and MainActivity's loadLibrary name the Rust library (android/native);
- the FileProvider's authority is the one the Java code uses, with its paths file;
- no CAMERA permission; <queries> for IMAGE_CAPTURE;
- versionName and versionCode follow Cargo.toml's version; minSdk 26; prefab off;
- games-activity is the 4.4 line android-activity 0.6 needs;
- the icon is what android/icon/make_icons.py draws.

Prints one line per problem and exits 1 if there is any.
"""

import re
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

ANDROID = Path(__file__).resolve().parent
ROOT = ANDROID.parent
APP = ANDROID / "app"
MAIN = APP / "src/main"
JAVA = MAIN / "java"
RES = MAIN / "res"
NS = "{http://schemas.android.com/apk/res/android}"
MAIN_ACTIVITY_MAX_LINES = 100

sys.path.insert(0, str(ANDROID / "icon"))
import make_icons  # noqa: E402  (the icon's own check)


def crate_version():
    """The game's version, from the root Cargo.toml."""
    return tomllib.loads((ROOT / "Cargo.toml").read_text())["package"]["version"]


def version_code(version):
    """major * 1_000_000 + minor * 1_000 + patch, as app/build.gradle.kts says."""
    major, minor, patch = (int(part) for part in version.split("-")[0].split("."))
    return major * 1_000_000 + minor * 1_000 + patch


def gradle_value(text, key):
    """The value of `key = value` in a Gradle Kotlin script, without quotes, or None."""
    match = re.search(rf"^\s*{re.escape(key)}\s*=\s*(.+?)\s*$", text, re.MULTILINE)
    return match.group(1).strip('"') if match else None


def parse_xml(path, problems):
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as error:
        problems.append(f"{path.relative_to(ROOT)} does not parse: {error}")
        return None


def check_resources(manifest_text, problems):
    """Every resource XML parses; each @type/name the manifest uses exists."""
    values = {}
    for path in sorted(RES.rglob("*.xml")):
        root = parse_xml(path, problems)
        if root is None:
            continue
        kind = path.parent.name.split("-")[0]
        if kind == "values":
            for item in root:
                name = item.get("name")
                if name:
                    values.setdefault(item.tag, set()).add(name)
        else:
            values.setdefault(kind, set()).add(path.stem)
    for kind, name in re.findall(r'"@(\w+)/([\w.]+)"', manifest_text):
        if name not in values.get(kind, set()):
            problems.append(f"the manifest uses @{kind}/{name}, which no resource defines")


def check_activity(manifest, namespace, problems):
    """The launcher activity exists in the Java sources, extends GameActivity, stays thin,
    and loads the Rust library the manifest names."""
    activity = manifest.find("application/activity")
    if activity is None:
        problems.append("the manifest has no activity")
        return
    name = activity.get(NS + "name", "")
    qualified = namespace + name if name.startswith(".") else name
    source = JAVA / (qualified.replace(".", "/") + ".java")
    if not source.exists():
        problems.append(f"the manifest's activity {qualified} has no source ({source.name})")
        return
    text = source.read_text()
    simple = qualified.rsplit(".", 1)[-1]
    if not re.search(rf"class\s+{simple}\s+extends\s+GameActivity\b", text):
        problems.append(f"{simple} does not extend GameActivity")
    if len(text.splitlines()) > MAIN_ACTIVITY_MAX_LINES:
        problems.append(f"{simple} is over {MAIN_ACTIVITY_MAX_LINES} lines: keep it thin")
    library = tomllib.loads((ANDROID / "native/Cargo.toml").read_text())["lib"]["name"]
    lib_names = [
        meta.get(NS + "value")
        for meta in activity.findall("meta-data")
        if meta.get(NS + "name") == "android.app.lib_name"
    ]
    if lib_names != [library]:
        problems.append(f"android.app.lib_name is {lib_names}, the Rust library is {library!r}")
    loaded = re.findall(r'System\.loadLibrary\("([^"]+)"\)', text)
    if loaded and loaded != [library]:
        problems.append(f"{simple} loads {loaded}, the Rust library is {library!r}")


def java_constant(name):
    """The value of a `static final String NAME = "..."` in the Java sources, or None."""
    for path in JAVA.rglob("*.java"):
        match = re.search(rf'static final String {name}\s*=\s*"([^"]*)"', path.read_text())
        if match:
            return match.group(1)
    return None


def check_provider(manifest, problems):
    """The FileProvider: the Java code's authority, a paths file that parses."""
    providers = [
        p
        for p in manifest.findall("application/provider")
        if p.get(NS + "name") == "androidx.core.content.FileProvider"
    ]
    if len(providers) != 1:
        problems.append(f"expected one FileProvider, found {len(providers)}")
        return
    provider = providers[0]
    authority = java_constant("AUTHORITY")
    if provider.get(NS + "authorities") != authority:
        problems.append(
            f"the FileProvider's authority {provider.get(NS + 'authorities')!r} "
            f"is not the Java code's {authority!r}"
        )
    if provider.get(NS + "exported") != "false":
        problems.append("the FileProvider must not be exported")
    paths = [m.get(NS + "resource") for m in provider.findall("meta-data")]
    if not paths or not paths[0] or not paths[0].startswith("@xml/"):
        problems.append("the FileProvider names no @xml paths file")
        return
    path_file = RES / "xml" / (paths[0][len("@xml/") :] + ".xml")
    root = parse_xml(path_file, problems) if path_file.exists() else None
    if root is None or root.find("cache-path") is None:
        problems.append(f"{paths[0]} has no cache-path for the camera's photo")


def check_permissions(manifest, problems):
    """No CAMERA permission (the capture intent would fail); <queries> for IMAGE_CAPTURE."""
    asked = {p.get(NS + "name") for p in manifest.iter("uses-permission")}
    if "android.permission.CAMERA" in asked:
        problems.append("the manifest declares CAMERA: the capture intent would fail")
    actions = {a.get(NS + "name") for a in manifest.findall("queries/intent/action")}
    if "android.media.action.IMAGE_CAPTURE" not in actions:
        problems.append("the manifest has no <queries> intent for IMAGE_CAPTURE")


def check_gradle(problems):
    """Versions follow Cargo.toml; minSdk, prefab and games-activity as android-activity
    needs them."""
    gradle = (APP / "build.gradle.kts").read_text()
    version = crate_version()
    if gradle_value(gradle, "versionName") != version:
        problems.append(
            f"versionName {gradle_value(gradle, 'versionName')} is not Cargo.toml's {version}"
        )
    if gradle_value(gradle, "versionCode") != str(version_code(version)):
        problems.append(
            f"versionCode {gradle_value(gradle, 'versionCode')} is not "
            f"{version_code(version)} (Cargo.toml's {version})"
        )
    if gradle_value(gradle, "minSdk") != "26":
        problems.append("minSdk must be 26 (bevy_audio needs it)")
    if gradle_value(gradle, "prefab") != "false":
        problems.append("prefab must be off (android-activity links GameActivity itself)")
    catalog = tomllib.loads((ANDROID / "gradle/libs.versions.toml").read_text())
    games = catalog["versions"].get("gamesActivity", "")
    if not games.startswith("4.4."):
        problems.append(f"games-activity {games} is not the 4.4 line android-activity 0.6 needs")
    return gradle_value(gradle, "namespace")


def main():
    problems = []
    manifest_path = MAIN / "AndroidManifest.xml"
    manifest = parse_xml(manifest_path, problems)
    namespace = check_gradle(problems)
    if manifest is not None:
        check_resources(manifest_path.read_text(), problems)
        check_activity(manifest, namespace or "", problems)
        check_provider(manifest, problems)
        check_permissions(manifest, problems)
    problems += make_icons.check()
    for problem in problems:
        print(f"android: {problem}", file=sys.stderr)
    if not problems:
        print("android: manifest, resources, versions and icon are consistent")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
