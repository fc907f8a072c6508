//! Fuzz target for `layout scan`: the HLO reader, the report model and both
//! renderers on arbitrary bytes, written to memory.
//!
//! Besides never panicking:
//! - every JSON line parses, is an object with a `kind`, and the last one
//!   is the `totals` record;
//! - the totals agree with the records: instruction and computation
//!   records, shape objects, shape objects with an error (each shape is
//!   listed once in JSON), and the sum of the `found` counters;
//! - every shape object's `span` lies inside the input and its `shape` is
//!   that byte range's text;
//! - the table scan counts the same parse failures as the JSON scan.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use xla_layout_cli::output::Output;
use xla_layout_cli::scan::scan;

/// Runs one scan into memory; the failure count and the bytes written.
fn run(src: &[u8], json: bool) -> (u64, Vec<u8>) {
    let mut buf = Vec::new();
    let mut out = Output::new(&mut buf);
    let errors = scan(src, json, &mut out);
    assert!(!out.stopped(), "writing to memory failed");
    drop(out);
    (errors, buf)
}

/// Shape objects found in a record: (count, with an error).
#[derive(Default)]
struct Shapes {
    count: u64,
    errors: u64,
}

/// Checks every shape object inside `v` against the input.
fn visit(v: &Value, src: &[u8], shapes: &mut Shapes) {
    match v {
        Value::Object(map) => {
            if let (Some(shape), Some(span)) = (map.get("shape"), map.get("span")) {
                let span = span.as_array().expect("span is an array");
                assert_eq!(span.len(), 2, "span {span:?}");
                let start = span[0].as_u64().expect("span start") as usize;
                let end = span[1].as_u64().expect("span end") as usize;
                assert!(
                    start <= end && end <= src.len(),
                    "span {start}..{end} outside the input"
                );
                let text = String::from_utf8_lossy(&src[start..end]);
                assert_eq!(
                    shape.as_str(),
                    Some(&*text),
                    "shape text vs span {start}..{end}"
                );
                assert!(map.contains_key("error"), "shape object without `error`");
                shapes.count += 1;
                if !map["error"].is_null() {
                    shapes.errors += 1;
                }
            }
            for (_, inner) in map {
                visit(inner, src, shapes);
            }
        }
        Value::Array(items) => {
            for inner in items {
                visit(inner, src, shapes);
            }
        }
        _ => {}
    }
}

fuzz_target!(|src: &[u8]| {
    let (errors, json) = run(src, true);
    let text = std::str::from_utf8(&json).expect("JSON output is UTF-8");
    assert!(text.ends_with('\n'), "JSON output ends without a newline");
    let mut shapes = Shapes::default();
    let (mut instructions, mut computations) = (0u64, 0u64);
    let mut totals = None;
    for line in text.lines() {
        assert!(totals.is_none(), "a record after the totals");
        let record: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => panic!("JSON line does not parse ({e}): {line}"),
        };
        let kind = record["kind"].as_str().expect("a record without a kind");
        match kind {
            "instruction" => instructions += 1,
            "computation" => computations += 1,
            "module" | "other" => {}
            "totals" => {
                totals = Some(record);
                continue;
            }
            other => panic!("unknown record kind {other:?}"),
        }
        visit(&record, src, &mut shapes);
    }
    let totals = totals.expect("no totals record");
    let number = |k: &str| totals[k].as_u64().unwrap_or_else(|| panic!("totals.{k}"));
    assert_eq!(number("instructions"), instructions, "instruction records");
    assert_eq!(number("computations"), computations, "computation records");
    assert_eq!(number("shapes"), shapes.count, "shape objects");
    assert_eq!(
        number("errors"),
        shapes.errors,
        "shape objects with an error"
    );
    assert_eq!(errors, shapes.errors, "scan's failure count");
    let found = totals["found"].as_object().expect("totals.found");
    let sum: u64 = found.values().map(|v| v.as_u64().expect("a count")).sum();
    assert_eq!(sum, shapes.count, "found counters vs shapes");

    let (table_errors, _table) = run(src, false);
    assert_eq!(
        table_errors, errors,
        "table and JSON count different failures"
    );
});
