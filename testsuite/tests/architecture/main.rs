//! Architecture fitness test: each crate's modules use only what the
//! allow-list in `layers.rs` gives them.
//!
//! It parses the sources (`syn`) and fails when
//! - a module of layout-core, layout-macros or layout-cli is in no layer,
//! - a module names, through any path, import or re-export, something
//!   defined in a module it may not use, or calls a method that only such
//!   a module adds to a type (`ArrayShape::offset`, added by `math`),
//! - anything but the rules layer makes an `ArrayShape`,
//! - a hand-written source file is longer than 1,000 lines,
//! - `docs/architecture.md`'s tables and the allow-list differ.
//!
//! `planted.rs` checks the checker on planted violations.

mod check;
mod layers;
mod planted;

use std::fs;
use std::path::{Path, PathBuf};

use check::Crate;
use layers::Layer;

/// Longest hand-written source file.
const MAX_LINES: usize = 1_000;

/// The repository root: this package is its `testsuite/`.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testsuite/ is in the repository")
        .to_path_buf()
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

/// Checks a crate's sources against its layers; returns the violations
/// (parse errors included).
fn check_crate(src: &Path, files: &[(PathBuf, String)], layers: &[Layer]) -> Vec<String> {
    let krate = Crate::new(src, files);
    let mut problems = krate.errors.clone();
    problems.extend(krate.check(layers));
    problems
}

fn assert_clean(dir: &str, layers: &[Layer]) {
    let src = root().join(dir).join("src");
    let problems = check_crate(&src, &read_all(&src), layers);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn layout_core_keeps_its_layers() {
    assert_clean("layout-core", layers::CORE);
}

#[test]
fn layout_macros_keeps_its_layers() {
    assert_clean("layout-macros", layers::MACROS);
}

#[test]
fn layout_cli_keeps_its_layers() {
    assert_clean("layout-cli", layers::CLI);
}

/// The `ArrayShape` makers of a crate: struct literals outside its own
/// module, `from_checked` calls outside the rules layer.
fn array_shape_makers(src: &Path, files: &[(PathBuf, String)]) -> Vec<String> {
    Crate::new(src, files).makers(&["model", "array"], "ArrayShape", "from_checked", "rules")
}

#[test]
fn only_the_rules_layer_makes_array_shapes() {
    let src = root().join("layout-core/src");
    let makers = array_shape_makers(&src, &read_all(&src));
    assert!(
        makers.is_empty(),
        "ArrayShape made outside the rules layer: {makers:#?}"
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
        "testsuite",
        "examples",
    ] {
        // A directory that moved would be read as empty: it must be there.
        assert!(root().join(dir).is_dir(), "{dir}/ is not in the repository");
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

/// The rows of the table under `## {section}` in `docs/architecture.md`:
/// each module and the modules it may use, in order ("nothing" is none,
/// "everything above" every module before it).
fn doc_table(doc: &str, section: &str) -> Vec<(String, Vec<String>)> {
    let heading = format!("## {section}\n");
    let start = doc.find(&heading).expect("the section") + heading.len();
    let body = &doc[start..];
    let body = &body[..body.find("\n## ").unwrap_or(body.len())];
    let rows: Vec<Vec<String>> = body
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().replace('`', ""))
                .collect()
        })
        .collect();
    let header = &rows[0];
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let (module, may) = (col("module"), col("may use"));
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for row in rows.iter().skip(2) {
        let uses = match row[may].as_str() {
            "nothing" => Vec::new(),
            "everything above" => out.iter().map(|(m, _)| m.clone()).collect(),
            list => list.split(',').map(|s| s.trim().to_string()).collect(),
        };
        out.push((row[module].clone(), uses));
    }
    out
}

#[test]
fn the_docs_tables_are_the_allow_lists() {
    let doc = fs::read_to_string(root().join("docs/architecture.md")).expect("docs");
    for (section, layers) in [
        ("layout-core", layers::CORE),
        ("layout-macros", layers::MACROS),
        ("layout-cli", layers::CLI),
    ] {
        let want: Vec<(String, Vec<String>)> = layers
            .iter()
            .map(|(m, may)| (m.to_string(), may.iter().map(|s| s.to_string()).collect()))
            .collect();
        assert_eq!(
            doc_table(&doc, section),
            want,
            "docs/architecture.md's {section} table and testsuite/tests/architecture/layers.rs differ"
        );
    }
}
