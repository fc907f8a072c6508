//! The `layout` binary end to end on the shapes of the real HLO dumps in
//! `tests/data/hlo/` (see its README.md): every array shape with a layout
//! found in them is explained and checked, and a broken copy of one gets a
//! caret diagnostic under the right token, in colour only when asked for.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

mod support;

use serde_json::Value;

/// The real dumps (compiler output, not written for this project).
const DUMPS: [&str; 3] = [
    "jax_triton_add_kernel.hlo",
    "torchxla_pp2_rank1.hlo",
    "torchxla_bert_dp5.hlo",
];

fn dump(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hlo")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `type[dims]{layout}` in `text`, in order of first appearance: a
/// plain scan for `]{`, back to the `[` and the element type before it,
/// forward to the closing `}`.
fn shapes_in(text: &str) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut shapes = Vec::new();
    for (at, _) in text.match_indices("]{") {
        let Some(open) = text[..at].rfind('[') else {
            continue;
        };
        let dims = &text[open + 1..at];
        if !dims.chars().all(|c| c.is_ascii_digit() || c == ',') {
            continue;
        }
        let start = text[..open]
            .rfind(|c: char| !c.is_ascii_alphanumeric())
            .map_or(0, |p| p + 1);
        let name = &text[start..open];
        if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
            continue;
        }
        let Some(close) = text[at..].find('}') else {
            continue;
        };
        let shape = &text[start..at + close + 1];
        if seen.insert(shape.to_string()) {
            shapes.push(shape.to_string());
        }
    }
    shapes
}

/// The shapes of every real dump, each once.
fn all_shapes() -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut shapes = Vec::new();
    for name in DUMPS {
        let found = shapes_in(&dump(name));
        assert!(!found.is_empty(), "no shapes found in {name}");
        for s in found {
            if seen.insert(s.clone()) {
                shapes.push(s);
            }
        }
    }
    shapes
}

/// An untiled array shape taken apart by hand: element type, dims,
/// minor_to_major. `None` for a tiled or otherwise decorated layout.
fn untiled(shape: &str) -> Option<(&str, Vec<u64>, Vec<usize>)> {
    let (name, rest) = shape.split_once('[')?;
    let (dims, rest) = rest.split_once("]{")?;
    let m2m = rest.strip_suffix('}')?;
    if m2m.contains(':') {
        return None;
    }
    let numbers = |s: &str| -> Option<Vec<u64>> {
        if s.is_empty() {
            return Some(Vec::new());
        }
        s.split(',').map(|n| n.parse().ok()).collect()
    };
    let dims = numbers(dims)?;
    let m2m = numbers(m2m)?
        .into_iter()
        .map(|d| usize::try_from(d).ok())
        .collect::<Option<Vec<_>>>()?;
    Some((name, dims, m2m))
}

/// Bytes per element of the element types the dumps use.
fn element_bytes(name: &str) -> Option<u64> {
    Some(match name {
        "pred" | "s8" | "u8" => 1,
        "bf16" | "f16" | "s16" | "u16" => 2,
        "f32" | "s32" | "u32" => 4,
        "f64" | "s64" | "u64" => 8,
        _ => return None,
    })
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn list(values: &[u64]) -> String {
    let parts: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("[{}]", parts.join(", "))
}

fn field<'a>(text: &'a str, label: &str) -> Option<&'a str> {
    text.lines()
        .find_map(|l| l.strip_prefix(label))
        .filter(|rest| rest.starts_with(' '))
        .map(str::trim)
}

/// `layout args…` with the colour variables of the caller removed and
/// `env` set instead.
fn layout_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_layout"));
    cmd.args(args)
        .stdin(Stdio::null())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("TERM");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

#[test]
fn the_dumps_yield_shapes_of_every_kind() {
    let shapes = all_shapes();
    assert!(shapes.len() > 50, "only {} shapes", shapes.len());
    assert!(shapes.contains(&"f32[1024]{0}".to_string()));
    // Not only row-major ones.
    assert!(shapes.iter().any(|s| s.ends_with("{0,1}")));
    for ty in ["f32", "bf16", "pred", "s64", "u32"] {
        assert!(
            shapes.iter().any(|s| s.starts_with(&format!("{ty}["))),
            "no {ty}"
        );
    }
}

#[test]
fn check_accepts_every_dump_shape_as_written() {
    let shapes = all_shapes();
    let input = shapes.join("\n");
    let out = support::layout(&["check"], input.as_bytes());
    assert!(out.status.success(), "{out:?}");
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), shapes.len());
    for (shape, answer) in shapes.iter().zip(&answers) {
        assert_eq!(answer["input"], shape.as_str());
        assert_eq!(answer["ok"], true, "{answer}");
        assert!(answer["error"].is_null(), "{answer}");
        // XLA prints layouts in their canonical form.
        assert_eq!(answer["canonical"], shape.as_str(), "{answer}");
    }
}

#[test]
fn explain_agrees_with_the_dump_shapes_worked_by_hand() {
    let mut worked = 0;
    for shape in all_shapes() {
        let out = layout_with(&["explain", &shape], &[]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{shape}: {:?}", out.stderr);
        assert!(out.stderr.is_empty(), "{shape}");
        assert_eq!(field(&text, "shape"), Some(shape.as_str()), "{text}");
        let Some((name, dims, m2m)) = untiled(&shape) else {
            continue;
        };
        if dims.is_empty() {
            continue;
        }
        // Major to minor: minor_to_major read backwards.
        let physical: Vec<u64> = m2m.iter().rev().map(|&d| dims[d]).collect();
        assert_eq!(
            field(&text, "physical"),
            Some(format!("{} (major to minor)", list(&physical)).as_str()),
            "{shape}"
        );
        // The most minor dimension steps by 1, each next one by the
        // product of the sizes more minor than it.
        let mut strides = vec![0; dims.len()];
        let mut step = 1;
        for &d in &m2m {
            strides[d] = step;
            step *= dims[d];
        }
        assert_eq!(
            field(&text, "strides"),
            Some(format!("{} elements per step of each dimension", list(&strides)).as_str()),
            "{shape}"
        );
        let elements: u64 = dims.iter().product();
        assert_eq!(
            field(&text, "elements"),
            Some(grouped(elements).as_str()),
            "{shape}"
        );
        if let Some(bytes) = element_bytes(name) {
            let size = field(&text, "size").unwrap_or_default();
            assert!(
                size.starts_with(&format!("{} bytes", grouped(elements * bytes))),
                "{shape}: {size}"
            );
        }
        worked += 1;
    }
    assert!(worked > 50, "only {worked} shapes worked by hand");
}

/// A dump shape of rank 3 or more, with its last minor_to_major entry
/// replaced by its first (a dimension listed twice), and the byte where
/// the replaced entry starts.
fn broken_dump_shape() -> (String, String, usize) {
    let shape = shapes_in(&dump("torchxla_bert_dp5.hlo"))
        .into_iter()
        .find(|s| untiled(s).is_some_and(|(_, dims, _)| dims.len() >= 3))
        .expect("a shape of rank 3 or more in the bert dump");
    let comma = shape.rfind(',').unwrap();
    let first = &shape[shape.find('{').unwrap() + 1..];
    let first = &first[..first.find(',').unwrap()];
    let broken = format!("{}{first}}}", &shape[..=comma]);
    (shape, broken, comma + 1)
}

/// The two lines that show the input and the caret under it, and the help.
fn assert_caret(stderr: &str, input: &str, column: usize, width: usize) {
    let lines: Vec<&str> = stderr.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == format!("1 | {input}"))
        .unwrap_or_else(|| panic!("no input line in:\n{stderr}"));
    assert_eq!(
        lines[at + 1],
        format!("  | {}{}", " ".repeat(column), "^".repeat(width)),
        "\n{stderr}"
    );
}

#[test]
fn a_broken_dump_shape_gets_a_caret_under_the_duplicate() {
    let (shape, broken, column) = broken_dump_shape();
    let rank = untiled(&shape).unwrap().1.len();
    for command in ["explain", "draw"] {
        let out = layout_with(&[command, &broken], &[]);
        assert_eq!(out.status.code(), Some(1), "{command} {broken}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!err.contains('\u{1b}'), "colour codes in a pipe:\n{err}");
        let first = err.lines().next().unwrap();
        assert!(first.starts_with("error: minor_to_major lists dimension "));
        assert!(first.ends_with(&format!("twice (positions 0 and {})", rank - 1)));
        assert_caret(&err, &broken, column, 1);
        let row_major: Vec<String> = (0..rank).rev().map(|d| d.to_string()).collect();
        let help = format!(
            "  = help: minor_to_major lists every dimension number exactly once, most minor first; {{{}}} is row-major for rank {rank}",
            row_major.join(",")
        );
        assert!(err.lines().any(|l| l == help), "{err}");
    }
}

#[test]
fn a_misspelt_element_type_gets_carets_and_a_suggestion() {
    let shape = all_shapes()
        .into_iter()
        .find(|s| s.starts_with("bf16["))
        .unwrap();
    let broken = shape.replacen("bf16", "bf61", 1);
    let out = layout_with(&["explain", &broken], &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().next(), Some("error: unknown element type"));
    assert_caret(&err, &broken, 0, 4);
    assert!(
        err.lines().any(|l| l == "  = help: did you mean `bf16`?"),
        "{err}"
    );
}

/// `text` without its SGR colour codes (`ESC [ … m`).
fn without_colour(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\u{1b}[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after.find('m').expect("an unterminated colour code");
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn colour_only_when_forced_and_never_with_no_color() {
    let (_, broken, column) = broken_dump_shape();
    let stderr = |env: &[(&str, &str)]| {
        let out = layout_with(&["explain", &broken], env);
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stderr).unwrap()
    };
    let plain = stderr(&[]);
    assert!(!plain.contains('\u{1b}'));
    // Forced colour: escape codes, around the same text.
    let forced = stderr(&[("CLICOLOR_FORCE", "1")]);
    assert!(forced.contains("\u{1b}["), "{forced:?}");
    assert_ne!(forced, plain);
    assert_eq!(without_colour(&forced), plain);
    assert_caret(&without_colour(&forced), &broken, column, 1);
    // NO_COLOR wins even over forced colour.
    let no_color = stderr(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]);
    assert_eq!(no_color, plain);
}
