//! The tuned transposed blocks: squares of one cache line a side for runs
//! of at least 8 bytes on both sides, in passes where a block's rows crowd
//! one L1 set, and two rows woven into pairs or split back (the `(2,1)`
//! sub-tiles of 16-bit layouts). `kernels::choose` picks them; the
//! general blocks of `transpose.rs` take the other transposes.

use core::ops::Range;

use super::few::{split, split4, weave, weave4};
use super::kernels::{note, RelayoutKernel};
use super::loops::{crowd_one_set, divisor_up_to, each, each_ahead, in_source_order, Fix};
use super::modes::{Mode, Nest, MODES};
use super::simd;
use super::strided::any_box;
use super::tuning::{
    AHEAD, CROWDED_ROWS, FETCH_BYTES, FETCH_ROWS, PASS, SQUARES_LEAST, SQUARES_RUN_BYTES,
    SQUARE_BYTES, SQUARE_ROWS,
};

/// Whether the transposed blocks of [`blocks`] take box `n` of elements
/// of `size` bytes at their measured speed: its first loop and the first
/// loop contiguous in the source at least 8 bytes each, or two rows woven
/// into pairs (rows to `(2,1)` sub-tiles) or split back.
pub(crate) fn tuned(n: &Nest, size: usize) -> bool {
    let Some((m0, mq, outer, len)) = n.transposed() else {
        return false;
    };
    let bytes = |r: u64| r.saturating_mul(size as u64) >= SQUARES_RUN_BYTES;
    // A destination run shorter than a line that the next loop continues,
    // where the source's runs are a line or more (then `Tuned::plan`
    // joins that loop to the block): the run with it.
    let line = 64 / size.max(1);
    let p_run = if p_continues(&m0, &outer[..len], line) && mq.range >= line as u64 {
        m0.range.saturating_mul(outer[0].range)
    } else {
        m0.range
    };
    let weave = pairs(m0.range, mq.dst, size);
    // Runs of 2 split into two rows; for bytes, of 4 into four (the
    // `(4,1)` sub-tiles to rows).
    let split = pairs(mq.range, m0.src, size);
    let area = m0.range.saturating_mul(mq.range) >= SQUARES_LEAST;
    weave || split || (bytes(p_run) && bytes(mq.range) && area)
}

/// Whether `r` elements of `size` bytes a step `stride` apart are the
/// rows that [`RelayoutKernel::Weave`] weaves or [`RelayoutKernel::Split`]
/// splits: 2 rows (the `(2,1)` sub-tiles), or 4 rows of bytes (`(4,1)`).
fn pairs(r: u64, stride: u64, size: usize) -> bool {
    r == stride && (r == 2 || (r == 4 && size == 1))
}

/// Whether the destination run `m0`, at most a `line` of elements,
/// continues in the first of the `outer` loops (which then joins the
/// block's `p` side).
fn p_continues(m0: &Mode, outer: &[Mode], line: usize) -> bool {
    outer.first().is_some_and(|m| m.dst == m0.range) && m0.range <= line as u64
}

/// The tuned blocks of one box: the block, the loops around it, and
/// which of [`RelayoutKernel::Weave`], [`RelayoutKernel::Split`] and [`RelayoutKernel::Squares`]
/// copies it.
pub(crate) struct Tuned {
    block: Block,
    outer: [Mode; MODES],
    len: usize,
    pub(crate) kind: RelayoutKernel,
    /// A loop that would join the block with fewer steps than a line's
    /// worth (no divisor of its range fits: 41 columns of 8 bytes), as
    /// the loop of the box (an index of its modes) and the steps of it
    /// that make whole joins: [`blocks`] cuts the box there and copies
    /// each part on its own.
    poor: Option<(usize, u64)>,
    /// The source rows of each block's successor are asked for while the
    /// block is copied ([`Block::sparse`]).
    fetch: bool,
}

impl Tuned {
    /// The tuned blocks of box `n` of elements of `size` bytes (`same`:
    /// copied as they are, so that pairs may be woven or split), or
    /// `None` where the box is no transpose.
    pub(crate) fn plan(n: &Nest, size: usize, same: bool) -> Option<Tuned> {
        let (m0, mq, mut outer, len) = n.transposed()?;
        let mut block = Block {
            rp: m0.range as usize,
            sp: m0.src as usize,
            rq: mq.range as usize,
            dq: mq.dst as usize,
            rp0: 0,
            sp1: 0,
            rq0: 0,
            dq1: 0,
            crowded: false,
        };
        let size = size.max(1);
        // A destination run of at most a cache line continues in the
        // next loop: take part of that loop into the block.
        let line = 64 / size;
        let p_next = p_continues(&m0, &outer[..len], line);
        // A source run shorter than a line that continues in a later loop
        // (the destination tiled across the transpose; pairs that are
        // woven or split keep the paths below): where the destination's
        // runs are short too (tiled on both sides) or the source's are
        // under 16 bytes, a line's worth of that loop joins the block, and
        // with both short the first loop then gives a square's side; where
        // the destination's runs are long, that loop goes first, so that
        // the blocks after this one read the rest of their source lines
        // while those are cached (docs/relayout.md, "Source lines used
        // whole"). Runs of 16 bytes or more of elements of 4 bytes or
        // more (of 8 bytes, a run may be a whole line): where that loop
        // holds a square's side of the source (`SQUARE_BYTES`), that much
        // of it joins the block, which then reads stretches of lines, not
        // one line of each of its rows. Blocks of two rows take part too
        // unless those are woven pairs (`(2,1)` sub-tiles as whole
        // elements, two a tile row on both sides, are such blocks, which
        // would otherwise go 2 x 2 sub-tiles at a time).
        let woven =
            pairs(2, block.sp as u64, size) || pairs(block.rp as u64, block.dq as u64, size);
        let short = (3..line).contains(&block.rq)
            || (block.rq == 2 && !woven)
            || (size >= 8 && block.rq == line);
        let q_next = ((block.rp > 2 || (block.rp == 2 && !woven)) && short)
            .then(|| {
                let first = usize::from(p_next);
                let k = outer[first..len].iter().position(|m| m.src == mq.range)?;
                Some(k + first)
            })
            .flatten();
        let mut poor = None;
        // A join of `c` steps of loop `m` where `want` would fill the
        // line (or the side): where `m` has more steps than that, the box
        // is cut so that most of it joins `want`.
        let mut poor_join = |m: Mode, c: usize, want: usize| {
            let want = want as u64;
            if (c as u64) < want && m.range > want && poor.is_none() {
                poor = n
                    .loops()
                    .iter()
                    .position(|l| *l == m)
                    .map(|i| (i, m.range / want * want));
            }
        };
        if let Some(k) = q_next {
            let m = outer[k];
            let wide = !p_next
                && size >= 4
                && (size >= 8 || block.rq.saturating_mul(size) >= 16)
                && m.range.saturating_mul(block.rq.saturating_mul(size) as u64)
                    >= SQUARE_BYTES as u64;
            let want = if wide {
                SQUARE_BYTES / size / block.rq.max(1)
            } else {
                line.div_ceil(block.rq)
            };
            let c = divisor_up_to(m.range, want);
            let join = wide || (block.rq < line && (p_next || block.rq * size < 16));
            if join {
                poor_join(m, c, want);
            }
            if c > 1 && join {
                block.join_q(&mut outer, k, c);
            }
            if !p_next {
                outer[..=k].rotate_right(1);
            }
        }
        if p_next && block.rq >= line {
            // As many steps as make the block's destination runs a
            // square's side (`SQUARE_BYTES`), not one line: each of the
            // block's columns is then a stretch of lines, written in
            // turn, rather than one line each of many rows a page or
            // more apart. Where no divisor of the loop's range fills the
            // side, the box is cut.
            let m1 = outer[0];
            let p_most = SQUARE_BYTES / size / block.rp.max(1);
            let c = divisor_up_to(m1.range, p_most);
            poor_join(m1, c, p_most);
            if c > 1 {
                block.join_p(&mut outer, 0, c);
            }
        }
        // A loop that continues both runs (the source's and the
        // destination's): where neither join above applied and the
        // source's run is shorter than a square, as many of its steps as
        // fill a square join the block.
        if block.rp0 == 0 && block.rq0 == 0 && block.rq * size < SQUARE_BYTES {
            let both = outer[..len]
                .iter()
                .position(|m| m.src == mq.range && m.dst == m0.range);
            if let Some(k) = both {
                let m = outer[k];
                let want = SQUARE_BYTES / size / block.rq;
                let c = divisor_up_to(m.range, want);
                poor_join(m, c, want);
                if c > 1 {
                    block.join_q(&mut outer, k, c);
                }
            }
        }
        // Only blocks of more than twice `PASS` rows (1- and 2-byte
        // elements) can be crowded.
        block.crowded = line > 2 * PASS && block.crowded(line, size);
        let plain = same && block.rp0 == 0 && block.rq0 == 0;
        let kind = if plain && pairs(block.rp as u64, block.dq as u64, size) {
            RelayoutKernel::Weave
        } else if plain && pairs(block.rq as u64, block.sp as u64, size) {
            RelayoutKernel::Split
        } else {
            RelayoutKernel::Squares
        };
        Some(Tuned {
            block,
            outer,
            len,
            kind,
            poor,
            fetch: block.sparse(size),
        })
    }
}

impl Tuned {
    /// The steps along the destination's runs and along the source's of
    /// the blocks that go through the cache together, for elements of
    /// `size` bytes (`RelayoutSteps::block`): the squares of [`square`]
    /// (steps of one element; the copy rounds them to its blocks), or the
    /// whole block where two rows are woven or split.
    pub(crate) fn side(&self, size: usize) -> (u64, u64) {
        let (p, q) = (self.block.rp, self.block.rq);
        if self.kind != RelayoutKernel::Squares {
            return (p as u64, q as u64);
        }
        let (pm, qm) = square(p, q, 1, 1, size, self.block.rows());
        (p.min(pm) as u64, q.min(qm) as u64)
    }
}

/// [`Tuned::side`] of box `n` as [`blocks`] copies it: where the plan
/// cuts the box (a loop that no join divides), the side of its first
/// part, the whole joins. Out of line: the parts' nests and plans are on
/// the stack only while a plan is described.
#[inline(never)]
pub(crate) fn side_of(n: &Nest, size: usize) -> Option<(u64, u64)> {
    let t = Tuned::plan(n, size, true)?;
    match t.poor {
        Some((i, at)) => Tuned::plan(&n.cut(i, at).0, size, true).map(|t| t.side(size)),
        None => Some(t.side(size)),
    }
}

/// Copies box `n` by its tuned blocks, as [`Tuned::plan`] makes them:
/// by the kernel (weave, split or squares) that `kernels::choose` read
/// from the same plan. The box is one `choose` gave such a kernel (so a
/// transpose).
#[inline(never)]
pub(crate) fn blocks<T: Copy + 'static, X: Fix<T>>(n: &Nest, src: &[T], dst: &mut [T]) {
    let Some(Tuned {
        block,
        mut outer,
        len,
        kind,
        poor,
        fetch,
    }) = Tuned::plan(n, core::mem::size_of::<T>(), X::SAME)
    else {
        // `choose` names the tuned blocks only where they plan; were it
        // otherwise, element by element.
        return any_box::<T, X>(n, src, dst);
    };
    if let Some((i, at)) = poor {
        return blocks_cut::<T, X>(n, i, at, src, dst);
    }
    note(kind);
    let outer = &mut outer[..len];
    match kind {
        RelayoutKernel::Weave if block.rp == 4 => {
            // Four source rows of bytes woven into one destination run of
            // 4-tuples (rows to the `(4,1)` sub-tiles).
            let (rq, sp) = (block.rq, block.sp);
            each(outer, n.src, n.dst, |s, d| {
                let row = |k: usize| &src[s + k * sp..s + k * sp + rq];
                weave4([row(0), row(1), row(2), row(3)], &mut dst[d..d + 4 * rq]);
            });
        }
        RelayoutKernel::Weave => {
            // Two source rows woven into one destination run (rows to the
            // `(2,1)` sub-tiles of 16-bit layouts).
            let (rq, sp) = (block.rq, block.sp);
            each(outer, n.src, n.dst, |s, d| {
                weave(
                    &src[s..s + rq],
                    &src[s + sp..s + sp + rq],
                    &mut dst[d..d + 2 * rq],
                );
            });
        }
        RelayoutKernel::Split if block.rq == 4 => {
            // One run of bytes split into four rows (the `(4,1)` sub-tiles
            // back to rows), in source order as below.
            in_source_order(outer);
            let (rp, dq) = (block.rp, block.dq);
            each(outer, n.src, n.dst, |s, d| {
                let (a, rest) = dst[d..d + 3 * dq + rp].split_at_mut(dq);
                let (b, rest) = rest.split_at_mut(dq);
                let (c, e) = rest.split_at_mut(dq);
                let rows = [&mut a[..rp], &mut b[..rp], &mut c[..rp], &mut e[..rp]];
                split4(&src[s..s + 4 * rp], rows);
            });
        }
        RelayoutKernel::Split => {
            // One source run split into two destination rows (the `(2,1)`
            // sub-tiles back to rows): like contiguous runs, faster with
            // the source read front to back. (Woven runs are faster the
            // other way round.)
            in_source_order(outer);
            let (rp, dq) = (block.rp, block.dq);
            let line = 64 / core::mem::size_of::<T>().max(1);
            each_ahead(outer, n.src, n.dst, AHEAD, |s, d, later| {
                if let Some((_, x)) = later {
                    for l in (0..rp).step_by(line) {
                        simd::prefetch_write(dst, x + l);
                        simd::prefetch_write(dst, x + dq + l);
                    }
                }
                let (a, b) = dst[d..d + dq + rp].split_at_mut(dq);
                split(&src[s..s + 2 * rp], &mut a[..rp], &mut b[..rp]);
            });
        }
        _ => each_ahead(outer, n.src, n.dst, 1, |s, d, next| {
            if let Some((ns, _)) = next.filter(|_| fetch) {
                block.fetch_rows(src, ns);
            }
            block.copy::<T, X>(src, s, dst, d, next.map(|(_, nd)| nd))
        }),
    }
}

/// [`blocks`] on box `n` cut along loop `i` at step `at`: the steps whole
/// joins take, then the rest, each planned on its own (the rest has fewer
/// steps than a join: not cut there again). `pred` rows of 328 into
/// `T(8,128)`: 41 columns of 8 bytes, joined one at a time, ran 0.22x of
/// memcpy; 40 of them in joins of 8 and the last alone 0.35x to 0.40x
/// (320 columns, all in joins, 0.45x). Out of
/// line: the two parts' nests are on the stack only where a box is cut.
#[inline(never)]
fn blocks_cut<T: Copy + 'static, X: Fix<T>>(n: &Nest, i: usize, at: u64, src: &[T], dst: &mut [T]) {
    let (a, b) = n.cut(i, at);
    blocks::<T, X>(&a, src, dst);
    blocks::<T, X>(&b, src, dst);
}

/// The offset of step `i` of a block's side: one loop of stride `inner`
/// (`range` 0), or two, `i % range` steps of `inner` and `i / range` of
/// `outer`.
#[inline(always)]
fn two_loops(i: usize, range: usize, inner: usize, outer: usize) -> usize {
    if range == 0 {
        i * inner
    } else {
        i % range * inner + i / range * outer
    }
}

/// The sides of the squares that [`Block::strip`] walks, in steps along
/// the destination's runs (`pn` of them, in blocks of `P`) and along the
/// source's (`qn`, in blocks of `Q`), for elements of `size` bytes: up to
/// [`SQUARE_BYTES`] of elements and `rows` steps a side ([`Block::rows`]),
/// in whole blocks; where the block is narrower than that on one side,
/// the other side takes the steps it leaves, up to [`SQUARE_BYTES`].
fn square(pn: usize, qn: usize, p: usize, q: usize, size: usize, rows: usize) -> (usize, usize) {
    let (p, q) = (p.max(1), q.max(1));
    let full = (SQUARE_BYTES / size.max(1)).max(p.max(q));
    let side = full.min(rows).max(p.max(q));
    let (pm, qm) = (side / p * p, side / q * q);
    let rest = |used: usize, step: usize| {
        ((2 * side).saturating_sub(used).min(full) / step * step).max(step)
    };
    if pn < pm {
        let pm = pn.max(p);
        (pm, rest(pm, q))
    } else if qn < qm {
        let qm = qn.max(q);
        (rest(qm, p), qm)
    } else {
        (pm, qm)
    }
}

/// The destination lines of a square of a block (rows `p0..pe`, columns
/// `q0..qe`: a column is a run of the destination), each asked for once
/// (`simd::prefetch_write`), column by column, `per` at each
/// [`Ahead::step`].
struct Ahead {
    /// The destination offset of the square's block.
    d: usize,
    p0: usize,
    pe: usize,
    p: usize,
    q: usize,
    qe: usize,
    line: usize,
    per: usize,
}

impl Ahead {
    /// The lines of rows `p0..pe` and columns `q0..qe` of the block at
    /// `d`, spread over `steps` steps.
    fn new<T>(d: usize, p0: usize, pe: usize, q0: usize, qe: usize, steps: usize) -> Ahead {
        let line = (64 / core::mem::size_of::<T>().max(1)).max(1);
        let lines = (pe - p0).div_ceil(line) * (qe - q0);
        Ahead {
            d,
            p0,
            pe,
            p: p0,
            q: q0,
            qe,
            line,
            per: lines.div_ceil(steps.max(1)),
        }
    }

    /// Asks for the next `per` lines (of block `b`'s shape).
    #[inline(always)]
    fn step<T>(&mut self, b: &Block, dst: &[T]) {
        for _ in 0..self.per {
            if self.q >= self.qe {
                return;
            }
            simd::prefetch_write(dst, self.d + b.col(self.q) + self.p);
            self.p += self.line;
            if self.p >= self.pe {
                (self.p, self.q) = (self.p0, self.q + 1);
            }
        }
    }
}

/// A transposed block: `p` steps `sp` in the source and 1 in the
/// destination, `q` steps 1 in the source and `dq` in the destination.
#[derive(Clone, Copy)]
struct Block {
    rp: usize,
    sp: usize,
    rq: usize,
    dq: usize,
    /// With `rp0 > 0`, `p` is two loops: `p % rp0` steps `sp` in the
    /// source and `p / rp0` steps `sp1` (the destination is contiguous
    /// across both).
    rp0: usize,
    sp1: usize,
    /// With `rq0 > 0`, `q` is two loops: `q % rq0` steps `dq` in the
    /// destination and `q / rq0` steps `dq1` (the source is contiguous
    /// across both).
    rq0: usize,
    dq1: usize,
    /// The rows of one block crowd so few L1 sets that they evict each
    /// other (power-of-two strides of 1- and 2-byte elements): blocks are
    /// then copied in passes of [`PASS`] rows.
    crowded: bool,
}

/// Loop `m` after `c` of its steps (a divisor of its range) joined a
/// block: the steps over those groups.
fn rest_of(m: Mode, c: usize) -> Mode {
    let c = c as u64;
    Mode {
        range: m.range / c,
        src: m.src * c,
        dst: m.dst * c,
    }
}

impl Block {
    /// Joins `c` steps of loop `outer[k]` (a divisor of its range, the
    /// source contiguous across them and the block's `q` side) to that
    /// side: `q` becomes two loops (see `rq0`), and the loop keeps the
    /// steps over the groups.
    fn join_q(&mut self, outer: &mut [Mode], k: usize, c: usize) {
        let m = outer[k];
        self.rq0 = self.rq;
        self.dq1 = m.dst as usize;
        self.rq *= c;
        outer[k] = rest_of(m, c);
    }

    /// Joins `c` steps of loop `outer[k]` to the block's `p` side (the
    /// destination contiguous across them), as [`Block::join_q`] does to
    /// `q` (see `rp0`).
    fn join_p(&mut self, outer: &mut [Mode], k: usize, c: usize) {
        let m = outer[k];
        self.rp0 = self.rp;
        self.sp1 = m.src as usize;
        self.rp *= c;
        outer[k] = rest_of(m, c);
    }

    /// Whether the source rows of the block after this one are asked for
    /// while this one is copied ([`Tuned::fetch`]): a small block (at
    /// most [`FETCH_BYTES`] and [`FETCH_ROWS`] rows, elements of `size`
    /// bytes) whose source rows leave gaps, so that its source lines span
    /// at least twice the bytes it reads.
    fn sparse(&self, size: usize) -> bool {
        let area = self.rp.saturating_mul(self.rq);
        let span = self.row(self.rp.saturating_sub(1)).saturating_add(self.rq);
        area.saturating_mul(size) <= FETCH_BYTES
            && self.rp <= FETCH_ROWS
            && span >= area.saturating_mul(2)
    }

    /// Asks for each source row's first line of the block at `at` ([`Tuned::fetch`]),
    /// the rows walked as [`Block::micro`] reads them (no division per row).
    fn fetch_rows<T>(&self, src: &[T], at: usize) {
        let (mut at, mut inner) = (at, 0);
        for _ in 0..self.rp {
            simd::prefetch(src, at);
            (at, inner) = self.next_row(at, inner);
        }
    }

    /// The most steps on a side of this block's squares: [`SQUARE_ROWS`],
    /// or [`CROWDED_ROWS`] where its rows crowd the caches' sets.
    fn rows(&self) -> usize {
        if self.crowded {
            CROWDED_ROWS
        } else {
            SQUARE_ROWS
        }
    }

    /// Whether more than twice [`PASS`] of the first `rows` source rows
    /// (one block's) fall in one set of a 64-set L1 of 64-byte lines. (At
    /// twice, the 16 rows of a 4-byte block, passes measured no faster.)
    fn crowded(&self, rows: usize, size: usize) -> bool {
        crowd_one_set((0..rows.min(self.rp)).map(|p| self.row(p)), size)
    }

    /// Copies the block at `s` and `d`; `next`: the destination offset
    /// of the block copied after it, whose first lines are asked for
    /// while this one's last square is copied.
    fn copy<T: Copy + 'static, X: Fix<T>>(
        &self,
        src: &[T],
        s: usize,
        dst: &mut [T],
        d: usize,
        next: Option<usize>,
    ) {
        // Squares of one cache line (64 bytes) a side: every line of
        // either side is read or written whole, once.
        match const { core::mem::size_of::<T>() } {
            1 => self.squares::<T, X, 64>(src, s, dst, d, next),
            2 => self.squares::<T, X, 32>(src, s, dst, d, next),
            4 => self.squares::<T, X, 16>(src, s, dst, d, next),
            8 => self.squares::<T, X, 8>(src, s, dst, d, next),
            _ => self.squares::<T, X, 4>(src, s, dst, d, next),
        }
    }

    fn squares<T: Copy + 'static, X: Fix<T>, const N: usize>(
        &self,
        src: &[T],
        s: usize,
        dst: &mut [T],
        d: usize,
        next: Option<usize>,
    ) {
        if self.rp >= N && self.rq >= N {
            if const { N > 2 * PASS } && self.crowded {
                return self.strip::<T, X, N, N, PASS>(src, s, dst, d, next);
            }
            return self.strip::<T, X, N, N, N>(src, s, dst, d, next);
        }
        match (self.rp, self.rq) {
            (2, q) if q >= 32 => self.strip::<T, X, 2, 32, 2>(src, s, dst, d, next),
            (4, q) if q >= 16 => self.strip::<T, X, 4, 16, 4>(src, s, dst, d, next),
            (p, 2) if p >= 32 => self.strip::<T, X, 32, 2, 32>(src, s, dst, d, next),
            (p, 4) if p >= 16 => self.strip::<T, X, 16, 4, 16>(src, s, dst, d, next),
            // Bytes in runs shorter than a line: blocks of 32 or 16 a
            // side, whole vector tiles (8 x 8 bytes is half a tile, which
            // the shuffles do not take).
            (p, q) if N >= 64 && p >= 32 && q >= 32 => {
                if self.crowded {
                    return self.strip::<T, X, 32, 32, PASS>(src, s, dst, d, next);
                }
                self.strip::<T, X, 32, 32, 32>(src, s, dst, d, next)
            }
            (p, q) if N >= 32 && p >= 16 && q >= 16 => {
                self.strip::<T, X, 16, 16, 16>(src, s, dst, d, next)
            }
            (p, q) if p >= 8 && q >= 8 => self.strip::<T, X, 8, 8, 8>(src, s, dst, d, next),
            _ => self.edges::<T, X>(src, s, dst, d, 0, 0),
        }
    }

    /// Blocks of `P` x `Q` (in passes of `H` rows when `H < P`), the
    /// source's contiguous direction innermost, then the rest.
    fn strip<T: Copy + 'static, X: Fix<T>, const P: usize, const Q: usize, const H: usize>(
        &self,
        src: &[T],
        s: usize,
        dst: &mut [T],
        d: usize,
        next: Option<usize>,
    ) {
        let (pn, qn) = (self.rp / P * P, self.rq / Q * Q);
        // Squares (in whole blocks): the lines and pages one touches stay
        // in the cache and the TLB while it is copied, and each source row
        // is read in runs long enough for the prefetcher.
        let (pm, qm) = square(pn, qn, P, Q, core::mem::size_of::<T>(), self.rows());
        for p0 in (0..pn).step_by(pm) {
            for q0 in (0..qn).step_by(qm) {
                // The next square's destination lines, asked for in the
                // order of its rows while this square is copied, a share
                // at each block: the writes of a square go to as many
                // rows as it has columns, a line to each at a time, and
                // reading those lines for ownership as they come is what
                // held squares back (a 2-D `f64` transpose's lines copy
                // in the squares' order: 0.21x of memcpy, 0.41x to 0.47x
                // with these requests).
                // (After the block's last square, the next block's first.)
                let after = if q0 + qm < qn {
                    Some((d, p0, q0 + qm))
                } else if p0 + pm < pn {
                    Some((d, p0 + pm, 0))
                } else {
                    next.map(|e| (e, 0, 0))
                };
                let (pe, qe) = ((p0 + pm).min(pn), (q0 + qm).min(qn));
                let steps = (pe - p0) / P * ((qe - q0) / Q);
                let mut ahead = after.map(|(e, np, nq)| {
                    let (ne, nqe) = ((np + pm).min(pn), (nq + qm).min(qn));
                    Ahead::new::<T>(e, np, ne, nq, nqe, steps)
                });
                for p in (p0..pe).step_by(P) {
                    for q in (q0..qe).step_by(Q) {
                        self.micro::<T, X, P, Q, H>(src, s, dst, d, p, q);
                        if let Some(a) = ahead.as_mut() {
                            a.step(self, dst);
                        }
                    }
                }
            }
        }
        self.edges::<T, X>(src, s, dst, d, pn, qn);
    }

    /// Source offset of block row `p` from the block's start.
    #[inline(always)]
    fn row(&self, p: usize) -> usize {
        two_loops(p, self.rp0, self.sp, self.sp1)
    }

    /// The elements outside `0..pn` x `0..qn`: the rows under the
    /// squares (columns `0..qn`), then every row of the columns right of
    /// them, in blocks of one vector a side (16 x 16 bytes, 8 x 8 two-byte
    /// elements, 4 x 4 wider ones). Where that side does not divide what
    /// is left, the last block overlaps the one before it (or the
    /// squares), and its elements are written twice, with the same
    /// values, where that rest is more than a quarter of a block; a rest
    /// of a quarter or less, and a part narrower than one vector, go one
    /// by one.
    /// (One by one, the 59 rows left under 64-row squares of
    /// `u8[763,16800]` transposed took an eighth of the copy; the 6
    /// columns right of 64 in the 70-column box of a `pred`
    /// `{0,1,2:T(8,128)}` -> `{1,0,2}` copy, a quarter.)
    fn edges<T: Copy + 'static, X: Fix<T>>(
        &self,
        src: &[T],
        s: usize,
        dst: &mut [T],
        d: usize,
        pn: usize,
        qn: usize,
    ) {
        match const { core::mem::size_of::<T>() } {
            1 => self.edges_in::<T, X, 16>(src, s, dst, d, pn, qn),
            2 => self.edges_in::<T, X, 8>(src, s, dst, d, pn, qn),
            _ => self.edges_in::<T, X, 4>(src, s, dst, d, pn, qn),
        }
    }

    fn edges_in<T: Copy + 'static, X: Fix<T>, const E: usize>(
        &self,
        src: &[T],
        s: usize,
        dst: &mut [T],
        d: usize,
        pn: usize,
        qn: usize,
    ) {
        let (rp, rq) = (self.rp, self.rq);
        // Blocks of `E` over `lo..hi`: the end of the whole blocks from
        // `lo`, one more block ending at `hi` where the rest is more than
        // a quarter of a block (its other elements written twice, with
        // the same values), and where the blocks end (the rest after that
        // goes one by one). A rest of a quarter or less costs less one by
        // one than a block: `f32` runs of 5 took 1.3x as long with a
        // second block for the fifth column.
        let cover = |lo: usize, hi: usize| {
            let whole = lo + (hi - lo) / E * E;
            let rest = hi - whole;
            let extra = (rest > 0 && 4 * rest > E && hi >= E).then(|| hi - E);
            (whole, extra, if extra.is_some() { hi } else { whole })
        };
        if pn < rp && qn > 0 {
            let ((pw, px, pc), (qw, qx, qc)) = (cover(pn, rp), cover(0, qn));
            for p in (pn..pw).step_by(E).chain(px) {
                for q in (0..qw).step_by(E).chain(qx) {
                    self.micro::<T, X, E, E, E>(src, s, dst, d, p, q);
                }
            }
            self.elements::<T, X>(src, s, dst, d, pc..rp, 0..qc);
            self.elements::<T, X>(src, s, dst, d, pn..rp, qc..qn);
        }
        if qn < rq {
            let ((pw, px, pc), (qw, qx, qc)) = (cover(0, rp), cover(qn, rq));
            for q in (qn..qw).step_by(E).chain(qx) {
                for p in (0..pw).step_by(E).chain(px) {
                    self.micro::<T, X, E, E, E>(src, s, dst, d, p, q);
                }
            }
            self.elements::<T, X>(src, s, dst, d, pc..rp, qn..qc);
            self.elements::<T, X>(src, s, dst, d, 0..rp, qc..rq);
        }
    }

    /// The elements of rows `ps` and columns `qs` of the block, one by one.
    fn elements<T: Copy + 'static, X: Fix<T>>(
        &self,
        src: &[T],
        s: usize,
        dst: &mut [T],
        d: usize,
        ps: Range<usize>,
        qs: Range<usize>,
    ) {
        for q in qs {
            for p in ps.clone() {
                dst[d + p + self.col(q)] = X::fix(src[s + self.row(p) + q]);
            }
        }
    }

    /// Destination offset of block column `q` from the block's start.
    #[inline(always)]
    fn col(&self, q: usize) -> usize {
        two_loops(q, self.rq0, self.dq, self.dq1)
    }

    /// Whether the `Q` destination rows from block column `q` are `dq`
    /// apart (all in one group of `rq0`).
    #[inline(always)]
    fn even_cols<const Q: usize>(&self, q: usize) -> bool {
        self.rq0 == 0 || q % self.rq0 + Q <= self.rq0
    }

    /// The start of the source row after the one at `at`, and its place
    /// `inner` in the two-loop `p` (see `rp0`).
    #[inline(always)]
    fn next_row(&self, at: usize, inner: usize) -> (usize, usize) {
        if inner + 1 == self.rp0 {
            (at + self.sp1 - (self.rp0 - 1) * self.sp, 0)
        } else {
            (at + self.sp, inner + 1)
        }
    }

    /// One `P` x `Q` block at `(p, q)`: the block's `P` source rows taken
    /// as arrays of `Q`, then each destination row gathered from them and
    /// written whole; with `H < P`, in passes of `H` rows.
    #[inline(always)]
    // `rows[i][j]`: column `j` of every row, by design.
    #[allow(clippy::needless_range_loop)]
    fn micro<T: Copy + 'static, X: Fix<T>, const P: usize, const Q: usize, const H: usize>(
        &self,
        src: &[T],
        s: usize,
        dst: &mut [T],
        d: usize,
        p: usize,
        q: usize,
    ) {
        if H < P {
            return self.passes::<T, X, P, Q, H>(src, s, dst, d, p, q);
        }
        // Not `passes` with one pass: finding the rows as they are read
        // measured 15% fewer instructions and up to 25% faster (f64
        // 2000 x 3000, interleaved runs) than listing their starts first.
        let from = s + self.row(p) + q;
        // The block's source rows, each exactly `Q` long (so the fallback,
        // one element at a time, is never taken).
        let first: &[T; Q] = match src[from..from + Q].try_into() {
            Ok(r) => r,
            Err(_) => return self.elements::<T, X>(src, s, dst, d, p..p + P, q..q + Q),
        };
        let mut rows = [first; P];
        let mut at = from;
        let mut inner = if self.rp0 == 0 { 0 } else { p % self.rp0 };
        for row in rows.iter_mut() {
            *row = match src[at..at + Q].try_into() {
                Ok(r) => r,
                Err(_) => return self.elements::<T, X>(src, s, dst, d, p..p + P, q..q + Q),
            };
            if simd::bytes::<T>() {
                // The next block's line of this row, asked for in L2 now:
                // f32 `T(8,128)` -> column-major and bf16
                // `{0,1:T(8,128)(2,1)}` -> rows measured 1.3x faster with
                // it, f32 transposes about 1.05x.
                simd::prefetch(src, at + Q);
            }
            (at, inner) = self.next_row(at, inner);
        }
        let to = d + p;
        if X::SAME && self.even_cols::<Q>(q) {
            if simd::block(&rows, dst, to + self.col(q), self.dq) {
                return;
            }
        } else if simd::bytes::<T>() {
            // Destination rows in two groups or more, or elements that
            // change on the way: the block is shuffled on the stack, then
            // written row by row.
            let mut buf = [[rows[0][0]; P]; Q];
            if simd::block(&rows, buf.as_flattened_mut(), 0, P) {
                return self.put_rows::<T, X, P, Q>(&mut buf, dst, to, q);
            }
        }
        if !X::SAME && core::mem::size_of::<T>() <= 8 {
            // Gathered on the stack, then changed all at once: bf16
            // sub-tiles 1.28x faster so (in interleaved runs), 16-byte
            // ones (`s8` `(4,1)`) 0.43x.
            let mut buf: [[T; P]; Q] =
                core::array::from_fn(|j| core::array::from_fn(|i| rows[i][j]));
            return self.put_rows::<T, X, P, Q>(&mut buf, dst, to, q);
        }
        // Each destination row gathers one column of the block.
        for j in 0..Q {
            let out: [T; P] = core::array::from_fn(|i| X::fix(rows[i][j]));
            let at = to + self.col(q + j);
            dst[at..at + P].copy_from_slice(&out);
        }
    }

    /// Writes row `j` of `buf` (its elements through `X`) at destination
    /// column `q + j` of the block, from `to`.
    #[inline(always)]
    fn put_rows<T: Copy, X: Fix<T>, const P: usize, const Q: usize>(
        &self,
        buf: &mut [[T; P]; Q],
        dst: &mut [T],
        to: usize,
        q: usize,
    ) {
        if !X::SAME {
            for e in buf.as_flattened_mut() {
                *e = X::fix(*e);
            }
        }
        for (j, b) in buf.iter().enumerate() {
            let at = to + self.col(q + j);
            dst[at..at + P].copy_from_slice(b);
        }
    }

    /// Block `(p, q)` in passes of `H` of its rows: each pass takes its
    /// rows as arrays of `Q`, then gathers and writes `H` elements of
    /// every destination row. With at most [`PASS`] rows in one L1 set,
    /// a pass's source lines stay cached while its `Q` destination rows
    /// are gathered from them (all `P` rows of a power-of-two stride
    /// would evict each other on every column).
    #[inline(always)]
    // `rows[i][j]`: column `j` of every row, by design.
    #[allow(clippy::needless_range_loop, clippy::too_many_arguments)]
    fn passes<T: Copy + 'static, X: Fix<T>, const P: usize, const Q: usize, const H: usize>(
        &self,
        src: &[T],
        s: usize,
        dst: &mut [T],
        d: usize,
        p: usize,
        q: usize,
    ) {
        // Where the block's source rows start.
        let mut starts = [0; P];
        let mut at = s + self.row(p) + q;
        let mut inner = if self.rp0 == 0 { 0 } else { p % self.rp0 };
        for start in starts.iter_mut() {
            *start = at;
            (at, inner) = self.next_row(at, inner);
        }
        let to = d + p;
        // The source rows of the pass from row `h` on, each exactly `Q`
        // long (so the fallback, one element at a time, is never taken).
        let pass = |h: usize| -> Option<[&[T; Q]; H]> {
            let row = |i: usize| -> Option<&[T; Q]> {
                let at = starts[h + i];
                src.get(at..at + Q)?.try_into().ok()
            };
            let mut rows = [row(0)?; H];
            for (i, r) in rows.iter_mut().enumerate() {
                *r = row(i)?;
            }
            Some(rows)
        };
        if simd::bytes::<T>() {
            // The next block's lines of these rows, asked for now (into
            // L2: in L1 they would crowd one set too): 4096 x 4096
            // transposes measured about 1.4x faster with it on bf16, 1.15x
            // on u8.
            for &at in &starts {
                simd::prefetch(src, at + Q);
            }
            if self.buffered::<T, X, P, Q, H>(&pass, dst, to, q) {
                return;
            }
        }
        for h in (0..P).step_by(H) {
            let Some(rows) = pass(h) else {
                return self.elements::<T, X>(src, s, dst, d, p..p + P, q..q + Q);
            };
            // Each destination row gathers one column of the pass,
            // written in place (a copy through an array on the stack
            // measured 12% to 16% slower on bf16 and u8).
            for j in 0..Q {
                let at = to + self.col(q + j) + h;
                for (o, r) in dst[at..at + H].iter_mut().zip(&rows) {
                    *o = X::fix(r[j]);
                }
            }
        }
    }

    /// The passes of [`Block::passes`] with vector shuffles, into a copy
    /// of the destination block on the stack, whose rows are then written
    /// whole: the destination rows crowd one L1 set as the source rows do,
    /// and written a pass at a time they would be evicted between passes.
    /// `false` (then nothing is written) where the shuffles do not apply.
    #[inline(always)]
    fn buffered<
        'a,
        T: Copy + 'static,
        X: Fix<T>,
        const P: usize,
        const Q: usize,
        const H: usize,
    >(
        &self,
        pass: &impl Fn(usize) -> Option<[&'a [T; Q]; H]>,
        dst: &mut [T],
        to: usize,
        q: usize,
    ) -> bool {
        // Any value of `T` to start the copy with: every slot is written.
        let Some(&any) = dst.get(to + self.col(q)) else {
            return false;
        };
        let mut buf = [[any; P]; Q];
        for h in (0..P).step_by(H) {
            let Some(rows) = pass(h) else { return false };
            if !simd::block(&rows, buf.as_flattened_mut(), h, P) {
                return false;
            }
        }
        self.put_rows::<T, X, P, Q>(&mut buf, dst, to, q);
        true
    }
}

#[cfg(test)]
mod tests;
