//! The destination's padding slots, written without a pass over the whole
//! destination: every padding slot of a tiled layout has some coordinate
//! past its dimension's size and below the padded size (a slab of the
//! padded index space), or lies in the `L(n)` tail after the tiles. The
//! slabs are cut into boxes like the elements are, and filled as loop
//! nests.

use super::loops;
use super::modes::{self, Chain, Nest, Piece, CHAIN, NO_PIECE};
use crate::base::limits::MAX_RANK;
use crate::plan::digits::DimDigits;

/// Most pieces of one dimension's range `lo..hi`: up to one per link on
/// the way up from `lo`, and one per link on the way down to `hi`.
const RANGE_PIECES: usize = 2 * CHAIN;

/// Where a destination's padding is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Padding {
    /// The padded size of each dimension: the tiles' multiple of its size.
    pub extent: [u64; MAX_RANK],
    /// The slots the padded index space fills; the rest is the tail.
    pub covered: u64,
}

/// The padding of a destination with digit tables `digits`, index bounds
/// `limits` and `slots` slots, when the padded index space (each dimension
/// rounded up to its top digit's base) lands on exactly the first
/// `covered` slots: then the padding is the slabs and the tail. `None`
/// otherwise (tile dimensions of no logical dimension, a second tile level
/// that pads again, legacy padding past the tiles): the caller fills the
/// whole destination.
pub(crate) fn padding(
    digits: &[DimDigits<8>; MAX_RANK],
    limits: &[u64; MAX_RANK],
    rank: usize,
    slots: u64,
) -> Option<Padding> {
    let mut extent = [0u64; MAX_RANK];
    let mut covered: u64 = 1;
    let mut last: u64 = 0;
    for d in 0..rank {
        let dd = &digits[d];
        let limit = limits[d];
        if limit == 0 {
            return None;
        }
        let len = (dd.len as usize).min(dd.base.len());
        let top = if len == 0 { 1 } else { dd.base[len - 1] };
        let p = limit.div_ceil(top).checked_mul(top)?;
        extent[d] = p;
        covered = covered.checked_mul(p)?;
        // The largest offset: every digit at its largest value.
        last = last.checked_add(dd.offset(p - 1, false))?;
    }
    (last.checked_add(1)? == covered && covered <= slots).then_some(Padding { extent, covered })
}

/// Calls `put(slot, len)` for runs of padding slots that cover every
/// padding slot in `start..end` (all of the destination, or one window):
/// the slab of each dimension (that dimension past its size, the others
/// over their padded sizes) and the tail. Runs are cut to `start..end`.
/// `false`, with no call, when the slabs cannot be cut.
///
/// Out of line, with one table of pieces (4 KiB at rank 16) and one slab:
/// the copy that calls it also runs on small stacks.
#[inline(never)]
pub(crate) fn fill(
    chains: &[Chain; MAX_RANK],
    limits: &[u64; MAX_RANK],
    rank: usize,
    p: &Padding,
    start: u64,
    end: u64,
    put: &mut dyn FnMut(u64, u64),
) -> bool {
    // From 0 a range has at most one piece per link; a slab, twice that.
    let mut pieces = [[NO_PIECE; CHAIN]; MAX_RANK];
    let mut counts = [0usize; MAX_RANK];
    let mut slab = [NO_PIECE; RANGE_PIECES];
    for d in 0..rank {
        // Every range must cut before anything is written.
        let (lo, hi) = (limits[d], p.extent[d]);
        if modes::pieces_in(&chains[d], lo, hi, &mut slab).is_none() {
            return false;
        }
        match modes::pieces_in(&chains[d], 0, hi, &mut pieces[d]) {
            Some(n) => counts[d] = n,
            None => return false,
        }
    }
    for d in 0..rank {
        // Dimension `d` over its slab, the others over their padded sizes.
        let Some(n) = modes::pieces_in(&chains[d], limits[d], p.extent[d], &mut slab) else {
            return false;
        };
        if n == 0 {
            continue;
        }
        let mut of: [&[Piece]; MAX_RANK] = [&[]; MAX_RANK];
        for (e, o) in of.iter_mut().enumerate().take(rank) {
            *o = if e == d {
                &slab[..n]
            } else {
                &pieces[e][..counts[e]]
            };
        }
        modes::each_box(chains, &of, rank, &mut |n: &Nest| {
            fill_nest(n, start, end, put)
        });
    }
    let tail = p.covered.max(start);
    if tail < end {
        put(tail, end - tail);
    }
    true
}

/// Calls `put` for the slots of one box that lie in `start..end`: only
/// the steps of the outermost loop that can reach them are walked, and
/// runs are cut to them.
fn fill_nest(n: &Nest, start: u64, end: u64, put: &mut dyn FnMut(u64, u64)) {
    let mut put = |d: usize, len: u64| {
        let (lo, hi) = (
            (d as u64).max(start),
            (d as u64).saturating_add(len).min(end),
        );
        if lo < hi {
            put(lo, hi - lo);
        }
    };
    let modes = &n.modes[..n.len];
    let Some((&top, inner)) = modes.split_last() else {
        return put(n.dst as usize, 1);
    };
    // The slots one step of the outer loop reaches, and the steps that
    // can meet `start..end`.
    let span = inner.iter().fold(1u64, |s, m| {
        s.saturating_add((m.range - 1).saturating_mul(m.dst))
    });
    let step = top.dst.max(1);
    let first = start
        .saturating_sub(n.dst.saturating_add(span - 1))
        .div_ceil(step);
    let last = end.saturating_sub(n.dst).div_ceil(step).min(top.range);
    // The inner loops that continue one run of the destination (the
    // source's strides do not matter here: nothing is read): a `(2,1)`
    // sub-tile's pair and the columns after it are one run of padding,
    // not runs of two.
    let mut run = 1u64;
    let mut merged = 0;
    for m in inner {
        if m.dst != run {
            break;
        }
        run = run.saturating_mul(m.range);
        merged += 1;
    }
    let rest = &inner[merged..];
    for k in first..last {
        let base = n.dst + k * top.dst;
        loops::each(rest, 0, base, |_, d| put(d, run));
    }
}
