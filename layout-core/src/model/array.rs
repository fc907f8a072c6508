//! Array shapes as plain data. [`UncheckedArray`] is what the parser reads
//! or a builder makes: any values, no promise. [`ArrayShape`] is the same
//! data after every validation rule passed; only the rules layer makes one
//! (through [`ArrayShape::from_checked`]), so plans, offsets, sizes and
//! views, which exist only on `ArrayShape`, never see an unchecked shape.

use crate::base::element::ElementType;
use crate::base::error::{capacity, capacity_error, Error, ErrorKind, Span};
use crate::base::konst::sub;
use crate::base::limits::MAX_RANK;
use crate::model::dim::{Dim, LegacyPadding, PaddingValue};
use crate::model::layout::Layout;
use crate::model::source::SourceMap;

/// An array shape that has not been validated: what
/// [`parse_array_unvalidated`](crate::parse_array_unvalidated) returns and
/// the builders make. Its only ways forward are validation
/// ([`UncheckedArray::validate`], [`validate_all`](crate::validate_all))
/// and printing; it has no offsets, sizes or plans.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array_unvalidated, ErrorKind};
/// let raw = parse_array_unvalidated("f32[3,5]{1,0:T(0,2)}").unwrap();
/// assert_eq!(raw.to_string(), "f32[3,5]{1,0:T(0,2)}");
/// assert_eq!(raw.validate().unwrap_err().kind(), ErrorKind::ZeroTileEntry);
/// ```
///
/// The plain accessors read what was parsed:
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array_unvalidated, Dim, ElementType};
/// let raw = parse_array_unvalidated("f32[3,5]{1,0:T(0,2)}").unwrap();
/// assert_eq!(raw.element_type(), ElementType::F32);
/// assert_eq!(raw.rank(), 2);
/// assert_eq!(raw.dims(), &[Dim::Static(3), Dim::Static(5)]);
/// assert_eq!(raw.layout().minor_to_major(), &[1, 0]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct UncheckedArray {
    pub(crate) element_type: ElementType,
    pub(crate) dims: [Dim; MAX_RANK],
    pub(crate) rank: u8,
    pub(crate) layout: Layout,
    pub(crate) padding: Option<LegacyPadding>,
    pub(crate) source: SourceMap,
}

impl UncheckedArray {
    /// A rank-0 shape of `element_type` with an empty layout, for the parser
    /// to fill in.
    pub(crate) const fn empty(element_type: ElementType) -> UncheckedArray {
        UncheckedArray {
            element_type,
            dims: [Dim::Static(0); MAX_RANK],
            rank: 0,
            layout: Layout::EMPTY,
            padding: None,
            source: SourceMap::EMPTY,
        }
    }

    /// A shape with XLA's default (descending) layout. Fails only when
    /// there are more than [`MAX_RANK`] dims or the type is `token` or
    /// `opaque`; call [`UncheckedArray::validate`] (or use
    /// [`ArrayShape::new`], which does) for the rules.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Dim, ElementType, UncheckedArray};
    /// let s = UncheckedArray::new(ElementType::F32, &[Dim::Static(2), Dim::Bounded(3)]).unwrap();
    /// assert_eq!(s.to_string(), "f32[2,<=3]{1,0}");
    /// ```
    pub const fn new(element_type: ElementType, dims: &[Dim]) -> Result<UncheckedArray, Error> {
        if dims.len() > MAX_RANK {
            return Err(capacity_error(capacity::RANK, dims.len(), MAX_RANK));
        }
        if !element_type.is_array() {
            return Err(Error::new(ErrorKind::NotAnArray, Span::NONE, [0; 3]));
        }
        let mut out = UncheckedArray::empty(element_type);
        let mut i = 0;
        while i < dims.len() {
            out.dims[i] = dims[i];
            i += 1;
        }
        out.rank = dims.len() as u8;
        out.layout = Layout::descending(dims.len());
        Ok(out)
    }

    /// The same shape with another layout (not validated; the source map
    /// is dropped).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, Layout};
    /// let raw = parse_array_unvalidated("f32[3,5]{1,0:T(0,2)}").unwrap();
    /// let fixed = raw.with_layout(Layout::descending(2)); // drops the bad tile
    /// assert_eq!(fixed.validate().unwrap().to_string(), "f32[3,5]{1,0}");
    /// ```
    pub const fn with_layout(mut self, layout: Layout) -> UncheckedArray {
        self.layout = layout;
        self.source = SourceMap::EMPTY;
        self
    }

    /// The same shape with legacy `padded_dimensions` padding (not
    /// validated). Fails when `padded` does not have one entry per
    /// dimension ([`ErrorKind::PaddingLength`]); a padded size smaller than
    /// its dimension is only caught by validation.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, ErrorKind, PaddingValue};
    /// let raw = parse_array_unvalidated("f32[2,3]{0,1}").unwrap();
    /// let padded = raw.with_legacy_padding(&[3, 5], PaddingValue::Zero).unwrap();
    /// assert_eq!(padded.validate().unwrap().allocated_elements(), Ok(15));
    /// let short = raw.with_legacy_padding(&[3], PaddingValue::Zero).unwrap_err();
    /// assert_eq!(short.kind(), ErrorKind::PaddingLength);
    /// let small = raw.with_legacy_padding(&[1, 3], PaddingValue::Zero).unwrap();
    /// assert_eq!(small.validate().unwrap_err().kind(), ErrorKind::PaddingTooSmall);
    /// ```
    pub const fn with_legacy_padding(
        mut self,
        padded: &[u64],
        value: PaddingValue,
    ) -> Result<UncheckedArray, Error> {
        if padded.len() != self.rank as usize {
            return Err(Error::new(
                ErrorKind::PaddingLength,
                Span::NONE,
                [padded.len() as i64, self.rank as i64, 0],
            ));
        }
        let mut p = [0u64; MAX_RANK];
        let mut i = 0;
        while i < padded.len() {
            p[i] = padded[i];
            i += 1;
        }
        self.padding = Some(LegacyPadding { padded: p, value });
        Ok(self)
    }

    /// The element type.
    pub const fn element_type(&self) -> ElementType {
        self.element_type
    }

    /// Number of dimensions.
    pub const fn rank(&self) -> usize {
        self.rank as usize
    }

    /// The dimensions, dimension 0 first.
    pub const fn dims(&self) -> &[Dim] {
        sub(&self.dims, 0, self.rank as usize)
    }

    /// The layout.
    pub const fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Legacy padding, if any.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, PaddingValue};
    /// let raw = parse_array_unvalidated("f32[2,3]{0,1}").unwrap();
    /// assert!(raw.legacy_padding().is_none());
    /// let raw = raw.with_legacy_padding(&[3, 5], PaddingValue::One).unwrap();
    /// let p = raw.legacy_padding().unwrap();
    /// assert_eq!(p.padded_dimensions(raw.rank()), &[3, 5]);
    /// assert_eq!(p.padding_value(), PaddingValue::One);
    /// ```
    pub const fn legacy_padding(&self) -> Option<&LegacyPadding> {
        self.padding.as_ref()
    }

    /// Where the parts of this shape were in the parsed text.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array_unvalidated;
    /// let text = "f32[3,<=5]{1,0}";
    /// let raw = parse_array_unvalidated(text).unwrap();
    /// assert_eq!(&text[raw.source_map().dim(1).range()], "<=5");
    /// ```
    pub const fn source_map(&self) -> &SourceMap {
        &self.source
    }

    /// Number of `?` (unbounded) dimensions.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array_unvalidated;
    /// let raw = parse_array_unvalidated("f32[?,3,?]").unwrap();
    /// assert_eq!(raw.unbounded_count(), 2);
    /// ```
    pub const fn unbounded_count(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self.rank as usize {
            if matches!(self.dims[i], Dim::Unbounded) {
                n += 1;
            }
            i += 1;
        }
        n
    }
}

/// A validated array shape: element type, dimensions, layout (and,
/// optionally, legacy padding), every rule checked. Offsets, sizes, plans
/// and views are defined on this type only.
///
/// Parsed shapes always carry a layout: XLA's default (descending) one when
/// the text had none, exactly as XLA's parser fills it in.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::parse_array;
/// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
/// assert_eq!(s.rank(), 2);
/// assert_eq!(s.offset(&[2, 3]), Ok(17));
/// assert_eq!(s.allocated_elements(), Ok(24));
/// assert_eq!(s.size_in_bytes(), Ok(96));
/// assert_eq!(s.to_string(), "f32[3,5]{1,0:T(2,2)}");
/// ```
///
/// The plain accessors:
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, Dim, ElementType};
/// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
/// assert_eq!(s.element_type(), ElementType::Bf16);
/// assert_eq!(s.rank(), 4);
/// assert_eq!(s.dims()[2], Dim::Static(1280));
/// assert_eq!(s.layout().minor_to_major(), &[3, 2, 0, 1]);
/// assert_eq!(s.layout().memory_space(), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArrayShape {
    pub(crate) raw: UncheckedArray,
}

impl ArrayShape {
    /// Wraps data that passed every rule. Only the rules layer calls this
    /// (the architecture test checks it).
    pub(crate) const fn from_checked(raw: UncheckedArray) -> ArrayShape {
        ArrayShape { raw }
    }

    /// The same data, unchecked, to edit and validate again.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Layout};
    /// let s = parse_array("f32[2,3]").unwrap();
    /// let t = s.into_unchecked().with_layout(Layout::ascending(2)).validate().unwrap();
    /// assert_eq!(t.to_string(), "f32[2,3]{0,1}");
    /// ```
    pub const fn into_unchecked(self) -> UncheckedArray {
        self.raw
    }

    /// The element type.
    pub const fn element_type(&self) -> ElementType {
        self.raw.element_type
    }

    /// Number of dimensions.
    pub const fn rank(&self) -> usize {
        self.raw.rank as usize
    }

    /// The dimensions, dimension 0 first.
    pub const fn dims(&self) -> &[Dim] {
        self.raw.dims()
    }

    /// The layout.
    pub const fn layout(&self) -> &Layout {
        &self.raw.layout
    }

    /// Legacy padding, if set with [`ArrayShape::with_legacy_padding`].
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, PaddingValue};
    /// let s = parse_array("f32[2,3]{0,1}").unwrap();
    /// assert!(s.legacy_padding().is_none());
    /// let s = s.with_legacy_padding(&[3, 5], PaddingValue::Zero).unwrap();
    /// assert_eq!(s.legacy_padding().unwrap().padded_dimensions(2), &[3, 5]);
    /// ```
    pub const fn legacy_padding(&self) -> Option<&LegacyPadding> {
        self.raw.padding.as_ref()
    }

    /// Where the parts of this shape were in the parsed text (every span
    /// empty for a shape built in code).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, ArrayShape, Dim, ElementType, Span};
    /// let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    /// let s = parse_array(text).unwrap();
    /// assert_eq!(&text[s.source_map().element_type().range()], "bf16");
    /// let built = ArrayShape::new(ElementType::F32, &[Dim::Static(2)]).unwrap();
    /// assert_eq!(built.source_map().whole(), Span::NONE);
    /// ```
    pub const fn source_map(&self) -> &SourceMap {
        &self.raw.source
    }

    /// `true` if any dimension is `<=N` or `?`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// assert!(parse_array("f32[3,<=5]").unwrap().is_dynamic());
    /// assert!(!parse_array("f32[3,5]").unwrap().is_dynamic());
    /// ```
    pub const fn is_dynamic(&self) -> bool {
        let mut i = 0;
        while i < self.raw.rank as usize {
            if self.raw.dims[i].is_dynamic() {
                return true;
            }
            i += 1;
        }
        false
    }

    /// `true` if any dimension is `?`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// assert!(parse_array("f32[3,<=5,?]").unwrap().has_unbounded_dims());
    /// assert!(!parse_array("f32[3,<=5]").unwrap().has_unbounded_dims());
    /// ```
    pub const fn has_unbounded_dims(&self) -> bool {
        self.raw.unbounded_count() > 0
    }

    /// Number of `?` (unbounded) dimensions: how many extents
    /// [`ArrayShape::with_extents`] takes.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[?,<=5,?]").unwrap();
    /// assert_eq!(s.unbounded_count(), 2);
    /// assert_eq!(s.with_extents(&[4, 6]).unwrap().to_string(), "f32[4,<=5,6]{2,1,0}");
    /// ```
    pub const fn unbounded_count(&self) -> usize {
        self.raw.unbounded_count()
    }

    /// `ShapeUtil::ElementsIn`: the number of logical elements (bounded dims
    /// at their bound; 1 for scalars). `?` dims are an error.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// assert_eq!(parse_array("s32[3,0,5]").unwrap().element_count(), Ok(0));
    /// assert_eq!(parse_array("s32[<=3,5]").unwrap().element_count(), Ok(15));
    /// ```
    pub const fn element_count(&self) -> Result<u64, Error> {
        let mut p: u64 = 1;
        let mut i = 0;
        while i < self.raw.rank as usize {
            let n = match self.raw.dims[i] {
                Dim::Static(n) | Dim::Bounded(n) => n,
                Dim::Unbounded => {
                    return Err(Error::new(
                        ErrorKind::UnboundedDimension,
                        self.raw.source.dim(i),
                        [i as i64, 0, 0],
                    ))
                }
            };
            p = match p.checked_mul(n) {
                Some(v) => v,
                None => {
                    return Err(Error::wide(
                        ErrorKind::ElementCountOverflow,
                        self.raw.source.dim(i),
                        [i as i128, n as i128, 0],
                    ))
                }
            };
            i += 1;
        }
        Ok(p)
    }

    /// Bits per stored element: `E(n)` when set, else the byte width x 8.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// assert_eq!(parse_array("s4[8]{0:E(4)}").unwrap().element_size_in_bits(), 4);
    /// assert_eq!(parse_array("s4[8]").unwrap().element_size_in_bits(), 8);
    /// assert_eq!(parse_array("bf16[8]").unwrap().element_size_in_bits(), 16);
    /// ```
    pub const fn element_size_in_bits(&self) -> u64 {
        let e = self.raw.layout.element_size_bits;
        if e > 0 {
            e as u64
        } else {
            self.raw.element_type.byte_width() as u64 * 8
        }
    }

    /// `ShapeUtil::TrueNumDimensions`: the number of dimensions not of size 1.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// assert_eq!(parse_array("f32[2,1,1]").unwrap().true_rank(), 1);
    /// assert_eq!(parse_array("f32[3,0,1]").unwrap().true_rank(), 2);
    /// ```
    pub const fn true_rank(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self.raw.rank as usize {
            if !matches!(self.raw.dims[i], Dim::Static(1)) {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// `ShapeUtil::GetDimensionNumber`: a dimension number that may count
    /// from the end (`-1` is the last dimension).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[2,3]").unwrap();
    /// assert_eq!(s.dimension_number(-1), Ok(1));
    /// assert_eq!(s.dimension_number(-2), Ok(0));
    /// assert!(s.dimension_number(-3).is_err());
    /// ```
    pub const fn dimension_number(&self, dim: i64) -> Result<usize, Error> {
        let rank = self.raw.rank as i64;
        let d = if dim < 0 {
            dim.saturating_add(rank)
        } else {
            dim
        };
        if d < 0 || d >= rank {
            return Err(Error::new(
                ErrorKind::DimensionNumberOutOfRange,
                Span::NONE,
                [dim, rank, 0],
            ));
        }
        Ok(d as usize)
    }

    /// `ShapeUtil::GetDimension`: the dimension at a possibly negative number.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Dim};
    /// let s = parse_array("f32[1,2,3,4]").unwrap();
    /// assert_eq!(s.dim(-1), Ok(Dim::Static(4)));
    /// ```
    pub const fn dim(&self, dim: i64) -> Result<Dim, Error> {
        match self.dimension_number(dim) {
            Ok(d) => Ok(self.raw.dims[d]),
            Err(e) => Err(e),
        }
    }

    /// The letter of a dimension: `x` for the last, then `y`, `z`, `p`
    /// (rank 2 `y x`, rank 3 `z y x`, rank 4 `p z y x`); `None` beyond rank 4
    /// or out of range.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[2,3,4]").unwrap();
    /// assert_eq!(s.dimension_letter(0), Some('z'));
    /// assert_eq!(s.dimension_letter(2), Some('x'));
    /// ```
    pub const fn dimension_letter(&self, dim: usize) -> Option<char> {
        let n = self.raw.rank as usize;
        if n > 4 || dim >= n {
            return None;
        }
        Some(match n - 1 - dim {
            0 => 'x',
            1 => 'y',
            2 => 'z',
            _ => 'p',
        })
    }

    /// The logical dimension written with `letter` (`x`, `y`, `z`, `p`).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[2,3,4]").unwrap();
    /// assert_eq!(s.dimension_of_letter('y'), Some(1));
    /// assert_eq!(s.dimension_of_letter('p'), None);
    /// ```
    pub const fn dimension_of_letter(&self, letter: char) -> Option<usize> {
        let from_end = match letter {
            'x' => 0,
            'y' => 1,
            'z' => 2,
            'p' => 3,
            _ => return None,
        };
        let n = self.raw.rank as usize;
        if n > 4 || from_end >= n {
            return None;
        }
        Some(n - 1 - from_end)
    }
}
