//! Layer 0, foundations: element types, errors, capacity limits and the
//! small `const fn` helpers every other layer uses.
//!
//! May use: nothing else in this crate. Everything above may use it.

pub(crate) mod detail;
pub(crate) mod element;
pub(crate) mod error;
pub(crate) mod konst;
pub(crate) mod limits;
pub(crate) mod subkinds;
