//! The lines copy, a ceiling for benchmarks only
//! ([`RelayoutPlan::run_bytes_lines`]): the bytes a relayout reads and
//! writes, the same lines in the same order, without the transposing.
//!
//! Every box of the plan is walked as [`RelayoutPlan::run_bytes`] walks it
//! (the padding filled first, as there), and
//! - a box contiguous on both sides (the `runs` kernel) is copied by that
//!   kernel itself: its runs are already lines, with nothing to transpose;
//! - any other box is planned as the general blocks plan it
//!   (`transpose::each_box` with `transpose::sides` of the element's
//!   bytes, the blocks walked in source order as `Blocks::copy` walks
//!   them), and each block's rows (`q` elements contiguous in the source
//!   from each row start) are read in turn and written, element `k` of
//!   that walk to slot `k` of the destination's walk (its columns, `p`
//!   elements contiguous from each column start), as the pieces that are
//!   contiguous on both sides: a merge of the two sequences of runs, each
//!   piece one `copy_from_slice`. Runs of 2 or 4 elements taken as one
//!   (`units`) and transposed sub-tiles (`sub-tiles`) are planned with the
//!   run or the sub-tile as the element, as their kernels take them. The
//!   tuned squares, weave and split get the general blocks' lines: their
//!   own blocks are walked in other orders.
//! - Where no blocks apply, or a block's rows or columns are not runs
//!   (`Blocks::strides` not 1), the box is copied in source order instead,
//!   its loops sorted by source stride, each step of the innermost loop a
//!   piece, whole where that loop is contiguous on both sides.
//!
//! Packed slots (`E(n)`, sub-byte or unequal widths) are moved in bytes:
//! where a box moves whole bytes on both sides (as the bit copier's byte
//! path takes it) as the byte copy above, otherwise each piece from the
//! byte holding its first slot, its length rounded up to whole bytes and
//! cut at the buffer's end, the shorter side's length copied and the rest
//! of the destination piece zeroed: approximate there. The result is NOT
//! a relayout (elements land in other slots); it only times the traffic.

use super::kernels::{self, sub_tile_nest, RelayoutKernel};
use super::loops::{each, in_source_order};
use super::modes::{Mode, Nest, MODES};
use super::transpose::{self, Blocks};
use super::tuning::SUB_TILES_LEAST;
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
        How::Chains(chains) => plan.each_box(chains, &mut |n: &Nest| one_box::<N>(n, src, dst)),
        How::General { src: a, dst: b } => {
            // Element by element, as the copy goes: the copy itself.
            plan.each_general(a, b, 0..u64::MAX, |s, d| {
                let (s, d) = (s as usize * N, d as usize * N);
                dst[d..d + N].copy_from_slice(&src[s..s + N]);
            })
        }
    }
}

/// The lines of one box of `N`-byte slots (offsets in slots).
fn one_box<const N: usize>(n: &Nest, src: &[u8], dst: &mut [u8]) {
    match kernels::choose(n, N) {
        // Runs are lines already: the kernel itself, in its order.
        RelayoutKernel::Runs => {
            kernels::copy_nest::<[u8; N]>(n, src.as_chunks().0, dst.as_chunks_mut().0)
        }
        RelayoutKernel::Element => pieces(N, src, dst)(n.src as usize, n.dst as usize, 1),
        RelayoutKernel::Units => units(n, N, src, dst),
        RelayoutKernel::SubTiles => sub_tiles(n, N, src, dst),
        _ => blocks(n, N, &mut pieces(N, src, dst)),
    }
}

/// A box of runs of `r` elements taken as one (`units`): the blocks of
/// such runs. Out of line: its nest is 3 KiB.
#[inline(never)]
fn units(n: &Nest, size: usize, src: &[u8], dst: &mut [u8]) {
    let r = n.modes[0].range;
    let u = Nest::scaled(&n.modes[1..n.len], r, r, n.src / r, n.dst / r);
    let unit = size * r as usize;
    blocks(&u, unit, &mut pieces(unit, src, dst));
}

/// A box of `K` x `K` sub-tiles transposed on both sides (`sub-tiles`):
/// the blocks of whole sub-tiles. Out of line, as [`units`].
#[inline(never)]
fn sub_tiles(n: &Nest, size: usize, src: &[u8], dst: &mut [u8]) {
    let k = n.modes[0].range;
    match sub_tile_nest(n, k, SUB_TILES_LEAST) {
        Some(u) => {
            let unit = size * (k * k) as usize;
            blocks(&u, unit, &mut pieces(unit, src, dst));
        }
        None => blocks(n, size, &mut pieces(size, src, dst)),
    }
}

/// `put(s, d, len)`: `len` elements of `size` bytes from element `s` of
/// `src` to element `d` of `dst`.
fn pieces<'a>(
    size: usize,
    src: &'a [u8],
    dst: &'a mut [u8],
) -> impl FnMut(usize, usize, usize) + 'a {
    move |s, d, len| {
        let (s, d, k) = (s * size, d * size, len * size);
        dst[d..d + k].copy_from_slice(&src[s..s + k]);
    }
}

/// The box's elements (of `size` bytes, for the blocks' sides) through
/// `put`, block by block as the general blocks go, each block's rows
/// merged into its columns; in source order where no blocks of runs
/// apply.
fn blocks(n: &Nest, size: usize, put: &mut impl FnMut(usize, usize, usize)) {
    let (pm, qm) = transpose::sides(size);
    // First without copying: whether every part of the box is planned,
    // and as rows and columns that are runs.
    let mut runs = true;
    let planned = transpose::each_box(n, pm, qm, &mut |b: &Blocks, _, _| runs &= b.runs());
    if !(planned && runs) {
        return in_source_order_of(n, put);
    }
    transpose::each_box(n, pm, qm, &mut |b: &Blocks, s, d| {
        let (rows, cols) = (b.rows(), b.cols());
        let (p, q) = (rows.len(), cols.len());
        each(b.outer(), s, d, |s, d| merge(rows, q, s, cols, p, d, put));
    });
}

/// Element `k` of the runs of `len_a` elements from `s + a[i]` (in
/// order) to slot `k` of the runs of `len_b` from `d + b[j]`, as pieces
/// contiguous on both sides (neighbouring runs joined first). Both
/// sequences hold the same number of elements.
#[inline]
fn merge(
    a: &[usize],
    len_a: usize,
    s: usize,
    b: &[usize],
    len_b: usize,
    d: usize,
    put: &mut impl FnMut(usize, usize, usize),
) {
    let (mut ra, mut rb) = (Runs::new(a, len_a), Runs::new(b, len_b));
    let (Some((mut x, mut lx)), Some((mut y, mut ly))) = (ra.next(), rb.next()) else {
        return;
    };
    loop {
        let k = lx.min(ly);
        put(s + x, d + y, k);
        (x, lx, y, ly) = (x + k, lx - k, y + k, ly - k);
        if lx == 0 {
            match ra.next() {
                Some(r) => (x, lx) = r,
                None => return,
            }
        }
        if ly == 0 {
            match rb.next() {
                Some(r) => (y, ly) = r,
                None => return,
            }
        }
    }
}

/// Runs of `len` elements from each of `starts`, in order, neighbours
/// that continue each other joined: `(start, length)`.
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
fn in_source_order_of(n: &Nest, put: &mut impl FnMut(usize, usize, usize)) {
    let mut order = [Mode {
        range: 1,
        src: 0,
        dst: 0,
    }; MODES];
    let k = n.len;
    order[..k].copy_from_slice(n.loops());
    in_source_order(&mut order[..k]);
    let Some((m0, rest)) = order[..k].split_first() else {
        return put(n.src as usize, n.dst as usize, 1);
    };
    let (r, ss, ds) = (m0.range as usize, m0.src as usize, m0.dst as usize);
    if ss == 1 && ds == 1 {
        return each(rest, n.src, n.dst, |s, d| put(s, d, r));
    }
    each(rest, n.src, n.dst, |s, d| {
        for i in 0..r {
            put(s + i * ss, d + i * ds, 1);
        }
    });
}

/// Packed slots: in bytes (see the module's documentation).
fn packed(plan: &RelayoutPlan, src: &[u8], dst: &mut [u8]) {
    let copy = bits::Copier::new(plan.element, plan.src_bits, plan.dst_bits);
    if plan.fill_needed {
        plan.fill_bits(&copy, dst, 0, plan.dst_slots);
    }
    let (sb, db) = (plan.src_bits, plan.dst_bits);
    match &plan.how {
        How::Chains(chains) => plan.each_box(chains, &mut |n: &Nest| {
            if sb == db && matches!(sb, 1 | 2 | 4) && whole_bytes(n, 8 / sb, src, dst) {
                return;
            }
            let mut put = packed_pieces(sb, db, src, dst);
            match n.loops().first() {
                Some(m0) if m0.src != 1 || m0.dst != 1 => blocks(n, 1, &mut put),
                _ => in_source_order_of(n, &mut put),
            }
        }),
        How::General { src: a, dst: b } => {
            let mut put = packed_pieces(sb, db, src, dst);
            plan.each_general(a, b, 0..u64::MAX, |s, d| put(s as usize, d as usize, 1))
        }
    }
}

/// `put(s, d, len)` for packed slots of `sb` bits in `src` and `db` bits
/// in `dst`: the bytes that hold the slots, cut at each buffer's end; the
/// shorter side's length is copied, the rest of the destination zeroed.
fn packed_pieces<'a>(
    sb: u64,
    db: u64,
    src: &'a [u8],
    dst: &'a mut [u8],
) -> impl FnMut(usize, usize, usize) + 'a {
    let bytes = |at: usize, len: usize, bits: u64, most: usize| {
        let (lo, hi) = (at as u64 * bits, (at + len) as u64 * bits);
        let lo = ((lo / 8) as usize).min(most);
        (lo, (hi.div_ceil(8) as usize).clamp(lo, most))
    };
    move |s, d, len| {
        let (a, a_end) = bytes(s, len, sb, src.len());
        let (b, b_end) = bytes(d, len, db, dst.len());
        let k = (a_end - a).min(b_end - b);
        dst[b..b + k].copy_from_slice(&src[a..a + k]);
        dst[b + k..b_end].fill(0);
    }
}

/// A box of `k` slots to a byte that moves whole bytes on both sides, as
/// the bit copier hands it to the byte kernels: its lines as bytes
/// (`true`); `false`, with nothing copied, for any other box. Out of
/// line: its nest is 3 KiB.
#[inline(never)]
fn whole_bytes(n: &Nest, k: u64, src: &[u8], dst: &mut [u8]) -> bool {
    let modes = n.loops();
    let Some((&m0, rest)) = modes.split_first() else {
        return false;
    };
    let whole = |m: &Mode| m.src.is_multiple_of(k) && m.dst.is_multiple_of(k);
    if !n.src.is_multiple_of(k) || !n.dst.is_multiple_of(k) {
        return false;
    }
    if m0.src != 1 || m0.dst != 1 || !m0.range.is_multiple_of(k) || !rest.iter().all(whole) {
        return false;
    }
    let run = m0.range / k;
    let b = if run > 1 {
        let mut b = Nest::scaled(modes, k, k, n.src / k, n.dst / k);
        b.modes[0] = Mode {
            range: run,
            src: 1,
            dst: 1,
        };
        b
    } else {
        Nest::scaled(rest, k, k, n.src / k, n.dst / k)
    };
    one_box::<1>(&b, src, dst);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_joins_neighbours_and_keeps_the_order() {
        // Two source rows of 3 elements, at 0 and 10; three destination
        // columns of 2, at 0, 2 and 4 (one run of 6).
        let mut got = [(0, 0, 0); 8];
        let mut n = 0;
        merge(&[0, 10], 3, 100, &[0, 2, 4], 2, 500, &mut |s, d, len| {
            got[n] = (s, d, len);
            n += 1;
        });
        assert_eq!(got[..n], [(100, 500, 3), (110, 503, 3)]);
        // Rows of 2 joined into one run of 4; columns of 2 apart.
        n = 0;
        merge(&[0, 2], 2, 0, &[0, 8], 2, 0, &mut |s, d, len| {
            got[n] = (s, d, len);
            n += 1;
        });
        assert_eq!(got[..n], [(0, 0, 2), (2, 8, 2)]);
    }

    #[test]
    fn packed_pieces_cover_their_bytes() {
        let src = [0x21u8, 0x43, 0x65];
        let mut dst = [0xFFu8; 3];
        // Nibbles 1..4 of the source (bytes 0..3) to nibbles 2..5.
        packed_pieces(4, 4, &src, &mut dst)(1, 2, 4);
        assert_eq!(dst, [0xFF, 0x21, 0x43]);
        // Past the end: cut at the buffer.
        let mut dst = [0u8; 2];
        packed_pieces(4, 8, &src, &mut dst)(4, 1, 4);
        assert_eq!(dst, [0, 0x65]);
    }
}
