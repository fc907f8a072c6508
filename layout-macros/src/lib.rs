//! The `layout!` procedural macro: XLA shape and layout literals as
//! compile-time constants. Use it through the `layout` facade crate, which
//! documents it; this crate emits paths to `layout_core` (or to the path the
//! facade passes).
//!
//! The macro is a pipeline in three files: `ast` (tokens -> invocation and
//! shape text), `valid` (layout-core's own parser and validator, errors
//! mapped back onto tokens), `expand` + `codegen` (tables and specialised
//! offset code), with `attrs` sorting an item's attributes between the
//! struct and the other generated items.
#![forbid(unsafe_code)]

mod ast;
mod attrs;
mod codegen;
mod expand;
mod suggest;
mod valid;

use proc_macro::TokenStream;

/// XLA layouts as compile-time constants; see the `layout` crate.
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    match syn::parse::<ast::Input>(input) {
        Ok(input) => expand::expand(input).into(),
        Err(e) => e.to_compile_error().into(),
    }
}

#[cfg(test)]
mod tests;
