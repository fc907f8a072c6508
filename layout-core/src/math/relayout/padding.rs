//! The destination's padding slots, written without a pass over the whole
//! destination: every padding slot of a tiled layout has some coordinate
//! past its dimension's size and below the padded size (a slab of the
//! padded index space), or lies in the `L(n)` tail after the tiles. The
//! slabs are cut into boxes like the elements are, and filled as loop
//! nests.

use super::loops;
use super::modes::{self, Chain, Mode, Nest, Piece, CHAIN, NO_PIECE};
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
/// `false`, with no call, when the slabs cannot be cut, or when the runs
/// have fewer than `least` bytes of elements (slots of `slot_bits` bits)
/// between them on average: writing every slot then costs less
/// ([`super::tuning::PAD_RUN_BYTES`]).
///
/// Out of line, with one table of pieces (4 KiB at rank 16) and one slab:
/// the copy that calls it also runs on small stacks.
#[inline(never)]
pub(crate) fn fill(
    chains: &[Chain; MAX_RANK],
    limits: &[u64; MAX_RANK],
    rank: usize,
    p: &Padding,
    (start, end, slot_bits, least): (u64, u64, u64, u64),
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
    // Each dimension's slab, the others over their padded sizes.
    let mut slabs = |f: &mut dyn FnMut(&Nest)| {
        for d in 0..rank {
            let Some(n) = modes::pieces_in(&chains[d], limits[d], p.extent[d], &mut slab) else {
                continue;
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
            modes::each_box(chains, &of, rank, &mut |n: &Nest| f(n));
        }
    };
    // The runs, and the padding slots they hold: where the elements
    // between two runs are fewer than `least` bytes, every slot is
    // written instead.
    let (mut runs, mut padded) = (0u64, 0u64);
    slabs(&mut |n: &Nest| {
        let (r, s) = runs_of(n, start, end);
        runs = runs.saturating_add(r);
        padded = padded.saturating_add(s);
    });
    let between = (end.min(p.covered).saturating_sub(start))
        .saturating_sub(padded)
        .saturating_mul(slot_bits)
        / 8;
    if runs > 0 && between / runs < least {
        return false;
    }
    slabs(&mut |n: &Nest| fill_nest(n, start, end, put));
    let tail = p.covered.max(start);
    if tail < end {
        put(tail, end - tail);
    }
    true
}

/// One box of padding as runs: the steps `first..last` of its outermost
/// loop that can meet `start..end`, the slots of one run (the inner loops
/// that continue one run of the destination), and the loops of runs.
struct Runs<'a> {
    top: Mode,
    first: u64,
    last: u64,
    run: u64,
    rest: &'a [Mode],
}

impl<'a> Runs<'a> {
    /// `None` for a box of no loops (one slot).
    fn of(n: &'a Nest, start: u64, end: u64) -> Option<Self> {
        let (&top, inner) = n.modes[..n.len].split_last()?;
        // The slots one step of the outer loop reaches, and the steps
        // that can meet `start..end`.
        let span = inner.iter().fold(1u64, |s, m| {
            s.saturating_add((m.range - 1).saturating_mul(m.dst))
        });
        let step = top.dst.max(1);
        let first = start
            .saturating_sub(n.dst.saturating_add(span - 1))
            .div_ceil(step);
        let last = end.saturating_sub(n.dst).div_ceil(step).min(top.range);
        // The source's strides do not matter here (nothing is read): a
        // `(2,1)` sub-tile's pair and the columns after it are one run of
        // padding, not runs of two.
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
        Some(Self {
            top,
            first,
            last,
            run,
            rest,
        })
    }

    /// How many runs, and how many slots they hold (about, at a window's
    /// edges).
    fn count(&self) -> (u64, u64) {
        let runs = self
            .rest
            .iter()
            .fold(self.last.saturating_sub(self.first), |r, m| {
                r.saturating_mul(m.range)
            });
        (runs, runs.saturating_mul(self.run))
    }
}

/// [`Runs::count`] of box `n`.
fn runs_of(n: &Nest, start: u64, end: u64) -> (u64, u64) {
    Runs::of(n, start, end).map_or((1, 1), |r| r.count())
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
    let Some(r) = Runs::of(n, start, end) else {
        return put(n.dst as usize, 1);
    };
    for k in r.first..r.last {
        let base = n.dst + k * r.top.dst;
        loops::each(r.rest, 0, base, |_, d| put(d, r.run));
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse_array, RelayoutPlan};

    /// The runs `each_padding` puts over the whole destination of
    /// `from -> to` with no floor: their count, their slots, and the
    /// destination's slots.
    fn runs(from: &str, to: &str) -> (RelayoutPlan, u64, u64) {
        let p = RelayoutPlan::new(&parse_array(from).unwrap(), &parse_array(to).unwrap()).unwrap();
        let (mut n, mut slots) = (0u64, 0u64);
        let alone = p.each_padding(0, p.dst_slots, 0, &mut |_, len| {
            n += 1;
            slots += len;
        });
        assert!(alone, "{to}: the padding is known");
        (p, n, slots)
    }

    /// Whether `each_padding` goes run by run with a floor of `least`
    /// bytes between runs, and puts nothing where it does not.
    fn by_runs(p: &RelayoutPlan, least: u64) -> bool {
        let mut calls = 0;
        let alone = p.each_padding(0, p.dst_slots, least, &mut |_, _| calls += 1);
        assert!(alone || calls == 0, "no run is put before the choice");
        alone
    }

    #[test]
    fn padding_goes_run_by_run_only_where_runs_are_far_apart() {
        // u8: 114 rows of `T(32,128)(4,1)` padded to 128. The `(4,1)`
        // sub-tile of rows 112..116 holds two rows of padding, a run of 2
        // slots for every column; rows 116..128 are one run a tile.
        let cases = [
            (
                "u8[300,114]{1,0}",
                "u8[300,114]{0,1:T(32,128)(4,1)}",
                8,
                34_200,
            ),
            (
                "f32[20,1000]{1,0}",
                "f32[20,1000]{1,0:T(8,128)}",
                32,
                20_000,
            ),
            (
                "s4[9,256]{1,0:E(4)}",
                "s4[9,256]{1,0:T(8,128)(2,1)E(4)}",
                4,
                2_304,
            ),
        ];
        for (from, to, bits, elements) in cases {
            assert!(elements > 0);
            let (p, n, slots) = runs(from, to);
            // Where two dimensions are padded, their slabs meet (those
            // slots are put twice, and counted so).
            assert!(slots >= p.dst_slots - elements, "{to}: every padding slot");
            // The average bytes of the other slots between two runs: the
            // floor at it goes run by run, one above it writes every slot.
            let between = (p.dst_slots - slots) * bits / 8 / n;
            assert!(
                by_runs(&p, between),
                "{to}: {n} runs, {between} bytes apart"
            );
            assert!(
                !by_runs(&p, between + 1),
                "{to}: {n} runs, {between} bytes apart"
            );
        }
        // 34 rows of 128: a run of 2 slots a column (rows 34 and 35),
        // 26 bytes of elements a run, below the floor; the rows of `f32`
        // tiles, far above it.
        let (p, n, _) = runs("u8[300,34]{1,0}", "u8[300,34]{0,1:T(32,128)(4,1)}");
        assert!(n >= 300 && !by_runs(&p, super::super::PAD_RUN_BYTES));
        let (p, n, _) = runs(cases[1].0, cases[1].1);
        assert!(n < 100 && by_runs(&p, super::super::PAD_RUN_BYTES));
    }
}
