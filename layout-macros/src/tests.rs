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
fn string_literal_errors_name_the_spot() {
    use crate::valid::literal_spot;
    use layout_core::Span;
    let text = "f32[2,3]{1,0:T(2,*)}";
    assert_eq!(
        literal_spot(text, Span::new(17, 18)),
        "at `*` (byte 17 of the literal)\n  f32[2,3]{1,0:T(2,*)}\n                   ^"
    );
    // An empty span: the token that starts there.
    assert_eq!(
        literal_spot(text, Span::new(13, 13)),
        "at `T` (byte 13 of the literal)\n  f32[2,3]{1,0:T(2,*)}\n               ^"
    );
    assert_eq!(
        literal_spot("bf16x[2]", Span::new(0, 5)),
        "at `bf16x` (byte 0 of the literal)\n  bf16x[2]\n  ^^^^^"
    );
    assert_eq!(
        literal_spot(text, Span::new(0, 0)),
        format!("in `{text}` (the whole literal)")
    );
    assert_eq!(
        literal_spot("f32[2", Span::new(5, 5)),
        "at the end of the literal\n  f32[2\n       ^"
    );
    assert_eq!(literal_spot("", Span::new(0, 0)), "the literal is empty");
    // No caret line where bytes are not columns (tabs, newlines, non-ASCII).
    assert_eq!(
        literal_spot("f32[2]\t{x}", Span::new(8, 9)),
        "at `x` (byte 8 of the literal)"
    );
    assert_eq!(
        literal_spot("f32[2]{0:T(\u{e9})}", Span::new(11, 13)),
        "at `\u{e9}` (byte 11 of the literal)"
    );
    // A span past the text or inside a character never panics.
    assert_eq!(
        literal_spot("f32", Span::new(1, 9)),
        "at `32` (byte 1 of the literal)\n  f32\n   ^^"
    );
    assert_eq!(
        literal_spot("\u{e9}[", Span::new(1, 2)),
        "at `` (byte 1 of the literal)"
    );
}

/// The workspace's `layout-cli/tests/data/xla_vectors.jsonl`, read when the test runs:
/// it is test data of the repository, not part of this package, so a
/// packaged copy of the crate (no workspace above it) skips the tests that
/// use it, and in the repository a missing file fails them.
fn xla_vectors() -> Option<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = root.join("layout-cli/tests/data/xla_vectors.jsonl");
    match std::fs::read_to_string(&path) {
        Ok(data) => Some(data),
        Err(_) if !root.join("Cargo.toml").exists() => {
            eprintln!(
                "skipped: {} is not here (not in the repository)",
                path.display()
            );
            None
        }
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

/// Every rejected string, as a string literal: the message quotes the part
/// of the literal it is about (or says it is at the end, or everywhere).
#[test]
fn every_literal_error_names_its_spot() {
    let Some(data) = xla_vectors() else {
        return;
    };
    let mut checked = 0;
    for line in data.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        let input = v["input"].as_str().expect("input");
        let out = expand_str(&format!("{input:?}"));
        if !out.contains("compile_error") {
            continue;
        }
        let errors = out.matches("compile_error").count();
        let notes = out.matches("\\nnote: at `").count()
            + out.matches("\\nnote: at the end of the literal").count()
            + out.matches("(the whole literal)").count()
            + out.matches("\\nnote: the literal is empty").count();
        assert_eq!(notes, errors, "{input}: {out}");
        checked += 1;
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn rank_hints_of_literals_that_do_not_parse() {
    for (src, rank) in [
        ("\"f32[3,5\"", 2),
        ("\"f32[3,5]{1,0\"", 2),
        ("\"f32[]{\"", 0),
        ("\"f32[ ]x\"", 0),
        ("\"f32[1,2,3\"", 3),
        ("\"f32\"", 0),
    ] {
        let tokens: TokenStream = src.parse().expect("tokens");
        let input: Input = syn::parse2(tokens).expect("invocation");
        let crate::ast::Form::Expr(spec) = input.form else {
            panic!("{src}");
        };
        assert_eq!(spec.rank_hint, rank, "{src}");
    }
}

#[test]
fn letter_case_hints() {
    for (src, hint) in [
        ("f32[10,10]{1,0:D(c,C)}", "did you mean `C`?"),
        ("f32[10,10]{1,0:l(2)}", "did you mean `L`?"),
        ("F32[10]", "did you mean `f32`?"),
        ("\"PRED[2]\"", "did you mean `pred`?"),
    ] {
        let out = expand_str(src);
        assert!(out.contains(hint), "{src}: {out}");
    }
}

#[test]
fn options_are_checked_after_a_syntax_error() {
    let out = expand_str("f33[2,3], paded = [3, 5]");
    assert_eq!(out.matches("compile_error").count(), 2, "{out}");
    assert!(out.contains("did you mean `f32`?"), "{out}");
    assert!(out.contains("did you mean `padded`?"), "{out}");
}

#[test]
fn invalid_layout_emits_error_and_stub() {
    let out = expand_str("f32[2,3]{2,0}");
    assert!(out.contains("compile_error"), "{out}");
    assert!(out.contains("__stub"), "{out}");
}

/// The attribute lines (`#[..]`, doc comments aside) in front of each
/// generated item whose header line contains `header`.
fn attributes_before(out: &str, header: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut pending = Vec::new();
    for line in out.lines() {
        let line = line.trim();
        if line.starts_with("#[") {
            if !line.starts_with("#[doc") {
                pending.push(line.to_string());
            }
            continue;
        }
        if line.contains(header) {
            found.push(std::mem::take(&mut pending));
        }
        pending.clear();
    }
    found
}

#[test]
fn cfg_gates_every_generated_item() {
    let out = expand_pretty(
        "#[cfg(any())] #[cfg_attr(all(), derive(PartialEq), cfg(unix))] pub type A = f32[3,5];",
    );
    let cfg = "#[cfg(any())]".to_string();
    let nested = "#[cfg_attr(all(), cfg(unix))]".to_string();
    for header in [
        "pub struct A",
        "impl A",
        "StaticShape<2usize> for A",
        "const _:",
    ] {
        let attrs = attributes_before(&out, header);
        assert_eq!(attrs.len(), 1, "{header}: {out}");
        assert!(attrs[0].contains(&cfg), "{header}: {:?}", attrs[0]);
        if header != "pub struct A" {
            // The derive stays on the struct; only the `cfg` part repeats.
            assert!(attrs[0].contains(&nested), "{header}: {:?}", attrs[0]);
            assert!(
                !attrs[0].iter().any(|a| a.contains("PartialEq")),
                "{header}"
            );
        }
    }
}

#[test]
fn only_conditions_leave_the_struct() {
    let out = expand_pretty(
        "/// Docs.\n#[deprecated] #[must_use] #[expect(dead_code)] #[cfg_attr(test, allow(unused))] #[repr(C)]\npub type A = f32[3,5];",
    );
    let on_struct = attributes_before(&out, "pub struct A");
    for attr in [
        "#[deprecated]",
        "#[must_use]",
        "#[expect(dead_code)]",
        "#[repr(C)]",
    ] {
        assert!(
            on_struct[0].iter().any(|a| a == attr),
            "{attr}: {on_struct:?}"
        );
    }
    for header in ["impl A", "StaticShape<2usize> for A"] {
        let attrs = &attributes_before(&out, header)[0];
        assert!(
            attrs.iter().all(|a| a.starts_with("#[allow(")),
            "{header}: {attrs:?}"
        );
        assert!(
            attrs.iter().any(|a| a.contains("deprecated")),
            "{header}: {attrs:?}"
        );
    }
    assert!(attributes_before(&out, "const _")[0].is_empty(), "{out}");
    let dynamic = expand_pretty("#[cfg(any())] #[deprecated] pub type D = f32[?,8];");
    for header in ["pub struct D", "impl D", "RankedLayout<2usize> for D"] {
        let attrs = &attributes_before(&dynamic, header)[0];
        assert!(
            attrs.contains(&"#[cfg(any())]".to_string()),
            "{header}: {dynamic}"
        );
    }
}

#[test]
fn compile_errors_are_not_configured_away() {
    let out = expand_pretty("#[cfg(any())] pub type Bad = f32[2,3]{1,0:T(2,*)};");
    let lines: Vec<&str> = out.lines().collect();
    let error = lines
        .iter()
        .position(|l| l.contains("compile_error"))
        .expect("error");
    // The error is an item of its own, not behind the type's `cfg`.
    assert!(!lines[error - 1].starts_with("#["), "{out}");
}

// ---------------------------------------------------------------------------
// Expansion snapshots: `tests/snapshots/<name>.txt` hold the readable
// expansion of representative invocations; `UPDATE_SNAPSHOTS=1 cargo test -p
// layout-macros` rewrites them.
// ---------------------------------------------------------------------------

use proc_macro2::{Delimiter, Spacing, TokenTree};

/// The expansion of `src` (what follows `layout!`), laid out by [`pretty`].
fn expand_pretty(src: &str) -> String {
    let tokens: TokenStream = src.parse().expect("tokens");
    let input: Input = syn::parse2(tokens).expect("invocation");
    pretty(expand(input))
}

/// A token with its punctuation joined (`::`, `->`, `&&`, `<=`).
enum Tok {
    Word(String),
    Op(String),
    Group(Delimiter, Vec<Tok>),
}

fn lex(ts: TokenStream) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut op = String::new();
    for tt in ts {
        if let TokenTree::Punct(p) = &tt {
            op.push(p.as_char());
            if p.spacing() == Spacing::Alone {
                out.push(Tok::Op(std::mem::take(&mut op)));
            }
            continue;
        }
        if !op.is_empty() {
            out.push(Tok::Op(std::mem::take(&mut op)));
        }
        out.push(match tt {
            TokenTree::Group(g) => Tok::Group(g.delimiter(), lex(g.stream())),
            TokenTree::Ident(i) => Tok::Word(i.to_string()),
            TokenTree::Literal(l) => Tok::Word(l.to_string()),
            TokenTree::Punct(_) => unreachable!(),
        });
    }
    if !op.is_empty() {
        out.push(Tok::Op(op));
    }
    out
}

/// What was printed last on the current line, for spacing decisions.
#[derive(Clone, PartialEq)]
enum Last {
    Start,
    Word(String),
    Op(String),
    GenericClose,
    Close,
}

/// A small, deterministic layout of generated code (no rustfmt): a newline
/// after `;`, attributes and braces, brace bodies indented; parenthesised
/// or bracketed lists that contain a brace block get one element per line;
/// `::`, generics, calls and field access without spaces.
fn pretty(ts: TokenStream) -> String {
    let mut p = Printer {
        out: String::new(),
        indent: 0,
        last: Last::Start,
        generics: 0,
    };
    p.tokens(&lex(ts), true);
    p.newline();
    p.out
}

/// Words after which a path or a bracket keeps its space.
const KEYWORDS: &[&str] = &[
    "as", "const", "dyn", "fn", "for", "impl", "in", "let", "match", "mut", "pub", "return",
    "static", "type", "where",
];

struct Printer {
    out: String,
    indent: usize,
    last: Last,
    generics: usize,
}

fn has_brace(toks: &[Tok]) -> bool {
    toks.iter().any(|t| match t {
        Tok::Group(Delimiter::Brace, _) => true,
        Tok::Group(_, inner) => has_brace(inner),
        _ => false,
    })
}

impl Printer {
    fn newline(&mut self) {
        if self.last != Last::Start {
            self.out.push('\n');
            self.last = Last::Start;
        }
    }

    fn put(&mut self, s: &str, space: bool) {
        if self.last == Last::Start {
            for _ in 0..self.indent {
                self.out.push_str("    ");
            }
        } else if space {
            self.out.push(' ');
        }
        self.out.push_str(s);
    }

    /// Whether a space goes between what was printed last and `next`.
    fn space_before(&self, next: &Tok) -> bool {
        let last = &self.last;
        match next {
            Tok::Op(o) if [",", ";", ".", ":", "?"].contains(&o.as_str()) => false,
            Tok::Op(o) if o == "::" => match last {
                Last::Op(l) => !["&", "!", "#"].contains(&l.as_str()),
                Last::Word(w) => KEYWORDS.contains(&w.as_str()),
                _ => false,
            },
            Tok::Op(o) if o == "!" => !matches!(last, Last::Word(_)),
            Tok::Op(o) if o == ">" && self.generics > 0 => false,
            Tok::Group(Delimiter::Parenthesis | Delimiter::Bracket, _) => match last {
                Last::Word(w) => w != "pub" && KEYWORDS.contains(&w.as_str()),
                Last::Op(o) => !["!", "#", "&", "::"].contains(&o.as_str()),
                Last::GenericClose => false,
                _ => true,
            },
            _ => match last {
                Last::Op(o) => !["::", ".", "&", "#", "'"].contains(&o.as_str()),
                _ => true,
            },
        }
    }

    fn tokens(&mut self, toks: &[Tok], block: bool) {
        for (i, t) in toks.iter().enumerate() {
            let space = self.space_before(t);
            match t {
                Tok::Word(w) => {
                    self.put(w, space);
                    self.last = Last::Word(w.clone());
                }
                Tok::Op(o) => {
                    let generic_open = o == "<"
                        && match &self.last {
                            Last::Word(w) => w.starts_with(|c: char| c.is_ascii_uppercase()),
                            Last::Op(l) => l == "::",
                            _ => false,
                        };
                    if generic_open {
                        self.generics += 1;
                        self.put(o, false);
                        self.last = Last::Op("::".into()); // no space after
                        continue;
                    }
                    if o == ">" && self.generics > 0 {
                        self.generics -= 1;
                        self.put(o, false);
                        self.last = Last::GenericClose;
                        continue;
                    }
                    self.put(o, space);
                    self.last = Last::Op(o.clone());
                    if block && (o == ";" || o == ",") {
                        self.newline();
                    }
                }
                Tok::Group(Delimiter::Brace, inner) => {
                    self.put("{", space);
                    self.last = Last::Op("{".into());
                    if inner.is_empty() {
                        self.out.push('}');
                        self.last = Last::Close;
                    } else {
                        self.indent += 1;
                        self.newline();
                        self.tokens(inner, true);
                        self.indent -= 1;
                        self.newline();
                        self.put("}", false);
                        self.last = Last::Close;
                    }
                    let next_glues =
                        matches!(toks.get(i + 1), Some(Tok::Op(o)) if o == "," || o == ";");
                    if block && !next_glues {
                        self.newline();
                    }
                }
                Tok::Group(delim, inner) => {
                    let (open, close) = match delim {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Bracket => ("[", "]"),
                        _ => ("", ""),
                    };
                    let tall = has_brace(inner);
                    self.put(open, space);
                    self.last = Last::Op("::".into()); // no space after the opener
                    if tall {
                        self.indent += 1;
                        self.newline();
                    }
                    self.tokens(inner, tall);
                    if tall {
                        self.indent -= 1;
                        self.newline();
                    }
                    self.put(close, false);
                    self.last = Last::Close;
                    let attribute = matches!(
                        (i.checked_sub(1).map(|j| &toks[j]), delim),
                        (Some(Tok::Op(o)), Delimiter::Bracket) if o == "#"
                    );
                    if block && attribute {
                        self.newline();
                    }
                }
            }
        }
    }
}

/// The representative invocations: snapshot name and macro input.
const SNAPSHOTS: &[(&str, &str)] = &[
    ("row_major", "f32[3,5]{1,0}"),
    ("permuted", "pub type Permuted = f32[3,5,7]{0,2,1};"),
    ("tiled_8x128", "pub type Tiled = f32[16,256]{1,0:T(8,128)};"),
    (
        "tiled_8x128_2x1",
        "pub type Bf16Tiled = bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)};",
    ),
    (
        "combine",
        "pub type Combined = f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)};",
    ),
    ("scalar_tiled", "pub type Scalar = s32[]{:T(256)};"),
    (
        "dynamic_tiled",
        "pub type Dyn = bf16[?,1024]{1,0:T(8,128)(2,1)};",
    ),
    ("scalar_expression", "s32[]{:T(256)}"),
    (
        "legacy_padding",
        "f32[2,3]{0,1}, padded = [3, 5], padding_value = lowest",
    ),
    (
        "two_items",
        "[::layout::__private::layout_core]\n\
         /// Row-major.\n\
         pub type Rows = f32[4,8]{1,0};\n\
         /// Tiled 2x4, then pairs of rows interleaved.\n\
         #[allow(missing_docs)] pub(crate) type Tiled = s4[4,8]{1,0:T(2,4)(2,1)E(4)};",
    ),
    (
        "string_literal",
        "\"bf16[8, 128]{1,0 : T(8,128)(2,1) /* dump */}\"",
    ),
    (
        "item_attributes",
        "/// Only on 64-bit targets.\n\
         #[cfg(target_pointer_width = \"64\")]\n\
         #[cfg_attr(test, derive(serde::Serialize), cfg(unix))]\n\
         #[deprecated = \"use Rows\"]\n\
         pub type Old = f32[4,8]{1,0};",
    ),
    (
        "dynamic_item_attributes",
        "#[cfg(feature = \"dyn\")] #[must_use] pub type Batch = f32[?,8]{1,0};",
    ),
    ("invalid_expression", "f32[2,3]{2,0}"),
    ("invalid_string_literal", "\"f32[3,5\""),
    ("invalid_dynamic_expression", "f32[?,5]{2,0}"),
    (
        "invalid_dynamic_item",
        "pub type Bad = f32[?,5]{1,0:T(2,*)};",
    ),
    (
        "invalid_item",
        "pub type Bad = f32[2,3]{1,0:T(2,*)}; pub type Good = u8[2];",
    ),
    (
        "invalid_item_with_cfg",
        "#[cfg(any())] pub type Bad = f32[2,3]{1,0:T(2,*)};",
    ),
];

fn snapshot_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

#[test]
fn expansion_snapshots() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    let dir = snapshot_dir();
    let mut failures = Vec::new();
    for (name, src) in SNAPSHOTS {
        let mut text = String::from("// layout! {\n");
        for line in src.lines() {
            text.push_str(&format!("//     {}\n", line.trim()));
        }
        text.push_str(&format!("// }}\n\n{}", expand_pretty(src)));
        let path = dir.join(format!("{name}.txt"));
        if update {
            std::fs::create_dir_all(&dir).expect("snapshot dir");
            std::fs::write(&path, &text).expect("write snapshot");
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(stored) if stored == text => {}
            Ok(stored) => {
                let line = stored
                    .lines()
                    .zip(text.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(stored.lines().count().min(text.lines().count()));
                failures.push(format!(
                    "{name}: expansion differs from {} at line {}:\n  stored: {:?}\n  now:    {:?}",
                    path.display(),
                    line + 1,
                    stored.lines().nth(line).unwrap_or("<end>"),
                    text.lines().nth(line).unwrap_or("<end>"),
                ));
            }
            Err(e) => failures.push(format!("{name}: {}: {e}", path.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(rerun with UPDATE_SNAPSHOTS=1 to accept the new expansions)",
        failures.join("\n")
    );
}

#[test]
fn snapshots_are_deterministic() {
    for (_, src) in SNAPSHOTS {
        assert_eq!(expand_pretty(src), expand_pretty(src), "{src}");
    }
}

#[test]
fn pretty_keeps_every_token() {
    // The layout only adds whitespace: stripping it gives the same text as
    // proc_macro2's own printing, stripped.
    for (_, src) in SNAPSHOTS {
        let strip = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        assert_eq!(strip(&expand_pretty(src)), strip(&expand_str(src)), "{src}");
    }
}

/// Every string XLA (as adjusted by docs/decisions.md) rejects, fed to the macro
/// both as a string literal and, where Rust can tokenize it, as tokens: the
/// expansion must be a compile error (never a panic, never silent success).
#[test]
fn every_rejected_vector_is_a_compile_error() {
    let Some(data) = xla_vectors() else {
        return;
    };
    let mut checked = 0;
    for line in data.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        let ok = v["ok"].as_bool().expect("ok");
        let input = v["input"].as_str().expect("input").to_string();
        let literal = format!("{input:?}");
        let out = expand_str(&literal);
        let is_array = layout_core::parse_array(&input).is_ok();
        assert_eq!(
            out.contains("compile_error"),
            !(ok && is_array),
            "{input}: {out}"
        );
        // Rust's tokenizer drops comments (nested ones included) and takes
        // more characters as whitespace than XLA: compare the rest.
        let rust_neutral = !input.contains('/')
            && input
                .chars()
                .all(|c| !c.is_whitespace() || matches!(c, ' ' | '\t' | '\n' | '\r'));
        if !rust_neutral {
            checked += 1;
            continue;
        }
        if let Ok(tokens) = input.parse::<proc_macro2::TokenStream>() {
            if !tokens.is_empty() {
                if let Ok(parsed) = syn::parse2::<Input>(tokens) {
                    let out = expand(parsed).to_string();
                    if !ok {
                        assert!(out.contains("compile_error"), "{input}: {out}");
                    }
                }
            }
        }
        checked += 1;
    }
    assert!(checked > 5000);
}

#[test]
fn list_entries_that_are_not_sizes_name_the_option_value_and_rule() {
    for (entry, shown) in [
        ("-1", "`-1`"),
        ("3.5", "`3.5`"),
        ("x", "`x`"),
        ("18446744073709551616", "`18446744073709551616`"),
        ("3i32", "`3i32`"),
        ("\"3\"", "`\"3\"`"),
    ] {
        let src = format!("f32[2, 3], padded = [{entry}, 5]");
        let tokens: TokenStream = src.parse().unwrap();
        let err = syn::parse2::<Input>(tokens).err().unwrap().to_string();
        assert_eq!(
            err,
            format!(
                "option `padded`: {shown} is not a size; each entry is a whole number of elements from 0 to 18446744073709551615, e.g. `padded = [3, 5]`"
            ),
            "{entry}"
        );
    }
    // Sizes, with or without an unsigned suffix, are fine.
    let tokens: TokenStream = "f32[2, 3], padded = [3u64, 5]".parse().unwrap();
    assert!(syn::parse2::<Input>(tokens).is_ok());
}

#[test]
fn generated_code_names_primitives_and_traits_by_absolute_path() {
    for src in ["type A = f32[3,5]{1,0:T(2,2)};", "type D = f32[?,5]{1,0};"] {
        let out = expand_str(src);
        // Every `usize` is `::core::primitive::usize` (a caller's `type
        // usize = u8;` cannot reach it), and the same for the others.
        for (bare, absolute) in [
            ("usize", ":: core :: primitive :: usize"),
            ("u8", ":: core :: primitive :: u8"),
            ("u64", ":: core :: primitive :: u64"),
            ("str", ":: core :: primitive :: str"),
        ] {
            let stray = out
                .match_indices(bare)
                .filter(|(i, _)| {
                    let before = &out[..*i];
                    let word_start = !before.ends_with(|c: char| c.is_alphanumeric() || c == '_');
                    let after = &out[i + bare.len()..];
                    let word_end = !after.starts_with(|c: char| c.is_alphanumeric() || c == '_');
                    word_start && word_end && !before.ends_with(":: core :: primitive :: ")
                })
                .count();
            // Only in doc text and messages, never as a type.
            let in_text = out.matches(&format!("{bare} can address")).count()
                + out.matches(&format!("in `{bare}`")).count();
            assert_eq!(stray, in_text, "{bare} in {out}");
            let _ = absolute;
        }
        assert!(
            out.contains("derive (:: core :: clone :: Clone , :: core :: marker :: Copy"),
            "{out}"
        );
    }
}

#[test]
fn user_derives_win() {
    let out = expand_str("#[derive(Debug, std::hash::Hash)] type A = f32[3];");
    assert!(!out.contains(":: core :: fmt :: Debug"), "{out}");
    assert!(!out.contains(":: core :: hash :: Hash"), "{out}");
    assert!(out.contains(":: core :: clone :: Clone"), "{out}");
    // Under a condition: derived here under the opposite one.
    let out = expand_str("#[cfg_attr(feature = \"x\", derive(Debug))] type A = f32[3];");
    assert!(
        out.contains(
            "# [cfg_attr (not (any (all (feature = \"x\"))) , derive (:: core :: fmt :: Debug))]"
        ),
        "{out}"
    );
    // Nested conditions are all needed.
    let out = expand_str("#[cfg_attr(a, cfg_attr(b, derive(Clone, Copy)))] type D = f32[?];");
    assert!(
        out.contains("# [cfg_attr (not (any (all (a , b))) , derive (:: core :: clone :: Clone))]"),
        "{out}"
    );
}
