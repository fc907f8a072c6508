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
    // Four of the six lines fail.
    assert_eq!(out.status.code(), Some(1));
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
        json!({
            "kind": "MinorToMajorOutOfRange",
            "rule": "minor_to_major",
            "message": "minor_to_major entry 2 is out of range for rank 2 (entries must be 0..=1)",
            "span": {"start": 9, "end": 10},
        })
    );
    assert_eq!(lines[2]["input"], json!(""));
    assert_eq!(lines[2]["ok"], json!(false));
    assert_eq!(
        lines[3]["canonical"],
        json!("(f32[1]{0}, (f32[2]{0}, token[]), opaque[], f32[3]{0})")
    );
    assert_eq!(lines[4]["ok"], json!(false));
    assert_eq!(
        lines[4]["error"],
        json!({
            "kind": "InvalidUtf8",
            "rule": "encoding",
            "message": "input is not valid UTF-8 (byte 0)",
            "span": {"start": 0, "end": 1},
        })
    );
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
        let msg = v["error"]["message"]
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
    let data = include_str!("data/xla_vectors.jsonl");
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
    let all_pass = vectors.iter().all(|v| v["ok"] == json!(true));
    assert_eq!(out.status.success(), all_pass);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), vectors.len());
    for (got, want) in lines.iter().zip(&vectors) {
        assert_eq!(got["input"], want["input"]);
        assert_eq!(got["ok"], want["ok"], "{}", want["input"]);
        assert_eq!(got["canonical"], want["canonical"], "{}", want["input"]);
        assert_eq!(got["error"].is_null(), want["ok"].as_bool().unwrap());
    }
}

#[test]
fn check_exits_0_only_when_every_shape_passes() {
    let pass = layout(&["check"], b"f32[2]\n(s8[3], token[])\n");
    assert_eq!(pass.status.code(), Some(0));
    assert_eq!(json_lines(&pass).len(), 2);
    // One bad line among good ones, wherever it is.
    for input in [&b"f33[2]\nf32[2]\n"[..], b"f32[2]\nf32[2]{1}", b"\n"] {
        let out = layout(&["check"], input);
        assert_eq!(out.status.code(), Some(1), "{input:?}");
        assert!(out.stderr.is_empty());
    }
    // Nothing to check passes.
    assert_eq!(layout(&["check"], b"").status.code(), Some(0));
}

#[test]
fn check_takes_shapes_as_arguments_in_order() {
    // The arguments are checked and stdin is not read.
    let out = layout(&["check", "f32[2,3]{1,0}", "f33[2]"], b"s8[7]\n");
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["input"], json!("f32[2,3]{1,0}"));
    assert_eq!(lines[0]["ok"], json!(true));
    assert_eq!(lines[1]["input"], json!("f33[2]"));
    assert_eq!(
        lines[1]["error"],
        json!({
            "kind": "UnknownElementType",
            "rule": "element type",
            "message": "unknown element type",
            "span": {"start": 0, "end": 3},
        })
    );
    let out = layout(&["check", "f32[1]", "f32[3]{0}"], b"");
    assert_eq!(out.status.code(), Some(0));
    // `-` reads stdin where it stands.
    let out = layout(&["check", "f32[1]", "-", "f32[3]"], b"s8[7]\nu4[2]\n");
    assert_eq!(out.status.code(), Some(0));
    let inputs: Vec<Value> = json_lines(&out)
        .iter()
        .map(|l| l["input"].clone())
        .collect();
    assert_eq!(
        inputs,
        [
            json!("f32[1]"),
            json!("s8[7]"),
            json!("u4[2]"),
            json!("f32[3]")
        ]
    );
}

#[test]
fn check_errors_have_kind_rule_message_and_span() {
    let cases: &[&str] = &[
        "f32[2]{0:S(200)}",
        "f32[2,3]{1,0:T(2,*)}",
        "f32[2,3",
        "f32[-2]",
        "",
        "f32[2]{0:Q(1)}",
    ];
    let out = layout(&["check"], cases.join("\n").as_bytes());
    let lines = json_lines(&out);
    assert_eq!(lines.len(), cases.len());
    for (line, &text) in lines.iter().zip(cases) {
        // Derived independently: the library's own error for the text.
        let e = layout_core::parse(text).unwrap_err();
        let error = &line["error"];
        assert_eq!(error["kind"], json!(format!("{:?}", e.kind())), "{text}");
        assert_eq!(error["rule"], json!(e.rule()), "{text}");
        assert_eq!(error["message"], json!(e.to_string()), "{text}");
        let span = e.span();
        if span == layout_core::Span::NONE {
            assert_eq!(error["span"], Value::Null, "{text}");
        } else {
            assert_eq!(
                error["span"],
                json!({"start": span.start, "end": span.end}),
                "{text}"
            );
        }
        assert_eq!(error.as_object().unwrap().len(), 4);
    }
    // Spot checks against the text itself.
    assert_eq!(lines[0]["error"]["span"], json!({"start": 9, "end": 15}));
    assert_eq!(&cases[0][9..15], "S(200)");
    assert_eq!(lines[0]["error"]["rule"], json!("memory space S(n)"));
    assert_eq!(lines[1]["error"]["rule"], json!("tile"));
    assert_eq!(lines[4]["error"]["kind"], json!("Empty"));
    // Invalid UTF-8 in the middle: the span is the bad byte.
    let out = layout(&["check"], b"f32[\xff]");
    assert_eq!(
        json_lines(&out)[0]["error"]["span"],
        json!({"start": 4, "end": 5})
    );
}

#[test]
fn offsets_errors_have_the_same_structure() {
    let out = layout(&["offsets", "f32[2,3]{1,1}"], b"");
    assert_eq!(out.status.code(), Some(1));
    let e = &json_lines(&out)[0]["error"];
    assert_eq!(e["kind"], json!("MinorToMajorDuplicate"));
    assert_eq!(e["rule"], json!("minor_to_major"));
    assert!(e["span"]["start"].is_u64());
    let out = layout(&["offsets", "f32[2,3]", "--index", "5,0"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        json_lines(&out)[0]["error"],
        json!({
            "kind": "IndexOutOfBounds",
            "rule": "index",
            "message": "index 5 is out of bounds for dimension 0 of size 2",
            "span": null,
        })
    );
    let out = layout(&["offsets", "f32[2,3]", "--index", "1,x"], b"");
    assert_eq!(json_lines(&out)[0]["error"]["kind"], json!("InvalidIndex"));
    let out = layout(&["offsets", "f32[4096,4096]"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        json_lines(&out)[0]["error"]["kind"],
        json!("TooManyElements")
    );
}
