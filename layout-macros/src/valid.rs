//! Step 2: text -> layout-core's parser and validator (the same ones the
//! runtime uses), then the macro's options. Every problem becomes a
//! `syn::Error` on the user's tokens; all of them are reported together.

use layout_core::{
    parse_array_unvalidated, validate_all, ArrayShape, ElementType, Error, ErrorKind, PaddingValue,
    Span as TextSpan,
};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::ast::{Opt, OptValue, Spec, Text};
use crate::suggest;

/// The macro's options, for "did you mean" hints.
const OPTION_NAMES: [&str; 2] = ["padded", "padding_value"];
/// The words `padding_value` takes.
const PADDING_VALUES: [&str; 5] = ["zero", "one", "lowest", "highest", "unknown"];

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
        Err(e) => {
            // The options are separate tokens: report their problems too.
            let mut all = error_at(text, &e, spec.rank_hint);
            if let Err(more) = check_options(&spec.options) {
                all.combine(more);
            }
            return Err(all);
        }
    };
    // For help lines that show an example of the user's rank.
    let rank = raw.rank();
    let mut errors: Option<syn::Error> = None;
    let mut add = |e: syn::Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    for e in validate_all(&raw).iter() {
        add(error_at(text, &e, rank));
    }
    let shape = match raw.validate() {
        Ok(valid) => match apply_options(valid, &spec.options, rank) {
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
    let canonical = shape.to_string();
    // The same planning the runtime does; it cannot fail for a validated
    // shape with static sizes, but never panic if it does. Shapes with `?`
    // dims are planned at run time, when their extents are known.
    if !shape.has_unbounded_dims() {
        if let Err(e) = layout_core::Plan::new(&shape) {
            return Err(error_at(text, &e, rank));
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
                    add(syn::Error::new(
                        opt.name.span(),
                        "option `padded` given twice",
                    ));
                }
                padded = Some((list.iter().map(|(n, _)| *n).collect(), *span));
            }
            ("padding_value", OptValue::Word(word)) => {
                match PaddingValue::from_name(&word.to_string()) {
                    Some(v) => {
                        if value.is_some() {
                            add(syn::Error::new(
                                opt.name.span(),
                                "option `padding_value` given twice",
                            ));
                        }
                        value = Some((v, word.span()));
                    }
                    None => {
                        let help = match suggest::closest(&word.to_string(), &PADDING_VALUES) {
                            Some(close) => format!("did you mean `{close}`?"),
                            None => String::from("one of zero, one, lowest, highest, unknown"),
                        };
                        add(syn::Error::new(
                            word.span(),
                            format!("unknown padding value `{word}`\nhelp: {help}"),
                        ));
                    }
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
            _ => {
                let help = match suggest::closest(&name, &OPTION_NAMES) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None => {
                        String::from("the options are `padded = [..]` and `padding_value = ..`")
                    }
                };
                add(syn::Error::new(
                    opt.name.span(),
                    format!("unknown option `{name}`\nhelp: {help}"),
                ));
            }
        }
    }
    match errors {
        Some(e) => Err(e),
        None => Ok((padded, value)),
    }
}

/// `padded = [..]` and `padding_value = ..` (legacy padding).
fn apply_options(
    shape: ArrayShape,
    options: &[Opt],
    rank: usize,
) -> Result<ArrayShape, syn::Error> {
    match check_options(options)? {
        (None, None) => Ok(shape),
        (None, Some((_, span))) => Err(syn::Error::new(
            span,
            "`padding_value` needs `padded = [..]` (legacy padding)",
        )),
        (Some((dims, span)), value) => {
            let value = value.map_or(PaddingValue::Unknown, |(v, _)| v);
            shape
                .with_legacy_padding(&dims, value)
                .map_err(|e| syn::Error::new(span, describe(&e, "", rank)))
        }
    }
}

/// The message for an error: the rule, the message with its numbers, and
/// a help line where one helps. `found` is the offending text (for "did
/// you mean" hints), `rank` the shape's (for examples of that rank).
pub fn describe(e: &Error, found: &str, rank: usize) -> String {
    let mut msg = match e.rule() {
        "syntax" => format!("layout syntax error: {e}"),
        rule => format!("layout rule `{rule}`: {e}"),
    };
    if let Some(help) = help_line(e, found, rank) {
        msg.push_str("\nhelp: ");
        msg.push_str(&help);
    }
    msg
}

fn help_line(e: &Error, found: &str, rank: usize) -> Option<String> {
    let close = match e.kind() {
        ErrorKind::UnknownElementType => ElementType::closest(found).map(ElementType::name),
        ErrorKind::UnknownAttribute => suggest::attribute(found),
        ErrorKind::InvalidDimLevelType => ["D", "C", "S", "H"]
            .into_iter()
            .find(|level| level.eq_ignore_ascii_case(found)),
        _ => None,
    };
    match close {
        Some(name) => Some(format!("did you mean `{name}`?")),
        None => e.help_for(rank).map(|help| help.to_string()),
    }
}

fn error_at(text: &Text, e: &Error, rank: usize) -> syn::Error {
    let found = text.text.get(e.span().range()).unwrap_or("");
    spanned(text, e.span(), &describe(e, found, rank))
}

/// An error covering the tokens that produced `range` of the text.
fn spanned(text: &Text, range: TextSpan, msg: &str) -> syn::Error {
    if text.literal {
        // Stable Rust cannot point inside a string literal: name the spot.
        return syn::Error::new(
            text.whole,
            format!("{msg}\nnote: {}", literal_spot(&text.text, range)),
        );
    }
    if range == TextSpan::NONE && !text.text.is_empty() {
        // Not tied to one place: the whole shape.
        let (first, last) = match (text.pieces.first(), text.pieces.last()) {
            (Some(f), Some(l)) => (f.2, l.2),
            _ => (text.whole, text.whole),
        };
        return covering(first, last, msg);
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
    covering(first, last, msg)
}

/// An error from the token at `first` to the one at `last`.
fn covering(first: Span, last: Span, msg: &str) -> syn::Error {
    // `new_spanned` covers from the first to the last token on stable.
    let a = Ident::new("a", first);
    let b = Ident::new("b", last);
    syn::Error::new_spanned(quote!(#a #b), msg)
}

/// Where in a string literal `range` is, in words: the text there quoted
/// with its byte offset; for an empty range the word or character that
/// starts there, or the end of the literal; for an error not tied to one
/// place, the whole literal.
///
/// Its words start with `at`, `in` or `the literal`, which tests rely on.
pub fn literal_spot(text: &str, range: TextSpan) -> String {
    let r = range.range();
    if text.is_empty() {
        return String::from("the literal is empty");
    }
    if r.start >= text.len() {
        return format!("at the end of the literal{}", caret(text, text.len(), 1));
    }
    if range == TextSpan::NONE {
        return format!("in `{text}` (the whole literal)");
    }
    let quoted = match text.get(r.clone()) {
        Some(part) if !part.is_empty() => part,
        _ => {
            // An empty or broken range: the token starting at `r.start`.
            let rest = text.get(r.start..).unwrap_or("");
            let word = rest
                .char_indices()
                .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
                .map_or(rest.len(), |(i, _)| i);
            let len = if word > 0 {
                word
            } else {
                rest.chars().next().map_or(0, char::len_utf8)
            };
            &rest[..len]
        }
    };
    format!(
        "at `{quoted}` (byte {} of the literal){}",
        r.start,
        caret(text, r.start, quoted.len())
    )
}

/// The literal on a line of its own with `^` under `width` bytes from
/// `start`: only for a short, one-line, printable ASCII literal, where
/// bytes are columns. Empty otherwise.
fn caret(text: &str, start: usize, width: usize) -> String {
    let plain = text.len() <= 100 && text.bytes().all(|b| b.is_ascii_graphic() || b == b' ');
    if !plain || width == 0 || start > text.len() {
        return String::new();
    }
    format!("\n  {text}\n  {}{}", " ".repeat(start), "^".repeat(width))
}

/// The rank and number of `?` dims to use for stub code after an error:
/// exact when the text parses (the error is a rule's), otherwise the
/// best-effort hint read off the tokens or the literal.
pub fn stub_shape(spec: &Spec) -> (usize, usize) {
    match parse_array_unvalidated(&spec.text.text) {
        Ok(s) => (s.rank(), s.unbounded_count()),
        Err(_) => (spec.rank_hint, usize::from(spec.text.text.contains('?'))),
    }
}

/// A const expression of a stub layout (for error recovery) whose type is
/// inferred from where it is used: `StaticLayout<R>` with `R` taken from
/// the declared type or the uses, or `Unresolved<R, U>` for a shape with
/// `?` dims. An uninferred stub adds no error of its own, as the compiler
/// reports no ambiguity once the invocation's errors are out.
pub fn stub_expr(krate: &TokenStream, spec: &Spec) -> TokenStream {
    if stub_shape(spec).1 > 0 {
        quote!(#krate::Unresolved::new(
            match #krate::parse_array("f32[?]") {
                ::core::result::Result::Ok(shape) => shape,
                ::core::result::Result::Err(_) => ::core::panic!("a stub after a compile error"),
            },
            "",
        ))
    } else {
        quote!(#krate::StaticLayout::__stub())
    }
}

/// A const expression of the stub layout of rank `rank`.
pub fn stub_layout(krate: &TokenStream, rank: usize) -> TokenStream {
    quote!(#krate::StaticLayout::<#rank>::__stub())
}
