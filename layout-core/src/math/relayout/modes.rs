//! The loop nest of a relayout: both layouts' digits of each dimension
//! merged into one chain, the index space cut into boxes where every digit
//! runs over a full range, and each box a list of modes (range, source
//! stride, destination stride) sorted by destination stride, neighbours
//! merged where they are contiguous on both sides.

use crate::base::limits::MAX_RANK;
use crate::plan::digits::DimDigits;

/// Most merged digits per dimension.
pub(crate) const CHAIN: usize = 8;
/// Most modes in one box.
pub(crate) const MODES: usize = MAX_RANK * CHAIN;

/// One merged digit of a dimension: `(x / base) mod range` moves the
/// source by `src` and the destination by `dst` slots per step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Link {
    pub base: u64,
    pub src: u64,
    pub dst: u64,
}

impl Link {
    const ZERO: Link = Link {
        base: 0,
        src: 0,
        dst: 0,
    };
}

/// The merged digits of one dimension: bases ascending, each dividing the
/// next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Chain {
    pub limit: u64,
    pub len: u8,
    pub links: [Link; CHAIN],
}

impl Chain {
    pub(crate) const EMPTY: Chain = Chain {
        limit: 0,
        len: 0,
        links: [Link::ZERO; CHAIN],
    };

    /// The range of link `j` when the dimension is cut below `limit`
    /// (the top link is unbounded).
    const fn range(&self, j: usize) -> u64 {
        if j + 1 < self.len as usize {
            self.links[j + 1].base / self.links[j].base
        } else {
            u64::MAX
        }
    }
}

/// The stride, at base `b`, of a digit table: the stride of the digit that
/// holds `b`, times `b` over that digit's base.
const fn stride_at<const K: usize>(d: &DimDigits<K>, b: u64) -> Option<u64> {
    let mut j = d.len as usize;
    if j > K {
        j = K;
    }
    while j > 0 {
        j -= 1;
        if d.base[j] <= b {
            return d.stride[j].checked_mul(b / d.base[j]);
        }
    }
    // Below every base: only for b = 0, which never happens.
    None
}

/// Merges two digit tables of one dimension, or `None` when their bases
/// do not form one chain (tile sizes that do not nest across the two
/// layouts) or need more than [`CHAIN`] links.
pub(crate) const fn chain<const K: usize, const J: usize>(
    a: &DimDigits<K>,
    b: &DimDigits<J>,
) -> Option<Chain> {
    let mut c = Chain::EMPTY;
    c.limit = a.limit;
    if a.limit < 2 {
        return Some(c);
    }
    // Merge the sorted base lists.
    let (la, lb) = (a.len as usize, b.len as usize);
    if la > K || lb > J || la == 0 || lb == 0 {
        return None;
    }
    let (mut i, mut j) = (0, 0);
    let mut prev = 0u64;
    while i < la || j < lb {
        let next = if i < la && (j >= lb || a.base[i] <= b.base[j]) {
            let v = a.base[i];
            if j < lb && b.base[j] == v {
                j += 1;
            }
            i += 1;
            v
        } else {
            let v = b.base[j];
            j += 1;
            v
        };
        if prev != 0 && next % prev != 0 {
            return None;
        }
        if c.len as usize >= CHAIN {
            return None;
        }
        let src = match stride_at(a, next) {
            Some(s) => s,
            None => return None,
        };
        let dst = match stride_at(b, next) {
            Some(s) => s,
            None => return None,
        };
        c.links[c.len as usize] = Link {
            base: next,
            src,
            dst,
        };
        c.len += 1;
        prev = next;
    }
    if c.links[0].base != 1 {
        return None;
    }
    Some(c)
}

/// One part of a dimension's index range `0..limit`: links below `top` run
/// over their full ranges, link `top` over `0..count`, and the links above
/// are fixed, adding `src` and `dst`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece {
    pub top: u8,
    pub count: u64,
    pub src: u64,
    pub dst: u64,
}

pub(crate) const NO_PIECE: Piece = Piece {
    top: 0,
    count: 0,
    src: 0,
    dst: 0,
};

/// The pieces of a dimension's index range `0..limit`.
pub(crate) fn pieces(c: &Chain) -> ([Piece; CHAIN], usize) {
    // From 0 there is at most one piece per link.
    let mut out = [NO_PIECE; CHAIN];
    let n = pieces_in(c, 0, c.limit, &mut out).unwrap_or(0);
    (out, n)
}

/// `lo..hi` of one dimension as pieces in `out`, and their count: full ranges of the
/// lower links under fixed values of the higher ones, going up from `lo`
/// to the largest base that fits and back down to `hi` (from 0, the
/// mixed-radix digits of `hi`: at most one piece per link). `None` if the
/// range needs more pieces than `out` holds.
pub(crate) fn pieces_in(c: &Chain, lo: u64, hi: u64, out: &mut [Piece]) -> Option<usize> {
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
        return Some(n);
    }
    let mut x = lo;
    while x < hi {
        if n == out.len() {
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
    Some(n)
}

/// Moves `at` to the next place of an odometer whose wheel `d` counts
/// `0..ends[d]`, the last wheel fastest; `false` (all wheels back at 0)
/// after the last place.
pub(crate) fn next<T: Copy + PartialOrd + core::ops::AddAssign + From<u8>>(
    at: &mut [T],
    ends: &[T],
) -> bool {
    for d in (0..at.len().min(ends.len())).rev() {
        at[d] += T::from(1);
        if at[d] < ends[d] {
            return true;
        }
        at[d] = T::from(0);
    }
    false
}

/// Calls `f` with the loop nest of every box that takes one of the pieces
/// `pieces[d]` of each dimension `d < rank`; nothing when a dimension has
/// none. One nest is refilled for every box (it is 3 KB: no copies).
pub(crate) fn each_box(
    chains: &[Chain; MAX_RANK],
    pieces: &[&[Piece]; MAX_RANK],
    rank: usize,
    f: &mut dyn FnMut(&Nest),
) {
    each_box_while(chains, pieces, rank, &mut |n: &Nest| {
        f(n);
        true
    });
}

/// [`each_box`] until `f` returns `false` (the boxes after it are not
/// visited).
pub(crate) fn each_box_while(
    chains: &[Chain; MAX_RANK],
    pieces: &[&[Piece]; MAX_RANK],
    rank: usize,
    f: &mut dyn FnMut(&Nest) -> bool,
) {
    let mut counts = [0usize; MAX_RANK];
    for (c, p) in counts.iter_mut().zip(&pieces[..rank]) {
        *c = p.len();
    }
    if counts[..rank].contains(&0) {
        return;
    }
    let mut choice = [0usize; MAX_RANK];
    let mut nest = Nest::new();
    loop {
        nest.of_box(chains, pieces, &choice, rank);
        if !f(&nest) || !next(&mut choice[..rank], &counts[..rank]) {
            return;
        }
    }
}

/// A loop of the nest: `range` steps of `src` and `dst` slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mode {
    pub range: u64,
    pub src: u64,
    pub dst: u64,
}

/// The loops of one box, innermost (smallest destination stride) first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Nest {
    pub modes: [Mode; MODES],
    pub len: usize,
    /// Offsets of the box's first element.
    pub src: u64,
    pub dst: u64,
}

impl Nest {
    /// The loops `modes` with their source strides divided by `ks` and
    /// their destination strides by `kd` (elements taken `ks` or `kd` at a
    /// time: bytes of packed slots, runs as units), from `src` and `dst`.
    pub(crate) fn scaled(modes: &[Mode], ks: u64, kd: u64, src: u64, dst: u64) -> Nest {
        let mut n = Nest::new();
        for (out, m) in n.modes.iter_mut().zip(modes) {
            *out = Mode {
                range: m.range,
                src: m.src / ks,
                dst: m.dst / kd,
            };
        }
        (n.len, n.src, n.dst) = (modes.len().min(MODES), src, dst);
        n
    }

    /// The box cut in two along loop `i`: its steps `0..at`, and the
    /// rest (a loop left with one step is dropped).
    pub(crate) fn cut(&self, i: usize, at: u64) -> (Nest, Nest) {
        let (mut a, mut b) = (*self, *self);
        let m = self.modes[i];
        a.modes[i].range = at;
        b.modes[i].range = m.range - at;
        b.src = b.src.wrapping_add(at.wrapping_mul(m.src));
        b.dst = b.dst.wrapping_add(at.wrapping_mul(m.dst));
        for n in [&mut a, &mut b] {
            if n.modes[i].range < 2 {
                n.modes.copy_within(i + 1..n.len, i);
                n.len -= 1;
            }
        }
        (a, b)
    }

    /// The loops `(range, src, dst)`, innermost first, from offsets `src`
    /// and `dst`, as they are (for unit tests).
    #[cfg(test)]
    pub(crate) fn of(loops: &[(u64, u64, u64)], src: u64, dst: u64) -> Nest {
        let mut n = Nest::new();
        for (m, &(range, s, d)) in n.modes.iter_mut().zip(loops) {
            *m = Mode {
                range,
                src: s,
                dst: d,
            };
        }
        (n.len, n.src, n.dst) = (loops.len().min(MODES), src, dst);
        n
    }

    /// The loops, innermost first.
    pub(crate) fn loops(&self) -> &[Mode] {
        &self.modes[..self.len]
    }

    pub(crate) const fn new() -> Nest {
        Nest {
            modes: [Mode {
                range: 0,
                src: 0,
                dst: 0,
            }; MODES],
            len: 0,
            src: 0,
            dst: 0,
        }
    }

    /// Adds a loop, keeping the list sorted by destination stride (then
    /// source stride); loops of one step are dropped.
    const fn push(&mut self, m: Mode) {
        if m.range < 2 || self.len >= MODES {
            return;
        }
        let mut at = self.len;
        while at > 0 {
            let p = self.modes[at - 1];
            if p.dst < m.dst || (p.dst == m.dst && p.src <= m.src) {
                break;
            }
            self.modes[at] = p;
            at -= 1;
        }
        self.modes[at] = m;
        self.len += 1;
    }

    /// Merges neighbours that are one loop on both sides.
    const fn fuse(&mut self) {
        if self.len == 0 {
            return;
        }
        let mut out = 0;
        let mut i = 1;
        while i < self.len {
            let a = self.modes[out];
            let b = self.modes[i];
            let joined = match (a.src.checked_mul(a.range), a.dst.checked_mul(a.range)) {
                (Some(s), Some(d)) => s == b.src && d == b.dst,
                _ => false,
            };
            if joined {
                self.modes[out].range = a.range * b.range;
            } else {
                out += 1;
                self.modes[out] = b;
            }
            i += 1;
        }
        self.len = out + 1;
    }

    /// The innermost loop, the first other loop contiguous in the source
    /// (source stride 1), and the remaining loops in order: the shape of a
    /// transposed copy. `None` without such a second loop.
    pub(crate) fn transposed(&self) -> Option<(Mode, Mode, [Mode; MODES], usize)> {
        let modes = &self.modes[..self.len];
        let (&inner, rest) = modes.split_first()?;
        let q = rest.iter().position(|m| m.src == 1)?;
        let mut others = [inner; MODES];
        let mut len = 0;
        for (i, m) in rest.iter().enumerate() {
            if i != q {
                others[len] = *m;
                len += 1;
            }
        }
        Some((inner, rest[q], others, len))
    }

    /// Makes this the nest of the box that takes piece `choice[d]` of
    /// every dimension.
    pub(crate) fn of_box(
        &mut self,
        chains: &[Chain; MAX_RANK],
        pieces: &[&[Piece]; MAX_RANK],
        choice: &[usize; MAX_RANK],
        rank: usize,
    ) {
        (self.len, self.src, self.dst) = (0, 0, 0);
        for d in 0..rank {
            let p = pieces[d][choice[d]];
            self.src = self.src.wrapping_add(p.src);
            self.dst = self.dst.wrapping_add(p.dst);
            if p.top == u8::MAX {
                continue;
            }
            let c = &chains[d];
            let top = p.top as usize;
            for j in 0..top {
                let l = c.links[j];
                self.push(Mode {
                    range: c.range(j),
                    src: l.src,
                    dst: l.dst,
                });
            }
            let l = c.links[top];
            self.push(Mode {
                range: p.count,
                src: l.src,
                dst: l.dst,
            });
        }
        self.fuse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(limit: u64, bs: &[(u64, u64)]) -> DimDigits<8> {
        let mut d = DimDigits::<8>::EMPTY;
        d.limit = limit;
        for (j, &(b, s)) in bs.iter().enumerate() {
            d.base[j] = b;
            d.stride[j] = s;
        }
        d.len = bs.len() as u8;
        d
    }

    #[test]
    fn chains_merge_bases_and_scale_strides() {
        // Source: row-major column of stride 1; destination: tiles of 128.
        let a = digits(1024, &[(1, 1)]);
        let b = digits(1024, &[(1, 1), (128, 1024)]);
        let c = chain(&a, &b).unwrap();
        assert_eq!(c.len, 2);
        assert_eq!(
            c.links[1],
            Link {
                base: 128,
                src: 128,
                dst: 1024
            }
        );
        // 3 and 2 do not nest.
        let x = digits(12, &[(1, 1), (3, 10)]);
        let y = digits(12, &[(1, 1), (2, 10)]);
        assert!(chain(&x, &y).is_none());
    }

    #[test]
    fn pieces_cover_the_limit_exactly() {
        let a = digits(21, &[(1, 1), (4, 100), (8, 1000)]);
        let c = chain(&a, &a).unwrap();
        let (p, n) = pieces(&c);
        // 21 = 2*8 + 1*4 + 1: full 0..16, then 16..20, then 20.
        let mut covered = 0;
        for piece in &p[..n] {
            let mut size = piece.count;
            for j in 0..piece.top as usize {
                size *= c.range(j);
            }
            covered += size;
        }
        assert_eq!(covered, 21);
        assert_eq!(n, 3);
    }

    #[test]
    fn contiguous_neighbours_fuse() {
        let mut n = Nest::new();
        n.push(Mode {
            range: 128,
            src: 1,
            dst: 1,
        });
        n.push(Mode {
            range: 8,
            src: 128,
            dst: 128,
        });
        n.push(Mode {
            range: 4,
            src: 4096,
            dst: 2048,
        });
        n.fuse();
        assert_eq!(n.len, 2);
        assert_eq!(
            n.modes[0],
            Mode {
                range: 1024,
                src: 1,
                dst: 1
            }
        );
    }
}
