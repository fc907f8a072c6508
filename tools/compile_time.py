#!/usr/bin/env python3
"""Compile-time cost of the `layout!` item form against its own expansion.

Usage (from anywhere; paths are relative to this file):

    python3 tools/compile_time.py [--count 1000] [--reps 5] [--seed 1] [--keep]

Needs the stable toolchain (the builds that are timed) and a nightly one
(`cargo +nightly`, only to print the expansion once). Output is a table on
stdout; progress goes to stderr.

What it builds, in a throwaway Cargo workspace under a temporary directory
(never inside the repository), both crates depending on this repository's
facade `xla-layout` by path:

- crate A (`ct_a`): `--count` distinct `layout! { pub type Lk = ...; }`
  invocations, one per macro call, with varied element types, ranks 1..4,
  permuted `minor_to_major`, one or two tile levels (some with `*`), and
  some `L(n)`, `E(n)`, `S(n)`; plus `pub fn use_all()` calling every
  type's `offset` on an in-bounds index. The shapes come from a seeded
  generator and are kept only if this repository's own validator (the
  `layout check` command of `xla-layout-cli`) accepts them; duplicates are
  dropped by canonical text, so the crate is the same on every run.
- crate B (`ct_b`): the same crate with the macro's output written out, as
  a person would have to write it without the macro. It is crate A's
  expansion (`cargo +nightly rustc --profile=check -- -Zunpretty=expanded`)
  cleaned into a stable crate: the prelude/`#![feature]` lines dropped, the
  built-in derives folded back into `#[derive(..)]` and
  `debug_assert!`/`assert!` folded back from their expansions (the macro
  emits those as such, so A and B ask rustc for the same derive and
  assertion work). B still depends on the facade (so both crates see the
  same dependency graph) but never calls the macro.

How it times, fairly for both crates:

1. Warm-up: `cargo build` and `cargo check` of both crates, which builds
   every dependency (`xla-layout`, `xla-layout-core`, `xla-layout-macros`, `syn`, ...)
   once into the shared target directory. Dependencies are never rebuilt
   after this, so neither crate pays for them in a timed run.
2. `--reps` rounds; in each, for `cargo build` (debug, incremental as cargo
   defaults) and `cargo check`: `cargo clean -p <crate>` (untimed, removes
   only that crate's artifacts and incremental state), then the wall time of
   `cargo build -p <crate>` / `cargo check -p <crate>`, a build of that
   crate alone from clean. The order A, B alternates with B, A between
   rounds so slow drift on a shared machine hits both alike.
3. Reported: median and minimum per crate and mode of the wall time and of
   the CPU time (user + sys of cargo and its rustc, from `getrusage`), and
   the ratio A / B of each (the goal is <= 1.5). On a shared machine the
   CPU time and the minimum are the least disturbed by other load. `cargo
   noop` is the wall time of a build with nothing to do, the fixed cargo
   overhead inside every number.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TYPES = [
    "pred", "s4", "s8", "s16", "s32", "s64", "u4", "u8", "u16", "u32", "u64",
    "f16", "bf16", "f32", "f64", "f8e4m3fn", "f8e5m2", "c64", "c128",
]
DIM_CHOICES = [1, 2, 3, 4, 5, 7, 8, 12, 16, 24, 32, 64, 100, 128, 256, 512, 1024]
TILE_CHOICES = [1, 2, 3, 4, 5, 8, 16, 32, 128]
DERIVABLE = {"Clone", "Copy", "Debug", "Default", "PartialEq", "Eq", "Hash", "PartialOrd", "Ord"}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def run(
    cmd: list[str], cwd: Path, env: dict[str, str], stdin: str | None = None, ok: tuple[int, ...] = (0,)
) -> str:
    """stdout of `cmd`; any exit status outside `ok` ends the script."""
    p = subprocess.run(cmd, cwd=cwd, env=env, input=stdin, capture_output=True, text=True)
    if p.returncode not in ok:
        sys.exit(f"command failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-4000:]}")
    return p.stdout


# --- generating shapes -------------------------------------------------------


def candidate(rng: random.Random) -> tuple[str, list[int]]:
    rank = rng.randint(1, 4)
    while True:
        dims = [rng.choice(DIM_CHOICES) for _ in range(rank)]
        n = 1
        for d in dims:
            n *= d
        if n <= 1 << 24:
            break
    text = f"{rng.choice(TYPES)}[{','.join(map(str, dims))}]"
    if rng.random() < 0.08:
        return text, dims  # default layout, no braces
    m2m = list(range(rank - 1, -1, -1))
    if rng.random() < 0.5:
        rng.shuffle(m2m)
    attrs = ""
    if rng.random() < 0.6:
        levels = 2 if rng.random() < 0.35 else 1
        for _ in range(levels):
            k = rng.randint(1, rank)
            entries = [str(rng.choice(TILE_CHOICES)) for _ in range(k)]
            for i in range(k - 1):  # `*` may not be the last entry
                if rng.random() < 0.15:
                    entries[i] = "*"
            attrs += f"T({','.join(entries)})"
    if rng.random() < 0.15:
        attrs += f"L({rng.choice([2, 3, 4, 8, 128])})"
    if rng.random() < 0.15:
        attrs += f"E({rng.choice([1, 2, 4, 8, 16, 32])})"
    if rng.random() < 0.15:
        attrs += f"S({rng.choice([1, 5])})"
    text += "{" + ",".join(map(str, m2m)) + (":" + attrs if attrs else "") + "}"
    return text, dims


def shapes(count: int, seed: int, env: dict[str, str]) -> list[tuple[str, list[int]]]:
    """`count` distinct shapes that this repository's validator accepts."""
    rng = random.Random(seed)
    out: list[tuple[str, list[int]]] = []
    seen: set[str] = set()
    while len(out) < count:
        batch = [candidate(rng) for _ in range(2 * count)]
        # `layout check` exits 1 when any line fails, which most batches
        # have: the JSON lines say which.
        lines = run(
            ["cargo", "run", "-q", "-p", "xla-layout-cli", "--", "check"],
            ROOT,
            env,
            stdin="".join(t + "\n" for t, _ in batch),
            ok=(0, 1),
        ).splitlines()
        if len(lines) != len(batch):
            sys.exit(f"layout check printed {len(lines)} lines for {len(batch)} shapes")
        for (text, dims), line in zip(batch, lines):
            r = json.loads(line)
            if r["ok"] and r["canonical"] not in seen and len(out) < count:
                seen.add(r["canonical"])
                out.append((text, dims))
    return out


def crate_a(items: list[tuple[str, list[int]]]) -> str:
    lines = ["//! Generated by tools/compile_time.py: one `layout!` call per type.", ""]
    for k, (text, _) in enumerate(items):
        lines.append(f"xla_layout::layout! {{ pub type L{k} = {text}; }}")
    lines += ["", "pub fn use_all() -> usize {", "    let mut s = 0usize;"]
    for k, (_, dims) in enumerate(items):
        index = ", ".join(str((k * 31 + d * 17) % n) for d, n in enumerate(dims))
        lines.append(f"    s = s.wrapping_add(L{k}::offset([{index}]));")
    lines += ["    s", "}", ""]
    return "\n".join(lines)


# --- cleaning the expansion into a stable crate ------------------------------

STRING = r'"(?:[^"\\]|\\.)*"'
PANIC = r"\{\s*::core::panicking::panic_fmt\(format_args!\((" + STRING + r")\)\);\s*\}"
DEBUG_ASSERT = re.compile(r"if true \{\s*if !\((.*?)\) \{\s*" + PANIC + r"\s*\};\s*\};", re.S)
CONST_ASSERT = re.compile(r"const _: \(\) =\s*if !\((.*?)\) \{\s*" + PANIC + r"\s*\};", re.S)


def skip_item(src: str, i: int) -> int:
    """The end of the item (ending in a `{..}` block) starting at `i`."""
    depth = 0
    in_str = False
    while i < len(src):
        c = src[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced braces in the expansion")


def clean(expanded: str) -> str:
    src = re.sub(r"^#!\[feature\([^)]*\)\]\n", "", expanded, flags=re.M)
    src = re.sub(r"^(#\[macro_use\]\n)?extern crate std;\n", "", src, flags=re.M)
    src = re.sub(r"^#\[prelude_import\]\nuse std::prelude::[^;]*;\n", "", src, flags=re.M)
    # Built-in derives: drop the impls, remember which traits each type had.
    derives: dict[str, list[str]] = {}
    out = []
    pos = 0
    marker = "#[automatically_derived]"
    impl_re = re.compile(r"(?:unsafe )?impl\s+(?:<[^>]*>\s*)?::core::[\w:]*::(\w+)(?:<[^>]*>)?\s+for\s+(\w+)")
    while (i := src.find(marker, pos)) >= 0:
        out.append(src[pos:i])
        m = impl_re.search(src, i)
        if m is None:
            raise ValueError(f"no impl after {marker} at {i}")
        trait, ty = m.group(1), m.group(2)
        if trait in DERIVABLE:
            derives.setdefault(ty, []).append(trait)
        pos = skip_item(src, m.start())
        while pos < len(src) and src[pos] == "\n":
            pos += 1
    out.append(src[pos:])
    src = "".join(out)

    def add_derive(m: re.Match[str]) -> str:
        traits = derives.get(m.group(3))
        attr = f"#[derive({', '.join(traits)})]\n" if traits else ""
        return m.group(1) + attr + m.group(2)

    src = re.sub(r"^(\s*)((?:pub(?:\([^)]*\))? )?struct (\w+)\b)", add_derive, src, flags=re.M)
    src = DEBUG_ASSERT.sub(lambda m: f"::core::debug_assert!({m.group(1)}, {m.group(2)});", src)
    src = CONST_ASSERT.sub(lambda m: f"const _: () = ::core::assert!({m.group(1)}, {m.group(2)});", src)
    # Any other `panic!("..")` the macro emits (in its const blocks).
    src = re.sub(
        r"::core::panicking::panic_fmt\(format_args!\((" + STRING + r")\)\)",
        lambda m: f"::core::panic!({m.group(1)})",
        src,
    )
    src = re.sub(
        r"::core::panicking::panic\((" + STRING + r")\)",
        lambda m: f"::core::panic!({m.group(1)})",
        src,
    )
    left = [s for s in ("panicking::", "#[coverage", "StructuralPartialEq", "TrivialClone") if s in src]
    if left:
        raise ValueError(f"the expansion still uses unstable items: {left}")
    return "//! Generated by tools/compile_time.py: crate A's expansion, cleaned.\n" + src


# --- the workspace and the timings --------------------------------------------


def manifest(name: str) -> str:
    facade = ROOT.as_posix()
    return (
        f'[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
        f'[dependencies]\nxla-layout = {{ path = "{facade}" }}\n'
    )


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + sys of cargo and the rustc it waited for)."""
    c0, t0 = cpu_children(), time.perf_counter()
    run(cmd, cwd, env)
    return time.perf_counter() - t0, cpu_children() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1000, help="layout! invocations in crate A")
    ap.add_argument("--reps", type=int, default=5, help="timed clean builds per crate and mode")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true", help="keep the temporary workspace")
    args = ap.parse_args()

    env = dict(os.environ, CARGO_TERM_COLOR="never")
    env.pop("RUSTFLAGS", None)
    items = shapes(args.count, args.seed, env)
    log(f"{len(items)} distinct valid shapes (seed {args.seed})")

    ws = Path(tempfile.mkdtemp(prefix="layout-compile-time-"))
    try:
        env["CARGO_TARGET_DIR"] = str(ws / "target")
        (ws / "Cargo.toml").write_text('[workspace]\nmembers = ["ct_a", "ct_b"]\nresolver = "2"\n')
        if (ROOT / "Cargo.lock").exists():
            shutil.copy(ROOT / "Cargo.lock", ws / "Cargo.lock")  # the repo's dependency versions
        for name, body in (("ct_a", crate_a(items)), ("ct_b", "")):
            (ws / name / "src").mkdir(parents=True)
            (ws / name / "Cargo.toml").write_text(manifest(name))
            (ws / name / "src" / "lib.rs").write_text(body)

        log("expanding crate A with nightly ...")
        nightly = dict(env, CARGO_TARGET_DIR=str(ws / "target-nightly"))
        expanded = run(
            ["cargo", "+nightly", "rustc", "-q", "-p", "ct_a", "--profile=check", "--", "-Zunpretty=expanded"],
            ws,
            nightly,
        )
        (ws / "ct_b" / "src" / "lib.rs").write_text(clean(expanded))
        shutil.rmtree(ws / "target-nightly", ignore_errors=True)

        log("warm-up: building the dependencies and both crates ...")
        for mode in ("build", "check"):
            for name in ("ct_a", "ct_b"):
                run(["cargo", mode, "-q", "-p", name], ws, env)
        noop = min(timed(["cargo", "build", "-q", "-p", "ct_a"], ws, env)[0] for _ in range(3))

        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for rep in range(args.reps):
            order = ("ct_a", "ct_b") if rep % 2 == 0 else ("ct_b", "ct_a")
            for mode in ("build", "check"):
                for name in order:
                    run(["cargo", "clean", "-q", "-p", name], ws, env)
                    wall, cpu = timed(["cargo", mode, "-q", "-p", name], ws, env)
                    times.setdefault((mode, name), []).append((wall, cpu))
                    log(f"  round {rep + 1}/{args.reps}: cargo {mode} -p {name}: {wall:.2f} s wall, {cpu:.2f} s cpu")

        src_a = (ws / "ct_a" / "src" / "lib.rs").read_text()
        src_b = (ws / "ct_b" / "src" / "lib.rs").read_text()
        print(f"crate A: {args.count} layout! calls, {len(src_a.splitlines())} lines")
        print(f"crate B: the expansion, {len(src_b.splitlines())} lines")
        print(f"{args.reps} clean builds of each crate per mode; dependencies prebuilt; cargo noop {noop:.2f} s")
        print()
        print(f"{'mode':<12}{'time':<6}{'A median':>10}{'B median':>10}{'A/B':>7}{'A min':>9}{'B min':>9}{'A/B':>7}")
        for mode in ("build", "check"):
            for k, metric in enumerate(("wall", "cpu")):
                a = [t[k] for t in times[(mode, "ct_a")]]
                b = [t[k] for t in times[(mode, "ct_b")]]
                ma, mb = statistics.median(a), statistics.median(b)
                print(
                    f"{'cargo ' + mode:<12}{metric:<6}{ma:>9.2f}s{mb:>9.2f}s{ma / mb:>7.2f}"
                    f"{min(a):>8.2f}s{min(b):>8.2f}s{min(a) / min(b):>7.2f}"
                )
        if args.keep:
            print(f"\nworkspace kept at {ws}")
    finally:
        if not args.keep:
            shutil.rmtree(ws, ignore_errors=True)


if __name__ == "__main__":
    main()
