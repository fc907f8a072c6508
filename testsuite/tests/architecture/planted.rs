//! The checker checked: a small tree shaped like layout-core passes, and
//! each way of reaching a module the allow-list does not give, planted in
//! it one at a time, fails.

use std::path::{Path, PathBuf};

use crate::check::Crate;
use crate::layers::CORE;
use crate::{array_shape_makers, check_crate};

/// A clean tree with the layers of layout-core, root re-exports, a
/// method that `math` adds to a `model` type, and the one maker of
/// `ArrayShape` in `rules`.
const CLEAN: &[(&str, &str)] = &[
    (
        "lib.rs",
        "mod base; mod model; mod text; mod rules; mod plan; mod math;
         pub use math::relayout::{relayout_bytes, RelayoutPlan};
         pub use model::array::ArrayShape;
         pub use math::*;",
    ),
    ("base/mod.rs", "pub mod error;"),
    ("base/error.rs", "pub struct Error;"),
    ("model/mod.rs", "pub mod array;"),
    (
        "model/array.rs",
        "use crate::base::error::Error;
         pub struct ArrayShape { pub(crate) raw: u8 }
         impl ArrayShape {
             pub(crate) const fn from_checked(raw: u8) -> Self { Self { raw } }
         }
         pub fn shape_error() -> Error { Error }",
    ),
    ("text/mod.rs", "pub mod parse;"),
    (
        "text/parse.rs",
        "// crate::math (comments and strings do not count)
         const S: &str = \"crate::plan\";
         pub fn parse_text() {}",
    ),
    (
        "rules/mod.rs",
        "use crate::text::parse::parse_text;
         use crate::model::array::ArrayShape;
         pub fn validate() -> ArrayShape { parse_text(); ArrayShape::from_checked(0) }",
    ),
    ("plan/mod.rs", "pub mod digits; pub struct Plan;"),
    (
        "plan/digits.rs",
        "use super::Plan; pub fn digits(_: &Plan) -> Option<u8> { None }",
    ),
    (
        "math/mod.rs",
        "pub mod relayout; pub mod offsets; pub fn in_math() {}",
    ),
    (
        "math/relayout.rs",
        "use crate::plan::Plan;
         pub struct RelayoutPlan;
         pub fn relayout_bytes(_: Option<&Plan>) {}
         mod tests { use super::*; fn t() { relayout_bytes(None); } }",
    ),
    (
        "math/offsets.rs",
        "use crate::model::array::ArrayShape;
         impl ArrayShape { pub fn offset_in_math(&self) -> u64 { 0 } }
         fn f(s: &ArrayShape) -> u64 { s.offset_in_math() }",
    ),
];

/// Each planted file (a path below `src`, its code) and a piece of the
/// problem it must cause.
const PLANTS: &[(&str, &str, &str)] = &[
    // A grouped use.
    (
        "model/planted.rs",
        "use crate::{math::relayout::RelayoutPlan};",
        "`model` may not use `math`",
    ),
    // A nested group.
    (
        "model/planted.rs",
        "use crate::{base::error::Error, math::{relayout::{self}}};",
        "`model` may not use `math`",
    ),
    // A root re-export.
    (
        "model/planted.rs",
        "use crate::RelayoutPlan;",
        "(in `math::relayout`)",
    ),
    // A call through a root re-export.
    (
        "model/planted.rs",
        "fn f() { crate::relayout_bytes(None) }",
        "uses `crate::relayout_bytes` (in `math::relayout`)",
    ),
    // A root glob re-export.
    (
        "model/planted.rs",
        "fn f() { crate::in_math() }",
        "uses `crate::in_math` (in `math`)",
    ),
    // `super::super`, in a type.
    (
        "model/planted.rs",
        "fn f(_: super::super::plan::Plan) {}",
        "`model` may not use `plan`",
    ),
    // `self::` through a re-exporting child module.
    (
        "model/planted.rs",
        "mod inner { pub use crate::plan::digits as d; }
         fn f() { self::inner::d::digits(todo!()); }",
        "`model` may not use `plan`",
    ),
    // A rename.
    (
        "base/planted.rs",
        "use crate::math::relayout as r; fn f() { r::relayout_bytes(None) }",
        "`base` may not use `math`",
    ),
    // A glob import, then a plain name.
    (
        "base/planted.rs",
        "use crate::math::relayout::*; fn f() { relayout_bytes(None) }",
        "`base` may not use `math`",
    ),
    // `plan` using `rules`: later in the pipeline, but not in its row.
    (
        "plan/planted.rs",
        "use crate::rules::validate;",
        "`plan` may not use `rules`",
    ),
    // `plan` using `text`, in an expression.
    (
        "plan/planted.rs",
        "fn f() { crate::text::parse::parse_text() }",
        "`plan` may not use `text`",
    ),
    // A struct literal of a later layer.
    (
        "model/planted.rs",
        "fn f() { let _ = crate::math::relayout::RelayoutPlan {}; }",
        "`model` may not use `math`",
    ),
    // A pattern.
    (
        "text/planted.rs",
        "fn f(x: u8) { if let crate::math::relayout::RelayoutPlan = x {} }",
        "`text` may not use `math`",
    ),
    // A macro argument.
    (
        "text/planted.rs",
        "fn f() { assert!(crate::rules::validate().raw == 0); }",
        "`text` may not use `rules`",
    ),
    // Tokens of a macro that are not expressions.
    (
        "text/planted.rs",
        "fn f() { my_macro!(=> $crate::plan::Plan ;;); }",
        "`text` may not use `plan`",
    ),
    // A trait impl of a later layer's trait.
    (
        "text/planted.rs",
        "struct X; impl crate::math::relayout::Copy for X {}",
        "`text` may not use `math`",
    ),
    // A method only `math` adds to a `model` type.
    (
        "model/planted.rs",
        "fn f(s: &super::array::ArrayShape) -> u64 { s.offset_in_math() }",
        "calls `offset_in_math`, which only `math` adds",
    ),
    // The same, called as a path.
    (
        "rules/planted.rs",
        "use crate::model::array::ArrayShape;
         fn f(s: &ArrayShape) -> u64 { ArrayShape::offset_in_math(s) }",
        "calls `offset_in_math`",
    ),
    // A module in no layer (like the old flat `shape.rs`).
    ("shape.rs", "fn h() {}", "module `shape` is in no layer"),
];

/// `ArrayShape` made outside `rules`, each in its own way.
const MAKERS: &[(&str, &str)] = &[
    (
        "math/planted.rs",
        "fn f() -> crate::model::array::ArrayShape { crate::model::array::ArrayShape{raw: 1} }",
    ),
    (
        "math/planted.rs",
        "use crate::model::array::ArrayShape;
         impl ArrayShape { fn g() -> Self { Self { raw: 2 } } }",
    ),
    (
        "math/planted.rs",
        "use crate::ArrayShape as A; fn f() -> A { A { raw: 3 } }",
    ),
    (
        "plan/planted.rs",
        "fn f() -> crate::ArrayShape { crate::ArrayShape::from_checked(4) }",
    ),
];

fn tree(extra: Option<(&str, &str)>) -> (PathBuf, Vec<(PathBuf, String)>) {
    let src = Path::new("src").to_path_buf();
    let mut files: Vec<(PathBuf, String)> = CLEAN
        .iter()
        .map(|(p, code)| (src.join(p), code.to_string()))
        .collect();
    if let Some((p, code)) = extra {
        files.push((src.join(p), code.to_string()));
    }
    (src, files)
}

#[test]
fn the_clean_tree_passes() {
    let (src, files) = tree(None);
    assert_eq!(check_crate(&src, &files, CORE), Vec::<String>::new());
    assert_eq!(array_shape_makers(&src, &files), Vec::<String>::new());
}

#[test]
fn every_planted_reference_is_caught() {
    let mut missed = Vec::new();
    for &(file, code, want) in PLANTS {
        let (src, files) = tree(Some((file, code)));
        let problems = check_crate(&src, &files, CORE);
        if !problems.iter().any(|p| p.contains(want)) {
            missed.push(format!(
                "{file}: {code}\n  wanted `{want}`, got {problems:#?}"
            ));
        }
    }
    assert!(missed.is_empty(), "missed:\n{}", missed.join("\n"));
}

#[test]
fn every_planted_array_shape_maker_is_caught() {
    for &(file, code) in MAKERS {
        let (src, files) = tree(Some((file, code)));
        let makers = array_shape_makers(&src, &files);
        assert_eq!(makers.len(), 1, "{code}: {makers:#?}");
    }
}

#[test]
fn a_file_that_does_not_parse_fails() {
    let (src, files) = tree(Some(("model/planted.rs", "fn (")));
    let krate = Crate::new(&src, &files);
    assert_eq!(krate.errors.len(), 1);
}
