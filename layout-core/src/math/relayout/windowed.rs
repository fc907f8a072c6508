//! A relayout whose destination is handed over in consecutive windows
//! instead of being one buffer, for destinations too big to hold next to
//! their source (a file written as it is made). The windows are fixed
//! ranges of destination bytes; every box is cut to each window
//! ([`clip`]), and the padding a window holds is written as the fill value
//! only there, so a window costs its own bytes whatever the padding
//! around it (`L(n)` tails, tiles wider than the window).
//!
//! [`RelayoutPlan::run_bytes_windowed`] fills a buffer the caller gives
//! (no heap, no threads); [`RelayoutPlan::par_run_bytes_windowed`] (the
//! `rayon` feature) allocates one window and fills it on rayon's threads.

use super::modes::Nest;
use super::{bits, kernels, mismatch, strided, How, RelayoutPlan};
use crate::base::error::{Error, RelayoutMismatch};

impl RelayoutPlan {
    /// The bytes a window of [`RelayoutPlan::run_bytes_windowed`] and
    /// `RelayoutPlan::par_run_bytes_windowed` (feature `rayon`) is a whole
    /// multiple of
    /// (every window but the last): the fewest whole bytes that hold whole
    /// destination slots (1 for packed 1-, 2- and 4-bit slots, 4 for
    /// `f32`). A window buffer of at least this many bytes (or of the whole
    /// destination) is always usable.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutPlan};
    /// let a = parse_array("f32[8]{0}").unwrap();
    /// let b = parse_array("f32[8]{0:L(1000)}").unwrap();
    /// assert_eq!(RelayoutPlan::new(&a, &b).unwrap().window_unit(), 4);
    /// let s4 = parse_array("s4[8]{0:E(4)}").unwrap();
    /// assert_eq!(RelayoutPlan::new(&s4, &s4).unwrap().window_unit(), 1);
    /// ```
    pub fn window_unit(&self) -> u64 {
        let bits = self.dst_bits.max(1);
        bits / gcd(bits, 8)
    }

    /// [`RelayoutPlan::run_bytes`] without a destination buffer, on this
    /// thread and without a heap: the destination bytes are made in `buf`
    /// and handed to `sink` in order, in consecutive windows of exactly
    /// `buf.len()` bytes rounded down to a whole multiple of
    /// [`RelayoutPlan::window_unit`] (the last window is shorter, and a
    /// `buf` longer than the destination gives one window of the whole
    /// destination). No window is ever longer than `buf`, whatever the
    /// destination's padding: padding is written as its fill value window
    /// by window. The bytes are those [`RelayoutPlan::run_bytes`] writes
    /// into a zeroed buffer; a destination of no bytes calls `sink` never.
    ///
    /// Each window costs a walk over the plan's boxes; layouts whose
    /// offsets are not digits (`*`, tile sizes that do not nest) are walked
    /// element by element once per window, so give them large windows.
    ///
    /// Fails before `sink` is called with [`ErrorKind::RelayoutMismatch`]
    /// for a source of the wrong length, or for a `buf` shorter than both
    /// the window unit and the destination (the error names the smallest
    /// usable length). Stops at the first error of `sink` and returns it.
    ///
    /// [`ErrorKind::RelayoutMismatch`]: crate::ErrorKind::RelayoutMismatch
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Error, ErrorKind, RelayoutPlan};
    /// let a = parse_array("u8[4,4]{1,0}").unwrap();
    /// // Four elements, then a padding tail of a million bytes.
    /// let b = parse_array("u8[4,4]{0,1:L(1000000)}").unwrap();
    /// let plan = RelayoutPlan::new(&a, &b).unwrap();
    /// let src: Vec<u8> = (1..=16).collect();
    /// let mut buf = [0u8; 256];
    /// let (mut head, mut total) = (Vec::new(), 0);
    /// plan.run_bytes_windowed(&src, &mut buf, |w: &[u8]| {
    ///     assert!(w.len() <= 256);
    ///     if total == 0 {
    ///         head.extend_from_slice(&w[..4]);
    ///     }
    ///     total += w.len();
    ///     Ok::<(), Error>(())
    /// })
    /// .unwrap();
    /// assert_eq!(head, [1, 5, 9, 13]);
    /// assert_eq!(total, 1_000_000);
    ///
    /// // A window must hold whole slots: 4 bytes for `f32`.
    /// let f = parse_array("f32[8]{0:L(100)}").unwrap();
    /// let g = parse_array("f32[8]{0}").unwrap();
    /// let plan = RelayoutPlan::new(&g, &f).unwrap();
    /// let e = plan.run_bytes_windowed(&[0; 32], &mut [0; 3], |_: &[u8]| Ok::<(), Error>(()));
    /// let e = e.unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::RelayoutMismatch);
    /// assert_eq!(
    ///     e.to_string(),
    ///     "the window buffer has 3 bytes but a window of this destination takes at least 4"
    /// );
    /// ```
    pub fn run_bytes_windowed<E: From<Error>>(
        &self,
        src: &[u8],
        buf: &mut [u8],
        mut sink: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let dst_len = self.checked_window_lengths(src)?;
        let window = self.window_len(buf.len(), dst_len)?;
        self.each_window(dst_len, window, |lo, hi| {
            // `window_len` keeps every window within `buf`.
            let w = &mut buf[..hi - lo];
            self.fill_window(src, w, lo, dst_len, false);
            sink(w)
        })
    }

    /// [`RelayoutPlan::par_run_bytes`] without a destination buffer: the
    /// destination bytes go to `sink` in order, in consecutive windows of
    /// `window` bytes rounded down to a whole multiple of
    /// [`RelayoutPlan::window_unit`] (at least one unit; the last window is
    /// shorter), each filled on rayon's threads. The bytes are those
    /// [`RelayoutPlan::run_bytes`] writes into a zeroed buffer; memory for
    /// the destination is one window (allocated once, whatever the
    /// destination's padding), as in [`RelayoutPlan::run_bytes_windowed`],
    /// which takes the buffer from the caller and runs on this thread.
    /// Plans that are not [blocked](RelayoutPlan::is_blocked) (`*`, tile
    /// sizes that do not nest) walk every element once per window; they
    /// get up to one window per thread, made at the same time.
    /// [`ErrorKind::OutOfMemory`] when the window cannot be allocated.
    ///
    /// Stops at the first error of `sink` and returns it; a source of the
    /// wrong length is an error before `sink` is called.
    ///
    /// [`ErrorKind::OutOfMemory`]: crate::ErrorKind::OutOfMemory
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Error, RelayoutPlan};
    /// let a = parse_array("f32[64,64]{1,0}").unwrap();
    /// let b = parse_array("f32[64,64]{0,1:T(8,8)}").unwrap();
    /// let plan = RelayoutPlan::new(&a, &b).unwrap();
    /// let src: Vec<u8> = (0..16384).map(|i| i as u8).collect();
    /// let mut whole = vec![0; 16384];
    /// plan.run_bytes(&src, &mut whole).unwrap();
    /// let mut streamed = Vec::new();
    /// plan.par_run_bytes_windowed(&src, 1024, |w: &[u8]| {
    ///     assert!(w.len() <= 1024);
    ///     streamed.extend_from_slice(w);
    ///     Ok::<(), Error>(())
    /// })
    /// .unwrap();
    /// assert_eq!(streamed, whole);
    /// ```
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn par_run_bytes_windowed<E: From<Error>>(
        &self,
        src: &[u8],
        window: usize,
        mut sink: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        extern crate alloc;
        use crate::base::error::{ErrorKind, Span};
        let dst_len = self.checked_window_lengths(src)?;
        let unit = usize::try_from(self.window_unit()).unwrap_or(usize::MAX);
        let want = window.max(unit).min(dst_len);
        let window = self.window_len(want, dst_len)?;
        let oom = |bytes: usize| -> E {
            Error::wide(ErrorKind::OutOfMemory, Span::NONE, [bytes as i128, 0, 0]).into()
        };
        if !self.is_blocked() {
            return self.general_windows(src, dst_len, window, oom, sink);
        }
        let mut buf: alloc::vec::Vec<u8> = alloc::vec::Vec::new();
        if buf.try_reserve_exact(window).is_err() {
            return Err(oom(window));
        }
        buf.resize(window, 0);
        self.each_window(dst_len, window, |lo, hi| {
            let w = &mut buf[..hi - lo];
            self.fill_window(src, w, lo, dst_len, true);
            sink(w)
        })
    }

    /// [`RelayoutPlan::par_run_bytes_windowed`] for a plan without merged
    /// chains, whose windows each walk every element: one window per
    /// thread, made at the same time (a walk each), then handed over in
    /// order. Fewer windows where fewer can be allocated.
    #[cfg(feature = "rayon")]
    fn general_windows<E: From<Error>>(
        &self,
        src: &[u8],
        dst_len: usize,
        window: usize,
        oom: impl Fn(usize) -> E,
        mut sink: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        extern crate alloc;
        use alloc::vec::Vec;
        use rayon::prelude::*;
        let count = dst_len.div_ceil(window.max(1));
        let threads = rayon::current_num_threads().clamp(1, count.max(1));
        let mut bufs: Vec<Vec<u8>> = Vec::new();
        if bufs.try_reserve_exact(threads).is_err() {
            return Err(oom(threads.saturating_mul(core::mem::size_of::<Vec<u8>>())));
        }
        for _ in 0..threads {
            let mut b = Vec::new();
            if b.try_reserve_exact(window).is_err() {
                // One window is needed; more only go faster.
                if bufs.is_empty() {
                    return Err(oom(window));
                }
                break;
            }
            b.resize(window, 0);
            bufs.push(b);
        }
        let mut lo = 0usize;
        while lo < dst_len {
            let start = lo;
            bufs.par_iter_mut().enumerate().for_each(|(i, b)| {
                let at = start.saturating_add(i.saturating_mul(window));
                if at < dst_len {
                    let hi = at.saturating_add(window).min(dst_len);
                    self.fill_window(src, &mut b[..hi - at], at, dst_len, false);
                }
            });
            for b in &bufs {
                if lo >= dst_len {
                    break;
                }
                let hi = lo.saturating_add(window).min(dst_len);
                sink(&b[..hi - lo])?;
                lo = hi;
            }
        }
        Ok(())
    }

    /// The destination's length in bytes, after checking the source's.
    fn checked_window_lengths(&self, src: &[u8]) -> Result<usize, Error> {
        let dst_len = usize::try_from(self.dst_bytes).unwrap_or(usize::MAX);
        self.check_lengths(src.len(), dst_len, self.src_bytes, self.dst_bytes)?;
        Ok(dst_len)
    }

    /// The length of the windows a buffer of `len` bytes gives: the whole
    /// destination when it fits, else `len` rounded down to whole units.
    fn window_len(&self, len: usize, dst_len: usize) -> Result<usize, Error> {
        if len >= dst_len {
            return Ok(dst_len);
        }
        let unit = usize::try_from(self.window_unit()).unwrap_or(usize::MAX);
        let window = len - len % unit.max(1);
        if window == 0 {
            return Err(mismatch(RelayoutMismatch::WindowBuffer {
                len: len as u64,
                min: (unit.min(dst_len)) as u64,
            }));
        }
        Ok(window)
    }

    /// Calls `f(lo, hi)` for the byte ranges of consecutive windows of
    /// `window` bytes (a whole number of units) over `0..dst_len`.
    fn each_window<E>(
        &self,
        dst_len: usize,
        window: usize,
        mut f: impl FnMut(usize, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut lo = 0usize;
        while lo < dst_len {
            let hi = lo.saturating_add(window.max(1)).min(dst_len);
            f(lo, hi)?;
            lo = hi;
        }
        Ok(())
    }

    /// Makes the destination bytes `at..at + dst.len()` in `dst` (`at` a
    /// whole number of window units; the last window ends at `dst_len`):
    /// the padding slots of the window, then its elements.
    fn fill_window(&self, src: &[u8], dst: &mut [u8], at: usize, dst_len: usize, par: bool) {
        let bits = self.dst_bits.max(1);
        let end = at.saturating_add(dst.len());
        // Whole slots: `at` is a whole number of units. Bytes past the
        // last slot (none, or a last byte's rest) hold no slot.
        let lo = ((at as u64).saturating_mul(8) / bits).min(self.dst_slots);
        let hi = if end >= dst_len {
            self.dst_slots
        } else {
            (end as u64).saturating_mul(8) / bits
        };
        let hi = hi.min(self.dst_slots).max(lo);
        match self.slot_bytes() {
            Some(1) => return self.window_chunks::<1>(src, dst, lo, hi, par),
            Some(2) => return self.window_chunks::<2>(src, dst, lo, hi, par),
            Some(4) => return self.window_chunks::<4>(src, dst, lo, hi, par),
            Some(8) => return self.window_chunks::<8>(src, dst, lo, hi, par),
            Some(16) => return self.window_chunks::<16>(src, dst, lo, hi, par),
            _ => {}
        }
        self.window_bits(src, dst, lo, hi, par);
    }

    /// [`RelayoutPlan::fill_window`] for slots of `N` whole bytes.
    fn window_chunks<const N: usize>(
        &self,
        src: &[u8],
        dst: &mut [u8],
        lo: u64,
        hi: u64,
        par: bool,
    ) {
        let slots = usize::try_from(hi - lo).unwrap_or(usize::MAX);
        let (src, _) = src.as_chunks::<N>();
        let whole = slots.saturating_mul(N).min(dst.len());
        // Bytes after the last slot (none but in a last window) are zero.
        let (dst, after) = dst.split_at_mut(whole);
        after.fill(0);
        let (dst, _) = dst.as_chunks_mut::<N>();
        if self.fill_needed {
            let fill: [u8; N] = core::array::from_fn(|i| (self.fill >> (8 * i)) as u8);
            self.fill_padding(dst, lo, fill);
        }
        match &self.how {
            How::Chains(chains) => {
                #[cfg(feature = "rayon")]
                if par
                    && self.window_on_threads(
                        chains,
                        dst,
                        (lo, hi),
                        |x| usize::try_from(x).ok(),
                        |n: &Nest, d: &mut [[u8; N]]| kernels::copy_nest(n, src, d),
                    )
                {
                    return;
                }
                let _ = par;
                self.each_box(chains, &mut |n: &Nest| {
                    clip(n, lo, hi, &mut |p: &Nest, whole: bool| {
                        if whole {
                            kernels::copy_nest(p, src, dst);
                        } else {
                            strided::each_slot(p, |s, d| {
                                if (lo..hi).contains(&d) {
                                    dst[(d - lo) as usize] = src[s as usize];
                                }
                            });
                        }
                    })
                });
            }
            How::General { src: a, dst: b } => self.each_general(a, b, lo..hi, |s, d| {
                dst[(d - lo) as usize] = src[s as usize];
            }),
        }
    }

    /// [`RelayoutPlan::fill_window`] for packed slots and slots of other
    /// widths, bit by bit.
    fn window_bits(&self, src: &[u8], dst: &mut [u8], lo: u64, hi: u64, par: bool) {
        let copy = bits::Copier::new(self.element, self.src_bits, self.dst_bits);
        dst.fill(0);
        if self.fill_needed {
            self.fill_bits(&copy, dst, lo, hi - lo);
        }
        let one_box = |n: &Nest, d: &mut [u8]| {
            if !copy.nest(n, src, d) {
                strided::each_slot(n, |s, o| copy.one(src, s, d, o));
            }
        };
        match &self.how {
            How::Chains(chains) => {
                #[cfg(feature = "rayon")]
                {
                    let bits = self.dst_bits;
                    if par
                        && self.window_on_threads(
                            chains,
                            dst,
                            (lo, hi),
                            |x| super::byte(x, bits),
                            one_box,
                        )
                    {
                        return;
                    }
                }
                let _ = par;
                self.each_box(chains, &mut |n: &Nest| {
                    clip(n, lo, hi, &mut |p: &Nest, whole: bool| {
                        if whole {
                            one_box(p, dst);
                        } else {
                            strided::each_slot(p, |s, d| {
                                if (lo..hi).contains(&d) {
                                    copy.one(src, s, dst, d - lo);
                                }
                            });
                        }
                    })
                });
            }
            How::General { src: a, dst: b } => self.each_general(a, b, lo..hi, |s, d| {
                copy.one(src, s, dst, d - lo);
            }),
        }
    }

    /// The boxes cut to the window of slots `lo..hi`, run on rayon's
    /// threads as parts of disjoint ranges of `dst` (the window); `false`,
    /// with nothing copied, when they cannot be cut so.
    #[cfg(feature = "rayon")]
    fn window_on_threads<T: Send>(
        &self,
        chains: &[super::modes::Chain; crate::base::limits::MAX_RANK],
        dst: &mut [T],
        (lo, hi): (u64, u64),
        unit: impl Fn(u64) -> Option<usize> + Sync,
        f: impl Fn(&Nest, &mut [T]) + Sync,
    ) -> bool {
        let mut whole = true;
        let parts = super::parallel::parts(
            |g| {
                self.each_box(chains, &mut |n: &Nest| {
                    clip(n, lo, hi, &mut |p: &Nest, w: bool| {
                        whole &= w;
                        if w {
                            g(p);
                        }
                    })
                })
            },
            // One part per thread of each piece: a window's pieces are
            // already a window's worth, and longer parts keep the source
            // rows they read longer (a transpose's parts of 1024 rows of
            // 64 MB ran 1.5x slower cut in four).
            1,
            self.source_line(),
            self.granule(),
        );
        match parts {
            Some(parts) if whole => super::parallel::run(parts, dst, unit, f),
            _ => false,
        }
    }
}

/// Greatest common divisor.
pub(super) fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The slots one step of a loop reaches past its first: the largest inner
/// offset plus one.
fn reach(inner: &[super::modes::Mode]) -> u64 {
    inner.iter().fold(1u64, |s, m| {
        s.saturating_add(m.range.saturating_sub(1).saturating_mul(m.dst))
    })
}

/// Calls `emit(piece, true)` for pieces of the box `n` that hold, together,
/// exactly its destination slots in `lo..hi`, with destination offsets made
/// relative to `lo`: the steps of each loop that lie wholly in the range as
/// one piece, and the steps cut by either end taken apart one loop further
/// in (at most two per loop). Where a loop's steps interleave with its
/// inner loops' (the box cannot be cut along it), the rest of that step is
/// `emit(piece, false)` instead, with absolute offsets: the caller copies
/// only its slots in `lo..hi`.
///
/// No heap; one nest (3 KB) is copied once and its loops changed in place.
pub(crate) fn clip(n: &Nest, lo: u64, hi: u64, emit: &mut dyn FnMut(&Nest, bool)) {
    if lo >= hi {
        return;
    }
    let first = n.dst;
    let end = first.saturating_add(reach(&n.modes[..n.len]));
    if end <= lo || first >= hi {
        return;
    }
    if first >= lo && end <= hi {
        let mut p = *n;
        p.dst -= lo;
        return emit(&p, true);
    }
    let mut work = *n;
    cut(&mut work, n.len, (n.src, n.dst), (lo, hi), emit);
}

/// [`clip`] for the loops `work.modes[..level]` (their full ranges) from
/// the offsets `(src, dst)`. `work`'s length, offsets and one loop's range
/// are set for each piece emitted, and the range put back after.
fn cut(
    work: &mut Nest,
    level: usize,
    (src, dst): (u64, u64),
    (lo, hi): (u64, u64),
    emit: &mut dyn FnMut(&Nest, bool),
) {
    let Some(top) = level.checked_sub(1).map(|i| work.modes[i]) else {
        if (lo..hi).contains(&dst) {
            work.len = 0;
            (work.src, work.dst) = (src, dst - lo);
            emit(work, true);
        }
        return;
    };
    let inner = reach(&work.modes[..level - 1]);
    let span = top
        .range
        .saturating_sub(1)
        .saturating_mul(top.dst)
        .saturating_add(inner);
    if dst.saturating_add(span) <= lo || dst >= hi {
        return;
    }
    let piece = |work: &mut Nest, k: u64, count: u64, emit: &mut dyn FnMut(&Nest, bool)| {
        let i = level - 1;
        let saved = work.modes[i].range;
        work.modes[i].range = count;
        work.len = level;
        work.src = src.saturating_add(k.saturating_mul(top.src));
        work.dst = dst.saturating_add(k.saturating_mul(top.dst)) - lo;
        emit(work, true);
        work.modes[i].range = saved;
    };
    if dst >= lo && dst.saturating_add(span) <= hi {
        return piece(work, 0, top.range, emit);
    }
    if top.dst == 0 || inner > top.dst {
        // The steps interleave: slot by slot, by the caller.
        work.len = level;
        (work.src, work.dst) = (src, dst);
        return emit(work, false);
    }
    let step = top.dst;
    let (rel_lo, rel_hi) = (lo.saturating_sub(dst), hi - dst);
    // Steps that meet the range: `k * step + inner > rel_lo` and
    // `k * step < rel_hi`; wholly in it: `k * step >= rel_lo` and
    // `k * step + inner <= rel_hi`.
    let meet_lo = match rel_lo.checked_sub(inner) {
        None => 0,
        Some(x) => x / step + 1,
    };
    let meet_hi = rel_hi.div_ceil(step).min(top.range);
    let in_lo = rel_lo.div_ceil(step).max(meet_lo);
    let in_hi = match rel_hi.checked_sub(inner) {
        None => 0,
        Some(x) => (x / step + 1).min(top.range),
    };
    let at = |k: u64| {
        (
            src.saturating_add(k.saturating_mul(top.src)),
            dst.saturating_add(k.saturating_mul(top.dst)),
        )
    };
    if in_lo >= in_hi {
        for k in meet_lo..meet_hi {
            cut(work, level - 1, at(k), (lo, hi), emit);
        }
        return;
    }
    for k in meet_lo..in_lo {
        cut(work, level - 1, at(k), (lo, hi), emit);
    }
    piece(work, in_lo, in_hi - in_lo, emit);
    for k in in_hi.max(in_lo)..meet_hi {
        cut(work, level - 1, at(k), (lo, hi), emit);
    }
}

#[cfg(test)]
mod tests {
    extern crate alloc;
    extern crate std;

    use alloc::vec::Vec;

    use super::super::modes::Nest;
    use super::clip;

    fn nest(modes: &[(u64, u64, u64)], src: u64, dst: u64) -> Nest {
        Nest::of(modes, src, dst)
    }

    /// Every `(src, dst)` of a nest, sorted.
    fn slots(n: &Nest) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        super::strided::each_slot(n, |s, d| out.push((s, d)));
        out.sort_unstable();
        out
    }

    /// The pieces `clip` gives for `lo..hi` hold exactly the nest's slots
    /// in that range, each once; whole pieces lie in it.
    fn check(n: &Nest, lo: u64, hi: u64) {
        let mut got = Vec::new();
        let mut pieces = 0;
        clip(n, lo, hi, &mut |p: &Nest, whole: bool| {
            pieces += 1;
            for (s, d) in slots(p) {
                if whole {
                    assert!(d < hi - lo, "{lo}..{hi}: slot {d} of a whole piece");
                    got.push((s, d + lo));
                } else if (lo..hi).contains(&d) {
                    got.push((s, d));
                }
            }
        });
        got.sort_unstable();
        let want: Vec<(u64, u64)> = slots(n)
            .into_iter()
            .filter(|&(_, d)| (lo..hi).contains(&d))
            .collect();
        assert_eq!(got, want, "{lo}..{hi}");
        // At most two pieces per loop cut, and one more.
        assert!(
            pieces <= 2 * n.len + 1 || want.is_empty(),
            "{pieces} pieces"
        );
    }

    #[test]
    fn clipped_pieces_are_the_slots_in_the_window() {
        let nests = [
            // A 5 x 7 transpose from slot 3.
            nest(&[(7, 5, 1), (5, 1, 7)], 0, 3),
            // Tiles: (2, 4) tiles of a 6 x 8 array, with gaps.
            nest(&[(4, 1, 1), (2, 8, 4), (2, 4, 10), (3, 16, 25)], 0, 0),
            // One slot.
            nest(&[], 9, 11),
            // Steps that interleave with their inner loop: left to the
            // caller, slot by slot.
            nest(&[(4, 1, 2), (3, 4, 3)], 0, 1),
        ];
        let mut x = 12345u64;
        for n in &nests {
            let end = slots(n).iter().map(|&(_, d)| d + 1).max().unwrap_or(0) + 3;
            for lo in 0..end {
                for hi in lo..=end {
                    check(n, lo, hi);
                }
            }
            for _ in 0..200 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let lo = (x >> 33) % end;
                let hi = lo + (x >> 20) % (end - lo + 1);
                check(n, lo, hi);
            }
        }
    }
}
