//! Offsets as per-dimension digits: the fast tables.
//!
//! Without `*`, every coordinate of the final (tiled) shape comes from one
//! logical dimension `x` as a window `(x mod P) / Q` of it: tiling a window
//! `(P, Q)` by `t` gives the grid `(P, Q*t)` and the inner part `(Q*t, Q)`.
//! When each `Q*t` divides the `P` it splits (tile sizes that nest, as
//! real layouts have), the windows of one dimension are consecutive digits
//! of a mixed-radix number: bases `1 = Q_0 | Q_1 | ... | Q_n`, and
//!
//! ```text
//! offset = sum over dims d, digits j of ((x_d mod Q_{j+1}) / Q_j) * S_j
//! ```
//!
//! with `S_j` the stride of that coordinate in the final shape (the top
//! digit has no `mod`). Digits that are always zero (`Q_j` at or past the
//! dimension's size) are dropped. With powers of two every digit is a
//! mask, a shift and a multiply: the item form's arithmetic, from tables.
//!
//! Layouts with `*`, tile sizes that do not nest, or more than `K` digits
//! in one dimension have no digit tables; the plan's general walk serves
//! them.

use crate::base::konst::{self, sub};
use crate::base::limits::{COMBINE_ENTRY as COMBINE, MAX_PHYSICAL_RANK, MAX_RANK};
use crate::model::array::UncheckedArray;
use crate::model::sizes::Tiling;

/// Most digits per dimension in a [`Plan`](crate::Plan).
pub(crate) const PLAN_DIGITS: usize = 8;

/// The digits of one logical dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct DimDigits<const K: usize> {
    /// Index bound of the dimension.
    pub limit: u64,
    /// Number of digits.
    pub len: u8,
    /// Digit bases, ascending; each divides the next.
    pub base: [u64; K],
    /// Stride of each digit's coordinate in the final shape.
    pub stride: [u64; K],
}

impl<const K: usize> DimDigits<K> {
    pub(crate) const EMPTY: DimDigits<K> = DimDigits {
        limit: 0,
        len: 0,
        base: [0; K],
        stride: [0; K],
    };

    /// The dimension's part of the offset of coordinate `x`.
    #[inline(always)]
    pub(crate) const fn offset(&self, x: u64, pow2: bool) -> u64 {
        let len = if (self.len as usize) < K {
            self.len as usize
        } else {
            K
        };
        let mut sum: u64 = 0;
        let mut j = 0;
        while j < len {
            let next = if j + 1 < len { self.base[j + 1] } else { 0 };
            let digit = if pow2 {
                // `next - 1` is all ones for the top digit (next = 0).
                (x & next.wrapping_sub(1)) >> self.base[j].trailing_zeros()
            } else if next == 0 {
                x / self.base[j]
            } else {
                (x % next) / self.base[j]
            };
            sum = sum.wrapping_add(digit.wrapping_mul(self.stride[j]));
            j += 1;
        }
        sum
    }

    /// How many values digit `j` takes for indices below the limit.
    pub(crate) const fn range(&self, j: usize) -> u64 {
        if j + 1 < self.len as usize {
            self.base[j + 1] / self.base[j]
        } else {
            self.limit.div_ceil(self.base[j])
        }
    }
}

/// Why a layout has no digit tables (an error's typed sub-kind, so
/// defined with the errors).
pub(crate) use crate::base::error::NoDigitTables as NoDigits;

/// A working coordinate while tiling: a window of dimension `dim`, or
/// always zero (`dim == NONE`).
#[derive(Clone, Copy)]
struct Window {
    dim: u8,
    /// Exclusive upper base; 0 for none (infinite).
    p: u64,
    q: u64,
}

const NONE: u8 = u8::MAX;
const ZERO: Window = Window {
    dim: NONE,
    p: 0,
    q: 0,
};

/// The digits of every dimension of a valid shape whose sizes `tiling`
/// describes (all levels). `limits` are the index bounds; dimensions in
/// `keep` (a bit per dimension) keep their top digits even past the limit,
/// so that the digit structure does not depend on their size. Returns the
/// tables, whether every base is a power of two, and per dimension a bit
/// per digit whose stride does not depend on the sizes of the `keep` dims.
pub(crate) const fn build<const K: usize>(
    s: &UncheckedArray,
    tiling: &Tiling,
    limits: &[u64; MAX_RANK],
    keep: u32,
) -> Result<([DimDigits<K>; MAX_RANK], bool, [u8; MAX_RANK]), NoDigits> {
    let l = &s.layout;
    let n = s.rank as usize;
    let mut w = [ZERO; MAX_PHYSICAL_RANK];
    let mut len = n;
    let mut p = 0;
    while p < n {
        w[p] = Window {
            dim: l.m2m[n - 1 - p] as u8,
            p: 0,
            q: 1,
        };
        p += 1;
    }
    let mut level = 0;
    while level < l.tile_count as usize {
        let first = l.tile_entry_index(level, 0);
        let tile = sub(&l.tile_entries, first, l.tile_ends[level] as usize);
        let k = tile.len();
        if k > len {
            len = konst::prepend(&mut w, len, k - len, ZERO);
        }
        let base = len - k;
        let mut grid = [ZERO; MAX_PHYSICAL_RANK];
        let mut inner = [ZERO; MAX_PHYSICAL_RANK];
        let mut j = 0;
        while j < k {
            if tile[j] == COMBINE {
                return Err(NoDigits::Combine);
            }
            let t = tile[j] as u64;
            let c = w[base + j];
            if c.dim != NONE && t > 1 {
                match c.q.checked_mul(t) {
                    // Past u64 the grid is always zero.
                    None => inner[j] = c,
                    Some(qt) if c.p != 0 && qt >= c.p => inner[j] = c,
                    Some(qt) => {
                        if c.p != 0 && c.p % qt != 0 {
                            return Err(NoDigits::NotNested);
                        }
                        grid[j] = Window {
                            dim: c.dim,
                            p: c.p,
                            q: qt,
                        };
                        inner[j] = Window {
                            dim: c.dim,
                            p: qt,
                            q: c.q,
                        };
                    }
                }
            } else {
                grid[j] = c;
            }
            j += 1;
        }
        len = konst::splice(&mut w, base, &grid, &inner, k);
        level += 1;
    }
    // Strides of the final shape, which `tiling` sized.
    let sizes = &tiling.sizes;
    let mut out = [DimDigits::<K>::EMPTY; MAX_RANK];
    let mut pow2 = true;
    let mut d = 0;
    while d < n {
        out[d].limit = limits[d];
        d += 1;
    }
    let mut fixed = [0u8; MAX_RANK];
    // Once a coordinate whose size follows a `keep` dim's size is passed,
    // every more major stride depends on it.
    let mut variable = false;
    let mut stride: u64 = 1;
    let mut i = sizes.len;
    while i > 0 {
        i -= 1;
        let c = w[i];
        let dim = c.dim as usize;
        let kept = dim < MAX_RANK && (keep >> dim) & 1 == 1;
        if c.dim != NONE && (kept || c.q < limits[dim]) {
            // Windows come out most minor first per dimension only by
            // chance; insert in base order.
            let dd = &mut out[dim];
            if dd.len as usize >= K {
                return Err(NoDigits::TooMany);
            }
            let mut at = dd.len as usize;
            while at > 0 && dd.base[at - 1] > c.q {
                dd.base[at] = dd.base[at - 1];
                dd.stride[at] = dd.stride[at - 1];
                at -= 1;
            }
            dd.base[at] = c.q;
            dd.stride[at] = stride;
            dd.len += 1;
            pow2 &= c.q.is_power_of_two();
            // Keep the fixed bits in step with the insertion.
            let bits = fixed[dim] as u32;
            let below = bits & ((1 << at) - 1);
            let above = (bits >> at) << (at + 1);
            let this = if variable { 0 } else { 1 << at };
            fixed[dim] = (below | above | this) as u8;
            if kept && c.p == 0 {
                variable = true;
            }
        }
        stride = stride.wrapping_mul(sizes.d[i]);
    }
    Ok((out, pow2, fixed))
}

/// The coordinates stored at element slot `offset` of a layout with these
/// digit tables, or `None` for a padding slot. Peels digits off the
/// offset from the largest stride down, then checks the result by
/// computing its offset again.
pub(crate) const fn inverse<const K: usize>(
    digits: &[DimDigits<K>],
    rank: usize,
    offset: u64,
    pow2: bool,
) -> Option<[u64; MAX_RANK]> {
    let mut x = [0u64; MAX_RANK];
    let mut rest = offset;
    let mut below = u64::MAX;
    let mut first = true;
    loop {
        let mut best = usize::MAX;
        let mut best_j = 0;
        let mut best_stride = 0;
        let mut d = 0;
        while d < rank && d < digits.len() {
            let dd = &digits[d];
            let mut j = 0;
            while j < dd.len as usize && j < K {
                let s = dd.stride[j];
                if s > 0 && dd.range(j) >= 2 && (first || s < below) && s > best_stride {
                    best = d;
                    best_j = j;
                    best_stride = s;
                }
                j += 1;
            }
            d += 1;
        }
        if best == usize::MAX {
            break;
        }
        let c = rest / best_stride;
        rest -= c * best_stride;
        x[best] = match c.checked_mul(digits[best].base[best_j]) {
            Some(v) => match x[best].checked_add(v) {
                Some(v) => v,
                None => return None,
            },
            None => return None,
        };
        below = best_stride;
        first = false;
    }
    if rest != 0 {
        return None;
    }
    let mut again: u64 = 0;
    let mut d = 0;
    while d < rank && d < digits.len() {
        if x[d] >= digits[d].limit {
            return None;
        }
        again = again.wrapping_add(digits[d].offset(x[d], pow2));
        d += 1;
    }
    if again == offset {
        Some(x)
    } else {
        None
    }
}

/// One digit of an [`Odometer`]: its dimension, base, stride and range.
#[derive(Clone, Copy, Debug)]
struct Wheel {
    dim: u8,
    base: u64,
    stride: u64,
    range: u64,
}

/// Every in-bounds index of a layout in memory order (offsets ascending),
/// with its offset, without a division: the digits are wheels turned from
/// the smallest stride up. Holds up to `N` digits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Odometer<const N: usize> {
    wheels: [Wheel; N],
    /// Position of each wheel.
    at: [u64; N],
    count: usize,
    x: [u64; MAX_RANK],
    limits: [u64; MAX_RANK],
    rank: usize,
    offset: u64,
    /// `false` once every index was produced (or for an empty layout).
    live: bool,
}

impl<const N: usize> Odometer<N> {
    /// The wheels of `digits`, most major (largest stride) first.
    pub(crate) const fn new<const K: usize>(digits: &[DimDigits<K>], rank: usize) -> Odometer<N> {
        let mut o = Odometer {
            wheels: [Wheel {
                dim: 0,
                base: 0,
                stride: 0,
                range: 0,
            }; N],
            at: [0; N],
            count: 0,
            x: [0; MAX_RANK],
            limits: [0; MAX_RANK],
            rank,
            offset: 0,
            live: true,
        };
        let mut d = 0;
        while d < rank && d < digits.len() && d < MAX_RANK {
            let dd = &digits[d];
            o.limits[d] = dd.limit;
            if dd.limit == 0 {
                o.live = false;
            }
            let mut j = 0;
            while j < dd.len as usize && j < K {
                let range = dd.range(j);
                if range >= 2 {
                    if o.count >= N {
                        o.live = false;
                        return o;
                    }
                    // Insert by stride, descending.
                    let w = Wheel {
                        dim: d as u8,
                        base: dd.base[j],
                        stride: dd.stride[j],
                        range,
                    };
                    let mut at = o.count;
                    while at > 0 && o.wheels[at - 1].stride < w.stride {
                        o.wheels[at] = o.wheels[at - 1];
                        at -= 1;
                    }
                    o.wheels[at] = w;
                    o.count += 1;
                }
                j += 1;
            }
            d += 1;
        }
        o
    }

    /// The next index (first `rank` entries of the array) and its offset.
    pub(crate) const fn next(&mut self) -> Option<([u64; MAX_RANK], u64)> {
        while self.live {
            let current = (self.x, self.offset);
            let inside = self.inside();
            self.turn();
            if inside {
                return Some(current);
            }
        }
        None
    }

    const fn inside(&self) -> bool {
        let mut d = 0;
        while d < self.rank {
            if self.x[d] >= self.limits[d] {
                return false;
            }
            d += 1;
        }
        true
    }

    /// Advances the most minor wheel, carrying.
    const fn turn(&mut self) {
        let mut k = self.count;
        loop {
            if k == 0 {
                self.live = false;
                return;
            }
            k -= 1;
            let w = self.wheels[k];
            let d = w.dim as usize;
            if self.at[k] + 1 < w.range {
                self.at[k] += 1;
                self.x[d] = self.x[d].wrapping_add(w.base);
                self.offset = self.offset.wrapping_add(w.stride);
                return;
            }
            // Back to zero, and carry.
            let back = self.at[k];
            self.at[k] = 0;
            self.x[d] = self.x[d].wrapping_sub(back.wrapping_mul(w.base));
            self.offset = self.offset.wrapping_sub(back.wrapping_mul(w.stride));
        }
    }
}
