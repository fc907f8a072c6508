//! Unit tests of the expansion (no compiler needed).

use proc_macro2::TokenStream;

use crate::ast::Input;
use crate::expand::expand;

pub(crate) fn expand_str(src: &str) -> String {
    let tokens: TokenStream = src.parse().expect("tokens");
    let input: Input = syn::parse2(tokens).expect("invocation");
    expand(input).to_string()
}

#[test]
fn expression_form_emits_tables() {
    let out = expand_str("f32[3,5]{1,0:T(2,2)}");
    assert!(out.contains("StaticLayout :: < 2usize >"), "{out}");
    assert!(out.contains("\"f32[3,5]{1,0:T(2,2)}\""), "{out}");
    assert!(!out.contains("compile_error"), "{out}");
}

#[test]
fn invalid_layout_emits_error_and_stub() {
    let out = expand_str("f32[2,3]{2,0}");
    assert!(out.contains("compile_error"), "{out}");
    assert!(out.contains("__stub"), "{out}");
}
