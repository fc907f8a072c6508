//! Procedural macros of the `layout` toolkit.
//!
//! The `layout!` macro is not built yet; this crate is a placeholder so the
//! workspace has its final shape.
#![forbid(unsafe_code)]
