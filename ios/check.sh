#!/usr/bin/env bash
# The iOS project's checks that need no Xcode (`make test` runs them): check_project.py
# (Info.plist, the Xcode project through the pbxproj package, the build script, the icon set)
# and shellcheck on ios's scripts. Fails, naming the tool, if one is missing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
for tool in python3 shellcheck; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "ios/check.sh: $tool is missing (make test installs it)" >&2
        exit 1
    }
done
python3 -c 'import pbxproj' 2>/dev/null || {
    echo "ios/check.sh: the pbxproj package is missing: pip install pbxproj (make test does)" >&2
    exit 1
}

python3 "$here/check_project.py"
shellcheck "$here/check.sh" "$here/build.sh" "$here/build_rust_deps.sh"
echo "ios: shellcheck passed"
