#!/usr/bin/env bash
# RUSTC_WRAPPER of the phone check (tools/phone-check/phone_check.py sets it and the two
# variables below). Every crate is built for the host as usual, except the packages named in
# PHONE_CHECK_CRATES (the game, and the dependencies that refuse any target but the phone's),
# which are also told they are on the phone: `--cfg target_os="android"` (PHONE_CHECK_CFG),
# with the lint against setting a built-in cfg by hand allowed.
#
# Cargo does not fingerprint the wrapper or these variables: a crate given the phone's cfg
# must never also be built without it in the same target folder under the same package id
# (the game package lives in a workspace of its own under the target folder, see
# phone_check.py).
set -euo pipefail

for crate in ${PHONE_CHECK_CRATES:-}; do
    if [ "${CARGO_PKG_NAME:-}" = "$crate" ]; then
        exec "$@" --cfg "$PHONE_CHECK_CFG" -A explicit_builtin_cfgs_in_flags
    fi
done
exec "$@"
