//! The first of the three general kernels: contiguous runs
//! ([`RelayoutKernel::Runs`]). A box whose innermost loop is contiguous
//! on both sides is copied a run at a time, `copy_from_slice` under the
//! other loops, in the source's order; short runs whose next run in the
//! source is far away in the destination are walked in tiles of runs.
//! Packed slots whose runs are whole bytes take this kernel on the bytes
//! (`bits.rs`); the packed kernels of runs that change the slots on the
//! way or start inside a byte (`pack`, `unpack`, `packed runs`) walk
//! their runs in `bits.rs` and `subbyte.rs`.

use super::kernels::{note, RelayoutKernel};
use super::loops::{self, divisor_up_to, each, in_source_order, Same};
use super::modes::{Mode, Nest, MODES};
use super::simd;
use super::strided::any_box;
use super::tuning::{RUNS_AHEAD, TILE_RUNS, TILE_RUN_BYTES};

/// [`RelayoutKernel::Runs`]: box `n`'s first loop is runs contiguous on
/// both sides, each copied whole under the other loops.
#[inline(never)]
pub(crate) fn runs<T: Copy + 'static>(n: &Nest, src: &[T], dst: &mut [T]) {
    note(RelayoutKernel::Runs);
    let Some((m0, rest)) = n.loops().split_first() else {
        // A box of one element.
        return any_box::<T, Same>(n, src, dst);
    };
    let len = m0.range as usize;
    // Runs in source order: the source is read front to back and the
    // writes spread over a few destination streams, which measured
    // faster than the reverse (one write stream, reads gathered from
    // several rows) on rows <-> `T(8,128)`.
    let mut order = [Mode {
        range: 1,
        src: 0,
        dst: 0,
    }; MODES];
    let k = rest.len();
    order[..k].copy_from_slice(rest);
    in_source_order(&mut order[..k]);
    let tiles = tiles_of_runs(&mut order, k, len * core::mem::size_of::<T>());
    // Runs of a line or more: the destination lines of the run
    // `RUNS_AHEAD` runs later are asked for (for writing) as each run is
    // copied. (Shorter runs share lines with their neighbours, and the
    // requests cost more than they saved: 0.75x on runs of 4 bytes.)
    let line = (64 / core::mem::size_of::<T>().max(1)).max(1);
    // Not where the innermost loop goes on in the destination from each
    // run: the hardware follows that stream, and the requests measured
    // 0.8x on `f64` runs of 32 written one after another.
    let stream = k > 0 && order[0].dst == len as u64;
    let ahead = if len >= line && !stream {
        RUNS_AHEAD
    } else {
        0
    };
    tiles.each_ahead(&mut order, n.src, n.dst, ahead, |s, d, later| {
        if let Some((_, x)) = later {
            for l in (0..len).step_by(line) {
                simd::prefetch_write(dst, x + l);
            }
        }
        dst[d..d + len].copy_from_slice(&src[s..s + len]);
    });
}

/// A tile side cut out of a loop whose range no side of 4 to
/// [`TILE_RUNS`] runs divides: whole tiles of [`TILE_RUNS`] runs, then
/// the `rest` runs as tiles of that side, walked after them.
#[derive(Clone, Copy)]
struct Cut {
    /// Where the tile's loop (steps within a tile) is in the order.
    inner: usize,
    /// Where the loop over whole tiles is (`None`: one whole tile).
    outer: Option<usize>,
    /// Whole tiles.
    tiles: u64,
    /// Runs left after them (1 to `TILE_RUNS - 1`).
    rest: u64,
    /// The loop's strides.
    src: u64,
    dst: u64,
}

/// The walk [`tiles_of_runs`] made: its loops (`order[..k]`), and the
/// loops cut into whole tiles and a rest.
struct Tiles {
    k: usize,
    cuts: [Option<Cut>; 2],
}

impl Tiles {
    /// Calls `f(src, dst, later)` at every run, starting at `(src, dst)`: the
    /// whole tiles first, then those of each rest (the loops' ranges in
    /// `order` set for each part in turn).
    /// `later`: the offsets of the run `ahead` runs later in the same part
    /// (`None` near its end, and always for `ahead` 0).
    fn each_ahead(
        &self,
        order: &mut [Mode; MODES],
        src: u64,
        dst: u64,
        ahead: usize,
        mut f: impl FnMut(usize, usize, Option<(usize, usize)>),
    ) {
        for part in 0..4u32 {
            let (mut s, mut d) = (src, dst);
            let mut live = true;
            for (i, cut) in self.cuts.iter().enumerate() {
                let rest = part >> i & 1 == 1;
                match cut {
                    Some(c) => {
                        let whole = c.tiles * TILE_RUNS as u64;
                        order[c.inner].range = if rest { c.rest } else { TILE_RUNS as u64 };
                        if let Some(o) = c.outer {
                            order[o].range = if rest { 1 } else { c.tiles };
                        }
                        if rest {
                            s = s.wrapping_add(whole.wrapping_mul(c.src));
                            d = d.wrapping_add(whole.wrapping_mul(c.dst));
                        }
                    }
                    None => live &= !rest,
                }
            }
            if live && ahead == 0 {
                each(&order[..self.k], s, d, |s, d| f(s, d, None));
            } else if live {
                loops::each_ahead(&order[..self.k], s, d, ahead, &mut f);
            }
        }
    }
}

/// Short runs (up to [`TILE_RUN_BYTES`]) whose next run in the source
/// (`order[0]`, the loops in source order) is far away in the destination:
/// the walk goes by tiles of up to [`TILE_RUNS`] x [`TILE_RUNS`] runs of
/// that loop and of the one along which the destination is contiguous,
/// so that a tile reads a few source streams and writes a few destination
/// streams, each many runs long, instead of writing one run to each of
/// hundreds of pages in turn. A side is the largest divisor of the loop's
/// range up to [`TILE_RUNS`]; where that is below 4 (`237 = 3 x 79`), the
/// loop is cut into whole tiles of [`TILE_RUNS`] and a rest walked after
/// them ([`Cut`]). The loops are rewritten in place; the walk keeps them
/// (`order[..k]`, unchanged where no tile applies).
fn tiles_of_runs(order: &mut [Mode; MODES], k: usize, run_bytes: usize) -> Tiles {
    let untiled = Tiles {
        k,
        cuts: [None, None],
    };
    if k < 2 || k + 2 > MODES || run_bytes > TILE_RUN_BYTES {
        return untiled;
    }
    // The loop along which the destination continues the run.
    let Some(j) = (1..k).min_by_key(|&i| order[i].dst) else {
        return untiled;
    };
    let (a, b) = (order[0], order[j]);
    if b.dst >= a.dst {
        return untiled;
    }
    // Each side's steps, and whether its loop is cut.
    let side = |l: Mode| {
        let c = divisor_up_to(l.range, TILE_RUNS) as u64;
        if c >= 4 {
            Some((c, false))
        } else if l.range > TILE_RUNS as u64 {
            Some((TILE_RUNS as u64, true))
        } else {
            None
        }
    };
    let (Some((ca, cut_a)), Some((cb, cut_b))) = (side(a), side(b)) else {
        return untiled;
    };
    // The other loops (still in source order), then the loops over tiles
    // put in among them after those of equal source stride.
    let mut outer = [a; MODES];
    let mut m = 0;
    for (i, l) in order[..k].iter().enumerate() {
        if i != 0 && i != j && l.range > 1 {
            outer[m] = *l;
            m += 1;
        }
    }
    let scaled = |l: Mode, c: u64| Mode {
        range: l.range / c,
        src: l.src * c,
        dst: l.dst * c,
    };
    let mut put = |l: Mode| {
        let at = outer[..m].iter().take_while(|o| o.src <= l.src).count();
        outer.copy_within(at..m, at + 1);
        outer[at] = l;
        m += 1;
        at
    };
    let mut outer_a = put(scaled(a, ca));
    let outer_b = put(scaled(b, cb));
    if outer_b <= outer_a {
        outer_a += 1;
    }
    order[0] = Mode { range: ca, ..a };
    order[1] = Mode { range: cb, ..b };
    // Loops of one step are no loops (the tiles' own have at least 4).
    let mut n = 2;
    let (mut at_a, mut at_b) = (None, None);
    for (i, l) in outer[..m].iter().enumerate() {
        if l.range > 1 {
            if i == outer_a {
                at_a = Some(n);
            } else if i == outer_b {
                at_b = Some(n);
            }
            order[n] = *l;
            n += 1;
        }
    }
    let cut = |yes: bool, inner: usize, outer: Option<usize>, l: Mode| {
        yes.then_some(Cut {
            inner,
            outer,
            tiles: l.range / TILE_RUNS as u64,
            rest: l.range % TILE_RUNS as u64,
            src: l.src,
            dst: l.dst,
        })
    };
    Tiles {
        k: n,
        cuts: [cut(cut_a, 0, at_a, a), cut(cut_b, 1, at_b, b)],
    }
}

#[cfg(test)]
mod tests {
    extern crate alloc;

    use alloc::vec;
    use alloc::vec::Vec;

    /// The tiled walk of runs visits every run of the box once, where a
    /// tile loop is cut into whole tiles and a rest (ranges 37, 19 and
    /// 34 have no side of 4 to 16), as where it is not (40, 36).
    #[test]
    fn tiles_of_runs_visit_every_run_once() {
        use super::super::loops::each;
        use super::super::modes::{Mode, MODES};
        use super::tiles_of_runs;
        let m = |range, src, dst| Mode { range, src, dst };
        // Loops in source order (runs of 5 elements): the source's next
        // run first, the destination's among the others.
        for (loops, cuts) in [
            (vec![m(37, 5, 200), m(40, 185, 5)], 1),
            (vec![m(40, 5, 185), m(37, 200, 5)], 1),
            (vec![m(19, 5, 170), m(34, 95, 5)], 2),
            (vec![m(17, 5, 170), m(3, 85, 2890), m(34, 255, 5)], 2),
            (vec![m(40, 5, 180), m(36, 200, 5)], 0),
        ] {
            let mut order = [m(1, 0, 0); MODES];
            order[..loops.len()].copy_from_slice(&loops);
            let tiles = tiles_of_runs(&mut order, loops.len(), 40);
            assert_eq!(tiles.cuts.iter().flatten().count(), cuts, "{loops:?}");
            let mut seen = Vec::new();
            let mut later = Vec::new();
            tiles.each_ahead(&mut order, 3, 7, 2, |s, d, l| {
                seen.push((s, d));
                later.push(l);
            });
            // The run two later, where the part has one: the destination
            // lines that `runs` asks for ahead are the ones it writes.
            assert!(later.iter().any(Option::is_some), "{loops:?}");
            for (i, l) in later.iter().enumerate() {
                if let Some(l) = l {
                    assert_eq!(Some(*l), seen.get(i + 2).copied(), "{loops:?} at {i}");
                }
            }
            let mut all = Vec::new();
            each(&loops, 3, 7, |s, d| all.push((s, d)));
            assert_ne!(seen, all, "{loops:?}: not tiled");
            seen.sort_unstable();
            all.sort_unstable();
            assert_eq!(seen, all, "{loops:?}");
        }
    }
}
