//! The machine-readable commands: `check` and `offsets` (JSON out).

use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

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

pub fn check() -> ExitCode {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("layout check: cannot read stdin: {e}");
                return ExitCode::FAILURE;
            }
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if writeln!(out, "{}", check_line(&line)).is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn fail(message: impl Into<String>) -> ExitCode {
    println!("{}", json!({"error": message.into()}));
    ExitCode::FAILURE
}

pub fn describe(e: &Error, text: &str) -> String {
    let span = e.span();
    if span.end > span.start && (span.end as usize) <= text.len() {
        format!("{e} (at bytes {}..{})", span.start, span.end)
    } else {
        e.to_string()
    }
}

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
                    [d as i64, 0, 0],
                )
            })
        })
        .collect()
}

pub fn offsets(text: &str, index: Option<&str>) -> ExitCode {
    let shape = match parse_array(text) {
        Ok(s) => s,
        Err(e) => return fail(describe(&e, text)),
    };
    let canonical = shape.to_string();
    if let Some(index) = index {
        let index = match parse_index(index) {
            Ok(i) => i,
            Err(e) => return fail(e),
        };
        return match shape.offset(&index) {
            Ok(offset) => {
                println!(
                    "{}",
                    json!({"canonical": canonical, "index": index, "offset": offset})
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(describe(&e, text)),
        };
    }
    let dims = match layout_dims(&shape) {
        Ok(d) => d,
        Err(e) => return fail(describe(&e, text)),
    };
    let sizes = shape
        .element_count()
        .and_then(|n| Ok((n, shape.allocated_elements()?, shape.size_in_bytes()?)));
    let (count, allocated, bytes) = match sizes {
        Ok(v) => v,
        Err(e) => return fail(describe(&e, text)),
    };
    if count > MAX_LISTED_ELEMENTS {
        return fail(format!(
            "the array has {count} elements; `layout offsets` lists at most {MAX_LISTED_ELEMENTS} (use --index)"
        ));
    }
    let mut list = Vec::with_capacity(count as usize);
    let mut failure = None;
    shape.for_each_index(|i| match shape.offset(i) {
        Ok(o) => list.push(o),
        Err(e) => failure = Some(e),
    });
    if let Some(e) = failure {
        return fail(describe(&e, text));
    }
    println!(
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
