//! Compile-fail cases, one per rule, grouped by category (each `.stderr`
//! is the exact message a user sees), and compile-pass cases.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
