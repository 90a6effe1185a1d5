#!/usr/bin/env bash
# The Android project's checks that need no Android SDK (`make test` runs them):
#  1. javac compiles every Java file of android/ that imports no Android class, and Bridge,
#     Host and PhotoSize are among them (the JVM test loads them); then all of the app's Java
#     (MainActivity, PhotoSources, PhotoReader, SystemBars too) against android/stubs: the
#     framework, AndroidX and GameActivity classes it uses, only their signatures, as
#     published (Debian packages no android.jar). That proves the Java is well-typed against
#     itself and those signatures, not that the signatures are right or anything at run time;
#  2. check_project.py: manifest, resources, versions, icon;
#  3. shellcheck on android's scripts.
# Needs javac (JDK 17), python3 and shellcheck; fails, naming the tool, if one is missing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
for tool in javac python3 shellcheck; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "android/check.sh: $tool is missing (make test installs it)" >&2
        exit 1
    }
done

android_free=()
while IFS= read -r -d '' file; do
    if ! grep -Eq '^import (static )?(android|androidx|com\.google)\.' "$file"; then
        android_free+=("$file")
    fi
done < <(find "$here" -name '*.java' -not -path '*/build/*' -not -path "$here/stubs/*" -print0 | sort -z)

for needed in Bridge.java Host.java PhotoSize.java; do
    if ! printf '%s\n' "${android_free[@]}" | grep -q "/org/snapslide/$needed\$"; then
        echo "android/check.sh: $needed imports Android classes; it must compile on any JVM" >&2
        exit 1
    fi
done

classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
javac -Xlint:all -Werror --release 17 -d "$classes" "${android_free[@]}"
echo "android: javac compiled ${#android_free[@]} Android-free Java files"

app_java=()
while IFS= read -r -d '' file; do
    app_java+=("$file")
done < <(find "$here/app/src/main/java" -name '*.java' -print0 | sort -z)
stubs=()
while IFS= read -r -d '' file; do
    stubs+=("$file")
done < <(find "$here/stubs/java" -name '*.java' -print0 | sort -z)
javac --release 17 -d "$classes/stubs" "${stubs[@]}"
javac -Xlint:all -Werror --release 17 -cp "$classes/stubs" -d "$classes/app" "${app_java[@]}"
echo "android: javac compiled the app's ${#app_java[@]} Java files against ${#stubs[@]} stubs (android/stubs)"

python3 "$here/check_project.py"

shellcheck "$here/check.sh" "$here/build.sh" "$here/gradlew"
echo "android: shellcheck passed"
