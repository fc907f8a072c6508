#!/usr/bin/env python3
"""Made-up criterion estimates for every bench that tools/bench_table.py reads.

Usage: python3 tools/smoke/fake_criterion.py DIR, then
`CRITERION_DIR=DIR python3 tools/bench_table.py [relayout [between|safe]]`.
`.ci/run` does this so that the table script keeps working between bench
runs; the numbers mean nothing.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import bench_table  # noqa: E402


def write(root, group, path, ns, throughput=None):
    d = os.path.join(root, group, path, "new")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "estimates.json"), "w") as f:
        json.dump({"median": {"point_estimate": ns}}, f)
    if throughput:
        with open(os.path.join(d, "benchmark.json"), "w") as f:
            json.dump({"throughput": {"Bytes": throughput}}, f)


def main():
    root = sys.argv[1]
    for k, (group, _) in enumerate(bench_table.LAYOUTS):
        for j, path in enumerate(bench_table.PATHS):
            write(root, group, path, 1000.0 + 10 * k + j)
    for name in ["tiled", "row_major"]:
        for j, path in enumerate(["wheels", "index_of", "slice"]):
            write(root, f"memory_order_{name}", path, 2.0e6 + j)
    paths = ["memcpy", "relayout", "threads", "ndarray", "memcpy_threads", "memcpy_cold", "relayout_cold"]
    for kind in ["relayout", "relayout_simd"]:
        for name, _ in bench_table.PAIRS + bench_table.BETWEEN:
            for j, path in enumerate(paths):
                write(root, f"{kind}_{name}", path, 5.0e6 + 1e5 * j, 64 << 20 if path == "memcpy" else None)


if __name__ == "__main__":
    main()
