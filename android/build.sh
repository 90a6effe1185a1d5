#!/usr/bin/env bash
# `make android`: builds the Rust game for Android with cargo-ndk into app/src/main/jniLibs,
# then the APK with Gradle. Says what is missing (Rust target, cargo-ndk, NDK, SDK, JDK 17)
# before trying.
#
#   ANDROID_ABIS="arm64-v8a x86_64"   the ABIs to build (x86_64 for an Intel emulator); by
#                                     default gradle.properties' snapslide.abis. The APK
#                                     lists exactly these (-Psnapslide.abis to Gradle).
#   ANDROID_PROFILE=store|release|dev the Rust profile: store by default (Cargo.toml's profile
#                                     for the stores: fat LTO, no symbols); release builds
#                                     faster; dev faster still, but Bevy is slow in dev
#   GRADLE_TASK=assembleDebug         the Gradle task (installDebug puts it on a device)
#   ANDROID_BUILD_PLAN=1              only prints the ABIs and Gradle's arguments (check.sh)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
abis=${ANDROID_ABIS:-$(sed -n 's/^snapslide\.abis=//p' "$here/gradle.properties")}
profile=${ANDROID_PROFILE:-store}
task=${GRADLE_TASK:-assembleDebug}
missing=()

rust_target() {
    case "$1" in
        arm64-v8a) echo aarch64-linux-android ;;
        armeabi-v7a) echo armv7-linux-androideabi ;;
        x86_64) echo x86_64-linux-android ;;
        x86) echo i686-linux-android ;;
        *) return 1 ;;
    esac
}

sdk_dir() {
    local dir=${ANDROID_HOME:-${ANDROID_SDK_ROOT:-}}
    if [ -z "$dir" ] && [ -f "$here/local.properties" ]; then
        dir=$(sed -n 's/^sdk\.dir=//p' "$here/local.properties" | sed 's/\\:/:/g; s/\\\\/\\/g')
    fi
    echo "$dir"
}

ndk_dir() {
    local dir=${ANDROID_NDK_HOME:-${ANDROID_NDK_ROOT:-}}
    local sdk
    sdk=$(sdk_dir)
    if [ -z "$dir" ] && [ -n "$sdk" ] && [ -d "$sdk/ndk" ]; then
        dir=$(find "$sdk/ndk" -mindepth 1 -maxdepth 1 -type d | sort -V | tail -n 1)
    fi
    echo "$dir"
}

java_major() {
    java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
}

if [ -z "${abis// /}" ]; then
    echo "make android: no ABIs: gradle.properties has no snapslide.abis and ANDROID_ABIS is empty" >&2
    exit 1
fi
gradle_args=("-Psnapslide.abis=$abis" "$task")
if [ -n "${ANDROID_BUILD_PLAN:-}" ]; then
    echo "abis: $abis"
    echo "gradle: ${gradle_args[*]}"
    exit 0
fi

for abi in $abis; do
    if ! target=$(rust_target "$abi"); then
        missing+=("a known ABI: '$abi' is not one of arm64-v8a armeabi-v7a x86_64 x86")
    elif ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
        missing+=("the Rust target $target: rustup target add $target")
    fi
done
if ! cargo ndk --version >/dev/null 2>&1; then
    missing+=("cargo-ndk: cargo install cargo-ndk")
fi
sdk=$(sdk_dir)
if [ -z "$sdk" ] || [ ! -d "$sdk" ]; then
    missing+=("the Android SDK: install Android Studio, or set ANDROID_HOME to the SDK")
fi
ndk=$(ndk_dir)
if [ -z "$ndk" ] || [ ! -d "$ndk" ]; then
    missing+=("the Android NDK: Android Studio > SDK Manager > SDK Tools > NDK, or set ANDROID_NDK_HOME")
fi
if ! command -v java >/dev/null 2>&1 || [ "$(java_major)" -lt 17 ] 2>/dev/null; then
    missing+=("JDK 17 or newer for Gradle (Android Studio's: set JAVA_HOME to its jbr folder)")
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "make android: missing" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 1
fi

export ANDROID_NDK_HOME="$ndk" ANDROID_HOME="$sdk"
targets=()
for abi in $abis; do
    targets+=(-t "$abi")
done
case "$profile" in
    dev) profile_args=() ;;
    release|store) profile_args=(--profile "$profile") ;;
    *)
        echo "make android: ANDROID_PROFILE is store, release or dev, not '$profile'" >&2
        exit 1
        ;;
esac

cd "$root"
cargo ndk "${targets[@]}" -P 26 -o android/app/src/main/jniLibs build -p snapslide-android ${profile_args[@]+"${profile_args[@]}"}
cd "$here"
./gradlew "${gradle_args[@]}"
echo "Built: android/app/build/outputs/apk/ (install: GRADLE_TASK=installDebug make android)"
