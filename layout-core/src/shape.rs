//! The shape model: dimensions, layouts, array shapes and tuples.
//!
//! Every type here is fixed-capacity (no heap). The limits are the `MAX_*`
//! constants at the crate root; text that exceeds one is rejected with
//! [`ErrorKind::CapacityExceeded`](crate::ErrorKind::CapacityExceeded).

use crate::dtype::ElementType;
use crate::error::{Error, Span};
use crate::{MAX_RANK, MAX_SPLIT_CONFIGS, MAX_SPLIT_INDICES, MAX_TILES, MAX_TILE_ENTRIES};

/// One dimension of an array shape.
///
/// ```
/// use layout_core::{parse_array, Dim};
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
    pub const fn layout_size(self) -> Option<u64> {
        match self {
            Dim::Static(n) | Dim::Bounded(n) => Some(n),
            Dim::Unbounded => None,
        }
    }

    /// `true` for `<=N` and `?`.
    pub const fn is_dynamic(self) -> bool {
        !matches!(self, Dim::Static(_))
    }
}

/// A tile entry: a size, or `*` (combine this dimension into the next more
/// minor one before tiling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileDim {
    /// A tile size (validated to be at least 1).
    Size(i64),
    /// `*`: merge into the next more minor dimension.
    Combine,
}

/// Stored value of `*` in a tile, as in XLA (`Tile::kCombineDimension`).
pub(crate) const COMBINE: i64 = i64::MIN;

/// One tile level of a layout, major-to-minor entries.
///
/// ```
/// use layout_core::{parse_array, TileDim};
/// let s = parse_array("bf16[2,3,1004]{2,1,0:T(2,*,128)}").unwrap();
/// let t = s.layout().tile(0).unwrap();
/// assert_eq!(t.len(), 3);
/// assert_eq!(t.get(1), Some(TileDim::Combine));
/// assert_eq!(t.get(2), Some(TileDim::Size(128)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile<'a> {
    entries: &'a [i64],
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
    pub const fn raw(&self) -> &'a [i64] {
        self.entries
    }
}

/// The value used for padding slots by legacy `padded_dimensions` padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaddingValue {
    /// Pad with zeros.
    Zero,
    /// Pad with ones.
    One,
    /// Pad with the lowest value of the type.
    Lowest,
    /// Pad with the highest value of the type.
    Highest,
    /// Padding contents unspecified.
    Unknown,
}

impl PaddingValue {
    /// The option's spelling (`zero`, `one`, `lowest`, `highest`, `unknown`).
    pub const fn name(self) -> &'static str {
        match self {
            PaddingValue::Zero => "zero",
            PaddingValue::One => "one",
            PaddingValue::Lowest => "lowest",
            PaddingValue::Highest => "highest",
            PaddingValue::Unknown => "unknown",
        }
    }

    /// Parses an option spelling.
    pub const fn from_name(name: &str) -> Option<PaddingValue> {
        use crate::dtype::bytes_eq;
        let b = name.as_bytes();
        if bytes_eq(b, b"zero") {
            Some(PaddingValue::Zero)
        } else if bytes_eq(b, b"one") {
            Some(PaddingValue::One)
        } else if bytes_eq(b, b"lowest") {
            Some(PaddingValue::Lowest)
        } else if bytes_eq(b, b"highest") {
            Some(PaddingValue::Highest)
        } else if bytes_eq(b, b"unknown") {
            Some(PaddingValue::Unknown)
        } else {
            None
        }
    }
}

/// The layout attribute letters, in XLA's fixed order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Attr {
    /// `D(...)` dimension level types (accepted and dropped).
    DimLevelTypes = 0,
    /// `T(...)...` tiles.
    Tiles = 1,
    /// `L(n)` tail padding alignment in elements.
    TailPadding = 2,
    /// `#(t)` index primitive type (sparse only; rejected).
    IndexType = 3,
    /// `*(t)` pointer primitive type (sparse only; rejected).
    PointerType = 4,
    /// `E(n)` element size in bits.
    ElementSize = 5,
    /// `S(n)` memory space.
    MemorySpace = 6,
    /// `SC(d:i,...)...` split configs.
    SplitConfigs = 7,
    /// `P(shape)` physical shape (sparse only; rejected).
    PhysicalShape = 8,
    /// `M(n)` dynamic shape metadata prefix bytes.
    MetadataPrefix = 9,
}

impl Attr {
    /// How the attribute is written.
    pub const fn letter(self) -> &'static str {
        match self {
            Attr::DimLevelTypes => "D",
            Attr::Tiles => "T",
            Attr::TailPadding => "L",
            Attr::IndexType => "#",
            Attr::PointerType => "*",
            Attr::ElementSize => "E",
            Attr::MemorySpace => "S",
            Attr::SplitConfigs => "SC",
            Attr::PhysicalShape => "P",
            Attr::MetadataPrefix => "M",
        }
    }
}

/// Number of [`Attr`] letters.
pub(crate) const ATTR_COUNT: usize = 10;

/// Where each part of a shape came from in the text. Comparisons ignore it:
/// two shapes are equal when their values are, wherever they were written.
#[derive(Clone, Copy, Debug)]
pub struct SourceMap {
    pub(crate) whole: Span,
    pub(crate) element_type: Span,
    pub(crate) dims: [Span; MAX_RANK],
    pub(crate) layout: Span,
    pub(crate) minor_to_major: [Span; MAX_RANK],
    pub(crate) tiles: [Span; MAX_TILES],
    pub(crate) tile_entries: [Span; MAX_TILE_ENTRIES],
    pub(crate) attrs: [Span; ATTR_COUNT],
    pub(crate) splits: [Span; MAX_SPLIT_CONFIGS],
}

impl SourceMap {
    pub(crate) const EMPTY: SourceMap = SourceMap {
        whole: Span::NONE,
        element_type: Span::NONE,
        dims: [Span::NONE; MAX_RANK],
        layout: Span::NONE,
        minor_to_major: [Span::NONE; MAX_RANK],
        tiles: [Span::NONE; MAX_TILES],
        tile_entries: [Span::NONE; MAX_TILE_ENTRIES],
        attrs: [Span::NONE; ATTR_COUNT],
        splits: [Span::NONE; MAX_SPLIT_CONFIGS],
    };

    /// The whole shape's text.
    pub const fn whole(&self) -> Span {
        self.whole
    }

    /// The element type name.
    pub const fn element_type(&self) -> Span {
        self.element_type
    }

    /// Dimension `i` (`3`, `<=8`, `?`).
    pub const fn dim(&self, i: usize) -> Span {
        if i < MAX_RANK {
            self.dims[i]
        } else {
            Span::NONE
        }
    }

    /// The layout `{...}` (empty if none was written).
    pub const fn layout(&self) -> Span {
        self.layout
    }

    /// Entry `i` of `minor_to_major`.
    pub const fn minor_to_major(&self, i: usize) -> Span {
        if i < MAX_RANK {
            self.minor_to_major[i]
        } else {
            self.layout
        }
    }

    /// Tile level `i`, parentheses included.
    pub const fn tile(&self, i: usize) -> Span {
        if i < MAX_TILES {
            self.tiles[i]
        } else {
            self.layout
        }
    }

    /// Entry `j` of tile level `i`, counting entries of all levels in order;
    /// see [`Layout::tile_entry_index`].
    pub const fn tile_entry(&self, flat: usize) -> Span {
        if flat < MAX_TILE_ENTRIES {
            self.tile_entries[flat]
        } else {
            self.layout
        }
    }

    /// The attribute `attr` with its arguments (`S(1)`, `T(8,128)(2,1)`).
    pub const fn attr(&self, attr: Attr) -> Span {
        self.attrs[attr as usize]
    }

    /// Split config `i`, parentheses included.
    pub const fn split(&self, i: usize) -> Span {
        if i < MAX_SPLIT_CONFIGS {
            self.splits[i]
        } else {
            self.layout
        }
    }
}

impl PartialEq for SourceMap {
    fn eq(&self, _: &SourceMap) -> bool {
        true
    }
}

impl Eq for SourceMap {}

impl core::hash::Hash for SourceMap {
    fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
}

/// An array layout: `minor_to_major` and the attributes after `:`.
///
/// Values are stored as written (`i64`) so that the validator can name bad
/// numbers; a [`Layout`] inside a validated [`ArrayShape`] satisfies every
/// rule.
///
/// ```
/// use layout_core::parse_array;
/// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
/// let l = s.layout();
/// assert_eq!(l.minor_to_major(), &[3, 2, 0, 1]);
/// assert_eq!(l.tile_count(), 2);
/// assert_eq!(l.memory_space(), 1);
/// assert_eq!(l.to_string(), "{3,2,0,1:T(8,128)(2,1)S(1)}");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout {
    pub(crate) m2m: [i64; MAX_RANK],
    pub(crate) m2m_len: u8,
    pub(crate) tile_entries: [i64; MAX_TILE_ENTRIES],
    pub(crate) tile_ends: [u8; MAX_TILES],
    pub(crate) tile_count: u8,
    pub(crate) tail_padding: i64,
    pub(crate) element_size_bits: i64,
    pub(crate) memory_space: i64,
    pub(crate) metadata_prefix: i64,
    pub(crate) index_type: Option<ElementType>,
    pub(crate) pointer_type: Option<ElementType>,
    pub(crate) physical_shape: bool,
    pub(crate) split_dims: [i64; MAX_SPLIT_CONFIGS],
    pub(crate) split_indices: [i64; MAX_SPLIT_INDICES],
    pub(crate) split_ends: [u8; MAX_SPLIT_CONFIGS],
    pub(crate) split_count: u8,
}

impl Layout {
    /// A layout with no entries and no attributes (`{}`).
    pub const EMPTY: Layout = Layout {
        m2m: [0; MAX_RANK],
        m2m_len: 0,
        tile_entries: [0; MAX_TILE_ENTRIES],
        tile_ends: [0; MAX_TILES],
        tile_count: 0,
        tail_padding: 1,
        element_size_bits: 0,
        memory_space: 0,
        metadata_prefix: 0,
        index_type: None,
        pointer_type: None,
        physical_shape: false,
        split_dims: [0; MAX_SPLIT_CONFIGS],
        split_indices: [0; MAX_SPLIT_INDICES],
        split_ends: [0; MAX_SPLIT_CONFIGS],
        split_count: 0,
    };

    /// XLA's default layout: `minor_to_major = [rank-1, ..., 0]` (row-major).
    /// Ranks above [`MAX_RANK`] are clamped to it.
    ///
    /// ```
    /// use layout_core::Layout;
    /// assert_eq!(Layout::descending(3).minor_to_major(), &[2, 1, 0]);
    /// assert_eq!(Layout::descending(0).to_string(), "{}");
    /// ```
    pub const fn descending(rank: usize) -> Layout {
        let rank = if rank > MAX_RANK { MAX_RANK } else { rank };
        let mut l = Layout::EMPTY;
        let mut i = 0;
        while i < rank {
            l.m2m[i] = (rank - 1 - i) as i64;
            i += 1;
        }
        l.m2m_len = rank as u8;
        l
    }

    /// `minor_to_major = [0, ..., rank-1]` (column-major).
    ///
    /// ```
    /// use layout_core::Layout;
    /// assert_eq!(Layout::ascending(5).to_string(), "{0,1,2,3,4}");
    /// ```
    pub const fn ascending(rank: usize) -> Layout {
        let rank = if rank > MAX_RANK { MAX_RANK } else { rank };
        let mut l = Layout::EMPTY;
        let mut i = 0;
        while i < rank {
            l.m2m[i] = i as i64;
            i += 1;
        }
        l.m2m_len = rank as u8;
        l
    }

    /// A layout from `minor_to_major`, no attributes. Fails with
    /// `CapacityExceeded` beyond [`MAX_RANK`] entries.
    ///
    /// ```
    /// use layout_core::Layout;
    /// let l = Layout::from_minor_to_major(&[0, 2, 1]).unwrap();
    /// assert_eq!(l.to_string(), "{0,2,1}");
    /// ```
    pub const fn from_minor_to_major(m2m: &[i64]) -> Result<Layout, Error> {
        if m2m.len() > MAX_RANK {
            return Err(capacity_error(
                crate::error::capacity::RANK,
                m2m.len(),
                MAX_RANK,
            ));
        }
        let mut l = Layout::EMPTY;
        let mut i = 0;
        while i < m2m.len() {
            l.m2m[i] = m2m[i];
            i += 1;
        }
        l.m2m_len = m2m.len() as u8;
        Ok(l)
    }

    /// `MakeLayoutFromMajorToMinor`: the reverse of `major_to_minor`.
    ///
    /// ```
    /// use layout_core::Layout;
    /// let l = Layout::from_major_to_minor(&[1, 2, 0]).unwrap();
    /// assert_eq!(l.minor_to_major(), &[0, 2, 1]);
    /// ```
    pub const fn from_major_to_minor(major_to_minor: &[i64]) -> Result<Layout, Error> {
        let mut l = match Layout::from_minor_to_major(major_to_minor) {
            Ok(l) => l,
            Err(e) => return Err(e),
        };
        let n = major_to_minor.len();
        let mut i = 0;
        while i < n {
            l.m2m[i] = major_to_minor[n - 1 - i];
            i += 1;
        }
        Ok(l)
    }

    /// Adds a tile level (entries major to minor; [`TileDim::Combine`] for `*`).
    ///
    /// ```
    /// use layout_core::{Layout, TileDim::Size};
    /// let l = Layout::descending(2).with_tile(&[Size(8), Size(128)]).unwrap()
    ///     .with_tile(&[Size(2), Size(1)]).unwrap();
    /// assert_eq!(l.to_string(), "{1,0:T(8,128)(2,1)}");
    /// ```
    pub const fn with_tile(mut self, entries: &[TileDim]) -> Result<Layout, Error> {
        let used = self.tile_entries_used();
        if self.tile_count as usize >= MAX_TILES {
            return Err(capacity_error(
                crate::error::capacity::TILES,
                self.tile_count as usize + 1,
                MAX_TILES,
            ));
        }
        if used + entries.len() > MAX_TILE_ENTRIES {
            return Err(capacity_error(
                crate::error::capacity::TILE_ENTRIES,
                used + entries.len(),
                MAX_TILE_ENTRIES,
            ));
        }
        let mut i = 0;
        while i < entries.len() {
            self.tile_entries[used + i] = match entries[i] {
                TileDim::Size(n) => n,
                TileDim::Combine => COMBINE,
            };
            i += 1;
        }
        self.tile_ends[self.tile_count as usize] = (used + entries.len()) as u8;
        self.tile_count += 1;
        Ok(self)
    }

    /// With `L(n)`.
    pub const fn with_tail_padding(mut self, n: i64) -> Layout {
        self.tail_padding = n;
        self
    }

    /// With `E(n)`.
    pub const fn with_element_size_in_bits(mut self, n: i64) -> Layout {
        self.element_size_bits = n;
        self
    }

    /// With `S(n)`.
    pub const fn with_memory_space(mut self, n: i64) -> Layout {
        self.memory_space = n;
        self
    }

    /// With `M(n)` (a negative `n` means none, as in XLA).
    pub const fn with_metadata_prefix_bytes(mut self, n: i64) -> Layout {
        self.metadata_prefix = if n < 0 { 0 } else { n };
        self
    }

    /// Adds a split config `(dim:indices...)`.
    ///
    /// ```
    /// use layout_core::Layout;
    /// let l = Layout::descending(2).with_split(0, &[10]).unwrap().with_split(1, &[4, 5]).unwrap();
    /// assert_eq!(l.to_string(), "{1,0:SC(0:10)(1:4,5)}");
    /// ```
    pub const fn with_split(mut self, dim: i64, indices: &[i64]) -> Result<Layout, Error> {
        let used = self.split_indices_used();
        if self.split_count as usize >= MAX_SPLIT_CONFIGS {
            return Err(capacity_error(
                crate::error::capacity::SPLIT_CONFIGS,
                self.split_count as usize + 1,
                MAX_SPLIT_CONFIGS,
            ));
        }
        if used + indices.len() > MAX_SPLIT_INDICES {
            return Err(capacity_error(
                crate::error::capacity::SPLIT_INDICES,
                used + indices.len(),
                MAX_SPLIT_INDICES,
            ));
        }
        let mut i = 0;
        while i < indices.len() {
            self.split_indices[used + i] = indices[i];
            i += 1;
        }
        self.split_dims[self.split_count as usize] = dim;
        self.split_ends[self.split_count as usize] = (used + indices.len()) as u8;
        self.split_count += 1;
        Ok(self)
    }

    /// `minor_to_major`, most minor dimension first.
    pub const fn minor_to_major(&self) -> &[i64] {
        self.m2m.split_at(self.m2m_len as usize).0
    }

    /// Number of tile levels.
    pub const fn tile_count(&self) -> usize {
        self.tile_count as usize
    }

    /// Tile level `i`.
    pub const fn tile(&self, i: usize) -> Option<Tile<'_>> {
        if i >= self.tile_count as usize {
            return None;
        }
        let start = if i == 0 {
            0
        } else {
            self.tile_ends[i - 1] as usize
        };
        let end = self.tile_ends[i] as usize;
        let (head, _) = self.tile_entries.split_at(end);
        let (_, entries) = head.split_at(start);
        Some(Tile { entries })
    }

    /// Index of entry `j` of tile `level` among all tile entries (for
    /// [`SourceMap::tile_entry`]).
    pub const fn tile_entry_index(&self, level: usize, j: usize) -> usize {
        let start = if level == 0 || level > self.tile_count as usize {
            0
        } else {
            self.tile_ends[level - 1] as usize
        };
        start + j
    }

    pub(crate) const fn tile_entries_used(&self) -> usize {
        if self.tile_count == 0 {
            0
        } else {
            self.tile_ends[self.tile_count as usize - 1] as usize
        }
    }

    pub(crate) const fn split_indices_used(&self) -> usize {
        if self.split_count == 0 {
            0
        } else {
            self.split_ends[self.split_count as usize - 1] as usize
        }
    }

    /// `L(n)`: the allocation is rounded up to a multiple of `n` elements
    /// (1 when absent).
    pub const fn tail_padding_alignment(&self) -> i64 {
        self.tail_padding
    }

    /// `E(n)`: bits per stored element, 0 (absent) for the natural byte width.
    pub const fn element_size_in_bits(&self) -> i64 {
        self.element_size_bits
    }

    /// `S(n)`: the memory space (0 when absent).
    pub const fn memory_space(&self) -> i64 {
        self.memory_space
    }

    /// `M(n)`: bytes of dynamic-shape metadata before the data (0 when absent).
    pub const fn metadata_prefix_bytes(&self) -> i64 {
        self.metadata_prefix
    }

    /// Number of split configs.
    pub const fn split_count(&self) -> usize {
        self.split_count as usize
    }

    /// Split config `i`: the physical dimension (0 = most major) and the
    /// split indices.
    pub const fn split(&self, i: usize) -> Option<(i64, &[i64])> {
        if i >= self.split_count as usize {
            return None;
        }
        let start = if i == 0 {
            0
        } else {
            self.split_ends[i - 1] as usize
        };
        let end = self.split_ends[i] as usize;
        let (head, _) = self.split_indices.split_at(end);
        let (_, indices) = head.split_at(start);
        Some((self.split_dims[i], indices))
    }

    /// `#(t)`, the sparse index type (validation rejects it).
    pub const fn index_primitive_type(&self) -> Option<ElementType> {
        self.index_type
    }

    /// `*(t)`, the sparse pointer type (validation rejects it).
    pub const fn pointer_primitive_type(&self) -> Option<ElementType> {
        self.pointer_type
    }

    /// Whether a `P(...)` physical shape was written (validation rejects it).
    pub const fn has_physical_shape(&self) -> bool {
        self.physical_shape
    }

    /// `LayoutUtil::Minor(layout, p)`: the logical dimension at physical
    /// position `p` counted from the minor end.
    pub const fn minor(&self, p: usize) -> Option<usize> {
        if p < self.m2m_len as usize {
            Some(self.m2m[p] as usize)
        } else {
            None
        }
    }

    /// `LayoutUtil::Major(layout, p)`: the logical dimension at physical
    /// position `p` counted from the major end.
    ///
    /// ```
    /// use layout_core::Layout;
    /// let l = Layout::from_minor_to_major(&[3, 0, 2, 1]).unwrap();
    /// assert_eq!(l.major(0), Some(1));
    /// assert_eq!(l.minor(0), Some(3));
    /// ```
    pub const fn major(&self, p: usize) -> Option<usize> {
        let n = self.m2m_len as usize;
        if p < n {
            Some(self.m2m[n - 1 - p] as usize)
        } else {
            None
        }
    }

    /// `HasDescendingLayout` / `IsMonotonicWithDim0Major`: row-major.
    pub const fn is_descending(&self) -> bool {
        let mut i = 1;
        while i < self.m2m_len as usize {
            if self.m2m[i] >= self.m2m[i - 1] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// `HasAscendingLayout` / `IsMonotonicWithDim0Minor`: column-major.
    pub const fn is_ascending(&self) -> bool {
        let mut i = 1;
        while i < self.m2m_len as usize {
            if self.m2m[i] <= self.m2m[i - 1] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// `true` when the layout has no attributes beyond `minor_to_major` that
    /// change where elements live (no tiles, `L(1)`).
    pub const fn is_untiled(&self) -> bool {
        self.tile_count == 0
    }

    /// `MakeLogicalToPhysical`: `result[logical] = physical position`, with
    /// physical position 0 the most major.
    pub const fn logical_to_physical(&self) -> [usize; MAX_RANK] {
        let mut out = [0usize; MAX_RANK];
        let n = self.m2m_len as usize;
        let mut p = 0;
        while p < n {
            let d = self.m2m[n - 1 - p];
            if d >= 0 && (d as usize) < MAX_RANK {
                out[d as usize] = p;
            }
            p += 1;
        }
        out
    }

    /// `MoveDimToMajor`: moves logical `dim` to the most major position.
    ///
    /// ```
    /// use layout_core::Layout;
    /// let l = Layout::descending(3);
    /// assert_eq!(l.move_dim_to_major(1).minor_to_major(), &[2, 0, 1]);
    /// assert_eq!(l.move_dim_to_major(0).minor_to_major(), &[2, 1, 0]);
    /// ```
    pub const fn move_dim_to_major(&self, dim: usize) -> Layout {
        let mut out = *self;
        let n = self.m2m_len as usize;
        let mut w = 0;
        let mut found = false;
        let mut i = 0;
        while i < n {
            if self.m2m[i] == dim as i64 {
                found = true;
            } else {
                out.m2m[w] = self.m2m[i];
                w += 1;
            }
            i += 1;
        }
        if found {
            out.m2m[w] = dim as i64;
        }
        out
    }

    /// `AreDimensionsConsecutive`: the given dimensions occupy consecutive
    /// positions of `minor_to_major` (in any order).
    ///
    /// ```
    /// use layout_core::Layout;
    /// let l = Layout::from_minor_to_major(&[0, 2, 1]).unwrap();
    /// assert!(l.are_dimensions_consecutive(&[2, 0]));
    /// assert!(!l.are_dimensions_consecutive(&[0, 1]));
    /// ```
    pub const fn are_dimensions_consecutive(&self, dims: &[usize]) -> bool {
        if dims.is_empty() {
            return true;
        }
        let mut lo = usize::MAX;
        let mut hi = 0;
        let mut i = 0;
        while i < dims.len() {
            let mut pos = usize::MAX;
            let mut j = 0;
            while j < self.m2m_len as usize {
                if self.m2m[j] == dims[i] as i64 {
                    pos = j;
                }
                j += 1;
            }
            if pos == usize::MAX {
                return false;
            }
            if pos < lo {
                lo = pos;
            }
            if pos > hi {
                hi = pos;
            }
            i += 1;
        }
        hi - lo + 1 == dims.len()
    }

    /// `true` if printing would write anything after `:`.
    pub const fn has_attributes(&self) -> bool {
        self.tile_count > 0
            || self.tail_padding != 1
            || self.index_type.is_some()
            || self.pointer_type.is_some()
            || self.element_size_bits != 0
            || self.memory_space != 0
            || self.split_count > 0
            || self.physical_shape
            || self.metadata_prefix > 0
    }
}

pub(crate) const fn capacity_error(what: i64, count: usize, cap: usize) -> Error {
    Error::new(
        crate::error::ErrorKind::CapacityExceeded,
        Span::NONE,
        [what, count as i64, cap as i64],
    )
}

/// Legacy per-dimension padding (`padded_dimensions` + `padding_value`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LegacyPadding {
    pub(crate) padded: [u64; MAX_RANK],
    pub(crate) value: PaddingValue,
}

impl LegacyPadding {
    /// The padded width of each logical dimension.
    pub const fn padded_dimensions(&self, rank: usize) -> &[u64] {
        self.padded.split_at(rank).0
    }

    /// What the padding slots hold.
    pub const fn padding_value(&self) -> PaddingValue {
        self.value
    }
}

/// An array shape: element type, dimensions, layout (and, optionally, legacy
/// padding).
///
/// Parsed shapes always carry a layout: XLA's default (descending) one when
/// the text had none, exactly as XLA's parser fills it in.
///
/// ```
/// use layout_core::parse_array;
/// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
/// assert_eq!(s.rank(), 2);
/// assert_eq!(s.offset(&[2, 3]), Ok(17));
/// assert_eq!(s.allocated_elements(), Ok(24));
/// assert_eq!(s.size_in_bytes(), Ok(96));
/// assert_eq!(s.to_string(), "f32[3,5]{1,0:T(2,2)}");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArrayShape {
    pub(crate) element_type: ElementType,
    pub(crate) dims: [Dim; MAX_RANK],
    pub(crate) rank: u8,
    pub(crate) layout: Layout,
    pub(crate) padding: Option<LegacyPadding>,
    pub(crate) source: SourceMap,
}

impl ArrayShape {
    /// A shape with XLA's default layout. Not validated: call
    /// [`validate`](fn@crate::validate) (or use [`ArrayShape::with_layout`]) before
    /// relying on sizes.
    ///
    /// ```
    /// use layout_core::{ArrayShape, Dim, ElementType};
    /// let s = ArrayShape::new(ElementType::F32, &[Dim::Static(2), Dim::Bounded(3)]).unwrap();
    /// assert_eq!(s.to_string(), "f32[2,<=3]{1,0}");
    /// ```
    pub const fn new(element_type: ElementType, dims: &[Dim]) -> Result<ArrayShape, Error> {
        if dims.len() > MAX_RANK {
            return Err(capacity_error(
                crate::error::capacity::RANK,
                dims.len(),
                MAX_RANK,
            ));
        }
        if !element_type.is_array() {
            return Err(Error::new(
                crate::error::ErrorKind::NotAnArray,
                Span::NONE,
                [0; 3],
            ));
        }
        let mut d = [Dim::Static(0); MAX_RANK];
        let mut i = 0;
        while i < dims.len() {
            d[i] = dims[i];
            i += 1;
        }
        Ok(ArrayShape {
            element_type,
            dims: d,
            rank: dims.len() as u8,
            layout: Layout::descending(dims.len()),
            padding: None,
            source: SourceMap::EMPTY,
        })
    }

    /// The same shape with another layout, validated.
    ///
    /// ```
    /// use layout_core::{ArrayShape, Dim::Static, ElementType, ErrorKind, Layout};
    /// let s = ArrayShape::new(ElementType::F32, &[Static(10), Static(20)]).unwrap();
    /// let c = s.with_layout(Layout::ascending(2)).unwrap();
    /// assert_eq!(c.to_string(), "f32[10,20]{0,1}");
    /// let bad = s.with_layout(Layout::descending(3)).unwrap_err();
    /// assert_eq!(bad.kind(), ErrorKind::MinorToMajorLength);
    /// ```
    pub const fn with_layout(mut self, layout: Layout) -> Result<ArrayShape, Error> {
        self.layout = layout;
        self.source = SourceMap::EMPTY;
        match crate::validate::validate(&self) {
            Ok(()) => Ok(self),
            Err(e) => Err(e),
        }
    }

    /// Legacy `padded_dimensions` padding: the array is stored as if its dims
    /// were `padded` (same `minor_to_major`), the extra slots holding `value`.
    /// Each padded size must be at least the dimension's (bound) size.
    ///
    /// ```
    /// use layout_core::{parse_array, PaddingValue};
    /// let s = parse_array("f32[2,3]{0,1}").unwrap()
    ///     .with_legacy_padding(&[3, 5], PaddingValue::Zero).unwrap();
    /// assert_eq!(s.allocated_elements(), Ok(15));
    /// assert_eq!(s.offset(&[1, 0]), Ok(1)); // `d` right after `a`
    /// assert_eq!(s.offset(&[0, 1]), Ok(3)); // `b` after `a d 0`
    /// ```
    pub const fn with_legacy_padding(
        mut self,
        padded: &[u64],
        value: PaddingValue,
    ) -> Result<ArrayShape, Error> {
        if padded.len() != self.rank as usize {
            return Err(Error::new(
                crate::error::ErrorKind::PaddingLength,
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
        match crate::validate::validate(&self) {
            Ok(()) => Ok(self),
            Err(e) => Err(e),
        }
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
        self.dims.split_at(self.rank as usize).0
    }

    /// The layout.
    pub const fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Legacy padding, if set with [`ArrayShape::with_legacy_padding`].
    pub const fn legacy_padding(&self) -> Option<&LegacyPadding> {
        self.padding.as_ref()
    }

    /// Where the parts of this shape were in the parsed text.
    pub const fn source_map(&self) -> &SourceMap {
        &self.source
    }

    /// `true` if any dimension is `<=N` or `?`.
    pub const fn is_dynamic(&self) -> bool {
        let mut i = 0;
        while i < self.rank as usize {
            if self.dims[i].is_dynamic() {
                return true;
            }
            i += 1;
        }
        false
    }

    /// `true` if any dimension is `?`.
    pub const fn has_unbounded_dims(&self) -> bool {
        let mut i = 0;
        while i < self.rank as usize {
            if matches!(self.dims[i], Dim::Unbounded) {
                return true;
            }
            i += 1;
        }
        false
    }
}

/// A tuple shape: a view over the text of its elements, which were parsed
/// and validated already. Iterating re-parses them (no heap needed).
///
/// ```
/// use layout_core::{parse, Shape};
/// let s = parse("(f32[2], (s8[3], token[]), opaque[])").unwrap();
/// let Shape::Tuple(t) = s else { panic!() };
/// assert_eq!(t.len(), 3);
/// let names: Vec<String> = t.iter().map(|e| e.to_string()).collect();
/// assert_eq!(names, ["f32[2]{0}", "(s8[3]{0}, token[])", "opaque[]"]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TupleShape<'a> {
    pub(crate) src: &'a str,
    /// Position just after the opening `(`.
    pub(crate) start: u32,
    pub(crate) len: u32,
    pub(crate) depth: u8,
    pub(crate) span: Span,
}

impl<'a> TupleShape<'a> {
    /// Number of elements.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// `true` for `()`.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The tuple's text span in the parsed input.
    pub const fn span(&self) -> Span {
        self.span
    }

    /// The elements, in order.
    pub fn iter(&self) -> TupleIter<'a> {
        TupleIter {
            src: self.src,
            pos: self.start as usize,
            remaining: self.len,
            depth: self.depth,
        }
    }

    /// Element `i` (walks the elements before it).
    pub fn get(&self, i: usize) -> Option<Shape<'a>> {
        self.iter().nth(i)
    }
}

impl PartialEq for TupleShape<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Eq for TupleShape<'_> {}

/// Iterator over a tuple's elements.
#[derive(Clone, Debug)]
pub struct TupleIter<'a> {
    src: &'a str,
    pos: usize,
    remaining: u32,
    depth: u8,
}

impl<'a> Iterator for TupleIter<'a> {
    type Item = Shape<'a>;

    fn next(&mut self) -> Option<Shape<'a>> {
        if self.remaining == 0 {
            return None;
        }
        let (shape, end) = crate::parse::parse_element(self.src, self.pos, self.depth).ok()?;
        self.remaining -= 1;
        self.pos = end;
        Some(shape)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining as usize, Some(self.remaining as usize))
    }
}

/// Any shape XLA can write: an array, a tuple, a buffer, a token or an
/// opaque handle.
///
/// ```
/// use layout_core::{parse, Shape};
/// assert!(matches!(parse("f32[2]").unwrap(), Shape::Array(_)));
/// assert!(matches!(parse("token[]").unwrap(), Shape::Token));
/// assert_eq!(parse("b(f32[2])").unwrap().to_string(), "b(f32[2]{0})");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // no heap to box into; shapes are plain values
pub enum Shape<'a> {
    /// An array `f32[2,3]{1,0}`.
    Array(ArrayShape),
    /// A tuple `(f32[2], s8[])`.
    Tuple(TupleShape<'a>),
    /// A buffer `b(f32[2])` around an array.
    Buffer(ArrayShape),
    /// `token[]`.
    Token,
    /// `opaque[]`.
    Opaque,
}

impl Shape<'_> {
    /// The array, for arrays (not for buffers).
    pub const fn as_array(&self) -> Option<&ArrayShape> {
        match self {
            Shape::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// Debug output is the canonical text (plus legacy padding, if any), which
/// is what one wants to read in a failing test.
impl core::fmt::Debug for ArrayShape {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "ArrayShape({self})")?;
        if let Some(p) = &self.padding {
            write!(
                f,
                " padded to {:?} with {}",
                p.padded_dimensions(self.rank()),
                p.value.name()
            )?;
        }
        Ok(())
    }
}

impl core::fmt::Debug for Layout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Layout({self})")
    }
}

impl ArrayShape {
    /// Number of `?` (unbounded) dimensions.
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

    /// The same shape with every `?` dimension replaced, in order, by the
    /// given sizes (like `std::mdspan`'s dynamic extents), validated again.
    /// There must be exactly one extent per `?`.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("f32[?,128]{1,0:T(8,128)}").unwrap();
    /// let r = s.with_extents(&[20]).unwrap();
    /// assert_eq!(r.to_string(), "f32[20,128]{1,0:T(8,128)}");
    /// assert_eq!(r.allocated_elements(), Ok(24 * 128));
    /// assert!(s.with_extents(&[1, 2]).is_err());
    /// ```
    pub const fn with_extents(&self, extents: &[u64]) -> Result<ArrayShape, Error> {
        let wanted = self.unbounded_count();
        if extents.len() != wanted {
            return Err(Error::new(
                crate::error::ErrorKind::ExtentCount,
                Span::NONE,
                [extents.len() as i64, wanted as i64, 0],
            ));
        }
        let mut out = *self;
        let mut next = 0;
        let mut i = 0;
        while i < self.rank as usize {
            if matches!(self.dims[i], Dim::Unbounded) {
                out.dims[i] = Dim::Static(extents[next]);
                next += 1;
            }
            i += 1;
        }
        match crate::validate::validate(&out) {
            Ok(()) => Ok(out),
            Err(e) => Err(e),
        }
    }
}
