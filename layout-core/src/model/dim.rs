//! Dimensions, tile entries and legacy padding: the smallest parts of the
//! shape model.

use crate::base::konst::sub;
use crate::base::limits::{COMBINE_ENTRY as COMBINE, MAX_RANK};

/// One dimension of an array shape.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, Dim};
/// let s = parse_array("f32[3,<=8,?]").unwrap();
/// assert_eq!(s.dims(), &[Dim::Static(3), Dim::Bounded(8), Dim::Unbounded]);
/// assert_eq!(Dim::Bounded(8).layout_size(), Some(8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// A fixed size, written `N`.
    Static(u64),
    /// A dynamic size of at most `N`, written `<=N`; laid out at `N`.
    Bounded(u64),
    /// A dynamic size with no bound, written `?`.
    Unbounded,
}

impl Dim {
    /// The size the layout uses: the static size or the bound; `None` for `?`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::Dim;
    /// assert_eq!(Dim::Static(1280).layout_size(), Some(1280));
    /// assert_eq!(Dim::Bounded(8).layout_size(), Some(8));
    /// assert_eq!(Dim::Unbounded.layout_size(), None);
    /// ```
    pub const fn layout_size(self) -> Option<u64> {
        match self {
            Dim::Static(n) | Dim::Bounded(n) => Some(n),
            Dim::Unbounded => None,
        }
    }

    /// `true` for `<=N` and `?`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::Dim;
    /// assert!(Dim::Bounded(8).is_dynamic());
    /// assert!(Dim::Unbounded.is_dynamic());
    /// assert!(!Dim::Static(8).is_dynamic());
    /// ```
    pub const fn is_dynamic(self) -> bool {
        !matches!(self, Dim::Static(_))
    }
}

/// A tile entry: a size, or `*` (combine this dimension into the next more
/// minor one before tiling).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, TileDim};
/// let s = parse_array("bf16[2,3,1004]{2,1,0:T(2,*,128)}").unwrap();
/// let t = s.layout().tile(0).unwrap();
/// let entries: Vec<TileDim> = (0..t.len()).filter_map(|i| t.get(i)).collect();
/// assert_eq!(entries, [TileDim::Size(2), TileDim::Combine, TileDim::Size(128)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileDim {
    /// A tile size (validated to be at least 1).
    Size(i64),
    /// `*`: merge into the next more minor dimension.
    Combine,
}

/// One tile level of a layout, major-to-minor entries.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, TileDim};
/// let s = parse_array("bf16[2,3,1004]{2,1,0:T(2,*,128)}").unwrap();
/// let t = s.layout().tile(0).unwrap();
/// assert_eq!(t.len(), 3);
/// assert_eq!(t.get(1), Some(TileDim::Combine));
/// assert_eq!(t.get(2), Some(TileDim::Size(128)));
/// assert_eq!(t.get(3), None);
/// assert!(!t.is_empty());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile<'a> {
    pub(crate) entries: &'a [i64],
}

impl<'a> Tile<'a> {
    /// Number of entries.
    pub const fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` for `T()` (which validation rejects).
    pub const fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entry `i` (major to minor).
    pub const fn get(&self, i: usize) -> Option<TileDim> {
        if i >= self.entries.len() {
            return None;
        }
        let v = self.entries[i];
        Some(if v == COMBINE {
            TileDim::Combine
        } else {
            TileDim::Size(v)
        })
    }

    /// The raw entries; `*` is stored as `i64::MIN`, as XLA does.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("bf16[2,3,1004]{2,1,0:T(2,*,128)}").unwrap();
    /// assert_eq!(s.layout().tile(0).unwrap().raw(), &[2, i64::MIN, 128]);
    /// ```
    pub const fn raw(&self) -> &'a [i64] {
        self.entries
    }
}

pub use crate::base::element::PaddingValue;

/// Legacy per-dimension padding (`padded_dimensions` + `padding_value`).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, PaddingValue};
/// let s = parse_array("f32[2,3]{0,1}").unwrap()
///     .with_legacy_padding(&[3, 5], PaddingValue::Zero).unwrap();
/// let p = s.legacy_padding().unwrap();
/// assert_eq!(p.padded_dimensions(s.rank()), &[3, 5]);
/// assert_eq!(p.padding_value(), PaddingValue::Zero);
/// assert_eq!(s.allocated_elements(), Ok(3 * 5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LegacyPadding {
    pub(crate) padded: [u64; MAX_RANK],
    pub(crate) value: PaddingValue,
}

impl LegacyPadding {
    /// The padded width of each logical dimension: the first `rank`
    /// entries (at most [`MAX_RANK`]; pass the shape's rank).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, PaddingValue};
    /// let s = parse_array("f32[2,3]{0,1}").unwrap()
    ///     .with_legacy_padding(&[3, 5], PaddingValue::Zero).unwrap();
    /// assert_eq!(s.legacy_padding().unwrap().padded_dimensions(s.rank()), &[3, 5]);
    /// ```
    pub const fn padded_dimensions(&self, rank: usize) -> &[u64] {
        sub(&self.padded, 0, rank)
    }

    /// What the padding slots hold.
    pub const fn padding_value(&self) -> PaddingValue {
        self.value
    }
}
