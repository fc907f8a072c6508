//! [`RelayoutKernel::PackedChunks`](super::RelayoutKernel::PackedChunks):
//! packed slots (1, 2 or 4 bits, the same width on both sides) a chunk at
//! a time, for boxes whose runs are too short for the blocks: `(2,1)`
//! pairs or `(4,1)` quads that a transpose moves a nibble at a time,
//! planes woven, blocks of a few rows. And
//! [`RelayoutKernel::Chunks`](super::RelayoutKernel::Chunks): whole slots
//! the same way, where the blocks would move a few elements at a time,
//! the runs copied rather than unpacked and packed.
//!
//! A chunk takes the loops that continue the source's runs and the loops
//! that continue the destination's, the shorter side first, as far as
//! [`CHUNK`] bytes allow (a loop that does not fit whole gives its
//! largest divisor that does). A source run may step over a gap of
//! padding no longer than itself (a `(4,1)` sub-tile of two rows holds 2
//! slots, then 2 of padding); a destination run may not (its padding is
//! written before, and kept). Its source runs are unpacked to a byte per
//! slot on the stack, gaps and all, the bytes are moved from the source's
//! order to the destination's there, and the destination runs are packed
//! back. Every chunk of a box has the same shape, planned once
//! ([`Chunk::plan`]); the loops left over walk the chunks.

use super::loops::{divisor_up_to, each, each_ahead};
use super::modes::{Mode, Nest};
use super::simd;
use super::subbyte::{pack, unpack};
use super::tuning::{CHUNK, CHUNK_RUN};

/// The most loops a chunked box has (its own, and two more where a loop
/// is cut for the chunk).
const LOOPS: usize = 16;

/// The longest unit the move takes at a step (bytes).
const UNIT: usize = 16;

/// A loop of one step, which moves nothing.
const NONE: Mode = Mode {
    range: 1,
    src: 0,
    dst: 0,
};

/// Loops, innermost first, and how many.
#[derive(Clone, Copy, Debug)]
struct Loops {
    modes: [Mode; LOOPS],
    len: usize,
}

impl Loops {
    const EMPTY: Loops = Loops {
        modes: [NONE; LOOPS],
        len: 0,
    };

    fn push(&mut self, m: Mode) {
        if let Some(x) = self.modes.get_mut(self.len) {
            *x = m;
            self.len += 1;
        }
    }

    fn get(&self) -> &[Mode] {
        &self.modes[..self.len]
    }

    /// Keeps `c` of loop `i`'s steps (a divisor of its range) and adds
    /// the rest as an outer loop at the end: `Some(true)` where `c` is all
    /// of them (nothing changes), `Some(false)` where the loop was cut,
    /// `None` (nothing changes) where `c` is below 2 or the outer loop has
    /// no room.
    fn take(&mut self, i: usize, c: u64) -> Option<bool> {
        let m = self.modes[i];
        if c < 2 {
            return None;
        }
        if c == m.range {
            return Some(true);
        }
        if self.len == LOOPS {
            return None;
        }
        self.push(Mode {
            range: m.range / c,
            src: m.src.checked_mul(c)?,
            dst: m.dst.checked_mul(c)?,
        });
        self.modes[i].range = c;
        Some(false)
    }
}

/// Which of a chunk's runs a loop continues.
const IN_SRC: u8 = 1;
const IN_DST: u8 = 2;

/// The shape of every chunk of one box.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chunk {
    /// The loops that walk the chunks (source and destination strides).
    outer: Loops,
    /// The length of each source run, and the loops of the runs' starts:
    /// source stride, then stride in the unpacked bytes.
    run_s: usize,
    rows: Loops,
    /// The length of each destination run, and the loops of the runs'
    /// starts: stride in the bytes to pack, then destination stride.
    run_d: usize,
    cols: Loops,
    /// The loops of the move from the unpacked bytes to the bytes to
    /// pack (strides in each), the two longest first; each step moves
    /// `unit` bytes, `perm[k]` to `k`.
    within: Loops,
    unit: usize,
    perm: [u16; UNIT],
}

impl Chunk {
    /// The chunks of box `n`: `None` for a box of more than 14 loops, or
    /// where the chunk's source or destination runs would be shorter than
    /// [`CHUNK_RUN`] slots.
    #[inline(never)]
    pub(crate) fn plan(n: &Nest) -> Option<Chunk> {
        Self::plan_in(n, CHUNK as u64)
    }

    /// [`Chunk::plan`] with buffers of `most` slots.
    #[inline(never)]
    pub(crate) fn plan_in(n: &Nest, most: u64) -> Option<Chunk> {
        if n.len + 2 > LOOPS {
            return None;
        }
        let mut modes = Loops::EMPTY;
        for &m in n.loops() {
            modes.push(m);
        }
        let mut role = [0u8; LOOPS];
        // The source's runs: their span (from the first slot to past the
        // last, gaps included) and how many a chunk has (its loops outside
        // them); the destination's: their length. The unpacked bytes are
        // `span * runs`, the slots of a chunk `size`.
        let (mut span, mut next_d, mut size, mut runs) = (1u64, 1u64, 1u64, 1u64);
        let (mut open_s, mut open_d) = (true, true);
        while open_s || open_d {
            // The side whose run is shorter grows first.
            if open_s && (!open_d || span <= next_d) {
                // The loop that goes on from the span's end, or failing
                // that the one of the least stride up to twice the span: a
                // gap of padding (a `(4,1)` sub-tile of two rows).
                let pick = (0..modes.len)
                    .filter(|&i| role[i] & IN_SRC == 0)
                    .filter(|&i| (span..=2 * span).contains(&modes.modes[i].src))
                    .min_by_key(|&i| modes.modes[i].src);
                let grown = pick.and_then(|i| {
                    let m = modes.modes[i];
                    let span_of = |c: u64| (c - 1).checked_mul(m.src)?.checked_add(span);
                    if role[i] != 0 {
                        // In the chunk already, for the destination's run:
                        // now inside each source run.
                        let (new, r) = (span_of(m.range)?, runs / m.range);
                        return (new.checked_mul(r)? <= most).then_some((i, new, r, true));
                    }
                    // All of its steps that fit, or the largest divisor
                    // that does (the rest an outer loop; the run ends).
                    let room = (most / runs).checked_sub(span)? / m.src.max(1) + 1;
                    let c = divisor_up_to(m.range, room.min(most / size) as usize) as u64;
                    let whole = modes.take(i, c)?;
                    size *= c;
                    Some((i, span_of(c)?, runs, whole))
                });
                match grown {
                    Some((i, new, r, more)) => {
                        role[i] |= IN_SRC;
                        (span, runs, open_s) = (new, r, more);
                    }
                    None => open_s = false,
                }
                continue;
            }
            // The destination's runs go on only where they are contiguous.
            let found =
                (0..modes.len).find(|&i| role[i] & IN_DST == 0 && modes.modes[i].dst == next_d);
            let grown = found.and_then(|i| {
                let m = modes.modes[i];
                if role[i] != 0 {
                    return Some((i, m.range, true));
                }
                let room = (most / size).min(most / span.checked_mul(runs)?);
                let c = divisor_up_to(m.range, room as usize) as u64;
                let whole = modes.take(i, c)?;
                (size, runs) = (size * c, runs * c);
                Some((i, c, whole))
            });
            match grown.and_then(|(i, r, more)| Some((i, next_d.checked_mul(r)?, more))) {
                Some((i, at, more)) => {
                    role[i] |= IN_DST;
                    (next_d, open_d) = (at, more);
                }
                None => open_d = false,
            }
        }
        let next_s = span;
        let (run_s, run_d) = (usize::try_from(next_s).ok()?, usize::try_from(next_d).ok()?);
        if run_s < CHUNK_RUN || run_d < CHUNK_RUN {
            return None;
        }
        let mut c = Chunk {
            outer: Loops::EMPTY,
            run_s,
            rows: Loops::EMPTY,
            run_d,
            cols: Loops::EMPTY,
            within: Loops::EMPTY,
            unit: 1,
            perm: [0; UNIT],
        };
        // The unpacked bytes hold the source runs one after another, the
        // bytes to pack the destination runs.
        let (mut step_s, mut step_d) = (next_s, next_d);
        for (i, &m) in modes.get().iter().enumerate() {
            if role[i] == 0 {
                if m.range > 1 {
                    c.outer.push(m);
                }
                continue;
            }
            let us = if role[i] & IN_SRC != 0 {
                m.src
            } else {
                c.rows.push(Mode {
                    range: m.range,
                    src: m.src,
                    dst: step_s,
                });
                step_s *= m.range;
                step_s / m.range
            };
            let ud = if role[i] & IN_DST != 0 {
                m.dst
            } else {
                c.cols.push(Mode {
                    range: m.range,
                    src: step_d,
                    dst: m.dst,
                });
                step_d *= m.range;
                step_d / m.range
            };
            c.within.push(Mode {
                range: m.range,
                src: us,
                dst: ud,
            });
        }
        c.take_unit();
        // The two longest loops inside: the fewest steps of the others.
        let w = &mut c.within.modes[..c.within.len];
        for k in 0..w.len().min(2) {
            let (longest, _) = w.iter().enumerate().skip(k).max_by_key(|(_, m)| m.range)?;
            w.swap(k, longest);
        }
        Some(c)
    }

    /// How many source runs a chunk unpacks and the span of each (in
    /// slots, gaps included), then how many destination runs it packs and
    /// the length of each.
    pub(crate) fn shape(&self) -> (u64, u64, u64, u64) {
        let count = |l: &Loops| l.get().iter().map(|m| m.range).product::<u64>();
        (
            count(&self.rows),
            self.run_s as u64,
            count(&self.cols),
            self.run_d as u64,
        )
    }

    /// Makes the move's first loops one step of `unit` bytes (2, 4, 8 or
    /// 16) where they are a run of that many in the bytes to pack (a
    /// loop cut for it where only a part fits): each step writes them at
    /// once, gathered from `perm` (their offsets in the unpacked bytes).
    /// Where the destination's first loop has an odd number of steps,
    /// the move keeps bytes as steps.
    fn take_unit(&mut self) {
        let mut w = self.within;
        // The unit's loops are moved to the front, `k` of them so far.
        let (mut unit, mut k) = (1u64, 0);
        while let Some(i) = (k..w.len).find(|&i| w.modes[i].dst == unit) {
            let m = w.modes[i];
            // The largest power of two of the loop's steps that fits.
            let room = UNIT as u64 / unit;
            let mut c = 1;
            while c * 2 <= room && m.range.is_multiple_of(c * 2) {
                c *= 2;
            }
            let Some(whole) = w.take(i, c) else {
                break;
            };
            w.modes.swap(k, i);
            (unit, k) = (unit * c, k + 1);
            if !whole {
                break;
            }
        }
        if unit < 2 {
            return;
        }
        for (at, p) in self.perm.iter_mut().enumerate().take(unit as usize) {
            let (mut rest, mut off) = (at as u64, 0);
            for m in &w.modes[..k] {
                off += rest % m.range * m.src;
                rest /= m.range;
            }
            *p = off as u16;
        }
        w.modes.copy_within(k..w.len, 0);
        w.len -= k;
        (self.within, self.unit) = (w, unit as usize);
    }

    /// Copies box `n` (planned as `self`) of `W`-bit slots: each source
    /// run unpacked, each destination run packed. Out of line: its two
    /// buffers (16 KiB) are on the stack only for these copies.
    #[inline(never)]
    pub(crate) fn copy<const W: usize>(&self, n: &Nest, src: &[u8], dst: &mut [u8]) {
        let (mut a, mut b) = ([0u8; CHUNK], [0u8; CHUNK]);
        self.walk(
            n,
            (&mut a, &mut b),
            |s| simd::prefetch(src, s / (8 / W)),
            |s, run| unpack::<W>(src, s, run),
            |run, d| pack::<W>(run, dst, d),
        );
    }

    /// Copies box `n` (planned as `self`, in buffers of `K` slots) of
    /// whole slots `T`: each run copied whole.
    #[inline(never)]
    pub(crate) fn copy_slots<T: Copy, const K: usize>(&self, n: &Nest, src: &[T], dst: &mut [T]) {
        let Some(&first) = src.first() else {
            return;
        };
        let (mut a, mut b) = ([first; K], [first; K]);
        self.walk(
            n,
            (&mut a, &mut b),
            |s| simd::prefetch(src, s),
            |s, run| run.copy_from_slice(&src[s..s + run.len()]),
            |run, d| dst[d..d + run.len()].copy_from_slice(run),
        );
    }

    /// Walks the chunks of box `n`: each chunk's source runs read into
    /// `a` (`get(source offset, run)`), moved to `b`, and its destination
    /// runs written from there (`put(run, destination offset)`); while a
    /// chunk is moved, the first line of each source run of the next one
    /// is asked for (`fetch`: they are often far apart).
    #[inline(always)]
    fn walk<T: Copy, const K: usize>(
        &self,
        n: &Nest,
        (a, b): (&mut [T; K], &mut [T; K]),
        fetch: impl Fn(usize),
        mut get: impl FnMut(usize, &mut [T]),
        mut put: impl FnMut(&[T], usize),
    ) {
        let (rows, cols) = (self.rows.get(), self.cols.get());
        let (rs, rd) = (self.run_s, self.run_d);
        each_ahead(self.outer.get(), n.src, n.dst, 1, |s, d, next| {
            if let Some((x, _)) = next {
                each(rows, x as u64, 0, |s, _| fetch(s));
            }
            each(rows, s as u64, 0, |s, at| get(s, &mut a[at..at + rs]));
            self.move_all(a, b);
            each(cols, 0, d as u64, |at, d| put(&b[at..at + rd], d));
        });
    }

    /// Moves a chunk from the source's order (`a`) to the destination's
    /// (`b`), a unit at a step.
    #[inline(always)]
    fn move_all<T: Copy, const K: usize>(&self, a: &[T; K], b: &mut [T; K]) {
        match self.unit {
            2 => self.move_units::<T, 2, K>(a, b),
            4 => self.move_units::<T, 4, K>(a, b),
            8 => self.move_units::<T, 8, K>(a, b),
            16 => self.move_units::<T, 16, K>(a, b),
            _ => self.move_units::<T, 1, K>(a, b),
        }
    }
}

impl Chunk {
    /// Moves a chunk's bytes from the source's order (`a`) to the
    /// destination's (`b`), `U` at a step: each step's bytes gathered
    /// from `perm`'s offsets (one byte a step: at each step's offset).
    /// The offsets are below [`CHUNK`] (masked, so that no bound is
    /// tested).
    #[inline(always)]
    fn move_units<T: Copy, const U: usize, const K: usize>(&self, a: &[T; K], b: &mut [T; K]) {
        let m = K - 1;
        let w = self.within.get();
        let (m0, m1) = (
            w.first().copied().unwrap_or(NONE),
            w.get(1).copied().unwrap_or(NONE),
        );
        let rest = w.get(2..).unwrap_or(&[]);
        let (r0, s0, d0) = (m0.range as usize, m0.src as usize, m0.dst as usize);
        let (r1, s1, d1) = (m1.range as usize, m1.src as usize, m1.dst as usize);
        let off: [usize; U] = core::array::from_fn(|k| usize::from(self.perm[k % UNIT]));
        let whole = off.iter().enumerate().all(|(k, &p)| p == k);
        each(rest, 0, 0, |s, d| {
            for j in 0..r1 {
                let (s, d) = (s + j * s1, d + j * d1);
                for i in 0..r0 {
                    let (s, d) = (s + i * s0, d + i * d0);
                    if U == 1 {
                        b[d & m] = a[s & m];
                        continue;
                    }
                    let to = b.get_mut(d..).and_then(|x| x.first_chunk_mut::<U>());
                    let from = a.get(s..).and_then(|x| x.first_chunk::<U>());
                    match (to, from) {
                        (Some(y), Some(x)) if whole => *y = *x,
                        (Some(y), _) => *y = core::array::from_fn(|k| a[(s + off[k]) & m]),
                        _ => {}
                    }
                }
            }
        });
    }
}

/// Copies box `n` of `w`-bit slots (1, 2 or 4) in chunks: `false`, with
/// nothing copied, where [`Chunk::plan`] takes no chunks of it.
pub(crate) fn copy(n: &Nest, w: usize, src: &[u8], dst: &mut [u8]) -> bool {
    let Some(c) = Chunk::plan(n) else {
        return false;
    };
    match w {
        1 => c.copy::<1>(n, src, dst),
        2 => c.copy::<2>(n, src, dst),
        4 => c.copy::<4>(n, src, dst),
        _ => return false,
    }
    true
}

/// The slots of each buffer of the chunks of whole slots of `size` bytes
/// ([`CHUNK`] bytes), or `None` for other sizes.
const fn slots_of(size: usize) -> Option<usize> {
    match size {
        1 | 2 | 4 | 8 | 16 => Some(CHUNK / size),
        _ => None,
    }
}

/// The chunks of box `n` of whole slots of `size` bytes.
pub(crate) fn plan_whole(n: &Nest, size: usize) -> Option<Chunk> {
    Chunk::plan_in(n, slots_of(size)? as u64)
}

/// Copies box `n` of whole slots `T` in chunks (two buffers of [`CHUNK`]
/// bytes): `false`, with nothing copied, where no chunks plan. Out of
/// line: the plan is on the stack only for these copies.
#[inline(never)]
pub(crate) fn copy_whole<T: Copy>(n: &Nest, src: &[T], dst: &mut [T]) -> bool {
    fn go<T: Copy, const K: usize>(n: &Nest, src: &[T], dst: &mut [T]) -> bool {
        match Chunk::plan_in(n, K as u64) {
            Some(c) => {
                c.copy_slots::<T, K>(n, src, dst);
                true
            }
            None => false,
        }
    }
    // (Tested in a constant: a build without optimisations compiles only
    // the buffers of `T`'s size.)
    match const { slots_of(core::mem::size_of::<T>()) } {
        Some(8192) => go::<T, 8192>(n, src, dst),
        Some(4096) => go::<T, 4096>(n, src, dst),
        Some(2048) => go::<T, 2048>(n, src, dst),
        Some(1024) => go::<T, 1024>(n, src, dst),
        Some(512) => go::<T, 512>(n, src, dst),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(range: u64, src: u64, dst: u64) -> Mode {
        Mode { range, src, dst }
    }

    fn nest(loops: &[(u64, u64, u64)]) -> Nest {
        Nest::of(loops, 0, 0)
    }

    /// Slots in each chunk.
    fn size(c: &Chunk) -> usize {
        c.run_d
            * c.cols
                .get()
                .iter()
                .map(|m| m.range as usize)
                .product::<usize>()
    }

    /// The unpacked bytes of each chunk (gaps included).
    fn unpacked(c: &Chunk) -> usize {
        c.run_s
            * c.rows
                .get()
                .iter()
                .map(|m| m.range as usize)
                .product::<usize>()
    }

    #[test]
    fn chunks_take_both_runs_as_far_as_they_fit() {
        // Four planes woven (`s4[39704,4,512]` from `(2,1)` tiles to
        // rows): the source runs are whole tiles, the destination runs a
        // quarter of a row.
        let n = nest(&[
            (4, 20332544, 1),
            (128, 2, 4),
            (4, 2048, 512),
            (2, 1, 2048),
            (8, 256, 4096),
            (2481, 8192, 32768),
        ]);
        let c = Chunk::plan(&n).unwrap();
        assert_eq!((size(&c), c.run_s, c.run_d), (8192, 2048, 512));
        assert_eq!(c.rows.get(), &[m(4, 20332544, 2048)]);
        assert_eq!(c.cols.len, 2);
        assert_eq!(
            c.outer.get().iter().map(|m| m.range).product::<u64>(),
            4 * 2481
        );
        // A unit of 16 (4 planes by 4 columns, the 128 columns' loop cut
        // at 4); the longest loop left moves inside.
        assert_eq!((c.unit, c.within.modes[0].range), (16, 32));
        // A loop larger than the room left gives its largest divisor
        // (1250 of 5000), and the source's run ends there; the
        // destination's goes on through the loops the chunk holds.
        let n = nest(&[(2, 10000, 1), (2, 1, 2), (5000, 2, 4)]);
        let c = Chunk::plan(&n).unwrap();
        assert_eq!((size(&c), c.run_s, c.run_d), (5000, 2500, 5000));
        assert_eq!(c.outer.get(), &[m(4, 2500, 5000)]);
        assert_eq!(c.rows.get(), &[m(2, 10000, 2500)]);
        assert_eq!(c.cols.len, 0);
        // Destination runs of one slot (every 8192nd): no chunks.
        assert!(Chunk::plan(&nest(&[(2, 8192, 1), (4096, 2, 2)])).is_none());
        let c = Chunk::plan(&nest(&[(64, 4096, 1), (2, 1, 64), (64, 2, 128)])).unwrap();
        assert_eq!((size(&c), c.run_s, c.run_d), (8192, 128, 8192));
    }

    #[test]
    fn source_runs_take_gaps_of_padding() {
        // `(4,1)` quads of two rows on both sides (`s4[32,2,2084110]`
        // `{2,1,0:T(8,128)(4,1)}` -> `{0,2,1:T(8,128)(4,1)}`): the source's
        // runs are 2 slots, then 2 of padding; a span of 254 slots holds
        // 128 of them (the quads' loop taken whole, the 32 columns cut at
        // 16 to fit).
        let n = nest(&[
            (4, 4, 1),
            (32, 16673792, 4),
            (32, 16, 512),
            (16282, 1024, 16384),
            (2, 1, 266766336),
        ]);
        let c = Chunk::plan(&n).unwrap();
        assert_eq!((size(&c), unpacked(&c)), (4096, 254 * 32));
        assert_eq!((c.run_s, c.run_d), (254, 128));
        assert_eq!(c.rows.get(), &[m(32, 16673792, 254)]);
        // A gap of more than the span so far: the run stops before it.
        let n = nest(&[(64, 4096, 1), (2, 1, 64), (64, 5, 128)]);
        assert_eq!(Chunk::plan(&n).map(|c| c.run_s), None);
        let n = nest(&[(64, 4096, 1), (2, 1, 64), (64, 4, 128)]);
        assert_eq!(Chunk::plan(&n).map(|c| c.run_s), Some(126));
    }

    #[test]
    fn the_move_takes_whole_units_of_the_destination() {
        // `(4,1)` quads transposed into quads (`s4[464,42348]`): 4 x 4
        // nibbles, a unit whole on both sides, its bytes transposed.
        let n = nest(&[
            (4, 4, 1),
            (4, 1, 4),
            (2, 512, 16),
            (8, 1024, 32),
            (16, 32, 512),
        ]);
        let c = Chunk::plan(&n).unwrap();
        assert_eq!(c.unit, 16);
        assert_eq!(
            c.perm,
            [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]
        );
        assert!(c.within.get().iter().all(|m| m.dst % 16 == 0));
        // Pairs of two planes woven into rows, a unit of 16 from 8 pairs
        // of bytes (`s4[448,115,416]`): the first destination loops whole,
        // the third (8 steps) cut at 4.
        let n = nest(&[
            (2, 2048, 1),
            (2, 1, 2),
            (8, 256, 4),
            (2, 4096, 32),
            (128, 2, 64),
        ]);
        let c = Chunk::plan(&n).unwrap();
        assert_eq!(c.unit, 16);
        assert_eq!(
            c.perm,
            [0, 2048, 1, 2049, 256, 2304, 257, 2305, 512, 2560, 513, 2561, 768, 2816, 769, 2817]
        );
        let moved =
            |c: &Chunk| c.unit as u64 * c.within.get().iter().map(|m| m.range).product::<u64>();
        assert_eq!(moved(&c), size(&c) as u64);
        // A first destination loop of 17 steps: bytes, one at a step.
        let n = nest(&[(17, 128, 1), (128, 1, 17)]);
        let c = Chunk::plan(&n).unwrap();
        assert_eq!((c.unit, moved(&c)), (1, 17 * 128));
    }
}
