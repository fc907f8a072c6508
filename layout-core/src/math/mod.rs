//! Layer 5, math and data: offsets, sizes, strides and the inverse on
//! validated shapes; index walks; ranked layouts for compile-time use
//! ([`StaticLayout`](crate::StaticLayout) and friends); typed views over
//! slices, packed views over bytes; 2-D slices drawn as text grids of
//! offsets ([`LayoutGrid`](crate::LayoutGrid)).
//!
//! May use: every layer below ([`base`](crate::base), [`model`](crate::model),
//! [`text`](crate::text), [`rules`](crate::rules), [`plan`](crate::plan)).

pub(crate) mod fixed;
pub(crate) mod grid;
pub(crate) mod iter;
pub(crate) mod offsets;
pub(crate) mod packed;
pub(crate) mod relayout;
pub(crate) mod view;
