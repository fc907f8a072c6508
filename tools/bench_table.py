#!/usr/bin/env python3
"""Print the README's offset or relayout tables from the last bench run.

Usage (from the repository root, after the bench):

    cargo bench -p xla-layout-testsuite --bench offsets
    python3 tools/bench_table.py

    cargo bench -p xla-layout-testsuite --bench relayout --features rayon,simd
    python3 tools/bench_table.py relayout
    python3 tools/bench_table.py relayout between

    cargo bench -p xla-layout-testsuite --bench relayout --features rayon
    python3 tools/bench_table.py relayout safe

Reads criterion's medians from target/criterion/<group>/<path>/new/estimates.json
and prints, per layout, nanoseconds per 4,096 offsets for every path and the
ratio of each to the item form (all from that one run), then the memory-order
walks as a fraction of a plain slice sum.
"""
import json
import os
import sys

# Criterion's output; `CRITERION_DIR` points elsewhere (`.ci/run`'s smoke run
# feeds it made-up estimates).
ROOT = os.environ.get("CRITERION_DIR") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "target", "criterion"
)
LAYOUTS = [
    ("row_major", "`f32[512,1024]{1,0}`"),
    ("permuted", "`f32[512,1024]{0,1}`"),
    ("tiled", "`f32[512,1024]{1,0:T(8,128)}`"),
    ("packed", "`bf16[512,1024]{1,0:T(8,128)(2,1)}`"),
    ("seed", "`bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`"),
]
PATHS = ["item", "hand", "expr", "dyn", "ranked", "plan", "runtime"]
PAIRS = [
    ("f32_rows_to_cols", "f32 4096 x 4096 `{1,0}` -> `{0,1}`"),
    ("f32_rows_to_tiled", "f32 4096 x 4096 `{1,0}` -> `{1,0:T(8,128)}`"),
    ("f32_tiled_to_cols", "f32 4096 x 4096 `{1,0:T(8,128)}` -> `{0,1}`"),
    ("bf16_rows_to_tiled", "bf16 4096 x 4096 `{1,0}` -> `{1,0:T(8,128)(2,1)}`"),
    ("bf16_tiled_to_rows", "bf16 4096 x 4096 `{1,0:T(8,128)(2,1)}` -> `{1,0}`"),
    ("bf16_seed_to_rows", "`bf16[8,4,256,1024]{3,2,0,1:T(8,128)(2,1)}` -> row-major"),
    ("s4_packed_to_tiled", "`s4[4096,8192]{1,0:E(4)}` -> `{1,0:T(8,128)(2,1)E(4)}`"),
    ("s4_bytes_to_tiled", "`s4[4096,8192]{1,0}` (a byte per value) -> `{1,0:T(8,128)(2,1)E(4)}`"),
    ("bf16_rows_to_cols", "bf16 4096 x 4096 `{1,0}` -> `{0,1}`"),
    ("f64_cols_to_rows", "f64 2000 x 3000 `{0,1}` -> `{1,0}`"),
]

# Transposes into and between tilings: `relayout between`.
BETWEEN = [
    ("f32_cols_to_tiled", "f32 4096 x 4096 `{0,1}` -> `{1,0:T(8,128)}`"),
    ("u8_cols_to_tiled", "u8 4096 x 4096 `{0,1}` -> `{1,0:T(8,128)}`"),
    ("f32_tiled_to_tiled_cols", "f32 4096 x 4096 `{1,0:T(8,128)}` -> `{0,1:T(8,128)}`"),
    ("bf16_tiled_to_tiled_cols", "bf16 4096 x 4096 `{1,0:T(8,128)(2,1)}` -> `{0,1:T(8,128)(2,1)}`"),
    ("s8_tiled_to_tiled_cols", "s8 4096 x 4096 `{1,0:T(32,128)(4,1)}` -> `{0,1:T(32,128)(4,1)}`"),
    ("s4_packed_to_tiled_cols", "`s4[4096,8192]{1,0:E(4)}` -> `{0,1:T(8,128)(2,1)E(4)}`"),
    ("s4_tiled_to_packed_cols", "`s4[4096,8192]{1,0:T(8,128)(2,1)E(4)}` -> `{0,1:E(4)}`"),
    ("s4_tiled_to_tiled_cols", "`s4[4096,8192]{1,0:T(8,128)(2,1)E(4)}` -> `{0,1:T(8,128)(2,1)E(4)}`"),
]


def median(group, path, optional=False):
    f = os.path.join(ROOT, group, path, "new", "estimates.json")
    try:
        with open(f) as fh:
            return json.load(fh)["median"]["point_estimate"]
    except OSError:
        if optional:
            return None
        sys.exit(f"missing {f}: run the bench first (see --help)")


def bytes_of(group):
    f = os.path.join(ROOT, group, "memcpy", "new", "benchmark.json")
    with open(f) as fh:
        return json.load(fh)["throughput"]["Bytes"]


def relayout(kind, pairs=PAIRS):
    print(
        "| pair | relayout | fraction of memcpy | from a cold cache (fraction of cold memcpy) "
        "| threads (fraction of threaded memcpy) | ndarray `assign(&a.t())` |"
    )
    print("|---|---|---|---|---|---|")
    for name, text in pairs:
        g = f"{kind}_{name}"
        mem, one = median(g, "memcpy"), median(g, "relayout")
        many, nd = median(g, "threads", True), median(g, "ndarray", True)
        mem_many = median(g, "memcpy_threads", True)
        mem_cold, cold = median(g, "memcpy_cold", True), median(g, "relayout_cold", True)
        gbs = lambda ns: bytes_of(g) / ns
        cells = [f"{gbs(one):.1f} GB/s", f"{mem / one:.2f}x"]
        cells.append(f"{gbs(cold):.1f} GB/s ({mem_cold / cold:.2f}x)" if cold and mem_cold else "-")
        cells.append(f"{gbs(many):.1f} GB/s ({mem_many / many:.2f}x)" if many and mem_many else "-")
        cells.append(f"{gbs(nd):.2f} GB/s (ours {nd / one:.1f}x faster)" if nd else "-")
        print(f"| {text} | " + " | ".join(cells) + " |")


def main():
    print("| layout | " + " | ".join(PATHS) + " |")
    print("|---|" + "---|" * len(PATHS))
    for group, text in LAYOUTS:
        item = median(group, "item")
        cells = []
        for p in PATHS:
            ns = median(group, p)
            cells.append(f"{ns:,.0f} ({ns / item:.2f}x)")
        print(f"| {text} | " + " | ".join(cells) + " |")
    print()
    print("| walk | digit wheels | `index_of` per slot | slice sum |")
    print("|---|---|---|---|")
    for name in ["tiled", "row_major"]:
        g = f"memory_order_{name}"
        wheels, index_of, plain = (median(g, p) for p in ["wheels", "index_of", "slice"])
        print(
            f"| {name} | {wheels / 1e6:.2f} ms ({plain / wheels:.2f}x of slice) | "
            f"{index_of / 1e6:.2f} ms ({plain / index_of:.2f}x) | {plain / 1e6:.2f} ms |"
        )


if __name__ == "__main__" and sys.argv[1:] == ["relayout"]:
    relayout("relayout_simd")
elif __name__ == "__main__" and sys.argv[1:] == ["relayout", "between"]:
    relayout("relayout_simd", BETWEEN)
elif __name__ == "__main__" and sys.argv[1:] == ["relayout", "safe"]:
    relayout("relayout")
elif __name__ == "__main__":
    main()
