#!/bin/sh
# Renders an `explain --html` page in headless Chromium (Debian's `chromium`)
# and saves a PNG screenshot; fails if Chromium fails or the PNG is empty.
#   scripts/screenshot.sh PAGE.html OUT.png [WIDTH HEIGHT]
set -eu
page=$1
out=$2
width=${3:-1000}
height=${4:-1400}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$profile" \
    --window-size="$width,$height" --screenshot="$out" "file://$(realpath "$page")" 2>/dev/null
test -s "$out"
echo "wrote $out"
