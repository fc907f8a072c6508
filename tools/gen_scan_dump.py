#!/usr/bin/env python3
"""Regenerates layout-cli/tests/data/dump/jax_cpu/: a real XLA dump directory for
`layout scan DIR`.

What it does: runs two small jitted JAX functions on the CPU with
`XLA_FLAGS=--xla_dump_to=<a temporary directory>`, then copies a small subset
of what XLA wrote (the HLO text before and after optimizations, the buffer
assignment, its `-values` file with "Total bytes used:", and the memory usage
report) into the test data directory, replacing what was there. Everything
else XLA writes (LLVM IR, object files, MLIR) is left out to keep the test
data small.

The functions are compiled from a string named `example.py`, so that the
dumps' `FileNames` sections name no path of this machine.

Needs jax (CPU); nothing in the build or the tests runs this script:

    python3 -m venv ../venv
    ../venv/bin/pip install jax
    ../venv/bin/python tools/gen_scan_dump.py [--out DIR]

The committed files were made with jax and jaxlib 0.10.2.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

# The program dumped. `step` is a dense layer: a matmul, a bias, tanh, a sum
# and a bf16 copy (a tuple result); `scale` a loop with a small carried state.
PROGRAM = """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(x, w, b):
    h = jnp.tanh(x @ w + b)
    return h.sum(axis=0), h.astype(jnp.bfloat16)

@jax.jit
def scale(v):
    return jax.lax.fori_loop(0, 3, lambda i, a: a * 2.0 + 1.0, v)

x = np.ones((8, 16), np.float32)
w = np.ones((16, 32), np.float32)
b = np.ones((32,), np.float32)
jax.block_until_ready(step(x, w, b))
jax.block_until_ready(scale(np.ones((5, 3), np.float32)))
"""

# The files kept from each module's dump, by the ending of their name.
KEEP = (
    ".before_optimizations.txt",
    "_after_optimizations.txt",
    "_after_optimizations-buffer-assignment.txt",
    "_after_optimizations-buffer-assignment-values.txt",
    "_after_optimizations-memory-usage-report.txt",
)

# The modules kept, by the function name in their file name.
MODULES = ("jit_step", "jit_scale")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_out = os.path.join(here, "..", "layout-cli", "tests", "data", "dump", "jax_cpu")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=default_out, help="the directory written")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, "dump")
        env = dict(os.environ, XLA_FLAGS="--xla_dump_to=" + dump, JAX_PLATFORMS="cpu")
        code = "exec(compile(%r, 'example.py', 'exec'))" % PROGRAM
        subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp, check=True)
        kept = []
        for name in sorted(os.listdir(dump)):
            path = os.path.join(dump, name)
            if not os.path.isfile(path):
                continue
            if not any(("." + m + ".") in name for m in MODULES):
                continue
            if name.endswith(KEEP):
                kept.append(path)
        if not kept:
            sys.exit("no module named %s in the dump" % ", ".join(MODULES))
        if os.path.isdir(args.out):
            shutil.rmtree(args.out)
        os.makedirs(args.out)
        total = 0
        for path in kept:
            with open(path, "rb") as f:
                data = f.read()
            if tmp.encode() in data:
                sys.exit("%s names the temporary directory" % path)
            shutil.copy(path, args.out)
            total += len(data)
        print("%d files, %d bytes -> %s" % (len(kept), total, args.out))


if __name__ == "__main__":
    main()
