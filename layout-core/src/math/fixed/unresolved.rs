//! Layouts with `?` dimensions, planned once their extents are known.

use crate::base::error::Error;
use crate::base::konst::tri;
use crate::model::array::ArrayShape;
use crate::model::dim::Dim;

use super::StaticLayout;

/// A layout with `?` dimensions, waiting for their sizes: what the
/// `layout!` macro gives for a shape with unbounded dims. `U` is the number
/// of `?` dims; [`Unresolved::resolve`] takes exactly that many extents,
/// like `std::mdspan`'s dynamic extents.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, Unresolved};
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
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Unresolved};
    /// let s = parse_array("f32[?,128]{1,0:T(8,128)}").unwrap();
    /// let u: Unresolved<2, 1> = Unresolved::new(s, "f32[?,128]{1,0:T(8,128)}");
    /// assert_eq!(u.resolve([8]).unwrap().allocated_elements(), 1024);
    /// ```
    pub const fn new(shape: ArrayShape, text: &'static str) -> Unresolved<R, U> {
        Unresolved { shape, text }
    }

    /// The shape, with its `?` dims.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Unresolved};
    /// let s = parse_array("f32[?,128]{1,0:T(8,128)}").unwrap();
    /// let u: Unresolved<2, 1> = Unresolved::new(s, "f32[?,128]{1,0:T(8,128)}");
    /// assert_eq!(u.shape().unbounded_count(), 1);
    /// assert_eq!(u.shape().to_string(), "f32[?,128]{1,0:T(8,128)}");
    /// ```
    pub const fn shape(&self) -> &ArrayShape {
        &self.shape
    }

    /// Plans the layout with the `?` dims set to `extents` (in order).
    /// Fails if a size overflows or does not fit in `usize`, or if `U` is
    /// not the shape's number of `?` dims.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, ErrorKind, Unresolved};
    /// let s = parse_array("f32[?,128]{1,0:T(8,128)}").unwrap();
    /// let u: Unresolved<2, 1> = Unresolved::new(s, "f32[?,128]{1,0:T(8,128)}");
    /// let l = u.resolve([20]).unwrap();
    /// assert_eq!((l.dims(), l.offset([19, 127])), ([20, 128], 19 * 128 + 127));
    /// let too_many: Unresolved<2, 2> = Unresolved::new(s, "f32[?,128]{1,0:T(8,128)}");
    /// assert_eq!(too_many.resolve([1, 2]).unwrap_err().kind(), ErrorKind::ExtentCount);
    /// ```
    pub const fn resolve(&self, extents: [usize; U]) -> Result<StaticLayout<R>, Error> {
        let mut wide = [0u64; U];
        let mut i = 0;
        while i < U {
            wide[i] = extents[i] as u64;
            i += 1;
        }
        let shape = tri!(self.shape.with_extents(&wide));
        // The `?` dims keep every digit, so that the digit structure is
        // the same for every extent (the item form's code relies on it).
        let mut keep = 0u32;
        let mut i = 0;
        while i < R && i < 32 {
            if matches!(self.shape.raw.dims[i], Dim::Unbounded) {
                keep |= 1 << i;
            }
            i += 1;
        }
        StaticLayout::build(&shape, self.text, None, keep)
    }
}
