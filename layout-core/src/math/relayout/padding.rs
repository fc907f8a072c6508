//! The destination's padding slots, written without a pass over the whole
//! destination: every padding slot of a tiled layout has some coordinate
//! past its dimension's size and below the padded size (a slab of the
//! padded index space), or lies in the `L(n)` tail after the tiles. The
//! slabs are cut into boxes like the elements are, and filled as loop
//! nests.

use super::kernels;
use super::modes::{Chain, Nest, Piece};
use crate::base::limits::MAX_RANK;
use crate::plan::digits::DimDigits;

/// Most pieces of one dimension's range `lo..hi`: up to one per link on
/// the way up from `lo`, and one per link on the way down to `hi`.
const RANGE_PIECES: usize = 2 * super::modes::CHAIN;

const NO_PIECE: Piece = Piece {
    top: 0,
    count: 0,
    src: 0,
    dst: 0,
};

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

/// `lo..hi` of one dimension as pieces: full ranges of the lower links
/// under fixed values of the higher ones, going up from `lo` to the
/// largest base that fits and back down to `hi`. `None` if the range
/// needs more pieces than there is room for (never for a valid chain).
fn pieces_between(c: &Chain, lo: u64, hi: u64) -> Option<([Piece; RANGE_PIECES], usize)> {
    let mut out = [NO_PIECE; RANGE_PIECES];
    let mut n = 0;
    let len = c.len as usize;
    if len == 0 {
        // A dimension of size 1: no loops.
        if lo < hi {
            out[0] = Piece {
                top: u8::MAX,
                count: 1,
                src: 0,
                dst: 0,
            };
            n = 1;
        }
        return Some((out, n));
    }
    let mut x = lo;
    while x < hi {
        if n == RANGE_PIECES {
            return None;
        }
        // The largest link whose base `x` is a multiple of and that fits
        // before `hi` (link 0, of base 1, always does).
        let mut j = len - 1;
        while j > 0 {
            let b = c.links[j].base;
            if x.is_multiple_of(b) && hi - x >= b {
                break;
            }
            j -= 1;
        }
        let b = c.links[j].base;
        let mut count = (hi - x) / b;
        if j + 1 < len {
            // Up to the next multiple of the link above.
            let next = c.links[j + 1].base;
            count = count.min((next - x % next) / b);
        }
        // The digits of `x` at link `j` and above are fixed for the piece.
        let (mut src, mut dst) = (0u64, 0u64);
        for i in j..len {
            let l = c.links[i];
            let digit = if i + 1 < len {
                x % c.links[i + 1].base / l.base
            } else {
                x / l.base
            };
            src = src.wrapping_add(digit.wrapping_mul(l.src));
            dst = dst.wrapping_add(digit.wrapping_mul(l.dst));
        }
        out[n] = Piece {
            top: j as u8,
            count,
            src,
            dst,
        };
        n += 1;
        x += count * b;
    }
    Some((out, n))
}

/// Writes `v` into every padding slot of `dst`, which holds the
/// destination's slots from `start` on (all of them, or one window): the
/// slab of each dimension (that dimension past its size, the others over
/// their padded sizes) and the tail. `false`, with nothing written, when
/// the slabs cannot be cut.
///
/// Out of line, and one table of pieces at a time (8 KiB at rank 16): the
/// copy that calls it also runs on small stacks.
#[inline(never)]
pub(crate) fn fill<T: Copy>(
    chains: &[Chain; MAX_RANK],
    limits: &[u64; MAX_RANK],
    rank: usize,
    p: &Padding,
    dst: &mut [T],
    start: u64,
    v: T,
) -> bool {
    let mut pieces = [[NO_PIECE; RANGE_PIECES]; MAX_RANK];
    let mut counts = [0usize; MAX_RANK];
    for d in 0..rank {
        // Every range must cut before anything is written.
        if pieces_between(&chains[d], limits[d], p.extent[d]).is_none() {
            return false;
        }
        match pieces_between(&chains[d], 0, p.extent[d]) {
            Some((f, n)) => (pieces[d], counts[d]) = (f, n),
            None => return false,
        }
    }
    for d in 0..rank {
        // Dimension `d` over its slab, the others over their padded sizes.
        let Some((slab, n)) = pieces_between(&chains[d], limits[d], p.extent[d]) else {
            return false;
        };
        if n == 0 {
            continue;
        }
        let full = core::mem::replace(&mut pieces[d], slab);
        let full_n = core::mem::replace(&mut counts[d], n);
        let mut choice = [0usize; MAX_RANK];
        'boxes: loop {
            fill_nest(&Nest::of_box(chains, &pieces, &choice, rank), dst, start, v);
            let mut e = rank;
            loop {
                if e == 0 {
                    break 'boxes;
                }
                e -= 1;
                choice[e] += 1;
                if choice[e] < counts[e] {
                    break;
                }
                choice[e] = 0;
            }
        }
        pieces[d] = full;
        counts[d] = full_n;
    }
    let tail = p.covered.saturating_sub(start);
    if let Some(tail) = usize::try_from(tail).ok().and_then(|t| dst.get_mut(t..)) {
        tail.fill(v);
    }
    true
}

/// Writes `v` into every slot of one box that lies in `dst`, which holds
/// the slots from `start` on: only the steps of the outermost loop that
/// can reach `dst` are walked, and runs are cut to it.
fn fill_nest<T: Copy>(n: &Nest, dst: &mut [T], start: u64, v: T) {
    let end = start.saturating_add(dst.len() as u64);
    let mut put = |d: usize, len: u64| {
        let (lo, hi) = (
            (d as u64).max(start),
            (d as u64).saturating_add(len).min(end),
        );
        if lo < hi {
            dst[(lo - start) as usize..(hi - start) as usize].fill(v);
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
    for k in first..last {
        let base = n.dst + k * top.dst;
        match inner.split_first() {
            None => put(base as usize, 1),
            Some((m0, rest)) if m0.dst == 1 => {
                kernels::each(rest, 0, base, |_, d| put(d, m0.range))
            }
            Some(_) => kernels::each(inner, 0, base, |_, d| put(d, 1)),
        }
    }
}
