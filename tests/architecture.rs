//! Architecture fitness test: the crates stay one-way pipelines.
//!
//! It reads the sources and fails when
//! - a module of layout-core, layout-macros or layout-cli is in no layer,
//! - a module names (`crate::x`) a module of a higher layer, or calls a
//!   function that only a higher layer defines (methods added to a type by
//!   a later layer, such as `ArrayShape::offset`, included),
//! - anything but the rules layer makes an `ArrayShape`,
//! - a hand-written source file is longer than 1,000 lines.
//!
//! The layers are listed below; `docs/architecture.md` explains them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// layout-core, in pipeline order: a module may use its own layer and the
/// ones before it.
const CORE_LAYERS: &[&str] = &["base", "model", "text", "rules", "plan", "math"];

/// layout-macros: close-name suggestions, then tokens -> valid shape ->
/// code.
const MACRO_LAYERS: &[&str] = &["suggest", "ast", "attrs", "valid", "codegen", "expand"];

/// layout-cli: output and number formatting, HLO and `.npy` reading, the
/// report model, renderers, then the commands.
const CLI_LAYERS: &[&str] = &[
    "format", "output", "people", "hlo", "npy", "report", "render", "machine", "scan", "explain",
    "draw", "relayout",
];

/// Longest hand-written source file.
const MAX_LINES: usize = 1_000;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !matches!(name, "target" | ".git" | "corpus" | "artifacts") {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The source with comments, string and character literals blanked out,
/// so that only code is searched.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.extend_from_slice(b"\"\"");
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            // A one-character literal such as 'x'; lifetimes are left alone.
            i += 3;
            out.extend_from_slice(b"' '");
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every module named as `crate::name`.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        if at > 0 && code[..at].ends_with(|c: char| is_ident(c) || c == '$') {
            continue;
        }
        let name: String = code[at + 7..]
            .chars()
            .take_while(|&c| is_ident(c))
            .collect();
        out.insert(name);
    }
    out
}

/// Names of the functions a file defines.
fn defined_fns(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("fn ") {
        if at > 0 && code[..at].ends_with(is_ident) {
            continue;
        }
        let name: String = code[at + 3..]
            .chars()
            .take_while(|&c| is_ident(c))
            .collect();
        if !name.is_empty() {
            out.insert(name);
        }
    }
    out
}

/// Names of the types a file defines (`struct X`, `enum X`, `trait X`).
fn defined_types(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for kw in ["struct ", "enum ", "trait "] {
        for (at, _) in code.match_indices(kw) {
            if at > 0 && code[..at].ends_with(is_ident) {
                continue;
            }
            let name: String = code[at + kw.len()..]
                .chars()
                .take_while(|&c| is_ident(c))
                .collect();
            out.insert(name);
        }
    }
    out
}

/// Inherent `impl Type { ... }` blocks: the type and the functions the
/// block defines.
fn inherent_impls(code: &str) -> Vec<(String, BTreeSet<String>)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("impl ") {
        if at > 0 && code[..at].ends_with(is_ident) {
            continue;
        }
        let rest = &code[at + 5..];
        let Some(open) = rest.find('{') else {
            continue;
        };
        let header = rest[..open].trim();
        // Generic impls and trait impls are not extensions of one type.
        if header.contains(" for ") || header.contains('<') || header.contains(';') {
            continue;
        }
        let mut depth = 0usize;
        let mut end = rest.len();
        for (i, c) in rest[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((header.to_string(), defined_fns(&rest[open..end])));
    }
    out
}

/// Names called as `.name(` or `::name(`.
fn called_fns(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let chars: Vec<char> = code.chars().collect();
    for i in 0..chars.len() {
        let after_sep = chars[i] == '.' || (chars[i] == ':' && i > 0 && chars[i - 1] == ':');
        if !after_sep {
            continue;
        }
        let name: String = chars[i + 1..]
            .iter()
            .take_while(|&&c| is_ident(c))
            .collect();
        let next = chars.get(i + 1 + name.chars().count());
        if !name.is_empty() && next == Some(&'(') {
            out.insert(name);
        }
    }
    out
}

/// The layer of a file: the first path component below `src/` (a file
/// `src/x.rs` or a folder `src/x/`). `lib.rs` and `main.rs` wire the
/// layers together and have none; `tests.rs` is a test module.
fn layer_of(src_dir: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src_dir).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.trim_end_matches(".rs");
    if matches!(name, "lib" | "main" | "tests") {
        return None;
    }
    Some(name.to_string())
}

/// A file's code, layer and what it uses.
struct Unit {
    file: PathBuf,
    layer: usize,
    code: String,
}

/// Checks one crate's layering; returns the violations.
fn check_layers(src_dir: &Path, layers: &[&str], files: &[(PathBuf, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut units = Vec::new();
    for (file, src) in files {
        let Some(module) = layer_of(src_dir, file) else {
            continue;
        };
        match layers.iter().position(|l| *l == module) {
            Some(layer) => units.push(Unit {
                file: file.clone(),
                layer,
                code: code_only(src),
            }),
            None => problems.push(format!(
                "{}: module `{module}` is in no layer (layers: {})",
                file.display(),
                layers.join(" -> ")
            )),
        }
    }
    // Where each type is defined, and the lowest layer defining each
    // function name.
    let mut type_layer: BTreeMap<String, usize> = BTreeMap::new();
    let mut lowest: BTreeMap<String, usize> = BTreeMap::new();
    for u in &units {
        for t in defined_types(&u.code) {
            type_layer.entry(t).or_insert(u.layer);
        }
        for name in defined_fns(&u.code) {
            let e = lowest.entry(name).or_insert(u.layer);
            *e = (*e).min(u.layer);
        }
    }
    // Methods a later layer adds to a type of an earlier one
    // (`impl ArrayShape { fn offset }` in math): name -> that later layer.
    let mut extensions: BTreeMap<String, usize> = BTreeMap::new();
    for u in &units {
        for (ty, fns) in inherent_impls(&u.code) {
            if type_layer.get(&ty).is_some_and(|&l| l < u.layer) {
                for f in fns {
                    let e = extensions.entry(f).or_insert(u.layer);
                    *e = (*e).min(u.layer);
                }
            }
        }
    }
    for u in &units {
        for name in crate_paths(&u.code) {
            if let Some(l) = layers.iter().position(|x| *x == name)
                && l > u.layer
            {
                problems.push(format!(
                    "{}: layer `{}` uses `crate::{name}`, a later layer",
                    u.file.display(),
                    layers[u.layer]
                ));
            }
        }
        for name in called_fns(&u.code) {
            let Some(&l) = extensions.get(&name) else {
                continue;
            };
            // A name some layer at or below this one defines may be that one.
            if lowest.get(&name).is_some_and(|&low| low <= u.layer) {
                continue;
            }
            {
                if l > u.layer {
                    problems.push(format!(
                        "{}: layer `{}` calls `{name}`, which the later layer `{}` adds",
                        u.file.display(),
                        layers[u.layer],
                        layers[l]
                    ));
                }
            }
        }
    }
    problems
}

fn read_all(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    files
        .into_iter()
        .map(|f| {
            let src = fs::read_to_string(&f).unwrap_or_default();
            (f, src)
        })
        .collect()
}

#[test]
fn layout_core_is_a_one_way_pipeline() {
    let src = root().join("layout-core/src");
    let problems = check_layers(&src, CORE_LAYERS, &read_all(&src));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn layout_macros_is_a_one_way_pipeline() {
    let src = root().join("layout-macros/src");
    let problems = check_layers(&src, MACRO_LAYERS, &read_all(&src));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn layout_cli_is_a_one_way_pipeline() {
    let src = root().join("layout-cli/src");
    let problems = check_layers(&src, CLI_LAYERS, &read_all(&src));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn only_the_rules_layer_makes_array_shapes() {
    let src = root().join("layout-core/src");
    let mut makers = Vec::new();
    for (file, text) in read_all(&src) {
        let code = code_only(&text);
        let layer = layer_of(&src, &file);
        let defines = code.contains("const fn from_checked(");
        if code.contains("from_checked(") && !defines && layer.as_deref() != Some("rules") {
            makers.push(file.display().to_string());
        }
        // Building the struct literally would bypass the rules too.
        let literal = code
            .match_indices("ArrayShape {")
            .any(|(at, m)| code[at + m.len()..].trim_start().starts_with("raw"));
        if literal && !defines {
            makers.push(format!("{} (struct literal)", file.display()));
        }
    }
    assert!(
        makers.is_empty(),
        "ArrayShape made outside the rules layer: {makers:?}"
    );
}

#[test]
fn no_hand_written_source_file_is_too_long() {
    let mut long = Vec::new();
    for dir in [
        "layout-core",
        "layout-macros",
        "layout-cli",
        "src",
        "tests",
        "benches",
        "examples",
    ] {
        for (file, text) in read_all(&root().join(dir)) {
            // Generated files say so on their first line.
            if text.starts_with("//! GENERATED") {
                continue;
            }
            let lines = text.lines().count();
            if lines > MAX_LINES {
                long.push(format!("{} has {lines} lines", file.display()));
            }
        }
    }
    assert!(long.is_empty(), "over {MAX_LINES} lines: {long:?}");
}

/// The checker itself: it must catch the shapes of violation it is for.
#[test]
fn the_checker_catches_upward_references_and_unknown_modules() {
    let dir = Path::new("src");
    let files = vec![
        // A model file naming the rules layer (the old `shape` -> `validate`
        // circle).
        (
            dir.join("model/array.rs"),
            "use crate::rules::validate;\nfn f() {}".to_string(),
        ),
        // A base file calling a method only the math layer defines.
        (
            dir.join("base/error.rs"),
            "fn g(s: &S) -> u64 { s.offset_in_math(&[0]) }".to_string(),
        ),
        (dir.join("model/array.rs"), "pub struct S;".to_string()),
        (
            dir.join("math/offsets.rs"),
            "impl S { pub fn offset_in_math(&self, i: &[u64]) -> u64 { 0 } }".to_string(),
        ),
        // A flat module outside the layers (like the old `shape.rs`).
        (dir.join("shape.rs"), "fn h() {}".to_string()),
        // Comments and strings do not count.
        (
            dir.join("text/parse.rs"),
            "// crate::math\nconst S: &str = \"crate::plan\";\nfn k() {}".to_string(),
        ),
    ];
    let problems = check_layers(dir, CORE_LAYERS, &files);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems[0].contains("`shape` is in no layer"));
    assert!(problems.iter().any(|p| p.contains("uses `crate::rules`")));
    assert!(problems
        .iter()
        .any(|p| p.contains("calls `offset_in_math`")));
}
