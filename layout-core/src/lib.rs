//! # layout-core
//!
//! A `no_std` runtime for XLA shapes and layouts: it parses, validates and
//! prints the exact text XLA uses (`bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}`),
//! and computes element offsets, sizes and strides for every layout XLA can
//! describe: any `minor_to_major`, multi-level tiling with `*`, `L(n)` tail
//! padding, `E(n)` packing, bounded and unbounded dimensions, legacy
//! per-dimension padding.
//!
//! ## Layers
//!
//! The crate is a one-way pipeline; each module uses only the ones above it
//! in this list (an architecture test keeps it so):
//!
//! | layer | module | job |
//! |---|---|---|
//! | 0 | `base` | element types, errors, capacities, `const fn` helpers |
//! | 1 | `model` | plain data: dims, layouts, [`UncheckedArray`], [`ArrayShape`], indices, size arithmetic |
//! | 2 | `text` | lexer, parser (text -> [`UncheckedArray`]), printer |
//! | 3 | `rules` | the validator in rule groups; the only maker of [`ArrayShape`]; [`parse`], [`parse_array`] |
//! | 4 | `plan` | [`Plan`]: the offset tables of a valid layout |
//! | 5 | `math` | offsets, inverse, sizes, walks, [`StaticLayout`], views, [`LayoutGrid`] |
//!
//! Text becomes an [`UncheckedArray`], whose only ways forward are
//! validation and printing; validation gives an [`ArrayShape`], on which
//! plans, offsets, sizes and views are defined. An unchecked shape cannot
//! reach the index math:
//!
//! ```compile_fail
//! # use layout_core as xla_layout;
//! let raw = xla_layout::parse_array_unvalidated("f32[3,5]{1,0:T(0,2)}").unwrap();
//! let _ = raw.offset(&[0, 0]); // no such method: validate first
//! ```
//!
//! Parsing, validation and index math are `const fn`, so a layout can be a
//! `const` item:
//!
//! ```
//! # use layout_core as xla_layout;
//! use xla_layout::{parse_array, ArrayShape};
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
//! # use layout_core as xla_layout;
//! let err = xla_layout::parse("f32[2,3]{1,0:T(2,*)}").unwrap_err();
//! assert_eq!(err.kind(), xla_layout::ErrorKind::TrailingCombine);
//! assert_eq!(err.span().range(), 17..18);
//! ```
//!
//! ## Capacity
//!
//! Shapes are fixed-size values (no heap): rank up to [`MAX_RANK`], up to
//! [`MAX_TILES`] tile levels with [`MAX_TILE_ENTRIES`] entries in all,
//! [`MAX_SPLIT_CONFIGS`] split configs with [`MAX_SPLIT_INDICES`] indices,
//! tuples nested [`MAX_DEPTH`] deep and text up to [`MAX_TEXT_LEN`] bytes.
//! Exceeding one is an [`ErrorKind::CapacityExceeded`] error, never a
//! panic. Tuples have no element limit: they are views over the text.
#![no_std]
#![forbid(unsafe_code)]
// docs.rs builds with `--cfg docsrs` on nightly: feature-gated items say
// which feature they need.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

mod base;
mod math;
mod model;
mod plan;
mod rules;
mod text;

pub use base::element::{tag, ElementTag, ElementType, ALL_ELEMENT_TYPES};
pub use base::error::{
    Capacity, Error, ErrorDetail, ErrorKind, NoDigitTables, PackedRead, RelayoutMismatch, Span,
    SparseAttribute, ViewMismatch,
};
pub use base::limits::{
    COMBINE_ENTRY, MAX_DEPTH, MAX_PHYSICAL_RANK, MAX_RANK, MAX_SPLIT_CONFIGS, MAX_SPLIT_INDICES,
    MAX_TEXT_LEN, MAX_TILES, MAX_TILE_ENTRIES,
};
#[doc(hidden)]
pub use math::fixed::{__out_of_bounds, DigitParts};
pub use math::fixed::{MemoryOrder, RankedLayout, StaticLayout, StaticShape, Unresolved};
pub use math::grid::{GridCell, LayoutGrid, PADDING_MARK};
pub use math::iter::compare_indices;
pub use math::packed::{
    PackedElement, PackedFor, PackedNatural, PackedView, PackedViewLayout, PackedViewMut,
};
pub use math::relayout::{
    relayout, relayout_bytes, GeneralKernel, RelayoutKernel, RelayoutLoop, RelayoutPlan,
    RelayoutSteps,
};
pub use math::view::{
    Element, LogicalIndices, NaturalElement, NaturalFor, TypedLayout, View, ViewLayout, ViewMut,
};
pub use model::array::{ArrayShape, UncheckedArray};
pub use model::dim::{Dim, LegacyPadding, PaddingValue, Tile, TileDim};
pub use model::index::{Index, PhysicalShape};
pub use model::layout::Layout;
pub use model::layout_eq::LayoutEq;
pub use model::source::{Attr, SourceMap};
pub use plan::Plan;
#[doc(hidden)]
pub use plan::PlanParts;
pub use rules::tree::{parse, Shape, TupleIter, TupleShape};
pub use rules::{parse_array, validate, validate_all, validate_buffer, ErrorList, MAX_ERRORS};
pub use text::parse::parse_array_unvalidated;
