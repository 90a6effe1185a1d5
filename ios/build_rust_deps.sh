#!/usr/bin/env bash
# Xcode's "Rust" build phase: builds the `snapslide` binary for each architecture Xcode asks
# for ($ARCHS on $PLATFORM_NAME) and joins them with lipo into the app's executable.
#   arm64 on iphoneos         -> aarch64-apple-ios
#   arm64 on iphonesimulator  -> aarch64-apple-ios-sim
#   x86_64 on iphonesimulator -> x86_64-apple-ios
set -euo pipefail

: "${ARCHS:?run from Xcode (ARCHS is not set)}"
: "${PLATFORM_NAME:?run from Xcode (PLATFORM_NAME is not set)}"
: "${TARGET_BUILD_DIR:?run from Xcode}" "${EXECUTABLE_PATH:?run from Xcode}"

# Xcode puts its own toolchain first on PATH, which breaks linking Rust's build scripts
# (rust-lang/rust#80817): use the system's, with cargo and Homebrew.
export PATH="/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin:$HOME/.cargo/bin:/opt/homebrew/bin:$PATH"

root=$(cd "$(dirname "$0")/.." && pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${DERIVED_FILE_DIR:-$root/target}/cargo}"

# Xcode's Release configuration (an archive for the App Store) builds Cargo.toml's `store`
# profile: fat LTO, one codegen unit, no symbols.
profile=debug
profile_args=()
if [ "${CONFIGURATION:-Debug}" != "Debug" ]; then
    profile=store
    profile_args=(--profile store)
fi

rust_target() {
    case "$1/$2" in
        arm64/iphoneos) echo aarch64-apple-ios ;;
        arm64/iphonesimulator) echo aarch64-apple-ios-sim ;;
        x86_64/iphonesimulator) echo x86_64-apple-ios ;;
        *) return 1 ;;
    esac
}

executables=()
for arch in $ARCHS; do
    if ! target=$(rust_target "$arch" "$PLATFORM_NAME"); then
        echo "error: no Rust target for $arch on $PLATFORM_NAME" >&2
        exit 2
    fi
    if ! rustup target list --installed | grep -qx "$target"; then
        echo "error: the Rust target $target is missing: rustup target add $target" >&2
        exit 1
    fi
    (cd "$root" && cargo build ${profile_args[@]+"${profile_args[@]}"} --target "$target" --bin snapslide)
    executables+=("$CARGO_TARGET_DIR/$target/$profile/snapslide")
done

mkdir -p "$(dirname "$TARGET_BUILD_DIR/$EXECUTABLE_PATH")"
lipo -create -output "$TARGET_BUILD_DIR/$EXECUTABLE_PATH" "${executables[@]}"
