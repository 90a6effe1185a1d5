#!/usr/bin/env bash
# `cc` and `c++` of the phone check (phone_check.py puts links named so first on PATH).
# android-activity's build script compiles GameActivity's C/C++ glue (its bundled
# android-games-sdk sources), which needs the NDK's headers; a type check links nothing, so
# for those sources this writes an empty object instead. Every other call goes to the real
# compiler (PHONE_CHECK_REAL_CC or PHONE_CHECK_REAL_CXX) unchanged.
set -euo pipefail

case "$(basename "$0")" in
    c++) real=$PHONE_CHECK_REAL_CXX ;;
    *) real=$PHONE_CHECK_REAL_CC ;;
esac

games_sdk=false
out=""
previous=""
for arg in "$@"; do
    case "$arg" in
        android-games-sdk/*.c | android-games-sdk/*.cpp | */android-games-sdk/*.c | */android-games-sdk/*.cpp)
            games_sdk=true
            ;;
    esac
    if [ "$previous" = "-o" ]; then
        out=$arg
    fi
    previous=$arg
done

if $games_sdk && [ -n "$out" ]; then
    exec "$real" -c -x c /dev/null -o "$out"
fi
exec "$real" "$@"
