#!/usr/bin/env python3
"""XLA's own verdict on shape strings, through the HLO parser that jaxlib ships.

The generators under tools/ (gen_xla_vectors.py, hunt_parity.py) ask this
script what XLA makes of each shape string; layout-cli/tests/data/xla_vectors.jsonl
keeps its answers, so nothing else needs jax.

Protocol: one shape string per line on stdin (blank lines are skipped), one
JSON object per line on stdout, in the same order:

    {"input": s, "ok": bool, "canonical": str | null,
     "stage": "parse" | "validate" | "crash" | null, "error": str | null}

- ok: XLA parsed `s` as the shape of an HLO parameter and the module passed
  XLA's checks (the conversion to MLIR, which validates every layout).
- canonical: the shape as XLA prints it back (only once it parsed).
- stage: where it was rejected; "crash" when XLA aborted the process (a
  CHECK failure): the worker is then started again for the next line.
- error: XLA's message, whitespace folded, at most 400 characters.

Each string is put into a one-instruction module,

    HloModule oracle
    ENTRY main { ROOT x = <s> parameter(0) }

so a `//` comment inside `s` also comments out `parameter(0)`. With
`--newline` the shape's line ends before `parameter(0)`, which is how
XLA's own ParseShape sees such a comment.

Setup (not needed by the tests or CI):

    python3 -m venv .venv-xla && .venv-xla/bin/pip install jax
    printf 'f32[3,5]{1,0:T(2,2)}\\n' | .venv-xla/bin/python tools/xla_oracle.py
    python3 tools/gen_xla_vectors.py --oracle-python .venv-xla/bin/python
"""

import argparse
import json
import os
import subprocess
import sys

# Runs in a child process, so that an XLA abort loses one answer, not the run.
# It answers `READY` once jax is imported, then one JSON line per request.
WORKER = r"""
import json, sys
from jax._src.lib import xla_client

# The three entry points, looked up once: a jaxlib that moved one fails here,
# loudly, instead of answering "parse" for every string.
try:
    PARSE = xla_client.hlo.hlo_module_from_text
    COMPUTATION = xla_client.XlaComputation
    TO_MLIR = xla_client._xla.mlir.xla_computation_to_mlir_module
except AttributeError as e:
    print("MISSING " + str(e), flush=True)
    sys.exit(1)

NEWLINE = sys.argv[1] == "1"
SEP = "\n  " if NEWLINE else " "

def fold(e):
    return " ".join(str(e).split())[:400]

def verdict(shape):
    text = "HloModule oracle\n\nENTRY main {\n  ROOT x = " + shape + SEP + "parameter(0)\n}\n"
    out = {"input": shape, "ok": False, "canonical": None, "stage": None, "error": None}
    try:
        module = PARSE(text)
    except Exception as e:
        out["stage"], out["error"] = "parse", fold(e)
        return out
    for line in module.to_string().splitlines():
        if "parameter(0)" in line and "=" in line:
            out["canonical"] = line.split("=", 1)[1].rsplit("parameter(0)", 1)[0].strip()
            break
    try:
        TO_MLIR(COMPUTATION(module.as_serialized_hlo_module_proto()))
    except Exception as e:
        out["stage"], out["error"] = "validate", fold(e)
        return out
    out["ok"] = True
    return out

print("READY", flush=True)
for request in sys.stdin:
    print(json.dumps(verdict(json.loads(request))), flush=True)
"""


class Xla:
    """A worker process with jax loaded."""

    def __init__(self, newline: bool):
        self.newline = newline
        env = dict(os.environ, JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="3")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, "1" if newline else "0"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        ready = self.proc.stdout.readline().strip()
        if ready.startswith("MISSING "):
            sys.exit("xla_oracle: this jaxlib lacks an entry point: %s" % ready[8:])
        if ready != "READY":
            sys.exit("xla_oracle: the worker did not start (is jax installed for %s?)" % sys.executable)

    def ask(self, shape: str):
        """XLA's answer, or None if the worker died on it."""
        try:
            self.proc.stdin.write(json.dumps(shape) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            return None
        return json.loads(line) if line else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--newline", action="store_true", help="end the shape's line before parameter(0)")
    args = ap.parse_args()
    xla = Xla(args.newline)
    for line in sys.stdin:
        shape = line.rstrip("\n")
        if not shape.strip():
            continue
        answer = xla.ask(shape)
        if answer is None:
            answer = {"input": shape, "ok": False, "canonical": None, "stage": "crash", "error": "XLA aborted"}
            xla = Xla(args.newline)
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
