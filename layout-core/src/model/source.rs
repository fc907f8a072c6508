//! Where each part of a shape came from in the text, and the layout
//! attribute letters it is keyed by.

use crate::base::error::Span;
use crate::base::limits::{MAX_RANK, MAX_SPLIT_CONFIGS, MAX_TILES, MAX_TILE_ENTRIES};

/// The layout attribute letters, in XLA's fixed order.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, Attr};
/// let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
/// let map = *parse_array(text).unwrap().source_map();
/// assert_eq!(&text[map.attr(Attr::MemorySpace).range()], "S(1)");
/// assert!(Attr::Tiles < Attr::MemorySpace); // `T` is written before `S`
/// ```
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
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::Attr;
    /// assert_eq!(Attr::SplitConfigs.letter(), "SC");
    /// assert_eq!(Attr::TailPadding.letter(), "L");
    /// ```
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
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::parse_array;
/// let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
/// let map = *parse_array(text).unwrap().source_map();
/// assert_eq!(&text[map.dim(2).range()], "1280");
/// assert_eq!(&text[map.tile(0).range()], "(8,128)");
/// // Whitespace moves every span, but not equality.
/// let spaced = parse_array("  bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
/// assert_eq!(spaced.source_map().dim(2).range(), 11..15);
/// assert_eq!(spaced, parse_array(text).unwrap());
/// ```
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
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    /// let map = *parse_array(text).unwrap().source_map();
    /// assert_eq!(map.whole().range(), 0..text.len());
    /// ```
    pub const fn whole(&self) -> Span {
        self.whole
    }

    /// The element type name.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    /// let map = *parse_array(text).unwrap().source_map();
    /// assert_eq!(&text[map.element_type().range()], "bf16");
    /// ```
    pub const fn element_type(&self) -> Span {
        self.element_type
    }

    /// Dimension `i` (`3`, `<=8`, `?`); empty past the rank.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let text = "f32[3,<=8,?]";
    /// let map = *parse_array(text).unwrap().source_map();
    /// assert_eq!(&text[map.dim(1).range()], "<=8");
    /// assert_eq!(&text[map.dim(2).range()], "?");
    /// ```
    pub const fn dim(&self, i: usize) -> Span {
        if i < MAX_RANK {
            self.dims[i]
        } else {
            Span::NONE
        }
    }

    /// The layout `{...}`, braces included (empty if none was written).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    /// let map = *parse_array(text).unwrap().source_map();
    /// assert_eq!(&text[map.layout().range()], "{3,2,0,1:T(8,128)(2,1)S(1)}");
    /// assert!(parse_array("f32[2,3]").unwrap().source_map().layout().range().is_empty());
    /// ```
    pub const fn layout(&self) -> Span {
        self.layout
    }

    /// Entry `i` of `minor_to_major`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    /// let map = *parse_array(text).unwrap().source_map();
    /// assert_eq!(map.minor_to_major(1).range(), 23..24);
    /// assert_eq!(&text[map.minor_to_major(1).range()], "2");
    /// ```
    pub const fn minor_to_major(&self, i: usize) -> Span {
        if i < MAX_RANK {
            self.minor_to_major[i]
        } else {
            self.layout
        }
    }

    /// Tile level `i`, parentheses included.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    /// let map = *parse_array(text).unwrap().source_map();
    /// assert_eq!(&text[map.tile(1).range()], "(2,1)");
    /// ```
    pub const fn tile(&self, i: usize) -> Span {
        if i < MAX_TILES {
            self.tiles[i]
        } else {
            self.layout
        }
    }

    /// Tile entry number `flat`, counting the entries of all levels in
    /// order: entry `j` of tile level `i` is number
    /// [`Layout::tile_entry_index(i, j)`](crate::Layout::tile_entry_index).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    /// let map = *parse_array(text).unwrap().source_map();
    /// // Entry 0 of level 1, the `2` of `(2,1)`, follows the two entries of level 0.
    /// let layout = *parse_array(text).unwrap().layout();
    /// assert_eq!(layout.tile_entry_index(1, 0), 2);
    /// assert_eq!(map.tile_entry(2).range(), 38..39);
    /// assert_eq!(&text[map.tile_entry(2).range()], "2");
    /// ```
    pub const fn tile_entry(&self, flat: usize) -> Span {
        if flat < MAX_TILE_ENTRIES {
            self.tile_entries[flat]
        } else {
            self.layout
        }
    }

    /// The attribute `attr` with its arguments (`S(1)`, `T(8,128)(2,1)`).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Attr};
    /// let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    /// let map = *parse_array(text).unwrap().source_map();
    /// assert_eq!(&text[map.attr(Attr::Tiles).range()], "T(8,128)(2,1)");
    /// assert_eq!(&text[map.attr(Attr::MemorySpace).range()], "S(1)");
    /// assert!(map.attr(Attr::TailPadding).range().is_empty()); // no `L(n)`
    /// ```
    pub const fn attr(&self, attr: Attr) -> Span {
        self.attrs[attr as usize]
    }

    /// Split config `i`, parentheses included.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let text = "f32[1024]{0:SC(0:256,512)}";
    /// let map = *parse_array(text).unwrap().source_map();
    /// assert_eq!(&text[map.split(0).range()], "(0:256,512)");
    /// ```
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
