//! # layout
//!
//! XLA shape and layout literals such as
//! `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}` as exact, checked values:
//! at compile time through [`layout!`], at run time through the re-exported
//! [`layout_core`] (parse, validate, print, offsets, sizes; `no_std`).
//!
//! ```
//! use xla_layout::layout;
//!
//! // Expression form: a `StaticLayout<2>` constant, tables computed by the macro.
//! const O: usize = layout!(f32[3,5]{1,0:T(2,2)}).offset([2, 3]);
//! assert_eq!(O, 17);
//!
//! // Item form: zero-sized types with specialised offset functions.
//! layout! {
//!     pub type Act = bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)};
//! }
//! assert_eq!(Act::offset([3, 0, 13, 300]), 63_048_281);
//! assert_eq!(Act::LAYOUT.size_in_bytes(), 335_544_320);
//!
//! // The runtime parses the same text with the same rules.
//! let shape = xla_layout::parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
//! assert_eq!(shape.offset(&[2, 3]), Ok(17));
//! ```
#![no_std]
#![forbid(unsafe_code)]

pub use layout_core::*;

#[doc(hidden)]
pub mod __private {
    pub use layout_core;
    pub use layout_macros::layout;
}

/// XLA layouts as compile-time constants.
///
/// **Expression form**: `layout!(<shape>)` is a constant expression of type
/// [`StaticLayout<R>`](StaticLayout), `R` the rank, whose tables (dims,
/// permutation, tiled shape, sizes) were computed when the macro expanded.
/// The shape may be written as tokens or, for pasting from dumps, as a
/// string literal:
///
/// ```
/// use xla_layout::layout;
/// const L: xla_layout::StaticLayout<2> = layout!("bf16[8,128]{1,0:T(8,128)(2,1)}");
/// assert_eq!([L.offset([0, 1]), L.offset([1, 0])], [2, 1]); // rows 0 and 1 interleaved
/// assert_eq!(L.to_string(), "bf16[8,128]{1,0:T(8,128)(2,1)}");
/// ```
///
/// **Item form**: `layout! { <attrs> <vis> type Name = <shape>; ... }`
/// defines zero-sized types (deriving `Clone, Copy, Debug, Default,
/// PartialEq, Eq, Hash, PartialOrd, Ord`) with an inherent `const fn
/// offset([usize; R]) -> usize` specialised to the layout, a `LAYOUT`
/// constant, and an implementation of [`StaticShape<R>`](StaticShape), so
/// kernels can be generic over layouts:
///
/// ```
/// use xla_layout::{layout, StaticShape};
/// layout! {
///     /// Row-major.
///     pub type Rows = f32[4,8]{1,0};
///     /// Tiled 2x4, then pairs of rows interleaved.
///     pub type Tiled = f32[4,8]{1,0:T(2,4)(2,1)};
/// }
/// fn copy<A: StaticShape<2>, B: StaticShape<2>>(src: &[f32], dst: &mut [f32]) {
///     let [rows, cols] = A::DIMS;
///     for r in 0..rows {
///         for c in 0..cols {
///             dst[B::offset([r, c])] = src[A::offset([r, c])];
///         }
///     }
/// }
/// let src: Vec<f32> = (0..32).map(|x| x as f32).collect();
/// let mut dst = vec![0.0; Tiled::ALLOCATED_ELEMENTS];
/// copy::<Rows, Tiled>(&src, &mut dst);
/// assert_eq!(dst[..4], [0.0, 8.0, 1.0, 9.0]);
/// ```
///
/// **Options** after the shape: `padded = [..]` and `padding_value = zero |
/// one | lowest | highest | unknown` give legacy per-dimension padding:
///
/// ```
/// use xla_layout::layout;
/// const P: xla_layout::StaticLayout<2> = layout!(f32[2,3]{0,1}, padded = [3, 5], padding_value = zero);
/// // a b c / d e f in memory: a d 0 b e 0 c f 0 0 0 0 0 0 0
/// assert_eq!([P.offset([0, 0]), P.offset([1, 0]), P.offset([0, 1])], [0, 1, 3]);
/// assert_eq!(P.allocated_elements(), 15);
/// ```
///
/// Invalid layouts are compile errors on the offending tokens, naming the
/// rule and the numbers:
///
/// ```compile_fail
/// let l = xla_layout::layout!(f32[2,3]{2,0});
/// // error: layout rule `minor_to_major`: minor_to_major entry 2 is out of
/// //        range for rank 2 (entries must be 0..=1)
/// ```
#[macro_export]
macro_rules! layout {
    ($($tokens:tt)*) => {
        $crate::__private::layout! { [$crate::__private::layout_core] $($tokens)* }
    };
}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
