//! The machine-readable commands: `check` and `offsets` (JSON out).
//!
//! Uses: [`crate::output`], [`crate::format`].

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use crate::format::grouped;
use crate::output::{self, Output};

use layout_core::{parse, parse_array, ArrayShape, Error};
use serde_json::{json, Value};

/// Largest array `layout offsets` lists in full.
const MAX_LISTED_ELEMENTS: u64 = 1 << 22;

/// The JSON verdict for one input line.
fn check_line(line: &[u8]) -> Value {
    let input = String::from_utf8_lossy(line);
    let result = match std::str::from_utf8(line) {
        Ok(text) => parse(text)
            .map(|s| s.to_string())
            .map_err(|e| e.to_string()),
        Err(e) => Err(format!(
            "input is not valid UTF-8 (byte {})",
            e.valid_up_to()
        )),
    };
    match result {
        Ok(canonical) => json!({"input": input, "ok": true, "canonical": canonical, "error": null}),
        Err(error) => json!({"input": input, "ok": false, "canonical": null, "error": error}),
    }
}

/// Runs `layout check`: one verdict per line of stdin.
pub fn check() -> ExitCode {
    let mut out = output::stdout();
    let code = check_lines(&mut io::stdin().lock(), &mut out);
    out.finish("check", code)
}

fn check_lines(input: &mut impl BufRead, out: &mut Output<impl Write>) -> ExitCode {
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => return ExitCode::SUCCESS,
            Ok(_) => {}
            Err(e) => {
                output::warn(format_args!("layout check: cannot read stdin: {e}\n"));
                return ExitCode::FAILURE;
            }
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if writeln!(out, "{}", check_line(&line)).is_err() {
            // Kept by `out`; `finish` reports it.
            return ExitCode::SUCCESS;
        }
    }
}

/// Writes `{"error": message}` and returns the failure status.
fn fail(out: &mut Output<impl Write>, message: impl Into<String>) -> ExitCode {
    // A write error is kept by the `Output` behind `out`.
    let _ = writeln!(out, "{}", json!({"error": message.into()}));
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
        Err(e) => return fail(out, describe(&e, text)),
    };
    let canonical = shape.to_string();
    if let Some(index) = index {
        let index = match parse_index(index) {
            Ok(i) => i,
            Err(e) => return fail(out, e),
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
            Err(e) => fail(out, describe(&e, text)),
        };
    }
    let dims = match layout_dims(&shape) {
        Ok(d) => d,
        Err(e) => return fail(out, describe(&e, text)),
    };
    let sizes = shape
        .element_count()
        .and_then(|n| Ok((n, shape.allocated_elements()?, shape.size_in_bytes()?)));
    let (count, allocated, bytes) = match sizes {
        Ok(v) => v,
        Err(e) => return fail(out, describe(&e, text)),
    };
    if count > MAX_LISTED_ELEMENTS {
        return fail(
            out,
            format!(
                "the array has {} elements; `layout offsets` lists at most {} (use --index)",
                grouped(count),
                grouped(MAX_LISTED_ELEMENTS)
            ),
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
        return fail(out, describe(&e, text));
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
