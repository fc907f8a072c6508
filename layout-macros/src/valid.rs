//! Step 2: text -> layout-core's parser and validator (the same ones the
//! runtime uses), then the macro's options. Every problem becomes a
//! `syn::Error` on the user's tokens; all of them are reported together.

use layout_core::{
    parse_array_unvalidated, validate_all, ArrayShape, Error, PaddingValue, Span as TextSpan,
};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::ast::{Opt, OptValue, Spec, Text};

/// A layout that passed every rule, ready to emit.
pub struct Valid {
    pub shape: ArrayShape,
    pub canonical: String,
    pub rank: usize,
    /// Number of `?` dims (extents supplied at run time).
    pub unbounded: usize,
}

/// Checks one spec; returns the shape or every error found.
pub fn check(spec: &Spec) -> Result<Valid, syn::Error> {
    let text = &spec.text;
    let raw = match parse_array_unvalidated(&text.text) {
        Ok(s) => s,
        Err(e) => return Err(error_at(text, &e)),
    };
    let mut errors: Option<syn::Error> = None;
    let mut add = |e: syn::Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    for e in validate_all(&raw).iter() {
        add(error_at(text, &e));
    }
    let shape = match raw.validate() {
        Ok(valid) => match apply_options(valid, &spec.options) {
            Ok(s) => Some(s),
            Err(e) => {
                add(e);
                None
            }
        },
        // Reported above; still check the options, so that every problem
        // of the invocation is reported at once.
        Err(_) => {
            if let Err(e) = check_options(&spec.options) {
                add(e);
            }
            None
        }
    };
    let shape = match (errors, shape) {
        (Some(e), _) => return Err(e),
        (None, Some(s)) => s,
        (None, None) => return Err(syn::Error::new(text.whole, "invalid layout")),
    };
    let rank = shape.rank();
    let canonical = shape.to_string();
    // The same planning the runtime does; it cannot fail for a validated
    // shape with static sizes, but never panic if it does. Shapes with `?`
    // dims are planned at run time, when their extents are known.
    if !shape.has_unbounded_dims() {
        if let Err(e) = layout_core::Plan::new(&shape) {
            return Err(error_at(text, &e));
        }
    }
    Ok(Valid {
        unbounded: shape.unbounded_count(),
        shape,
        canonical,
        rank,
    })
}

/// The options as given: `padded` sizes and `padding_value`, each with the
/// span to report problems at.
type Options = (Option<(Vec<u64>, Span)>, Option<(PaddingValue, Span)>);

/// Checks the options' syntax and names.
fn check_options(options: &[Opt]) -> Result<Options, syn::Error> {
    let mut padded: Option<(Vec<u64>, Span)> = None;
    let mut value: Option<(PaddingValue, Span)> = None;
    let mut errors: Option<syn::Error> = None;
    let mut add = |e: syn::Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    for opt in options {
        let name = opt.name.to_string();
        match (name.as_str(), &opt.value) {
            ("padded", OptValue::List(list, span)) => {
                if padded.is_some() {
                    add(syn::Error::new(opt.name.span(), "option `padded` given twice"));
                }
                padded = Some((list.iter().map(|(n, _)| *n).collect(), *span));
            }
            ("padding_value", OptValue::Word(word)) => {
                match PaddingValue::from_name(&word.to_string()) {
                    Some(v) => {
                        if value.is_some() {
                            add(syn::Error::new(opt.name.span(), "option `padding_value` given twice"));
                        }
                        value = Some((v, word.span()));
                    }
                    None => add(syn::Error::new(
                        word.span(),
                        format!(
                            "unknown padding value `{word}`\nhelp: one of zero, one, lowest, highest, unknown"
                        ),
                    )),
                }
            }
            ("padded", _) => add(syn::Error::new(
                opt.name.span(),
                "option `padded` takes a list of sizes, e.g. `padded = [3, 5]`",
            )),
            ("padding_value", _) => add(syn::Error::new(
                opt.name.span(),
                "option `padding_value` takes a word: zero, one, lowest, highest or unknown",
            )),
            _ => add(syn::Error::new(
                opt.name.span(),
                format!("unknown option `{name}`\nhelp: the options are `padded = [..]` and `padding_value = ..`"),
            )),
        }
    }
    match errors {
        Some(e) => Err(e),
        None => Ok((padded, value)),
    }
}

/// `padded = [..]` and `padding_value = ..` (legacy padding).
fn apply_options(shape: ArrayShape, options: &[Opt]) -> Result<ArrayShape, syn::Error> {
    match check_options(options)? {
        (None, None) => Ok(shape),
        (None, Some((_, span))) => Err(syn::Error::new(
            span,
            "`padding_value` needs `padded = [..]` (legacy padding)",
        )),
        (Some((dims, span)), value) => {
            let value = value.map_or(PaddingValue::Unknown, |(v, _)| v);
            shape.with_legacy_padding(&dims, value).map_err(|e| {
                let msg = describe(&e);
                syn::Error::new(span, msg)
            })
        }
    }
}

/// The message for an error: the rule, the message with its numbers, and
/// a help line where one helps.
pub fn describe(e: &Error) -> String {
    let mut msg = match e.rule() {
        "syntax" => format!("layout syntax error: {e}"),
        rule => format!("layout rule `{rule}`: {e}"),
    };
    if let Some(help) = e.help() {
        msg.push_str("\nhelp: ");
        msg.push_str(help);
    }
    msg
}

fn error_at(text: &Text, e: &Error) -> syn::Error {
    spanned(text, e.span(), &describe(e))
}

/// An error covering the tokens that produced `range` of the text.
fn spanned(text: &Text, range: TextSpan, msg: &str) -> syn::Error {
    if text.literal {
        // Stable Rust cannot point inside a string literal: name the spot.
        let r = range.range();
        let msg = if r.start < r.end && r.end <= text.text.len() {
            format!(
                "{msg}\nnote: at `{}` (byte {} of the literal)",
                &text.text[r.clone()],
                r.start
            )
        } else {
            msg.to_string()
        };
        return syn::Error::new(text.whole, msg);
    }
    let (start, end) = (range.start as usize, range.end as usize);
    let hit: Vec<Span> = text
        .pieces
        .iter()
        .filter(|(s, e, _)| {
            if start == end {
                *s >= start
            } else {
                *s < end && *e > start
            }
        })
        .map(|(_, _, span)| *span)
        .collect();
    let (first, last) = match (hit.first(), hit.last()) {
        (Some(f), Some(l)) if start != end => (*f, *l),
        (Some(f), _) => (*f, *f),
        (None, _) => {
            let s = text.pieces.last().map_or(text.whole, |p| p.2);
            (s, s)
        }
    };
    // `new_spanned` covers from the first to the last token on stable.
    let a = Ident::new("a", first);
    let b = Ident::new("b", last);
    syn::Error::new_spanned(quote!(#a #b), msg)
}

/// The rank to use for stub code after an error.
pub fn stub_rank(spec: &Spec) -> usize {
    match parse_array_unvalidated(&spec.text.text) {
        Ok(s) => s.rank(),
        Err(_) => spec.rank_hint,
    }
}

/// A const expression of the stub layout (for error recovery).
pub fn stub_layout(krate: &TokenStream, rank: usize) -> TokenStream {
    quote!(#krate::StaticLayout::<#rank>::__stub())
}
