//! Layer 3, rules: the validator, and every constructor that promises a
//! valid shape. Each rule group is a `const fn` in its own file, run in
//! order by [`run`]; a new rule belongs in the group of the attribute it
//! is about (see `docs/rules.md` for the rules in words):
//!
//! | group | file | rules |
//! |---|---|---|
//! | dimensions | `dims.rs` | sizes and bounds fit in `i64` |
//! | `minor_to_major` | `minor_to_major.rs` | a permutation of `0..rank` |
//! | tiles | `tiles.rs` | non-empty; positive sizes or `*`; no trailing `*` |
//! | attributes | `attributes.rs` | `L(n) >= 1`, `E(n) >= 0`, `S(n)` in `0..=127`, no sparse attributes |
//! | split configs | `splits.rs` | dimension in range, once; indices increasing, inside |
//! | legacy padding | `padding.rs` | padded sizes cover the dims |
//! | sizes | `sizes.rs` | element count, bytes and allocation fit in `i64` |
//! | buffers | `buffer.rs` | `b(...)` holds an untiled static array |
//!
//! [`ArrayShape`] values are made here and only here.
//!
//! May use: [`base`](crate::base), [`model`](crate::model),
//! [`text`](crate::text).

mod attributes;
mod buffer;
mod collect;
mod dims;
mod minor_to_major;
mod padding;
mod sizes;
mod splits;
mod tiles;
pub(crate) mod tree;

pub use collect::{ErrorList, MAX_ERRORS};

use crate::base::element::ElementType;
use crate::base::error::{Error, ErrorKind, Span};
use crate::base::konst::tri;
use crate::model::array::{ArrayShape, UncheckedArray};
use crate::model::dim::{Dim, PaddingValue};
use crate::model::layout::Layout;
use crate::text::parse::parse_array_unvalidated;
use collect::Collector;

/// Runs every rule group in order.
const fn run(s: &UncheckedArray, c: &mut Collector) {
    dims::check(s, c);
    if c.done() {
        return;
    }
    let m2m_ok = minor_to_major::check(s, c);
    if c.done() {
        return;
    }
    let tiles_ok = tiles::check(s, c);
    if c.done() {
        return;
    }
    attributes::check(s, c);
    if c.done() {
        return;
    }
    splits::check(s, c, m2m_ok);
    if c.done() {
        return;
    }
    attributes::check_physical_shape(s, c);
    if c.done() {
        return;
    }
    padding::check(s, c);
    if c.done() {
        return;
    }
    sizes::check(s, c, m2m_ok && tiles_ok && s.layout.tail_padding >= 1);
}

/// Checks every rule; returns the validated shape or the first violation.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array_unvalidated, validate, ErrorKind};
/// let s = parse_array_unvalidated("f32[2]{0:S(128)}").unwrap();
/// assert_eq!(validate(&s).unwrap_err().kind(), ErrorKind::MemorySpaceOutOfRange);
/// let ok = parse_array_unvalidated("f32[2]{0:S(1)}").unwrap();
/// assert_eq!(validate(&ok).unwrap().layout().memory_space(), 1);
/// ```
pub const fn validate(shape: &UncheckedArray) -> Result<ArrayShape, Error> {
    let mut c = Collector::new(true);
    run(shape, &mut c);
    match c.list.first() {
        Some(e) => Err(e),
        None => Ok(ArrayShape::from_checked(*shape)),
    }
}

/// Checks every rule; returns all violations (up to [`MAX_ERRORS`]).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array_unvalidated, validate_all, ErrorKind};
/// let s = parse_array_unvalidated("f32[2,3]{1,1:T(0,2)S(200)}").unwrap();
/// let kinds: Vec<ErrorKind> = validate_all(&s).iter().map(|e| e.kind()).collect();
/// assert_eq!(kinds, [
///     ErrorKind::MinorToMajorDuplicate,
///     ErrorKind::ZeroTileEntry,
///     ErrorKind::MemorySpaceOutOfRange,
/// ]);
/// ```
pub const fn validate_all(shape: &UncheckedArray) -> ErrorList {
    let mut c = Collector::new(false);
    run(shape, &mut c);
    c.list
}

/// The extra rules for the array inside a buffer `b(...)`: no tiles and no
/// dynamic dimensions (XLA cannot lower either). The array's own rules are
/// checked by [`validate`]. [`parse`](crate::parse) runs both on `b(...)`.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse, parse_array, validate_buffer, ErrorKind};
/// assert_eq!(validate_buffer(&parse_array("f32[2,3]").unwrap()), Ok(()));
/// let tiled = parse_array("f32[2,3]{1,0:T(2,2)}").unwrap();
/// assert_eq!(validate_buffer(&tiled).unwrap_err().kind(), ErrorKind::BufferTiled);
/// let bounded = parse_array("f32[<=2]").unwrap();
/// assert_eq!(validate_buffer(&bounded).unwrap_err().kind(), ErrorKind::BufferDynamic);
/// assert_eq!(parse("b(f32[2,3]{1,0:T(2,2)})").unwrap_err().kind(), ErrorKind::BufferTiled);
/// ```
pub const fn validate_buffer(inner: &ArrayShape) -> Result<(), Error> {
    buffer::check(&inner.raw)
}

/// Parses and validates an array shape (`pred`..`c128`, not tuples,
/// buffers, tokens or opaque). Usable in `const` items.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::parse_array;
/// const SEED: xla_layout::ArrayShape =
///     match parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}") {
///         Ok(s) => s,
///         Err(_) => panic!("bad layout"),
///     };
/// assert_eq!(SEED.offset(&[3, 0, 13, 300]), Ok(63_048_281));
/// ```
pub const fn parse_array(src: &str) -> Result<ArrayShape, Error> {
    let raw = tri!(parse_array_unvalidated(src));
    validate(&raw)
}

impl UncheckedArray {
    /// Checks every rule: the validated shape, or the first violation
    /// (see [`validate_all`] for all of them).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, ErrorKind};
    /// let raw = parse_array_unvalidated("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(raw.validate().unwrap().offset(&[2, 3]), Ok(17));
    /// let bad = parse_array_unvalidated("f32[3,5]{1,0:T(2,*)}").unwrap();
    /// assert_eq!(bad.validate().unwrap_err().kind(), ErrorKind::TrailingCombine);
    /// ```
    pub const fn validate(&self) -> Result<ArrayShape, Error> {
        validate(self)
    }
}

impl ArrayShape {
    /// A shape with XLA's default (descending) layout, validated.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{ArrayShape, Dim, ElementType};
    /// let s = ArrayShape::new(ElementType::F32, &[Dim::Static(2), Dim::Bounded(3)]).unwrap();
    /// assert_eq!(s.to_string(), "f32[2,<=3]{1,0}");
    /// ```
    pub const fn new(element_type: ElementType, dims: &[Dim]) -> Result<ArrayShape, Error> {
        let raw = tri!(UncheckedArray::new(element_type, dims));
        validate(&raw)
    }

    /// The same shape with another layout, validated.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{ArrayShape, Dim::Static, ElementType, ErrorKind, Layout};
    /// let s = ArrayShape::new(ElementType::F32, &[Static(10), Static(20)]).unwrap();
    /// let c = s.with_layout(Layout::ascending(2)).unwrap();
    /// assert_eq!(c.to_string(), "f32[10,20]{0,1}");
    /// let bad = s.with_layout(Layout::descending(3)).unwrap_err();
    /// assert_eq!(bad.kind(), ErrorKind::MinorToMajorLength);
    /// ```
    pub const fn with_layout(self, layout: Layout) -> Result<ArrayShape, Error> {
        validate(&self.raw.with_layout(layout))
    }

    /// Legacy `padded_dimensions` padding: the array is stored as if its dims
    /// were `padded` (same `minor_to_major`), the extra slots holding `value`.
    /// Each padded size must be at least the dimension's (bound) size.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, PaddingValue};
    /// let s = parse_array("f32[2,3]{0,1}").unwrap()
    ///     .with_legacy_padding(&[3, 5], PaddingValue::Zero).unwrap();
    /// assert_eq!(s.allocated_elements(), Ok(15));
    /// assert_eq!(s.offset(&[1, 0]), Ok(1)); // `d` right after `a`
    /// assert_eq!(s.offset(&[0, 1]), Ok(3)); // `b` after `a d 0`
    /// ```
    pub const fn with_legacy_padding(
        self,
        padded: &[u64],
        value: PaddingValue,
    ) -> Result<ArrayShape, Error> {
        let raw = tri!(self.raw.with_legacy_padding(padded, value));
        validate(&raw)
    }

    /// The same shape with every `?` dimension replaced, in order, by the
    /// given sizes (like `std::mdspan`'s dynamic extents), validated again.
    /// There must be exactly one extent per `?`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[?,128]{1,0:T(8,128)}").unwrap();
    /// let r = s.with_extents(&[20]).unwrap();
    /// assert_eq!(r.to_string(), "f32[20,128]{1,0:T(8,128)}");
    /// assert_eq!(r.allocated_elements(), Ok(24 * 128));
    /// assert!(s.with_extents(&[1, 2]).is_err());
    /// ```
    pub const fn with_extents(&self, extents: &[u64]) -> Result<ArrayShape, Error> {
        let wanted = self.raw.unbounded_count();
        if extents.len() != wanted {
            return Err(Error::new(
                ErrorKind::ExtentCount,
                Span::NONE,
                [extents.len() as i64, wanted as i64, 0],
            ));
        }
        let mut out = self.raw;
        let mut next = 0;
        let mut i = 0;
        while i < out.rank as usize {
            if matches!(out.dims[i], Dim::Unbounded) {
                out.dims[i] = Dim::Static(extents[next]);
                next += 1;
            }
            i += 1;
        }
        validate(&out)
    }
}
