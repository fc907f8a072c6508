//! [`RelayoutKernel::Chunks`](super::RelayoutKernel::Chunks): a box a
//! chunk at a time, for boxes whose runs are too short for the blocks.
//! Packed slots (1, 2 or 4 bits, the same width on both sides): `(2,1)`
//! pairs or `(4,1)` quads that a transpose moves a nibble at a time,
//! planes woven, blocks of a few rows. Whole slots the same way, where
//! the blocks would move a few elements at a time, the runs copied
//! rather than unpacked and packed: one plan of the chunk, and the
//! packing a step on the way in and out.
//!
//! A chunk takes the loops that continue the source's runs and the loops
//! that continue the destination's, the shorter side first, as far as
//! [`CHUNK`] bytes allow (a loop that does not fit whole gives its
//! largest divisor that does). A source run may step over a gap of
//! padding no longer than itself (a `(4,1)` sub-tile of two rows holds 2
//! slots, then 2 of padding); a destination run may not (its padding is
//! written before, and kept). Its source runs are unpacked to a byte per
//! slot on the stack, gaps and all, the bytes are moved from the source's
//! order to the destination's there (in the destination's order, each
//! byte read through a table of offsets made once per box, which the
//! move repeats over the chunk), and the destination runs are packed
//! back. Every chunk of a box has the same shape, planned once
//! ([`Chunk::plan`]); the loops left over walk the chunks.

use super::loops::{divisor_up_to, each, each_ahead};
use super::modes::{Mode, Nest};
use super::simd;
use super::subbyte::{ask_ends, pack, unpack};
use super::tuning::{CHUNK, CHUNK_RUN, CHUNK_TABLE};

/// The most loops a chunked box has (its own, and two more where a loop
/// is cut for the chunk).
const LOOPS: usize = 16;

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
    /// pack (strides in each), in the order of the bytes to pack: the
    /// first steps one byte there, each next one the bytes of those
    /// before it (the destination's runs one after another).
    within: Loops,
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
        // In the order of the bytes to pack.
        c.within.modes[..c.within.len].sort_unstable_by_key(|m| m.dst);
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

    /// Copies box `n` (planned as `self`) of `W`-bit slots: each source
    /// run unpacked, each destination run packed. Out of line: its two
    /// buffers (16 KiB) and the move's table (4 KiB) are on the stack only
    /// for these copies.
    #[inline(never)]
    pub(crate) fn copy<const W: usize>(&self, n: &Nest, src: &[u8], dst: &mut [u8]) {
        let (mut a, mut b) = ([0u8; CHUNK], [0u8; CHUNK]);
        let rd = self.run_d;
        self.walk(
            n,
            (&mut a, &mut b),
            |s| simd::prefetch(src, s / (8 / W)),
            |s, run| unpack::<W>(src, s, run),
            |d, dst: &mut [u8]| ask_ends::<W>(dst, d, rd),
            |run, d, dst: &mut [u8]| pack::<W>(run, dst, d),
            dst,
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
            |_, _: &mut [T]| {},
            |run, d, dst: &mut [T]| dst[d..d + run.len()].copy_from_slice(run),
            dst,
        );
    }

    /// Walks the chunks of box `n`: each chunk's source runs read into
    /// `a` (`get(source offset, run)`), moved to `b`, and its destination
    /// runs written from there into `dst` (`put(run, destination offset,
    /// dst)`); while a chunk is moved, the first line of each source run
    /// of the next one is asked for (`fetch`: they are often far apart),
    /// and before its runs are written, the next one's destination runs
    /// (`ask(destination offset, dst)`: packed runs, whose first and last
    /// bytes are read where they start or end inside one; whole slots
    /// ask for none, which measured 0.93x to 1.03x against 0.96x to
    /// 1.36x for the packed).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn walk<T: Copy, const K: usize>(
        &self,
        n: &Nest,
        (a, b): (&mut [T; K], &mut [T; K]),
        fetch: impl Fn(usize),
        mut get: impl FnMut(usize, &mut [T]),
        ask: impl Fn(usize, &mut [T]),
        mut put: impl FnMut(&[T], usize, &mut [T]),
        dst: &mut [T],
    ) {
        let (rows, cols) = (self.rows.get(), self.cols.get());
        let (rs, rd) = (self.run_s, self.run_d);
        let mut from = [0u16; CHUNK_TABLE];
        let (t, reps) = self.table(&mut from);
        let from = &from[..t];
        each_ahead(self.outer.get(), n.src, n.dst, 1, |s, d, next| {
            if let Some((x, _)) = next {
                each(rows, x as u64, 0, |s, _| fetch(s));
            }
            each(rows, s as u64, 0, |s, at| get(s, &mut a[at..at + rs]));
            // The move: `t` slots to pack at a time, each from its
            // offset in the table (masked to the buffer: no bound test).
            each(reps.get(), 0, 0, |s, d| {
                if let Some(out) = b.get_mut(d..d + t) {
                    for (o, &f) in out.iter_mut().zip(from) {
                        *o = a[(s + usize::from(f)) & (K - 1)];
                    }
                }
            });
            if let Some((_, y)) = next {
                each(cols, 0, y as u64, |_, d| ask(d, dst));
            }
            each(cols, 0, d as u64, |at, d| put(&b[at..at + rd], d, dst));
        });
    }

    /// The move as a table: `from[k]`, for each of the first `t` slots to
    /// pack, the offset of the unpacked slot it comes from (the move's
    /// first loops, as many as [`CHUNK_TABLE`] slots hold; a loop that
    /// does not fit whole gives its largest divisor that does), and the
    /// loops that repeat it (`t` slots on in the bytes to pack at each
    /// step; the source stride of each). Returns `t` and those loops.
    fn table(&self, from: &mut [u16; CHUNK_TABLE]) -> (usize, Loops) {
        let mut w = self.within;
        let (mut t, mut k) = (1u64, 0);
        while k < w.len {
            let m = w.modes[k];
            let room = CHUNK_TABLE as u64 / t;
            if m.range <= room {
                (t, k) = (t * m.range, k + 1);
                continue;
            }
            let c = divisor_up_to(m.range, room as usize) as u64;
            if w.take(k, c) == Some(false) {
                (t, k) = (t * c, k + 1);
            }
            break;
        }
        each(&w.modes[..k], 0, 0, |s, d| {
            if let Some(x) = from.get_mut(d) {
                // (Below the chunk's slots, so below 2^16.)
                *x = s as u16;
            }
        });
        let mut reps = Loops::EMPTY;
        for &m in &w.modes[k..w.len] {
            reps.push(m);
        }
        (t as usize, reps)
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
/// bytes, and the move's table): `false`, with nothing copied, where no
/// chunks plan. Out of line: the plan is on the stack only for these
/// copies.
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

    /// A loop: range, source stride, destination stride.
    type Loop = (u64, u64, u64);

    /// Four planes woven (`s4[39704,4,512]` from `(2,1)` tiles to rows).
    const PLANES: [Loop; 6] = [
        (4, 20332544, 1),
        (128, 2, 4),
        (4, 2048, 512),
        (2, 1, 2048),
        (8, 256, 4096),
        (2481, 8192, 32768),
    ];

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
        let c = Chunk::plan(&nest(&PLANES)).unwrap();
        assert_eq!((size(&c), c.run_s, c.run_d), (8192, 2048, 512));
        assert_eq!(c.rows.get(), &[m(4, 20332544, 2048)]);
        assert_eq!(c.cols.len, 2);
        assert_eq!(
            c.outer.get().iter().map(|m| m.range).product::<u64>(),
            4 * 2481
        );
        // The move's loops in the order of the bytes to pack: the 4
        // planes, then the 128 columns.
        assert_eq!(&c.within.get()[..2], &[m(4, 2048, 1), m(128, 2, 4)]);
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

    /// Checks the move's table of chunk `c` against its loops: every
    /// slot to pack is written once, from the unpacked slot the loops
    /// name. Returns the table's length.
    fn check_table(c: &Chunk) -> usize {
        let n = size(c);
        let mut want = [usize::MAX; CHUNK];
        each(c.within.get(), 0, 0, |s, d| want[d] = s);
        assert!(want[..n].iter().all(|&s| s < unpacked(c)));
        let mut from = [0u16; CHUNK_TABLE];
        let (t, reps) = c.table(&mut from);
        let mut seen = [false; CHUNK];
        each(reps.get(), 0, 0, |s, d| {
            for k in 0..t {
                assert!(!seen[d + k], "slot {} written twice", d + k);
                seen[d + k] = true;
                assert_eq!(s + usize::from(from[k]), want[d + k], "slot {}", d + k);
            }
        });
        assert!(seen[..n].iter().all(|&x| x));
        t
    }

    #[test]
    fn the_move_is_a_table_repeated_over_the_chunk() {
        // Each nest, and the slots of its table.
        let cases: [(&[Loop], usize); 5] = [
            // `(4,1)` quads transposed into quads (`s4[464,42348]`): 4 x
            // 4 nibbles; 4096 slots to pack, a table of 2048 (the outer
            // loop of 16 cut at 8), repeated twice.
            (
                &[
                    (4, 4, 1),
                    (4, 1, 4),
                    (2, 512, 16),
                    (8, 1024, 32),
                    (16, 32, 512),
                ],
                2048,
            ),
            // Pairs of two planes woven into rows (`s4[448,115,416]`).
            (
                &[
                    (2, 2048, 1),
                    (2, 1, 2),
                    (8, 256, 4),
                    (2, 4096, 32),
                    (128, 2, 64),
                ],
                2048,
            ),
            // The four planes of `s4[39704,4,512]`.
            (&PLANES, 2048),
            // A first loop of 17 steps, then 128: the table holds 17 x 64
            // (the largest divisor of 128 that fits 2048 / 17 = 120).
            (&[(17, 128, 1), (128, 1, 17)], 17 * 64),
            // A first loop longer than the table, of a prime number of
            // steps (4093): it cannot be cut, so the table holds one slot.
            (&[(4093, 2, 1), (2, 1, 4093)], 1),
        ];
        for (loops, t) in cases {
            let c = Chunk::plan(&nest(loops)).unwrap();
            assert!(c.within.get().windows(2).all(|w| w[0].dst < w[1].dst));
            assert_eq!(check_table(&c), t, "{loops:?}");
        }
    }
}
