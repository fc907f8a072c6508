//! Layouts of a known rank with `usize` indices: what the `layout!` macro
//! produces, also buildable at run time (or in `const` items) from text.

use core::fmt;

use crate::base::element::ElementType;
use crate::base::error::{Error, ErrorDetail, ErrorKind, Span};
use crate::base::konst::{sub, tri, Message};
use crate::base::limits::MAX_RANK;
use crate::model::array::ArrayShape;
use crate::model::dim::{Dim, PaddingValue};
use crate::model::sizes::{tiling, totals};
use crate::plan::digits::{self, DimDigits, Odometer};
use crate::plan::Plan;
use crate::rules::parse_array;

mod unresolved;

pub use unresolved::Unresolved;

/// A validated array layout of rank `R` with precomputed offset tables:
/// per dimension, a few digits (bases and strides, see `docs/tiling.md`),
/// so that an offset is a short sum of masks, shifts and multiplies, and a
/// `const` layout folds into the same code the item form generates. Its
/// size grows with `R` (`size_of::<StaticLayout<4>>()` is under 512 bytes).
///
/// Sizes are guaranteed to fit in `usize` on the target (checked when
/// built), so every method is infallible apart from index bounds.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::StaticLayout;
/// const L: StaticLayout<2> = match StaticLayout::parse("f32[3,5]{1,0:T(2,2)}") {
///     Ok(l) => l,
///     Err(_) => panic!("invalid layout"),
/// };
/// const O: usize = L.offset([2, 3]);
/// assert_eq!(O, 17);
/// assert_eq!(L.dims(), [3, 5]);
/// assert_eq!(L.allocated_elements(), 24);
/// assert_eq!(L.size_in_bytes(), 96);
/// assert_eq!(L.index_of(17), Some([2, 3]));
/// assert_eq!(L.to_string(), "f32[3,5]{1,0:T(2,2)}");
/// assert!(core::mem::size_of::<StaticLayout<4>>() <= 512);
/// ```
///
/// Layouts whose offsets are not per-dimension digits (a `*` entry, tile
/// sizes that do not divide each other, more than four digits in one
/// dimension) are built by the `layout!` macro with a reference to a
/// constant [`Plan`]; built at run time they are an
/// [`ErrorKind::NoDigitTables`] error, and a [`Plan`] serves them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StaticLayout<const R: usize> {
    digits: [DimDigits<STATIC_DIGITS>; R],
    /// Every digit base is a power of two.
    pow2: bool,
    /// Powers of two whose strides are multiples of their bases: a digit
    /// is `(x & mask) * (stride / base)` (see [`Plan`]'s digits).
    exact: bool,
    /// The most digits of any dimension.
    depth: u8,
    /// The general walk, for layouts without digit tables (macro only).
    general: Option<&'static Plan>,
    /// Element slots before `L(n)` tail padding.
    tiled: u64,
    allocated: u64,
    size_in_bytes: u64,
    element_bits: u64,
    element_type: ElementType,
    memory_space: u8,
    /// The legacy padding value, where the shape has legacy padding.
    padding_value: Option<PaddingValue>,
    text: &'static str,
}

/// The panic of every form's `offset` for an index out of bounds, with the
/// index and the dimensions; out of line so that offsets stay small enough
/// to inline. Not a stable API (the `layout!` macro emits calls to it).
#[doc(hidden)]
#[cold]
#[inline(never)]
#[track_caller]
pub const fn __out_of_bounds(index: &[usize], dims: &[usize]) -> ! {
    let mut msg = Message::new();
    msg.push("layout index ");
    msg.push_list(index);
    msg.push(" is out of bounds for the dimensions ");
    msg.push_list(dims);
    panic!("{}", msg.as_str());
}

/// Most digits per dimension in a [`StaticLayout`].
const STATIC_DIGITS: usize = 4;

impl<const R: usize> StaticLayout<R> {
    /// The digit tables (empty when `general_plan` serves the layout).
    pub(crate) const fn digit_tables(&self) -> &[DimDigits<STATIC_DIGITS>; R] {
        &self.digits
    }

    /// The plan of a layout without digit tables.
    pub(crate) const fn general_plan(&self) -> Option<&'static Plan> {
        self.general
    }
}

impl<const R: usize> StaticLayout<R> {
    /// Parses, validates and plans an array layout of rank `R` from
    /// `'static` text (the text must already be canonical for `Display` to
    /// print the canonical form; [`StaticLayout::text`] returns it as given).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{ErrorKind, StaticLayout};
    /// let l = StaticLayout::<4>::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert_eq!(l.offset([3, 0, 13, 300]), 63_048_281);
    /// let wrong_rank = StaticLayout::<3>::parse("f32[3,5]{1,0:T(2,2)}").unwrap_err();
    /// assert_eq!(wrong_rank.kind(), ErrorKind::RankMismatch);
    /// let star = StaticLayout::<5>::parse("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
    /// assert_eq!(star.unwrap_err().kind(), ErrorKind::NoDigitTables); // use a Plan
    /// ```
    pub const fn parse(text: &'static str) -> Result<StaticLayout<R>, Error> {
        let shape = tri!(parse_array(text));
        Self::from_shape(&shape, text)
    }

    /// Plans a validated array shape; `text` is what `Display` prints.
    /// Fails if the rank is not `R`, a dimension is `?`, a size does not
    /// fit in `usize`, or the layout has no digit tables.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, StaticLayout};
    /// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// let l = StaticLayout::<2>::from_shape(&s, "figure 1").unwrap();
    /// assert_eq!(l.offset([2, 3]), 17);
    /// assert_eq!(l.to_string(), "figure 1");
    /// ```
    pub const fn from_shape(
        shape: &ArrayShape,
        text: &'static str,
    ) -> Result<StaticLayout<R>, Error> {
        Self::build(shape, text, None, 0)
    }

    /// Like [`StaticLayout::from_shape`], for any layout: `plan` (the
    /// shape's own plan, in a `const` item) serves layouts without digit
    /// tables. What the `layout!` macro emits; not a stable API.
    #[doc(hidden)]
    pub const fn __with_plan(
        shape: &ArrayShape,
        text: &'static str,
        plan: &'static Plan,
    ) -> Result<StaticLayout<R>, Error> {
        Self::build(shape, text, Some(plan), 0)
    }

    /// A layout from digit tables the `layout!` macro computed with
    /// [`StaticLayout::__digit_bases`] (cheap to evaluate while the user's
    /// crate compiles). Not a stable API.
    #[doc(hidden)]
    pub const fn __from_digits(p: DigitParts<'_>) -> StaticLayout<R> {
        let mut out = StaticLayout::__stub();
        let mut d = 0;
        while d < R && d < p.limits.len() && d < p.bases.len() && d < p.strides.len() {
            let dd = &mut out.digits[d];
            dd.limit = p.limits[d];
            let (bases, strides) = (p.bases[d], p.strides[d]);
            let mut j = 0;
            while j < STATIC_DIGITS && j < bases.len() && j < strides.len() {
                dd.base[j] = bases[j];
                dd.stride[j] = strides[j];
                j += 1;
            }
            dd.len = j as u8;
            d += 1;
        }
        out.pow2 = p.pow2;
        out.tiled = p.tiled;
        out.allocated = p.allocated;
        out.size_in_bytes = p.size_in_bytes;
        out.element_bits = p.element_bits;
        out.element_type = p.element_type;
        out.memory_space = p.memory_space;
        out.padding_value = p.padding_value;
        out.text = p.text;
        out.shape_digits()
    }

    /// Sets `exact` and `depth` from the digit tables.
    const fn shape_digits(mut self) -> StaticLayout<R> {
        let mut exact = self.pow2 && self.general.is_none();
        let mut depth = 0;
        let mut d = 0;
        while d < R {
            let dd = &self.digits[d];
            let len = if (dd.len as usize) < STATIC_DIGITS {
                dd.len as usize
            } else {
                STATIC_DIGITS
            };
            if len > depth {
                depth = len;
            }
            let mut j = 0;
            while j < len {
                // A zero base never comes out of `digits::build`.
                exact &= dd.base[j] != 0 && dd.stride[j].is_multiple_of(dd.base[j]);
                j += 1;
            }
            d += 1;
        }
        self.exact = exact;
        self.depth = depth as u8;
        self
    }

    /// `keep`: dimensions (one bit each) whose digits stay even when they
    /// are always zero, so that the digit structure does not depend on
    /// their size (the `?` dims of the item form).
    const fn build(
        shape: &ArrayShape,
        text: &'static str,
        plan: Option<&'static Plan>,
        keep: u32,
    ) -> Result<StaticLayout<R>, Error> {
        if shape.rank() != R {
            return Err(Error::new(
                ErrorKind::RankMismatch,
                shape.source_map().whole(),
                [R as i64, shape.rank() as i64, 0],
            ));
        }
        let raw = &shape.raw;
        let t = tri!(tiling(raw, raw.layout.tile_count as usize));
        let (tiled, allocated) = tri!(totals(&t.sizes, raw.layout.tail_padding));
        let bytes = tri!(shape.size_in_bytes());
        if bytes > usize::MAX as u64 || allocated > usize::MAX as u64 {
            return Err(Error::new(
                ErrorKind::AllocationOverflow,
                Span::NONE,
                [0; 3],
            ));
        }
        let mut limits = [0u64; MAX_RANK];
        let mut i = 0;
        while i < R {
            limits[i] = match raw.dims[i].layout_size() {
                Some(n) => n,
                None => {
                    return Err(Error::new(
                        ErrorKind::UnboundedDimension,
                        raw.source.dim(i),
                        [i as i64, 0, 0],
                    ))
                }
            };
            i += 1;
        }
        let mut out = StaticLayout {
            digits: [DimDigits::EMPTY; R],
            pow2: true,
            exact: false,
            depth: 0,
            general: None,
            tiled,
            allocated,
            size_in_bytes: bytes,
            element_bits: shape.element_size_in_bits(),
            element_type: shape.element_type(),
            memory_space: raw.layout.memory_space as u8,
            padding_value: match shape.legacy_padding() {
                Some(p) => Some(p.padding_value()),
                None => None,
            },
            text,
        };
        match digits::build::<STATIC_DIGITS>(raw, &t, &limits, keep) {
            Ok((d, pow2, _)) => {
                let mut i = 0;
                while i < R {
                    out.digits[i] = d[i];
                    i += 1;
                }
                out.pow2 = pow2;
            }
            Err(why) => match plan {
                Some(p) => {
                    let mut i = 0;
                    while i < R {
                        out.digits[i].limit = limits[i];
                        i += 1;
                    }
                    out.general = Some(p);
                }
                None => {
                    return Err(Error::from_detail(
                        ErrorDetail::NoDigitTables {
                            reason: why,
                            digits: STATIC_DIGITS as u64,
                        },
                        shape.source_map().layout(),
                    ))
                }
            },
        }
        Ok(out.shape_digits())
    }

    /// The element offset of `index`: the same arithmetic as the item
    /// form's specialised `offset`, from tables.
    ///
    /// # Panics
    ///
    /// In debug builds, if a coordinate is out of bounds, with the index and
    /// the dimensions in the message (in `const` evaluation this is a
    /// compile error), as every form's `offset` does. Release builds do not
    /// check: an out-of-bounds index gives an unspecified offset, never
    /// undefined behaviour. [`StaticLayout::checked_offset`] always checks.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<4> =
    ///     StaticLayout::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert_eq!(l.offset([3, 0, 13, 300]), 63_048_281);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn offset(&self, index: [usize; R]) -> usize {
        if cfg!(debug_assertions) && !self.in_bounds(index) {
            __out_of_bounds(&index, &self.dims());
        }
        self.offset_unchecked(index)
    }

    /// The element offset of `index`, or `None` if it is out of bounds.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<2> = StaticLayout::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(l.checked_offset([2, 3]), Some(17));
    /// assert_eq!(l.checked_offset([3, 0]), None);
    /// ```
    #[inline(always)]
    pub const fn checked_offset(&self, index: [usize; R]) -> Option<usize> {
        if !self.in_bounds(index) {
            return None;
        }
        Some(self.offset_unchecked(index))
    }

    /// The offset of an in-bounds index.
    #[inline(always)]
    const fn offset_unchecked(&self, index: [usize; R]) -> usize {
        if let Some(plan) = self.general {
            let mut wide = [0u64; R];
            let mut i = 0;
            while i < R {
                wide[i] = index[i] as u64;
                i += 1;
            }
            return plan.offset_unchecked(&wide) as usize;
        }
        if self.exact {
            // A fixed number of digits per dimension, without branches:
            // the common depths are straight-line code.
            return match self.depth {
                0 | 1 => self.exact_sum::<1>(index),
                2 => self.exact_sum::<2>(index),
                3 => self.exact_sum::<3>(index),
                _ => self.exact_sum::<STATIC_DIGITS>(index),
            };
        }
        let mut sum: u64 = 0;
        let mut d = 0;
        while d < R {
            sum = sum.wrapping_add(self.digits[d].offset(index[d] as u64, self.pow2));
            d += 1;
        }
        sum as usize
    }

    /// The offset from the first `J` digits of every dimension, each
    /// `(x & mask) * (stride / base)`: the mask keeps the bits from the
    /// digit's base up to the next base (all bits above for the top digit).
    /// Digits past a dimension's count have base 0, hence mask 0.
    #[inline(always)]
    const fn exact_sum<const J: usize>(&self, index: [usize; R]) -> usize {
        let mut sum: u64 = 0;
        let mut d = 0;
        while d < R {
            let dd = &self.digits[d];
            let x = index[d] as u64;
            let mut j = 0;
            while j < J && j < STATIC_DIGITS {
                let base = dd.base[j];
                let next = if j + 1 < STATIC_DIGITS {
                    dd.base[j + 1]
                } else {
                    0
                };
                let mask = next.wrapping_sub(1) & !base.wrapping_sub(1);
                let mult = dd.stride[j].wrapping_shr(base.trailing_zeros());
                sum = sum.wrapping_add((x & mask).wrapping_mul(mult));
                j += 1;
            }
            d += 1;
        }
        sum as usize
    }

    /// The logical index stored at element slot `offset`, or `None` for a
    /// padding slot (or an offset past the allocation).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<4> =
    ///     StaticLayout::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert_eq!(l.index_of(63_048_281), Some([3, 0, 13, 300]));
    /// ```
    pub const fn index_of(&self, offset: usize) -> Option<[usize; R]> {
        if offset as u64 >= self.tiled {
            return None;
        }
        let coords = match self.general {
            Some(plan) => match plan.index_of(offset as u64) {
                Some(idx) => idx.coords,
                None => return None,
            },
            None => match digits::inverse(&self.digits, R, offset as u64, self.pow2) {
                Some(c) => c,
                None => return None,
            },
        };
        let mut out = [0usize; R];
        let mut i = 0;
        while i < R {
            out[i] = coords[i] as usize;
            i += 1;
        }
        Some(out)
    }

    /// Every in-bounds index with its offset, in memory order (offsets
    /// ascending), padding skipped; without a division per element for
    /// layouts with digit tables.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<2> = StaticLayout::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// let first: Vec<([usize; 2], usize)> = l.memory_order().take(5).collect();
    /// assert_eq!(first, [([0, 0], 0), ([0, 1], 1), ([1, 0], 2), ([1, 1], 3), ([0, 2], 4)]);
    /// assert_eq!(l.memory_order().count(), 15);
    /// ```
    pub const fn memory_order(&self) -> MemoryOrder<R> {
        MemoryOrder {
            wheels: Odometer::new(&self.digits, R),
            layout: *self,
            next_slot: 0,
        }
    }

    /// The logical dimensions an index ranges over (bounded dims at their
    /// bound; legacy padding not included).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<2> = StaticLayout::parse("f32[<=4,3]").unwrap();
    /// assert_eq!(l.dims(), [4, 3]);
    /// ```
    pub const fn dims(&self) -> [usize; R] {
        let mut out = [0usize; R];
        let mut i = 0;
        while i < R {
            out[i] = self.digits[i].limit as usize;
            i += 1;
        }
        out
    }

    /// The rank, `R`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<4> =
    ///     StaticLayout::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert_eq!(l.rank(), 4);
    /// ```
    pub const fn rank(&self) -> usize {
        R
    }

    /// `true` if every coordinate of `index` is in bounds.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<2> = StaticLayout::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert!(l.in_bounds([2, 4]));
    /// assert!(!l.in_bounds([3, 0]));
    /// ```
    #[inline(always)]
    pub const fn in_bounds(&self, index: [usize; R]) -> bool {
        let mut i = 0;
        while i < R {
            if index[i] as u64 >= self.digits[i].limit {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Element slots in the allocation (tile padding and `L(n)` included).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<4> =
    ///     StaticLayout::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert_eq!(l.allocated_elements(), 8 * 1280 * 16384);
    /// ```
    pub const fn allocated_elements(&self) -> usize {
        self.allocated as usize
    }

    /// Bytes of the allocation.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<4> =
    ///     StaticLayout::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert_eq!(l.size_in_bytes(), 335_544_320);
    /// ```
    pub const fn size_in_bytes(&self) -> usize {
        self.size_in_bytes as usize
    }

    /// The element type.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{ElementType, StaticLayout};
    /// let l: StaticLayout<4> =
    ///     StaticLayout::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert_eq!(l.element_type(), ElementType::Bf16);
    /// ```
    pub const fn element_type(&self) -> ElementType {
        self.element_type
    }

    /// Bits per stored element (`E(n)`, or the byte width x 8).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let packed: StaticLayout<1> = StaticLayout::parse("s4[8]{0:E(4)}").unwrap();
    /// assert_eq!(packed.element_size_in_bits(), 4);
    /// assert_eq!(packed.size_in_bytes(), 4);
    /// ```
    pub const fn element_size_in_bits(&self) -> u64 {
        self.element_bits
    }

    /// The memory space `S(n)`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<4> =
    ///     StaticLayout::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert_eq!(l.memory_space(), 1);
    /// ```
    pub const fn memory_space(&self) -> u8 {
        self.memory_space
    }

    /// The legacy padding value, where the layout was built from a shape
    /// with legacy padding ([`ArrayShape::with_legacy_padding`], or the
    /// `layout!` macro's `padded = [..]` and `padding_value = ..`); `None`
    /// otherwise. Relayout writes it into every padding slot of a
    /// destination with this layout, as [`RelayoutPlan::new`] does for the
    /// shape; without legacy padding, padding slots get zero bits.
    ///
    /// [`RelayoutPlan::new`]: crate::RelayoutPlan::new
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, PaddingValue, StaticLayout};
    /// let s = parse_array("f32[2,3]{0,1}").unwrap()
    ///     .with_legacy_padding(&[3, 5], PaddingValue::Lowest).unwrap();
    /// let l = StaticLayout::<2>::from_shape(&s, "f32[2,3]{0,1}").unwrap();
    /// assert_eq!(l.legacy_padding_value(), Some(PaddingValue::Lowest));
    /// assert_eq!(l.allocated_elements(), 15);
    /// let plain = StaticLayout::<2>::parse("f32[2,3]{0,1}").unwrap();
    /// assert_eq!(plain.legacy_padding_value(), None);
    /// ```
    pub const fn legacy_padding_value(&self) -> Option<PaddingValue> {
        self.padding_value
    }

    /// `true` when offsets come from digit tables; `false` when the
    /// layout's constant [`Plan`] walks the tile levels. Layouts built at
    /// run time always have digit tables.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<4> =
    ///     StaticLayout::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert!(l.has_digit_tables());
    /// ```
    pub const fn has_digit_tables(&self) -> bool {
        self.general.is_none()
    }

    /// The text the layout was built from: the canonical text from the
    /// `layout!` macro, otherwise the text given to
    /// [`StaticLayout::parse`] or [`StaticLayout::from_shape`], as given.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::StaticLayout;
    /// let l: StaticLayout<2> = StaticLayout::parse("f32[ 3, 5 ]").unwrap();
    /// assert_eq!(l.text(), "f32[ 3, 5 ]");
    /// ```
    pub const fn text(&self) -> &'static str {
        self.text
    }

    /// The stride of digit `j` of dimension `d` (0 past the digits): what
    /// the item form of a layout with `?` dims reads at run time. Not a
    /// stable API.
    #[doc(hidden)]
    #[inline(always)]
    pub const fn __stride(&self, d: usize, j: usize) -> usize {
        if d < R && j < STATIC_DIGITS {
            self.digits[d].stride[j] as usize
        } else {
            0
        }
    }

    /// The digit bases of dimension `d`, ascending. Not a stable API (used
    /// to generate code).
    #[doc(hidden)]
    pub const fn __bases(&self, d: usize) -> &[u64] {
        if d < R {
            sub(&self.digits[d].base, 0, self.digits[d].len as usize)
        } else {
            &[]
        }
    }
}

impl StaticLayout<0> {
    /// The digits of each dimension of a shape, with its `?` dims keeping
    /// every digit, as [`Unresolved::resolve`] plans them: bases ascending,
    /// their number, and the strides that do not depend on the `?`
    /// extents (`Some`). What the item form's code for a layout with `?`
    /// dims is generated from. Not a stable API.
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    pub const fn __digit_bases(
        shape: &ArrayShape,
    ) -> Result<[([u64; STATIC_DIGITS], usize, [Option<u64>; STATIC_DIGITS]); MAX_RANK], Error>
    {
        let ones = [1u64; MAX_RANK];
        let resolved = tri!(shape.with_extents(sub(&ones, 0, shape.unbounded_count())));
        let raw = &resolved.raw;
        let t = tri!(tiling(raw, raw.layout.tile_count as usize));
        let mut limits = [0u64; MAX_RANK];
        let mut keep = 0u32;
        let mut i = 0;
        while i < raw.rank as usize {
            limits[i] = match raw.dims[i].layout_size() {
                Some(n) => n,
                None => 0,
            };
            if matches!(shape.raw.dims[i], Dim::Unbounded) && i < 32 {
                keep |= 1 << i;
            }
            i += 1;
        }
        match digits::build::<STATIC_DIGITS>(raw, &t, &limits, keep) {
            Ok((d, _, fixed)) => {
                let mut out = [([0u64; STATIC_DIGITS], 0usize, [None; STATIC_DIGITS]); MAX_RANK];
                let mut i = 0;
                while i < MAX_RANK {
                    let mut strides = [None; STATIC_DIGITS];
                    let mut j = 0;
                    while j < STATIC_DIGITS {
                        if (fixed[i] >> j) & 1 == 1 {
                            strides[j] = Some(d[i].stride[j]);
                        }
                        j += 1;
                    }
                    out[i] = (d[i].base, d[i].len as usize, strides);
                    i += 1;
                }
                Ok(out)
            }
            Err(why) => Err(Error::from_detail(
                ErrorDetail::NoDigitTables {
                    reason: why,
                    digits: STATIC_DIGITS as u64,
                },
                Span::NONE,
            )),
        }
    }
}

/// What [`StaticLayout::__from_digits`] is built from: the `layout!`
/// macro's literal tables. Not a stable API.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct DigitParts<'a> {
    pub limits: &'a [u64],
    pub bases: &'a [&'a [u64]],
    pub strides: &'a [&'a [u64]],
    pub pow2: bool,
    pub tiled: u64,
    pub allocated: u64,
    pub size_in_bytes: u64,
    pub element_bits: u64,
    pub element_type: ElementType,
    pub memory_space: u8,
    /// The legacy padding value (`None` without legacy padding).
    pub padding_value: Option<PaddingValue>,
    pub text: &'static str,
}

/// Every in-bounds index of a [`StaticLayout`] with its offset, in memory
/// order: see [`StaticLayout::memory_order`].
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::StaticLayout;
/// let l: StaticLayout<2> = StaticLayout::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
/// // The second tile holds columns 2 and 3 of rows 0 and 1.
/// let second_tile: Vec<([usize; 2], usize)> = l.memory_order().skip(4).take(4).collect();
/// assert_eq!(second_tile, [([0, 2], 4), ([0, 3], 5), ([1, 2], 6), ([1, 3], 7)]);
/// assert_eq!(l.memory_order().last(), Some(([2, 4], 20)));
/// ```
#[derive(Clone, Debug)]
pub struct MemoryOrder<const R: usize> {
    wheels: Odometer<{ MAX_RANK * STATIC_DIGITS }>,
    layout: StaticLayout<R>,
    /// For layouts without digit tables: the next slot to look at.
    next_slot: usize,
}

impl<const R: usize> Iterator for MemoryOrder<R> {
    type Item = ([usize; R], usize);

    fn next(&mut self) -> Option<([usize; R], usize)> {
        if self.layout.general.is_some() {
            while self.next_slot < self.layout.tiled as usize {
                let slot = self.next_slot;
                self.next_slot += 1;
                if let Some(i) = self.layout.index_of(slot) {
                    return Some((i, slot));
                }
            }
            return None;
        }
        let (x, offset) = self.wheels.next()?;
        let mut out = [0usize; R];
        for (o, v) in out.iter_mut().zip(x) {
            *o = v as usize;
        }
        Some((out, offset as usize))
    }
}

/// The layout's text ([`StaticLayout::text`]), with the extents of a
/// resolved `?` dimension written in its place: that is the shape it is.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, Unresolved};
/// let u: Unresolved<2, 1> =
///     Unresolved::new(parse_array("f32[?,128]{1,0:T(8,128)}").unwrap(), "f32[?,128]{1,0:T(8,128)}");
/// let l = u.resolve([20]).unwrap();
/// assert_eq!(l.to_string(), "f32[20,128]{1,0:T(8,128)}");
/// assert_eq!(l.text(), "f32[?,128]{1,0:T(8,128)}");
/// ```
impl<const R: usize> fmt::Display for StaticLayout<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Only a resolved layout has a `?` in its text (a static layout of
        // an unbounded dimension is refused). The dims are the entries of
        // the first `[..]`; an entry that is `?` alone gets its extent.
        let text = self.text;
        let (Some(open), true) = (text.find('['), text.contains('?')) else {
            return f.write_str(text);
        };
        let Some(close) = text[open..].find(']').map(|c| open + c) else {
            return f.write_str(text);
        };
        f.write_str(&text[..=open])?;
        let dims = self.dims();
        for (k, entry) in text[open + 1..close].split(',').enumerate() {
            if k > 0 {
                f.write_str(",")?;
            }
            match dims.get(k) {
                Some(d) if entry.trim() == "?" => write!(f, "{d}")?,
                _ => f.write_str(entry)?,
            }
        }
        f.write_str(&text[close..])
    }
}

/// A type standing for one array layout of rank `R`, as defined by the item
/// form of the `layout!` macro. Kernels can be generic over it. Implement
/// [`TypedLayout`](crate::TypedLayout) too, as `layout!` does, for [`View::new`](crate::View::new).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{StaticLayout, StaticShape};
/// struct Fig1;
/// impl StaticShape<2> for Fig1 {
///     const LAYOUT: StaticLayout<2> = match StaticLayout::parse("f32[3,5]{1,0:T(2,2)}") {
///         Ok(l) => l,
///         Err(_) => panic!(),
///     };
///     fn offset(index: [usize; 2]) -> usize {
///         Self::LAYOUT.offset(index)
///     }
/// }
/// fn last<L: StaticShape<2>>() -> usize {
///     let [r, c] = L::DIMS;
///     L::offset([r - 1, c - 1])
/// }
/// assert_eq!(last::<Fig1>(), 20);
/// assert_eq!(Fig1::DIMS, [3, 5]);
/// assert_eq!(Fig1::ELEMENT_TYPE, xla_layout::ElementType::F32);
/// assert_eq!(Fig1::ALLOCATED_ELEMENTS, 24);
/// assert_eq!(Fig1::SIZE_IN_BYTES, 96);
/// assert_eq!(Fig1::MEMORY_SPACE, 0);
/// assert_eq!(Fig1::LEGACY_PADDING_VALUE, None);
/// assert_eq!(Fig1::offset([2, 3]), 17);
/// ```
pub trait StaticShape<const R: usize> {
    /// The layout's tables.
    const LAYOUT: StaticLayout<R>;
    /// The logical dimensions.
    const DIMS: [usize; R] = Self::LAYOUT.dims();
    /// The element type.
    const ELEMENT_TYPE: ElementType = Self::LAYOUT.element_type();
    /// Element slots in the allocation.
    const ALLOCATED_ELEMENTS: usize = Self::LAYOUT.allocated_elements();
    /// Bytes of the allocation.
    const SIZE_IN_BYTES: usize = Self::LAYOUT.size_in_bytes();
    /// The memory space `S(n)`.
    const MEMORY_SPACE: u8 = Self::LAYOUT.memory_space();
    /// The legacy padding value, `None` without legacy padding: what
    /// relayout writes into this layout's padding slots (zero bits when
    /// `None`). Derived from [`StaticShape::LAYOUT`], which relayout reads.
    const LEGACY_PADDING_VALUE: Option<PaddingValue> = Self::LAYOUT.legacy_padding_value();

    /// The element offset of an in-bounds `index` (out-of-bounds indices
    /// give an unspecified offset).
    fn offset(index: [usize; R]) -> usize;
}

impl<const R: usize> StaticLayout<R> {
    /// A placeholder the `layout!` macro emits next to a compile error, so
    /// that code using the layout type-checks without further errors. Not a
    /// stable API.
    #[doc(hidden)]
    pub const fn __stub() -> StaticLayout<R> {
        StaticLayout {
            digits: [DimDigits::EMPTY; R],
            pow2: true,
            exact: false,
            depth: 0,
            general: None,
            tiled: 0,
            allocated: 0,
            size_in_bytes: 0,
            element_bits: 32,
            element_type: ElementType::F32,
            memory_space: 0,
            padding_value: None,
            text: "<invalid layout>",
        }
    }
}

/// What a typed view needs from a layout of rank `R`: implemented by
/// [`StaticLayout<R>`] (table-driven offsets) and by every
/// [`StaticShape<R>`] type of the `layout!` item form (specialised offsets).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{RankedLayout, StaticLayout};
/// fn last_offset<L: RankedLayout<2>>(layout: &L) -> usize {
///     let [r, c] = layout.tables().dims();
///     layout.offset_of([r - 1, c - 1])
/// }
/// let l: StaticLayout<2> = StaticLayout::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
/// assert_eq!(last_offset(&l), 20);
/// ```
pub trait RankedLayout<const R: usize> {
    /// The element offset of an in-bounds `index`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{RankedLayout, StaticLayout};
    /// let l: StaticLayout<2> = StaticLayout::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(l.offset_of([2, 3]), 17);
    /// ```
    fn offset_of(&self, index: [usize; R]) -> usize;
    /// The tables (dims, sizes, inverse).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{RankedLayout, StaticLayout};
    /// let l: StaticLayout<2> = StaticLayout::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(l.tables().index_of(17), Some([2, 3]));
    /// ```
    fn tables(&self) -> &StaticLayout<R>;
}

impl<const R: usize> RankedLayout<R> for StaticLayout<R> {
    #[inline]
    fn offset_of(&self, index: [usize; R]) -> usize {
        self.offset(index)
    }

    fn tables(&self) -> &StaticLayout<R> {
        self
    }
}

impl<const R: usize, L: StaticShape<R>> RankedLayout<R> for L {
    #[inline]
    fn offset_of(&self, index: [usize; R]) -> usize {
        L::offset(index)
    }

    fn tables(&self) -> &StaticLayout<R> {
        &L::LAYOUT
    }
}
