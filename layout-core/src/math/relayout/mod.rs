//! Relayout: every logical element of an array moved from one layout to
//! another, at memory speed where the layouts allow it.
//!
//! A [`RelayoutPlan`] merges the two layouts' per-dimension digits (see
//! `docs/tiling.md`, section 11) into one chain per dimension, so that both
//! offsets are sums of `digit x stride` over the same digits. The index
//! space is cut into boxes where every digit runs over its full range
//! (dimensions that are not a multiple of a tile give a few more boxes),
//! and each box is one loop nest: the loops sorted by destination stride,
//! neighbours that are contiguous on both sides merged. The innermost loop
//! is then a contiguous copy, a small transposed block (source contiguous
//! along one loop, destination along another), or strided steps. Layouts
//! whose offsets are not digits (`*`, tile sizes that do not nest, across
//! the two layouts too) are copied element by element through their
//! [`Plan`]s, with the same results.
//!
//! Destination slots that hold no element (tile padding, `L(n)`, legacy
//! padding) are written too: with the destination's legacy padding value
//! where it has one, zero bits otherwise, by every entry (typed or bytes,
//! from an [`ArrayShape`] or a [`StaticLayout`]), so the output depends
//! only on the input elements.

mod bits;
mod ceiling;
mod chunks;
mod decide;
mod describe;
mod few;
mod kernels;
mod loops;
mod modes;
mod nibble_block;
mod nibble_units;
mod padding;
#[cfg(feature = "rayon")]
mod parallel;
mod runs;
mod simd;
mod slabs;
mod squares;
mod staged;
mod strided;
mod subbyte;
mod transpose;
mod tuning;
mod windowed;

use crate::base::element::ElementType;
use crate::base::error::{Error, ErrorDetail, ErrorKind, RelayoutMismatch, Span};
use crate::base::limits::MAX_RANK;
use crate::math::fixed::{RankedLayout, StaticLayout};
use crate::math::view::{natural_slots, Element, View, ViewMut};
use crate::model::array::ArrayShape;
use crate::model::dim::PaddingValue;
use crate::plan::digits::DimDigits;
use crate::plan::Plan;

pub use describe::{RelayoutLoop, RelayoutSteps};
pub use kernels::{GeneralKernel, RelayoutKernel};
use modes::{Chain, Nest, Piece, CHAIN};
use tuning::{PACKED_PAD_RUN_BYTES, PAD_RUN_BYTES};

fn mismatch(why: RelayoutMismatch) -> Error {
    Error::from_detail(ErrorDetail::RelayoutMismatch(why), Span::NONE)
}

/// How one side finds its elements when the two layouts have no common
/// digit chains.
#[derive(Clone, Copy, Debug)]
// Digit tables are the common case; a shape is kept only for layouts
// without them, and planned again when a copy runs (a `Plan` is larger).
#[allow(clippy::large_enum_variant)]
enum Walk {
    /// The side's own digit tables.
    Digits([DimDigits<8>; MAX_RANK]),
    /// A layout without digit tables, planned when a copy runs.
    Shape(ArrayShape),
    /// The plan of a `StaticLayout` without digit tables.
    Static(&'static Plan),
}

/// One side of a relayout, as the plan is built.
struct Side {
    rank: usize,
    limits: [u64; MAX_RANK],
    walk: Walk,
    slots: u64,
    bytes: u64,
    bits: u64,
    element: ElementType,
    fill: PaddingValue,
}

impl Side {
    fn of_shape(s: &ArrayShape) -> Result<Side, Error> {
        let plan = Plan::new(s)?;
        let rank = s.rank();
        let mut limits = [0u64; MAX_RANK];
        limits[..rank].copy_from_slice(&plan.limits()[..rank]);
        Ok(Side {
            rank,
            limits,
            walk: match plan.digit_tables() {
                Some(d) => Walk::Digits(*d),
                None => Walk::Shape(*s),
            },
            slots: plan.allocated_elements(),
            bytes: s.size_in_bytes()?,
            bits: s.element_size_in_bits(),
            element: s.element_type(),
            fill: match s.legacy_padding() {
                Some(p) => p.padding_value(),
                None => PaddingValue::Zero,
            },
        })
    }

    fn of_static<const R: usize>(l: &StaticLayout<R>) -> Side {
        let mut limits = [0u64; MAX_RANK];
        for (d, x) in l.dims().iter().enumerate() {
            limits[d] = *x as u64;
        }
        let walk = match l.general_plan() {
            Some(p) => Walk::Static(p),
            None => {
                let mut out = [DimDigits::<8>::EMPTY; MAX_RANK];
                for (d, dd) in l.digit_tables().iter().enumerate() {
                    out[d].limit = dd.limit;
                    out[d].len = dd.len;
                    let n = (dd.len as usize).min(dd.base.len());
                    out[d].base[..n].copy_from_slice(&dd.base[..n]);
                    out[d].stride[..n].copy_from_slice(&dd.stride[..n]);
                }
                Walk::Digits(out)
            }
        };
        Side {
            rank: R,
            limits,
            walk,
            slots: l.allocated_elements() as u64,
            bytes: l.size_in_bytes() as u64,
            bits: l.element_size_in_bits(),
            element: l.element_type(),
            fill: match l.legacy_padding_value() {
                Some(v) => v,
                None => PaddingValue::Zero,
            },
        }
    }
}

/// Slot offsets of in-bounds indices, element by element.
// Made once per copy, on the stack; boxing would need a heap.
#[allow(clippy::large_enum_variant)]
enum Offsets<'a> {
    Digits(&'a [DimDigits<8>; MAX_RANK]),
    Plan(Plan),
    Static(&'static Plan),
}

impl Offsets<'_> {
    fn of(w: &Walk) -> Option<Offsets<'_>> {
        Some(match w {
            Walk::Digits(d) => Offsets::Digits(d),
            Walk::Shape(s) => Offsets::Plan(Plan::new(s).ok()?),
            Walk::Static(p) => Offsets::Static(p),
        })
    }

    fn offset(&self, index: &[u64]) -> u64 {
        match self {
            Offsets::Digits(d) => index
                .iter()
                .zip(d.iter())
                .fold(0u64, |s, (x, dd)| s.wrapping_add(dd.offset(*x, false))),
            Offsets::Plan(p) => p.offset_unchecked(index),
            Offsets::Static(p) => p.offset_unchecked(index),
        }
    }
}

/// How the elements are found.
#[derive(Clone, Copy, Debug)]
// The general walk keeps both plans; the merged chains are the common case.
#[allow(clippy::large_enum_variant)]
enum How {
    /// Merged digit chains, one per dimension.
    Chains([Chain; MAX_RANK]),
    /// Element by element, each side on its own.
    General { src: Walk, dst: Walk },
}

/// A prepared copy between two layouts of the same array: built once,
/// run on any number of buffer pairs. No heap; `no_std`.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, RelayoutPlan};
/// let rows = parse_array("u8[2,3]{1,0}").unwrap();
/// let cols = parse_array("u8[2,3]{0,1}").unwrap();
/// let plan = RelayoutPlan::new(&rows, &cols).unwrap();
/// let mut out = [0u8; 6];
/// plan.run_bytes(&[1, 2, 3, 4, 5, 6], &mut out).unwrap();
/// assert_eq!(out, [1, 4, 2, 5, 3, 6]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct RelayoutPlan {
    element: ElementType,
    rank: usize,
    limits: [u64; MAX_RANK],
    src_bits: u64,
    dst_bits: u64,
    src_slots: u64,
    dst_slots: u64,
    src_bytes: u64,
    dst_bytes: u64,
    /// The bits of one destination padding slot, least significant first.
    fill: u128,
    /// Some destination slot holds no element.
    fill_needed: bool,
    /// Where the destination's padding is, when it can be filled alone.
    padding: Option<padding::Padding>,
    how: How,
    /// The kernels of the first boxes (`decide.rs`).
    decided: decide::Decided,
}

impl RelayoutPlan {
    /// Plans the copy of an array from layout `src` to layout `dst`: the
    /// same element type and dimensions (bounded dims at their bound), any
    /// tiling, `E(n)`, `L(n)` or legacy padding on either side. Fails with
    /// [`ErrorKind::RelayoutMismatch`] or [`ErrorKind::DimensionMismatch`]
    /// naming the two numbers that differ, or for `?` dimensions.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, ErrorKind, RelayoutPlan};
    /// let a = parse_array("f32[512,1024]{1,0}").unwrap();
    /// let b = parse_array("f32[512,1024]{1,0:T(8,128)}").unwrap();
    /// assert!(RelayoutPlan::new(&a, &b).is_ok());
    /// let c = parse_array("f32[512,1000]{1,0}").unwrap();
    /// let e = RelayoutPlan::new(&a, &c).unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::DimensionMismatch);
    /// assert_eq!(e.to_string(), "dimension 1 has size 1024 in the source and 1000 in the destination");
    /// ```
    pub fn new(src: &ArrayShape, dst: &ArrayShape) -> Result<RelayoutPlan, Error> {
        if src.rank() != dst.rank() {
            return Err(mismatch(RelayoutMismatch::Rank {
                src: src.rank() as u64,
                dst: dst.rank() as u64,
            }));
        }
        let mut plan = Self::of_shapes(src, dst);
        if let Ok(p) = &mut plan {
            p.decide();
        }
        plan
    }

    // The plan without its kernels (`decide`), out of line: the two sides
    // are off the stack when the kernels are decided. (`relayout` decides
    // in its own plan, so that no second copy of it, 5 KB, is on the
    // stack then: the Cortex-M firmware's.)
    #[inline(never)]
    fn of_shapes(src: &ArrayShape, dst: &ArrayShape) -> Result<RelayoutPlan, Error> {
        Self::build(&Side::of_shape(src)?, &Side::of_shape(dst)?)
    }

    /// Plans the copy between two ranked layouts (what [`relayout`] uses).
    /// Padding slots of the destination get its legacy padding value
    /// ([`StaticLayout::legacy_padding_value`]) or zero bits, as
    /// [`RelayoutPlan::new`] writes them for the same shapes; a padding
    /// value the element type cannot encode is the same
    /// [`ErrorKind::RelayoutMismatch`].
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{RelayoutPlan, StaticLayout};
    /// let a = StaticLayout::<2>::parse("f32[4,256]{1,0}").unwrap();
    /// let b = StaticLayout::<2>::parse("f32[4,256]{0,1:T(2,128)}").unwrap();
    /// let plan = RelayoutPlan::between(&a, &b).unwrap();
    /// let src: Vec<f32> = (0..1024).map(|i| i as f32).collect();
    /// let mut dst = vec![0.0; b.allocated_elements()];
    /// plan.run(&src, &mut dst).unwrap();
    /// assert_eq!(dst[b.offset([3, 200])], src[a.offset([3, 200])]);
    /// ```
    pub fn between<const R: usize>(
        src: &StaticLayout<R>,
        dst: &StaticLayout<R>,
    ) -> Result<RelayoutPlan, Error> {
        let mut plan = Self::of_statics(src, dst);
        if let Ok(p) = &mut plan {
            p.decide();
        }
        plan
    }

    // Out of line, as `of_shapes`.
    #[inline(never)]
    fn of_statics<const R: usize>(
        src: &StaticLayout<R>,
        dst: &StaticLayout<R>,
    ) -> Result<RelayoutPlan, Error> {
        Self::build(&Side::of_static(src), &Side::of_static(dst))
    }

    // Out of line: the callers' two sides and this plan's parts are then
    // not in one frame.
    #[inline(never)]
    fn build(a: &Side, b: &Side) -> Result<RelayoutPlan, Error> {
        if a.element != b.element {
            return Err(mismatch(RelayoutMismatch::ElementType {
                src: Some(a.element),
                dst: Some(b.element),
            }));
        }
        let rank = a.rank;
        for d in 0..rank {
            if a.limits[d] != b.limits[d] {
                return Err(Error::wide(
                    ErrorKind::DimensionMismatch,
                    Span::NONE,
                    [d as i128, a.limits[d].into(), b.limits[d].into()],
                ));
            }
        }
        // The bits of a value (1 for `pred`).
        let value_bits = u64::from(a.element.bit_width());
        for bits in [a.bits, b.bits] {
            if bits < value_bits || bits > 128 {
                return Err(mismatch(RelayoutMismatch::SlotWidth {
                    slot: bits,
                    element: value_bits,
                }));
            }
        }
        let mut elements: u64 = 1;
        for x in &a.limits[..rank] {
            elements = elements.checked_mul(*x).ok_or(Error::new(
                ErrorKind::ElementCountOverflow,
                Span::NONE,
                [0; 3],
            ))?;
        }
        // Slot offsets are used as `usize` indices.
        for s in [a.slots, b.slots, a.bytes, b.bytes] {
            if usize::try_from(s).is_err() {
                return Err(Error::new(
                    ErrorKind::AllocationOverflow,
                    Span::NONE,
                    [0; 3],
                ));
            }
        }
        let fill = pattern(b.element, b.fill)?;
        // The chains are made in place; the general walk only without them.
        let mut how = How::Chains([Chain::EMPTY; MAX_RANK]);
        let chained = match (&a.walk, &b.walk, &mut how) {
            (Walk::Digits(da), Walk::Digits(db), How::Chains(chains)) => (0..rank).all(|d| {
                modes::chain(&da[d], &db[d])
                    .map(|c| chains[d] = c)
                    .is_some()
            }),
            _ => false,
        };
        let padding = match (chained, &b.walk) {
            (true, Walk::Digits(db)) => padding::padding(db, &b.limits, rank, b.slots),
            _ => {
                how = How::General {
                    src: a.walk,
                    dst: b.walk,
                };
                None
            }
        };
        Ok(RelayoutPlan {
            element: a.element,
            rank,
            limits: a.limits,
            src_bits: a.bits,
            dst_bits: b.bits,
            src_slots: a.slots,
            dst_slots: b.slots,
            src_bytes: a.bytes,
            dst_bytes: b.bytes,
            fill,
            // Slots without an element, or bits after the last slot.
            fill_needed: elements != b.slots
                || b.slots.checked_mul(b.bits) != b.bytes.checked_mul(8),
            padding,
            how,
            decided: decide::Decided::NONE,
        })
    }

    /// Bytes of the source buffer [`RelayoutPlan::run_bytes`] takes.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutPlan};
    /// let a = parse_array("s4[3,5]{1,0:E(4)}").unwrap();
    /// let b = parse_array("s4[3,5]{1,0:T(2,2)}").unwrap();
    /// let plan = RelayoutPlan::new(&a, &b).unwrap();
    /// assert_eq!((plan.source_bytes(), plan.destination_bytes()), (8, 24));
    /// ```
    pub const fn source_bytes(&self) -> u64 {
        self.src_bytes
    }

    /// Bytes of the destination buffer [`RelayoutPlan::run_bytes`] takes.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutPlan};
    /// let a = parse_array("f32[3,5]{1,0}").unwrap();
    /// let b = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(RelayoutPlan::new(&a, &b).unwrap().destination_bytes(), 96);
    /// ```
    pub const fn destination_bytes(&self) -> u64 {
        self.dst_bytes
    }

    /// `true` when the copy runs as loop nests over the merged digits of
    /// both layouts (contiguous runs and blocks); `false` when it goes
    /// element by element (a side with `*`, or tile sizes that do not nest
    /// across the two layouts). Both give the same bytes.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutPlan};
    /// let a = parse_array("f32[12,8]{1,0:T(4,8)}").unwrap();
    /// let b = parse_array("f32[12,8]{1,0:T(2,8)}").unwrap();
    /// assert!(RelayoutPlan::new(&a, &b).unwrap().is_blocked());
    /// let c = parse_array("f32[12,8]{1,0:T(3,8)}").unwrap();
    /// assert!(!RelayoutPlan::new(&a, &c).unwrap().is_blocked()); // 4 and 3 do not nest
    /// ```
    pub const fn is_blocked(&self) -> bool {
        matches!(self.how, How::Chains(_))
    }

    /// Copies the array from `src` to `dst`, both buffers of exactly the
    /// layouts' sizes in bytes ([`RelayoutPlan::source_bytes`],
    /// [`RelayoutPlan::destination_bytes`]). Packed sub-byte elements
    /// (`E(n)`) are read and written at their bit offsets. Slots of the
    /// same width are copied whole; where the two layouts' `E(n)` differ,
    /// the value (the type's own bits) is repacked, sign-extended for
    /// signed integers and zero-extended otherwise when a slot widens.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutPlan};
    /// let packed = parse_array("s4[4]{0:E(4)}").unwrap();
    /// let bytes = parse_array("s4[4]{0}").unwrap();
    /// let plan = RelayoutPlan::new(&packed, &bytes).unwrap();
    /// let mut out = [0u8; 4];
    /// plan.run_bytes(&[0x21, 0xF8], &mut out).unwrap(); // 1, 2, -8, -1
    /// assert_eq!(out, [1, 2, 0xF8, 0xFF]);
    /// ```
    pub fn run_bytes(&self, src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
        self.run_bytes_on(src, dst, false)
    }

    /// [`RelayoutPlan::run_bytes`] on rayon's threads (the `rayon`
    /// feature): each part of the copy writes its own range of `dst`.
    /// Layouts whose parts cannot be cut that way, and element-by-element
    /// copies, run on the calling thread. The same bytes either way.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutPlan};
    /// let a = parse_array("u8[64,96]{1,0}").unwrap();
    /// let b = parse_array("u8[64,96]{0,1:T(8,32)}").unwrap();
    /// let plan = RelayoutPlan::new(&a, &b).unwrap();
    /// let src: Vec<u8> = (0..6144).map(|i| i as u8).collect();
    /// let (mut one, mut many) = (vec![0; 6144], vec![0; 6144]);
    /// plan.run_bytes(&src, &mut one).unwrap();
    /// plan.par_run_bytes(&src, &mut many).unwrap();
    /// assert_eq!(one, many);
    /// ```
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn par_run_bytes(&self, src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
        self.run_bytes_on(src, dst, true)
    }

    /// For benchmarks only, not a stable API, and NOT a relayout: the
    /// bytes [`RelayoutPlan::run_bytes`] reads and writes, the same lines
    /// in the same order, moved without transposing them, so that a
    /// benchmark can set a copy's speed against this ceiling (the
    /// `relayout_pairs` bench's `lines` and `of lines` columns). The
    /// padding is filled as `run_bytes` fills it and every box is walked
    /// as `run_bytes` walks it: runs contiguous on both sides by the same
    /// kernel; other boxes in the general blocks' blocks and order, each
    /// block's source rows written into its destination columns as they
    /// come (element `k` read into slot `k` written, so elements land in
    /// the wrong slots), in pieces contiguous on both sides; blocks whose
    /// rows or columns are no runs element by element as the blocks copy
    /// them; boxes no blocks take in source order. Packed slots go in
    /// bytes, approximately. `relayout/ceiling.rs` has the details. Takes
    /// the buffers `run_bytes` takes, with the same length errors, and
    /// writes every byte `run_bytes` writes.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutPlan};
    /// let a = parse_array("u8[2,3]{1,0}").unwrap();
    /// let b = parse_array("u8[2,3]{0,1}").unwrap();
    /// let plan = RelayoutPlan::new(&a, &b).unwrap();
    /// let mut out = [0u8; 6];
    /// plan.run_bytes_lines(&[1, 2, 3, 4, 5, 6], &mut out).unwrap();
    /// out.sort();
    /// assert_eq!(out, [1, 2, 3, 4, 5, 6]); // every byte moved, not in place
    /// let short = plan.run_bytes_lines(&[0; 5], &mut out).unwrap_err();
    /// assert_eq!(short.to_string(), "the source buffer has 5 bytes but its layout takes 6");
    /// ```
    #[doc(hidden)]
    pub fn run_bytes_lines(&self, src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
        self.check_lengths(src.len(), dst.len(), self.src_bytes, self.dst_bytes)?;
        ceiling::run(self, src, dst);
        Ok(())
    }

    fn run_bytes_on(&self, src: &[u8], dst: &mut [u8], par: bool) -> Result<(), Error> {
        self.check_lengths(src.len(), dst.len(), self.src_bytes, self.dst_bytes)?;
        match self.slot_bytes() {
            Some(1) => return self.run_chunks::<1>(src, dst, par),
            Some(2) => return self.run_chunks::<2>(src, dst, par),
            Some(4) => return self.run_chunks::<4>(src, dst, par),
            Some(8) => return self.run_chunks::<8>(src, dst, par),
            Some(16) => return self.run_chunks::<16>(src, dst, par),
            _ => {}
        }
        self.run_bits(src, dst, par);
        Ok(())
    }

    /// Copies the array between two slices of its natural Rust type, of
    /// exactly the layouts' slot counts (tile padding included). Padding
    /// slots get the destination's legacy padding value as a `T` (`one`
    /// is `1` or `1.0`, `lowest` and `highest` the type's extremes, minus
    /// and plus infinity for floats), zero otherwise: the same bits as
    /// [`RelayoutPlan::run_bytes`] writes.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutPlan};
    /// let a = parse_array("f32[2,2]{1,0}").unwrap();
    /// let b = parse_array("f32[2,2]{0,1:L(6)}").unwrap();
    /// let plan = RelayoutPlan::new(&a, &b).unwrap();
    /// let mut out = [9.0f32; 6];
    /// plan.run(&[1.0, 2.0, 3.0, 4.0], &mut out).unwrap();
    /// assert_eq!(out, [1.0, 3.0, 2.0, 4.0, 0.0, 0.0]);
    /// ```
    pub fn run<T: Element>(&self, src: &[T], dst: &mut [T]) -> Result<(), Error> {
        self.run_on(src, dst, false)
    }

    /// [`RelayoutPlan::run`] on rayon's threads (the `rayon` feature), as
    /// [`RelayoutPlan::par_run_bytes`] does.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutPlan};
    /// let a = parse_array("f32[64,64]{1,0}").unwrap();
    /// let b = parse_array("f32[64,64]{0,1}").unwrap();
    /// let plan = RelayoutPlan::new(&a, &b).unwrap();
    /// let src: Vec<f32> = (0..4096).map(|i| i as f32).collect();
    /// let mut dst = vec![0.0; 4096];
    /// plan.par_run(&src, &mut dst).unwrap();
    /// assert_eq!(dst[1], 64.0);
    /// ```
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn par_run<T: Element>(&self, src: &[T], dst: &mut [T]) -> Result<(), Error> {
        self.run_on(src, dst, true)
    }

    fn run_on<T: Element>(&self, src: &[T], dst: &mut [T], par: bool) -> Result<(), Error> {
        natural_slots::<T>(self.element, self.src_bits)?;
        natural_slots::<T>(self.element, self.dst_bits)?;
        self.check_lengths(src.len(), dst.len(), self.src_slots, self.dst_slots)?;
        // With the `simd` feature, the same bytes through `run_bytes`'s
        // byte slots, which get vector shuffles.
        if let (Some(s), Some(d)) = (T::__bytes(src), T::__bytes_mut(dst)) {
            return self.run_bytes_on(s, d, par);
        }
        self.copy(src, dst, T::__from_bits(self.fill), par);
        Ok(())
    }

    fn check_lengths(
        &self,
        src: usize,
        dst: usize,
        want_src: u64,
        want_dst: u64,
    ) -> Result<(), Error> {
        if src as u64 != want_src {
            return Err(mismatch(RelayoutMismatch::SourceLength {
                len: src as u64,
                size: want_src,
            }));
        }
        if dst as u64 != want_dst {
            return Err(mismatch(RelayoutMismatch::DestinationLength {
                len: dst as u64,
                size: want_dst,
            }));
        }
        Ok(())
    }

    fn run_chunks<const N: usize>(
        &self,
        src: &[u8],
        dst: &mut [u8],
        par: bool,
    ) -> Result<(), Error> {
        let (src, _) = src.as_chunks::<N>();
        let (dst, _) = dst.as_chunks_mut::<N>();
        let fill: [u8; N] = core::array::from_fn(|i| (self.fill >> (8 * i)) as u8);
        self.copy(src, dst, fill, par);
        Ok(())
    }

    /// Writes `v` into the padding slots of `dst`, the destination's slots
    /// from `start` on: only the padding where the plan knows where it is,
    /// else every slot (the elements are copied over it).
    fn fill_padding<T: Copy>(&self, dst: &mut [T], start: u64, v: T) {
        let end = start.saturating_add(dst.len() as u64);
        let alone = self.each_padding(start, end, PAD_RUN_BYTES, &mut |lo, len| {
            let at = (lo - start) as usize;
            dst[at..at + len as usize].fill(v);
        });
        if !alone {
            dst.fill(v);
        }
    }

    /// [`RelayoutPlan::fill_padding`] for packed slots: `dst` holds `slots`
    /// slots from `start` on, then (in the last window) any bits after the
    /// destination's last slot, which become zeros.
    fn fill_bits(&self, copy: &bits::Copier, dst: &mut [u8], start: u64, slots: u64) {
        let end = start.saturating_add(slots);
        let alone = self.each_padding(start, end, PACKED_PAD_RUN_BYTES, &mut |lo, len| {
            copy.fill_slots(dst, lo - start, len, self.fill)
        });
        if alone {
            copy.clear_after(dst, slots);
        } else {
            copy.fill(dst, self.fill, slots);
        }
    }

    /// Calls `put(slot, len)` over the padding slots in `start..end` where
    /// the plan knows where its padding is, and its runs have `least`
    /// bytes of elements between them on average (`true`); else `false`,
    /// with no call (the caller fills every slot).
    fn each_padding(
        &self,
        start: u64,
        end: u64,
        least: u64,
        put: &mut dyn FnMut(u64, u64),
    ) -> bool {
        match (&self.how, &self.padding) {
            (How::Chains(chains), Some(p)) => {
                let at = (start, end, self.dst_bits, least);
                padding::fill(chains, &self.limits, self.rank, p, at, put)
            }
            _ => false,
        }
    }

    /// The copy over slices of whole slots.
    fn copy<T: Copy + Send + Sync + 'static>(&self, src: &[T], dst: &mut [T], fill: T, par: bool) {
        if self.fill_needed {
            self.fill_padding(dst, 0, fill);
        }
        match &self.how {
            How::Chains(chains) => {
                let slot = |x: u64| usize::try_from(x).ok();
                // Threads decide each part's kernel (`decide.rs`).
                let copy = |n: &Nest, d: &mut [T]| kernels::copy_nest(n, src, d);
                if par && self.on_threads(chains, dst, slot, copy) {
                    return;
                }
                self.each_part(chains, &mut |k, n: &Nest| kernels::copy_as(k, n, src, dst));
            }
            How::General { src: a, dst: b } => {
                self.each_general(a, b, 0..u64::MAX, |s, d| dst[d as usize] = src[s as usize])
            }
        }
    }

    /// The copy bit by bit, for packed elements.
    fn run_bits(&self, src: &[u8], dst: &mut [u8], par: bool) {
        let copy = bits::Copier::new(self.element, self.src_bits, self.dst_bits);
        if self.fill_needed {
            self.fill_bits(&copy, dst, 0, self.dst_slots);
        }
        let one_box = |n: &Nest, dst: &mut [u8]| {
            if !copy.nest(n, src, dst) {
                strided::each_slot(n, |s, d| copy.one(src, s, dst, d));
            }
        };
        match &self.how {
            How::Chains(chains) => {
                let bits = self.dst_bits;
                // Parts start and end on whole bytes, or run here.
                if par && self.on_threads(chains, dst, |x| byte(x, bits), one_box) {
                    return;
                }
                self.each_part(chains, &mut |k, n: &Nest| {
                    if !copy.nest_as(k, n, src, dst) {
                        strided::each_slot(n, |s, d| copy.one(src, s, dst, d));
                    }
                });
            }
            How::General { src: a, dst: b } => {
                self.each_general(a, b, 0..u64::MAX, |s, d| copy.one(src, s, dst, d))
            }
        }
    }

    /// Runs `f` on parts of every box, on rayon's threads, each with its
    /// own range of `dst` (`unit` turns a slot offset into an index of
    /// `dst`); `false` (nothing done) when the boxes cannot be cut so, or
    /// without the `rayon` feature.
    fn on_threads<T: Send>(
        &self,
        chains: &[Chain; MAX_RANK],
        dst: &mut [T],
        unit: impl Fn(u64) -> Option<usize> + Sync,
        f: impl Fn(&Nest, &mut [T]) + Sync,
    ) -> bool {
        #[cfg(feature = "rayon")]
        {
            let each = |g: &mut dyn FnMut(&Nest)| self.each_box(chains, g);
            if let Some(parts) = parallel::parts(each, 4, self.source_line(), self.granule()) {
                return parallel::run(parts, dst, unit, f);
            }
        }
        let _ = (chains, dst, unit, f);
        false
    }

    /// The fewest destination slots that are whole bytes, from a slot
    /// that starts on a byte: 1 for slots of whole bytes, 2 for nibbles,
    /// 8 for bits (`parallel::parts` cuts on them).
    #[cfg(feature = "rayon")]
    fn granule(&self) -> u64 {
        8 / windowed::gcd(self.dst_bits.max(1), 8)
    }

    /// Source slots in one 64-byte cache line (at least 1).
    #[cfg(feature = "rayon")]
    fn source_line(&self) -> u64 {
        (512 / self.src_bits.max(1)).max(1)
    }

    /// Every box of the merged chains, as a loop nest.
    fn each_box(&self, chains: &[Chain; MAX_RANK], f: &mut dyn FnMut(&Nest)) {
        self.with_pieces(chains, |of| modes::each_box(chains, of, self.rank, f));
    }

    /// Calls `f` with each dimension's pieces (the parts of its chain
    /// whose digits run over their whole ranges; see `modes::pieces`).
    fn with_pieces<R>(
        &self,
        chains: &[Chain; MAX_RANK],
        f: impl FnOnce(&[&[Piece]; MAX_RANK]) -> R,
    ) -> R {
        let mut pieces = [[modes::NO_PIECE; CHAIN]; MAX_RANK];
        let mut counts = [0usize; MAX_RANK];
        for d in 0..self.rank {
            // An empty dimension has no pieces: nothing to copy.
            (pieces[d], counts[d]) = modes::pieces(&chains[d]);
        }
        let mut of: [&[Piece]; MAX_RANK] = [&[]; MAX_RANK];
        for ((o, p), &n) in of.iter_mut().zip(&pieces).zip(&counts) {
            *o = &p[..n];
        }
        f(&of)
    }

    /// The bytes of a slot where the copy moves whole slots of one size
    /// (1, 2, 4, 8 or 16, taken as `[u8; N]`); `None` where slots are
    /// packed or differ in size (the bit copier).
    fn slot_bytes(&self) -> Option<u64> {
        let whole = self.src_bits == self.dst_bits && self.src_bits.is_multiple_of(8);
        let b = self.src_bits / 8;
        (whole && matches!(b, 1 | 2 | 4 | 8 | 16)).then_some(b)
    }

    /// Every element's source and destination slot, in logical order:
    /// only the elements whose destination slot is in `keep` (a
    /// window's), whose source slot is then looked up.
    ///
    /// Out of line: its two offset tables (a `Plan` each, about 7 KB) then
    /// take stack only when a copy goes element by element.
    #[inline(never)]
    fn each_general(
        &self,
        a: &Walk,
        b: &Walk,
        keep: core::ops::Range<u64>,
        mut f: impl FnMut(u64, u64),
    ) {
        let rank = self.rank;
        if self.limits[..rank].contains(&0) {
            return;
        }
        // Both shapes were planned when this plan was made.
        let (Some(a), Some(b)) = (Offsets::of(a), Offsets::of(b)) else {
            return;
        };
        let mut index = [0u64; MAX_RANK];
        loop {
            let i = &index[..rank];
            let d = b.offset(i);
            if keep.contains(&d) {
                f(a.offset(i), d);
            }
            if !modes::next(&mut index[..rank], &self.limits[..rank]) {
                return;
            }
        }
    }
}

/// The byte at which destination slot `x` of `bits` bits starts, when it
/// starts on a whole byte.
fn byte(x: u64, bits: u64) -> Option<usize> {
    let b = x.checked_mul(bits)?;
    if b.is_multiple_of(8) {
        usize::try_from(b / 8).ok()
    } else {
        None
    }
}

/// The bits of one padding slot of type `t` holding `v`.
fn pattern(t: ElementType, v: PaddingValue) -> Result<u128, Error> {
    use ElementType::*;
    let bits = t.bit_width();
    let ones = |b: u32| {
        if b >= 128 {
            u128::MAX
        } else {
            (1u128 << b) - 1
        }
    };
    let got = match v {
        PaddingValue::Zero | PaddingValue::Unknown => Some(0),
        PaddingValue::One => match t {
            _ if t.is_signed_integer() || t.is_unsigned_integer() => Some(1),
            Pred => Some(1),
            F16 => Some(0x3C00),
            Bf16 => Some(0x3F80),
            F32 | C64 => Some(0x3F80_0000),
            F64 | C128 => Some(0x3FF0_0000_0000_0000),
            _ => None,
        },
        PaddingValue::Lowest => match t {
            _ if t.is_signed_integer() => Some(1u128 << (bits - 1)),
            _ if t.is_unsigned_integer() => Some(0),
            Pred => Some(0),
            F16 => Some(0xFC00),
            Bf16 => Some(0xFF80),
            F32 => Some(0xFF80_0000),
            F64 => Some(0xFFF0_0000_0000_0000),
            _ => None,
        },
        PaddingValue::Highest => match t {
            _ if t.is_signed_integer() => Some(ones(bits - 1)),
            _ if t.is_unsigned_integer() => Some(ones(bits)),
            Pred => Some(1),
            F16 => Some(0x7C00),
            Bf16 => Some(0x7F80),
            F32 => Some(0x7F80_0000),
            F64 => Some(0x7FF0_0000_0000_0000),
            _ => None,
        },
    };
    got.ok_or(mismatch(RelayoutMismatch::PaddingValue {
        value: v,
        element_type: Some(t),
    }))
}

/// Copies every element of `src` into `dst`, which may have any other
/// layout of the same dimensions and element type; padding slots of `dst`
/// get its layout's legacy padding value
/// ([`StaticLayout::legacy_padding_value`]; `layout!`'s `padding_value`),
/// zero without one: the bytes [`relayout_bytes`] writes for the same
/// shapes. For repeated copies between the same two layouts, keep a
/// [`RelayoutPlan`].
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, relayout, PaddingValue, StaticLayout, View, ViewMut};
/// let rows = StaticLayout::<2>::parse("f32[3,5]{1,0}").unwrap();
/// let tiled = StaticLayout::<2>::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
/// let data: Vec<f32> = (0..15).map(|i| i as f32).collect();
/// let mut out = vec![-1.0; tiled.allocated_elements()];
/// let src = View::new(rows, &data).unwrap();
/// let mut dst = ViewMut::new(tiled, &mut out).unwrap();
/// relayout(&src, &mut dst).unwrap();
/// assert_eq!(dst[[2, 3]], 13.0);
/// assert_eq!(out[17], 13.0); // figure 1: element (2, 3) is at offset 17
/// assert_eq!(out[18], 0.0); // padding
///
/// // With legacy padding, its value: here the lowest `f32`.
/// let padded = parse_array("f32[3,5]{0,1}").unwrap()
///     .with_legacy_padding(&[4, 5], PaddingValue::Lowest).unwrap();
/// let cols = StaticLayout::<2>::from_shape(&padded, "f32[3,5]{0,1}").unwrap();
/// let mut out = vec![-1.0; cols.allocated_elements()];
/// relayout(&src, &mut ViewMut::new(cols, &mut out).unwrap()).unwrap();
/// assert_eq!(out[..4], [0.0, 5.0, 10.0, f32::NEG_INFINITY]);
/// ```
// Out of line: the plan (5 KB) is on the stack only during the call, not
// in every caller's frame.
#[inline(never)]
pub fn relayout<T, A, B, const R: usize>(
    src: &View<'_, T, A, R>,
    dst: &mut ViewMut<'_, T, B, R>,
) -> Result<(), Error>
where
    T: Element,
    A: RankedLayout<R>,
    B: RankedLayout<R>,
{
    let a = src.layout().tables();
    let b = dst.layout().tables();
    // Decided and matched in place: moving the plan out of the `Result`
    // would copy it (as `RelayoutPlan::between` does).
    let mut plan = RelayoutPlan::of_statics(a, b);
    let plan = match &mut plan {
        Ok(p) => {
            p.decide();
            p
        }
        Err(e) => return Err(*e),
    };
    let (na, nb) = (a.allocated_elements(), b.allocated_elements());
    let s = &src.as_slice()[..na];
    let d = &mut dst.as_mut_slice()[..nb];
    plan.run(s, d)
}

/// Copies an array given as bytes in layout `src` into `dst_bytes` in
/// layout `dst`: any element type (packed sub-byte ones too), any tiling,
/// `L(n)`, legacy padding. Both buffers must have exactly the layouts'
/// byte sizes. For repeated copies, keep a [`RelayoutPlan`].
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, relayout_bytes, ErrorKind};
/// let a = parse_array("u8[2,4]{1,0}").unwrap();
/// let b = parse_array("u8[2,4]{1,0:T(2,2)}").unwrap();
/// let mut out = [0u8; 8];
/// relayout_bytes(&a, &[0, 1, 2, 3, 4, 5, 6, 7], &b, &mut out).unwrap();
/// assert_eq!(out, [0, 1, 4, 5, 2, 3, 6, 7]);
/// let short = relayout_bytes(&a, &[0; 7], &b, &mut out).unwrap_err();
/// assert_eq!(short.to_string(), "the source buffer has 7 bytes but its layout takes 8");
/// ```
pub fn relayout_bytes(
    src: &ArrayShape,
    src_bytes: &[u8],
    dst: &ArrayShape,
    dst_bytes: &mut [u8],
) -> Result<(), Error> {
    // Matched in place, as in `relayout`.
    match &RelayoutPlan::new(src, dst) {
        Ok(plan) => plan.run_bytes(src_bytes, dst_bytes),
        Err(e) => Err(*e),
    }
}
