//! Layout equality as XLA defines it (`Layout::Equal`): `minor_to_major` and
//! every attribute but the dynamic-shape metadata prefix `M(n)`, with
//! options to ignore more.

use crate::model::layout::Layout;

/// Which parts of two layouts [`LayoutEq::eq`] compares. The default,
/// [`LayoutEq::XLA`], compares everything but `M(n)`, as XLA's
/// `Layout::Equal()` does; each `ignore_*` method leaves one more part out.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, LayoutEq};
/// let a = *parse_array("f32[8,128]{1,0:T(8,128)S(1)}").unwrap().layout();
/// let b = *parse_array("f32[8,128]{1,0:T(8,128)}").unwrap().layout();
/// let c = *parse_array("f32[8,128]{1,0}").unwrap().layout();
/// assert!(!LayoutEq::XLA.eq(&a, &b));
/// const NO_SPACE: LayoutEq = LayoutEq::XLA.ignore_memory_space();
/// assert!(NO_SPACE.eq(&a, &b));
/// assert!(!NO_SPACE.eq(&a, &c));
/// assert!(NO_SPACE.ignore_tiles().eq(&a, &c));
/// assert!(LayoutEq::XLA.minor_to_major_only().eq(&a, &c));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LayoutEq {
    tiles: bool,
    tail_padding: bool,
    element_size: bool,
    memory_space: bool,
    split_configs: bool,
    index_type: bool,
    pointer_type: bool,
    physical_shape: bool,
}

impl Default for LayoutEq {
    fn default() -> LayoutEq {
        LayoutEq::XLA
    }
}

impl LayoutEq {
    /// Compare everything but `M(n)`.
    pub const XLA: LayoutEq = LayoutEq {
        tiles: true,
        tail_padding: true,
        element_size: true,
        memory_space: true,
        split_configs: true,
        index_type: true,
        pointer_type: true,
        physical_shape: true,
    };

    /// Leave the tiles `T(...)` out.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Layout, LayoutEq, TileDim};
    /// let tiled = Layout::descending(2).with_tile(&[TileDim::Size(8), TileDim::Size(128)]).unwrap();
    /// assert!(LayoutEq::XLA.ignore_tiles().eq(&tiled, &Layout::descending(2)));
    /// ```
    #[must_use]
    pub const fn ignore_tiles(mut self) -> LayoutEq {
        self.tiles = false;
        self
    }

    /// Leave the tail padding alignment `L(n)` out.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Layout, LayoutEq};
    /// let padded = Layout::descending(1).with_tail_padding(128);
    /// assert!(!LayoutEq::XLA.eq(&padded, &Layout::descending(1)));
    /// assert!(LayoutEq::XLA.ignore_tail_padding().eq(&padded, &Layout::descending(1)));
    /// ```
    #[must_use]
    pub const fn ignore_tail_padding(mut self) -> LayoutEq {
        self.tail_padding = false;
        self
    }

    /// Leave the element size `E(n)` out.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Layout, LayoutEq};
    /// let packed = Layout::descending(1).with_element_size_in_bits(4);
    /// assert!(LayoutEq::XLA.ignore_element_size().eq(&packed, &Layout::descending(1)));
    /// ```
    #[must_use]
    pub const fn ignore_element_size(mut self) -> LayoutEq {
        self.element_size = false;
        self
    }

    /// Leave the memory space `S(n)` out.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Layout, LayoutEq};
    /// let host = Layout::descending(2).with_memory_space(5);
    /// assert!(LayoutEq::XLA.ignore_memory_space().eq(&host, &Layout::descending(2)));
    /// ```
    #[must_use]
    pub const fn ignore_memory_space(mut self) -> LayoutEq {
        self.memory_space = false;
        self
    }

    /// Leave the split configs `SC(...)` out.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Layout, LayoutEq};
    /// let split = Layout::descending(1).with_split(0, &[4]).unwrap();
    /// assert!(!LayoutEq::XLA.eq(&split, &Layout::descending(1)));
    /// assert!(LayoutEq::XLA.ignore_split_configs().eq(&split, &Layout::descending(1)));
    /// ```
    #[must_use]
    pub const fn ignore_split_configs(mut self) -> LayoutEq {
        self.split_configs = false;
        self
    }

    /// Leave the sparse index type `#(...)` out.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, LayoutEq};
    /// let a = *parse_array_unvalidated("f32[4]{0:#(u16)}").unwrap().layout();
    /// let b = *parse_array_unvalidated("f32[4]{0}").unwrap().layout();
    /// assert!(LayoutEq::XLA.ignore_index_type().eq(&a, &b));
    /// ```
    #[must_use]
    pub const fn ignore_index_type(mut self) -> LayoutEq {
        self.index_type = false;
        self
    }

    /// Leave the sparse pointer type `*(...)` out.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, LayoutEq};
    /// let a = *parse_array_unvalidated("f32[4]{0:*(u16)}").unwrap().layout();
    /// let b = *parse_array_unvalidated("f32[4]{0}").unwrap().layout();
    /// assert!(!LayoutEq::XLA.eq(&a, &b));
    /// assert!(LayoutEq::XLA.ignore_pointer_type().eq(&a, &b));
    /// ```
    #[must_use]
    pub const fn ignore_pointer_type(mut self) -> LayoutEq {
        self.pointer_type = false;
        self
    }

    /// Leave the physical shape `P(...)` out (only whether there is one is
    /// stored here).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, LayoutEq};
    /// let a = *parse_array_unvalidated("f32[4]{0:P(s32[10]{0})}").unwrap().layout();
    /// let b = *parse_array_unvalidated("f32[4]{0}").unwrap().layout();
    /// assert!(!LayoutEq::XLA.eq(&a, &b));
    /// assert!(LayoutEq::XLA.ignore_physical_shape().eq(&a, &b));
    /// ```
    #[must_use]
    pub const fn ignore_physical_shape(mut self) -> LayoutEq {
        self.physical_shape = false;
        self
    }

    /// Compare `minor_to_major` alone (XLA's `MinorToMajorOnly()`).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutEq};
    /// let a = *parse_array("s4[64,128]{1,0:T(8,128)(2,1)L(1024)E(4)S(1)SC(0:32)}").unwrap().layout();
    /// let b = *parse_array("s4[64,128]{1,0}").unwrap().layout();
    /// let c = *parse_array("s4[64,128]{0,1}").unwrap().layout();
    /// assert!(LayoutEq::XLA.minor_to_major_only().eq(&a, &b));
    /// assert!(!LayoutEq::XLA.minor_to_major_only().eq(&b, &c));
    /// ```
    #[must_use]
    pub const fn minor_to_major_only(self) -> LayoutEq {
        LayoutEq {
            tiles: false,
            tail_padding: false,
            element_size: false,
            memory_space: false,
            split_configs: false,
            index_type: false,
            pointer_type: false,
            physical_shape: false,
        }
    }

    /// `true` if `a` and `b` agree on every part this value compares.
    /// `minor_to_major` is always compared; `M(n)` never is.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutEq};
    /// let a = *parse_array("f32[?,4]{1,0:M(8)}").unwrap().layout();
    /// let b = *parse_array("f32[?,4]{1,0}").unwrap().layout();
    /// assert!(LayoutEq::XLA.eq(&a, &b));
    /// assert_ne!(a, b); // `==` compares every attribute
    /// ```
    pub const fn eq(&self, a: &Layout, b: &Layout) -> bool {
        if !i64s_eq(a.minor_to_major(), b.minor_to_major()) {
            return false;
        }
        if self.tiles && !tiles_eq(a, b) {
            return false;
        }
        if self.tail_padding && a.tail_padding != b.tail_padding {
            return false;
        }
        if self.element_size && a.element_size_bits != b.element_size_bits {
            return false;
        }
        if self.memory_space && a.memory_space != b.memory_space {
            return false;
        }
        if self.split_configs && !splits_eq(a, b) {
            return false;
        }
        if self.index_type && !types_eq(a.index_type, b.index_type) {
            return false;
        }
        if self.pointer_type && !types_eq(a.pointer_type, b.pointer_type) {
            return false;
        }
        !self.physical_shape || a.physical_shape == b.physical_shape
    }
}

impl Layout {
    /// Equality as XLA's `Layout::operator==` defines it: `minor_to_major`
    /// and every attribute but the dynamic-shape metadata prefix `M(n)`
    /// ([`LayoutEq::XLA`]; `==` compares `M(n)` too).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Layout};
    /// let a = *parse_array("f32[?,4]{1,0:T(2,2)M(8)}").unwrap().layout();
    /// let b = *parse_array("f32[?,4]{1,0:T(2,2)}").unwrap().layout();
    /// assert!(a.equal(&b));
    /// assert!(!a.equal(&Layout::descending(2)));
    /// ```
    pub const fn equal(&self, other: &Layout) -> bool {
        LayoutEq::XLA.eq(self, other)
    }
}

const fn i64s_eq(a: &[i64], b: &[i64]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn types_eq(
    a: Option<crate::base::element::ElementType>,
    b: Option<crate::base::element::ElementType>,
) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => x as u8 == y as u8,
        _ => false,
    }
}

/// The same tiles, entry by entry (`*` included).
const fn tiles_eq(a: &Layout, b: &Layout) -> bool {
    let n = a.tile_count as usize;
    if n != b.tile_count as usize {
        return false;
    }
    let mut i = 0;
    while i < n {
        if a.tile_ends[i] != b.tile_ends[i] {
            return false;
        }
        i += 1;
    }
    let used = if n == 0 {
        0
    } else {
        a.tile_ends[n - 1] as usize
    };
    let (ea, _) = a.tile_entries.split_at(used);
    let (eb, _) = b.tile_entries.split_at(used);
    i64s_eq(ea, eb)
}

/// The same split configs, in order.
const fn splits_eq(a: &Layout, b: &Layout) -> bool {
    let n = a.split_count as usize;
    if n != b.split_count as usize {
        return false;
    }
    let mut i = 0;
    while i < n {
        if a.split_ends[i] != b.split_ends[i] || a.split_dims[i] != b.split_dims[i] {
            return false;
        }
        i += 1;
    }
    let used = if n == 0 {
        0
    } else {
        a.split_ends[n - 1] as usize
    };
    let (ia, _) = a.split_indices.split_at(used);
    let (ib, _) = b.split_indices.split_at(used);
    i64s_eq(ia, ib)
}
