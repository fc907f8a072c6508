//! [`Layout`]: `minor_to_major` and the attributes after `:`, with XLA's
//! layout builders and queries (`LayoutUtil`).

use crate::base::element::ElementType;
use crate::base::error::{capacity, capacity_error, Error};
use crate::base::konst::sub;
use crate::base::limits::{
    COMBINE_ENTRY as COMBINE, MAX_RANK, MAX_SPLIT_CONFIGS, MAX_SPLIT_INDICES, MAX_TILES,
    MAX_TILE_ENTRIES,
};
use crate::model::dim::{Tile, TileDim};

/// An array layout: `minor_to_major` and the attributes after `:`.
///
/// Values are stored as written (`i64`) so that the validator can name bad
/// numbers; a [`Layout`] inside a validated [`ArrayShape`](crate::ArrayShape) satisfies every
/// rule.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::parse_array;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::Layout;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::Layout;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::Layout;
    /// let l = Layout::from_minor_to_major(&[0, 2, 1]).unwrap();
    /// assert_eq!(l.to_string(), "{0,2,1}");
    /// ```
    pub const fn from_minor_to_major(m2m: &[i64]) -> Result<Layout, Error> {
        if m2m.len() > MAX_RANK {
            return Err(capacity_error(capacity::RANK, m2m.len(), MAX_RANK));
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::Layout;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Layout, TileDim::Size};
    /// let l = Layout::descending(2).with_tile(&[Size(8), Size(128)]).unwrap()
    ///     .with_tile(&[Size(2), Size(1)]).unwrap();
    /// assert_eq!(l.to_string(), "{1,0:T(8,128)(2,1)}");
    /// ```
    pub const fn with_tile(mut self, entries: &[TileDim]) -> Result<Layout, Error> {
        let used = self.tile_entries_used();
        if self.tile_count as usize >= MAX_TILES {
            return Err(capacity_error(
                capacity::TILES,
                self.tile_count as usize + 1,
                MAX_TILES,
            ));
        }
        if used + entries.len() > MAX_TILE_ENTRIES {
            return Err(capacity_error(
                capacity::TILE_ENTRIES,
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::Layout;
    /// let l = Layout::descending(2).with_split(0, &[10]).unwrap().with_split(1, &[4, 5]).unwrap();
    /// assert_eq!(l.to_string(), "{1,0:SC(0:10)(1:4,5)}");
    /// ```
    pub const fn with_split(mut self, dim: i64, indices: &[i64]) -> Result<Layout, Error> {
        let used = self.split_indices_used();
        if self.split_count as usize >= MAX_SPLIT_CONFIGS {
            return Err(capacity_error(
                capacity::SPLIT_CONFIGS,
                self.split_count as usize + 1,
                MAX_SPLIT_CONFIGS,
            ));
        }
        if used + indices.len() > MAX_SPLIT_INDICES {
            return Err(capacity_error(
                capacity::SPLIT_INDICES,
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
        sub(&self.m2m, 0, self.m2m_len as usize)
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
        Some(Tile {
            entries: sub(&self.tile_entries, start, end),
        })
    }

    /// Index of entry `j` of tile `level` among all tile entries (for
    /// [`SourceMap::tile_entry`](crate::SourceMap::tile_entry)).
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
        Some((self.split_dims[i], sub(&self.split_indices, start, end)))
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::Layout;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::Layout;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::Layout;
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

impl core::fmt::Debug for Layout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Layout({self})")
    }
}
