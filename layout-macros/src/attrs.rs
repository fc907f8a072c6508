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

/// The traits the item form derives for a type without `?` dims (a unit
/// struct): all of them but those the user derives.
pub const STATIC_DERIVES: [&str; 9] = [
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "PartialEq",
    "Eq",
    "Hash",
    "PartialOrd",
    "Ord",
];

/// The traits the item form derives for a type with `?` dims (a struct
/// holding its planned layout).
pub const DYNAMIC_DERIVES: [&str; 6] = ["Clone", "Copy", "Debug", "PartialEq", "Eq", "Hash"];

/// The absolute path of one of the derived traits.
fn trait_path(name: &str) -> TokenStream {
    match name {
        "Clone" => quote!(::core::clone::Clone),
        "Copy" => quote!(::core::marker::Copy),
        "Debug" => quote!(::core::fmt::Debug),
        "Default" => quote!(::core::default::Default),
        "PartialEq" => quote!(::core::cmp::PartialEq),
        "Eq" => quote!(::core::cmp::Eq),
        "Hash" => quote!(::core::hash::Hash),
        "PartialOrd" => quote!(::core::cmp::PartialOrd),
        _ => quote!(::core::cmp::Ord),
    }
}

/// The `derive` attributes for the struct: each trait of `traits` the
/// user does not derive (by the path's last name, `Debug` or
/// `std::fmt::Debug`), so that the user's derive wins without a conflict.
/// A trait the user derives only under `cfg_attr(pred, derive(..))` is
/// derived here under `cfg_attr(not(pred), ..)`: exactly one of the two
/// exists in every configuration.
pub fn derives(attrs: &[Attribute], traits: &[&str]) -> TokenStream {
    let mut users: Vec<(Vec<TokenStream>, String)> = Vec::new();
    for attr in attrs {
        if let syn::Meta::List(list) = &attr.meta {
            collect_derives(&list.path, &list.tokens, &[], &mut users);
        }
    }
    let mut plain = Vec::new();
    let mut conditional = Vec::new();
    for &name in traits {
        let conditions: Vec<&Vec<TokenStream>> = users
            .iter()
            .filter(|(_, n)| n == name)
            .map(|(c, _)| c)
            .collect();
        let path = trait_path(name);
        if conditions.is_empty() {
            plain.push(path);
        } else if conditions.iter().all(|c| !c.is_empty()) {
            conditional.push(quote! {
                #[cfg_attr(not(any(#(all(#(#conditions),*)),*)), derive(#path))]
            });
        }
        // Derived by the user unconditionally: nothing here.
    }
    let plain = if plain.is_empty() {
        TokenStream::new()
    } else {
        quote!(#[derive(#(#plain),*)])
    };
    quote!(#plain #(#conditional)*)
}

/// Adds the trait names of a `derive(..)` (under the `cfg_attr`
/// predicates `conditions`) to `out`, looking inside `cfg_attr`s.
fn collect_derives(
    path: &syn::Path,
    args: &TokenStream,
    conditions: &[TokenStream],
    out: &mut Vec<(Vec<TokenStream>, String)>,
) {
    if path.is_ident("derive") {
        for part in split_commas(args.clone()) {
            let last = part
                .into_iter()
                .filter_map(|t| match t {
                    TokenTree::Ident(i) => Some(i.to_string()),
                    _ => None,
                })
                .last();
            if let Some(name) = last {
                out.push((conditions.to_vec(), name));
            }
        }
        return;
    }
    if !path.is_ident("cfg_attr") {
        return;
    }
    let mut parts = split_commas(args.clone()).into_iter();
    let Some(predicate) = parts.next() else {
        return;
    };
    let mut inner = conditions.to_vec();
    inner.push(predicate);
    for attr in parts {
        let tokens: Vec<TokenTree> = attr.into_iter().collect();
        if let [TokenTree::Ident(name), TokenTree::Group(args)] = tokens.as_slice() {
            if args.delimiter() == Delimiter::Parenthesis {
                let path = syn::Path::from(name.clone());
                collect_derives(&path, &args.stream(), &inner, out);
            }
        }
    }
}
