//! Compile-fail cases, one per rule, grouped by category (each `.stderr`
//! is the exact message a user sees), and compile-pass cases.
//!
//! They live in this package, whose dependencies are only what the cases
//! use, because trybuild builds its scratch project with every dependency
//! and dev-dependency of the package it runs in.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
