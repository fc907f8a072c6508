#!/usr/bin/env python3
"""Print the README's offset tables from the last `cargo bench --bench offsets` run.

Usage (from the repository root, after the bench):

    cargo bench --bench offsets
    python3 tools/bench_table.py

Reads criterion's medians from target/criterion/<group>/<path>/new/estimates.json
and prints, per layout, nanoseconds per 4,096 offsets for every path and the
ratio of each to the item form (all from that one run), then the memory-order
walks as a fraction of a plain slice sum.
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "criterion")
LAYOUTS = [
    ("row_major", "`f32[512,1024]{1,0}`"),
    ("permuted", "`f32[512,1024]{0,1}`"),
    ("tiled", "`f32[512,1024]{1,0:T(8,128)}`"),
    ("packed", "`bf16[512,1024]{1,0:T(8,128)(2,1)}`"),
    ("seed", "`bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`"),
]
PATHS = ["item", "hand", "expr", "dyn", "plan", "runtime"]


def median(group, path):
    f = os.path.join(ROOT, group, path, "new", "estimates.json")
    try:
        with open(f) as fh:
            return json.load(fh)["median"]["point_estimate"]
    except OSError:
        sys.exit(f"missing {f}: run `cargo bench --bench offsets` first")


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


if __name__ == "__main__":
    main()
