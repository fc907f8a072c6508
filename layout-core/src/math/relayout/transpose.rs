//! The general blocked transpose. A box whose destination is contiguous
//! along some loops and whose source is contiguous along others is copied
//! in blocks: the block's rows are the loops along which the destination
//! is contiguous (from destination stride 1 up, each loop's stride the
//! product of the ranges below it), its columns the loops along which the
//! source is contiguous (from source stride 1 up, likewise). Each block
//! row is then a contiguous run of the source and each block column one
//! of the destination, wherever the loops' other strides put them: a
//! table of row starts (source offsets) and one of column starts
//! (destination offsets) describe any number of loops on either side, so
//! `(2,1)` sub-tiles, tiles on both sides and permutations of any rank
//! take the same kernel. The remaining loops walk the blocks, in source
//! order.
//!
//! Blocks hold about one cache line of the destination per column and a
//! few lines of the source per row ([`ROW_BYTES`], [`COL_BYTES`]); where a
//! side's loops are shorter, the block is smaller. Whole tiles of a block
//! are shuffled in vector registers (`simd`), the rest moves element by
//! element.

use super::loops::{crowd_one_set, divisor_up_to, each_ahead, in_source_order};
use super::modes::{Mode, Nest, MODES};
use super::simd;
use super::tuning::{COLS, COL_BYTES, PASS, ROWS, ROW_BYTES};

/// A box planned as blocks: the row and column tables and the loops that
/// walk the blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blocks {
    /// Rows of a block: source offset of each, from the block's start.
    rows: [usize; ROWS],
    p: usize,
    /// The destination stride along a row (1 where the rows are runs).
    ps: usize,
    /// Columns of a block: destination offset of each.
    cols: [usize; COLS],
    q: usize,
    /// The source stride along a column (1 where the columns are runs).
    qs: usize,
    /// The loops over blocks, innermost first (source order).
    outer: [Mode; MODES],
    len: usize,
    /// A loop of the box (its index) that blocks took only a small
    /// divisor of, and the steps of it that make whole blocks: where
    /// [`each_box_whole`] cuts the box.
    poor: Option<(usize, u64)>,
}

impl Blocks {
    /// The source offset of each block row, from the block's start.
    pub(crate) fn rows(&self) -> &[usize] {
        &self.rows[..self.p]
    }

    /// The destination offset of each block column.
    pub(crate) fn cols(&self) -> &[usize] {
        &self.cols[..self.q]
    }

    /// The loops over blocks, innermost first.
    pub(crate) fn outer(&self) -> &[Mode] {
        &self.outer[..self.len]
    }

    /// Plans box `n` as blocks of at most `p_most` rows and `q_most`
    /// columns (each at most [`ROWS`], [`COLS`]; a first loop whose range
    /// has no divisor up to that many, but at most [`ROWS`] or [`COLS`]
    /// itself, is taken whole). The rows are the loops of the smallest
    /// destination stride and its multiples, the columns those of the
    /// smallest other source stride and its multiples. `None` for a box
    /// of fewer than two loops, or a first loop too long to take whole
    /// that has no divisor (see [`each_box`]).
    // Out of line (its loop list and tables take about 8 KiB at rank 16):
    // the stack holds them only while a box is planned, not in every
    // caller's frame (the Cortex-M firmware runs in 32 KiB).
    #[inline(never)]
    pub(crate) fn plan_at_most(n: &Nest, p_most: usize, q_most: usize) -> Option<Blocks> {
        let mut modes = [Mode {
            range: 1,
            src: 0,
            dst: 0,
        }; MODES];
        let mut len = n.len;
        modes[..len].copy_from_slice(n.loops());
        let p_most = p_most.clamp(2, ROWS) as u64;
        let q_most = q_most.clamp(2, COLS) as u64;
        // 0: an outer loop; 1: a row loop; 2: a column loop.
        let mut role = [0u8; MODES];
        // The row and the column loops, innermost first.
        let mut row_loops = [0usize; MODES];
        let mut col_loops = [0usize; MODES];
        // The first row loop: the smallest destination stride (the loops
        // are sorted so).
        let (first, ps) = (0, modes.first()?.dst);
        role[first] = 1;
        row_loops[0] = first;
        let mut rn = 1;
        // The box's own loops (`take` adds more after them).
        let (own, mut poor) = (n.len, None);
        let mut p = modes[first].range;
        if p > p_most {
            match take(&mut modes, &mut len, &mut role, first, p_most) {
                Some(c) => p = c,
                None if p <= ROWS as u64 => {}
                None => return None,
            }
        }
        // The first column loop: the smallest source stride of the rest.
        let c0 = (0..len)
            .filter(|&i| role[i] == 0)
            .min_by_key(|&i| modes[i].src)?;
        let qs = modes[c0].src;
        role[c0] = 2;
        col_loops[0] = c0;
        let mut cn = 1;
        let mut q = modes[c0].range;
        if q > q_most {
            match take(&mut modes, &mut len, &mut role, c0, q_most) {
                Some(c) => q = c,
                None if q <= COLS as u64 => {}
                None => return None,
            }
        }
        // More columns, from source stride `qs * q`, then more rows, from
        // destination stride `ps * p`.
        for (side, most, stride, count, loops, n) in [
            (2u8, q_most, qs, &mut q, &mut col_loops, &mut cn),
            (1u8, p_most, ps, &mut p, &mut row_loops, &mut rn),
        ] {
            while *count < most {
                let next = stride.checked_mul(*count)?;
                let pick =
                    |m: &Mode, r: u8| r == 0 && if side == 2 { m.src } else { m.dst } == next;
                let Some(i) = (0..len).find(|&i| pick(&modes[i], role[i])) else {
                    break;
                };
                role[i] = side;
                let want = most / *count;
                let range = modes[i].range;
                if range > want {
                    let took = take(&mut modes, &mut len, &mut role, i, want);
                    if took.is_none_or(|c| c < want)
                        && range % want != 0
                        && i < own
                        && poor.is_none()
                    {
                        poor = Some((i, range / want * want));
                    }
                    match took {
                        Some(c) => {
                            *count *= c;
                            (loops[*n], *n) = (i, *n + 1);
                        }
                        None => role[i] = 0,
                    }
                    break;
                }
                (loops[*n], *n) = (i, *n + 1);
                *count *= modes[i].range;
            }
        }
        let mut b = Blocks {
            rows: [0; ROWS],
            p: p as usize,
            ps: ps as usize,
            cols: [0; COLS],
            q: q as usize,
            qs: qs as usize,
            outer: [Mode {
                range: 1,
                src: 0,
                dst: 0,
            }; MODES],
            len: 0,
            poor,
        };
        // Row and column offsets: the mixed-radix digits of each, in the
        // order the loops were taken (innermost first).
        table(&modes, &row_loops[..rn], &mut b.rows[..b.p], |m| m.src);
        table(&modes, &col_loops[..cn], &mut b.cols[..b.q], |m| m.dst);
        // The taken loops' remainders and the other loops walk the blocks.
        for (i, m) in modes[..len].iter().enumerate() {
            if role[i] == 0 && m.range > 1 {
                b.outer[b.len] = *m;
                b.len += 1;
            }
        }
        in_source_order(&mut b.outer[..b.len]);
        // Columns under half a line of the destination under rows of
        // (nearly) whole source lines: the loop that continues the
        // columns goes first, so that the next blocks fill the rest of
        // those destination lines while they are cached.
        if p.saturating_mul(2) <= p_most && q.saturating_mul(2) >= q_most {
            let next = ps.checked_mul(p);
            if let Some(k) = b.outer[..b.len].iter().position(|m| Some(m.dst) == next) {
                b.outer[..=k].rotate_right(1);
            }
        }
        Some(b)
    }

    /// The destination stride along a row and the source stride along a
    /// column (1 and 1 where both are runs).
    pub(crate) fn strides(&self) -> (usize, usize) {
        (self.ps, self.qs)
    }

    /// Whether block rows and columns are runs (the vector tiles apply).
    pub(crate) fn runs(&self) -> bool {
        self.ps == 1 && self.qs == 1
    }

    /// Copies the box from offsets `s` and `d`. As a block is copied,
    /// the first line of each of the next block's source rows is asked
    /// for (`prefetcht1`): the rows of a block are often far apart
    /// (padded tiles, one row of a `(2,1)` pair), where the hardware's
    /// prefetchers do not follow. Paired rounds over the 18 drawn pairs
    /// that take the general blocks: geometric mean 1.03x, up to 1.24x
    /// (`bf16[4,1,638355,4]` `{0,3,1,2:T(8,128)(2,1)}` -> `{2,0,3,1}`);
    /// none slower beyond noise.
    pub(crate) fn copy<T: Copy + 'static>(&self, src: &[T], s: u64, dst: &mut [T], d: u64) {
        let (rows, cols) = (&self.rows[..self.p], &self.cols[..self.q]);
        let (ps, qs) = (self.ps, self.qs);
        let fetch = |next: Option<(usize, usize)>| {
            if let Some((x, _)) = next {
                simd::prefetch_rows(src, x, rows, 1);
            }
        };
        if !self.runs() {
            each_ahead(&self.outer[..self.len], s, d, 1, |s, d, next| {
                fetch(next);
                for (j, &c) in cols.iter().enumerate() {
                    let (from, to) = (s + j * qs, d + c);
                    for (i, &r) in rows.iter().enumerate() {
                        dst[to + i * ps] = src[from + r];
                    }
                }
            });
            return;
        }
        each_ahead(&self.outer[..self.len], s, d, 1, |s, d, next| {
            fetch(next);
            let (pn, qn) = simd::table_block(src, s, rows, dst, d, cols);
            // What the tiles left: the last rows of the first columns,
            // then every row of the last columns.
            for (j, &c) in cols.iter().enumerate() {
                let from = if j < qn { pn } else { 0 };
                let at = d + c;
                for (o, &r) in dst[at + from..at + self.p].iter_mut().zip(&rows[from..]) {
                    *o = src[s + r + j];
                }
            }
        });
    }
}

/// The most rows and columns of a block of elements of `size` bytes.
pub(crate) fn sides(size: usize) -> (usize, usize) {
    let size = size.max(1);
    (
        (ROW_BYTES / size).clamp(2, ROWS),
        (COL_BYTES / size).clamp(2, COLS),
    )
}

/// The most rows and columns of the general blocks of box `n`, of
/// elements of `size` bytes: [`sides`], with the columns halved (down to
/// twice [`PASS`]) while more than twice [`PASS`] of a block's columns
/// start in one set of a 64-set L1 of 64-byte lines: destination runs a
/// multiple of 4 KiB apart (planes of a large array) would evict each
/// other before a block is written. Blocks whose columns spread over the
/// sets keep all of theirs (the relayout guide has the measurements).
// Out of line, as `Blocks::plan_at_most`: the plan it makes is off the
// stack before the caller plans the box again and copies it (the
// Cortex-M firmware runs in 32 KiB).
#[inline(never)]
pub(crate) fn sides_of(n: &Nest, size: usize) -> (usize, usize) {
    let (pm, mut qm) = sides(size);
    while qm > 2 * PASS {
        let Some(b) = Blocks::plan_at_most(n, pm, qm) else {
            break;
        };
        if !crowd_one_set(b.cols().iter().copied(), size) {
            break;
        }
        qm /= 2;
    }
    (pm, qm)
}

/// Calls `f` with the blocks of box `n` (at most `p_most` by `q_most`):
/// where the first row or column loop is longer than that and has no
/// divisor of at least half of it, a row loop of up to [`ROWS`] steps is
/// taken whole (the block then has more rows than `p_most`), and
/// otherwise the box is first cut in two along that loop, a part of whole
/// blocks and the rest, each planned on its own (a rest of one row or
/// column is handed on as a [`Whole::Line`]).
/// `false` where the box is no transpose (then `f` may have been called
/// for some parts of it).
#[inline(never)]
pub(crate) fn each_box(
    n: &Nest,
    p_most: usize,
    q_most: usize,
    f: &mut dyn FnMut(Whole<'_>),
) -> bool {
    blocks_of(n, p_most, q_most, false, false, f)
}

/// What [`each_box_whole`] hands on: blocks (with the source and
/// destination offsets they start at), or a part of the box left with a
/// single loop (one row or one column), which is no block.
pub(crate) enum Whole<'a> {
    Blocks(&'a Blocks, u64, u64),
    Line(&'a Nest),
}

/// [`each_box`] with blocks of exactly `p_most` by `q_most` where a loop
/// is longer: a loop that the most does not divide is cut into whole
/// blocks and the rest (also a loop that the blocks take only a small
/// divisor of). The packed kernels move whole vectors of slots this way,
/// with every block starting at the same place in its byte. A part that
/// such a cut leaves with a single loop (4097 columns cut into 4096 and
/// 1) is handed on as a [`Whole::Line`].
#[inline(never)]
pub(crate) fn each_box_whole(
    n: &Nest,
    p_most: usize,
    q_most: usize,
    f: &mut dyn FnMut(Whole<'_>),
) -> bool {
    blocks_of(n, p_most, q_most, true, false, f)
}

/// The blocks of [`each_box`] or [`each_box_whole`] (`whole_blocks`);
/// `cut`: `n` is a part of a box cut here.
fn blocks_of(
    n: &Nest,
    p_most: usize,
    q_most: usize,
    whole_blocks: bool,
    cut: bool,
    f: &mut dyn FnMut(Whole<'_>),
) -> bool {
    let loops = n.loops();
    if loops.len() < 2 {
        // A box of one loop is no transpose; a part of one that a cut
        // left with one loop is a line of it.
        if whole_blocks || cut {
            f(Whole::Line(n));
            return true;
        }
        return false;
    }
    // The first row loop, and the first column loop.
    let c0 = (1..loops.len()).min_by_key(|&i| loops[i].src).unwrap_or(1);
    let mut cut = None;
    let mut p_most = p_most;
    for (i, most) in [(0, p_most.min(ROWS)), (c0, q_most.min(COLS))] {
        let r = loops[i].range;
        let most = most as u64;
        let least = if whole_blocks { most } else { most / 2 };
        if r > most && (divisor_up_to(r, most as usize) as u64) < least {
            // Blocks of any size (not whole ones) take a row loop of up
            // to `ROWS` steps whole rather than cut it: the part cut off
            // would write the same destination lines a second time, after
            // the rest of the box. (A column loop is still cut: the part
            // cut off reads source lines again, which costs less than
            // more columns where `sides_of` keeps them few, each
            // destination run in the same set of the L1.)
            if !whole_blocks && i == 0 && r <= ROWS as u64 {
                p_most = r as usize;
                continue;
            }
            cut = Some((i, r / most * most));
            break;
        }
    }
    let planned = match cut {
        Some(_) => None,
        None => Blocks::plan_at_most(n, p_most, q_most),
    };
    if let Some(Blocks {
        poor: Some((i, whole)),
        ..
    }) = planned
        && whole_blocks
    {
        cut = Some((i, whole));
    }
    if let Some((i, whole)) = cut {
        let (a, b) = n.cut(i, whole);
        return blocks_of(&a, p_most, q_most, whole_blocks, true, f)
            && blocks_of(&b, p_most, q_most, whole_blocks, true, f);
    }
    match planned {
        Some(b) => {
            f(Whole::Blocks(&b, n.src, n.dst));
            true
        }
        None => false,
    }
}

/// Cuts loop `i` of `modes` into an inner loop of `c` steps (the largest
/// divisor of its range up to `most`, above 1) kept at `i`, and an outer
/// loop of the rest, added at the end as an outer loop: `Some(c)`, or
/// `None` when there is no such divisor or no room (nothing changes).
fn take(
    modes: &mut [Mode; MODES],
    len: &mut usize,
    role: &mut [u8; MODES],
    i: usize,
    most: u64,
) -> Option<u64> {
    let m = modes[i];
    let c = divisor_up_to(m.range, most as usize) as u64;
    if c < 2 || *len >= MODES {
        return None;
    }
    modes[i].range = c;
    if c < m.range {
        modes[*len] = Mode {
            range: m.range / c,
            src: m.src * c,
            dst: m.dst * c,
        };
        role[*len] = 0;
        *len += 1;
    }
    Some(c)
}

/// Fills `out` with the offsets (by `stride`) of the indices of the loops
/// `which` of `modes`, the first of them fastest.
fn table(modes: &[Mode], which: &[usize], out: &mut [usize], stride: impl Fn(&Mode) -> u64) {
    let mut at = [0u64; MODES];
    let mut off = 0u64;
    for o in out.iter_mut() {
        *o = off as usize;
        // Next index: the odometer over the loops `which`.
        for (k, &i) in which.iter().enumerate() {
            let m = &modes[i];
            at[k] += 1;
            off = off.wrapping_add(stride(m));
            if at[k] < m.range {
                break;
            }
            off = off.wrapping_sub(at[k].wrapping_mul(stride(m)));
            at[k] = 0;
        }
    }
}
