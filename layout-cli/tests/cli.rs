//! The machine-readable commands, run as a user would.

mod support;
use support::layout;

use std::process::Output;

use serde_json::{json, Value};

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn check_answers_every_line_in_order() {
    let input = b"f32[123,456]\nf32[2,3]{2,0}\n\n(f32[1],(f32[2], token[]), opaque[], f32[3])\n\xff\xfe\nbf16[8]{0:T(8)(2,1)}";
    let out = layout(&["check"], input);
    assert!(out.status.success());
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 6);
    assert_eq!(
        lines[0],
        json!({"input": "f32[123,456]", "ok": true, "canonical": "f32[123,456]{1,0}", "error": null})
    );
    assert_eq!(lines[1]["ok"], json!(false));
    assert_eq!(lines[1]["canonical"], Value::Null);
    assert_eq!(
        lines[1]["error"],
        json!("minor_to_major entry 2 is out of range for rank 2 (entries must be 0..=1)")
    );
    assert_eq!(lines[2]["input"], json!(""));
    assert_eq!(lines[2]["ok"], json!(false));
    assert_eq!(
        lines[3]["canonical"],
        json!("(f32[1]{0}, (f32[2]{0}, token[]), opaque[], f32[3]{0})")
    );
    assert_eq!(lines[4]["ok"], json!(false));
    assert!(lines[4]["error"].as_str().unwrap().contains("UTF-8"));
    assert_eq!(lines[5]["canonical"], json!("bf16[8]{0:T(8)(2,1)}"));
}

#[test]
fn check_key_order_is_input_ok_canonical_error() {
    let out = layout(&["check"], b"f32[]\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "{\"input\":\"f32[]\",\"ok\":true,\"canonical\":\"f32[]\",\"error\":null}\n"
    );
}

#[test]
fn offsets_lists_every_element() {
    let out = layout(&["offsets", "f32[3,5]{1,0:T(2,2)}"], b"");
    assert!(out.status.success());
    let v = &json_lines(&out)[0];
    assert_eq!(
        *v,
        json!({
            "canonical": "f32[3,5]{1,0:T(2,2)}",
            "dims": [3, 5],
            "allocated_elements": 24,
            "size_in_bytes": 96,
            "offsets": [0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13, 16, 17, 20],
        })
    );
}

#[test]
fn offsets_bounded_dims_count_at_their_bound() {
    let out = layout(&["offsets", "s8[<=2,3]{0,1}"], b"");
    let v = &json_lines(&out)[0];
    assert_eq!(v["dims"], json!([2, 3]));
    assert_eq!(v["offsets"], json!([0, 2, 4, 1, 3, 5]));
}

#[test]
fn offsets_of_one_index_for_any_size() {
    let out = layout(
        &[
            "offsets",
            "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
            "--index",
            "3,0,13,300",
        ],
        b"",
    );
    assert!(out.status.success());
    assert_eq!(
        json_lines(&out)[0],
        json!({
            "canonical": "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
            "index": [3, 0, 13, 300],
            "offset": 63_048_281u64,
        })
    );
}

#[test]
fn offsets_errors_are_json_with_status_1() {
    for (args, needle) in [
        (vec!["offsets", "f32[2,3]{1,1}"], "twice"),
        (vec!["offsets", "f32[?,3]"], "unbounded"),
        (vec!["offsets", "f32[4096,4096]"], "lists at most"),
        (
            vec!["offsets", "f32[2,3]", "--index", "2,0"],
            "out of bounds",
        ),
        (
            vec!["offsets", "f32[2,3]", "--index", "1"],
            "index has 1 entry",
        ),
        (
            vec!["offsets", "f32[2,3]", "--index", "-1,0"],
            "not a non-negative integer",
        ),
        (vec!["offsets", "(f32[2])"], "array"),
    ] {
        let out = layout(&args, b"");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let v = &json_lines(&out)[0];
        let msg = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{args:?}: {v}"));
        assert!(msg.contains(needle), "{args:?}: {msg}");
    }
}

#[test]
fn no_arguments_explains_the_seed_example() {
    let out = layout(&[], b"");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}"));
    assert!(text.contains("335,544,320 bytes (320.0 MiB)"));
    assert!(text.contains("element offset 63,048,281 (byte 126,096,562)"));
}

#[test]
fn check_agrees_with_the_xla_vectors() {
    let data = include_str!("../../tests/data/xla_vectors.jsonl");
    let vectors: Vec<Value> = data
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut input = String::new();
    for v in &vectors {
        input.push_str(v["input"].as_str().unwrap());
        input.push('\n');
    }
    let out = layout(&["check"], input.as_bytes());
    assert!(out.status.success());
    let lines = json_lines(&out);
    assert_eq!(lines.len(), vectors.len());
    for (got, want) in lines.iter().zip(&vectors) {
        assert_eq!(got["input"], want["input"]);
        assert_eq!(got["ok"], want["ok"], "{}", want["input"]);
        assert_eq!(got["canonical"], want["canonical"], "{}", want["input"]);
        assert_eq!(got["error"].is_null(), want["ok"].as_bool().unwrap());
    }
}
