//! The copy loops of a relayout over slices of any `Copy` element: whole
//! runs where both sides are contiguous, small transposed blocks where one
//! side is contiguous along one loop and the other along another, strided
//! steps otherwise. The nest's offsets are in bounds by construction
//! (the plan checked both allocations against the slices).

use super::modes::{Mode, Nest, MODES};

/// Calls `f(src, dst)` with the offsets of every step of `outer` (innermost
/// first), starting at `(src, dst)`.
#[inline]
fn each(outer: &[Mode], src: u64, dst: u64, mut f: impl FnMut(usize, usize)) {
    let mut at = [0u64; MODES];
    let (mut s, mut d) = (src, dst);
    loop {
        f(s as usize, d as usize);
        let mut k = 0;
        loop {
            if k == outer.len() {
                return;
            }
            let m = outer[k];
            at[k] += 1;
            if at[k] < m.range {
                s = s.wrapping_add(m.src);
                d = d.wrapping_add(m.dst);
                break;
            }
            let back = at[k] - 1;
            at[k] = 0;
            s = s.wrapping_sub(back.wrapping_mul(m.src));
            d = d.wrapping_sub(back.wrapping_mul(m.dst));
            k += 1;
        }
    }
}

/// Copies every element of one box.
pub(crate) fn copy_nest<T: Copy>(n: &Nest, src: &[T], dst: &mut [T]) {
    let modes = &n.modes[..n.len];
    let Some((&m0, rest)) = modes.split_first() else {
        dst[n.dst as usize] = src[n.src as usize];
        return;
    };
    if m0.src == 1 && m0.dst == 1 {
        let len = m0.range as usize;
        each(rest, n.src, n.dst, |s, d| {
            dst[d..d + len].copy_from_slice(&src[s..s + len]);
        });
        return;
    }
    if m0.dst == 1 {
        if let Some(q) = rest.iter().position(|m| m.src == 1) {
            let mq = rest[q];
            let mut outer = [m0; MODES];
            let mut len = 0;
            for (i, m) in rest.iter().enumerate() {
                if i != q {
                    outer[len] = *m;
                    len += 1;
                }
            }
            let block = Block {
                rp: m0.range as usize,
                sp: m0.src as usize,
                rq: mq.range as usize,
                dq: mq.dst as usize,
            };
            each(&outer[..len], n.src, n.dst, |s, d| {
                block.copy(src, s, dst, d)
            });
            return;
        }
    }
    let (r, ss, ds) = (m0.range as usize, m0.src as usize, m0.dst as usize);
    each(rest, n.src, n.dst, |s, d| {
        for i in 0..r {
            dst[d + i * ds] = src[s + i * ss];
        }
    });
}

/// A transposed block: `p` steps `sp` in the source and 1 in the
/// destination, `q` steps 1 in the source and `dq` in the destination.
#[derive(Clone, Copy)]
struct Block {
    rp: usize,
    sp: usize,
    rq: usize,
    dq: usize,
}

/// The side of the cache-sized squares a block is cut into.
const SQUARE: usize = 64;

impl Block {
    fn copy<T: Copy>(&self, src: &[T], s: usize, dst: &mut [T], d: usize) {
        let (p8, q8) = (self.rp / 8 * 8, self.rq / 8 * 8);
        if p8 > 0 && q8 > 0 {
            let mut q0 = 0;
            while q0 < q8 {
                let q1 = (q0 + SQUARE).min(q8);
                let mut p0 = 0;
                while p0 < p8 {
                    let p1 = (p0 + SQUARE).min(p8);
                    for q in (q0..q1).step_by(8) {
                        for p in (p0..p1).step_by(8) {
                            self.micro::<T, 8, 8>(src, s, dst, d, p, q);
                        }
                    }
                    p0 = p1;
                }
                q0 = q1;
            }
            self.edges(src, s, dst, d, p8, q8);
            return;
        }
        match (self.rp, self.rq) {
            (2, q) if q >= 32 => self.strip::<T, 2, 32>(src, s, dst, d),
            (4, q) if q >= 16 => self.strip::<T, 4, 16>(src, s, dst, d),
            (p, 2) if p >= 32 => self.strip::<T, 32, 2>(src, s, dst, d),
            (p, 4) if p >= 16 => self.strip::<T, 16, 4>(src, s, dst, d),
            _ => self.edges(src, s, dst, d, 0, 0),
        }
    }

    /// Blocks of `P` x `Q` along the long side, then the rest.
    fn strip<T: Copy, const P: usize, const Q: usize>(
        &self,
        src: &[T],
        s: usize,
        dst: &mut [T],
        d: usize,
    ) {
        let (pn, qn) = (self.rp / P * P, self.rq / Q * Q);
        for q in (0..qn).step_by(Q) {
            for p in (0..pn).step_by(P) {
                self.micro::<T, P, Q>(src, s, dst, d, p, q);
            }
        }
        self.edges(src, s, dst, d, pn, qn);
    }

    /// The elements outside `0..pn` x `0..qn`, one by one.
    fn edges<T: Copy>(&self, src: &[T], s: usize, dst: &mut [T], d: usize, pn: usize, qn: usize) {
        for q in 0..self.rq {
            let from = if q < qn { pn } else { 0 };
            for p in from..self.rp {
                dst[d + p + q * self.dq] = src[s + p * self.sp + q];
            }
        }
    }

    /// One `P` x `Q` block at `(p, q)` through a local array: rows of the
    /// source in, rows of the destination out.
    #[inline(always)]
    fn micro<T: Copy, const P: usize, const Q: usize>(
        &self,
        src: &[T],
        s: usize,
        dst: &mut [T],
        d: usize,
        p: usize,
        q: usize,
    ) {
        let first = src[s + p * self.sp + q];
        let mut t = [[first; P]; Q];
        for (i, row) in (0..P).map(|i| (i, s + (p + i) * self.sp + q)) {
            let row = &src[row..row + Q];
            for j in 0..Q {
                t[j][i] = row[j];
            }
        }
        for (j, out) in t.iter().enumerate() {
            let at = d + p + (q + j) * self.dq;
            dst[at..at + P].copy_from_slice(out);
        }
    }
}

/// Calls `f(src, dst)` with the slot offsets of every element of one box
/// (for the bit-level copies).
pub(crate) fn each_slot(n: &Nest, mut f: impl FnMut(u64, u64)) {
    let modes = &n.modes[..n.len];
    let mut at = [0u64; MODES];
    let (mut s, mut d) = (n.src, n.dst);
    loop {
        f(s, d);
        let mut k = 0;
        loop {
            if k == modes.len() {
                return;
            }
            let m = modes[k];
            at[k] += 1;
            if at[k] < m.range {
                s = s.wrapping_add(m.src);
                d = d.wrapping_add(m.dst);
                break;
            }
            let back = at[k] - 1;
            at[k] = 0;
            s = s.wrapping_sub(back.wrapping_mul(m.src));
            d = d.wrapping_sub(back.wrapping_mul(m.dst));
            k += 1;
        }
    }
}
