//! Layouts of a known rank with `usize` indices: what the `layout!` macro
//! produces, also buildable at run time (or in `const` items) from text.

use core::fmt;

use crate::base::element::ElementType;
use crate::base::error::{Error, ErrorKind, Span};
use crate::base::konst::tri;
use crate::model::array::ArrayShape;
use crate::plan::{Plan, PlanParts};
use crate::rules::parse_array;

/// A validated array layout of rank `R` with precomputed offset tables.
///
/// Sizes are guaranteed to fit in `usize` on the target (checked when
/// built), so every method is infallible apart from index bounds.
///
/// ```
/// use layout_core::StaticLayout;
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
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StaticLayout<const R: usize> {
    plan: Plan,
    element_type: ElementType,
    element_bits: u64,
    memory_space: u8,
    size_in_bytes: u64,
    text: &'static str,
}

impl<const R: usize> StaticLayout<R> {
    /// Parses, validates and plans an array layout of rank `R` from
    /// `'static` text (the text must already be canonical for `Display` to
    /// print the canonical form; [`StaticLayout::text`] returns it as given).
    pub const fn parse(text: &'static str) -> Result<StaticLayout<R>, Error> {
        let shape = tri!(parse_array(text));
        Self::from_shape(&shape, text)
    }

    /// Plans a validated array shape; `text` is what `Display` prints.
    /// Fails if the rank is not `R`, a dimension is `?`, or a size does not
    /// fit in `usize`.
    pub const fn from_shape(
        shape: &ArrayShape,
        text: &'static str,
    ) -> Result<StaticLayout<R>, Error> {
        if shape.rank() != R {
            return Err(Error::new(
                ErrorKind::IndexRank,
                shape.source_map().whole(),
                [R as i64, shape.rank() as i64, 0],
            ));
        }
        let plan = tri!(Plan::new(shape));
        let bytes = tri!(shape.size_in_bytes());
        if bytes > usize::MAX as u64 || plan.allocated_elements() > usize::MAX as u64 {
            return Err(Error::new(
                ErrorKind::AllocationOverflow,
                Span::NONE,
                [0; 3],
            ));
        }
        Ok(StaticLayout {
            plan,
            element_type: shape.element_type(),
            element_bits: shape.element_size_in_bits(),
            memory_space: shape.layout().memory_space() as u8,
            size_in_bytes: bytes,
            text,
        })
    }

    /// Builds a layout from tables computed by the `layout!` macro. Not a
    /// stable API.
    #[doc(hidden)]
    pub const fn __from_tables(
        plan: Plan,
        element_type: ElementType,
        element_bits: u64,
        memory_space: u8,
        size_in_bytes: u64,
        text: &'static str,
    ) -> StaticLayout<R> {
        StaticLayout {
            plan,
            element_type,
            element_bits,
            memory_space,
            size_in_bytes,
            text,
        }
    }

    /// The element offset of `index`.
    ///
    /// # Panics
    ///
    /// If a coordinate is out of bounds (in `const` evaluation this is a
    /// compile error).
    pub const fn offset(&self, index: [usize; R]) -> usize {
        match self.checked_offset(index) {
            Some(o) => o,
            None => panic!("layout index out of bounds"),
        }
    }

    /// The element offset of `index`, or `None` if it is out of bounds.
    pub const fn checked_offset(&self, index: [usize; R]) -> Option<usize> {
        let mut wide = [0u64; R];
        let mut i = 0;
        while i < R {
            wide[i] = index[i] as u64;
            i += 1;
        }
        if !self.plan.in_bounds(&wide) {
            return None;
        }
        Some(self.plan.offset_unchecked(&wide) as usize)
    }

    /// The logical index stored at element slot `offset`, or `None` for a
    /// padding slot.
    pub const fn index_of(&self, offset: usize) -> Option<[usize; R]> {
        match self.plan.index_of(offset as u64) {
            Some(idx) => {
                let mut out = [0usize; R];
                let mut i = 0;
                while i < R {
                    out[i] = idx.coords[i] as usize;
                    i += 1;
                }
                Some(out)
            }
            None => None,
        }
    }

    /// The logical dimensions an index ranges over (bounded dims at their
    /// bound; legacy padding not included).
    pub const fn dims(&self) -> [usize; R] {
        let d = self.plan.index_dims();
        let mut out = [0usize; R];
        let mut i = 0;
        while i < R {
            out[i] = d[i] as usize;
            i += 1;
        }
        out
    }

    /// The rank, `R`.
    pub const fn rank(&self) -> usize {
        R
    }

    /// `true` if every coordinate of `index` is in bounds.
    pub const fn in_bounds(&self, index: [usize; R]) -> bool {
        self.checked_offset(index).is_some()
    }

    /// Element slots in the allocation.
    pub const fn allocated_elements(&self) -> usize {
        self.plan.allocated_elements() as usize
    }

    /// Bytes of the allocation.
    pub const fn size_in_bytes(&self) -> usize {
        self.size_in_bytes as usize
    }

    /// The element type.
    pub const fn element_type(&self) -> ElementType {
        self.element_type
    }

    /// Bits per stored element (`E(n)`, or the byte width x 8).
    pub const fn element_size_in_bits(&self) -> u64 {
        self.element_bits
    }

    /// The memory space `S(n)`.
    pub const fn memory_space(&self) -> u8 {
        self.memory_space
    }

    /// The offset tables.
    pub const fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The canonical text.
    pub const fn text(&self) -> &'static str {
        self.text
    }
}

impl<const R: usize> fmt::Display for StaticLayout<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

/// A type standing for one array layout of rank `R`, as defined by the item
/// form of the `layout!` macro. Kernels can be generic over it.
///
/// ```
/// use layout_core::{StaticLayout, StaticShape};
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
            plan: Plan::from_parts(PlanParts {
                perm: &[],
                dims: &[],
                limits: &[],
                tile: &[],
                tile_ends: &[],
                prepend: &[],
                len_before: &[],
                final_dims: &[],
                tiled_elements: 0,
                allocated: 0,
            }),
            element_type: ElementType::F32,
            element_bits: 32,
            memory_space: 0,
            size_in_bytes: 0,
            text: "<invalid layout>",
        }
    }
}

/// A layout with `?` dimensions, waiting for their sizes: what the
/// `layout!` macro gives for a shape with unbounded dims. `U` is the number
/// of `?` dims; [`Unresolved::resolve`] takes exactly that many extents,
/// like `std::mdspan`'s dynamic extents.
///
/// ```
/// use layout_core::{parse_array, Unresolved};
/// const DYN: Unresolved<2, 1> = match parse_array("f32[?,128]{1,0:T(8,128)}") {
///     Ok(s) => Unresolved::new(s, "f32[?,128]{1,0:T(8,128)}"),
///     Err(_) => panic!(),
/// };
/// let l = DYN.resolve([20]).unwrap();
/// assert_eq!(l.dims(), [20, 128]);
/// assert_eq!(l.allocated_elements(), 24 * 128);
/// assert_eq!(l.offset([9, 1]), 1024 + 128 + 1); // second tile row, row 1, column 1
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unresolved<const R: usize, const U: usize> {
    shape: ArrayShape,
    text: &'static str,
}

impl<const R: usize, const U: usize> Unresolved<R, U> {
    /// Wraps a validated shape of rank `R` with `U` unbounded dims (checked
    /// when resolving).
    pub const fn new(shape: ArrayShape, text: &'static str) -> Unresolved<R, U> {
        Unresolved { shape, text }
    }

    /// The shape, with its `?` dims.
    pub const fn shape(&self) -> &ArrayShape {
        &self.shape
    }

    /// Plans the layout with the `?` dims set to `extents` (in order).
    /// Fails if a size overflows or does not fit in `usize`.
    pub const fn resolve(&self, extents: [usize; U]) -> Result<StaticLayout<R>, Error> {
        let mut wide = [0u64; U];
        let mut i = 0;
        while i < U {
            wide[i] = extents[i] as u64;
            i += 1;
        }
        let shape = tri!(self.shape.with_extents(&wide));
        StaticLayout::from_shape(&shape, self.text)
    }
}

/// What a typed view needs from a layout of rank `R`: implemented by
/// [`StaticLayout<R>`] (table-driven offsets) and by every
/// [`StaticShape<R>`] type of the `layout!` item form (specialised offsets).
pub trait RankedLayout<const R: usize> {
    /// The element offset of an in-bounds `index`.
    fn offset_of(&self, index: [usize; R]) -> usize;
    /// The tables (dims, sizes, inverse).
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
