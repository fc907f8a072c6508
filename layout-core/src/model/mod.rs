//! Layer 1, the shape model: plain data for dimensions, layouts, array
//! shapes and indices, with the size arithmetic every later layer shares.
//! Nothing here parses or validates.
//!
//! May use: [`base`](crate::base).

pub(crate) mod array;
pub(crate) mod dim;
pub(crate) mod index;
pub(crate) mod layout;
pub(crate) mod layout_eq;
pub(crate) mod sizes;
pub(crate) mod source;
