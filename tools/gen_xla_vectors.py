#!/usr/bin/env python3
"""Generate layout-cli/tests/data/xla_vectors.jsonl: XLA shape strings with XLA's own verdict
and the expectation for this project (after docs/decisions.md).

Stdlib only, deterministic (fixed seed). Steps:
  1. generate a few thousand shape strings (generation order is kept);
  2. ask XLA about them through the oracle script (one string per line on stdin,
     one JSON object per line on stdout), unless the answers are already cached;
  3. compute our expectation with the strict model below (a parser, validator and
     printer that follow docs/grammar.md, docs/rules.md and docs/decisions.md), cross-check the model
     against XLA and write the JSONL file.

Usage (from the repository root; the Python running this needs jax + jaxlib only
if the oracle has to be run):
  python tools/gen_xla_vectors.py [--oracle tools/xla_oracle.py]
                                  [--out layout-cli/tests/data/xla_vectors.jsonl]
                                  [--cache layout-cli/tests/data/xla_vectors.jsonl]
                                  [--oracle-python PYTHON]
  python tools/gen_xla_vectors.py --list-inputs      # just print the inputs
--cache reuses the xla_* fields of an earlier output (or raw oracle lines), so the
expectations can be recomputed without jax; only missing inputs go to the oracle.
The oracle script is tools/xla_oracle.py (it needs jax); it is optional, see
layout-cli/tests/data/README.md.
"""
import argparse
import json
import os
import random
import subprocess
import sys

SEED = 20250601
I64MAX = 2**63 - 1
I64MIN = -(2**63)
U64MAX = 2**64 - 1
P63 = 2**63

# ---------------------------------------------------------------------------
# Element types (docs/grammar.md): name -> byte width (unpacked)
# ---------------------------------------------------------------------------
ARRAY_TYPES = {
    "pred": 1, "s1": 1, "s2": 1, "s4": 1, "s8": 1, "s16": 2, "s32": 4, "s64": 8,
    "u1": 1, "u2": 1, "u4": 1, "u8": 1, "u16": 2, "u32": 4, "u64": 8,
    "f16": 2, "bf16": 2, "f32": 4, "f64": 8,
    "f8e5m2": 1, "f8e4m3": 1, "f8e4m3fn": 1, "f8e4m3b11fnuz": 1, "f8e3m4": 1,
    "f8e5m2fnuz": 1, "f8e4m3fnuz": 1, "f8e8m0fnu": 1, "f4e2m1fn": 1,
    "c64": 8, "c128": 16,
}
NONARRAY_TYPES = ("token", "opaque")
ALL_TYPES = list(ARRAY_TYPES) + list(NONARRAY_TYPES)
INTEGRAL = {"s1", "s2", "s4", "s8", "s16", "s32", "s64",
            "u1", "u2", "u4", "u8", "u16", "u32", "u64"}


def wrap64(v):
    """XLA's lexer: non-negative literals accumulate as u64, then reinterpret."""
    return v - 2**64 if v > I64MAX else v


def wrap8(v):
    return ((v + 128) % 256) - 128


# ---------------------------------------------------------------------------
# Lexer (standalone-shape semantics of hlo_lexer.cc, restricted to shapes)
# ---------------------------------------------------------------------------
class SyntaxErr(Exception):
    pass


def _is_alpha(c):
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or c == "_"


def _is_digit(c):
    return "0" <= c <= "9"


def lex(s):
    if "\x00" in s:
        raise SyntaxErr("NUL character")
    toks = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in " \t\n\r":
            i += 1
            continue
        if s.startswith("/*", i):
            j = s.find("*/", i + 2)
            if j < 0:
                raise SyntaxErr("unterminated comment")
            i = j + 2
            continue
        if s.startswith("//", i):
            j = s.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if _is_alpha(c):
            j = i + 1
            while j < n and (_is_alpha(s[j]) or _is_digit(s[j]) or s[j] in ".-"):
                j += 1
            toks.append(("id", s[i:j]))
            i = j
            continue
        if _is_digit(c) or (c == "-" and i + 1 < n and _is_digit(s[i + 1])):
            j = i + 1
            while j < n and _is_digit(s[j]):
                j += 1
            v = int(s[i:j])
            if v > U64MAX or v < I64MIN:
                raise SyntaxErr("integer out of range")
            toks.append(("int", v))
            i = j
            continue
        if s.startswith("<=", i):
            toks.append(("<=", None))
            i += 2
            continue
        if c in "[]{}(),:*#+~?":
            toks.append((c, None))
            i += 1
            continue
        raise SyntaxErr("bad character %r" % c)
    toks.append(("eof", None))
    return toks


# ---------------------------------------------------------------------------
# AST
# ---------------------------------------------------------------------------
class Array:
    def __init__(self, ty, dims, layout):
        self.ty, self.dims, self.layout = ty, dims, layout  # dims: [(kind, literal)]


class Tuple:
    def __init__(self, elems):
        self.elems = elems


class Buffer:
    def __init__(self, inner):
        self.inner = inner


class Layout:
    def __init__(self):
        self.m2m = []
        self.dlt = None
        self.tiles = []
        self.L = None
        self.idx = None
        self.ptr = None
        self.E = None
        self.S = None
        self.SC = []
        self.P = None
        self.M = None


ATTR_ORDER = ["D", "T", "L", "#", "*", "E", "S", "SC", "P", "M"]


class Parser:
    """Strict parser: the grammar of docs/grammar.md with no error swallowing."""

    def __init__(self, s):
        self.t = lex(s)
        self.i = 0

    def peek(self, k=0):
        return self.t[min(self.i + k, len(self.t) - 1)]

    def next(self):
        tok = self.t[self.i]
        self.i += 1
        return tok

    def expect(self, kind):
        tok = self.next()
        if tok[0] != kind:
            raise SyntaxErr("expected %s, saw %s" % (kind, tok[0]))
        return tok

    def expect_int(self):
        return self.expect("int")[1]

    def parse_top(self):
        sh = self.parse_shape()
        if self.peek()[0] != "eof":
            raise SyntaxErr("extra content after shape")
        return sh

    def parse_shape(self):
        tok = self.peek()
        if tok[0] == "(":
            self.next()
            elems = []
            if self.peek()[0] == ")":
                self.next()
                return Tuple(elems)
            while True:
                elems.append(self.parse_shape())
                k = self.next()[0]
                if k == ",":
                    continue
                if k == ")":
                    return Tuple(elems)
                raise SyntaxErr("expects ')' at end of tuple")
        if tok == ("id", "b") and self.peek(1)[0] == "(":
            self.next()
            self.next()
            inner = self.parse_shape()
            self.expect(")")
            if not isinstance(inner, Array) or inner.ty in NONARRAY_TYPES:
                raise SyntaxErr("buffer of non-array")
            return Buffer(inner)
        if tok[0] == "id" and tok[1] in ALL_TYPES:
            self.next()
            self.expect("[")
            dims = []
            if self.peek()[0] == "]":
                self.next()
            else:
                while True:
                    k = self.peek()[0]
                    if k == "int":
                        dims.append(("static", self.next()[1]))
                    elif k == "<=":
                        self.next()
                        dims.append(("bounded", self.expect_int()))
                    elif k == "?":
                        self.next()
                        dims.append(("unbounded", None))
                    else:
                        raise SyntaxErr("expects integer")
                    k = self.next()[0]
                    if k == ",":
                        continue
                    if k == "]":
                        break
                    raise SyntaxErr("expects ']'")
            layout = None
            if self.peek()[0] == "{" and self.peek(1)[0] in ("int", ":"):
                layout = self.parse_layout()
            return Array(tok[1], dims, layout)
        raise SyntaxErr("expected a shape")

    def parse_layout(self):
        self.expect("{")
        lo = Layout()
        if self.peek()[0] == "int":
            lo.m2m.append(self.next()[1])
            while self.peek()[0] == ",":
                self.next()
                lo.m2m.append(self.expect_int())
        if self.peek()[0] == ":":
            self.next()
            pos = 0
            while True:
                tok = self.peek()
                if tok[0] == "id" and tok[1] in ("D", "T", "L", "E", "S", "SC", "P", "M"):
                    key = tok[1]
                elif tok[0] in ("#", "*"):
                    key = tok[0]
                else:
                    break
                at = ATTR_ORDER.index(key)
                if at < pos:
                    raise SyntaxErr("layout attribute out of order or repeated")
                pos = at + 1
                self.next()
                self.parse_attr(key, lo)
        self.expect("}")
        return lo

    def parse_attr(self, key, lo):
        if key == "D":
            self.expect("(")
            lo.dlt = []
            if self.peek()[0] == ")":
                self.next()
                return
            while True:
                tok = self.next()
                if tok[0] != "id" or tok[1] not in ("D", "C", "S", "H"):
                    raise SyntaxErr("expected a DimLevelType")
                ent = tok[1]
                if self.peek()[0] == "+":
                    self.next()
                    ent += "+"
                if self.peek()[0] == "~":
                    self.next()
                    ent += "~"
                lo.dlt.append(ent)
                k = self.next()[0]
                if k == ",":
                    continue
                if k == ")":
                    return
                raise SyntaxErr("expects ')' after dim level types")
        if key == "T":
            if self.peek()[0] != "(":
                raise SyntaxErr("T without tile")
            while self.peek()[0] == "(":
                self.next()
                tile = []
                if self.peek()[0] == ")":
                    self.next()
                else:
                    while True:
                        tok = self.next()
                        if tok[0] == "int":
                            tile.append(tok[1])
                        elif tok[0] == "*":
                            tile.append("*")
                        else:
                            raise SyntaxErr("expects tile entry")
                        k = self.next()[0]
                        if k == ",":
                            continue
                        if k == ")":
                            break
                        raise SyntaxErr("expects ')' after tile")
                lo.tiles.append(tile)
            return
        if key in ("L", "E", "S", "M"):
            self.expect("(")
            v = self.expect_int()
            self.expect(")")
            setattr(lo, key, v)
            return
        if key in ("#", "*"):
            self.expect("(")
            tok = self.next()
            if tok[0] != "id" or tok[1] not in ALL_TYPES:
                raise SyntaxErr("expects a primitive type")
            self.expect(")")
            if key == "#":
                lo.idx = tok[1]
            else:
                lo.ptr = tok[1]
            return
        if key == "SC":
            if self.peek()[0] != "(":
                raise SyntaxErr("SC without split")
            while self.peek()[0] == "(":
                self.next()
                d = self.expect_int()
                self.expect(":")
                idxs = []
                if self.peek()[0] == "int":
                    idxs.append(self.next()[1])
                    while self.peek()[0] == ",":
                        self.next()
                        idxs.append(self.expect_int())
                self.expect(")")
                lo.SC.append((d, idxs))
            return
        if key == "P":
            self.expect("(")
            lo.P = self.parse_shape()
            self.expect(")")
            return
        raise AssertionError(key)


def parse_strict(s):
    return Parser(s).parse_top()


# ---------------------------------------------------------------------------
# Printer (Layout::Print / ShapeUtil::HumanStringWithLayout) on XLA's stored values
# ---------------------------------------------------------------------------
def print_dim(d):
    kind, v = d
    if kind == "unbounded":
        return "?"
    w = wrap64(v)
    if kind == "bounded":
        return "?" if w == I64MIN else "<=%d" % w
    return "%d" % w


def print_layout(lo):
    out = "{" + ",".join(str(wrap64(v)) for v in lo.m2m)
    attrs = ""
    if lo.tiles:
        attrs += "T" + "".join(
            "(" + ",".join("*" if (e == "*" or wrap64(e) == I64MIN) else str(wrap64(e)) for e in t) + ")"
            for t in lo.tiles)
    if lo.L is not None and wrap64(lo.L) != 1:
        attrs += "L(%d)" % wrap64(lo.L)
    if lo.idx is not None:
        attrs += "#(%s)" % (lo.idx if lo.idx in INTEGRAL else "invalid")
    if lo.ptr is not None:
        attrs += "*(%s)" % (lo.ptr if lo.ptr in INTEGRAL else "invalid")
    if lo.E is not None and wrap64(lo.E) != 0:
        attrs += "E(%d)" % wrap64(lo.E)
    if lo.S is not None and wrap8(wrap64(lo.S)) != 0:
        attrs += "S(%d)" % wrap8(wrap64(lo.S))
    if lo.SC:
        attrs += "SC" + "".join("(%d:%s)" % (wrap64(d), ",".join(str(wrap64(i)) for i in ix))
                                for d, ix in lo.SC)
    if lo.P is not None:
        attrs += "P(%s)" % print_shape(lo.P)
    if lo.M is not None and wrap64(lo.M) > 0:
        attrs += "M(%d)" % wrap64(lo.M)
    if attrs:
        out += ":" + attrs
    return out + "}"


def print_shape(sh):
    if isinstance(sh, Tuple):
        out = "("
        for i, e in enumerate(sh.elems):
            if i > 0:
                out += ", "
                if i % 5 == 0:
                    out += "/*index=%d*/" % i
            out += print_shape(e)
        return out + ")"
    if isinstance(sh, Buffer):
        return "b(%s)" % print_shape(sh.inner)
    if sh.ty in NONARRAY_TYPES:
        return sh.ty + "[]"
    out = sh.ty + "[" + ",".join(print_dim(d) for d in sh.dims) + "]"
    lo = sh.layout
    if lo is None:
        lo = Layout()
        lo.m2m = list(range(len(sh.dims) - 1, -1, -1))
    ls = print_layout(lo)
    if sh.dims or ls != "{}":
        out += ls
    return out


# ---------------------------------------------------------------------------
# Allocation model (docs/tiling.md, docs/decisions.md "Meanings we fix")
# ---------------------------------------------------------------------------
def ceil_div(a, b):
    return -(-a // b)


def padded_elements(phys, tiles, L):
    shape = list(phys)
    for tile in tiles:
        k = len(tile)
        if k > len(shape):
            shape = [1] * (k - len(shape)) + shape
        prefix, sub = shape[:len(shape) - k], shape[len(shape) - k:]
        new_sub, new_tile, carry = [], [], 1
        for d, t in zip(sub, tile):
            if t == "*":
                carry *= d
            else:
                new_sub.append(carry * d)
                new_tile.append(t)
                carry = 1
        assert carry == 1
        shape = prefix + [ceil_div(d, t) for d, t in zip(new_sub, new_tile)] + new_tile
    total = 1
    for d in shape:
        total *= d
    return ceil_div(total, L) * L


# ---------------------------------------------------------------------------
# Validation. Returns (xla_prediction, reasons, undecided)
#   xla_prediction: "crash" | "parse" | "validate" | "ok"  (what XLA's oracle should say)
#   reasons: list of tags why WE reject (empty = we accept)
#   undecided: list of tags for behaviours docs/decisions.md does not cover
# ---------------------------------------------------------------------------
STAGE_RANK = {"ok": 0, "validate": 1, "parse": 2, "crash": 3}


class Analysis:
    def __init__(self):
        self.parse_fail = None   # first parse/crash event in left-to-right order
        self.vfail = 0           # ValidateShape failures
        self.star_fail = False   # tiles with '*' (RET_CHECK in XLA's export)
        self.mlir_fail = []      # reasons the MLIR export (not ValidateShape) fails
        self.reasons = []
        self.undecided = []

    def xla_stage(self):
        if self.parse_fail:
            return self.parse_fail
        if self.vfail or self.star_fail or self.mlir_fail:
            return "validate"
        return "ok"


def analyse(sh):
    a = Analysis()
    _analyse(sh, a, in_buffer=False)
    return a


def _first(a, stage):
    if a.parse_fail is None:
        a.parse_fail = stage


def _analyse(sh, a, in_buffer):
    if isinstance(sh, Tuple):
        # elements are parsed left to right; the tuple is validated when it closes
        # (a failure there is reported by the parser, without a message)
        before = a.vfail
        for e in sh.elems:
            _analyse(e, a, in_buffer)
            if a.parse_fail:
                return
        if a.vfail > before:
            _first(a, "parse")
        return
    if isinstance(sh, Buffer):
        _analyse(sh.inner, a, in_buffer=True)
        return
    if sh.ty in NONARRAY_TYPES:
        if sh.dims:
            _first(a, "crash")
            a.reasons.append("token-dims" if sh.ty == "token" else "crash-reject")
        elif sh.layout is not None:
            _first(a, "crash")
            a.reasons.append("crash-reject")
        if sh.ty == "opaque":
            a.mlir_fail.append("opaque")
        return
    rank = len(sh.dims)
    # --- dims (parser) ---
    sizes = []   # XLA stored sizes
    dims_ok = True
    for kind, v in sh.dims:
        if kind == "unbounded":
            sizes.append(I64MIN)
            continue
        w = wrap64(v)
        if kind == "static":
            if w < 0:
                dims_ok = False
                a.reasons.append("dim-range")
            sizes.append(w)
        else:
            if w < 0 and w != I64MIN:
                dims_ok = False
                a.reasons.append("dim-range")
            elif v == P63:
                a.reasons.append("bound-range")
            elif v == I64MIN:
                # XLA turns it into `?`: a silent wrap, rejected like <=2^63.
                a.reasons.append("bound-range")
            sizes.append(w)
    if not dims_ok:
        _first(a, "parse")
        return
    dynamic = any(k != "static" for k, _ in sh.dims)
    lo = sh.layout
    tiles_usable = True
    if lo is not None:
        # --- layout construction (parser): crashes ---
        crash = False
        for t in lo.tiles:
            for e in t:
                if e == "*":
                    continue
                w = wrap64(e)
                if w == I64MIN:
                    # XLA turns the literal into `*`; we reject integers past i64.
                    a.reasons.append("int-range")
                elif w < 0:
                    crash = True
                    a.reasons.append("neg-tile-entry")
        if lo.L is not None and wrap64(lo.L) < 1:
            crash = True
            a.reasons.append("L-min")
        if crash:
            _first(a, "crash")
            return
        if len(lo.m2m) != rank:
            _first(a, "parse")
            a.reasons.append("m2m-len")
            return
        if lo.P is not None:
            _first(a, "parse")
            a.reasons.append("sparse")
            return
    # --- parse succeeded for this array; validation ---
    # XLA: running product over non-unbounded dims, then x byte width
    prod = 1
    for s_ in sizes:
        if s_ == I64MIN:
            continue
        prod *= s_
        if prod > I64MAX:
            a.vfail += 1
            a.reasons.append("xla-dims-overflow")
            break
    else:
        if prod * ARRAY_TYPES[sh.ty] > I64MAX:
            a.vfail += 1
            a.reasons.append("xla-size-overflow")
    if lo is None:
        lo = Layout()
        lo.m2m = list(range(rank - 1, -1, -1))
    m2m = [wrap64(v) for v in lo.m2m]
    if any(v < 0 or v >= rank for v in m2m):
        a.vfail += 1
        a.reasons.append("m2m-range")
        m2m_ok = False
    elif len(set(m2m)) != len(m2m):
        a.vfail += 1
        a.reasons.append("m2m-dup")
        m2m_ok = False
    else:
        m2m_ok = True
    if lo.idx is not None or lo.ptr is not None:
        a.vfail += 1
        a.reasons.append("sparse")
    # tiles
    eff_tiles = []
    for t in lo.tiles:
        if not t:
            a.vfail += 1
            a.reasons.append("tile-empty")
            tiles_usable = False
            continue
        et = []
        for e in t:
            if e == "*" or wrap64(e) == I64MIN:
                a.star_fail = True   # RET_CHECK dimension >= 0 (XLA's export rejects every '*')
                et.append("*")
            elif wrap64(e) == 0:
                a.vfail += 1
                a.reasons.append("tile-zero")
                tiles_usable = False
                et.append(0)
            else:
                et.append(e)
        if et[-1] == "*":
            a.reasons.append("trailing-star")
            tiles_usable = False
        eff_tiles.append(et)
    if lo.E is not None and wrap64(lo.E) < 0:
        a.vfail += 1
        a.reasons.append("E-neg")
    if lo.S is not None and not (0 <= lo.S <= 127):
        a.reasons.append("S-range")
    if lo.M is not None and lo.M > I64MAX:
        # XLA wraps the literal to a negative number and drops it; we
        # reject integers past i64. A negative M(n) is accepted and dropped.
        a.reasons.append("int-range")
    # split configs
    seen = set()
    for d, ix in lo.SC:
        dw = wrap64(d)
        if dw < 0 or dw >= rank:
            a.vfail += 1
            a.reasons.append("sc-dim")
            continue
        if dw in seen:
            a.vfail += 1
            a.reasons.append("sc-dup")
        seen.add(dw)
        if not m2m_ok:
            continue
        size = sizes[m2m[rank - 1 - dw]]
        prev = 0
        for i_ in ix:
            iw = wrap64(i_)
            if iw <= prev or iw >= size:
                a.vfail += 1
                a.reasons.append("sc-index")
                break
            prev = iw
    # MLIR export of buffers
    if in_buffer and (lo.tiles or dynamic):
        # Only XLA's MLIR export refuses these; we keep XLA's (oracle's) "no".
        a.mlir_fail.append("buffer-%s" % ("tiles" if lo.tiles else "dynamic"))
        a.reasons.append("buffer-mlir")
    # our allocation check (docs/decisions.md, "Overflow")
    if (m2m_ok and tiles_usable and not any(s_ == I64MIN for s_ in sizes)
            and "xla-dims-overflow" not in a.reasons and "xla-size-overflow" not in a.reasons
            and (lo.E is None or lo.E >= 0) and (lo.L is None or lo.L >= 1)):
        phys = [sizes[m2m[rank - 1 - p]] for p in range(rank)]
        L = lo.L if lo.L is not None else 1
        elems = padded_elements(phys, eff_tiles, L)
        bits = lo.E if lo.E else ARRAY_TYPES[sh.ty] * 8
        nbytes = ceil_div(elems * bits, 8)
        if elems > I64MAX or nbytes > I64MAX:
            a.reasons.append("overflow")


# ---------------------------------------------------------------------------
# Expectation
# ---------------------------------------------------------------------------
CRASH_TAGS = ("neg-tile-entry", "L-min", "token-dims", "crash-reject")
EXTRA_REJECT_TAGS = ("S-range", "bound-range", "overflow", "int-range")


def expectation(inp, xla):
    """Returns (ok, canonical, rule, problems). problems = model/XLA disagreements."""
    problems = []
    xok, xcan, xstage, xerr = xla["ok"], xla["canonical"], xla["stage"], xla["error"] or ""
    try:
        sh = parse_strict(inp)
    except SyntaxErr:
        sh = None
    if sh is None:
        if xstage == "crash":
            return False, None, "crash-reject", problems
        if xok:
            return False, None, "malformed-attr", problems
        return False, None, None, problems
    # '//' comments: the oracle puts the input on the line of 'parameter(0)'
    has_line_comment = _has_line_comment(inp)
    a = analyse(sh)
    pred = a.xla_stage()
    ours_ok = not a.reasons
    mlir_undecided = [m for m in a.mlir_fail if m.startswith("UNDECIDED")]
    if has_line_comment and xstage == "parse":
        if ours_ok:
            # The oracle writes the input on the line of 'parameter(0)', so a
            # '//' comment swallows the rest of its test line. XLA's own
            # ParseShape skips '//' comments (docs/grammar.md, tokens): accept.
            return True, print_shape(sh), "line-comment", problems
        return False, None, None, problems
    # cross-check the model's prediction of XLA
    if pred != (xstage or "ok"):
        problems.append("model predicts XLA stage %s, XLA says %s (%s)" % (pred, xstage, xerr[:120]))
    if xcan is not None and print_shape(sh) != xcan:
        problems.append("model prints %r, XLA prints %r" % (print_shape(sh), xcan))
    if xstage == "crash":
        tag = next((r for r in a.reasons if r in CRASH_TAGS), "crash-reject")
        return False, None, tag, problems
    if ours_ok and (a.undecided or mlir_undecided):
        tag = (a.undecided + mlir_undecided)[0]
        return bool(xok), (xcan if xok else None), tag, problems
    if not ours_ok:
        if xok:
            tags = [r for r in a.reasons if r in EXTRA_REJECT_TAGS]
            if not tags:
                problems.append("we reject %s but XLA accepts" % a.reasons)
                tags = a.reasons
            return False, None, "+".join(sorted(set(tags))), problems
        return False, None, None, problems
    canonical = print_shape(sh)
    if xok:
        if canonical != xcan:
            problems.append("canonical differs")
        return True, canonical, None, problems
    # we accept, XLA rejects
    if "RET_CHECK" in xerr and "dimension >= 0" in xerr:
        return True, xcan, "combine-accept", problems
    if "OPAQUE_TYPE" in xerr:
        return True, xcan, "opaque-accept", problems
    problems.append("we accept but XLA rejects: %s" % xerr[:150])
    return True, canonical, "???", problems


def _has_line_comment(s):
    i = 0
    while i < len(s):
        if s.startswith("/*", i):
            j = s.find("*/", i + 2)
            if j < 0:
                return False
            i = j + 2
            continue
        if s.startswith("//", i):
            return True
        i += 1
    return False


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------
SPEC_STRINGS = [
    # Round-trip examples from XLA's tests (inputs and printed forms)
    "f32[123,456]", "f32[123,456]{1,0}", "f32[?,784]", "f32[?,784]{1,0}", "f32[123,<=456]",
    "f32[123,<=456]{1,0}", "(f32[42], u32[<=123,<=456])", "(f32[42]{0}, u32[<=123,<=456]{1,0})",
    "(f32[1572864],s8[5120,1024])", "(f32[1572864]{0}, s8[5120,1024]{1,0})",
    "(f32[1],(f32[2], token[]), opaque[], f32[3])",
    "(f32[1]{0}, (f32[2]{0}, token[]), opaque[], f32[3]{0})",
    "f32[123,456]{0,1}", "f32[123,456]{0,1:T(2,128)}", "f32[123,456,789]{0,1,2:T(2, * , 128)}",
    "f32[123,456,789]{0,1,2:T(2,*,128)}", "bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}",
    "s4[123,456]{1,0:T(2,128)E(4)}", "pred[123,456]{1,0:T(2,128)S(3)}", "pred[123,456]{1,0:S(3)}",
    "f32[123,456]{1,0:T(16,128)M(1024)}", "pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}",
    "pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}", "pred[123,456]{1,0:SC(1:50,200)}",
    "f32[ 1, 2,3, 4, 5]{0, 1, 2,3, 4 }", "f32[1,2,3,4,5]{0,1,2,3,4}", "f32[]", "f32[]{:T(256)}",
    "opaque[]", "token[]", "f32[2,3]{1,0:S(1)}", "f32[2,3]{1,0:S(2)}",
    "f32[2,3,4]{0,1,2}", "f32[2,3,4]{0,1,2:T(512,1024)}", "f32[2,3,4]{0,1,2:T(512)}",
    "bf16[2,3,4]{1,2,0:T(16,256)(2,1)}", "pred[8,8,8]{0,2,1:T(8,128)}",
    "bf16[2,3,1004]{2,1,0:T(2,*,128)}", "bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}",
    "u32[1,2]{1,0}", "s32[3,4]{0,1}", "(opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1})",
    "f32[<=23,44,<=55]",
    # layouts alone from 1.7, put on shapes of matching rank
    "f32[2,3,4]{}", "f32[4,5,6,7]{4,5,6}", "f32[2,3,4]{1,2,0}", "f32[2,3,4,5]{3,2,1,0:T(42,123)(4,5)}",
    "f32[2,3,4,5]{3,2,1,0:T(*,*,42,123)}", "f32[2,3,4,5]{3,2,1,0:L(100)}",
    "f32[2,3,4,5]{3,2,1,0:#(u32)}", "f32[2,3,4,5]{3,2,1,0:*(u16)}", "f32[2,3,4,5]{3,2,1,0:E(42)}",
    "f32[2,3,4,5]{3,2,1,0:S(3)}", "f32[4,5]{0,1:SC(0:3)(1:0,4)}", "f32[4,5]{0,1:SC(0:3)(1:4)}",
    "s32[10,20]{0,1:P(s32[10,20]{1,0})}", "f32[2,3]{0,1:M(123)}",
    "f32[2,3,4,5]{3,2,1,0:T(42,123)(4,5)L(100)E(42)}", "f32[2,3]{1,0:T(2,55)E(42)}",
    "f32[2,3,4,5]{3,2,1,0:T(42,123)(4,5)S(3)}", "f32[7,8]{1,0:T(7,8)}", "f32[2]{0:D(C)}",
    "f32[2]{0:D(S)}", "f32[2]{0:D(H)}", "f32[2]{0:D(C~)}", "f32[2]{0:D(C+)}", "f32[2]{0:D(C+~)}",
    "f32[2,3]{1,0:D(D,C)}", "f32[2,3]{1,0:D(D,D)}", "f32[2,3]{1,0:T(-2,55)E(42)}",
    "bf16[4096,2048]{1,0:T(8,128)(2,1)}", "s32[]{:T(128)}", "bf16[4096]{0:T(1024)(128)(2,1)}",
    "bf16[1,6144]{1,0:T(2,128)(2,1)}", "f32[64,128]{1,0:T(8,128)S(3)}",
    "f32[32,1,1]{2,1,0:T(2,128)S(5)}", "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
    # 3.5
    "f32[3,5]{1,0:T(2,2)}", "F32[3,5]{1,0:T(2,2)}", "f32[4,8]{1,0:T(2,4)(2,1)}",
    "f32[8,8]{1,0:T(2,4)(2,1,1,1)}", "bf16[32,256]{1,0:T(8,128)(2,1,1,1)}",
    "BF16[32,256]{1,0:T(8,128)(2,1,1,1)}", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
    "F32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", "F32[2,7,8,11,10]{4,3,2,1,0}",
    "f32[8,100,100,3]{3,0,2,1}", "bf16[32,6144]{1,0:T(8,128)(4,1)}", "s8[32,6144]{1,0:T(8,128)(4,1)}",
    "pred[32,6144]{1,0:T(32,128)(32,1)}",
    # 6
    "f32[123,456]foobar{0,1}", "f32[123,456]{foo}", "f32[123,456]dense{foo}",
    "f32[123,456,789]{1:T(2, * , 128)}", "f32[10,10]{1,0:D(X,C)}",
    "f32[10,10]{1,0:T(128,8)P(f32[10,10])}", "f32[2,3]{1,0:S(1)T(2,2)}", "f32[-1]", "f32[<=?]",
    "f32[2,3]{0,1,2}", "f32[2,3]{1,2,3,4}", "f32[2,3]", "(f32[9]{0,2,3})", "f32[9]{0,2,3}",
    "f32[2,3]{0,1:D(D,C,C)}", "f32[10,10]{1,0:D(D,C)T(10,10)}", "f32[2,3]{1,0:P(f32[2,3])}",
    "f32[100]", "f32[10,20]{0,1}", "f32[10,20]{1,0}", "f32[10,20,30]{2,1,0}", "f32[10,20,30]{1,2,0}",
    "f32[10,20,30,40]{3,2,1,0}", "f32[10,20,30,40,30,20,10]{6,5,4,3,2,1,0}",
    "f32[10,20,30,40,30,20,10]{0,1,2,3,4,5,6}", "f32[10,20,30,40,30,20,10]{4,5,1,2,6,0,3}",
    "s32[2,2]", "F32[5,8,10,4]{3,2,1,0}", "f32[5,8,10,4]{3,2,1,0}", "f64[]", "f64[10,20]", "c64[]",
    "c64[10,20]", "f32[10,20]", "s4[64,128]{1,0:E(4)}", "s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}",
    "s4[0,64,128]{2,1,0:E(4)}", "s4[63,127,0]{2,1,0:E(4)}", "f32[8,128]{1,0:T(8,128)}",
    "bf16[32,6144]{1,0:T(8,128)(2,1)}", "pred[123,456]{1,0:T(2,128)}", "f32[3,5]{1,0:T(2,2)L(10)}",
    "f32[3,5]{1,0:L(7)}", "s32[]", "s32[0]", "s32[1]", "s32[1,1]", "s32[2]", "s32[2,1]", "s32[3,5]",
    "s32[3,0,5]", "s32[0,3,0]", "s32[1,3,5]", "s32[13,17]", "f32[3,5,7]", "f16[5,7,9]",
    "f32[10,10,10]{0,2,1}", "f32[40,10,20,30]{1,3,2,0}", "f32[10,20,30,40]{3,0,2,1}",
    "f32[5,3,2]{2,0,1}", "f32[5,2]{1,0}", "f32[5,3,2,7,9]{2,0,1,4,3}", "f32[5,9]{0,1}",
    "f32[16,3,12,17]{1,2,0,3}", "f32[16,12,3,17]{2,1,0,3}", "f32[128,24,4,48,48]{2,4,3,1,0}",
    "f32[128,24,48,48,4]{4,3,2,1,0}", "f32[3,4]", "f32[6,2]", "f32[3,2,2]{1,0,2}", "f32[6,2]{0,1}",
    "f32[3,2,2]{0,1,2}", "f32[2,3,4]{0,1,2:T(42,44)}", "f32[2]{0:E(32)}", "f32[2]{0:E(1)}",
    "f32[2]{0:S(1)}", "f32[2]{0:S(3)}", "f32[2,3]{0,1:SC(0:2)}", "f32[2,3]{0,1:SC(0:3)}",
    "f32[4]{0:E(32)}", "pred[4]{0:E(8)}",
    # docs/decisions.md, inputs XLA handles badly
    "f32[2,3]{1,0:T(-1,2)}", "f32[2,3]{1,0:L(0)}", "f32[2,3]{1,0:L(-1)}", "token[3]",
    "f32[2]{0:S(128)}", "f32[2]{0:S(-1)}", "f32[<=9223372036854775808]", "f32[2,3,4]{2,1,0:T(2,*,2)}",
    "f32[2,3]{1,0:T(2,*)}", "f32[2]{0:#(u32)}", "f32[2]{0:*(u16)}", "f32[2]{0:P(f32[2])}",
    "f32[2]{0:SC(0:1)}", "f32[2]{0:M(8)}", "f32[2]{0:E(4)}", "f32[2]/*c*/{0}",
    "bf16[32]{0:E(8}", "f32[2]{0:L(128}", "f32[4,128]{1,0:T(4,1,128)*}", "f32[0496]", "s8[-0]",
    "b(f32[2])", "f32[2]{0:T(2,*)}",
]

REAL_WORLD = [
    "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}", "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}",
    "bf16[32,32,8192]{2,1,0:T(8,128)(2,1)S(1)}", "f32[32]{0:T(128)S(3)}", "f32[32,768]{1,0:T(8,128)}",
    "f32[32,6144]{1,0:T(8,128)}", "bf16[208,4,336,256]{3,0,2,1:T(8,128)(2,1)}",
    "bf16[4,512,7,208]{1,3,2,0:T(8,128)(2,1)}", "bf16[4,208,336,256]{3,1,2,0:T(8,128)(2,1)}",
    "bf16[4,336,256,512,7]{3,2,4,1,0:T(8,128)(2,1)}", "bf16[1,65536,64,128]{3,2,1,0:T(8,128)(2,1)}",
    "bf16[2,1,8,513,128]{4,3,2,1,0:T(8,128)(2,1)}", "bf16[1,8,257,128]{3,2,1,0:T(8,128)(2,1)}",
    "bf16[]{:T(256)}", "bf16[1,8,513,128]{3,2,1,0:T(8,128)(2,1)}",
    "bf16[1,1,8,513,128]{4,3,2,1,0:T(8,128)(2,1)}", "f32[8,16]{1,0:T(8,128)}",
    "f32[16,32]{1,0:T(8,128)}", "f32[8,32]{1,0:T(8,128)}",
    "(f32[8,16]{1,0:T(8,128)}, f32[16,32]{1,0:T(8,128)}, f32[8,32]{1,0:T(8,128)})",
    "s32[8,2]{1,0:T(8,128)}", "(bf16[768,2304]{1,0:T(8,128)}, f32[]{:T(128)})",
    "bf16[512,131072]{1,0:T(8,128)(2,1)}", "f32[512,32768]{1,0:T(8,128)}", "f32[784,128]{1,0:T(8,128)}",
    "f32[128]{0:T(256)}", "f32[10]{0:T(256)}",
    "(f32[784,128]{1,0:T(8,128)}, f32[128]{0:T(256)}, f32[128,32]{1,0:T(8,128)}, f32[32]{0:T(256)}, "
    "f32[32,10]{1,0:T(8,128)}, /*index=5*/f32[10]{0:T(256)})",
    "(f32[784,128]{1,0:T(8,128)},f32[128]{0:T(256)},f32[128,32]{1,0:T(8,128)},f32[32]{0:T(256)},"
    "f32[32,10]{1,0:T(8,128)},f32[10]{0:T(256)})",
    "f32[8192,4096]{1,0:T(8,128)}", "f32[8192,1024]{1,0:T(8,128)}", "f32[1024,4096]{1,0:T(8,128)}",
    "f32[33712,8,128]{2,1,0:T(8,128)}", "f32[33708,1024]{1,0:T(8,128)}",
    "((f32[100,784]{1,0}, f32[100,10]{1,0}, pred[]), token[])",
    "(f32[784,128]{1,0}, f32[128]{0}, f32[128,32]{1,0}, f32[32]{0}, f32[32,10]{1,0}, "
    "/*index=5*/f32[10]{0}, pred[])",
    "f32[10,32]{0,1}", "f32[784,100]{0,1}", "s8[56,4096,4096]{2,1,0:T(8,128)(4,1)}",
    "s8[1,4096,4096]{2,1,0:T(8,128)(4,1)}", "s8[1,32,2048]{2,1,0:T(8,128)(4,1)S(1)}",
    "s8[32,2048,1]{1,0,2:T(8,128)(4,1)}", "s8[1,2048,1,4096]{3,1,2,0:T(8,128)(4,1)S(1)}",
    "s8[]{:T(512)}", "s8[1,2048,2,4096]{3,1,2,0:T(8,128)(4,1)}", "s32[]{:T(128)S(6)}",
    "s8[1,2048,2,256]{3,1,2,0:T(8,128)(4,1)}", "s8[2048,2,256]{2,0,1:T(8,128)(4,1)}",
    "s32[32,2,256]{2,0,1:T(8,128)}", "s32[1,32,2,256]{3,1,2,0:T(8,128)S(1)}",
    "s32[1,32,256]{2,1,0:T(8,128)S(1)}", "s32[1,32,1,256]{3,1,2,0:T(8,128)}",
    "(s32[1,32,256]{2,1,0:T(8,128)S(1)}, s32[1,32,256]{2,1,0:T(8,128)S(1)})", "u32[]{:T(128)}",
    "u32[256]{0:T(256)}", "u32[1]{0:T(128)}", "u32[]{:T(128)S(6)}", "u32[]{:S(2)}",
    "(s32[1,32,256]{2,1,0:T(8,128)S(1)}, s32[1,32,256]{2,1,0:T(8,128)S(1)}, u32[]{:S(2)}, u32[]{:S(2)})",
    "(s8[1,32,2048]{2,1,0:T(8,128)(4,1)S(1)}, s8[1,2048,4096]{2,1,0:T(8,128)(4,1)S(1)}, "
    "s32[1,32,256]{2,1,0:T(8,128)S(1)}, s32[1,32,256]{2,1,0:T(8,128)S(1)}, u32[]{:T(128)}, "
    "/*index=5*/u32[]{:T(128)}, u32[256]{0:T(256)}, u32[]{:T(128)}, u32[]{:T(128)}, s32[]{:T(128)}, "
    "/*index=10*/u32[]{:T(128)}, u32[]{:T(128)}, u32[]{:T(128)})",
    "u8[327680,327680]{1,0:T(8,128)(4,1)}", "pred[32,6144]{1,0:T(8,128)(4,1)}",
    "pred[1,1]{1,0:T(4,128)(4,1)}", "pred[]{:T(512)}", "bf16[1,1]{1,0:T(2,128)(2,1)}",
    "bf16[1,1]{1,0:T(2,128)(2,1)S(3)}", "f32[1,1]{1,0:T(1,128)}", "f32[1,1]{1,0:T(1,128)S(3)}",
    "bf16[4096,9216]{1,0:T(8,128)(2,1)}", "bf16[1024,9216]{1,0:T(8,128)(2,1)}",
    "s8[9216,6144]{1,0:T(8,128)(4,1)S(1)}", "s8[9216,6144]{1,0:T(8,128)(4,1)}",
    "bf16[4096,6144]{1,0:T(8,128)(2,1)}", "bf16[1024,6144]{1,0:T(8,128)(2,1)S(1)}",
    "bf16[1,1,1024,512]{3,2,1,0:T(8,128)(2,1)}", "s8[1,1,1024,512]{3,2,1,0:T(8,128)(4,1)}",
    "bf16[128,14,14,512]{3,0,2,1:T(8,128)(2,1)}", "bf16[4688,128,1,2,128]{4,3,2,1,0:T(2,128)(2,1)}",
    "bf16[1,1,6144]{2,1,0:T(2,128)(2,1)}", "bf16[1,768]{1,0:T(2,128)(2,1)S(3)}",
    "u16[6144]{0:T(1024)(128)(2,1)}", "u16[1,6144]{1,0:T(2,128)(2,1)}", "u16[]{:T(256)}",
    "bf16[2,8192,6144]{2,1,0:T(8,128)(2,1)}", "bf16[2,2048,6144]{2,1,0:T(8,128)(2,1)}",
    "bf16[2,8192]{1,0:T(2,128)(2,1)}", "bf16[2,2048]{1,0:T(2,128)(2,1)}",
    "bf16[1,2,8192,6144]{3,2,1,0:T(8,128)(2,1)}", "bf16[1,384]{1,0:T(2,128)(2,1)}",
    "pred[1]{0:T(512)(128)(4,1)}", "bf16[1,8,1,8,320]{4,0,3,2,1:T(2,128)(2,1)S(3)}",
    "bf16[1,8,6,8,320]{4,0,3,2,1:T(2,128)(2,1)S(3)}", "bf16[1,8,6,8,320]{4,0,3,2,1:T(2,128)(2,1)}",
    "s32[6]{0:T(128)}", "s32[6]{0:T(128)S(1)}", "(s32[6]{0:T(128)S(1)}, s32[6]{0:T(128)})",
    "s4[8,32768,1,256]{3,1,0,2:T(64,128)(8,1)E(4)S(1)}", "s4[8,32768,1,256]{3,1,0,2:T(8,128)(8,1)E(4)}",
    "pred[1,16384,1,256]{3,1,0,2:T(8,128)(4,1)}", "s4[1,16384,1,256]{3,1,0,2:T(8,128)(8,1)E(4)S(1)}",
    "s4[1,16384,1,256]{3,1,0,2:T(8,128)(8,1)E(4)}", "s4[8,32768,1,256]{3,1,0,2:T(64,128)(8,1)E(4)}",
    "s32[3,2]{0,1:T(128)}", "((s32[6]{0:T(128)}, s32[6]{0:T(128)}), s32[6]{0:T(128)})",
    "(s32[6]{0:T(128)}, (s32[6]{0:T(128)}, s32[6]{0:T(128)}))", "s32[2,3]{1,0:T(128)}",
    "s32[1,3]{1,0:T(128)}", "s32[2,3]{1,0:T(128)S(1)}",
    "(s32[6]{0:T(128)}, s32[6]{0:T(128)S(1)}, s32[3,2]{0,1:T(128)S(1)}, s32[6]{0:T(128)}, "
    "s32[6]{0:T(128)S(1)})",
    "((s32[6]{0:T(128)}, s32[6]{0:T(128)S(1)}, s32[3,2]{0,1:T(128)S(1)}, s32[6]{0:T(128)}, "
    "s32[6]{0:T(128)S(1)}), s32[2,3]{1,0:T(128)})",
    "((s32[6]{0:T(128)}), s32[6]{0:T(128)}, u32[])", "((f32[4]), f32[4], s32[])", "s8[3,128,128]",
    "bf16[8,128]", "(s32[], bf16[8,128], s8[3,128,128])", "s8[1,128,128]", "pred[]{:T(512)S(1)}",
    "bf16[768,2304]{1,0:T(8,128)(2,1)}", "f32[16,64]{1,0}", "f32[16,64]{1,0:T(8,128)}",
    "f32[64,128]{1,0:T(8,128)}", "f32[100,784]{1,0}", "(f32[4], f32[4], s32[])",
]


class Gen:
    def __init__(self):
        self.rng = random.Random(SEED)
        self.items = []
        self.seen = set()

    def add(self, s):
        if not s.strip() or "\n" in s or "\r" in s:
            return
        if s in self.seen:
            return
        self.seen.add(s)
        self.items.append(s)

    # ---- building blocks --------------------------------------------------
    def dim_value(self):
        r = self.rng.random()
        if r < 0.55:
            return self.rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 17, 31, 32, 33, 64, 100, 127])
        if r < 0.8:
            return self.rng.choice([128, 129, 255, 256, 384, 512, 1000, 1024, 1280, 2048, 4096, 6144,
                                    8192, 16384, 65536])
        if r < 0.9:
            return 0
        return self.rng.choice([3037000499, 4294967296, 1 << 40, 1 << 50, 1 << 61, I64MAX // 3])

    def dims(self, rank, dyn=0.12):
        out = []
        for _ in range(rank):
            r = self.rng.random()
            if r < dyn * 0.6:
                out.append("<=%d" % self.dim_value())
            elif r < dyn:
                out.append("?")
            else:
                out.append(str(self.dim_value()))
        return out

    def perm(self, rank, style):
        if style == "desc":
            return list(range(rank - 1, -1, -1))
        if style == "asc":
            return list(range(rank))
        p = list(range(rank))
        self.rng.shuffle(p)
        return p

    def bad_m2m(self, rank):
        kind = self.rng.choice(["short", "long", "dup", "range", "neg"])
        p = self.perm(rank, "random")
        if kind == "short" and rank > 0:
            return p[:-1]
        if kind == "long":
            return p + [rank]
        if kind == "dup" and rank > 1:
            p[0] = p[1]
            return p
        if kind == "range" and rank > 0:
            p[self.rng.randrange(rank)] = rank + self.rng.randrange(3)
            return p
        if kind == "neg" and rank > 0:
            p[self.rng.randrange(rank)] = -1
            return p
        return p + [0]

    def tile(self, rank, allow_bad):
        k = self.rng.choice([1, 1, 2, 2, 2, 2, 3, 4][: 4 + min(rank, 4)])
        if self.rng.random() < 0.1:
            k = rank + self.rng.choice([1, 2])
        k = max(k, 1)
        ents = []
        for _ in range(k):
            ents.append(str(self.rng.choice([1, 2, 2, 4, 8, 8, 16, 32, 64, 128, 128, 256, 3, 5, 1024])))
        r = self.rng.random()
        if r < 0.12 and k >= 2:
            ents[self.rng.randrange(k - 1)] = "*"
        elif r < 0.16 and k >= 3:
            ents[0] = "*"
            ents[1] = "*"
        if allow_bad:
            r = self.rng.random()
            if r < 0.05:
                ents[-1] = "*"
            elif r < 0.09:
                ents[self.rng.randrange(k)] = "0"
            elif r < 0.11:
                ents = []
            elif r < 0.12:
                ents[self.rng.randrange(k)] = "-%d" % self.rng.choice([1, 2, 8])
        return "(" + ",".join(ents) + ")"

    def attrs(self, rank, allow_bad=True, dims=None):
        parts = []
        rng = self.rng
        if rng.random() < 0.04:
            parts.append("D(" + ",".join(rng.choice(["D", "C", "S", "H", "C+", "C~", "C+~", "D"])
                                         for _ in range(max(rank, 1))) + ")")
        if rng.random() < 0.55:
            n = rng.choice([1, 1, 1, 2, 2, 3, 4])
            parts.append("T" + "".join(self.tile(rank, allow_bad) for _ in range(n)))
        if rng.random() < 0.08:
            parts.append("L(%d)" % rng.choice([1, 2, 4, 7, 128, 1024] + ([0, -1] if allow_bad and rng.random() < 0.3 else [])))
        if allow_bad and rng.random() < 0.02:
            parts.append(rng.choice(["#(u32)", "#(u8)", "#(s32)", "#(f32)"]))
        if allow_bad and rng.random() < 0.02:
            parts.append(rng.choice(["*(u16)", "*(u64)", "*(pred)"]))
        if rng.random() < 0.12:
            parts.append("E(%d)" % rng.choice([0, 1, 2, 4, 4, 8, 16, 32, 64] + ([-1] if allow_bad else [])))
        if rng.random() < 0.2:
            choices = [0, 1, 1, 2, 3, 5, 6]
            if allow_bad:
                choices += [127, 128, -1, 255]
            parts.append("S(%d)" % rng.choice(choices))
        if rng.random() < 0.07 and rank > 0:
            scs = []
            used = list(range(rank))
            rng.shuffle(used)
            for d in used[: rng.choice([1, 1, 2])]:
                n = rng.choice([1, 1, 2])
                idx = sorted(rng.sample(range(1, 20), n))
                scs.append("(%d:%s)" % (d, ",".join(map(str, idx))))
            if allow_bad and rng.random() < 0.2:
                scs.append("(%d:1)" % (rank + rng.randrange(2)))
            parts.append("SC" + "".join(scs))
        if rng.random() < 0.06:
            parts.append("M(%d)" % rng.choice([0, 4, 8, 1024, 16]))
        return parts

    def array(self, ty=None, rank=None, allow_bad=True, layout_style=None, dyn=0.12):
        rng = self.rng
        ty = ty or rng.choice(list(ARRAY_TYPES))
        rank = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 7]) if rank is None else rank
        ds = self.dims(rank, dyn)
        s = "%s[%s]" % (ty, ",".join(ds))
        style = layout_style or rng.choice(["none", "desc", "desc", "desc", "asc", "random", "random", "bad"])
        if not allow_bad and style == "bad":
            style = "desc"
        if style == "none":
            if rng.random() < 0.1:
                return s
            m2m = None
        elif style == "bad":
            m2m = self.bad_m2m(rank)
        else:
            m2m = self.perm(rank, style)
        attrs = self.attrs(rank, allow_bad)
        if m2m is None:
            if not attrs:
                return s
            m2m = self.perm(rank, "desc")
        lay = "{" + ",".join(map(str, m2m))
        if attrs:
            lay += ":" + "".join(attrs)
        return s + lay + "}"

    def spaced(self, s):
        """Insert whitespace / block comments between tokens of s (token-safe)."""
        try:
            lex(s)
        except SyntaxErr:
            return s
        out = []
        seps = [" ", "  ", "\t", "/*c*/", " /* x */ ", "/**/", "/* a, b: c */", "/*** ***/"]
        pieces = _token_spans(s)
        for j, (a_, b_) in enumerate(pieces):
            out.append(s[a_:b_])
            if j + 1 < len(pieces) and self.rng.random() < 0.3:
                out.append(self.rng.choice(seps))
        res = "".join(out)
        if self.rng.random() < 0.2:
            res = self.rng.choice(seps) + res
        if self.rng.random() < 0.2:
            res = res + self.rng.choice(seps)
        return res

    def mutate(self, s):
        rng = self.rng
        alphabet = "[]{}(),:*#+~?<=-0123456789 TLESCDMPbfsu_x/.;"
        op = rng.choice(["del", "del", "ins", "ins", "rep", "rep", "swap", "dup"])
        if not s:
            return s
        i = rng.randrange(len(s))
        if op == "del":
            return s[:i] + s[i + 1:]
        if op == "ins":
            return s[:i] + rng.choice(alphabet) + s[i:]
        if op == "rep":
            return s[:i] + rng.choice(alphabet) + s[i + 1:]
        if op == "swap" and i + 1 < len(s):
            return s[:i] + s[i + 1] + s[i] + s[i + 2:]
        j = min(len(s), i + rng.randrange(1, 6))
        return s[:j] + s[i:j] + s[j:]

    def garbage(self):
        rng = self.rng
        pool = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                "[]{}()<>=,.;:!?@#$%^&*_+-~'\"`|\\/ \t" + "\u00e9\u00fc\u4e2d\u00a0\u03bb\U0001f600\x7f")
        n = rng.randrange(1, 30)
        return "".join(rng.choice(pool) for _ in range(n))


def _token_spans(s):
    """Character spans of the tokens of s (same rules as lex)."""
    spans = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in " \t\n\r":
            i += 1
            continue
        if s.startswith("/*", i):
            i = s.find("*/", i + 2) + 2
            continue
        if s.startswith("//", i):
            break
        st = i
        if _is_alpha(c):
            i += 1
            while i < n and (_is_alpha(s[i]) or _is_digit(s[i]) or s[i] in ".-"):
                i += 1
        elif _is_digit(c) or c == "-":
            i += 1
            while i < n and _is_digit(s[i]):
                i += 1
        elif s.startswith("<=", i):
            i += 2
        else:
            i += 1
        spans.append((st, i))
    return spans


def generate():
    g = Gen()
    rng = g.rng
    # 1. spec and real-world strings
    for s in SPEC_STRINGS:
        g.add(s)
    for s in REAL_WORLD:
        g.add(s)

    # 2. every element type x ranks 0..7, default and explicit layouts
    for ty in ALL_TYPES:
        for rank in range(0, 8):
            dims = [str([2, 3, 4, 5, 6, 7, 8][i]) for i in range(rank)]
            g.add("%s[%s]" % (ty, ",".join(dims)))
        g.add("%s[]{:T(256)}" % ty)
        g.add("%s[8,128]{1,0:T(8,128)}" % ty)
        g.add("%s[8,128]{0,1}" % ty)
        g.add("%s[16,256]{1,0:T(8,128)(2,1)}" % ty)
        g.add("%s[4]{0:E(4)}" % ty)
        g.add("%s[4]{0:E(8)}" % ty)
        g.add("%s[4]{0:S(1)}" % ty)
        g.add("(%s[2], %s[])" % (ty, ty))
        g.add("b(%s[3])" % ty)
        g.add("%s[<=4,?]" % ty)
        g.add("%s[0]" % ty)
        g.add("%s[3]{0:L(4)}" % ty)
    for ty in ARRAY_TYPES:
        g.add("%s[64,128]{1,0:E(%d)}" % (ty, ARRAY_TYPES[ty] * 8))
        g.add("%s[5]{0:E(32)}" % ty)
        g.add("%s[]{:E(%d)}" % (ty, ARRAY_TYPES[ty] * 8))

    # 3. ranks 0..7 with every layout style
    for rank in range(0, 8):
        for style in ("desc", "asc", "random", "random", "random"):
            m2m = g.perm(rank, style)
            g.add("f32[%s]{%s}" % (",".join(g.dims(rank, 0)), ",".join(map(str, m2m))))
        for _ in range(4):
            g.add("s32[%s]{%s}" % (",".join(g.dims(rank, 0)), ",".join(map(str, g.bad_m2m(rank)))))
        g.add("f32[%s]{%s:T(8,128)}" % (",".join(["2"] * rank), ",".join(map(str, g.perm(rank, "desc")))))
        g.add("u8[%s]{%s}" % (",".join(["<=3"] * rank), ",".join(map(str, g.perm(rank, "asc")))))
        g.add("u8[%s]" % ",".join(["?"] * rank))

    # 4. dimension edge cases
    for d in ["0", "00", "0496", "-0", "-1", "-5", "007", "1", "9223372036854775807",
              "9223372036854775808", "9223372036854775809", "18446744073709551615",
              "18446744073709551616", "99999999999999999999999", "-9223372036854775808",
              "-9223372036854775809", "<=0", "<=-0", "<=0496", "<=-1", "<=9223372036854775807",
              "<=9223372036854775808", "<=9223372036854775809", "<=18446744073709551615",
              "<=18446744073709551616", "<=-9223372036854775808", "<=-9223372036854775807", "?",
              "<=?", "<= 5", "< =5", "<5", "=5", "<==5", "??", "?5", "5?", "+5", "1.0", "1e3", "0x10",
              "2x3", "1_0", "", ",", "a", "<=", "-", "--1", " 7 ", "/*c*/7"]:
        g.add("f32[%s]" % d)
        g.add("s8[%s,2]" % d)
    for ty, bw in (("s8", 1), ("f32", 4), ("c128", 16), ("s4", 1), ("pred", 1), ("bf16", 2)):
        lim = I64MAX // bw
        g.add("%s[%d]" % (ty, lim))
        g.add("%s[%d]" % (ty, lim + 1))
        g.add("%s[<=%d]" % (ty, lim + 1))
        g.add("%s[%d,2]" % (ty, lim // 2))
        g.add("%s[%d,2]" % (ty, lim // 2 + 1))
        g.add("%s[%d,0]" % (ty, lim + 1))
        g.add("%s[0,%d,2]" % (ty, I64MAX))
        g.add("%s[%d,2,0]" % (ty, I64MAX))
        g.add("%s[%d,0,2]" % (ty, I64MAX))
        g.add("%s[?,%d]" % (ty, lim + 1))
        g.add("%s[?,%d,2]" % (ty, I64MAX))
        g.add("%s[3037000499,3037000499]" % ty)
        g.add("%s[3037000500,3037000500]" % ty)
        g.add("%s[%d]{0:T(128)}" % (ty, lim))
        g.add("%s[%d]{0:T(128)}" % (ty, lim - 200))
        g.add("%s[%d]{0:L(2)}" % (ty, lim))
        g.add("%s[%d]{0:L(1024)}" % (ty, lim - 2000))
        g.add("%s[%d,1]{1,0:T(8,128)}" % (ty, lim // 128))
        g.add("%s[%d,3]{1,0:T(8,128)}" % (ty, lim // 128))
        g.add("%s[%d]{0:E(64)}" % (ty, lim))
        g.add("%s[%d]{0:E(1)}" % (ty, lim))
        g.add("%s[%d]{0:T(128)E(1)}" % (ty, lim))
        g.add("%s[2,%d]{0,1:T(4,1)}" % (ty, lim // 2))
        g.add("%s[%d]{0:T(2)(2)}" % (ty, lim))
        g.add("%s[]{:T(%d)}" % (ty, lim))
        g.add("%s[]{:T(%d)}" % (ty, lim + 1))
        g.add("%s[]{:T(%d)}" % (ty, I64MAX))
        g.add("%s[]{:T(%d,%d)}" % (ty, 1 << 32, 1 << 32))
    g.add("f32[2]{0:E(9223372036854775807)}")
    g.add("f32[16]{0:E(9223372036854775807)}")
    g.add("f32[2]{0:E(4611686018427387904)}")
    g.add("f32[2]{0:L(9223372036854775807)}")
    g.add("s8[3]{0:L(4611686018427387904)}")
    g.add("s8[3]{0:T(4611686018427387904)}")
    g.add("s8[3,3]{1,0:T(4611686018427387904,2)}")

    # 5. minor_to_major edge cases
    for m in ["", "0", "1", "0,1", "1,0", "0,0", "1,1", "2,0", "0,2", "-1,0", "1,-1", "-0,1", "01,00",
              "1,0,", ",1,0", "1 0", "1;0", "1,,0", "1,0,2", "9223372036854775808,0",
              "18446744073709551615,0", "1,0:", ":", "1,0:}", "x", "1,0 :T(2)", "1, 0"]:
        g.add("f32[2,3]{%s}" % m)
    g.add("f32[2,3]{1,0}{1,0}")
    g.add("f32[2,3]{}")
    g.add("f32[]{}")
    g.add("f32[]{:}")
    g.add("f32[2]{0:}")
    g.add("f32[] {}")
    g.add("f32[2,3] {}")
    g.add("token[]{}")
    g.add("(f32[2]){}")
    g.add("f32[2]{0}{}")
    g.add("f32[2]{ }")
    g.add("f32[2]{/**/}")
    g.add("f32[]{/**/:/**/}")

    # 6. tiles
    for t in ["T(2,3)", "T(3)", "T(8,128)", "T(1,1)", "T(2,3,4)", "T(1,2,3,4,5)", "T(2)(2)",
              "T(8,128)(2,1)", "T(8,128)(2,1)(2,1)", "T(8,128)(2,1)(1,1)(4)", "T(8,128)(2,1,1,1)",
              "T(*,3)", "T(*,*,3)", "T(2,*)", "T(*)", "T(*,*)", "T(2,*,*)", "T(*,2,*)", "T(2,*)(2)",
              "T(2)(*,2)", "T(2)(2,*)", "T(*,2)(*,2)", "T(2,*,3)(*,*,2)", "T(0)", "T(0,2)", "T(2,0)",
              "T()", "T(2)()", "T()(2)", "T(-1)", "T(-2,55)", "T(2,-3)", "T(-0,2)", "T(2,-0)",
              "T(9223372036854775807)", "T(9223372036854775808)", "T(9223372036854775809)",
              "T(-9223372036854775808,2)", "T(18446744073709551615)", "T(2,9223372036854775808)",
              "T", "T(", "T(2", "T(2,", "T(2,)", "T(,2)", "T(2)(", "T(2)(3", "T(2 3)", "T(2;3)",
              "T((2))", "T[2]", "T{2}", "T(2)*", "T(2)* ", "T(2)(*)", "T(**,2)", "T(* *,2)",
              "T(2,3)T(2,3)", "T (2, 3)", "T(2)/*x*/(3)", "T(2) (3)", "t(2,3)", "T2", "T(a)",
              "T(2.0)", "T(+2)", "T(0x2)", "T(1,1,1,1,1,1,1,1,1)"]:
        for shp in ("f32[4,6]{1,0:%s}", "bf16[2,3,5]{2,1,0:%s}", "s8[]{:%s}", "f32[7]{0:%s}"):
            g.add(shp % t)

    # 7. integer attributes L E S M
    vals = ["0", "1", "2", "-1", "-0", "7", "8", "32", "127", "128", "255", "256", "-128", "-129",
            "384", "1024", "4294967296", "9223372036854775807", "9223372036854775808",
            "18446744073709551615", "18446744073709551616", "-9223372036854775808"]
    for letter in ("L", "E", "S", "M"):
        for v in vals:
            g.add("f32[4,4]{1,0:%s(%s)}" % (letter, v))
        for bad in ["", "(", "()", "(1", "(1,2)", "(a)", "(1)(2)", "[1]", "( 1 )", "(+1)", "(1.5)", "(-)",
                    "(1) ", "(/*c*/1)"]:
            g.add("f32[4,4]{1,0:%s%s}" % (letter, bad))
    for ty in ("s4", "u4", "s2", "s1", "u1", "f4e2m1fn", "f32", "pred", "bf16", "s8", "c64"):
        for e in (0, 1, 2, 4, 8, 16, 32, 64, 3, 128):
            g.add("%s[64]{0:E(%d)}" % (ty, e))
        g.add("%s[64]{0:T(128)E(4)}" % ty)
        g.add("%s[64,64]{1,0:T(8,128)(8,1)E(4)}" % ty)
    for sv in (0, 1, 2, 3, 5, 6, 127, 128, -1, 200, 255, 256, 257, -128, -129):
        g.add("f32[2]{0:S(%d)}" % sv)
        g.add("s32[]{:S(%d)}" % sv)
        g.add("bf16[8,128]{1,0:T(8,128)(2,1)S(%d)}" % sv)

    # 8. split configs
    for sc in ["SC(0:1)", "SC(1:1)", "SC(1:2)", "SC(1:3)", "SC(0:2)", "SC(0:3)", "SC(2:1)", "SC(5:1)",
               "SC(-1:1)", "SC(1:0)", "SC(1:-1)", "SC(1:2,1)", "SC(1:1,1)", "SC(1:1,2)", "SC(0:1)(1:1)",
               "SC(1:1)(0:1)", "SC(0:1)(0:1)", "SC(1:)", "SC(0:)", "SC()", "SC(1)", "SC", "SC(1:1",
               "SC(1:1,)", "SC(1:1)(", "SC(0 1)", "SC(0:1)SC(1:1)", "S C(0:1)", "SC (0:1)",
               "SC(9223372036854775808:1)", "SC(0:18446744073709551615)", "SC(1:2)M(4)", "SC(1:2)S(1)"]:
        g.add("f32[2,3]{1,0:%s}" % sc)
        g.add("f32[6,4]{0,1:%s}" % sc)
    for sc in ["SC(0:1)", "SC(0:4)", "SC(0:5)", "SC(1:1)", "SC(1:3)", "SC(0:)"]:
        g.add("f32[<=5,4]{1,0:%s}" % sc)
        g.add("f32[?,4]{1,0:%s}" % sc)
        g.add("f32[]{:%s}" % sc)
    g.add("pred[123,456]{1,0:T(2,128)S(3)SC(1:200)M(8)}")
    g.add("pred[123,456]{1,0:SC(0:10,20,30)(1:100,200,300,400)}")

    # 9. D(...)
    for dl in ["D()", "D(D)", "D(C)", "D(S)", "D(H)", "D(X)", "D(c)", "D(C+)", "D(C~)", "D(C+~)",
               "D(C~+)", "D(C++)", "D(C,D)", "D(D,D,D)", "D(CD)", "D(C,)", "D(,C)", "D(C", "D( C + ~ )",
               "D(D+,S~)", "D(H+~,C)", "D(1)", "D", "D(C)D(C)", "D(C)T(2)", "T(2)D(C)", "D(C)S(1)",
               "D(C)P(f32[2])", "D(C)L(0)", "D(C)E(4)M(2)"]:
        g.add("f32[2]{0:%s}" % dl)
        g.add("f32[2,3]{1,0:%s}" % dl)

    # 10. sparse attributes, P
    for sp in ["#(u32)", "#(u8)", "#(s32)", "#(f32)", "#(pred)", "#(u1)", "#(token)", "#()", "#",
               "#u32", "#(u32", "*(u16)", "*(u64)", "*(f32)", "*()", "*", "**", "*u16", "*(u16",
               "#(u32)*(u16)", "*(u16)#(u32)", "P(f32[2])", "P(s32[2]{0})", "P()", "P(f32[2]",
               "P((f32[2]))", "P(token[])", "T(2)#(u32)", "E(4)#(u32)", "#(u32)E(4)"]:
        g.add("f32[2]{0:%s}" % sp)
        g.add("f32[4,128]{1,0:T(4,128)%s}" % sp)

    # 11. attribute order / repeats / full attribute sets
    letters = ["T(2,2)", "L(4)", "E(8)", "S(1)", "SC(0:1)", "M(16)"]
    for i in range(len(letters)):
        for j in range(len(letters)):
            if i != j:
                g.add("f32[4,4]{1,0:%s%s}" % (letters[i], letters[j]))
        g.add("f32[4,4]{1,0:%s%s}" % (letters[i], letters[i]))
    g.add("f32[4,4]{1,0:%s}" % "".join(letters))
    g.add("f32[4,4]{1,0:D(D,D)%s}" % "".join(letters))
    for _ in range(40):
        perm = letters[:]
        rng.shuffle(perm)
        g.add("f32[4,4]{1,0:%s}" % "".join(perm[: rng.randrange(2, 7)]))
    for junk in ["X(2)", "Q", "T(2)X(1)", "T(2)S(1)C(1:1)", "T(2)S/**/C(0:1)", "T(2):S(1)", "T(2),S(1)",
                 "T(2) S(1)", "T(2)S(1)}", "T(2)S(1)}{", "T(2)S(1)T(2)", "TL(2)", "T(2)L(2)E(2)S(1)SC(0:1)M(2)",
                 "T(2)L(2)#(u8)*(u8)E(2)S(1)SC(0:1)M(2)", "T(2)L(2)E(2)S(1)SC(0:1)P(f32[2])M(2)",
                 "EE(4)", "E4", "SS(1)", "MM(1)", "LL(1)", "L(2)T(2)", "M(1)E(1)"]:
        g.add("f32[4]{0:%s}" % junk)

    # 12. scalars with layouts
    for lay in ["{:T(256)}", "{:T(128)}", "{:T(512)}", "{:T(1024)}", "{:T(2,128)}", "{:T(8,128)(2,1)}",
                "{:S(1)}", "{:S(5)}", "{:E(4)}", "{:E(32)}", "{:L(4)}", "{:M(8)}", "{:T(256)S(1)}",
                "{:T(128)S(6)}", "{:T(256)L(512)}", "{:D()}", "{:D(C)}", "{:T(*,128)}", "{:T(128,*)}",
                "{:T(0)}", "{:T()}", "{0}", "{0:T(256)}", "{:SC(0:1)}", "{:#(u32)}", "{:T(256)M(4)}",
                "{ : T ( 256 ) }", "{:T(256)}{:T(256)}", "{:E(0)}", "{:S(0)}", "{:L(1)}", "{:M(0)}",
                "{:T(1)}", "{:T(1,1,1,1,1,1,1,1,1,1)}"]:
        for ty in ("f32", "s32", "pred", "bf16", "s4", "c128"):
            g.add(ty + "[]" + lay)

    # 13. token / opaque
    for base in ("token", "opaque"):
        for suf in ["[]", "[3]", "[0]", "[1,2]", "[?]", "[<=2]", "[]{}", "[]{:}", "[]{:T(2)}", "[]{:S(1)}",
                    "[]{0}", "", "[", "[ ]", " [] ", "[]/*c*/", "[]{:E(8)}"]:
            g.add(base + suf)
    g.add("opaque_type[]")
    g.add("tuple[]")
    g.add("buffer[]")
    g.add("Token[]")
    g.add("(token[], opaque[])")
    g.add("(token[])")
    g.add("(opaque[])")
    g.add("((opaque[]), f32[2])")

    # 14. tuples
    g.add("()")
    g.add("(())")
    g.add("((()))")
    g.add("((),(()),f32[])")
    g.add("( )")
    g.add("(,)")
    g.add("(f32[2],)")
    g.add("(,f32[2])")
    g.add("(f32[2] f32[3])")
    g.add("(f32[2]){0}")
    g.add("(f32[2]){}")
    g.add("(f32[2]) {0:T(2)}")
    g.add("(f32[2]")
    g.add("f32[2])")
    g.add("((f32[2])")
    g.add("(f32[2]))")
    for n in (1, 2, 4, 5, 6, 7, 10, 11, 12, 15, 16, 21, 26):
        elems = []
        for k in range(n):
            elems.append(g.array(allow_bad=False) if rng.random() < 0.7 else rng.choice(["f32[]", "s32[2]", "token[]", "pred[]"]))
        g.add("(" + ", ".join(elems) + ")")
        g.add("(" + ",".join(elems) + ")")
        g.add("(" + ",".join("f32[]" for _ in range(n)) + ")")
    for n in (6, 11, 12):
        g.add("(" + ", ".join("s8[%d]" % k for k in range(n)) + ")")
    # nested
    def nested(depth):
        if depth == 0 or rng.random() < 0.25:
            return g.array(allow_bad=False, rank=rng.choice([0, 1, 2]))
        k = rng.choice([0, 1, 2, 3, 6])
        return "(" + ", ".join(nested(depth - 1) for _ in range(k)) + ")"
    for _ in range(40):
        g.add(nested(rng.choice([2, 3, 4])))
    g.add("(" * 20 + "f32[]" + ")" * 20)
    g.add("(" * 20 + ")" * 20)
    # tuples containing an invalid element
    for bad in ("f32[2]{0:S(200)}", "f32[2,3]{1,0:T(2,*,2)}", "f32[2,3,4]{2,1,0:T(2,*,2)}", "f32[2]{0:L(0)}",
                "f32[2]{0:T(-1)}", "token[1]", "f32[2]{0:E(8}", "f32[<=9223372036854775808]",
                "s8[9223372036854775807]{0:T(128)}", "f32[2]{0,0}", "f32[2]{1}", "opaque[]", "b(f32[2])",
                "f32[2]{0:M(-1)}", "b(f32[2]{0:T(2)})"):
        g.add("(f32[1], %s)" % bad)
        g.add("(%s, f32[1])" % bad)
        g.add("(f32[], (s32[2], %s))" % bad)
    # index comments inside input
    g.add("(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[])")
    g.add("(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[], f32[], f32[], f32[], f32[], /*index=10*/f32[])")
    g.add("(f32[], /*index=1*/f32[])")
    # tuple elements are validated when the tuple closes; '*' is not caught there
    for s in ["(f32[2]{0:T(2,*)})", "(f32[2]{0:T(*,2)})", "(f32[2]{0:T(*,2)}, f32[2]{1})",
              "(f32[2]{1}, token[3])", "((f32[2]{1}), token[3])", "(f32[2]{0:S(300)})",
              "(b(f32[2]{1}))", "(f32[?,4]{1,0:SC(0:1)})", "f32[2]{}", "s8[]{:T(2)}",
              "f32[6,4]{0,1:SC(0:4)}", "f32[6,4]{0,1:SC(1:6)}", "f32[6,4]{0,1:SC(1:5)}"]:
        g.add(s)

    # 15. buffers
    for b in ["b(f32[2])", "b(f32[])", "b(f32[2,3]{0,1})", "b(f32[2]{0:S(1)})", "b(f32[2]{0:E(4)})",
              "b(s4[8]{0:E(4)})", "b(f32[2]{0:L(2)})", "b(f32[2]{0:M(4)})", "b(f32[2]{0:SC(0:1)})",
              "b(f32[2]{0:D(C)})", "b(f32[2]{0:T(2)})", "b(f32[8,128]{1,0:T(8,128)})", "b(f32[?])",
              "b(f32[<=5])", "b(f32[2,3]{0,0})", "b(f32[-1])", "b(token[])", "b(opaque[])", "b((f32[2]))",
              "b(b(f32[2]))", "b(())", "b()", "b", "b(f32[2],f32[3])", "b(f32[2]){0}", "b ( f32[2] )",
              "b/**/(f32[2])", "B(f32[2])", "b[2]", "bb(f32[2])", "b(f32[2]", "(b(f32[2]),b(s8[]))",
              "b(f32[2]{0:S(128)})", "b(f32[2]{0:E(8})", "b(f32[2]{0:T(2,*)})", "b(f32[2,3]{1,0:T(*,2)})",
              "b(pred[])", "b(c128[4,4]{0,1})", "b(f32[9223372036854775807])", "b(s8[9223372036854775807]{0:L(2)})"]:
        g.add(b)

    # 16. whitespace & comments
    for s in ["f32[2]", "f32[2,3]{1,0:T(2,2)S(1)}", "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
              "(f32[2], s32[])", "s32[]{:T(128)}", "f32[<=4,?]{0,1:E(32)M(8)}", "b(f32[2])",
              "pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}"]:
        for _ in range(6):
            g.add(g.spaced(s))
    for s in ["f32[2]//c", "f32[2]{0}// c", "f32[2] // trailing comment", "f32[2]{0:T(2)//x",
              "f32[2]//x{0}", "(f32[2], // x", "// f32[2]", "f32[2]{0:T(2)}//", "f32[2]/* a */ // b",
              "f32[2]/*c", "f32[2]/*/", "f32[2]/***/", "f32[2]/* /* */ */", "f32[2]/**/*/",
              "/*x*/f32[2]", "f32/**/[2]", "f32[2]/", "f32[2]*/", "f32[</**/=5]", "f32[<=/**/5]",
              "f3/**/2[2]", "f32[2]{0:S/**/C(0:1)}", "f32[2]{0:SC/**/(0:1)}", "s32[]{:T(128)}//c",
              "f32[2]\t{0}", "\tf32[2]", "f32[2]\x0b", "f32[2]\x0c{0}", "f32[\u00a02]", "f32[2]\x00junk",
              "f32 [2]", "f32[2] {0}", "f32[2]{0} ", " f32[2]", "f32[ 2 ]", "f32[2 , 3]{ 1 , 0 }"]:
        g.add(s)

    # 17. case / identifier issues
    for s in ["F32[2]", "Pred[2]", "BF16[2]", "f32x[2]", "f32.1[2]", "f32-1[2]", "f 32[2]", "f32_[2]",
              "float32[2]", "int32[2]", "s128[2]", "u128[2]", "f8[2]", "f8e4m3fnuz_[2]", "f8E4M3[2]",
              "%f32[2]", "f32[2]%", "f32[2]{0:t(2)}", "f32[2]{0:s(1)}", "f32[2]{0:sc(0:1)}", "f32[2]{0:l(2)}",
              "f32[2]{0:e(4)}", "f32[2]{0:m(4)}", "f32[2]{0:d(C)}", "f32[2]{0:Sc(0:1)}", "f32[2]{0:S1}",
              "f32[2]{0:S(1)x}", "f32:[2]", "f32=[2]", "f32[2]=", "f32[2]:", "f32[2]{0:T(2)S(1)}:"]:
        g.add(s)

    # 18. random shapes (mostly valid, some invalid)
    valid_pool = []
    for _ in range(1250):
        s = g.array()
        if rng.random() < 0.15:
            s = g.spaced(s)
        g.add(s)
        valid_pool.append(s)
    for _ in range(150):
        s = g.array(allow_bad=False, dyn=0.3)
        g.add(s)
        valid_pool.append(s)

    # 19. mutations of valid strings
    bases = REAL_WORLD + valid_pool[:400] + SPEC_STRINGS[:60]
    for _ in range(750):
        s = rng.choice(bases)
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            s = g.mutate(s)
        g.add(s)

    # 20. garbage
    for _ in range(90):
        g.add(g.garbage())
    for s in ["[]", "{}", "()", "{0}", ":", "*", "?", "<=", "f32", "f32[]]", "f32[[2]]", "f32[2]]",
              "f32[2]}", "]f32[2]", "}", "{", "[", "(", ")", "0", "-1", "1,0", "T(2)", "{1,0:T(2,2)}",
              "{:T(256)}", "f32[2]{0:T(2)}}", "f32[2]{{0}}", "f32[2]{0}}", "f32[2]{0", "f32[2]{0:",
              "f32[2]{0:T(2)", "f32[2", "f32[", "f32[2]{0:T(2)S(1)", "#", "~", "+", "\u4e2d\u6587",
              "\U0001f600", "f32[2]\u00e9", "f32[2]{0:T(2)E(4)S(1)}\x7f"]:
        g.add(s)
    # NUL bytes: XLA's lexer refuses them everywhere, comments included
    # (found by tools/hunt_parity.py).
    for s in ["f32[2]/*\x00*/", "f32[2]{0:/*\x00*/T(2)}", "(f32[], /*\x00*/s8[2])",
              "f32[2]//\x00", "f32[2] // a\x00b"]:
        g.add(s)
    return g.items


# ---------------------------------------------------------------------------
# Oracle
# ---------------------------------------------------------------------------
def run_oracle(oracle, python, inputs):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    data = "".join(s + "\n" for s in inputs).encode("utf-8")
    p = subprocess.run([python, oracle], input=data, stdout=subprocess.PIPE, env=env, check=True)
    out = {}
    for line in p.stdout.decode("utf-8").splitlines():
        r = json.loads(line)
        out[r["input"]] = r
    return out


def load_cache(path):
    cache = {}
    if not path or not os.path.exists(path):
        return cache
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if "xla_ok" in r:
                cache[r["input"]] = {"input": r["input"], "ok": r["xla_ok"], "canonical": r["xla_canonical"],
                                     "stage": r["xla_stage"], "error": r["xla_error"]}
            else:
                cache[r["input"]] = r
    return cache


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oracle", default=os.path.join(here, "xla_oracle.py"))
    ap.add_argument("--oracle-python", default=sys.executable)
    ap.add_argument("--out", default=os.path.join(repo, "layout-cli", "tests", "data", "xla_vectors.jsonl"))
    ap.add_argument("--cache", default=None, help="earlier output or raw oracle JSONL to reuse")
    ap.add_argument("--list-inputs", action="store_true")
    args = ap.parse_args()

    inputs = generate()
    if args.list_inputs:
        for s in inputs:
            print(s)
        return
    cache = load_cache(args.cache)
    missing = [s for s in inputs if s not in cache]
    if missing:
        print("asking the oracle about %d inputs..." % len(missing), file=sys.stderr)
        cache.update(run_oracle(args.oracle, args.oracle_python, missing))
    rows = []
    problems_total = 0
    for s in inputs:
        x = cache[s]
        ok, canonical, rule, problems = expectation(s, x)
        for p in problems:
            problems_total += 1
            print("MODEL MISMATCH %r: %s" % (s, p), file=sys.stderr)
        err = x["error"]
        rows.append({"input": s, "xla_ok": x["ok"], "xla_canonical": x["canonical"], "xla_stage": x["stage"],
                     "xla_error": err[:200] if err else None, "ok": ok, "canonical": canonical, "rule": rule})
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    n_ok = sum(r["ok"] for r in rows)
    print("%d vectors, %d ok, %d not ok, %d model mismatches" % (len(rows), n_ok, len(rows) - n_ok,
                                                                problems_total), file=sys.stderr)
    counts = {}
    for r in rows:
        if r["rule"]:
            counts[r["rule"]] = counts.get(r["rule"], 0) + 1
    for k in sorted(counts):
        print("  %5d  %s" % (counts[k], k), file=sys.stderr)


if __name__ == "__main__":
    main()
