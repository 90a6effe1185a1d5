# Snapslide: `make run` to play, `make test` for the checks CI runs.
# Works on a fresh Debian/Ubuntu machine: the system packages are installed when missing.

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

CARGO_TARGET_DIR ?= $(HOME)/.cache/snapslide-target
export CARGO_TARGET_DIR

# Libraries Bevy links against (sound, input devices, Wayland, X11 keyboard maps), plus what
# `make screenshot` uses to run without a display.
SYSTEM_PACKAGES := pkg-config libasound2-dev libudev-dev libwayland-dev libxkbcommon-dev
SCREENSHOT_PACKAGES := xvfb mesa-vulkan-drivers xauth x11-apps

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SCREENSHOT ?= docs/screenshot.png

# The end of a recipe line that collects the shell variable `missing`: installs those packages
# (and does nothing when it is empty).
define install_missing
if [ -n "$$missing" ]; then \
    echo "Installing:$$missing"; \
    $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
fi
endef

.PHONY: run serve test screenshot deps screenshot-deps check mobile-deps mobile-checks phone-check phone-layout first-minute screen-reader screen-reader-deps server-page android ios fuzz tree-before tree-after store size cold-start cold-start-deps cold-start-check deb deb-deps deb-check

## Installs the system packages that are missing (quietly does nothing when all are there).
deps:
	@missing=""; for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v cc >/dev/null 2>&1 || missing="$$missing build-essential"; \
	$(install_missing)
	@command -v cargo >/dev/null || { echo "Rust is needed: see https://rustup.rs"; exit 1; }

screenshot-deps: deps
	@missing=""; for p in $(SCREENSHOT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	$(install_missing)

## Installs what the phone checks need, when missing: a JDK 17 (javac, javap, libjvm for the
## bridge's JVM test), shellcheck, and Python's pbxproj package.
mobile-deps:
	@missing=""; command -v javac >/dev/null 2>&1 || missing="$$missing openjdk-17-jdk-headless"; \
	command -v shellcheck >/dev/null 2>&1 || missing="$$missing shellcheck"; \
	$(install_missing)
	@python3 -c 'import pbxproj' 2>/dev/null || python3 -m pip install --quiet pbxproj

## The phone projects' static checks: javac, manifest and plist, Xcode project, shellcheck.
mobile-checks: mobile-deps
	android/check.sh
	ios/check.sh
	shellcheck tools/phone-check/*.sh

## The game's phone code (src/platform/android.rs, ios.rs, android/native) type-checked with
## clippy -D warnings as if for Android and for iOS, then seen failing on a wrong call planted
## in a scratch copy (tools/phone-check/phone_check.py; it writes only under the target folder).
phone-check: deps
	@missing=""; command -v c++ >/dev/null 2>&1 || missing="$$missing g++"; \
	$(install_missing)
	@cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
	tools/phone-check/phone_check.py

## The game's and npuzzle's binaries for the Xvfb checks, built as `cargo test --workspace`
## builds them: with the features the whole workspace unifies (the leaderboard's server shares
## crates with the game), so a run of make test builds Bevy once, not again for the narrower
## set `cargo build -p snapslide` would ask for (seen on a fresh machine: Bevy built twice).
java_home = $${JAVA_HOME:-$$(dirname "$$(dirname "$$(readlink -f "$$(command -v javac)")")")}
XVFB_BUILD = export JAVA_HOME="$(java_home)"; cargo test --workspace --no-run --quiet

## The portrait phone layout under Xvfb (a 1080×2400 window at scale 3, insets simulated),
## checked from its screenshot by tests/phone_layout.py.
phone-layout: screenshot-deps
	$(XVFB_BUILD)
	tests/phone_layout.py $(CARGO_TARGET_DIR)/debug/snapslide $(CARGO_TARGET_DIR)/phone-layout.png

## A player's first minute under Xvfb (tests/first_minute.py): the board comes on screen at
## each of 5 launches with the mouse untouched (each launch's time is printed), and the panel
## fits phones upright and on their side, a tablet, desktop windows and a 4K screen.
## `LAUNCHES=20 make first-minute` launches more.
LAUNCHES ?= 5
first-minute: screenshot-deps
	$(XVFB_BUILD)
	tests/first_minute.py $(CARGO_TARGET_DIR)/debug/snapslide $(LAUNCHES)

## What a screen reader needs here: the accessibility bus (at-spi2-core), pyatspi for the
## system's Python, and a D-Bus session (dbus-run-session).
SCREEN_READER_PACKAGES := at-spi2-core python3-pyatspi dbus
screen-reader-deps: screenshot-deps
	@missing=""; for p in $(SCREEN_READER_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	$(install_missing)

## A screen reader's view of the game (tests/screen_reader.py): a pyatspi client on a real
## accessibility bus reads the controls and the 4×4 board's tiles, slides a tile through its
## action and presses Hint.
screen-reader: screen-reader-deps
	$(XVFB_BUILD)
	/usr/bin/python3 tests/screen_reader.py $(CARGO_TARGET_DIR)/debug/snapslide $(CARGO_TARGET_DIR)/debug/npuzzle

## The daily's board in a browser (tests/server_page.py): a real snapslide-server on 127.0.0.1
## with a throwaway SQLite folder, three players' solves of today's daily posted through the
## API, then the day's page in Debian's headless Chromium: the ranking's rows in its DOM, in
## order, each a link to its replay; screenshots at 360×640 and 1280×800 (kept in the build
## folder); a replay GIF served.
server-page: deps
	@command -v chromium >/dev/null 2>&1 || { missing=" chromium"; $(install_missing); }
	$(XVFB_BUILD)
	tests/server_page.py $(CARGO_TARGET_DIR)/debug/snapslide-server $(CARGO_TARGET_DIR)/debug/npuzzle $(CARGO_TARGET_DIR)

## The build the stores get: Cargo.toml's `store` profile (fat LTO, one codegen unit, no
## symbols, opt-level "s" but the engine at 3), what android/build.sh and ios/build_rust_deps.sh build for the phones; here the
## desktop binary, with the linker's map beside it (snapslide.map) for `make size`. `cargo
## rustc` passes the map's flag to the binary alone, so the dependencies' builds are the
## profile's own.
STORE_BIN := $(CARGO_TARGET_DIR)/store/snapslide
store: deps
	nice -n 10 cargo rustc --profile store -p snapslide --bin snapslide -- \
		-C link-arg=-Wl,-Map=$(STORE_BIN).map
	@echo "Built: $(STORE_BIN)"

## The store build's size (tools/size.py): the binary, at gzip -9 (what an app store's zip
## holds of it; the assets are embedded in it), and the ten biggest crates from the map.
size: store
	tools/size.py $(STORE_BIN) --map $(STORE_BIN).map

## What the cold starts need beside Xvfb: xdotool (the resumed game's moves).
COLD_START_PACKAGES := xdotool
cold-start-deps: screenshot-deps
	@missing=""; for p in $(COLD_START_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	$(install_missing)

## The store build's first second (tools/cold_start.py): the medians of COLD_RUNS cold starts
## under Xvfb, each with an empty data folder and cache, of the first frame and of the board,
## for a new game and a resumed one.
COLD_RUNS ?= 10
cold-start: store cold-start-deps
	tools/cold_start.py $(STORE_BIN) --runs $(COLD_RUNS)

## For make test: tools/cold_start.py's parsing (--self-test), then one cold start of each kind
## on the debug build, which must log both lines (a renamed line fails here).
cold-start-check: cold-start-deps
	$(XVFB_BUILD)
	tools/cold_start.py --self-test
	tools/cold_start.py $(CARGO_TARGET_DIR)/debug/snapslide --runs 1

## What the package's check runs: desktop-file-validate and appstreamcli.
DEB_PACKAGES := desktop-file-utils appstream
deb-deps:
	@missing=""; for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	$(install_missing)

## The Debian package of the store build (tools/make_deb.py, plain dpkg-deb): the binary, the
## desktop entry, the icon at 48 to 512 pixels and the AppStream metainfo (linux/), then
## checked as make test checks it. It lands in $(CARGO_TARGET_DIR)/deb.
deb: store deb-deps
	deb=$$(tools/make_deb.py $(STORE_BIN) $(CARGO_TARGET_DIR)/deb) && echo "Built: $$deb" && \
	tools/make_deb.py --check "$$deb"

## For make test: the package made of the debug build, uncompressed (seconds, not the minutes
## xz takes on it), and checked: its files, desktop-file-validate, appstreamcli validate,
## Depends, and the binary extracted into a throwaway root answering --help.
deb-check: deb-deps
	$(XVFB_BUILD)
	out=$$(mktemp -d); trap 'rm -rf "$$out"' EXIT; \
	deb=$$(tools/make_deb.py --uncompressed $(CARGO_TARGET_DIR)/debug/snapslide "$$out") && \
	tools/make_deb.py --check "$$deb"

## The Android app: the Rust library with cargo-ndk, then the APK with Gradle (see README).
android:
	android/build.sh

## The iOS app with Xcode, for the simulator by default (see README).
ios:
	ios/build.sh

## The daily's board of results (docs/server.md) on 127.0.0.1:8080, SQLite in ./snapslide-data.
serve:
	cargo run --release -p snapslide-server -- --listen 127.0.0.1:8080

## Plays the game, in the `play` profile: every dependency optimised, the game a little (a
## dev build's frames take longer; a release build takes far longer to make).
run: deps
	cargo run -p snapslide --profile play

## Format, lints, the phone check and every test in the workspace (the game's tests need no
## display; the server's run against SQLite and against a throwaway PostgreSQL cluster that
## tools/postgres-test.sh starts for the run; then the server's bounded load test on
## 127.0.0.1 against each store, killed with SIGKILL mid-load: 200 players, 2,000 results,
## 32 clients, every 201 found after the restart), then the phone's layout, a player's first
## minute, a screen reader's view and one cold start of each kind under Xvfb, the daily's
## board in headless Chromium, and the Debian package of the debug build; last, that the run
## changed no tracked file (tree-after).
test: tree-before deps mobile-checks
	@cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
	cargo fmt --all --check
	tools/check_imports.py
	tools/check_ownership.py --self-test
	tools/check_ownership.py
	tools/check_functions.py --self-test
	tools/check_functions.py
	tools/check_docs_map.py --self-test
	tools/check_docs_map.py
	tools/frame_tables.py
	tools/size.py --self-test
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --manifest-path fuzz/Cargo.toml --no-default-features --all-targets -- -D warnings
	$(MAKE) --no-print-directory phone-check
	pg=$$(mktemp -d); trap 'tools/postgres-test.sh stop "$$pg"; rm -rf "$$pg"' EXIT; \
	url=$$(tools/postgres-test.sh start "$$pg") || exit 1; export SNAPSLIDE_TEST_POSTGRES="$$url"; \
	export JAVA_HOME="$(java_home)"; \
	cargo test --workspace 2>&1 | tee $(CARGO_TARGET_DIR)/test.log || exit 1; \
	load=$(CARGO_TARGET_DIR)/debug/examples/load; \
	timeout 600 $$load --kill --no-big-day && timeout 600 $$load --kill --no-big-day --db "$$url"
	@awk '/^test result:/ { passed += $$4; failed += $$6 } END { printf "\nworkspace: %d passed, %d failed\n", passed, failed }' $(CARGO_TARGET_DIR)/test.log
	$(MAKE) --no-print-directory phone-layout
	$(MAKE) --no-print-directory first-minute
	$(MAKE) --no-print-directory screen-reader
	$(MAKE) --no-print-directory server-page
	$(MAKE) --no-print-directory cold-start-check
	$(MAKE) --no-print-directory deb-check
	@$(MAKE) --no-print-directory tree-after

## `make test` leaves the tree as it found it. tree-before records the tracked files' changes
## against HEAD (`git diff HEAD`, the developer's own edits included) before the checks;
## tree-after fails when they differ after them: only a change made by the run fails, not an
## edit made before it. Outside a git checkout (no HEAD), nothing is recorded or checked.
TREE_BEFORE := $(CARGO_TARGET_DIR)/tree-before-test.diff
tree_state = git -C $(CURDIR) diff HEAD --binary --no-ext-diff -- .

tree-before:
	@mkdir -p $(CARGO_TARGET_DIR); rm -f $(TREE_BEFORE)
	@if git -C $(CURDIR) rev-parse --verify -q HEAD >/dev/null 2>&1; then \
		$(tree_state) > $(TREE_BEFORE); \
	fi

tree-after:
	@if [ ! -f $(TREE_BEFORE) ]; then \
		echo "not a git checkout: whether make test changed the tree is not checked"; exit 0; \
	fi; \
	$(tree_state) > $(TREE_BEFORE).after; \
	cmp -s $(TREE_BEFORE) $(TREE_BEFORE).after || { \
		echo "make test changed tracked files (how its run changed git diff HEAD):"; \
		diff $(TREE_BEFORE) $(TREE_BEFORE).after | head -40; exit 1; }; \
	echo "make test left the tracked files as it found them"

## Saves a screenshot of the game under Xvfb (software rendering).
screenshot: screenshot-deps
	cargo build -p snapslide
	XDG_RUNTIME_DIR=$$(mktemp -d) xvfb-run -a -s "-screen 0 1280x800x24" \
		cargo run -p snapslide -- --seed 7 --size 4 --screenshot $(abspath $(SCREENSHOT))
	@echo "Saved $(SCREENSHOT)"

check:
	cargo check -p snapslide --all-targets

## Fuzzes every target in fuzz/ (docs/fuzzing.md) with cargo-fuzz on nightly, each for
## FUZZ_RUNS executions (the photo decoder PHOTO_RUNS), one process at the lowest priority,
## debug assertions and overflow checks on, a run's limit 10 s (the photo decoder's 60 s: the
## largest picture the limits admit takes 19 s under the sanitizer). Not part of `make test`,
## which only checks that the targets compile.
## The corpora grow in fuzz/corpus from fuzz/seeds; a finding and each run's log land in
## fuzz/artifacts.
## `make fuzz FUZZ_TARGETS=photo PHOTO_RUNS=1000` runs one target briefly.
FUZZ_TARGETS ?= parse settings scores daily game pdb_cache photo code
FUZZ_RUNS ?= 10000000
PHOTO_RUNS ?= 1000000
fuzz:
	@command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
	@rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
	@cd fuzz && for target in $(FUZZ_TARGETS); do \
		runs=$(FUZZ_RUNS); limit=10; [ "$$target" = photo ] && runs=$(PHOTO_RUNS) limit=60; \
		mkdir -p corpus/$$target artifacts/$$target; \
		echo "fuzz $$target: $$runs executions"; \
		env -u CARGO_TARGET_DIR nice -n 19 cargo +nightly fuzz run -a $$target \
			corpus/$$target seeds/$$target -- -jobs=1 -workers=1 -runs=$$runs \
			-rss_limit_mb=2048 -timeout=$$limit -print_final_stats=1; status=$$?; \
		[ -f fuzz-0.log ] && mv fuzz-0.log artifacts/$$target.log; \
		grep -E '^#[0-9]+.*DONE|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^==[0-9]+==|^SUMMARY|^artifact_prefix|Test unit written' artifacts/$$target.log; \
		[ $$status = 0 ] || { echo "fuzz $$target failed: see fuzz/artifacts/$$target.log"; exit 1; }; \
	done
