#!/usr/bin/env bash
# Browser tests of `crescendo gui`: headless Chromium through the DevTools
# protocol (playwright-core, installed here from package-lock.json).
#
#   tests/gui/run.sh           every test (screenshots in target/gui/)
#   tests/gui/run.sh --quick   the short subset .ci/run runs
#
# Chromium (Debian package `chromium`) and Node are installed with apt-get
# when missing and this runs as root; where they cannot be, the tests are
# skipped with a message saying so.
set -euo pipefail
cd "$(dirname "$0")/../.."

install() {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "tests/gui: installing $*"
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || true
  fi
}

find_chromium() { command -v chromium || command -v chromium-browser || true; }
CHROMIUM=${CHROMIUM:-$(find_chromium)}
if [ -z "$CHROMIUM" ]; then install chromium; CHROMIUM=$(find_chromium); fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then install nodejs npm; fi
if [ -z "$CHROMIUM" ] || ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "tests/gui: SKIPPED: Chromium or Node is missing and cannot be installed here (needs apt-get as root)"
  exit 0
fi

cargo build --release --quiet
(cd tests/gui && npm ci --no-audit --no-fund --silent)
node tests/gui/gui.test.mjs --bin target/release/crescendo --chromium "$CHROMIUM" "$@"
