#!/usr/bin/env bash
# Times `layout scan` (release build) on a synthetic ~100 MB HLO dump.
#
# The dump is made of the real and hand-written dumps in layout-cli/tests/data/hlo/
# (see the README there), repeated with every `%name` and module name given
# a per-copy suffix, so that no two copies are the same text. Nothing is
# kept: the dump lives in a temporary directory removed on exit.
#
# Usage: tools/scan_bench.sh [MEGABYTES]   (default 100)
# Needs: cargo, python3. LAYOUT_PROFILE=dev times the debug build instead
# (`.ci/run`'s smoke run: `LAYOUT_PROFILE=dev tools/scan_bench.sh 1`).
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

profile=${LAYOUT_PROFILE:-release}
cargo build --profile "$profile" -q -p xla-layout-cli
python3 - "$tmp/dump.hlo" "$mb" layout-cli/tests/data/hlo/*.hlo <<'PY'
import re, sys
out, mb, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
texts = [open(p, "rb").read() for p in paths]
name = re.compile(rb"%([A-Za-z_][A-Za-z0-9_.\-]*)")
module = re.compile(rb"^HloModule ([A-Za-z0-9_.\-]+)", re.M)
target, size, copy = mb * 1_000_000, 0, 0
with open(out, "wb") as f:
    while size < target:
        suffix = b"_r%d" % copy
        for t in texts:
            t = name.sub(lambda m: b"%" + m.group(1) + suffix, t)
            t = module.sub(lambda m: b"HloModule " + m.group(1) + suffix, t)
            if not t.endswith(b"\n"):
                t += b"\n"
            f.write(t)
            size += len(t)
        copy += 1
PY
echo "synthetic dump: $(wc -c < "$tmp/dump.hlo") bytes"
# The binary, wherever CARGO_TARGET_DIR puts it (`dev` builds go to debug/).
target=$(cargo metadata -q --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
bin=$target/$([ "$profile" = dev ] && echo debug || echo "$profile")/layout
for mode in table json; do
    args=(scan)
    if [ "$mode" = json ]; then args+=(--json); fi
    args+=("$tmp/dump.hlo")
    TIMEFORMAT="layout scan ($mode): %R s wall, %U s user, %S s system"
    time { "$bin" "${args[@]}" > "$tmp/out" 2> "$tmp/err" || echo "exit status $?"; }
    echo "  $(wc -c < "$tmp/out") bytes of output"
done
echo "totals: $(tail -n 1 "$tmp/out")"
