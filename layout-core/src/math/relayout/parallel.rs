//! The `rayon` feature: a relayout cut into parts that write disjoint
//! ranges of the destination, copied on rayon's threads. Each box's
//! outermost loop (the largest destination stride) is split; parts whose
//! ranges overlap (those of the boxes of one outer step: a tiled
//! dimension's whole tiles and its rest) go to one thread together, one
//! after the other, so that every thread writes only its own range.

extern crate alloc;
extern crate std;

use alloc::vec::Vec;
use rayon::prelude::*;

use super::modes::Nest;
use super::tuning::PART_LINES;

/// One part: a box with its outermost loop cut to a range, and the slots
/// `lo..hi` of the destination it writes.
#[derive(Clone, Copy)]
pub(crate) struct Part {
    pub nest: Nest,
    pub lo: u64,
    pub hi: u64,
}

/// The parts of every box, sorted by the start of their destination
/// range: each box's outermost loop cut into about `per_thread` parts per
/// thread (at least one step each); `None` when a box cannot be split that
/// way. Parts of different boxes may overlap ([`run`] keeps those on one
/// thread).
///
/// Each part's range is widened to whole `granule`s of slots (1 for whole
/// slots; for packed ones, the slots whose first starts on a whole byte:
/// 2 for nibbles), so that a part's range is whole bytes of `dst`; parts
/// that then share a byte overlap, and [`run`] keeps them on one thread.
///
/// Where a step of that loop moves less than a cache line of the source
/// (`src_line` source slots), the parts are of whole lines, as many as
/// make one part for each thread (the last shorter where the lines do not
/// split evenly) and at least [`PART_LINES`] each: cut finer, the parts
/// read the same lines, or each a short stretch of every source row, and
/// each transposes narrow columns.
pub(crate) fn parts(
    mut each_box: impl FnMut(&mut dyn FnMut(&Nest)),
    per_thread: u64,
    src_line: u64,
    granule: u64,
) -> Option<Vec<Part>> {
    let g = granule.max(1);
    let down = |x: u64| x / g * g;
    let up = |x: u64| x.div_ceil(g).saturating_mul(g);
    let threads = rayon::current_num_threads().max(1) as u64;
    let mut out = Vec::new();
    let mut ok = true;
    each_box(&mut |n: &Nest| {
        if !ok {
            return;
        }
        let modes = &n.modes[..n.len];
        // A refused allocation: the copy stays on one thread.
        if out.try_reserve(1).is_err() {
            ok = false;
            return;
        }
        let Some((top, inner)) = modes.split_last() else {
            out.push(Part {
                nest: *n,
                lo: down(n.dst),
                hi: up(n.dst + 1),
            });
            return;
        };
        // Slots the inner loops reach past a step of the outer one.
        let span = inner.iter().try_fold(1u64, |s, m| {
            (m.range - 1)
                .checked_mul(m.dst)
                .and_then(|x| x.checked_add(s))
        });
        let Some(span) = span.filter(|&s| s <= top.dst) else {
            ok = false;
            return;
        };
        let least = if top.src < src_line {
            // Whole lines, as many for each part as make one part for
            // each thread (the last part shorter where the lines do not
            // split evenly), and at least [`PART_LINES`]: every part
            // starts at a whole line, and reads as long a stretch of each
            // source row as it can.
            let line = src_line.div_ceil(top.src.max(1));
            let lines = top.range.div_ceil(line);
            line.saturating_mul(lines.div_ceil(threads).max(PART_LINES))
        } else {
            1
        };
        // (Whole multiples of `least`: every part starts where the box
        // does in its lines.)
        let step = top
            .range
            .div_ceil(threads.saturating_mul(per_thread.max(1)))
            .max(least)
            .checked_next_multiple_of(least)
            .unwrap_or(top.range)
            .max(1);
        if out.try_reserve(top.range.div_ceil(step) as usize).is_err() {
            ok = false;
            return;
        }
        let mut k = 0;
        while k < top.range {
            let count = step.min(top.range - k);
            let mut part = *n;
            part.modes[n.len - 1].range = count;
            part.src = n.src + k * top.src;
            part.dst = n.dst + k * top.dst;
            out.push(Part {
                nest: part,
                lo: down(part.dst),
                hi: up(part.dst + (count - 1) * top.dst + span),
            });
            k += count;
        }
    });
    if !ok {
        return None;
    }
    out.sort_unstable_by_key(|p| p.lo);
    Some(out)
}

/// Runs `f` on every part with its own piece of `dst` (`scale` slots of
/// `dst` per slot of the parts' ranges, `1` for whole slots), the part's
/// destination offsets made relative to that piece. `parts` are sorted by
/// their start; parts whose ranges overlap (the boxes of one outer step:
/// the whole tiles and the rest of a tiled dimension) run one after the
/// other on one thread, as one job with the union of their ranges.
/// `false`, with nothing copied, where the parts make fewer than two jobs
/// (the caller's copy on its own thread does the same work, with the
/// kernels the plan decided) or an allocation is refused.
pub(crate) fn run<T: Send>(
    parts: Vec<Part>,
    dst: &mut [T],
    unit: impl Fn(u64) -> Option<usize> + Sync,
    f: impl Fn(&Nest, &mut [T]) + Sync,
) -> bool {
    // The jobs: runs of parts whose ranges overlap, each with the union.
    let mut groups: Vec<(usize, usize, u64, u64)> = Vec::new();
    // A refused allocation: nothing done, the caller copies on one thread.
    if groups.try_reserve_exact(parts.len()).is_err() {
        return false;
    }
    for (i, p) in parts.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if p.lo < g.3 => (g.1, g.3) = (i + 1, g.3.max(p.hi)),
            _ => groups.push((i, i + 1, p.lo, p.hi)),
        }
    }
    if groups.len() < 2 {
        return false;
    }
    let mut jobs = Vec::new();
    if jobs.try_reserve_exact(groups.len()).is_err() {
        return false;
    }
    let mut rest: &mut [T] = dst;
    let mut at = 0usize;
    for &(first, end, lo, hi) in &groups {
        let (Some(lo_at), Some(hi_at)) = (unit(lo), unit(hi)) else {
            return false;
        };
        let (Some(skip), Some(len)) = (lo_at.checked_sub(at), hi_at.checked_sub(lo_at)) else {
            return false;
        };
        if skip + len > rest.len() {
            return false;
        }
        let tail = core::mem::take(&mut rest);
        let (_, tail) = tail.split_at_mut(skip);
        let (mine, tail) = tail.split_at_mut(len);
        rest = tail;
        at = hi_at;
        jobs.push((&parts[first..end], lo, mine));
    }
    jobs.into_par_iter().for_each(|(group, lo, mine)| {
        for p in group {
            let mut n = p.nest;
            n.dst -= lo;
            f(&n, mine);
        }
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The step counts of the parts of one box.
    fn steps(loops: &[(u64, u64, u64)], src_line: u64) -> Vec<u64> {
        let n = Nest::of(loops, 0, 0);
        let parts = parts(|f| f(&n), 4, src_line, 1).unwrap();
        parts
            .iter()
            .map(|p| p.nest.loops().last().unwrap().range)
            .collect()
    }

    #[test]
    fn parts_of_a_source_run_keep_whole_lines() {
        let threads = rayon::current_num_threads().max(1) as u64;
        // Loops that are the source's run: `f16` rows of 446 x 304 under
        // a loop of 256 (32 slots a line), `s64` rows of 61472 under a
        // loop of 112 (8 a line), and a loop of 786 nibbles (128 a line,
        // which no number of whole lines splits evenly between two
        // threads). One part for each thread, each of whole lines (the
        // last one shorter where the lines do not split evenly) and of
        // at least two, so that every part starts at a whole line.
        let f16_rows = [(446, 77824, 1), (304, 256, 446), (256, 1, 135_584)];
        let s64_rows = [(61472, 112, 1), (112, 1, 61472)];
        let nibbles = [(256, 786, 1), (564, 201_216, 256), (786, 1, 144_384)];
        for (loops, range, line) in [
            (&f16_rows[..], 256, 32),
            (&s64_rows[..], 112, 8),
            (&nibbles[..], 786, 128),
        ] {
            let got = steps(loops, line);
            assert_eq!(got.iter().sum::<u64>(), range);
            let want = line * range.div_ceil(line).div_ceil(threads).max(PART_LINES);
            let (last, whole) = got.split_last().unwrap();
            assert!(whole.iter().all(|&s| s == want), "{got:?}");
            assert_eq!(*last, range - want * whole.len() as u64, "{got:?}");
            assert_eq!(got.len() as u64, range.div_ceil(want));
            assert!(got.len() as u64 <= threads, "{got:?}");
        }
        // A loop of 32 `s32` (16 a line): one part, not one of a line
        // for each thread. A loop of 48 (three lines): two lines and one
        // on two threads.
        let short = [(204_820, 32, 1), (32, 1, 204_820)];
        assert_eq!(steps(&short, 16), [32]);
        let three = [(204_820, 48, 1), (48, 1, 204_820)];
        let want: &[u64] = if threads > 1 { &[32, 16] } else { &[48] };
        assert_eq!(steps(&three, 16), want);
        // An outer loop whose steps are a line or more: four parts a
        // thread.
        let wide = [(16, 1, 1), (1000, 16, 16)];
        let got = steps(&wide, 16);
        assert_eq!(
            got.len() as u64,
            1000u64.div_ceil(1000u64.div_ceil(4 * threads))
        );
    }
}
