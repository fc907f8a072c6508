//! The lines copy, a ceiling for benchmarks only
//! ([`RelayoutPlan::run_bytes_lines`]): the bytes a relayout reads and
//! writes, the same lines in the same order, without the transposing.
//! The result is NOT a relayout (elements land in other slots); it only
//! times the memory traffic.
//!
//! The padding is filled first, as [`RelayoutPlan::run_bytes`] fills it,
//! and every box is walked as `run_bytes` walks it (`each_box` over the
//! merged chains, or a slab of every box at a time, `slabs.rs`; element
//! by element, the copy itself, for layouts without them):
//! - a box contiguous on both sides (the `runs` kernel) is copied by that
//!   kernel itself: its runs are lines already, in source order;
//! - any other box is planned as the general blocks plan it
//!   (`transpose::each_box` with `transpose::sides` of the element's
//!   bytes; the blocks walked in source order as `Blocks::copy` walks
//!   them), and each block's rows (`q` elements contiguous in the source
//!   from each row start) are read in turn and written into its columns
//!   (`p` elements contiguous in the destination from each column start)
//!   as they come, element `k` of the one walk into slot `k` of the
//!   other: a merge of the two sequences of runs (neighbours joined),
//!   each piece contiguous on both sides and copied whole (up to 128
//!   bytes inline, longer ones by `copy_from_slice`). Runs of 2 or 4
//!   elements that the `units` kernel takes as one, and the sub-tiles of
//!   `sub-tiles`, are the blocks' elements here too. The tuned squares,
//!   weave and split get the general blocks' lines, not their own
//!   (theirs are walked in other orders), so a tuned kernel can beat
//!   its ceiling;
//! - where a block's rows or columns are no runs (`Blocks::strides` not
//!   1), the block goes element by element in `Blocks::copy`'s order,
//!   which transposes nothing either (for slots, by `Blocks::copy`
//!   itself): walking those blocks in source order instead measured 5
//!   times slower than the copy (`bf16[256,510,152,1]` from
//!   `{1,3,0,2:T(4,128)(2,1)}` to `{3,2,0,1}`, whose source rows are
//!   every other slot), no ceiling;
//! - where no blocks apply (the `strided` kernel, or a loop the blocks
//!   cannot cut), the box goes in source order: its loops sorted by
//!   source stride, each step of the innermost one a piece, whole where
//!   that loop is contiguous on both sides.
//!
//! Packed slots (`E(n)`, sub-byte or unequal widths) are taken as the bit
//! copier takes them: a box of whole bytes on both sides as the byte copy
//! above, runs of 2 or 4 nibbles as the elements of blocks, long runs in
//! source order, the rest as blocks, cut as `subbyte.rs` cuts them
//! (`each_box_whole`; a part that cut leaves as one row or column goes
//! in source order, as a line; the packed chunks' boxes get these
//! blocks' lines too). Their pieces are moved in bytes, from the byte
//! that holds the first slot, rounded up to whole bytes and cut at the
//! buffer's end (the shorter side's length copied, the rest of the
//! destination piece zeroed where widths differ): approximate there, as
//! neighbouring pieces share bytes.

use super::few;
use super::kernels::{self, sub_tile_nest, RelayoutKernel};
use super::loops::{each, in_source_order};
use super::modes::{Mode, Nest, MODES};
use super::transpose::{self, Blocks, Whole};
use super::tuning::{COLS_HERE, ROWS, RUN_SLOTS, SUB_TILES_LEAST};
use super::{bits, How, RelayoutPlan};

/// The lines copy of `plan` from `src` to `dst` (lengths checked).
pub(crate) fn run(plan: &RelayoutPlan, src: &[u8], dst: &mut [u8]) {
    match plan.slot_bytes() {
        Some(1) => whole::<1>(plan, src, dst),
        Some(2) => whole::<2>(plan, src, dst),
        Some(4) => whole::<4>(plan, src, dst),
        Some(8) => whole::<8>(plan, src, dst),
        Some(16) => whole::<16>(plan, src, dst),
        _ => packed(plan, src, dst),
    }
}

/// Slots of `N` whole bytes.
fn whole<const N: usize>(plan: &RelayoutPlan, src: &[u8], dst: &mut [u8]) {
    if plan.fill_needed {
        let fill: [u8; N] = core::array::from_fn(|i| (plan.fill >> (8 * i)) as u8);
        plan.fill_padding(dst.as_chunks_mut::<N>().0, 0, fill);
    }
    match &plan.how {
        How::Chains(chains) => plan.each_part(chains, &mut |_, n: &Nest| one_box::<N>(n, src, dst)),
        How::General { src: a, dst: b } => {
            // Element by element, as the copy goes: the copy itself.
            let mut put = Slots::<N> { src, dst };
            plan.each_general(a, b, 0..u64::MAX, |s, d| put.put(s as usize, d as usize, 1))
        }
    }
}

/// The lines of one box of `N`-byte slots (offsets in slots).
fn one_box<const N: usize>(n: &Nest, src: &[u8], dst: &mut [u8]) {
    let kernel = kernels::choose(n, N);
    if kernel == RelayoutKernel::Runs {
        // Runs are lines already: the kernel itself, in its order.
        return kernels::copy_nest::<[u8; N]>(n, src.as_chunks().0, dst.as_chunks_mut().0);
    }
    let put = &mut Slots::<N> { src, dst };
    if few::shape(n, N).is_some() {
        return few::lines(n, N, &mut |s, d, len| put.put(s, d, len));
    }
    match kernel {
        RelayoutKernel::Units => {
            let r = n.modes[0].range as usize;
            let rest = &n.modes[1..n.len];
            units(rest, n, transpose::sides(N * r), false, r, put)
        }
        RelayoutKernel::SubTiles => sub_tiles(n, N, put),
        RelayoutKernel::Blocks => blocks(n, transpose::sides_of(n, N), false, 1, put),
        _ => blocks(n, transpose::sides(N), false, 1, put),
    }
}

/// A box of `K` x `K` sub-tiles transposed on both sides (`sub-tiles`):
/// the blocks of whole sub-tiles, each `K * K` slots contiguous on both
/// sides. Out of line: its nest is 3 KiB.
#[inline(never)]
fn sub_tiles(n: &Nest, size: usize, put: &mut impl Put) {
    let k = n.modes[0].range;
    if sub_tile_nest(n, k, SUB_TILES_LEAST).is_some() {
        let kk = (k * k) as usize;
        let rest = &n.modes[2..n.len];
        return units(rest, n, transpose::sides(size * kk), false, kk, put);
    }
    blocks(n, transpose::sides(size), false, 1, put)
}

/// The box of the loops `rest` from `n`'s offsets, each step moving a
/// unit of `unit` slots contiguous on both sides: its blocks of units.
/// Out of line: its nest is 3 KiB.
#[inline(never)]
fn units(
    rest: &[Mode],
    n: &Nest,
    sides: (usize, usize),
    whole_blocks: bool,
    unit: usize,
    put: &mut impl Put,
) {
    let u = Nest::scaled(rest, 1, 1, n.src, n.dst);
    blocks(&u, sides, whole_blocks, unit, put)
}

/// Where the pieces go: `put.put(s, d, len)` moves `len` slots from slot `s`
/// of the source to slot `d` of the destination.
trait Put {
    fn put(&mut self, s: usize, d: usize, len: usize);

    /// Copies block `b` (rows or columns no runs) from `s` and `d` as
    /// `Blocks::copy` does, where the slots allow (`true`).
    fn strided(&mut self, _b: &Blocks, _s: u64, _d: u64) -> bool {
        false
    }
}

/// Slots of `N` whole bytes.
struct Slots<'a, const N: usize> {
    src: &'a [u8],
    dst: &'a mut [u8],
}

impl<const N: usize> Put for Slots<'_, N> {
    #[inline(always)]
    fn put(&mut self, s: usize, d: usize, len: usize) {
        let (s, d, k) = (s * N, d * N, len * N);
        copy(&mut self.dst[d..d + k], &self.src[s..s + k]);
    }

    fn strided(&mut self, b: &Blocks, s: u64, d: u64) -> bool {
        let (src, dst) = (self.src.as_chunks::<N>().0, self.dst.as_chunks_mut::<N>().0);
        b.copy(src, s, dst, d);
        true
    }
}

/// `to.copy_from_slice(from)`, pieces up to 128 bytes without a call:
/// one copy of 1, 2, 4, 8, 16, 32 or 64 bytes, or two that overlap (as
/// `memcpy` does inside). One store where a piece is one slot matters: where the lines
/// miss the cache, the stores in flight set the speed.
#[inline(always)]
fn copy(to: &mut [u8], from: &[u8]) {
    fn two<const K: usize>(to: &mut [u8], from: &[u8]) {
        let n = to.len();
        to[..K].copy_from_slice(&from[..K]);
        if n > K {
            to[n - K..n].copy_from_slice(&from[n - K..n]);
        }
    }
    match to.len() {
        0 => {}
        1 => to[0] = from[0],
        2..=3 => two::<2>(to, from),
        4..=7 => two::<4>(to, from),
        8..=15 => two::<8>(to, from),
        16..=31 => two::<16>(to, from),
        32..=63 => two::<32>(to, from),
        64..=128 => two::<64>(to, from),
        _ => to.copy_from_slice(from),
    }
}

/// The box's elements (each `unit` slots contiguous on both sides)
/// through `put`, block by block as the general blocks of at most
/// `sides` go (`whole_blocks`: as `transpose::each_box_whole` cuts them),
/// each block's rows merged into its columns; in source order where no
/// blocks apply.
fn blocks(n: &Nest, (pm, qm): (usize, usize), whole_blocks: bool, unit: usize, put: &mut impl Put) {
    // First without copying: whether every part of the box is planned
    // (where one is not, the copy takes another kernel for all of it).
    if !plan_blocks(n, pm, qm, whole_blocks, &mut |_| {}) {
        return in_source_order_of(n, put);
    }
    plan_blocks(n, pm, qm, whole_blocks, &mut |w| match w {
        Whole::Blocks(b, s, d) => one_block(b, s, d, unit, put),
        // A part that the cut into whole blocks leaves as one row or
        // column: a line.
        Whole::Line(l) => in_source_order_of(l, put),
    });
}

/// Calls `f` with the blocks of `n` (and, `whole_blocks`, the lines that
/// cutting it into whole blocks leaves) as `transpose` plans them:
/// `false` where it does not.
fn plan_blocks(
    n: &Nest,
    pm: usize,
    qm: usize,
    whole_blocks: bool,
    f: &mut dyn FnMut(Whole<'_>),
) -> bool {
    if whole_blocks {
        return transpose::each_box_whole(n, pm, qm, f);
    }
    transpose::each_box(n, pm, qm, f)
}

/// The blocks of `b` from `s` and `d`, in source order.
fn one_block(b: &Blocks, s: u64, d: u64, unit: usize, put: &mut impl Put) {
    let (rows, cols) = (b.rows(), b.cols());
    let (ps, qs) = b.strides();
    let (p, q) = (rows.len(), cols.len());
    if (ps, qs) != (unit, unit) {
        // Rows or columns that are no runs: element by element, in the
        // order `Blocks::copy` takes them (a column at a time, gathered
        // from the rows), which transposes nothing either: that copy
        // itself where the elements are slots.
        if unit == 1 && put.strided(b, s, d) {
            return;
        }
        return each(b.outer(), s, d, |s, d| {
            for (j, &c) in cols.iter().enumerate() {
                for (i, &r) in rows.iter().enumerate() {
                    put.put(s + r + j * qs, d + c + i * ps, unit);
                }
            }
        });
    }
    each(b.outer(), s, d, |s, d| {
        let (a, z) = (Runs::new(rows, q * unit), Runs::new(cols, p * unit));
        merge(a, s, z, d, put)
    });
}

/// Slot `k` of the runs `a` from `s` to slot `k` of the runs `b` from
/// `d`, as pieces contiguous on both sides. Both hold as many slots.
#[inline]
fn merge(mut a: Runs<'_>, s: usize, mut b: Runs<'_>, d: usize, put: &mut impl Put) {
    let (Some((mut x, mut lx)), Some((mut y, mut ly))) = (a.next(), b.next()) else {
        return;
    };
    loop {
        let k = lx.min(ly);
        put.put(s + x, d + y, k);
        (x, lx, y, ly) = (x + k, lx - k, y + k, ly - k);
        if lx == 0 {
            match a.next() {
                Some(r) => (x, lx) = r,
                None => return,
            }
        }
        if ly == 0 {
            match b.next() {
                Some(r) => (y, ly) = r,
                None => return,
            }
        }
    }
}

/// One side of a block, in order: a run of `len` slots from each of
/// `starts`, neighbours that continue each other joined: `(start, slots)`.
struct Runs<'a> {
    starts: &'a [usize],
    len: usize,
}

impl<'a> Runs<'a> {
    fn new(starts: &'a [usize], len: usize) -> Runs<'a> {
        Runs { starts, len }
    }
}

impl Iterator for Runs<'_> {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        let (&first, rest) = self.starts.split_first()?;
        let mut end = first + self.len;
        let mut taken = 1;
        for &x in rest {
            if x != end {
                break;
            }
            end += self.len;
            taken += 1;
        }
        self.starts = &self.starts[taken..];
        Some((first, end - first))
    }
}

/// The box in source order: its loops sorted by source stride, each step
/// of the innermost one a piece of one element, or the whole loop where
/// it is contiguous on both sides. Out of line: its loop list is 3 KiB.
#[inline(never)]
fn in_source_order_of(n: &Nest, put: &mut impl Put) {
    let mut order = [Mode {
        range: 1,
        src: 0,
        dst: 0,
    }; MODES];
    let k = n.len;
    order[..k].copy_from_slice(n.loops());
    in_source_order(&mut order[..k]);
    let Some((m0, rest)) = order[..k].split_first() else {
        return put.put(n.src as usize, n.dst as usize, 1);
    };
    let (r, ss, ds) = (m0.range as usize, m0.src as usize, m0.dst as usize);
    if ss == 1 && ds == 1 {
        return each(rest, n.src, n.dst, |s, d| put.put(s, d, r));
    }
    each(rest, n.src, n.dst, |s, d| {
        for i in 0..r {
            put.put(s + i * ss, d + i * ds, 1);
        }
    });
}

/// Packed slots: in bytes (see the module's documentation), the boxes
/// taken as the bit copier takes them: whole bytes as bytes, runs of 2 or
/// 4 nibbles as units of blocks, long runs in source order, the rest as
/// blocks (as `subbyte.rs` cuts them).
fn packed(plan: &RelayoutPlan, src: &[u8], dst: &mut [u8]) {
    let copy = bits::Copier::new(plan.element, plan.src_bits, plan.dst_bits);
    if plan.fill_needed {
        plan.fill_bits(&copy, dst, 0, plan.dst_slots);
    }
    let (sb, db) = (plan.src_bits, plan.dst_bits);
    match &plan.how {
        How::Chains(chains) => plan.each_part(chains, &mut |_, n: &Nest| {
            if sb == db && matches!(sb, 1 | 2 | 4) && whole_bytes(n, 8 / sb, src, dst) {
                return;
            }
            let put = &mut Packed { sb, db, src, dst };
            match n.loops().split_first() {
                Some((m0, rest)) if m0.src == 1 && m0.dst == 1 => {
                    let g = m0.range as usize;
                    if m0.range >= RUN_SLOTS || rest.is_empty() {
                        in_source_order_of(n, put)
                    } else if sb == 4 && db == 4 && matches!(g, 2 | 4) {
                        units(rest, n, (ROWS, COLS_HERE * 2 / g), true, g, put)
                    } else {
                        blocks(n, (ROWS, COLS_HERE), true, 1, put)
                    }
                }
                Some(_) => blocks(n, (ROWS, COLS_HERE), true, 1, put),
                None => put.put(n.src as usize, n.dst as usize, 1),
            }
        }),
        How::General { src: a, dst: b } => {
            let mut put = Packed { sb, db, src, dst };
            plan.each_general(a, b, 0..u64::MAX, |s, d| put.put(s as usize, d as usize, 1))
        }
    }
}

/// Packed slots of `sb` bits in `src` and `db` bits in `dst`: a piece is
/// the bytes that hold its slots, cut at each buffer's end; the shorter
/// side's length is copied, the rest of the destination zeroed.
struct Packed<'a> {
    sb: u64,
    db: u64,
    src: &'a [u8],
    dst: &'a mut [u8],
}

impl Put for Packed<'_> {
    #[inline(always)]
    fn put(&mut self, s: usize, d: usize, len: usize) {
        let bytes = |at: usize, bits: u64, most: usize| {
            let (lo, hi) = (at as u64 * bits, (at + len) as u64 * bits);
            let lo = ((lo / 8) as usize).min(most);
            (lo, (hi.div_ceil(8) as usize).clamp(lo, most))
        };
        let (a, a_end) = bytes(s, self.sb, self.src.len());
        let (b, b_end) = bytes(d, self.db, self.dst.len());
        let k = (a_end - a).min(b_end - b);
        copy(&mut self.dst[b..b + k], &self.src[a..a + k]);
        if b + k < b_end {
            self.dst[b + k..b_end].fill(0);
        }
    }
}

/// A box of `k` slots to a byte that moves whole bytes on both sides, as
/// the bit copier hands it to the byte kernels: its lines as bytes
/// (`true`); `false`, with nothing copied, for any other box. Out of
/// line: its nest is 3 KiB.
#[inline(never)]
fn whole_bytes(n: &Nest, k: u64, src: &[u8], dst: &mut [u8]) -> bool {
    let Some(b) = bits::byte_nest(n, k) else {
        return false;
    };
    one_box::<1>(&b, src, dst);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces put, in order.
    struct Log<'a>(&'a mut [(usize, usize, usize)], &'a mut usize);

    impl Put for Log<'_> {
        fn put(&mut self, s: usize, d: usize, len: usize) {
            self.0[*self.1] = (s, d, len);
            *self.1 += 1;
        }
    }

    #[test]
    fn merge_joins_neighbours_and_keeps_the_order() {
        // Two source rows of 3 elements, at 0 and 10; three destination
        // columns of 2, at 0, 2 and 4 (one run of 6).
        let mut got = [(0, 0, 0); 8];
        let mut n = 0;
        let (a, b) = (Runs::new(&[0, 10], 3), Runs::new(&[0, 2, 4], 2));
        merge(a, 100, b, 500, &mut Log(&mut got, &mut n));
        assert_eq!(got[..n], [(100, 500, 3), (110, 503, 3)]);
        // Rows of 2 joined into one run of 4; columns of 2 apart.
        n = 0;
        let (a, b) = (Runs::new(&[0, 2], 2), Runs::new(&[0, 8], 2));
        merge(a, 0, b, 0, &mut Log(&mut got, &mut n));
        assert_eq!(got[..n], [(0, 0, 2), (2, 8, 2)]);
    }

    #[test]
    fn packed_pieces_cover_their_bytes() {
        let src = [0x21u8, 0x43, 0x65];
        let mut dst = [0xFFu8; 3];
        // Nibbles 1..4 of the source (bytes 0..3) to nibbles 2..5.
        let (sb, db) = (4, 4);
        Packed {
            sb,
            db,
            src: &src,
            dst: &mut dst,
        }
        .put(1, 2, 4);
        assert_eq!(dst, [0xFF, 0x21, 0x43]);
        // Past the end: cut at the buffer.
        let mut dst = [0u8; 2];
        let (sb, db) = (4, 8);
        Packed {
            sb,
            db,
            src: &src,
            dst: &mut dst,
        }
        .put(4, 1, 4);
        assert_eq!(dst, [0, 0x65]);
    }
}
