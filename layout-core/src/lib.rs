//! # layout-core
//!
//! A `no_std` runtime for XLA shapes and layouts: it parses, validates and
//! prints the exact text XLA uses (`bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}`),
//! and computes element offsets, sizes and strides for every layout XLA can
//! describe: any `minor_to_major`, multi-level tiling with `*`, `L(n)` tail
//! padding, `E(n)` packing, bounded and unbounded dimensions, legacy
//! per-dimension padding.
//!
//! The pipeline is visible in the modules: text -> [`parse`](mod@parse)
//! (lexer and grammar) -> [`validate`](mod@validate) (every rule, each its
//! own [`ErrorKind`]) -> index math / sizes -> printing ([`core::fmt::Display`]).
//! Parsing, validation and index math are `const fn`, so a layout can be a
//! `const` item:
//!
//! ```
//! use layout_core::{parse_array, ArrayShape};
//! const FIG1: ArrayShape = match parse_array("f32[3,5]{1,0:T(2,2)}") {
//!     Ok(s) => s,
//!     Err(_) => panic!("invalid layout"),
//! };
//! const OFFSET: u64 = match FIG1.offset(&[2, 3]) {
//!     Ok(o) => o,
//!     Err(_) => panic!(),
//! };
//! assert_eq!(OFFSET, 17);
//! ```
//!
//! Errors are values with a kind, the byte range of the offending text and
//! the numbers involved:
//!
//! ```
//! let err = layout_core::parse("f32[2,3]{1,0:T(2,*)}").unwrap_err();
//! assert_eq!(err.kind(), layout_core::ErrorKind::TrailingCombine);
//! assert_eq!(err.span().range(), 17..18);
//! ```
//!
//! ## Capacity
//!
//! Shapes are fixed-size values (no heap): rank up to [`MAX_RANK`], up to
//! [`MAX_TILES`] tile levels with [`MAX_TILE_ENTRIES`] entries in all,
//! [`MAX_SPLIT_CONFIGS`] split configs with [`MAX_SPLIT_INDICES`] indices,
//! and tuples nested [`MAX_DEPTH`] deep. Exceeding one is an
//! [`ErrorKind::CapacityExceeded`] error, never a panic. Tuples have no
//! element limit: they are views over the text.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod dtype;
mod error;
mod fixed;
mod index;
mod lex;
pub mod parse;
mod plan;
mod print;
mod shape;
pub mod validate;
mod view;

pub use dtype::{ElementType, ALL_ELEMENT_TYPES};
pub use error::{Error, ErrorKind, Span};
pub use fixed::{RankedLayout, StaticLayout, StaticShape, Unresolved};
pub use index::{compare_indices, Index, PhysicalShape, MAX_PHYSICAL_RANK};
pub use parse::{parse, parse_array, parse_array_unvalidated};
pub use plan::Plan;

/// How `*` is stored in a tile entry (`i64::MIN`, as XLA does).
pub const COMBINE_ENTRY: i64 = i64::MIN;
#[doc(hidden)]
pub use plan::PlanParts;
pub use shape::{
    ArrayShape, Attr, Dim, Layout, LegacyPadding, PaddingValue, Shape, SourceMap, Tile, TileDim,
    TupleIter, TupleShape,
};
pub use validate::{validate, validate_all, ErrorList, MAX_ERRORS};
pub use view::{Element, LogicalIndices, View, ViewMut};

/// Most dimensions an array may have.
pub const MAX_RANK: usize = 16;
/// Most tile levels in one layout (`T(..)(..)...`).
pub const MAX_TILES: usize = 8;
/// Most tile entries in one layout, all levels together.
pub const MAX_TILE_ENTRIES: usize = 32;
/// Most split configs in one layout.
pub const MAX_SPLIT_CONFIGS: usize = 4;
/// Most split indices in one layout, all configs together.
pub const MAX_SPLIT_INDICES: usize = 16;
/// Most levels of tuples (and buffers, `P(...)`) around a shape.
pub const MAX_DEPTH: usize = 32;
