#!/usr/bin/env python3
"""The phone check (`make phone-check`, part of `make test`): the game crate type-checked, with
clippy `-D warnings`, as if for Android and as if for iOS, on a Linux machine that has no
phone target for rustc, no NDK and no Apple SDK.

How: every crate is built for the host as usual, except the game crate (and on Android the two
dependencies that refuse any other target, android-activity and ndk-sys), which rustc-wrapper.sh
also tells `--cfg target_os="android"` (or "ios"). So the game's `#[cfg(target_os = ...)]` code
(src/platform/android.rs or ios.rs, `#[bevy_main]`'s android_main, android/native) is checked
against the real APIs of the crates it calls, as Linux builds of them.

Everything is generated under the target folder ($CARGO_TARGET_DIR/phone-check/), from the
project's own Cargo.toml and Cargo.lock and the registry's sources; nothing is written into
the repository:
- a workspace per platform whose `snapslide` package has `[lib] path` = the real src/lib.rs
  and the phone's dependencies unconditional (the desktop's, rfd, left out);
- Android: a crate named `bevy` that re-exports real Bevy and adds the `android` module of
  the registry's bevy_android (Bevy has it only when built for Android), and links named `cc`
  and `c++` first on PATH to cc-wrapper.sh (GameActivity's C++ glue needs the NDK's headers);
- iOS: objc2 and block2 with their `gnustep-2-1` feature (they refuse a non-Apple target
  without it; it changes linking, not the API), and `[patch.crates-io]` copies of
  objc2-ui-kit and objc2-photos-ui whose framework link is behind
  `cfg_attr(target_vendor = "apple", ...)` (rustc refuses a framework link elsewhere).
The workspaces share the target folder's build cache with the project's own `cargo clippy
--workspace --all-targets`, so that `make test` builds only what differs (winit and the Bevy
crates above it on Android, the objc2 crates on iOS): the dependencies are given the features
that build gives them (compared with `cargo tree`; the other members and dev-dependencies add
some), and android-activity's build script its `cc` without `parallel`. Cargo does not
fingerprint RUSTC_WRAPPER, and the crates that get the phone's cfg are built nowhere else.

Then, unless --no-planted: a scratch copy of src/ with one wrong call planted in the
platform's file must fail the same check with an error there, and the dep-info of the real
check must list the platform's file and not desktop.rs: the check is seen able to fail.

What it cannot check: the Java, the NDK's link, Xcode's build, any behaviour on a phone.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:
    sys.exit("phone-check: needs Python 3.11 or newer (tomllib)")

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

DESKTOP_CFG = 'cfg(not(any(target_os = "android", target_os = "ios")))'
# Target tables the phones never match (Android's target_os is "android", not "linux").
DESKTOP_ONLY_CFGS = {DESKTOP_CFG, 'cfg(target_os = "linux")'}

# A wrong call planted in a scratch copy of the platform's file: (file, right, wrong).
PLATFORMS = {
    "android": {
        "cfg": 'target_os="android"',
        # Besides the game: what must believe it is on Android (compile_error! otherwise).
        "phone_crates": ["android-activity", "ndk-sys"],
        "planted": ("src/platform/android.rs", ".internal_data_path()", ".internal_data_dir()"),
    },
    "ios": {
        "cfg": 'target_os="ios"',
        "phone_crates": [],
        "planted": ("src/platform/ios.rs", ".impactOccurred()", ".impactOccured()"),
    },
}

SHIM_PACKAGE = "snapslide-phone-bevy"
PLANTED_PACKAGE = "snapslide-planted"
# Bevy's features that choose android-activity's backend.
ANDROID_BACKENDS = {"android-game-activity": "game-activity",
                    "android-native-activity": "native-activity"}
GNUSTEP = {"objc2": "gnustep-2-1", "block2": "gnustep-2-1"}
FRAMEWORK_LINKED = ["objc2-ui-kit", "objc2-photos-ui"]


class CheckError(Exception):
    """The check could not be set up, or found something wrong."""


# ---- TOML out (the subset manifests need) ----

def toml_key(key):
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise CheckError(f"no TOML for {value!r}")


def toml_tables(tables, prefix=()):
    """Tables of tables as `[a.b]` sections; leaves in a table as `key = value` (inline)."""
    out = []
    for name, table in tables.items():
        path = prefix + (name,)
        if isinstance(table, list):  # an array of tables, [[bin]]
            for item in table:
                out.append(f"[[{'.'.join(map(toml_key, path))}]]")
                out += [f"{toml_key(k)} = {toml_value(v)}" for k, v in item.items()]
                out.append("")
            continue
        leaves = {k: v for k, v in table.items() if not isinstance(v, dict) or is_inline(path)}
        subtables = {k: v for k, v in table.items() if k not in leaves}
        if leaves or not subtables:
            out.append(f"[{'.'.join(map(toml_key, path))}]")
            out += [f"{toml_key(k)} = {toml_value(v)}" for k, v in leaves.items()]
            out.append("")
        out += toml_tables(subtables, path)
    return out


def is_inline(path):
    """Dependency specs are written inline; every other dict is a table of its own."""
    return path[-1] in ("dependencies", "crates-io")


def write_if_changed(path, text):
    """Writes only a change, so that Cargo's mtime fingerprints stay fresh on a rerun."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


# ---- What the project says ----

def cargo_metadata():
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked",
         "--manifest-path", str(REPO / "Cargo.toml")],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)


class Project:
    def __init__(self):
        self.manifest = tomllib.loads((REPO / "Cargo.toml").read_text())
        self.metadata = cargo_metadata()
        self.by_id = {p["id"]: p for p in self.metadata["packages"]}
        game = self.member("snapslide")
        node = next(n for n in self.metadata["resolve"]["nodes"] if n["id"] == game["id"])
        self.direct = {self.by_id[d["pkg"]]["name"]: self.by_id[d["pkg"]] for d in node["deps"]}
        self.host_features = host_features(REPO / "Cargo.toml", dev=True)

    def member(self, name):
        for package_id in self.metadata["workspace_members"]:
            if self.by_id[package_id]["name"] == name:
                return self.by_id[package_id]
        raise CheckError(f"no workspace member {name}")

    def package(self, name, version):
        for package in self.metadata["packages"]:
            if package["name"] == name and package["version"] == version:
                return package
        raise CheckError(f"{name} {version} is not in Cargo.lock")

    def unique(self, name):
        found = [p for p in self.metadata["packages"] if p["name"] == name]
        if len(found) != 1:
            raise CheckError(f"{len(found)} versions of {name} in Cargo.lock, not one")
        return found[0]

    def resolve(self, name, spec):
        """A dependency spec of the root manifest, workspace inheritance resolved and paths
        made absolute."""
        spec = {"version": spec} if isinstance(spec, str) else dict(spec)
        if spec.pop("workspace", False):
            inherited = self.manifest["workspace"]["dependencies"][name]
            inherited = {"version": inherited} if isinstance(inherited, str) else dict(inherited)
            features = inherited.get("features", []) + spec.pop("features", [])
            inherited.update(spec)
            if features:
                inherited["features"] = features
            spec = inherited
        if "path" in spec:
            spec["path"] = str((REPO / spec["path"]).resolve())
        return spec

    def game_dependencies(self, platform):
        """[dependencies] and the platform's target table, merged; the desktop's left out."""
        tables = [self.manifest.get("dependencies", {})]
        for cfg, table in self.manifest.get("target", {}).items():
            if cfg == f'cfg(target_os = "{platform}")':
                tables.append(table.get("dependencies", {}))
            elif cfg in DESKTOP_ONLY_CFGS or re.fullmatch(r'cfg\(target_os = "(android|ios)"\)', cfg):
                continue
            else:
                raise CheckError(f"phone_check.py does not know the target table {cfg}: "
                                 "say whether the phones have it")
        merged = {}
        for table in tables:
            for name, spec in table.items():
                spec = self.resolve(name, spec)
                if name in merged:
                    features = merged[name].get("features", []) + spec.get("features", [])
                    for key, value in spec.items():
                        if key != "features" and merged[name].get(key, value) != value:
                            raise CheckError(f"{name}: the two tables disagree on {key}")
                    merged[name].update(spec)
                    merged[name]["features"] = sorted(set(features), key=features.index)
                else:
                    merged[name] = spec
        return merged

    def package_section(self, name):
        package = dict(self.manifest["package"])
        inherited = self.manifest["workspace"]["package"]
        for key, value in list(package.items()):
            if isinstance(value, dict) and value.get("workspace"):
                package[key] = inherited[key]
        package["name"] = name
        package.update(build=False, autobins=False, autoexamples=False, autotests=False,
                       autobenches=False)
        return package


# ---- The generated crates ----

def bevy_shim(project, common, bevy_spec):
    """A crate named `bevy`: real Bevy, and the `android` module of the registry's
    bevy_android (the same version as Bevy), for `bevy::android::ANDROID_APP`."""
    bevy = project.direct["bevy"]
    android = project.package("bevy_android", bevy["version"])
    android_toml = tomllib.loads(Path(android["manifest_path"]).read_text())
    activity = android_toml["target"]['cfg(target_os = "android")']["dependencies"][
        "android-activity"]
    activity = {"version": activity} if isinstance(activity, str) else dict(activity)
    backends = [ANDROID_BACKENDS[f] for f in bevy_spec.get("features", [])
                if f in ANDROID_BACKENDS]
    if len(backends) != 1:
        raise CheckError("the Android build must enable one of Bevy's features "
                         + ", ".join(ANDROID_BACKENDS))
    activity["features"] = backends
    real = dict(bevy_spec, package="bevy", version=f"={bevy['version']}")
    shim = common / "bevy"
    manifest = {
        "package": {"name": SHIM_PACKAGE, "version": bevy["version"], "edition": "2024",
                    "publish": False},
        "lib": {"name": "bevy", "path": "src/lib.rs"},
        "dependencies": {"real_bevy": real, "android-activity": activity},
    }
    write_if_changed(shim / "Cargo.toml", "\n".join(toml_tables(manifest)))
    source = Path(android["manifest_path"]).parent / "src" / "lib.rs"
    write_if_changed(shim / "src" / "lib.rs", (
        "//! Generated by tools/phone-check/phone_check.py: real Bevy, plus the `android`\n"
        "//! module Bevy has only when built for Android (bevy_internal re-exports\n"
        f"//! bevy_android {android['version']} as `bevy::android` on that target alone).\n\n"
        "pub use real_bevy::*;\n\n"
        f"#[path = {json.dumps(str(source))}]\n"
        "pub mod android;\n"))
    return {"package": SHIM_PACKAGE, "path": str(shim)}


def patched_copy(common, package, file, pattern, replacement, why):
    """A copy of a registry crate with one change to one file (the pattern must match once),
    for `[patch.crates-io]`; made again only when the source or the change changes."""
    source = Path(package["manifest_path"]).parent
    text = (source / file).read_text()
    found = len(re.findall(pattern, text, flags=re.M))
    if found != 1:
        raise CheckError(f"{package['name']} {package['version']}: {why}: expected one match "
                         f"of {pattern!r} in {file}, found {found}")
    patched = re.sub(pattern, replacement, text, flags=re.M)
    copy = common / "patch" / f"{package['name']}-{package['version']}"
    stamp = hashlib.sha256(f"{source}\n{file}\n{patched}".encode()).hexdigest()
    if not (copy / ".phone-check-stamp").exists() or \
            (copy / ".phone-check-stamp").read_text() != stamp:
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(source, copy)  # copy2: the registry's mtimes kept
        (copy / file).write_text(patched)
        (copy / ".phone-check-stamp").write_text(stamp)
    return {"path": str(copy)}


def framework_patch(project, common, name):
    """objc2-ui-kit or objc2-photos-ui, its framework link on Apple targets only."""
    return patched_copy(
        common, project.direct[name], "src/generated/mod.rs",
        r'^#\[link\(name = "(\w+)", kind = "framework"\)\]$',
        r'#[cfg_attr(target_vendor = "apple", link(name = "\1", kind = "framework"))]',
        "rustc refuses a framework link on Linux (E0455)")


def android_activity_patch(project, common):
    """android-activity without its build script's `cc/parallel`: that feature would be
    unified into every build script's cc (wayland-backend's, blake3's) and rebuild much of
    what the host build shares. It only compiles GameActivity's glue in parallel, which
    cc-wrapper.sh stubs anyway."""
    return patched_copy(
        common, project.unique("android-activity"), "Cargo.toml",
        r'^(\[build-dependencies\.cc\]\nversion = "[^"]+")\nfeatures = \["parallel"\]$',
        r"\1", "cc's parallel feature")


def workspace(project, platform, root, source_root, common, with_native, name="snapslide"):
    """The throwaway workspace for a platform, its game's sources at `source_root`, its game
    package called `name` (Cargo's hash of a member ignores where its workspace is: the
    planted copy needs a name of its own not to overwrite the real check's build)."""
    deps = project.game_dependencies(platform)
    patches = {}
    if platform == "android":
        deps["bevy"] = bevy_shim(project, common, deps["bevy"])
        patches = {"android-activity": android_activity_patch(project, common)}
    else:
        for crate, feature in GNUSTEP.items():
            if crate not in deps:
                raise CheckError(f"the iOS dependencies no longer include {crate}")
            deps[crate] = dict(deps[crate], features=deps[crate].get("features", []) + [feature])
        patches = {crate: framework_patch(project, common, crate) for crate in FRAMEWORK_LINKED}

    manifest = {
        "workspace": {"resolver": project.manifest["workspace"].get("resolver", "3"),
                      "members": ["native"] if with_native else []},
        "package": project.package_section(name),
        "lib": {"name": "snapslide", "path": str(source_root / "src" / "lib.rs")},
    }
    if platform == "ios":  # the app's executable is the `snapslide` binary
        manifest["bin"] = [dict(b, path=str(source_root / b["path"]))
                           for b in project.manifest.get("bin", [])]
    manifest["dependencies"] = deps
    if patches:
        manifest["patch"] = {"crates-io": patches}
    manifest["profile"] = project.manifest.get("profile", {})  # the same builds of the deps

    if with_native:  # android/native, the cdylib GameActivity loads
        native_toml = tomllib.loads((REPO / "android/native/Cargo.toml").read_text())
        native_deps = {}
        for table in native_toml.get("target", {}).values():
            for name, spec in table.get("dependencies", {}).items():
                if Path(REPO / "android/native" / spec["path"]).resolve() != REPO:
                    raise CheckError(f"android/native: unknown dependency {name}")
                native_deps[name] = {"path": ".."}
        package = project.package_section(native_toml["package"]["name"])
        package["description"] = native_toml["package"]["description"]
        native = {
            "package": package,
            "lib": dict(native_toml["lib"], path=str(REPO / "android/native" /
                                                     native_toml["lib"]["path"])),
            "dependencies": native_deps,
        }
        write_if_changed(root / "native" / "Cargo.toml", "\n".join(toml_tables(native)))

    # The dependencies' features as in the project's own host build (`cargo clippy
    # --workspace --all-targets`: the other members and the dev-dependencies add some, as
    # proptest does rand's sys_rng), so that their builds are shared, not made twice.
    # Worked out in a scratch copy: the real one is written once, as Bevy's macros read it
    # (a rewritten manifest would make the game's check stale on every run).
    scratch = root.parent / f"resolve-{root.name}"
    for _ in range(4):
        write_if_changed(scratch / "Cargo.toml", "\n".join(toml_tables(
            dict(manifest, workspace=dict(manifest["workspace"], members=[])))))
        copy_lock(scratch)
        pins = feature_pins(host_features(scratch / "Cargo.toml", dev=False),
                            project.host_features)
        if not pins:
            break
        for (pinned, version), features in pins.items():
            key = next((k for k, spec in deps.items() if spec.get("package", k) == pinned),
                       None)
            if key is None:
                deps[pinned] = {"version": f"={version}", "default-features": False,
                              "features": features}
            else:
                deps[key] = dict(deps[key], features=features)
    else:
        raise CheckError(f"{platform}: the dependencies' features do not settle")
    write_if_changed(root / "Cargo.toml", "\n".join(toml_tables(manifest)))
    copy_lock(root)



def copy_lock(root):
    """The project's Cargo.lock, to which Cargo adds the generated crates; copied again
    when the project's changes."""
    lock = (REPO / "Cargo.lock").read_text()
    write_if_changed(root / "Cargo.lock.project", lock)
    if not (root / "Cargo.lock").exists() or \
            (root / "Cargo.lock.project").stat().st_mtime > (root / "Cargo.lock").stat().st_mtime:
        (root / "Cargo.lock").write_text(lock)


def host_features(manifest, dev):
    """{(name, version): [feature sets]} of the registry packages a host build unifies."""
    edges = "normal,build,dev" if dev else "normal,build"
    out = subprocess.run(
        ["cargo", "tree", "--manifest-path", str(manifest), "--workspace", "-e", edges,
         "-f", "{p}\t{f}", "--prefix", "none"],
        check=True, capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        package, _, features = line.partition("\t")
        if not package or "(" in package:
            continue  # a path package (its source in parentheses)
        name, version = package.split()[:2]
        features = re.sub(r"\s*\((\*|proc-macro)\)", "", features)
        sets = found.setdefault((name, version.removeprefix("v")), [])
        features = sorted(filter(None, features.split(",")))
        if features not in sets:
            sets.append(features)
    return found


def feature_pins(ours, projects):
    """The packages built once in each, with fewer features here than in the project's."""
    pins = {}
    for package, sets in ours.items():
        theirs = projects.get(package, [])
        if len(sets) == 1 and len(theirs) == 1 and set(sets[0]) < set(theirs[0]):
            pins[package] = theirs[0]
    return pins


def planted_tree(root, platform):
    """A scratch copy of src/ (the rest of the repository linked) with one wrong call."""
    file, right, wrong = PLATFORMS[platform]["planted"]
    tree = root / "tree"
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    for entry in REPO.iterdir():
        if entry.name not in ("src", ".git"):
            (tree / entry.name).symlink_to(entry)
    shutil.copytree(REPO / "src", tree / "src")
    text = (tree / file).read_text()
    if text.count(right) != 1:
        raise CheckError(f"the planted error needs one `{right}` in {file}, "
                         f"found {text.count(right)}: choose another")
    (tree / file).write_text(text.replace(right, wrong))
    return tree, file, wrong


# ---- Running clippy ----

def environment(platform, target, bin_dir):
    env = dict(os.environ)
    crates = ["snapslide", PLANTED_PACKAGE] + PLATFORMS[platform]["phone_crates"]
    if platform == "android":
        crates += ["snapslide-android", SHIM_PACKAGE]
        bin_dir.mkdir(parents=True, exist_ok=True)
        for name in ("cc", "c++"):
            real = shutil.which(name)
            if real is None:
                raise CheckError(f"no `{name}` on PATH (make deps installs build-essential)")
            env["PHONE_CHECK_REAL_" + ("CXX" if name == "c++" else "CC")] = real
            link = bin_dir / name
            if not link.is_symlink() or link.readlink() != HERE / "cc-wrapper.sh":
                link.unlink(missing_ok=True)
                link.symlink_to(HERE / "cc-wrapper.sh")
        # PATH, not CC_<target>: a changed CC variable would rerun every build script that
        # uses the cc crate (wayland-backend's too) and rebuild what the host build shares.
        env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    env.update(CARGO_TARGET_DIR=str(target), RUSTC_WRAPPER=str(HERE / "rustc-wrapper.sh"),
               PHONE_CHECK_CFG=PLATFORMS[platform]["cfg"], PHONE_CHECK_CRATES=" ".join(crates))
    return env


def clippy(root, env, jobs, quiet=False):
    """`cargo clippy -- -D warnings` in a generated workspace: (passed, messages)."""
    command = ["cargo", "clippy", "--manifest-path", str(root / "Cargo.toml"), "--workspace",
               "--message-format=json"]
    if jobs:
        command += ["-j", str(jobs)]
    command += ["--", "-D", "warnings"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL if quiet else None, text=True)
    messages = []
    for line in process.stdout:
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            print(line, end="")
            continue
        messages.append(message)
        if message.get("reason") == "compiler-message" and not quiet:
            print(message["message"].get("rendered", ""), end="")
    return process.wait() == 0, messages


def game_dep_info(messages):
    for message in messages:
        target = message.get("target", {})
        if message.get("reason") == "compiler-artifact" and target.get("name") == "snapslide" \
                and "lib" in target.get("kind", []):
            rmeta = Path(next(f for f in message["filenames"] if f.endswith(".rmeta")))
            return rmeta.with_name(rmeta.stem.removeprefix("lib") + ".d")
    raise CheckError("cargo reported no artifact for the game's library")


def check_dep_info(messages, platform):
    """The game's own dep-info lists the platform's file, and not the desktop's."""
    sources = game_dep_info(messages).read_text()
    here = str(REPO / "src" / "platform" / f"{platform}.rs")
    desktop = str(REPO / "src" / "platform" / "desktop.rs")
    if here not in sources or desktop in sources:
        raise CheckError(f"the game was not compiled as for {platform}: its dep-info "
                         f"{'lacks' if here not in sources else 'has'} "
                         f"{'platform/' + platform + '.rs' if here not in sources else 'desktop.rs'}")


def check_planted(root, env, jobs, platform, file, wrong):
    passed, messages = clippy(root, env, jobs, quiet=True)
    name = wrong.strip(".()")
    caught = [m["message"] for m in messages if m.get("reason") == "compiler-message"
              and m["message"]["level"] == "error"
              and any(s["file_name"].endswith(file) for s in m["message"]["spans"])
              and name in m["message"]["message"]]
    if passed or not caught:
        raise CheckError(f"{platform}: the wrong call `{name}` planted in a copy of {file} was "
                         f"not caught (clippy {'passed' if passed else 'failed elsewhere'})")
    first = caught[0]
    line = next(s["line_start"] for s in first["spans"] if s["file_name"].endswith(file))
    print(f"phone-check {platform}: the planted `{name}` failed the check as it must: "
          f"{first['code']['code'] if first.get('code') else 'error'} at {file}:{line}: "
          f"{first['message']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("platforms", nargs="*", metavar="PLATFORM",
                        help="android or ios (default: both)")
    parser.add_argument("--no-planted", action="store_true",
                        help="skip the run that must fail on a planted error")
    parser.add_argument("-j", "--jobs", type=int, default=None, help="cargo's jobs")
    args = parser.parse_args()
    platforms = args.platforms or list(PLATFORMS)
    for platform in platforms:
        if platform not in PLATFORMS:
            parser.error(f"unknown platform {platform}: choose from {', '.join(PLATFORMS)}")

    target = Path(os.environ.get("CARGO_TARGET_DIR",
                                 Path.home() / ".cache" / "snapslide-target")).resolve()
    base = target / "phone-check"
    try:
        project = Project()
        for platform in platforms:
            started = time.monotonic()
            root = base / platform
            workspace(project, platform, root, REPO, base / "common",
                      with_native=platform == "android")
            env = environment(platform, target, base / "bin")
            passed, messages = clippy(root, env, args.jobs)
            if not passed:
                raise CheckError(f"{platform}: the game does not pass cargo clippy -D warnings "
                                 f"as for {platform} (above)")
            check_dep_info(messages, platform)
            print(f"phone-check {platform}: clippy -D warnings passed, "
                  f"platform/{platform}.rs compiled and desktop.rs not "
                  f"({time.monotonic() - started:.0f} s)")
            if not args.no_planted:
                started = time.monotonic()
                planted = base / f"planted-{platform}"
                tree, file, wrong = planted_tree(planted, platform)
                workspace(project, platform, planted, tree, base / "common", with_native=False,
                          name=PLANTED_PACKAGE)
                check_planted(planted, env, args.jobs, platform, file, wrong)
                print(f"phone-check {platform}: planted run {time.monotonic() - started:.0f} s")
    except (CheckError, subprocess.CalledProcessError) as error:
        print(f"phone-check: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
