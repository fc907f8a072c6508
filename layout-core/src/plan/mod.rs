//! Layer 4, tables: a [`Plan`] holds everything the offset of an element
//! depends on, computed once from a validated [`ArrayShape`]: the physical
//! permutation, the working sizes each tile level sees, and the final
//! (tiled) shape. Evaluating an offset is then a short loop of
//! multiply-adds and divisions by tile sizes.
//!
//! May use: [`base`](crate::base), [`model`](crate::model). A plan is made
//! from an `ArrayShape` only, so its tables always describe a valid layout.

use crate::base::error::{Error, ErrorKind, Span};
use crate::base::konst::{self, copy_u64, sub, tri};
use crate::base::limits::{
    COMBINE_ENTRY as COMBINE, MAX_PHYSICAL_RANK, MAX_RANK, MAX_TILES, MAX_TILE_ENTRIES,
};
use crate::model::array::ArrayShape;
use crate::model::index::{Index, PhysicalShape};
use crate::model::sizes::{layout_dims, tiling, totals};

pub(crate) mod digits;

use digits::{DimDigits, PLAN_DIGITS};

/// One power-of-two digit: `((index[dim] & mask) >> shift) * stride`, or,
/// when the plan's digits are `exact`, `(index[dim] & mask) * stride` with
/// the digit's low bits cleared from `mask` and `stride` already divided by
/// the digit's base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Flat {
    dim: u8,
    shift: u8,
    mask: u64,
    stride: u64,
}

impl Flat {
    const ZERO: Flat = Flat {
        dim: 0,
        shift: 0,
        mask: 0,
        stride: 0,
    };
}

/// `Plan::mode`: no digit tables (the general walk).
const GENERAL: u8 = 0;
/// Digit tables whose bases are all powers of two (shifts and masks).
const POW2: u8 = 1;
/// Digit tables with other bases (divisions).
const DIVIDE: u8 = 2;

/// Precomputed offset tables of one array layout.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, Plan};
/// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
/// let plan = Plan::new(&s).unwrap();
/// assert_eq!(plan.offset(&[2, 3]), Ok(17));
/// assert_eq!(plan.allocated_elements(), 24);
/// assert_eq!(plan.index_of(17).unwrap().as_slice(), &[2, 3]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    rank: u8,
    /// Physical position (0 = most major) -> logical dimension.
    perm: [u8; MAX_RANK],
    /// Logical sizes the layout uses (bounds, legacy padded sizes).
    dims: [u64; MAX_RANK],
    /// Logical sizes an index may reach (without legacy padding).
    limits: [u64; MAX_RANK],
    level_count: u8,
    tile: [i64; MAX_TILE_ENTRIES],
    tile_ends: [u8; MAX_TILES],
    /// Size-1 dims prepended before each level.
    prepend: [u8; MAX_TILES],
    /// Working length before each level (before prepending).
    len_before: [u8; MAX_TILES],
    /// For each tile entry, the size of the working dim it covers.
    sizes: [u64; MAX_TILE_ENTRIES],
    /// The fast tables (see `digits`); unused when `mode` is `GENERAL`.
    digits: [DimDigits<PLAN_DIGITS>; MAX_RANK],
    mode: u8,
    /// With `POW2`, every digit of every dimension as one flat list of
    /// mask, shift and stride.
    flat: [Flat; MAX_RANK * PLAN_DIGITS],
    flat_len: u8,
    /// Every flat digit's stride is a multiple of its base, so the flat
    /// list is stored shift-free: `(index[dim] & mask) * stride`.
    exact: bool,
    final_dims: [u64; MAX_PHYSICAL_RANK],
    final_len: u8,
    tiled_elements: u64,
    allocated: u64,
}

impl Plan {
    /// Computes the tables of a validated array shape. Fails for `?`
    /// dimensions (no static size) and for allocations past `i64`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, ErrorKind, Plan};
    /// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// let plan = Plan::new(&s).unwrap();
    /// assert_eq!(plan.offset(&[3, 0, 13, 300]), Ok(63_048_281));
    /// let open = parse_array("f32[?,128]{1,0:T(8,128)}").unwrap();
    /// assert_eq!(Plan::new(&open).unwrap_err().kind(), ErrorKind::UnboundedDimension);
    /// ```
    pub const fn new(s: &ArrayShape) -> Result<Plan, Error> {
        let raw = &s.raw;
        let t = tri!(tiling(raw, raw.layout.tile_count as usize));
        let (tiled, allocated) = tri!(totals(&t.sizes, raw.layout.tail_padding));
        let dims = tri!(layout_dims(raw));
        let n = raw.rank as usize;
        let mut plan = Plan {
            rank: raw.rank,
            perm: [0; MAX_RANK],
            dims: [0; MAX_RANK],
            limits: [0; MAX_RANK],
            level_count: raw.layout.tile_count,
            tile: raw.layout.tile_entries,
            tile_ends: raw.layout.tile_ends,
            prepend: t.prepend,
            len_before: t.len_before,
            sizes: t.covered,
            digits: [DimDigits::EMPTY; MAX_RANK],
            mode: GENERAL,
            flat: [Flat::ZERO; MAX_RANK * PLAN_DIGITS],
            flat_len: 0,
            exact: false,
            final_dims: copy_u64(sub(&t.sizes.d, 0, t.sizes.len)),
            final_len: t.sizes.len as u8,
            tiled_elements: tiled,
            allocated,
        };
        let mut p = 0;
        while p < n {
            plan.perm[p] = raw.layout.m2m[n - 1 - p] as u8;
            plan.dims[p] = dims[p];
            plan.limits[p] = match raw.dims[p].layout_size() {
                Some(v) => v,
                None => dims[p],
            };
            p += 1;
        }
        if let Ok((digits, pow2, _)) = digits::build(raw, &t, &plan.limits, 0) {
            plan.digits = digits;
            plan.mode = if pow2 { POW2 } else { DIVIDE };
            if pow2 {
                plan.flatten();
            }
        }
        Ok(plan)
    }

    /// The sum of the first `N` flat digits (slots past `flat_len` are
    /// zero); `EXACT` is the plan's `exact`.
    #[inline(always)]
    const fn flat_sum<const N: usize, const EXACT: bool>(&self, index: &[u64]) -> u64 {
        // A short index gives an unspecified offset: every digit reads the
        // last coordinate it has. Clamping (not a checked read) keeps the
        // loop free of branches; an empty index has no coordinate at all.
        let Some(last) = index.len().checked_sub(1) else {
            return 0;
        };
        let mut lin: u64 = 0;
        let mut k = 0;
        while k < N && k < self.flat.len() {
            let f = &self.flat[k];
            let d = f.dim as usize;
            let x = index[if d < last { d } else { last }];
            let digit = if EXACT {
                x & f.mask
            } else {
                (x & f.mask) >> f.shift
            };
            lin = lin.wrapping_add(digit.wrapping_mul(f.stride));
            k += 1;
        }
        lin
    }

    /// The power-of-two digits as one list (see [`Flat`]), shift-free when
    /// every stride is a multiple of its digit's base (the usual case: a
    /// digit counts blocks of `base` indices, each at least `base`
    /// elements long).
    const fn flatten(&mut self) {
        let mut n = 0;
        let mut exact = true;
        let mut d = 0;
        while d < self.rank as usize {
            let dd = &self.digits[d];
            let len = dd.len as usize;
            let mut j = 0;
            while j < len && n < self.flat.len() {
                let next = if j + 1 < len { dd.base[j + 1] } else { 0 };
                let shift = dd.base[j].trailing_zeros();
                let low = (1u64 << shift) - 1;
                exact &= dd.stride[j] & low == 0;
                self.flat[n] = Flat {
                    dim: d as u8,
                    shift: shift as u8,
                    mask: next.wrapping_sub(1),
                    stride: dd.stride[j],
                };
                n += 1;
                j += 1;
            }
            d += 1;
        }
        self.flat_len = n as u8;
        if exact {
            // `((x & mask) >> s) * stride == (x & mask & !low) * (stride >> s)`
            // when `stride` is a multiple of `1 << s`.
            let mut k = 0;
            while k < n {
                let f = &mut self.flat[k];
                f.mask &= !((1u64 << f.shift) - 1);
                f.stride >>= f.shift;
                f.shift = 0;
                k += 1;
            }
        }
        self.exact = exact;
    }

    /// The digit tables, when the layout has them (relayout merges two).
    pub(crate) const fn digit_tables(&self) -> Option<&[DimDigits<PLAN_DIGITS>; MAX_RANK]> {
        if self.mode == GENERAL {
            None
        } else {
            Some(&self.digits)
        }
    }

    /// Index bounds of each dimension (without legacy padding).
    pub(crate) const fn limits(&self) -> &[u64; MAX_RANK] {
        &self.limits
    }

    /// `true` when offsets come from per-dimension digit tables (every
    /// layout without `*` whose tile sizes nest); `false` for the general
    /// walk through the tile levels.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Plan};
    /// let seed = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert!(Plan::new(&seed).unwrap().has_digit_tables());
    /// let star = parse_array("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}").unwrap();
    /// let plan = Plan::new(&star).unwrap();
    /// assert!(!plan.has_digit_tables());
    /// assert_eq!(plan.offset(&[1, 6, 7, 10, 9]), Ok(12430)); // same answers, slower
    /// ```
    pub const fn has_digit_tables(&self) -> bool {
        self.mode != GENERAL
    }

    const fn tile_start(&self, level: usize) -> usize {
        if level == 0 {
            0
        } else {
            self.tile_ends[level - 1] as usize
        }
    }

    /// Rank of the array.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Plan};
    /// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// let plan = Plan::new(&s).unwrap();
    /// assert_eq!(plan.rank(), 4);
    /// ```
    pub const fn rank(&self) -> usize {
        self.rank as usize
    }

    /// The logical sizes the layout uses (bounds for `<=N`, padded sizes
    /// for legacy padding).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, PaddingValue, Plan};
    /// let s = parse_array("f32[2,3]{0,1}").unwrap()
    ///     .with_legacy_padding(&[3, 5], PaddingValue::Zero).unwrap();
    /// let plan = Plan::new(&s).unwrap();
    /// assert_eq!(plan.layout_dims(), &[3, 5]);
    /// assert_eq!(plan.index_dims(), &[2, 3]);
    /// ```
    pub const fn layout_dims(&self) -> &[u64] {
        sub(&self.dims, 0, self.rank as usize)
    }

    /// The logical sizes an index ranges over (bounds for `<=N`; without
    /// legacy padding).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Plan};
    /// let plan = Plan::new(&parse_array("f32[<=4,3]").unwrap()).unwrap();
    /// assert_eq!(plan.index_dims(), &[4, 3]);
    /// ```
    pub const fn index_dims(&self) -> &[u64] {
        sub(&self.limits, 0, self.rank as usize)
    }

    /// Number of tile levels.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Plan};
    /// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// let plan = Plan::new(&s).unwrap();
    /// assert_eq!(plan.tile_levels(), 2); // T(8,128)(2,1)
    /// ```
    pub const fn tile_levels(&self) -> usize {
        self.level_count as usize
    }

    /// The final physical shape, after every tile level.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Plan};
    /// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// let plan = Plan::new(&s).unwrap();
    /// assert_eq!(plan.tiled_shape().as_slice(), &[1, 8, 160, 128, 4, 128, 2, 1]);
    /// ```
    pub const fn tiled_shape(&self) -> PhysicalShape {
        PhysicalShape::from_slice(sub(&self.final_dims, 0, self.final_len as usize))
    }

    /// Element slots in the allocation (tiles, legacy padding and `L(n)`
    /// included).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Plan};
    /// let plan = Plan::new(&parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
    /// assert_eq!(plan.allocated_elements(), 24); // 3x5 padded to 4x6
    /// ```
    pub const fn allocated_elements(&self) -> u64 {
        self.allocated
    }

    /// `true` if `index` has the right length and every coordinate is in
    /// bounds (legacy padding slots are out of bounds).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Plan};
    /// let plan = Plan::new(&parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
    /// assert!(plan.in_bounds(&[2, 4]));
    /// assert!(!plan.in_bounds(&[3, 0]));
    /// assert!(!plan.in_bounds(&[2]));
    /// ```
    pub const fn in_bounds(&self, index: &[u64]) -> bool {
        if index.len() != self.rank as usize {
            return false;
        }
        let mut i = 0;
        while i < index.len() {
            if index[i] >= self.limits[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The element offset of `index`, checked: an index of the wrong length
    /// or out of bounds is an error.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, ErrorKind, Plan};
    /// let plan = Plan::new(&parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
    /// assert_eq!(plan.offset(&[2, 3]), Ok(17));
    /// let err = plan.offset(&[3, 0]).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::IndexOutOfBounds);
    /// assert_eq!(err.to_string(), "index 3 is out of bounds for dimension 0 of size 3");
    /// assert_eq!(plan.offset(&[2]).unwrap_err().kind(), ErrorKind::IndexRank);
    /// ```
    pub const fn offset(&self, index: &[u64]) -> Result<u64, Error> {
        let n = self.rank as usize;
        if index.len() != n {
            return Err(Error::new(
                ErrorKind::IndexRank,
                Span::NONE,
                [index.len() as i64, n as i64, 0],
            ));
        }
        let mut i = 0;
        while i < n {
            if index[i] >= self.limits[i] {
                return Err(Error::wide(
                    ErrorKind::IndexOutOfBounds,
                    Span::NONE,
                    [i as i128, index[i] as i128, self.limits[i] as i128],
                ));
            }
            i += 1;
        }
        Ok(self.offset_unchecked(index))
    }

    /// The element offset of an index already known to be in bounds (an
    /// out-of-bounds or short index gives an unspecified offset, never a
    /// panic).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Plan};
    /// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// let plan = Plan::new(&s).unwrap();
    /// let index = [3, 0, 13, 300];
    /// if plan.in_bounds(&index) {
    ///     assert_eq!(plan.offset_unchecked(&index), 63_048_281);
    /// }
    /// ```
    #[inline(always)]
    pub const fn offset_unchecked(&self, index: &[u64]) -> u64 {
        if self.mode == POW2 && self.exact {
            // Unused slots have mask 0, so the common sizes run a fixed
            // number of digits without a loop. Small enough to inline;
            // everything else is out of line.
            match self.flat_len {
                0..=2 => return self.flat_sum::<2, true>(index),
                3 => return self.flat_sum::<3, true>(index),
                4 => return self.flat_sum::<4, true>(index),
                5 => return self.flat_sum::<5, true>(index),
                6 => return self.flat_sum::<6, true>(index),
                7..=8 => return self.flat_sum::<8, true>(index),
                _ => {}
            }
        }
        self.offset_rest(index)
    }

    /// [`Plan::offset_unchecked`] beyond 8 shift-free power-of-two digits:
    /// more digits, digits with shifts, other digit bases, and the general
    /// walk.
    #[inline(never)]
    const fn offset_rest(&self, index: &[u64]) -> u64 {
        if self.mode == POW2 {
            const ALL: usize = MAX_RANK * PLAN_DIGITS;
            return if self.exact {
                self.flat_sum::<ALL, true>(index)
            } else {
                self.flat_sum::<ALL, false>(index)
            };
        }
        if self.mode != GENERAL {
            let mut lin: u64 = 0;
            let mut d = 0;
            while d < self.rank as usize && d < index.len() {
                lin = lin.wrapping_add(self.digits[d].offset(index[d], false));
                d += 1;
            }
            return lin;
        }
        let (e, len) = self.walk(index, self.level_count as usize);
        let mut lin: u64 = 0;
        let mut i = 0;
        while i < len {
            lin = lin.wrapping_mul(self.final_dims[i]).wrapping_add(e[i]);
            i += 1;
        }
        lin
    }

    /// The physical index of an in-bounds `index` after the first `levels`
    /// tile levels (0 = permuted to physical order), major to minor; it
    /// indexes [`ArrayShape::physical_shape`]
    /// of the same level.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Plan};
    /// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// let p = Plan::new(&s).unwrap();
    /// // (2,3) sits in tile (1,1) at (0,1) within it.
    /// assert_eq!(p.physical_index(&[2, 3], 1).as_slice(), &[1, 1, 0, 1]);
    /// ```
    pub const fn physical_index(&self, index: &[u64], levels: usize) -> PhysicalShape {
        let levels = if levels > self.level_count as usize {
            self.level_count as usize
        } else {
            levels
        };
        let (e, len) = self.walk(index, levels);
        PhysicalShape::from_slice(sub(&e, 0, len))
    }

    /// The working index after `levels` tile levels, and its length.
    const fn walk(&self, index: &[u64], levels: usize) -> ([u64; MAX_PHYSICAL_RANK], usize) {
        let n = self.rank as usize;
        let mut e = [0u64; MAX_PHYSICAL_RANK];
        let mut p = 0;
        while p < n {
            // A short index reads as zeros: unspecified, never a panic.
            let d = self.perm[p] as usize;
            e[p] = if d < index.len() { index[d] } else { 0 };
            p += 1;
        }
        let mut len = n;
        let mut level = 0;
        while level < levels {
            let pre = self.prepend[level] as usize;
            if pre > 0 {
                len = konst::prepend(&mut e, len, pre, 0);
            }
            let start = self.tile_start(level);
            let k = self.tile_ends[level] as usize - start;
            let base = len - k;
            let mut grid = [0u64; MAX_TILE_ENTRIES];
            let mut inner = [0u64; MAX_TILE_ENTRIES];
            let mut m = 0;
            let mut acc: u64 = 0;
            let mut j = 0;
            while j < k {
                acc = acc
                    .wrapping_mul(self.sizes[start + j])
                    .wrapping_add(e[base + j]);
                let t = self.tile[start + j];
                if t != COMBINE {
                    let t = t as u64;
                    grid[m] = acc / t;
                    inner[m] = acc % t;
                    m += 1;
                    acc = 0;
                }
                j += 1;
            }
            len = konst::splice(&mut e, base, &grid, &inner, m);
            level += 1;
        }
        (e, len)
    }

    /// The logical index stored at element slot `offset`, or `None` for a
    /// padding slot or an offset past the allocation.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Plan};
    /// let plan = Plan::new(&parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
    /// assert_eq!(plan.index_of(17).unwrap().as_slice(), &[2, 3]);
    /// assert_eq!(plan.index_of(14), None); // row 3 of a padded tile
    /// assert_eq!(plan.index_of(24), None); // past the allocation
    /// ```
    pub const fn index_of(&self, offset: u64) -> Option<Index> {
        if offset >= self.tiled_elements {
            return None;
        }
        if self.mode != GENERAL {
            let n = self.rank as usize;
            return match digits::inverse(&self.digits, n, offset, self.mode == POW2) {
                Some(coords) => Some(Index {
                    coords,
                    len: n as u8,
                }),
                None => None,
            };
        }
        let mut e = [0u64; MAX_PHYSICAL_RANK];
        let mut rest = offset;
        let mut i = self.final_len as usize;
        while i > 0 {
            i -= 1;
            e[i] = rest % self.final_dims[i];
            rest /= self.final_dims[i];
        }
        let mut len = self.final_len as usize;
        let mut level = self.level_count as usize;
        while level > 0 {
            level -= 1;
            let start = self.tile_start(level);
            let k = self.tile_ends[level] as usize - start;
            let pre = self.prepend[level] as usize;
            let before = self.len_before[level] as usize;
            let base = before + pre - k;
            let mut m = 0;
            let mut j = 0;
            while j < k {
                if self.tile[start + j] != COMBINE {
                    m += 1;
                }
                j += 1;
            }
            if len != base + 2 * m {
                return None;
            }
            let mut out = [0u64; MAX_PHYSICAL_RANK];
            j = 0;
            while j < base {
                out[j] = e[j];
                j += 1;
            }
            let mut g = 0;
            let mut group_start = 0;
            j = 0;
            while j < k {
                let t = self.tile[start + j];
                if t != COMBINE {
                    let mut combined = e[base + g]
                        .wrapping_mul(t as u64)
                        .wrapping_add(e[base + m + g]);
                    let mut total: u64 = 1;
                    let mut q = group_start;
                    while q <= j {
                        total = total.saturating_mul(self.sizes[start + q]);
                        q += 1;
                    }
                    if combined >= total {
                        return None;
                    }
                    q = j + 1;
                    while q > group_start {
                        q -= 1;
                        let sz = self.sizes[start + q];
                        out[base + q] = combined % sz;
                        combined /= sz;
                    }
                    g += 1;
                    group_start = j + 1;
                }
                j += 1;
            }
            j = 0;
            while j < before {
                e[j] = out[j + pre];
                j += 1;
            }
            len = before;
        }
        let n = self.rank as usize;
        let mut idx = Index::zeros(n);
        let mut p = 0;
        while p < n {
            let dim = self.perm[p] as usize;
            if e[p] >= self.limits[dim] {
                return None;
            }
            idx.coords[dim] = e[p];
            p += 1;
        }
        Some(idx)
    }
}

/// The raw tables of a [`Plan`], for code generated by the `layout!` macro.
/// Not a stable API.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct PlanParts<'a> {
    pub perm: &'a [u8],
    pub dims: &'a [u64],
    pub limits: &'a [u64],
    pub tile: &'a [i64],
    pub tile_ends: &'a [u8],
    pub prepend: &'a [u8],
    pub len_before: &'a [u8],
    pub final_dims: &'a [u64],
    pub tiled_elements: u64,
    pub allocated: u64,
}

impl Plan {
    /// The tables, for code generation. Not a stable API.
    #[doc(hidden)]
    pub fn parts(&self) -> PlanParts<'_> {
        let levels = self.level_count as usize;
        let entries = if levels == 0 {
            0
        } else {
            self.tile_ends[levels - 1] as usize
        };
        PlanParts {
            perm: &self.perm[..self.rank as usize],
            dims: &self.dims[..self.rank as usize],
            limits: &self.limits[..self.rank as usize],
            tile: &self.tile[..entries],
            tile_ends: &self.tile_ends[..levels],
            prepend: &self.prepend[..levels],
            len_before: &self.len_before[..levels],
            final_dims: &self.final_dims[..self.final_len as usize],
            tiled_elements: self.tiled_elements,
            allocated: self.allocated,
        }
    }

    /// For each tile entry (all levels in order), the size of the working
    /// dimension it covers. Not a stable API (used for code generation).
    #[doc(hidden)]
    pub fn covered_sizes(&self) -> &[u64] {
        let levels = self.level_count as usize;
        let entries = if levels == 0 {
            0
        } else {
            self.tile_ends[levels - 1] as usize
        };
        &self.sizes[..entries]
    }
}
