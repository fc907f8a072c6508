// The crate documentation is the repository's README (below); the guides
// under `docs/` (and the changelog) are the `guide` module's pages. The
// Rust examples of both run as doctests.
#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]
// docs.rs builds with `--cfg docsrs` on nightly: feature-gated items say
// which feature they need.
#![cfg_attr(docsrs, feature(doc_cfg))]

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
/// kernels can be generic over layouts.
///
/// What the item form derives: a type without `?` dims gets `Clone`,
/// `Copy`, `Debug`, `Default`, `PartialEq`, `Eq`, `Hash`, `PartialOrd` and
/// `Ord`; a type with `?` dims (a struct holding its planned layout) gets
/// `Clone`, `Copy`, `Debug`, `PartialEq`, `Eq` and `Hash`. A trait the user
/// derives in the item's attributes (`#[derive(Debug)]`, also inside
/// `cfg_attr`) is derived by the user's attribute alone, so there is no
/// conflict; write `Clone` and `Copy` yourself only by `derive` (views and
/// the generated code need both). The generated code names everything by
/// absolute path (`::core::primitive::usize`, `::core::clone::Clone`), so
/// it does not see the caller's names; an unused private type is dead code
/// like any struct (`#[expect(dead_code)]` on it is fulfilled), and its
/// generated items never warn.
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

#[doc = include_str!("../docs/README.md")]
pub mod guide {
    #[doc = include_str!("../docs/grammar.md")]
    pub mod grammar {}
    #[doc = include_str!("../docs/rules.md")]
    pub mod rules {}
    #[doc = include_str!("../docs/tiling.md")]
    pub mod tiling {}
    #[doc = include_str!("../docs/relayout.md")]
    pub mod relayout {}
    #[doc = include_str!("../docs/cli.md")]
    pub mod cli {}
    #[doc = include_str!("../docs/oom.md")]
    pub mod oom {}
    #[doc = include_str!("../docs/performance.md")]
    pub mod performance {}
    #[doc = include_str!("../docs/decisions.md")]
    pub mod decisions {}
    #[doc = include_str!("../docs/architecture.md")]
    pub mod architecture {}
    #[doc = include_str!("../docs/reliability.md")]
    pub mod reliability {}
    // Keep a Changelog's `[Unreleased]` heading is text, not a Rust path.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[doc = include_str!("../CHANGELOG.md")]
    pub mod changelog {}
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::{string::ToString, vec::Vec};

    /// The text of a Markdown code span: `` `a` `` or ``` `` a`b `` ```.
    fn code(cell: &str) -> &str {
        let cell = cell.trim();
        let inner = match cell.strip_prefix("``") {
            Some(rest) => rest.strip_suffix("``").map(str::trim),
            None => cell
                .strip_prefix('`')
                .and_then(|rest| rest.strip_suffix('`')),
        };
        inner.unwrap_or_else(|| panic!("not a code span: {cell}"))
    }

    /// Every row of the `| rejected | message |` tables in `docs/rules.md`:
    /// the library rejects the input with exactly the documented message.
    #[test]
    fn documented_rejections_are_exact() {
        let mut rows = 0;
        let mut in_table = false;
        for line in include_str!("../docs/rules.md").lines() {
            if line == "| rejected | message |" {
                in_table = true;
                continue;
            }
            if !line.starts_with('|') {
                in_table = false;
                continue;
            }
            if !in_table || line.starts_with("|---") {
                continue;
            }
            let cells: Vec<&str> = line[1..line.len() - 1].split(" | ").collect();
            assert_eq!(cells.len(), 2, "{line}");
            let (input, message) = (code(cells[0]), code(cells[1]));
            match crate::parse(input) {
                Ok(shape) => panic!("{input} was accepted as {shape}"),
                Err(e) => assert_eq!(e.to_string(), message, "{input}"),
            }
            rows += 1;
        }
        assert!(rows >= 50, "only {rows} rows found in docs/rules.md");
    }

    #[test]
    fn code_spans() {
        assert_eq!(code(" `f32[2]` "), "f32[2]");
        assert_eq!(code("`` tile 0 ends with `*` ``"), "tile 0 ends with `*`");
    }
}
