//! The loops every kernel walks: the offsets of each step of a loop list
//! (innermost first), loops put in source order, the divisor a loop is
//! cut at, whether a block's runs crowd one L1 set, and what happens to
//! an element on its way ([`Fix`]).

use super::modes::{Mode, MODES};
use super::tuning::PASS;

/// Calls `f(src, dst)` with the offsets of every step of `outer` (innermost
/// first), starting at `(src, dst)`.
#[inline]
pub(crate) fn each(outer: &[Mode], src: u64, dst: u64, mut f: impl FnMut(usize, usize)) {
    let mut at = Steps::new(src, dst);
    loop {
        f(at.src as usize, at.dst as usize);
        if !at.step(outer) {
            return;
        }
    }
}

/// [`each`], with the offsets of the step `ahead` steps later too (`None`
/// near the end): where to ask for lines that will be read or written.
#[inline]
pub(crate) fn each_ahead(
    outer: &[Mode],
    src: u64,
    dst: u64,
    ahead: usize,
    mut f: impl FnMut(usize, usize, Option<(usize, usize)>),
) {
    let mut at = Steps::new(src, dst);
    let mut later = at;
    let mut live = (0..ahead).all(|_| later.step(outer));
    loop {
        f(
            at.src as usize,
            at.dst as usize,
            live.then_some((later.src as usize, later.dst as usize)),
        );
        live = live && later.step(outer);
        if !at.step(outer) {
            return;
        }
    }
}

/// A place in a loop list (innermost first), and its two offsets.
#[derive(Clone, Copy)]
struct Steps {
    at: [u64; MODES],
    src: u64,
    dst: u64,
}

impl Steps {
    #[inline(always)]
    fn new(src: u64, dst: u64) -> Steps {
        Steps {
            at: [0; MODES],
            src,
            dst,
        }
    }

    /// Moves to the next step of `outer`; `false` after the last (then
    /// back at the start).
    #[inline(always)]
    fn step(&mut self, outer: &[Mode]) -> bool {
        let mut k = 0;
        loop {
            if k == outer.len() {
                return false;
            }
            let m = outer[k];
            self.at[k] += 1;
            if self.at[k] < m.range {
                self.src = self.src.wrapping_add(m.src);
                self.dst = self.dst.wrapping_add(m.dst);
                return true;
            }
            let back = self.at[k] - 1;
            self.at[k] = 0;
            self.src = self.src.wrapping_sub(back.wrapping_mul(m.src));
            self.dst = self.dst.wrapping_sub(back.wrapping_mul(m.dst));
            k += 1;
        }
    }
}

/// Sorts `loops` by source stride, so that they read the source front to
/// back. Insertion sort: a few loops, and no sort routine in small
/// firmware.
pub(crate) fn in_source_order(loops: &mut [Mode]) {
    for i in 1..loops.len() {
        let mut j = i;
        while j > 0 && loops[j - 1].src > loops[j].src {
            loops.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Whether more than twice [`PASS`] of `offsets` (in elements of `size`
/// bytes) fall in one set of a 64-set L1 of 64-byte lines: runs a
/// multiple of 4 KiB apart that would evict each other before a block is
/// done. The squares' rows and the general blocks' columns both ask.
pub(crate) fn crowd_one_set(offsets: impl IntoIterator<Item = usize>, size: usize) -> bool {
    let mut sets = [0u8; 64];
    offsets.into_iter().any(|o| {
        let set = &mut sets[(o.wrapping_mul(size) / 64) % 64];
        *set = set.saturating_add(1);
        usize::from(*set) > 2 * PASS
    })
}

/// The largest divisor of `range` up to `most` (1 if none is above 1).
pub(crate) fn divisor_up_to(range: u64, most: usize) -> usize {
    let mut c = range.min(most as u64);
    while c > 1 && !range.is_multiple_of(c) {
        c -= 1;
    }
    // At most `most`.
    c.max(1) as usize
}

/// What happens to an element on its way: nothing ([`Same`]), or a
/// transpose of the `K` x `K` sub-tile it stands for ([`Transposed`]).
pub(crate) trait Fix<T> {
    /// Whether [`Fix::fix`] returns its argument (the shuffles apply).
    const SAME: bool;
    fn fix(t: T) -> T;
}

/// Elements copied as they are.
pub(crate) struct Same;

impl<T> Fix<T> for Same {
    const SAME: bool = true;
    #[inline(always)]
    fn fix(t: T) -> T {
        t
    }
}

/// A `K` x `K` sub-tile, row by row, transposed.
pub(crate) struct Transposed<const K: usize>;

impl<E: Copy, const K: usize, const KK: usize> Fix<[E; KK]> for Transposed<K> {
    const SAME: bool = false;
    #[inline(always)]
    fn fix(t: [E; KK]) -> [E; KK] {
        core::array::from_fn(|i| t[i % K * K + i / K])
    }
}
