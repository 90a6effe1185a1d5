#!/usr/bin/env python3
"""Static checks of android/ that need no Android SDK (android/check.sh runs them):

- the manifest and every resource XML parse, and the manifest's @type/name references exist;
- the manifest names an activity class that exists in the Java sources (a GameActivity);
- android.app.lib_name and MainActivity's loadLibrary name the Rust library (android/native);
- the FileProvider's authority is the one the Java code uses, with its paths file: the
  camera's folder and the folder src/platform/shared_file.rs copies a file to share into;
- MainActivity opens challenge links: an intent filter (VIEW, DEFAULT, BROWSABLE) for the
  scheme and host of the challenge crate's LINK_PREFIX, which src/platform/links.rs names too,
  and a launch mode that hands a link to the running game; the filter removed from a copy of
  the manifest is caught;
- no CAMERA permission; <queries> for IMAGE_CAPTURE;
- versionName and versionCode follow Cargo.toml's version; minSdk 26; prefab off;
- games-activity is the 4.4 line android-activity 0.6 needs;
- the ABIs build.sh builds are the ones the APK lists (gradle.properties' snapslide.abis,
  through -Psnapslide.abis when ANDROID_ABIS overrides it), and a planted mismatch in a
  scratch copy (the old literal abiFilters, or build.sh's own default) is caught;
- the icon is what android/icon/make_icons.py draws.

Prints one line per problem and exits 1 if there is any.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
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
CHALLENGE = ROOT / "crates/challenge/src/challenge.rs"
PLATFORM = ROOT / "src/platform"

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
    served = {p.get("path") for p in root.findall("cache-path")} if root is not None else set()
    if "camera/" not in served:
        problems.append(f"{paths[0]} has no cache-path for the camera's photo")
    shared = rust_constant(PLATFORM / "shared_file.rs", "SHARED_DIR")
    if shared is None or f"{shared}/" not in served:
        problems.append(f"{paths[0]} does not serve the folder a file to share is copied into "
                        f"(src/platform/shared_file.rs' SHARED_DIR {shared!r})")


def rust_constant(path, name):
    """The value of a `const NAME: &str = "...";` in a Rust file, or None."""
    match = re.search(rf'const {name}: &str = "([^"]*)";', path.read_text())
    return match.group(1) if match else None


LINK_ACTIONS = {"android.intent.action.VIEW"}
LINK_CATEGORIES = {"android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"}
# Launch modes in which a link reaches the running activity (onNewIntent), not a second game.
RUNNING_LAUNCH_MODES = {"singleTask", "singleTop", "singleInstance"}


def check_links(manifest, problems):
    """The activity opens challenge links: an intent filter for the scheme and host of the
    challenge crate's LINK_PREFIX (the one links.rs accepts), and a link reaches the running
    game."""
    prefix = re.search(r'LINK_PREFIX: &str = "([a-z]+)://([a-z]+)/";', CHALLENGE.read_text())
    if prefix is None:
        problems.append("crates/challenge's LINK_PREFIX is not scheme://host/")
        return
    scheme, host = prefix.groups()
    if rust_constant(PLATFORM / "links.rs", "SCHEME") != scheme:
        problems.append(f"src/platform/links.rs' SCHEME is not the challenge link's {scheme!r}")
    activity = manifest.find("application/activity")
    if activity is None:
        return  # check_activity says so
    names = lambda f, tag: {e.get(NS + "name") for e in f.findall(tag)}  # noqa: E731
    filters = [
        f for f in activity.findall("intent-filter")
        if LINK_ACTIONS <= names(f, "action") and LINK_CATEGORIES <= names(f, "category")
        and any(d.get(NS + "scheme") == scheme and d.get(NS + "host") == host
                for d in f.findall("data"))
    ]
    if not filters:
        problems.append(f"the activity has no intent filter (VIEW, DEFAULT, BROWSABLE) for "
                        f"{scheme}://{host}/ links")
    if activity.get(NS + "launchMode") not in RUNNING_LAUNCH_MODES:
        problems.append(f"the activity's launchMode {activity.get(NS + 'launchMode')} would "
                        f"start a second game for a link (one of {sorted(RUNNING_LAUNCH_MODES)})")


def check_links_can_fail(manifest, problems):
    """check_links on a copy of the manifest without the link's intent filter: it must be
    reported."""
    planted = ET.fromstring(ET.tostring(manifest))
    activity = planted.find("application/activity")
    removed = 0
    for intent_filter in list(activity.findall("intent-filter") if activity is not None else []):
        if any(a.get(NS + "name") == "android.intent.action.VIEW"
               for a in intent_filter.findall("action")):
            activity.remove(intent_filter)
            removed += 1
    found = []
    check_links(planted, found)
    if removed == 0 or not any("no intent filter" in problem for problem in found):
        problems.append("the link check missed a manifest without the link's intent filter")


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


ABIS = {"arm64-v8a", "armeabi-v7a", "x86_64", "x86"}


def build_plan(android, abis=None):
    """What build.sh would build and pass to Gradle (its ANDROID_BUILD_PLAN mode)."""
    env = dict(os.environ, ANDROID_BUILD_PLAN="1")
    env.pop("ANDROID_ABIS", None)
    if abis is not None:
        env["ANDROID_ABIS"] = abis
    out = subprocess.run([str(android / "build.sh")], env=env, check=True,
                         capture_output=True, text=True).stdout
    plan = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    return plan.get("abis", "").split(), plan.get("gradle", "")


def check_abis(android, problems):
    """build.sh builds the ABIs the APK lists: gradle.properties' snapslide.abis by default,
    ANDROID_ABIS handed on to Gradle, and abiFilters taken from that property alone."""
    properties = (android / "gradle.properties").read_text()
    listed = re.search(r"^snapslide\.abis=(.*)$", properties, re.MULTILINE)
    listed = listed.group(1).split() if listed else []
    if not listed or not set(listed) <= ABIS:
        problems.append(f"gradle.properties' snapslide.abis {listed} is not a list of {sorted(ABIS)}")
    gradle = (android / "app/build.gradle.kts").read_text()
    filters = re.findall(r"abiFilters\s*\+?=\s*(.+)", gradle)
    if filters != ['providers.gradleProperty("snapslide.abis").get()']:
        problems.append(f"app/build.gradle.kts: abiFilters must be gradle.properties' "
                        f"snapslide.abis (what build.sh builds), not {filters}")
    built, gradle_args = build_plan(android)
    if built != listed:
        problems.append(f"build.sh builds {built} by default, the APK lists {listed}")
    if f"-Psnapslide.abis={' '.join(built)}" not in gradle_args:
        problems.append(f"build.sh does not hand Gradle the ABIs it builds: {gradle_args}")
    override = "arm64-v8a x86_64"
    built, gradle_args = build_plan(android, override)
    if built != override.split() or f"-Psnapslide.abis={override}" not in gradle_args:
        problems.append(f"with ANDROID_ABIS={override!r} build.sh builds {built} and tells "
                        f"Gradle {gradle_args}")


def check_abis_can_fail(problems):
    """check_abis on scratch copies with the mismatch this project once had planted: each
    must be reported."""
    plants = [
        ("app/build.gradle.kts", re.compile(r"abiFilters \+= .*\n.*\n"),
         'abiFilters += listOf("arm64-v8a", "x86_64")\n'),
        ("build.sh", re.compile(r"^abis=.*$", re.MULTILINE), "abis=${ANDROID_ABIS:-x86_64}"),
    ]
    for file, pattern, wrong in plants:
        with tempfile.TemporaryDirectory() as scratch:
            scratch = Path(scratch)
            for name in ("gradle.properties", "app/build.gradle.kts", "build.sh"):
                (scratch / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ANDROID / name, scratch / name)
            text = (scratch / file).read_text()
            planted, count = pattern.subn(lambda _: wrong, text, count=1)
            found = []
            if count == 1:
                (scratch / file).write_text(planted)
                check_abis(scratch, found)
            if not found:
                problems.append(f"the ABI check missed a mismatch planted in {file}")


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
        check_links(manifest, problems)
        check_links_can_fail(manifest, problems)
    check_abis(ANDROID, problems)
    check_abis_can_fail(problems)
    problems += make_icons.check()
    for problem in problems:
        print(f"android: {problem}", file=sys.stderr)
    if not problems:
        print("android: manifest, resources, versions, ABIs, challenge links and icon are "
              "consistent (an ABI mismatch planted in a scratch copy, and a manifest without "
              "the link's intent filter, were caught)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
