//! The attributes of an item-form type (`#[cfg(..)] pub type A = ..;`).
//!
//! The struct gets every attribute the user wrote. The other items
//! generated for the type (its `impl` blocks and `const` assertions) get
//! only the conditions: each `cfg`, and each `cfg_attr` reduced to the
//! `cfg`s it may add. So a type configured away takes all of its code with
//! it, while `derive`, `doc`, `repr` and lint attributes stay on the struct
//! alone (a `#[expect(..)]` copied onto an impl would go unfulfilled there).

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::quote;
use syn::Attribute;

/// Whether the user deprecated the type (possibly through `cfg_attr`):
/// then the generated impls, which name it, allow `deprecated`. Only then,
/// so that a crate that forbids the lint is not refused an `allow` for
/// nothing.
pub fn deprecated(attrs: &[Attribute]) -> bool {
    fn names_it(tokens: TokenStream) -> bool {
        tokens.into_iter().any(|t| match t {
            TokenTree::Ident(i) => i == "deprecated",
            TokenTree::Group(g) => names_it(g.stream()),
            _ => false,
        })
    }
    attrs.iter().any(|attr| {
        attr.path().is_ident("deprecated")
            || matches!(&attr.meta, syn::Meta::List(list)
                if list.path.is_ident("cfg_attr") && names_it(list.tokens.clone()))
    })
}

/// The attributes that gate every item generated for the type.
pub fn gates(attrs: &[Attribute]) -> Vec<TokenStream> {
    attrs
        .iter()
        .filter_map(|attr| {
            let syn::Meta::List(list) = &attr.meta else {
                return None;
            };
            let meta = gate(&list.path, &list.tokens)?;
            Some(quote!(#[#meta]))
        })
        .collect()
}

/// `cfg(..)` as is; `cfg_attr(pred, a, b, ..)` as `cfg_attr(pred, ..)`
/// keeping only the gating attributes among `a, b, ..` (recursively), or
/// `None` if there are none.
fn gate(path: &syn::Path, args: &TokenStream) -> Option<TokenStream> {
    if path.is_ident("cfg") {
        return Some(quote!(#path(#args)));
    }
    if !path.is_ident("cfg_attr") {
        return None;
    }
    let mut parts = split_commas(args.clone()).into_iter();
    let predicate = parts.next()?;
    let inner: Vec<TokenStream> = parts.filter_map(|attr| nested_gate(&attr)).collect();
    if inner.is_empty() {
        return None;
    }
    Some(quote!(#path(#predicate, #(#inner),*)))
}

/// An attribute inside `cfg_attr(..)`, written `name(args)`: its gate.
fn nested_gate(attr: &TokenStream) -> Option<TokenStream> {
    let tokens: Vec<TokenTree> = attr.clone().into_iter().collect();
    match tokens.as_slice() {
        [TokenTree::Ident(name), TokenTree::Group(args)]
            if args.delimiter() == Delimiter::Parenthesis =>
        {
            gate(&syn::Path::from(name.clone()), &args.stream())
        }
        _ => None,
    }
}

/// The comma-separated parts of an attribute's arguments (groups stay
/// whole; empty parts, as after a trailing comma, are dropped).
fn split_commas(tokens: TokenStream) -> Vec<TokenStream> {
    let mut parts = vec![TokenStream::new()];
    for t in tokens {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => parts.push(TokenStream::new()),
            _ => {
                if let Some(part) = parts.last_mut() {
                    part.extend([t]);
                }
            }
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}
