#!/usr/bin/env bash
# Draws a layout as SVG with `layout draw --svg` and renders it to PNG, to
# look at what people get. Needs rsvg-convert (Debian: librsvg2-bin).
# LAYOUT_PROFILE=dev uses the debug build (`.ci/run`'s smoke run).
#
# Usage: tools/render_svg.sh 'bf16[16,8]{1,0:T(8,4)(2,1)}' out.png
set -euo pipefail
cd "$(dirname "$0")/.."
shape=${1:-'f32[4,8]{1,0:T(2,4)(2,1)}'}
png=${2:-layout.png}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cargo run -q --profile "${LAYOUT_PROFILE:-release}" -p xla-layout-cli -- draw "$shape" --svg "$tmp/grid.svg" > /dev/null
if ! command -v rsvg-convert > /dev/null; then
    echo "rsvg-convert not found: apt-get install librsvg2-bin" >&2
    exit 2
fi
rsvg-convert "$tmp/grid.svg" -o "$png"
echo "wrote $png"
