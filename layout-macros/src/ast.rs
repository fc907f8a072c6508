//! Step 1: the user's tokens -> a syntax tree of the invocation. A shape
//! written as tokens becomes text for layout-core's parser, with a map from
//! each byte range back to the token it came from.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Ident, LitStr, Token, Visibility};

/// A whole invocation.
pub struct Input {
    /// Path to layout-core in the user's crate (`::layout_core` unless the
    /// facade passed its own).
    pub krate: TokenStream,
    pub form: Form,
}

pub enum Form {
    /// `layout!(f32[3,5]{1,0})`: an expression.
    Expr(Spec),
    /// `layout! { pub type A = f32[3,5]; ... }`: items.
    Items(Vec<Item>),
}

pub struct Item {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    pub spec: Spec,
}

/// One layout: its text (with token spans) and options.
pub struct Spec {
    pub text: Text,
    pub options: Vec<Opt>,
    /// The rank read off the tokens, for stub code when the text is invalid.
    pub rank_hint: usize,
}

/// Shape text and where each piece came from.
pub struct Text {
    pub text: String,
    /// `(start, end, span)` of every token, in order. For a string literal
    /// there is one entry covering the whole text.
    pub pieces: Vec<(usize, usize, Span)>,
    /// The span of everything (for errors at the end of the text).
    pub whole: Span,
    /// `true` when the text came from a string literal.
    pub literal: bool,
    /// The last token was a punctuation mark not joined to the next one.
    alone_punct: bool,
}

/// An option after the literal: `name = value`.
pub struct Opt {
    pub name: Ident,
    pub value: OptValue,
}

pub enum OptValue {
    /// `[3, 5]`
    List(Vec<(u64, Span)>, Span),
    /// `zero`
    Word(Ident),
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Input> {
        // The facade passes `[path::to::layout_core]` first.
        let mut krate = quote::quote!(::layout_core);
        if input.peek(syn::token::Bracket) {
            let content;
            syn::bracketed!(content in input);
            krate = content.parse()?;
        }
        let items = input.peek(Token![#]) || input.peek(Token![pub]) || input.peek(Token![type]);
        let form = if items {
            let mut list = Vec::new();
            while !input.is_empty() {
                list.push(input.parse()?);
            }
            Form::Items(list)
        } else {
            let spec = parse_spec(input, false)?;
            Form::Expr(spec)
        };
        Ok(Input { krate, form })
    }
}

impl Parse for Item {
    fn parse(input: ParseStream) -> syn::Result<Item> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        input.parse::<Token![type]>()?;
        let name: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        let spec = parse_spec(input, true)?;
        input.parse::<Token![;]>()?;
        Ok(Item {
            attrs,
            vis,
            name,
            spec,
        })
    }
}

/// The shape (string literal or tokens up to the first top-level `,` or
/// `;`), then `, name = value` options.
fn parse_spec(input: ParseStream, in_item: bool) -> syn::Result<Spec> {
    let start = input.span();
    let (text, rank_hint) = if input.peek(LitStr) {
        let lit: LitStr = input.parse()?;
        let value = lit.value();
        let len = value.len();
        let rank_hint = literal_rank(&value);
        (
            Text {
                text: value,
                pieces: vec![(0, len, lit.span())],
                whole: lit.span(),
                literal: true,
                alone_punct: false,
            },
            rank_hint,
        )
    } else {
        let mut tokens = Vec::new();
        let at_end = |input: ParseStream| {
            input.is_empty() || input.peek(Token![,]) || (in_item && input.peek(Token![;]))
        };
        while !at_end(input) {
            tokens.push(input.parse::<TokenTree>()?);
        }
        if tokens.is_empty() {
            return Err(syn::Error::new(
                start,
                "expected an XLA shape, e.g. `f32[3,5]{1,0}`",
            ));
        }
        let rank_hint = rank_of(&tokens);
        (render(&tokens), rank_hint)
    };
    let mut options = Vec::new();
    while input.peek(Token![,]) {
        input.parse::<Token![,]>()?;
        if input.is_empty() || (in_item && input.peek(Token![;])) {
            break;
        }
        let name: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        let value = if input.peek(syn::token::Bracket) {
            let content;
            let bracket = syn::bracketed!(content in input);
            let mut list = Vec::new();
            while !content.is_empty() {
                list.push(list_entry(&content, &name)?);
                if !content.is_empty() {
                    content.parse::<Token![,]>()?;
                }
            }
            OptValue::List(list, bracket.span.join())
        } else {
            OptValue::Word(input.parse()?)
        };
        options.push(Opt { name, value });
    }
    Ok(Spec {
        text,
        options,
        rank_hint,
    })
}

/// One entry of an option's list (`padded = [3, 5]`): a size, a whole
/// number from 0 to `u64::MAX`. Anything else (`-1`, `3.5`, a name, a
/// number past `u64::MAX`) is an error on its tokens naming the option,
/// the value and the rule.
fn list_entry(content: ParseStream, option: &Ident) -> syn::Result<(u64, Span)> {
    let rule = |value: &str, span: Span| {
        syn::Error::new(
            span,
            format!(
                "option `{option}`: `{value}` is not a size; each entry is a whole number of elements from 0 to {}, e.g. `{option} = [3, 5]`",
                u64::MAX
            ),
        )
    };
    // One entry: the tokens up to the next top-level comma.
    let start = content.span();
    let mut tokens = Vec::new();
    while !content.is_empty() && !content.peek(Token![,]) {
        tokens.push(content.parse::<TokenTree>()?);
    }
    let span = match (tokens.first(), tokens.last()) {
        (Some(f), Some(l)) => f.span().join(l.span()).unwrap_or_else(|| f.span()),
        _ => start,
    };
    let text: String = tokens.iter().map(ToString::to_string).collect();
    match tokens.as_slice() {
        [TokenTree::Literal(lit)] => {
            let int = syn::parse2::<syn::LitInt>(TokenTree::Literal(lit.clone()).into());
            match int.as_ref().map(|n| (n.base10_parse::<u64>(), n.suffix())) {
                Ok((Ok(v), suffix)) if suffix.is_empty() || suffix.starts_with('u') => {
                    Ok((v, span))
                }
                _ => Err(rule(&text, span)),
            }
        }
        [] => Err(rule("", span)),
        _ => Err(rule(&text, span)),
    }
}

/// Number of dimensions in the first `[...]` group.
fn rank_of(tokens: &[TokenTree]) -> usize {
    for t in tokens {
        if let TokenTree::Group(g) = t {
            if g.delimiter() == Delimiter::Bracket {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                if inner.is_empty() {
                    return 0;
                }
                let commas = inner
                    .iter()
                    .filter(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                    .count();
                return commas + 1;
            }
        }
    }
    0
}

/// Best effort for text that may not parse: the number of comma-separated
/// entries after the first `[`, up to its `]` (or the end).
fn literal_rank(text: &str) -> usize {
    let Some(open) = text.find('[') else {
        return 0;
    };
    let inside = &text[open + 1..];
    let inside = &inside[..inside.find(']').unwrap_or(inside.len())];
    if inside.trim().is_empty() {
        0
    } else {
        inside.matches(',').count() + 1
    }
}

/// Renders tokens as XLA text: a space only between two words (identifiers
/// or literals) so they stay apart; punctuation joins directly, so `<` `=`
/// stays `<=` and `-` `1` stays `-1`.
pub fn render(tokens: &[TokenTree]) -> Text {
    let mut out = Text {
        text: String::new(),
        pieces: Vec::new(),
        whole: Span::call_site(),
        literal: false,
        alone_punct: false,
    };
    let mut last_word = false;
    let mut first: Option<Span> = None;
    let mut last: Option<Span> = None;
    render_into(tokens, &mut out, &mut last_word, &mut first, &mut last);
    if let Some(f) = first {
        out.whole = f.join(last.unwrap_or(f)).unwrap_or(f);
    }
    out
}

fn push(out: &mut Text, s: &str, span: Span, first: &mut Option<Span>, last: &mut Option<Span>) {
    let start = out.text.len();
    out.text.push_str(s);
    out.pieces.push((start, out.text.len(), span));
    first.get_or_insert(span);
    *last = Some(span);
}

fn render_into(
    tokens: &[TokenTree],
    out: &mut Text,
    last_word: &mut bool,
    first: &mut Option<Span>,
    last: &mut Option<Span>,
) {
    for t in tokens {
        let was_alone = out.alone_punct;
        out.alone_punct = false;
        match t {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                if !open.is_empty() {
                    push(out, open, g.span_open(), first, last);
                }
                *last_word = false;
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                render_into(&inner, out, last_word, first, last);
                if !close.is_empty() {
                    push(out, close, g.span_close(), first, last);
                }
                *last_word = false;
            }
            TokenTree::Ident(i) => {
                if *last_word {
                    out.text.push(' ');
                }
                push(out, &i.to_string(), i.span(), first, last);
                *last_word = true;
            }
            TokenTree::Literal(l) => {
                if *last_word {
                    out.text.push(' ');
                }
                push(out, &l.to_string(), l.span(), first, last);
                *last_word = true;
            }
            TokenTree::Punct(p) => {
                // Two punctuation marks the user wrote apart (`< =`) stay
                // apart; joint ones (`<=`) join.
                if was_alone {
                    out.text.push(' ');
                }
                let mut buf = [0u8; 4];
                push(
                    out,
                    p.as_char().encode_utf8(&mut buf),
                    p.span(),
                    first,
                    last,
                );
                out.alone_punct = p.spacing() == proc_macro2::Spacing::Alone;
                *last_word = false;
            }
        }
    }
}
