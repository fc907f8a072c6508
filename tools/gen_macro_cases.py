#!/usr/bin/env python3
"""Generate testsuite/tests/macro_consistency.rs: the `layout!` macro against the runtime.

Stdlib only, deterministic (fixed seed). Writes a Rust integration test with
random VALID array layouts: every array element type (sub-byte ones with
E(n)), ranks 0..=5, dims 0..9 and bounded `<=N`, random minor_to_major, up to
three tile levels (with `*`, never trailing, and tiles longer than the rank),
L(n), E(n), S(0..127), legacy padding options, token and string-literal
forms. Each case gets an expression-form constant and an item-form type, and
a test that compares them with `xla_layout::parse_array` of the same text (the
oracle; no number in the generated file is an expected value). Some cases are
also evaluated in `const` context.

Usage (from anywhere; paths are relative to the repository root):
  python3 tools/gen_macro_cases.py            # writes testsuite/tests/macro_consistency.rs
  python3 tools/gen_macro_cases.py --check    # exit 1 if the file is stale
  python3 tools/gen_macro_cases.py --seed 7 --cases 1000 --out testsuite/tests/hunt.rs
                                              # a bug hunt (do not commit)
"""
import argparse
import os
import random
import sys

SEED = 20250612
CASES = 300
CONST_CASES = 16
# Keep every case cheap to check exhaustively in a debug build.
MAX_ELEMENTS = 4096
MAX_ALLOCATED = 32768

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join("testsuite", "tests", "macro_consistency.rs")

# name -> bit width (docs/grammar.md, element types)
TYPES = {
    "pred": 1, "s1": 1, "s2": 2, "s4": 4, "s8": 8, "s16": 16, "s32": 32,
    "s64": 64, "u1": 1, "u2": 2, "u4": 4, "u8": 8, "u16": 16, "u32": 32,
    "u64": 64, "f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f8e5m2": 8,
    "f8e4m3": 8, "f8e4m3fn": 8, "f8e4m3b11fnuz": 8, "f8e3m4": 8,
    "f8e5m2fnuz": 8, "f8e4m3fnuz": 8, "f8e8m0fnu": 8, "f4e2m1fn": 4,
    "c64": 64, "c128": 128,
}
SUB_BYTE = [t for t, w in TYPES.items() if w < 8 and t != "pred"]
PADDING_VALUES = {
    "zero": "Zero", "one": "One", "lowest": "Lowest", "highest": "Highest",
    "unknown": "Unknown",
}


def ceil_div(a, b):
    return -(-a // b)


def allocated(sizes, m2m, tiles, tail):
    """Element slots of the allocation (the Plan's size rules), for bounds."""
    n = len(sizes)
    w = [sizes[m2m[n - 1 - p]] for p in range(n)]
    for tile in tiles:
        k = len(tile)
        if k > len(w):
            w = [1] * (k - len(w)) + w
        base = len(w) - k
        grid, inner, acc = [], [], 1
        for j, t in enumerate(tile):
            acc *= w[base + j]
            if t != "*":
                grid.append(ceil_div(acc, t))
                inner.append(t)
                acc = 1
        w = w[:base] + grid + inner
    total = 1
    for d in w:
        total *= d
    if tail > 1:
        total = ceil_div(total, tail) * tail
    return total


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


class Case:
    pass


def gen_case(rng, i):
    c = Case()
    c.index = i
    c.ty = rng.choice(list(TYPES))
    if rng.random() < 0.25:
        c.ty = rng.choice(SUB_BYTE)
    rank = rng.choices(range(6), weights=[8, 14, 22, 22, 18, 16])[0]
    while True:
        dims = []  # (text, layout size)
        for _ in range(rank):
            r = rng.random()
            if r < 0.04:
                dims.append(("0", 0))
            elif r < 0.18:
                n = rng.randint(0 if rng.random() < 0.1 else 1, 9)
                dims.append(("<=%d" % n, n))
            else:
                n = rng.randint(1, 9)
                # now and then a leading zero (XLA accepts them)
                text = ("0%d" % n) if rng.random() < 0.03 else str(n)
                dims.append((text, n))
        if prod(d[1] for d in dims) <= MAX_ELEMENTS:
            break
    c.rank = rank
    c.dims = dims
    c.limits = [d[1] for d in dims]
    c.m2m = list(range(rank))
    rng.shuffle(c.m2m)
    # legacy padding
    c.padded = None
    c.padding_value = None
    if rank > 0 and rng.random() < 0.08:
        while True:
            c.padded = [n + rng.choice([0, 0, 1, 2, 3]) for n in c.limits]
            if prod(c.padded) <= 4 * MAX_ELEMENTS:
                break
        if rng.random() < 0.7:
            c.padding_value = rng.choice(list(PADDING_VALUES))
    sizes = c.padded if c.padded else c.limits
    # attributes
    c.tail = 1
    if rng.random() < 0.15:
        c.tail = rng.choice([1, 2, 3, 4, 5, 7, 8, 12, 16])
    width = TYPES[c.ty]
    c.esize = None
    if c.ty in SUB_BYTE and rng.random() < 0.75:
        c.esize = rng.choice([width, width, width, 1, 2, 4, 8, 0])
    elif rng.random() < 0.06:
        c.esize = rng.choice([0, 1, 4, 8, width, 2 * width])
    c.space = None
    if rng.random() < 0.3:
        c.space = rng.choice([0, 1, 1, 2, 5, 5, 127, rng.randint(0, 127)])
    # tiles
    for _ in range(100):
        levels = rng.choices([0, 1, 2, 3], weights=[35, 35, 20, 10])[0]
        tiles = []
        for _ in range(levels):
            k = rng.randint(1, max(1, rank) + 2)
            tile = []
            for j in range(k):
                if j < k - 1 and rng.random() < 0.2:
                    tile.append("*")
                elif rng.random() < 0.06:
                    tile.append(rng.choice([16, 32, 128]))
                else:
                    tile.append(rng.choice([1, 1, 2, 2, 2, 3, 4, 4, 5, 8]))
            tiles.append(tile)
        if allocated(sizes, c.m2m, tiles, c.tail) <= MAX_ALLOCATED:
            break
    else:
        tiles = []
    c.tiles = tiles
    c.literal = rng.random() < 0.25
    c.text = shape_text(c, rng)
    # a few item groups share one invocation
    c.vis = rng.choice(["pub ", "pub(crate) ", ""])
    return c


def shape_text(c, rng):
    attrs = ""
    if c.tiles:
        attrs += "T" + "".join(
            "(" + ",".join(str(t) for t in tile) + ")" for tile in c.tiles
        )
    if c.tail != 1 or rng.random() < 0.03:
        attrs += "L(%d)" % c.tail
    if c.esize is not None:
        attrs += "E(%d)" % c.esize
    if c.space is not None:
        attrs += "S(%d)" % c.space
    dims = ",".join(d[0] for d in c.dims)
    m2m = ",".join(str(d) for d in c.m2m)
    descending = c.m2m == list(range(c.rank))[::-1]
    if attrs:
        layout = "{%s:%s}" % (m2m, attrs)
    elif c.rank == 0 or (descending and rng.random() < 0.2):
        layout = ""  # XLA's default layout (a scalar's `{}` is a syntax error)
    else:
        layout = "{%s}" % m2m
    text = "%s[%s]%s" % (c.ty, dims, layout)
    if c.literal and rng.random() < 0.5:
        # whitespace and comments between tokens (string form only)
        out = []
        for ch in text:
            out.append(ch)
            if ch in ",:" and rng.random() < 0.5:
                out.append(rng.choice([" ", "  ", " /* c */ "]))
        text = "".join(out)
    return text


def rust_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def spec_tokens(c):
    """The macro argument: the shape (tokens or literal) and options."""
    s = rust_str(c.text) if c.literal else c.text
    if c.padded:
        s += ", padded = [%s]" % ", ".join(str(p) for p in c.padded)
        if c.padding_value:
            s += ", padding_value = %s" % c.padding_value
    return s


def padding_arg(c):
    if not c.padded:
        return "None"
    value = PADDING_VALUES[c.padding_value or "unknown"]
    return "Some((&[%s], PaddingValue::%s))" % (
        ", ".join(str(p) for p in c.padded),
        value,
    )


HEADER = '''//! GENERATED by `tools/gen_macro_cases.py` (seed @SEED@); do not edit, rerun
//! `python3 tools/gen_macro_cases.py` instead.
//!
//! @CASES@ random valid layouts, each written once as an expression-form
//! constant and once as an item-form type, checked against the runtime
//! (`xla_layout::parse_array` of the same text, with `with_legacy_padding` for
//! the `padded = [..]` cases): canonical text, rank, dims, sizes, element
//! type, memory space, the whole `StaticLayout` (tables included), and the
//! offset of every in-bounds index through every path (expression form,
//! specialised `Name::offset`, `StaticShape::offset`), plus `index_of` for
//! every slot of the allocation. @CONSTS@ cases are also evaluated in `const`
//! context. No expected value is written here: the runtime is the oracle.

#![allow(clippy::unreadable_literal)]

use xla_layout::{
    layout, parse_array, ArrayShape, ElementType, ErrorKind, PaddingValue, Plan, StaticLayout,
    StaticShape,
};

/// What an item-form type exposes, gathered without generics.
struct Item<const R: usize> {
    layout: StaticLayout<R>,
    offset: fn([usize; R]) -> usize,
    trait_offset: fn([usize; R]) -> usize,
    trait_layout: StaticLayout<R>,
    dims: [usize; R],
    element_type: ElementType,
    allocated: usize,
    bytes: usize,
    space: u8,
}

macro_rules! item {
    ($name:ident, $r:literal) => {
        Item::<$r> {
            layout: $name::LAYOUT,
            offset: $name::offset,
            trait_offset: <$name as StaticShape<$r>>::offset,
            trait_layout: <$name as StaticShape<$r>>::LAYOUT,
            dims: <$name as StaticShape<$r>>::DIMS,
            element_type: <$name as StaticShape<$r>>::ELEMENT_TYPE,
            allocated: <$name as StaticShape<$r>>::ALLOCATED_ELEMENTS,
            bytes: <$name as StaticShape<$r>>::SIZE_IN_BYTES,
            space: <$name as StaticShape<$r>>::MEMORY_SPACE,
        }
    };
}

/// The runtime's shape for `text` (+ legacy padding).
fn runtime(text: &str, padding: Option<(&[u64], PaddingValue)>) -> ArrayShape {
    let shape = parse_array(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    match padding {
        None => shape,
        Some((padded, value)) => shape
            .with_legacy_padding(padded, value)
            .unwrap_or_else(|e| panic!("{text:?} padded {padded:?}: {e}")),
    }
}

/// Calls `f` on every index below `limits`, row-major.
fn for_each_index<const R: usize>(limits: [usize; R], mut f: impl FnMut([usize; R])) {
    if limits.contains(&0) {
        return;
    }
    let mut idx = [0usize; R];
    loop {
        f(idx);
        let mut d = R;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < limits[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

fn check<const R: usize>(
    text: &'static str,
    padding: Option<(&[u64], PaddingValue)>,
    expr: StaticLayout<R>,
    item: Item<R>,
) {
    let shape = runtime(text, padding);
    let canonical = shape.to_string();
    let plan = Plan::new(&shape).unwrap();
    let ctx = format!("{text:?} (canonical {canonical})");

    // Text.
    assert_eq!(
        expr.to_string(),
        canonical,
        "{ctx}: expression form Display"
    );
    assert_eq!(expr.text(), canonical, "{ctx}: expression form text");
    assert_eq!(
        item.layout.to_string(),
        canonical,
        "{ctx}: item form Display"
    );
    assert_eq!(
        parse_array(&canonical).map(|s| s.to_string()),
        Ok(canonical.clone()),
        "{ctx}"
    );

    // The whole StaticLayout (digit tables, type, bits, space, bytes): the
    // runtime builds the same value from the shape. Layouts without digit
    // tables are refused by `from_shape` and carry their plan instead.
    let leaked: &'static Plan = Box::leak(Box::new(plan));
    let built = StaticLayout::<R>::__with_plan(&shape, expr.text(), leaked).unwrap();
    assert_eq!(
        expr, built,
        "{ctx}: expression form vs StaticLayout::__with_plan"
    );
    assert_eq!(
        item.layout, built,
        "{ctx}: item form vs StaticLayout::__with_plan"
    );
    assert_eq!(item.trait_layout, built, "{ctx}: StaticShape::LAYOUT");
    assert_eq!(
        expr.has_digit_tables(),
        plan.has_digit_tables(),
        "{ctx}: digit tables in StaticLayout and Plan"
    );
    match StaticLayout::<R>::from_shape(&shape, expr.text()) {
        Ok(runtime) => assert_eq!(runtime, expr, "{ctx}: StaticLayout::from_shape"),
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::NoDigitTables, "{ctx}: {e}");
            assert!(!expr.has_digit_tables(), "{ctx}: from_shape refused digits");
        }
    }
    if padding.is_none()
        && let Ok(parsed) = StaticLayout::<R>::parse(text)
    {
        assert_eq!(
            parsed,
            StaticLayout::<R>::from_shape(&shape, parsed.text()).unwrap(),
            "{ctx}: StaticLayout::parse"
        );
    }
    // Memory order: every index once, offsets ascending, as the inverse says.
    let mut last = None;
    let mut count = 0usize;
    for (i, o) in expr.memory_order() {
        assert!(
            last.is_none_or(|l| o > l),
            "{ctx}: memory order ascends at {o}"
        );
        assert_eq!(expr.offset(i), o, "{ctx}: memory order offset of {i:?}");
        last = Some(o);
        count += 1;
    }
    assert_eq!(
        count as u64,
        shape.element_count().unwrap(),
        "{ctx}: memory order count"
    );

    // Scalars.
    let limits: [usize; R] =
        core::array::from_fn(|d| shape.dims()[d].layout_size().unwrap() as usize);
    assert_eq!(shape.rank(), R, "{ctx}: rank");
    assert_eq!(expr.rank(), R, "{ctx}: rank");
    // Dims are the logical sizes, never the legacy padded ones.
    assert_eq!(expr.dims(), limits, "{ctx}: dims");
    assert_eq!(item.dims, limits, "{ctx}: StaticShape::DIMS");
    let allocated = shape.allocated_elements().unwrap() as usize;
    let bytes = shape.size_in_bytes().unwrap() as usize;
    assert_eq!(
        expr.allocated_elements(),
        allocated,
        "{ctx}: allocated_elements"
    );
    assert_eq!(item.allocated, allocated, "{ctx}: ALLOCATED_ELEMENTS");
    assert_eq!(expr.size_in_bytes(), bytes, "{ctx}: size_in_bytes");
    assert_eq!(item.bytes, bytes, "{ctx}: SIZE_IN_BYTES");
    assert_eq!(
        expr.element_type(),
        shape.element_type(),
        "{ctx}: element type"
    );
    assert_eq!(
        item.element_type,
        shape.element_type(),
        "{ctx}: ELEMENT_TYPE"
    );
    assert_eq!(
        expr.element_size_in_bits(),
        shape.element_size_in_bits(),
        "{ctx}: bits"
    );
    let space = shape.layout().memory_space();
    assert_eq!(i64::from(expr.memory_space()), space, "{ctx}: memory space");
    assert_eq!(i64::from(item.space), space, "{ctx}: MEMORY_SPACE");

    // Every in-bounds index, through every path.
    let mut seen = vec![false; allocated];
    let mut count = 0usize;
    for_each_index(limits, |idx| {
        let wide: [u64; R] = idx.map(|x| x as u64);
        let want = shape.offset(&wide).unwrap() as usize;
        assert_eq!(
            expr.offset(idx),
            want,
            "{ctx}: expression form offset {idx:?}"
        );
        assert_eq!(
            expr.checked_offset(idx),
            Some(want),
            "{ctx}: checked_offset {idx:?}"
        );
        assert_eq!((item.offset)(idx), want, "{ctx}: Name::offset {idx:?}");
        assert_eq!(
            (item.trait_offset)(idx),
            want,
            "{ctx}: StaticShape::offset {idx:?}"
        );
        assert_eq!(
            item.layout.offset(idx),
            want,
            "{ctx}: Name::LAYOUT.offset {idx:?}"
        );
        assert!(
            want < allocated,
            "{ctx}: offset {want} of {idx:?} past the allocation"
        );
        assert!(!seen[want], "{ctx}: offset {want} of {idx:?} used twice");
        seen[want] = true;
        assert_eq!(expr.index_of(want), Some(idx), "{ctx}: index_of({want})");
        let back = shape.index_of(want as u64).map(|i| i.as_slice().to_vec());
        assert_eq!(back, Some(wide.to_vec()), "{ctx}: runtime index_of({want})");
        count += 1;
    });
    assert_eq!(
        count as u64,
        shape.element_count().unwrap(),
        "{ctx}: element count"
    );

    // Every slot of the allocation (and one past): index_of agrees with the
    // runtime's plan, and is a padding slot exactly where no index landed.
    for o in 0..=allocated {
        let want = plan.index_of(o as u64).map(|i| i.as_slice().to_vec());
        let got = expr.index_of(o).map(|i| i.to_vec());
        let got_u64 = got.map(|v| v.into_iter().map(|x| x as u64).collect::<Vec<_>>());
        assert_eq!(got_u64, want, "{ctx}: index_of({o})");
        assert_eq!(
            got_u64.is_some(),
            seen.get(o).copied().unwrap_or(false),
            "{ctx}: index_of({o}) vs the offsets"
        );
        assert_eq!(
            item.layout.index_of(o),
            expr.index_of(o),
            "{ctx}: item index_of({o})"
        );
    }

    // Out of bounds: one past the limit in each dimension.
    if !limits.contains(&0) {
        for d in 0..R {
            let mut idx = [0usize; R];
            idx[d] = limits[d];
            assert_eq!(
                expr.checked_offset(idx),
                None,
                "{ctx}: {idx:?} is out of bounds"
            );
            assert!(!expr.in_bounds(idx), "{ctx}: {idx:?} is out of bounds");
        }
    }
}

/// A `const`-evaluated offset (expression form and item form) against the
/// runtime.
fn check_const(
    text: &str,
    padding: Option<(&[u64], PaddingValue)>,
    index: &[u64],
    expr: usize,
    item: usize,
) {
    let want = runtime(text, padding).offset(index).unwrap() as usize;
    assert_eq!(expr, want, "{text:?}: const layout!(..).offset({index:?})");
    assert_eq!(item, want, "{text:?}: const Name::offset({index:?})");
}
'''


def render(cases, rng, seed):
    header = HEADER.replace("@SEED@", str(seed)).replace("@CASES@", str(len(cases)))
    out = [header.replace("@CONSTS@", str(CONST_CASES))]
    const_cases = [c for c in cases if all(n > 0 for n in c.limits)][:CONST_CASES]
    const_index = {}
    for c in const_cases:
        const_index[c.index] = [rng.randrange(n) for n in c.limits]

    # The cases: generated lines, kept as written (rustfmt would reflow them).
    out.append("\n#[rustfmt::skip]\nmod cases {\nuse super::*;\n")
    # Item form: groups of one to three types per invocation.
    i = 0
    while i < len(cases):
        group = cases[i : i + rng.choice([1, 1, 2, 3])]
        i += len(group)
        out.append("\nlayout! {\n")
        for c in group:
            out.append("    /// `%s`\n" % c.text.replace("`", "'"))
            out.append("    %stype Case%03d = %s;\n" % (c.vis, c.index, spec_tokens(c)))
        out.append("}\n")

    # Expression form and tests.
    for c in cases:
        n = c.index
        out.append("\n// %s\n" % c.text)
        out.append(
            "const E%03d: StaticLayout<%d> = layout!(%s);\n" % (n, c.rank, spec_tokens(c))
        )
        if n in const_index:
            idx = ", ".join(str(x) for x in const_index[n])
            out.append(
                "const K%03d: usize = layout!(%s).offset([%s]);\n" % (n, spec_tokens(c), idx)
            )
            out.append("const KI%03d: usize = Case%03d::offset([%s]);\n" % (n, n, idx))
        out.append("\n#[test]\nfn case_%03d() {\n" % n)
        out.append(
            "    check::<%d>(%s, %s, E%03d, item!(Case%03d, %d));\n"
            % (c.rank, rust_str(c.text), padding_arg(c), n, n, c.rank)
        )
        if n in const_index:
            idx = ", ".join(str(x) for x in const_index[n])
            out.append(
                "    check_const(%s, %s, &[%s], K%03d, KI%03d);\n"
                % (rust_str(c.text), padding_arg(c), idx, n, n)
            )
        out.append("}\n")
    out.append("}\n")
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT, help="relative to the repository root")
    ap.add_argument("--check", action="store_true", help="fail if the file differs")
    ap.add_argument("--seed", type=int, default=SEED, help="for bug hunts (default %(default)s)")
    ap.add_argument("--cases", type=int, default=CASES, help="for bug hunts (default %(default)s)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    cases = [gen_case(rng, i) for i in range(args.cases)]
    text = render(cases, rng, args.seed)
    path = os.path.join(ROOT, args.out)
    if args.check:
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                print("%s is stale; rerun tools/gen_macro_cases.py" % args.out)
                sys.exit(1)
        return
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    kinds = {
        "literal": sum(c.literal for c in cases),
        "padded": sum(bool(c.padded) for c in cases),
        "tiled": sum(bool(c.tiles) for c in cases),
        "combine": sum(any("*" in t for t in c.tiles) for c in cases),
        "E(n)": sum(c.esize is not None for c in cases),
        "bounded": sum(any(d[0].startswith("<=") for d in c.dims) for c in cases),
        "empty": sum(0 in c.limits for c in cases),
        "scalar": sum(c.rank == 0 for c in cases),
        "tile>rank": sum(any(len(t) > c.rank for t in c.tiles) for c in cases),
    }
    print("wrote %s: %d cases %s" % (args.out, len(cases), kinds))


if __name__ == "__main__":
    main()
