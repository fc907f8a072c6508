#!/usr/bin/env python3
"""Hunt for disagreements between `layout check` and XLA (as adjusted by docs/decisions.md).

Generates shape strings with strategies that tools/gen_xla_vectors.py does not use,
asks XLA about them through the oracle script, computes this project's expected
answer with gen_xla_vectors.expectation() and compares it with `layout check`.

Strategies (the tag of each input says which one made it):
  grammar   random shapes from the grammar: weird but legal spacing and comments,
            ranks up to 16 (and some above: our capacity limit), up to 8 tile levels
            (and some more), long split configs, deep tuple nesting, big tuples
  mutate    mutations of real-world TPU/GPU strings: bit flips, token swaps and
            duplicates, number and type replacements, duplicated, reordered,
            dropped and inserted layout attributes
  numeric   edge values near 2^31, 2^32, 2^53, 2^62, 2^63, 2^64 (and negated) in
            every numeric position, alone and in pairs
  esize     every element type with E(n), n in 0..=130, on plain, tiled, scalar
            and overflow-boundary shapes
  boundary  random tiled/padded/packed shapes with one dimension set, by binary
            search on the model's allocation size, to the last value whose
            allocation fits in i64 and the first one that does not
  zeros     zero-sized dimensions next to huge ones, in every layout order, with
            tiles and '*' (a zero anywhere makes the allocation empty)
  exotic    control, non-ASCII and NUL characters inside comments, between tokens,
            inside identifiers and around the whole string
  context   strings of the other strategies put inside tuples and buffers

Stdlib only; deterministic for a given --seed. Run from the repository root:

  python3 tools/hunt_parity.py --seed 1 --out-dir /tmp/hunt --list-inputs   # inputs only
  python3 tools/hunt_parity.py --seed 1 --out-dir /tmp/hunt \\
          --oracle-python ../venv-xla/bin/python [--jobs 2] [--count 30000]

The oracle answers are cached in OUT_DIR/oracle.jsonl (only missing inputs are asked).
Inputs with a '//' comment are asked again with the oracle's HLO template changed so
that the shape's line ends before "parameter(0)" (OUT_DIR/oracle_newline.jsonl): the
plain oracle answers them with a syntax error caused by its own template (rule
`line-comment`), the variant gives XLA's real answer; that answer is the one compared.
Outputs in OUT_DIR: inputs.txt, oracle*.jsonl, ours.jsonl, results.jsonl (every input),
mismatches.jsonl (status mismatch or unresolved), capacity.jsonl, model_problems.jsonl,
summary.txt.

Statuses: agree; mismatch (ours differs from the expectation); unresolved (the model
has no expectation: XLA rejects what the model accepts, rule "???"); capacity (see below).

A capacity error of ours (rank > 16, more than 8 tile levels or 32 tile entries,
more than 4 split configs or 16 split indices, nesting deeper than 32) where the
expectation is "accept" is documented behaviour: it is listed in capacity.jsonl,
not counted as a mismatch.
"""
import argparse
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_xla_vectors as G  # noqa: E402

REPO = os.path.dirname(HERE)
I64MAX = G.I64MAX
U64MAX = G.U64MAX

ARRAY_TYPES = list(G.ARRAY_TYPES)
ALL_TYPES = ARRAY_TYPES + list(G.NONARRAY_TYPES)

# Strings seen in TPU / GPU HLO dumps (not in gen_xla_vectors.REAL_WORLD).
EXTRA_REAL_WORLD = [
    # GPU (default layouts, transposes, fp8, int4)
    "f32[128,256]{1,0}", "bf16[16,32,128]{2,1,0}", "f16[8,128,64,64]{3,2,1,0}",
    "bf16[8,128,64,64]{1,3,2,0}", "f8e4m3fn[4096,4096]{1,0}", "f8e5m2[4096,4096]{0,1}",
    "s4[4096,11008]{1,0:E(4)}", "u4[128,64]{0,1:E(4)}", "s8[32,4096]{1,0}",
    "(f32[1024]{0}, f32[1024]{0}, s32[])", "(bf16[2,16,1024,128]{3,2,1,0}, f32[2,16,1024]{2,1,0})",
    "pred[1024,1024]{1,0}", "c64[256,256]{1,0}", "f64[3,3]{0,1}",
    "f32[<=1024,768]{1,0}", "s32[?]{0}", "f32[?,?,128]{2,1,0}",
    "(f32[8,16]{1,0}, u8[0]{0}, s32[4]{0})", "u8[33554432]{0}",
    "(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[], f32[])",
    "f32[2,2048,8,128]{3,1,2,0}", "bf16[2,8,2048,2048]{3,2,1,0}",
    "f8e4m3fnuz[64,64]{1,0}", "f8e5m2fnuz[64,64]{1,0}", "f8e8m0fnu[128]{0}",
    "f4e2m1fn[256,32]{1,0:E(4)}", "f8e3m4[16]{0}", "f8e4m3b11fnuz[16,16]{0,1}",
    # TPU (tiling, memory spaces, split configs, metadata prefix)
    "f32[1024,1024]{1,0:T(8,128)S(1)}", "bf16[1024,1024]{0,1:T(8,128)(2,1)}",
    "s8[1024,1024]{1,0:T(32,128)(4,1)}", "pred[2048]{0:T(1024)(128)(4,1)}",
    "u8[8,512]{1,0:T(8,128)(4,1)S(5)}", "f32[4,8,128]{2,1,0:T(8,128)M(64)}",
    "bf16[16,4096]{1,0:T(8,128)(2,1)SC(1:2048)}", "f32[64,64]{1,0:T(8,128)S(1)SC(0:32)}",
    "s4[256,256]{1,0:T(8,128)(8,1)E(4)}", "u4[256,256]{1,0:T(8,128)(8,1)E(4)S(1)}",
    "bf16[8,8,128]{2,1,0:T(2,*,128)(2,1)}", "f32[3,5]{1,0:T(2,2)L(10)}",
    "f32[16]{0:T(256)L(1024)}", "s32[]{:T(128)S(6)}", "bf16[]{:T(256)S(1)}",
    "c64[128,128]{1,0:T(8,128)}", "c128[8,8]{0,1:T(4,128)}", "f32[128]{0:T(1024)}",
    "(s32[]{:T(128)}, bf16[4096,2048]{1,0:T(8,128)(2,1)}, /*index=2*/f32[1]{0:T(256)})",
    "b(bf16[1024]{0:S(1)})", "(b(f32[8]{0}), s32[])",
]

BASES = [2 ** 31, 2 ** 32, 2 ** 53, 2 ** 62, 2 ** 63, 2 ** 64]
OFFSETS = [-2, -1, 0, 1, 2]


def edge_values():
    vals = []
    for b in BASES:
        for o in OFFSETS:
            vals.append(b + o)
            vals.append(-(b + o))
    return vals


EDGE_VALUES = edge_values()


def fmt_int(v):
    return str(v)


# ---------------------------------------------------------------------------
# token-level helpers (same lexical rules as gen_xla_vectors.lex)
# ---------------------------------------------------------------------------
def token_spans(s):
    """(start, end) of each token, or None if the string does not lex."""
    try:
        G.lex(s)
    except G.SyntaxErr:
        return None
    return G._token_spans(s)


# Weird but legal separators (XLA's lexer skips whitespace and comments).
SEPS = [" ", "\t", "\t\t", " \t ", "/**/", "/***/", "/*/*/", "/*//*/", "/* // */", "/*\t*/",
        "/* ** */", "/*[]{}()*/", "/*:*/", "/*,*/", "/*index=5*/", "/*\u00e9\u4e2d*/", "/**//**/",
        "  /*x*/\t/*y*/  ", "/*<=*/", "/* T(2) */", "/*)*/", "/*}*/", "/*\"*/", "/*'*/"]
LINE_COMMENTS = ["//", "// c", "//*/", "// {0:T(2)}", "//\t//", "/**///"]


class Hunt:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.items = []
        self.tag = {}

    def add(self, s, tag):
        if not s.strip() or "\n" in s or "\r" in s:
            return
        if s in self.tag:
            return
        self.tag[s] = tag
        self.items.append(s)

    # ---- spacing ------------------------------------------------------------
    def weird_space(self, s, p=None):
        spans = token_spans(s)
        if spans is None:
            return s
        rng = self.rng
        p = rng.choice([0.1, 0.3, 0.6, 1.0]) if p is None else p
        out = []
        if rng.random() < 0.2:
            out.append(rng.choice(SEPS))
        prev = 0
        for j, (a, b) in enumerate(spans):
            out.append(s[prev:b] if j == 0 else s[a:b])
            prev = b
            if j + 1 < len(spans) and rng.random() < p:
                out.append(rng.choice(SEPS))
        res = "".join(out)
        if rng.random() < 0.2:
            res += rng.choice(SEPS)
        if rng.random() < 0.08:
            res += rng.choice(LINE_COMMENTS)
        return res

    # ---- (a) grammar ----------------------------------------------------------
    def g_rank(self):
        r = self.rng.random()
        if r < 0.05:
            return self.rng.randrange(17, 21)
        if r < 0.35:
            return self.rng.randrange(8, 17)
        return self.rng.randrange(0, 8)

    def g_dim(self, rank):
        rng = self.rng
        r = rng.random()
        if rank > 8:
            v = rng.choice([1, 1, 1, 2, 2, 3, 4, 5, 8, 0])
        else:
            v = rng.choice([1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64, 100, 128, 129, 256, 1000, 4096, 0])
        if r < 0.06:
            return "<=%d" % v, v
        if r < 0.09:
            return "?", None
        if r < 0.11:
            return "0" * rng.randrange(1, 4) + str(v), v
        return str(v), v

    def g_m2m(self, rank):
        rng = self.rng
        r = rng.random()
        if r < 0.4:
            p = list(range(rank - 1, -1, -1))
        elif r < 0.5:
            p = list(range(rank))
        else:
            p = list(range(rank))
            rng.shuffle(p)
        if rng.random() < 0.04 and rank > 0:
            k = rng.choice(["dup", "range", "neg", "short"])
            if k == "dup" and rank > 1:
                p[rng.randrange(rank)] = p[rng.randrange(rank)]
            elif k == "range":
                p[rng.randrange(rank)] = rank + rng.randrange(3)
            elif k == "neg":
                p[rng.randrange(rank)] = -rng.randrange(1, 3)
            else:
                p = p[:-1]
        return p

    def g_tiles(self, rank):
        rng = self.rng
        r = rng.random()
        if r < 0.05:
            levels = rng.randrange(9, 12)
        elif r < 0.5:
            levels = rng.randrange(3, 9)
        else:
            levels = rng.randrange(1, 3)
        budget = 32 if rng.random() < 0.9 else rng.randrange(33, 45)
        tiles = []
        used = 0
        for lv in range(levels):
            left = budget - used - (levels - lv - 1)
            if left < 1:
                left = 1
            k = rng.randrange(1, max(2, min(left, rank + 3) + 1))
            if rng.random() < 0.05:
                k = min(left, rng.randrange(1, 20)) if left >= 1 else 1
            ents = [str(rng.choice([1, 1, 2, 2, 4, 8, 128, 3, 5, 16, 256])) for _ in range(k)]
            if k >= 2 and rng.random() < 0.2:
                for _ in range(rng.randrange(1, k)):
                    ents[rng.randrange(k - 1)] = "*"
            if rng.random() < 0.02:
                ents[-1] = "*"
            if rng.random() < 0.01:
                ents[rng.randrange(k)] = "0"
            used += k
            tiles.append("(" + ",".join(ents) + ")")
        return "T" + "".join(tiles)

    def g_sc(self, rank, m2m, sizes):
        rng = self.rng
        n = rng.choice([1, 1, 2, 3, 4, 4, 5, 6])
        pds = list(range(rank))
        rng.shuffle(pds)
        out = []
        for d in pds[:n]:
            size = None
            if sorted(m2m) == list(range(rank)):
                size = sizes[m2m[rank - 1 - d]]
            cnt = rng.choice([1, 2, 3, 4, 5, 8, 12, 17])
            if size is not None and size > 1:
                cand = list(range(1, size))
                idx = sorted(rng.sample(cand, min(cnt, len(cand))))
            else:
                idx = sorted(rng.sample(range(1, 40), cnt))
            if rng.random() < 0.05:
                rng.shuffle(idx)
            if rng.random() < 0.03:
                idx = []
            out.append("(%d:%s)" % (d, ",".join(map(str, idx))))
        if rng.random() < 0.05:
            out.append("(%d:1)" % rng.choice([rank, rank + 1, -1]))
        return "SC" + "".join(out)

    def g_array(self, ty=None, rank=None, layout=True):
        rng = self.rng
        ty = ty or rng.choice(ARRAY_TYPES)
        rank = self.g_rank() if rank is None else rank
        dims = [self.g_dim(rank) for _ in range(rank)]
        s = "%s[%s]" % (ty, ",".join(d for d, _ in dims))
        if not layout or rng.random() < 0.12:
            return s
        m2m = self.g_m2m(rank)
        sizes = [v for _, v in dims]
        attrs = []
        if rng.random() < 0.03:
            attrs.append("D(" + ",".join(rng.choice(["D", "C", "S", "H", "C+~"]) for _ in range(max(rank, 1))) + ")")
        if rng.random() < 0.6:
            attrs.append(self.g_tiles(rank))
        if rng.random() < 0.12:
            attrs.append("L(%d)" % rng.choice([1, 2, 3, 4, 8, 128, 1024, 65536]))
        if rng.random() < 0.15:
            attrs.append("E(%d)" % rng.choice([0, 1, 2, 4, 8, 16, 32, 64, 3, 7, 12, 100]))
        if rng.random() < 0.2:
            attrs.append("S(%d)" % rng.choice([0, 1, 2, 3, 5, 6, 100, 127]))
        if rng.random() < 0.15 and rank > 0:
            attrs.append(self.g_sc(rank, m2m, [v if v is not None else -1 for v in sizes]))
        if rng.random() < 0.08:
            attrs.append("M(%d)" % rng.choice([0, 1, 8, 64, 1024]))
        lay = "{" + ",".join(map(str, m2m))
        if attrs:
            lay += ":" + "".join(attrs)
        elif rng.random() < 0.05:
            lay += ":"
        return s + lay + "}"

    def g_leaf(self):
        rng = self.rng
        r = rng.random()
        if r < 0.05:
            return "token[]"
        if r < 0.07:
            return "opaque[]"
        if r < 0.12:
            return "b(%s)" % self.g_array(rank=rng.randrange(0, 4))
        if r < 0.16:
            return "()"
        return self.g_array(rank=rng.choice([0, 1, 2, 3, self.g_rank()]))

    def g_tuple(self, depth, width):
        rng = self.rng
        if depth <= 0:
            return self.g_leaf()
        k = rng.randrange(1, width + 1)
        pos = rng.randrange(k)
        elems = []
        for i in range(k):
            if i == pos:
                elems.append(self.g_tuple(depth - 1, width))
            else:
                elems.append(self.g_leaf() if rng.random() < 0.8 else self.g_tuple(rng.randrange(depth), 2))
        sep = rng.choice([", ", ",", " , "])
        return "(" + sep.join(elems) + ")"

    def grammar(self, n):
        rng = self.rng
        start = len(self.items)
        while len(self.items) - start < n:
            r = rng.random()
            if r < 0.55:
                s = self.g_array()
            elif r < 0.7:
                # deep chains, depth around the limit of 32
                d = rng.choice([rng.randrange(1, 32), rng.randrange(28, 36), rng.randrange(36, 60)])
                s = self.g_tuple(d, 1 if rng.random() < 0.5 else 3)
            elif r < 0.85:
                # big tuples
                k = rng.randrange(11, 70)
                sep = rng.choice([", ", ","])
                elems = [self.g_leaf() for _ in range(k)]
                if rng.random() < 0.3:
                    # printer-style index comments, right or wrong
                    parts = []
                    for i, e in enumerate(elems):
                        if i and i % 5 == 0 and rng.random() < 0.7:
                            parts.append("/*index=%d*/%s" % (i if rng.random() < 0.8 else i + 1, e))
                        else:
                            parts.append(e)
                    elems = parts
                s = "(" + sep.join(elems) + ")"
            else:
                s = self.g_tuple(rng.randrange(1, 6), 4)
            if rng.random() < 0.45:
                s = self.weird_space(s)
            self.add(s, "grammar")

    # ---- (b) mutations ----------------------------------------------------------
    def m_flip(self, s):
        rng = self.rng
        for _ in range(10):
            i = rng.randrange(len(s))
            c = ord(s[i])
            if c > 0x7e:
                continue
            c2 = c ^ (1 << rng.randrange(7))
            if 0x20 <= c2 <= 0x7e or c2 == 9:
                return s[:i] + chr(c2) + s[i + 1:]
        return s

    def m_tokens(self, s):
        rng = self.rng
        spans = token_spans(s)
        if not spans or len(spans) < 2:
            return self.m_flip(s)
        toks = [s[a:b] for a, b in spans]
        op = rng.choice(["swap_adj", "swap_any", "dup", "del", "num", "type", "move"])
        i = rng.randrange(len(toks))
        if op == "swap_adj" and i + 1 < len(toks):
            toks[i], toks[i + 1] = toks[i + 1], toks[i]
        elif op == "swap_any":
            j = rng.randrange(len(toks))
            toks[i], toks[j] = toks[j], toks[i]
        elif op == "dup":
            toks.insert(i, toks[i])
        elif op == "del":
            del toks[i]
        elif op == "num":
            nums = [k for k, t in enumerate(toks) if t.lstrip("-").isdigit()]
            if nums:
                k = rng.choice(nums)
                toks[k] = str(rng.choice([0, 1, 2, 3, -1, -2, 7, 127, 128, 255, 256, 2 ** 31, 2 ** 32,
                                          2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64, -(2 ** 63)]))
        elif op == "type":
            ids = [k for k, t in enumerate(toks) if t in G.ALL_TYPES or t in ("T", "L", "E", "S", "SC", "M", "D", "P", "b")]
            if ids:
                k = rng.choice(ids)
                if toks[k] in G.ALL_TYPES:
                    toks[k] = rng.choice(ALL_TYPES + ["f8", "s128", "F32", "bf32", "tuple", "b"])
                else:
                    toks[k] = rng.choice(["T", "L", "E", "S", "SC", "M", "D", "P", "#", "*", "C", "X", "b"])
        else:
            j = rng.randrange(len(toks))
            t = toks.pop(i)
            toks.insert(j, t)
        # re-join: keep tokens apart where gluing would change the lexing
        out = toks[0]
        for t in toks[1:]:
            glue = (G._is_alpha(out[-1]) or G._is_digit(out[-1])) and (G._is_alpha(t[0]) or G._is_digit(t[0]) or t[0] in ".-")
            glue = glue or (out[-1] == "<" and t[0] == "=") or (out[-1] == "/" and t[0] in "/*") or (out[-1] == "*" and t[0] == "/")
            out += (" " if glue else "") + t
        return out

    @staticmethod
    def layouts(s):
        """[(start, end)] of every top-level-shape layout body between '{' and '}'."""
        res = []
        i = 0
        while True:
            a = s.find("{", i)
            if a < 0:
                return res
            depth, j = 0, a
            while j < len(s):
                if s[j] == "{":
                    depth += 1
                elif s[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= len(s):
                return res
            res.append((a + 1, j))
            i = j + 1

    @staticmethod
    def attr_chunks(body):
        """Split 'm2m:attrs' into (m2m, [chunk...]) or None."""
        depth = 0
        colon = None
        for k, c in enumerate(body):
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif c == ":" and depth == 0:
                colon = k
                break
        if colon is None:
            return body, None
        m2m, attrs = body[:colon], body[colon + 1:]
        chunks = []
        k = 0
        while k < len(attrs):
            st = k
            if attrs.startswith("SC", k):
                k += 2
            else:
                k += 1
            while k < len(attrs) and attrs[k] == "(":
                depth = 0
                while k < len(attrs):
                    if attrs[k] == "(":
                        depth += 1
                    elif attrs[k] == ")":
                        depth -= 1
                        if depth == 0:
                            k += 1
                            break
                    k += 1
            chunks.append(attrs[st:k])
        return m2m, chunks

    def m_attrs(self, s):
        rng = self.rng
        lays = self.layouts(s)
        if not lays:
            return self.m_tokens(s)
        a, b = rng.choice(lays)
        m2m, chunks = self.attr_chunks(s[a:b])
        extra = ["T(8,128)", "T(2,1)", "T(128)", "L(2)", "L(1024)", "E(4)", "E(8)", "E(0)", "S(1)", "S(5)",
                 "SC(0:1)", "SC(1:2)", "M(8)", "M(0)", "D(D)", "#(u32)", "*(u16)", "P(f32[2])", "T(2,*,128)"]
        op = rng.choice(["dup", "reorder", "drop", "insert", "m2m", "split_T", "merge_T", "colon"])
        if chunks is None:
            chunks = []
            if op in ("dup", "reorder", "drop", "split_T", "merge_T"):
                op = "insert"
        if op == "dup" and chunks:
            k = rng.randrange(len(chunks))
            chunks.insert(k + rng.choice([0, 1]), chunks[k])
        elif op == "reorder" and len(chunks) >= 2:
            i, j = rng.sample(range(len(chunks)), 2)
            chunks[i], chunks[j] = chunks[j], chunks[i]
        elif op == "drop" and chunks:
            del chunks[rng.randrange(len(chunks))]
        elif op == "insert":
            chunks.insert(rng.randrange(len(chunks) + 1), rng.choice(extra))
        elif op == "m2m":
            ms = [x for x in m2m.split(",") if x.strip()]
            r = rng.random()
            if r < 0.3:
                ms.reverse()
            elif r < 0.6 and ms:
                ms = ms[1:] + ms[:1]
            elif r < 0.8:
                ms = ms + ms[:1]
            else:
                ms = ms[:-1]
            m2m = ",".join(ms)
        elif op == "split_T":
            ts = [k for k, c in enumerate(chunks) if c.startswith("T")]
            if ts:
                k = ts[0]
                # T(a)(b) -> T(a)T(b)
                parts = chunks[k][1:].replace(")(", ")\x00(").split("\x00")
                chunks[k:k + 1] = ["T" + p for p in parts]
        elif op == "merge_T":
            ts = [k for k, c in enumerate(chunks) if c.startswith("T")]
            if ts:
                k = ts[0]
                chunks[k] = chunks[k] + chunks[k][1:]  # repeat the tile list
        else:
            body = m2m + "::" + "".join(chunks)
            return s[:a] + body + s[b:]
        body = m2m + (":" + "".join(chunks) if chunks else "")
        return s[:a] + body + s[b:]

    def m_wrap(self, s, pool):
        rng = self.rng
        r = rng.random()
        if r < 0.4:
            return "(" + s + ", " + rng.choice(pool) + ")"
        if r < 0.7:
            return "b(" + s + ")"
        return "(" + s + ")"

    def mutate(self, n):
        rng = self.rng
        pool = list(dict.fromkeys(G.REAL_WORLD + G.SPEC_STRINGS + EXTRA_REAL_WORLD))
        # plus grammar strings that the model accepts
        for _ in range(400):
            g = self.g_array(rank=rng.randrange(0, 9))
            try:
                if not G.analyse(G.parse_strict(g)).reasons:
                    pool.append(g)
            except G.SyntaxErr:
                pass
        start = len(self.items)
        while len(self.items) - start < n:
            s = rng.choice(pool)
            for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
                r = rng.random()
                if r < 0.25:
                    s = self.m_flip(s)
                elif r < 0.55:
                    s = self.m_tokens(s)
                elif r < 0.9:
                    s = self.m_attrs(s)
                else:
                    s = self.m_wrap(s, pool)
                if not s:
                    break
            if s and rng.random() < 0.1:
                s = self.weird_space(s, 0.3)
            self.add(s, "mutate")

    # ---- (c) numeric edges ----------------------------------------------------
    TEMPLATES = [
        "f32[@]", "s8[@,2]", "s8[2,@]", "pred[@,0]", "c128[@]", "u4[@]{0:E(4)}", "s4[@]{0:E(1)}",
        "f32[<=@]", "f32[<=@,3]", "f32[?,@]", "s8[@]{0:T(128)}", "s8[@]{0:T(2)(2)}", "s8[@]{0:L(1024)}",
        "s8[@]{0:T(2,128)}",
        "f32[2,3]{@,0}", "f32[2,3]{1,@}", "f32[@]{@}",
        "f32[8,128]{1,0:T(@)}", "f32[8,128]{1,0:T(@,128)}", "f32[8,128]{1,0:T(8,@)}",
        "f32[8,128]{1,0:T(8,128)(@,1)}", "f32[8,128]{1,0:T(*,@)}", "f32[]{:T(@)}", "s8[3]{0:T(@,@)}",
        "f32[8,128]{1,0:L(@)}", "f32[]{:L(@)}", "s4[8,128]{1,0:E(@)}", "f32[]{:E(@)}",
        "f32[8,128]{1,0:S(@)}", "s32[]{:S(@)}",
        "f32[8,128]{1,0:SC(@:1)}", "f32[8,128]{1,0:SC(0:@)}", "f32[8,128]{1,0:SC(0:1,@)}",
        "f32[@,128]{1,0:SC(0:4)}", "f32[8,128]{1,0:M(@)}", "f32[]{:M(@)}",
        "(f32[@], s8[2])", "b(f32[@])", "(s8[2], (f32[2]{0:T(@)}))", "b(s8[2]{0:L(@)})",
    ]

    def numeric(self, n):
        rng = self.rng
        start = len(self.items)
        vals = EDGE_VALUES + [0, 1, -1]
        for t in self.TEMPLATES:
            for v in vals:
                self.add(t.replace("@", fmt_int(v)), "numeric")
        # leading zeros on edge values
        for t in self.TEMPLATES[::3]:
            for v in rng.sample([x for x in EDGE_VALUES if x > 0], 6):
                self.add(t.replace("@", "0" * rng.randrange(1, 25) + str(v)), "numeric")
        pos = [x for x in EDGE_VALUES if x > 0]
        smalls = [1, 2, 3, 4, 7, 8, 16, 127, 128, 1024, 2 ** 31 - 1, 2 ** 32 - 1, 3037000499, 3037000500]
        while len(self.items) - start < n:
            r = rng.random()
            a = rng.choice(pos + smalls)
            b = rng.choice(pos + smalls)
            ty = rng.choice(ARRAY_TYPES)
            if r < 0.25:
                s = "%s[%d,%d]" % (ty, a, b)
            elif r < 0.4:
                s = "%s[%d,%d]{0,1:T(%d,%d)}" % (ty, rng.choice(smalls), rng.choice(smalls), a, b)
            elif r < 0.55:
                # near the i64 limit of a dim divided by byte width, tiled or padded
                bw = G.ARRAY_TYPES[ty]
                lim = I64MAX // bw + rng.choice([-1024, -129, -2, -1, 0, 1, 2])
                att = rng.choice(["T(128)", "T(2)(2)", "L(2)", "L(1024)", "T(1024)(128)", "E(1)", "E(4)",
                                  "E(%d)" % (bw * 8), "E(%d)" % (bw * 8 + 1), "T(%d)" % rng.choice(smalls)])
                s = "%s[%d]{0:%s}" % (ty, lim, att)
            elif r < 0.7:
                # product of two dims straddling 2^63 (with ? and bounds)
                x = rng.choice([2 ** 31, 2 ** 32, 3037000499, 3037000500, 2 ** 62, 2])
                y = (2 ** 63) // x + rng.choice([-1, 0, 1])
                k1 = rng.choice(["", "<=", ""])
                k2 = rng.choice(["", "<=", ""])
                s = "%s[%s%d,%s%d]" % (ty, k1, x, k2, y)
                if rng.random() < 0.3:
                    s = s[:-1] + ",?]"
            elif r < 0.85:
                # tile padding that crosses i64 only after tiling
                t = rng.choice([2 ** 31, 2 ** 32, 2 ** 53, 2 ** 62, 3, 1024])
                d = I64MAX // t + rng.choice([-1, 0, 1])
                s = "s8[%d,%d]{1,0:T(%d,%d)}" % (rng.choice([1, 2]), d, rng.choice([1, 2]), t)
            else:
                # big L
                L = rng.choice(pos + [2 ** 61, 2 ** 62 - 1, 2 ** 62 + 1])
                s = "%s[%d]{0:L(%d)}" % (ty, rng.choice(smalls + [2 ** 61, 2 ** 62]), L)
            self.add(s, "numeric")

    # ---- (d) E(n) ------------------------------------------------------------------
    def esize(self, n_sampled):
        rng = self.rng
        for ty in ALL_TYPES:
            base = "%s[3,5]{1,0:E(%%d)}" % ty if ty in G.ARRAY_TYPES else "%s[]{:E(%%d)}" % ty
            for e in range(0, 131):
                self.add(base % e, "esize")
        start = len(self.items)
        while len(self.items) - start < n_sampled:
            ty = rng.choice(ALL_TYPES)
            e = rng.randrange(0, 131)
            r = rng.random()
            if ty not in G.ARRAY_TYPES:
                s = "%s[]{:E(%d)}" % (ty, e) if r < 0.5 else "(%s[], f32[2]{0:E(%d)})" % (ty, e)
            elif r < 0.15:
                s = "%s[]{:E(%d)}" % (ty, e)
            elif r < 0.35:
                s = "%s[%d,%d]{1,0:T(8,128)(%d,1)E(%d)}" % (ty, rng.choice([1, 7, 8, 9, 64]),
                                                            rng.choice([1, 100, 128, 129, 1000]),
                                                            rng.choice([1, 2, 4, 8, 32]), e)
            elif r < 0.55:
                # element count at the byte-size overflow boundary for E(n)
                bits = e if e else G.ARRAY_TYPES[ty] * 8
                lim = (I64MAX * 8) // bits
                d = lim + rng.choice([-8, -1, 0, 1, 8])
                s = "%s[%d]{0:E(%d)}" % (ty, d, e)
            elif r < 0.7:
                bits = e if e else G.ARRAY_TYPES[ty] * 8
                lim = (I64MAX * 8) // bits
                d = lim // 128 + rng.choice([-1, 0, 1])
                s = "%s[%d,128]{1,0:T(8,128)E(%d)}" % (ty, d, e)
            elif r < 0.8:
                s = "%s[%d]{0:T(%d)L(%d)E(%d)S(%d)}" % (ty, rng.choice([1, 3, 255, 1000]), rng.choice([128, 256, 1024]),
                                                      rng.choice([1, 2, 3, 1024]), e, rng.choice([0, 1, 5]))
            elif r < 0.9:
                s = "b(%s[%d]{0:E(%d)})" % (ty, rng.choice([1, 2, 33]), e)
            else:
                s = "%s[?,%d]{1,0:E(%d)}" % (ty, rng.choice([2, 2 ** 62, I64MAX]), e)
            if rng.random() < 0.1:
                s = self.weird_space(s, 0.5)
            self.add(s, "esize")


# ---- (e) allocation-overflow boundaries, (f) zero dims, (g) exotic characters ----
def _alloc_fits(ty, sizes, m2m, tiles, L, E):
    """The model's allocation check (elements and bytes fit in i64)."""
    rank = len(sizes)
    phys = [sizes[m2m[rank - 1 - p]] for p in range(rank)]
    elems = G.padded_elements(phys, tiles, L)
    bits = E if E else G.ARRAY_TYPES[ty] * 8
    return elems <= I64MAX and G.ceil_div(elems * bits, 8) <= I64MAX


def _boundary(self, n):
    rng = self.rng
    start = len(self.items)
    tries = 0
    while len(self.items) - start < n and tries < n * 20:
        tries += 1
        ty = rng.choice(ARRAY_TYPES)
        rank = rng.randrange(1, 6)
        sizes = [rng.choice([1, 2, 3, 5, 7, 8, 100, 127, 129, 1000]) for _ in range(rank)]
        m2m = list(range(rank))
        rng.shuffle(m2m)
        tiles = []
        for _ in range(rng.choice([0, 1, 1, 2, 3, 4])):
            k = rng.randrange(1, rank + 3)
            t = [rng.choice([1, 2, 3, 4, 8, 128, 1000, 2 ** 20, 2 ** 31 + 1]) for _ in range(k)]
            if k >= 2 and rng.random() < 0.3:
                t[rng.randrange(k - 1)] = "*"
            tiles.append(t)
        L = rng.choice([1, 1, 1, 2, 3, 1024, 2 ** 31, 2 ** 40 + 1])
        E = rng.choice([0, 0, 0, 1, 2, 3, 4, 7, 8, 9, 16, 64, 100, 130])
        k = rng.randrange(rank)

        def fits(d):
            sz = list(sizes)
            sz[k] = d
            return _alloc_fits(ty, sz, m2m, tiles, L, E)

        if not fits(1):
            continue
        if fits(I64MAX):
            lo = I64MAX
        else:
            lo, hi = 1, I64MAX          # fits(lo), not fits(hi)
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if fits(mid):
                    lo = mid
                else:
                    hi = mid
        bounded = rng.random() < 0.15
        for d in (lo, lo + 1):
            if d > I64MAX:
                continue
            dims = [str(v) for v in sizes]
            dims[k] = ("<=" if bounded else "") + str(d)
            attrs = ""
            if tiles:
                attrs += "T" + "".join("(" + ",".join(map(str, t)) + ")" for t in tiles)
            if L != 1:
                attrs += "L(%d)" % L
            if E:
                attrs += "E(%d)" % E
            s = "%s[%s]{%s%s}" % (ty, ",".join(dims), ",".join(map(str, m2m)), ":" + attrs if attrs else "")
            self.add(s, "boundary")


def _zeros(self, n):
    rng = self.rng
    start = len(self.items)
    big = [I64MAX, I64MAX // 2, 2 ** 62, 2 ** 32, 3037000500, 3037000499, 2 ** 31, 1, 2, 3, 128]
    while len(self.items) - start < n:
        ty = rng.choice(ARRAY_TYPES)
        rank = rng.randrange(2, 6)
        dims = [rng.choice(big) for _ in range(rank)]
        for _ in range(rng.choice([1, 1, 2])):
            dims[rng.randrange(rank)] = 0
        txt = [("<=" if rng.random() < 0.1 else "") + str(d) for d in dims]
        if rng.random() < 0.1:
            txt[rng.randrange(rank)] = "?"
        m2m = list(range(rank))
        rng.shuffle(m2m)
        attrs = ""
        if rng.random() < 0.7:
            tl = []
            for _ in range(rng.choice([1, 1, 2, 3])):
                k = rng.randrange(1, rank + 2)
                t = [str(rng.choice([1, 2, 8, 128, I64MAX, 2 ** 62])) for _ in range(k)]
                if k >= 2 and rng.random() < 0.4:
                    t[rng.randrange(k - 1)] = "*"
                tl.append("(" + ",".join(t) + ")")
            attrs += "T" + "".join(tl)
        if rng.random() < 0.2:
            attrs += "L(%d)" % rng.choice([2, 1024, I64MAX])
        if rng.random() < 0.2:
            attrs += "E(%d)" % rng.choice([1, 4, 64, 128])
        if rng.random() < 0.1:
            attrs += "SC(%d:1)" % rng.randrange(rank)
        self.add("%s[%s]{%s%s}" % (ty, ",".join(txt), ",".join(map(str, m2m)), ":" + attrs if attrs else ""),
                 "zeros")


EXOTIC_CHARS = [chr(c) for c in list(range(0, 10)) + list(range(11, 13)) + list(range(14, 32)) + [0x7f]] + [
    "\u0080", "\u0085", "\u00a0", "\u00ad", "\u00e9", "\u2028", "\u2029", "\u200b", "\ufeff", "\u4e2d",
    "\ufffd", "\U0001f600", "\U0010ffff", "\u0301"]


def _exotic(self):
    bases = ["f32[2,3]{1,0:T(2,2)S(1)}", "(s32[], bf16[8])", "s4[16]{0:E(4)}", "b(u8[4])", "pred[]"]
    for c in EXOTIC_CHARS:
        for b in bases:
            spans = token_spans(b)
            a, e = spans[len(spans) // 2]
            self.add(b[:a] + "/*" + c + "*/" + b[a:], "exotic")          # in a block comment
            self.add(b + "//" + c, "exotic")                              # in a line comment
            self.add(b + "// x" + c + "y", "exotic")
            self.add(b[:a] + c + b[a:], "exotic")                         # bare, between tokens
            self.add(c + b, "exotic")
            self.add(b + c, "exotic")
            self.add(b[:1] + c + b[1:], "exotic")                         # inside an identifier
            self.add(b[:a] + "/*" + c + "/*" + c + "*/" + b[a:], "exotic")


def _context(self, n):
    rng = self.rng
    pool = [s for s in self.items if self.tag[s] in ("numeric", "esize", "boundary", "zeros", "exotic")]
    start = len(self.items)
    tries = 0
    while len(self.items) - start < n and tries < 10 * n:
        tries += 1
        x = rng.choice(pool)
        r = rng.random()
        if r < 0.3:
            s = "(%s)" % x
        elif r < 0.5:
            s = "b(%s)" % x
        elif r < 0.7:
            s = "(f32[], (%s, s8[2]{0}))" % x
        elif r < 0.85:
            k = rng.randrange(0, 12)
            s = "(" + ", ".join(["pred[]"] * k + [x]) + ")"
        else:
            s = "(" + ", ".join([x, rng.choice(pool)]) + ")"
        self.add(s, "context")


Hunt.context = _context
Hunt.boundary = _boundary
Hunt.zeros = _zeros
Hunt.exotic = _exotic


def generate(seed, count):
    h = Hunt(seed)
    h.numeric(max(1, count * 3 // 20))      # ~15% (plus the template grid)
    h.esize(max(1, count // 15))             # 131 x 32 grid + ~7% sampled
    h.boundary(max(1, count // 12))
    h.zeros(max(1, count // 30))
    h.exotic()
    h.context(max(1, count // 30))
    rest = count - len(h.items)
    h.mutate(max(1, rest * 2 // 5))
    h.grammar(max(1, count - len(h.items)))
    return h.items, h.tag


# ---------------------------------------------------------------------------
# running the oracle and `layout check`
# ---------------------------------------------------------------------------
def run_oracle(python, oracle, inputs, jobs, log, newline=False):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    # `--newline`: the shape's line ends before "parameter(0)", so a '//'
    # comment in the input ends at that newline, as in XLA's own ParseShape,
    # instead of swallowing "parameter(0)".
    cmd = [python, oracle, "--newline"] if newline else [python, oracle]
    shards = [inputs[k::jobs] for k in range(jobs)]
    procs = []
    for k, sh in enumerate(shards):
        if not sh:
            continue
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        procs.append((p, sh))
    # feed via threads so no pipe fills up
    import threading
    outs = [None] * len(procs)

    def feed(p, sh):
        p.stdin.write("".join(s + "\n" for s in sh).encode("utf-8"))
        p.stdin.close()

    def drain(k, p):
        rows = []
        for line in p.stdout:
            rows.append(json.loads(line.decode("utf-8")))
            if len(rows) % 1000 == 0:
                print("oracle shard %d: %d" % (k, len(rows)), file=log, flush=True)
        outs[k] = rows

    ts = []
    for k, (p, sh) in enumerate(procs):
        ts.append(threading.Thread(target=feed, args=(p, sh)))
        ts.append(threading.Thread(target=drain, args=(k, p)))
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for p, _ in procs:
        p.wait()
    res = {}
    for rows in outs:
        for r in rows or []:
            res[r["input"]] = r
    return res


def run_ours(binary, inputs):
    data = "".join(s + "\n" for s in inputs).encode("utf-8")
    p = subprocess.run([binary, "check"], input=data, stdout=subprocess.PIPE, check=True)
    # split on "\n" only: str.splitlines() would also split on U+2028, U+0085, ...
    lines = p.stdout.decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    assert len(lines) == len(inputs), (len(lines), len(inputs))
    return [json.loads(l) for l in lines]


def is_capacity(err):
    return bool(err) and ("exceeds this crate's capacity" in err or "nested deeper than" in err)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=30000)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--oracle", default=os.path.join("tools", "xla_oracle.py"),
                    help="relative to the repository root")
    ap.add_argument("--oracle-python", default=sys.executable)
    ap.add_argument("--binary", default=os.path.join("target", "release", "layout"),
                    help="relative to the repository root")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--list-inputs", action="store_true")
    ap.add_argument("--no-newline-check", action="store_true",
                    help="do not re-ask the oracle about inputs with a '//' comment")
    args = ap.parse_args()

    inputs, tag = generate(args.seed, args.count)
    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "inputs.txt"), "w", encoding="utf-8") as f:
        for s in inputs:
            f.write(s + "\n")
    if args.list_inputs:
        print("%d inputs written to %s" % (len(inputs), os.path.join(args.out_dir, "inputs.txt")))
        return

    oracle = args.oracle if os.path.isabs(args.oracle) else os.path.join(REPO, args.oracle)

    def ask(name, wanted, newline):
        path = os.path.join(args.out_dir, name)
        cache = G.load_cache(path)
        missing = [s for s in wanted if s not in cache]
        if missing:
            print("asking the oracle%s about %d inputs..." % (" (newline variant)" if newline else "", len(missing)),
                  file=sys.stderr, flush=True)
            got = run_oracle(args.oracle_python, oracle, missing, max(1, args.jobs), sys.stderr, newline)
            with open(path, "a", encoding="utf-8") as f:
                for s in missing:
                    if s in got:
                        f.write(json.dumps(got[s]) + "\n")
            cache.update(got)
        lost = [s for s in wanted if s not in cache]
        if lost:
            print("oracle gave no answer for %d inputs (skipped)" % len(lost), file=sys.stderr)
        return cache

    cache = ask("oracle.jsonl", inputs, False)
    # Inputs with a '//' comment: the oracle's answer is an artefact of its HLO
    # template (rule `line-comment`); ask again with the line ended after the shape.
    with_lc = [s for s in inputs if G._has_line_comment(s)]
    cache_nl = ask("oracle_newline.jsonl", with_lc, True) if with_lc and not args.no_newline_check else {}

    binary = args.binary if os.path.isabs(args.binary) else os.path.join(REPO, args.binary)
    ours = run_ours(binary, inputs)
    with open(os.path.join(args.out_dir, "ours.jsonl"), "w", encoding="utf-8") as f:
        for o in ours:
            f.write(json.dumps(o) + "\n")

    def expect(s, x, line_comment_rule=True):
        saved = G._has_line_comment
        if not line_comment_rule:
            G._has_line_comment = lambda _s: False
        try:
            return G.expectation(s, x)
        except Exception as e:  # a model crash is a model problem
            return None, None, "MODEL-EXCEPTION", ["%s: %s" % (type(e).__name__, e)]
        finally:
            G._has_line_comment = saved

    results, mism, capac, probs = [], [], [], []
    by_tag = {}
    keys = ("total", "agree", "mismatch", "unresolved", "capacity", "model")
    for s, o in zip(inputs, ours):
        if s not in cache:
            continue
        x = cache[s]
        ok, can, rule, problems = expect(s, x)
        row = {"input": s, "strategy": tag[s],
               "xla_ok": x["ok"], "xla_canonical": x["canonical"], "xla_stage": x["stage"],
               "xla_error": (x["error"] or "")[:300] or None,
               "exp_ok": ok, "exp_canonical": can, "rule": rule, "model_problems": problems,
               "our_ok": o["ok"], "our_canonical": o["canonical"], "our_error": o["error"]}
        if s in cache_nl:
            # XLA's answer without the template artefact, and the expectation from it
            xn = cache_nl[s]
            nok, ncan, nrule, nprob = expect(s, xn, line_comment_rule=False)
            row.update({"nl_xla_ok": xn["ok"], "nl_xla_canonical": xn["canonical"], "nl_xla_stage": xn["stage"],
                        "nl_xla_error": (xn["error"] or "")[:300] or None, "nl_exp_ok": nok,
                        "nl_exp_canonical": ncan, "nl_rule": nrule, "nl_model_problems": nprob})
            if (nok, ncan) != (ok, can) or nprob:
                problems = problems + ["newline oracle: expected %r (%s) instead of %r (%s)%s"
                                       % (ncan if nok else None, nrule, can if ok else None, rule,
                                          "; " + "; ".join(nprob) if nprob else "")]
                row["model_problems"] = problems
            # compare with the answer from the newline variant
            ok, can, rule = nok, ncan, nrule
        if rule in ("???", "MODEL-EXCEPTION"):
            # the model has no answer ("we accept but XLA rejects" with no rule)
            status = "unresolved"
        elif o["ok"] == ok and o["canonical"] == can:
            status = "agree"
        elif is_capacity(o["error"]) and ok:
            status = "capacity"
        else:
            status = "mismatch"
        row["status"] = status
        results.append(row)
        st = by_tag.setdefault(tag[s], dict.fromkeys(keys, 0))
        st["total"] += 1
        st[status] += 1
        if problems:
            st["model"] += 1
            probs.append(row)
        if status in ("mismatch", "unresolved"):
            mism.append(row)
        elif status == "capacity":
            capac.append(row)

    def dump(name, rows):
        with open(os.path.join(args.out_dir, name), "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")

    dump("results.jsonl", results)
    dump("mismatches.jsonl", mism)
    dump("capacity.jsonl", capac)
    dump("model_problems.jsonl", probs)
    tot = dict.fromkeys(keys, 0)
    for st in by_tag.values():
        for k in keys:
            tot[k] += st[k]
    lines = ["seed %d: %d inputs, %d compared (%d re-checked with the newline oracle)"
             % (args.seed, len(inputs), len(results), len(cache_nl))]
    for k in sorted(by_tag) + ["ALL"]:
        st = tot if k == "ALL" else by_tag[k]
        lines.append("  %-8s total %6d  agree %6d  mismatch %4d  unresolved %4d  capacity %4d  model-problems %4d"
                     % (k, st["total"], st["agree"], st["mismatch"], st["unresolved"], st["capacity"], st["model"]))
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(args.out_dir, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
