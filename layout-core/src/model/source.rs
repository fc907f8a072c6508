//! Where each part of a shape came from in the text, and the layout
//! attribute letters it is keyed by.

use crate::base::error::Span;
use crate::base::limits::{MAX_RANK, MAX_SPLIT_CONFIGS, MAX_TILES, MAX_TILE_ENTRIES};

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
    /// see [`Layout::tile_entry_index`](crate::Layout::tile_entry_index).
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
