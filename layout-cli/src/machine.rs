//! The machine-readable commands: `check` and `offsets` (JSON out).
//!
//! `layout check [SHAPE|-]...` writes one verdict per shape, in order,
//! `{"input", "ok", "canonical", "error"}`; `-`, or no shape at all, stands
//! for every line of stdin. It exits 1 when any shape fails (0 when all
//! pass). `layout offsets` writes one object, or `{"error"}` and exits 1.
//!
//! Every error is one object, [`error_json`]: `{"kind", "rule", "message",
//! "span"}`. The kinds are [`layout_core::ErrorKind`]'s names, plus the
//! tool's own: `InvalidUtf8` (rule `encoding`, span at the first bad
//! bytes), `InvalidIndex` (rule `index`, an `--index` that is not a list of
//! non-negative integers) and `TooManyElements` (rule `listing limit`, an
//! array too large to list in full).
//!
//! Uses: [`crate::output`], [`crate::format`].

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use crate::format::grouped;
use crate::output::{self, Output};

use layout_core::{parse, parse_array, ArrayShape, Error, Span};
use serde_json::{json, Value};

/// Largest array `layout offsets` lists in full.
const MAX_LISTED_ELEMENTS: u64 = 1 << 22;

/// An error as JSON: `{"kind", "rule", "message", "span"}`.
///
/// `kind` is the [`layout_core::ErrorKind`] name (`MinorToMajorOutOfRange`),
/// `rule` the rule group it breaks ([`Error::rule`], the names of
/// `docs/rules.md`), `message` the error's text, and `span` the bytes of
/// the input at fault, `{"start", "end"}`, or `null` when the error points
/// at no text (an index out of bounds). `text` is the parsed input: a span
/// outside it is `null` too.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::parse;
/// use xla_layout_cli::machine::error_json;
/// let e = parse("f32[2,3]{2,0}").unwrap_err();
/// assert_eq!(
///     error_json(&e, "f32[2,3]{2,0}").to_string(),
///     concat!(
///         r#"{"kind":"MinorToMajorOutOfRange","rule":"minor_to_major","#,
///         r#""message":"minor_to_major entry 2 is out of range for rank 2 (entries must be 0..=1)","#,
///         r#""span":{"start":9,"end":10}}"#
///     )
/// );
/// ```
pub fn error_json(e: &Error, text: &str) -> Value {
    let span = e.span();
    let span = if span == Span::NONE || span.end < span.start || span.end as usize > text.len() {
        None
    } else {
        Some((span.start as usize, span.end as usize))
    };
    cli_error(&format!("{:?}", e.kind()), e.rule(), &e.to_string(), span)
}

/// An error of the tool itself (not of [`layout_core`]) in the structure
/// of [`error_json`]: `kind`, `rule`, `message`, and `span` as byte
/// numbers into the input, if any.
fn cli_error(kind: &str, rule: &str, message: &str, span: Option<(usize, usize)>) -> Value {
    let span = match span {
        Some((start, end)) => json!({"start": start, "end": end}),
        None => Value::Null,
    };
    json!({"kind": kind, "rule": rule, "message": message, "span": span})
}

/// The JSON verdict for one shape's bytes, and whether it passed.
fn verdict(line: &[u8]) -> (Value, bool) {
    let input = String::from_utf8_lossy(line);
    let result = match std::str::from_utf8(line) {
        Ok(text) => parse(text)
            .map(|s| s.to_string())
            .map_err(|e| error_json(&e, text)),
        Err(e) => {
            let start = e.valid_up_to();
            let end = e
                .error_len()
                .map_or(line.len(), |n| start.saturating_add(n));
            Err(cli_error(
                "InvalidUtf8",
                "encoding",
                &format!("input is not valid UTF-8 (byte {start})"),
                Some((start, end)),
            ))
        }
    };
    match result {
        Ok(canonical) => (
            json!({"input": input, "ok": true, "canonical": canonical, "error": null}),
            true,
        ),
        Err(error) => (
            json!({"input": input, "ok": false, "canonical": null, "error": error}),
            false,
        ),
    }
}

/// Runs `layout check`: one verdict per shape in `shapes`, in order, where
/// `-` (or no shapes at all) stands for every line of stdin. Exit status 1
/// when any shape fails.
pub fn check(shapes: &[String]) -> ExitCode {
    let mut out = output::stdout();
    let code = check_all(shapes, &mut io::stdin().lock(), &mut out);
    out.finish("check", code)
}

fn check_all(
    shapes: &[String],
    stdin: &mut impl BufRead,
    out: &mut Output<impl Write>,
) -> ExitCode {
    let mut tally = Tally::default();
    let all_of_stdin = [String::from("-")];
    let shapes = if shapes.is_empty() {
        &all_of_stdin[..]
    } else {
        shapes
    };
    for shape in shapes {
        if out.stopped() {
            break;
        }
        if shape == "-" {
            if check_lines(stdin, out, &mut tally).is_err() {
                return ExitCode::FAILURE;
            }
        } else {
            tally.write(out, shape.as_bytes());
        }
    }
    if tally.failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Whether any verdict so far failed.
#[derive(Default)]
struct Tally {
    failed: bool,
}

impl Tally {
    /// Writes the verdict on `shape` (a write error is kept by `out`).
    fn write(&mut self, out: &mut Output<impl Write>, shape: &[u8]) {
        let (v, ok) = verdict(shape);
        self.failed |= !ok;
        let _ = writeln!(out, "{v}");
    }
}

/// Checks every line of `input`; `Err` when it cannot be read (reported
/// on stderr). Stops early, with `Ok`, once `out` refuses writes.
fn check_lines(
    input: &mut impl BufRead,
    out: &mut Output<impl Write>,
    tally: &mut Tally,
) -> Result<(), ()> {
    let mut line = Vec::new();
    while !out.stopped() {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) => {
                output::warn(format_args!("layout check: cannot read stdin: {e}\n"));
                return Err(());
            }
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        tally.write(out, &line);
    }
    Ok(())
}

/// Writes `{"error": error}` and returns the failure status.
fn fail(out: &mut Output<impl Write>, error: Value) -> ExitCode {
    // A write error is kept by the `Output` behind `out`.
    let _ = writeln!(out, "{}", json!({ "error": error }));
    ExitCode::FAILURE
}

/// An error with the bytes of `text` it is about.
pub fn describe(e: &Error, text: &str) -> String {
    let span = e.span();
    if span.end > span.start && (span.end as usize) <= text.len() {
        format!("{e} (at bytes {}..{})", span.start, span.end)
    } else {
        e.to_string()
    }
}

/// A comma-separated index (`3,0,13,300`); empty text is the empty index.
pub fn parse_index(text: &str) -> Result<Vec<u64>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|p| {
            p.trim()
                .parse::<u64>()
                .map_err(|_| format!("index entry `{p}` is not a non-negative integer"))
        })
        .collect()
}

fn layout_dims(shape: &ArrayShape) -> Result<Vec<u64>, Error> {
    (0..shape.rank())
        .map(|d| {
            shape.dims()[d].layout_size().ok_or_else(|| {
                Error::new(
                    layout_core::ErrorKind::UnboundedDimension,
                    shape.source_map().dim(d),
                    [i64::try_from(d).unwrap_or(i64::MAX), 0, 0],
                )
            })
        })
        .collect()
}

/// Runs `layout offsets`: every element's offset, or one element's.
pub fn offsets(text: &str, index: Option<&str>) -> ExitCode {
    let mut out = output::stdout();
    let code = offsets_to(&mut out, text, index);
    out.finish("offsets", code)
}

fn offsets_to(out: &mut Output<impl Write>, text: &str, index: Option<&str>) -> ExitCode {
    let shape = match parse_array(text) {
        Ok(s) => s,
        Err(e) => return fail(out, error_json(&e, text)),
    };
    let canonical = shape.to_string();
    if let Some(index) = index {
        let index = match parse_index(index) {
            Ok(i) => i,
            Err(e) => return fail(out, cli_error("InvalidIndex", "index", &e, None)),
        };
        return match shape.offset(&index) {
            Ok(offset) => {
                // A write error is kept by the `Output` behind `out`.
                let _ = writeln!(
                    out,
                    "{}",
                    json!({"canonical": canonical, "index": index, "offset": offset})
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(out, error_json(&e, text)),
        };
    }
    let dims = match layout_dims(&shape) {
        Ok(d) => d,
        Err(e) => return fail(out, error_json(&e, text)),
    };
    let sizes = shape
        .element_count()
        .and_then(|n| Ok((n, shape.allocated_elements()?, shape.size_in_bytes()?)));
    let (count, allocated, bytes) = match sizes {
        Ok(v) => v,
        Err(e) => return fail(out, error_json(&e, text)),
    };
    if count > MAX_LISTED_ELEMENTS {
        let message = format!(
            "the array has {} elements; `layout offsets` lists at most {} (use --index)",
            grouped(count),
            grouped(MAX_LISTED_ELEMENTS)
        );
        return fail(
            out,
            cli_error("TooManyElements", "listing limit", &message, None),
        );
    }
    // At most MAX_LISTED_ELEMENTS: fits in usize.
    let mut list = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    let mut failure = None;
    shape.for_each_index(|i| match shape.offset(i) {
        Ok(o) => list.push(o),
        Err(e) => failure = Some(e),
    });
    if let Some(e) = failure {
        return fail(out, error_json(&e, text));
    }
    // A write error is kept by the `Output` behind `out`.
    let _ = writeln!(
        out,
        "{}",
        json!({
            "canonical": canonical,
            "dims": dims,
            "allocated_elements": allocated,
            "size_in_bytes": bytes,
            "offsets": list,
        })
    );
    ExitCode::SUCCESS
}
