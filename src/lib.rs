//! # layout
//!
//! XLA shape and layout literals such as
//! `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}` as exact, checked values.
//!
//! This facade re-exports [`layout_core`], the `no_std` runtime that parses,
//! validates, prints and evaluates layouts. See the crate README for the text
//! syntax.
//!
//! ```
//! let shape = layout::parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
//! assert_eq!(shape.offset(&[2, 3]), Ok(17));
//! ```
#![no_std]
#![forbid(unsafe_code)]

pub use layout_core::*;

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
