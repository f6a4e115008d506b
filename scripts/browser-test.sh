#!/usr/bin/env bash
# The hit-map page (`hittest render SCENE -o MAP.html`) in a real browser: headless Chromium,
# driven over the DevTools protocol by scripts/browser-test.mjs (node, no packages). Loads pages
# from files, moves the pointer, compares the panel with `hittest explain`, and measures load
# and hover times on app-large.
#
# Chromium: $CHROMIUM, or chromium / chromium-browser / google-chrome on the PATH; when none is
# found and this runs as root with apt-get, Debian's `chromium` package is installed. Otherwise
# (or without node) the test is skipped with a message and exit status 0.
#
#   scripts/browser-test.sh [--screenshot docs/hitmap-page.png]   # also rewrite the screenshot
set -euo pipefail
cd "$(dirname "$0")/.."

screenshot=""
if [ "${1:-}" = "--screenshot" ]; then screenshot="$(realpath -m "${2:?--screenshot needs a file}")"; fi

find_chromium() {
    if [ -n "${CHROMIUM:-}" ] && [ -x "$CHROMIUM" ]; then echo "$CHROMIUM"; return; fi
    for c in chromium chromium-browser google-chrome google-chrome-stable; do
        if command -v "$c" >/dev/null 2>&1; then command -v "$c"; return; fi
    done
}

chromium="$(find_chromium || true)"
if [ -z "$chromium" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "browser test: installing Debian's chromium package (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q --no-install-recommends chromium >/tmp/hittest-apt.log 2>&1; then
        apt-get update -q >>/tmp/hittest-apt.log 2>&1 || true
        apt-get install -y -q --no-install-recommends chromium >>/tmp/hittest-apt.log 2>&1 || true
    fi
    chromium="$(find_chromium || true)"
    [ -n "$chromium" ] || { echo "browser test: apt-get could not install chromium:"; tail -5 /tmp/hittest-apt.log; }
fi
if [ -z "$chromium" ]; then
    echo "SKIPPED: browser test: no Chromium (set CHROMIUM, or install Debian's chromium package; this machine cannot install it)"
    exit 0
fi
if ! command -v node >/dev/null 2>&1; then
    echo "SKIPPED: browser test: node is not installed (the DevTools driver is a node script)"
    exit 0
fi

echo "browser test: $("$chromium" --version 2>/dev/null | head -1), node $(node --version)"
swift build --product hittest >/tmp/hittest-browser-build.log 2>&1 || { tail -20 /tmp/hittest-browser-build.log; exit 1; }
bin="$(swift build --show-bin-path)/hittest"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
node scripts/browser-test.mjs --chromium "$chromium" --hittest "$bin" --work "$work" ${screenshot:+--screenshot "$screenshot"}
