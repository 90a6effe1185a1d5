#!/usr/bin/env bash
# `make ios`: builds the app with Xcode (which runs build_rust_deps.sh for the Rust side).
# Says what is missing (Xcode, the Rust targets) before trying.
#
#   IOS_SDK=iphonesimulator|iphoneos   the simulator by default, for this Mac's architecture
#   IOS_CONFIGURATION=Debug|Release   Release builds the Rust side in Cargo.toml's store profile
#   DEVELOPMENT_TEAM=ABCDE12345        your team, for a device build (signing)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
sdk=${IOS_SDK:-iphonesimulator}
configuration=${IOS_CONFIGURATION:-Debug}

if ! command -v xcodebuild >/dev/null 2>&1; then
    echo "make ios: xcodebuild not found: the iOS build needs macOS with Xcode 15 or newer" >&2
    exit 1
fi

settings=()
case "$sdk" in
    iphonesimulator)
        arch=$(uname -m)
        settings+=("ARCHS=$arch" "ONLY_ACTIVE_ARCH=YES")
        if [ "$arch" = arm64 ]; then target=aarch64-apple-ios-sim; else target=x86_64-apple-ios; fi
        ;;
    iphoneos)
        target=aarch64-apple-ios
        if [ -z "${DEVELOPMENT_TEAM:-}" ]; then
            echo "make ios: a device build is signed: DEVELOPMENT_TEAM=<your team id> make ios" >&2
            exit 1
        fi
        settings+=("DEVELOPMENT_TEAM=$DEVELOPMENT_TEAM")
        ;;
    *)
        echo "make ios: IOS_SDK is iphonesimulator or iphoneos, not '$sdk'" >&2
        exit 1
        ;;
esac
if ! rustup target list --installed | grep -qx "$target"; then
    echo "make ios: the Rust target $target is missing: rustup target add $target" >&2
    exit 1
fi

xcodebuild -project "$here/Snapslide.xcodeproj" -scheme Snapslide \
    -configuration "$configuration" -sdk "$sdk" -derivedDataPath "$here/build" \
    -allowProvisioningUpdates "${settings[@]}" build
echo "Built: ios/build/Build/Products/$configuration-$sdk/Snapslide.app"
