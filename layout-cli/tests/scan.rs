//! `layout scan`, run as a user would, on the dumps in tests/data/hlo/.

mod support;
use support::{data, layout, read, scan_json};

use serde_json::Value;

/// The real dumps (see tests/data/hlo/README.md).
const REAL: &[&str] = &[
    "jax_triton_add_kernel.hlo",
    "torchxla_bert_dp5.hlo",
    "torchxla_pp2_rank1.hlo",
];

/// Every shape object in the records, with its role, sorted by position.
fn shapes(records: &[Value]) -> Vec<(&'static str, Value)> {
    let mut all = Vec::new();
    for r in records {
        match r["kind"].as_str().unwrap() {
            "module" => {
                if let Some(l) = r["entry_computation_layout"].as_object() {
                    for p in l["parameters"].as_array().unwrap() {
                        all.push(("entry", p.clone()));
                    }
                    all.push(("entry", l["result"].clone()));
                }
                for a in r["attributes"].as_array().unwrap() {
                    all.push(("attribute", a.clone()));
                }
            }
            "computation" => {
                for p in r["parameters"].as_array().unwrap() {
                    all.push(("param", p.clone()));
                }
                if !r["result"].is_null() {
                    all.push(("param", r["result"].clone()));
                }
            }
            "instruction" => {
                all.push(("result", r.clone()));
                for o in r["operands"].as_array().unwrap() {
                    all.push(("operand", o.clone()));
                }
                for a in r["attributes"].as_array().unwrap() {
                    all.push(("attribute", a.clone()));
                }
            }
            "other" => {
                for s in r["shapes"].as_array().unwrap() {
                    all.push(("other", s.clone()));
                }
            }
            "totals" => {}
            k => panic!("unknown record kind {k}"),
        }
    }
    all.sort_by_key(|(_, s)| s["span"][0].as_u64().unwrap());
    all
}

fn span(s: &Value) -> (usize, usize) {
    (
        s["span"][0].as_u64().unwrap() as usize,
        s["span"][1].as_u64().unwrap() as usize,
    )
}

/// Every shape in handwritten.hlo, in text order, listed by hand.
const HANDWRITTEN_SHAPES: &[(&str, &str)] = &[
    // HloModule header: entry_computation_layout.
    ("entry", "f32[8,128]{1,0:T(8,128)}"),
    ("entry", "bf16[16,256]{1,0:T(8,128)(2,1)S(1)}"),
    ("entry", "s32[]{:T(128)S(5)}"),
    (
        "entry",
        "(f32[8,128]{1,0:T(8,128)}, /*index=1*/f32[4]{0:S(5)})",
    ),
    // %add_computation
    ("param", "f32[]"),
    ("param", "f32[]"),
    ("param", "f32[]"),
    ("result", "f32[]"),
    ("result", "f32[]"),
    ("result", "f32[]"),
    ("operand", "f32[]"),
    ("operand", "f32[]"),
    // %fused_computation
    ("result", "f32[8,128]{1,0:T(8,128)}"),
    ("result", "bf16[16,256]{1,0:T(8,128)(2,1)S(1)}"),
    ("result", "bf16[8,128]{1,0:T(8,128)(2,1)}"),
    ("operand", "bf16[16,256]{1,0:T(8,128)(2,1)S(1)}"),
    ("result", "f32[8,128]{1,0:T(8,128)}"),
    ("operand", "bf16[8,128]{1,0:T(8,128)(2,1)}"),
    ("result", "f32[8,128]{1,0:T(8,128)}"),
    ("operand", "f32[8,128]{1,0:T(8,128)}"),
    ("operand", "f32[8,128]{1,0:T(8,128)}"),
    // loop_body
    ("param", "(s32[], f32[4])"),
    ("param", "(s32[], f32[4])"),
    ("result", "(s32[], f32[4]{0})"),
    ("result", "s32[]"),
    ("result", "s32[]"),
    ("result", "s32[]"),
    ("result", "f32[4]{0}"),
    ("result", "(s32[], f32[4]{0})"),
    // loop_cond
    ("param", "(s32[], f32[4])"),
    ("param", "pred[]"),
    ("result", "(s32[], f32[4]{0})"),
    ("result", "s32[]"),
    ("result", "s32[]"),
    ("result", "pred[]"),
    // ENTRY %main.42
    ("param", "f32[8,128]"),
    ("param", "bf16[16,256]"),
    ("param", "s32[]"),
    ("param", "(f32[8,128], f32[4])"),
    ("result", "f32[8,128]{1,0:T(8,128)}"),
    ("result", "bf16[16,256]{1,0:T(8,128)(2,1)S(1)}"),
    ("result", "s32[]{:T(128)S(5)}"),
    ("result", "f32[8,128]{1,0:T(8,128)}"),
    ("operand", "f32[8,128]{1,0:T(8,128)}"),
    ("operand", "bf16[16,256]{1,0:T(8,128)(2,1)S(1)}"),
    ("result", "f32[128,8]{0,1:T(8,128)}"),
    ("operand", "f32[8,128]{1,0:T(8,128)}"),
    ("result", "f32[1,8,8,2]{3,2,1,0}"),
    ("result", "f32[]"),
    ("result", "f32[3,3,2,4]{3,2,1,0}"),
    ("operand", "f32[]"),
    ("result", "f32[1,8,8,4]{3,2,1,0}"),
    ("operand", "f32[1,8,8,2]{3,2,1,0}"),
    ("operand", "f32[3,3,2,4]{3,2,1,0}"),
    ("result", "f32[1]{0}"),
    ("operand", "f32[1,8,8,4]{3,2,1,0}"),
    ("operand", "f32[]"),
    // the nested to_apply computation
    ("result", "f32[]"),
    ("result", "f32[]"),
    ("result", "f32[]"),
    ("operand", "f32[]"),
    ("operand", "f32[]"),
    // back in ENTRY
    ("result", "f32[2,2]{1,0}"),
    ("result", "c64[]"),
    ("result", "s4[64,128]{1,0:T(64,128)(8,1)E(4)}"),
    ("result", "f32[<=16,4]{1,0}"),
    ("result", "f32[?,4]{1,0}"),
    (
        "result",
        "(f32[8,128]{1,0:T(8,128)S(1)}, f32[4]{0:S(5)}, token[])",
    ),
    ("operand", "f32[8,128]{1,0:T(8,128)}"),
    ("attribute", "f32[8,128]{1,0:T(8,128)}"),
    ("result", "f32[4]{0:S(5)}"),
    (
        "operand",
        "(f32[8,128]{1,0:T(8,128)S(1)}, f32[4]{0:S(5)}, token[])",
    ),
    ("result", "u8[1024]{0:S(3)}"),
    ("result", "b(f32[16]{0})"),
    ("result", "opaque[]"),
    ("result", "(s32[], f32[4]{0})"),
    ("operand", "s32[]"),
    ("operand", "f32[4]{0:S(5)}"),
    ("result", "(s32[], f32[4]{0})"),
    ("operand", "(s32[], f32[4]{0})"),
    (
        "result",
        "((f32[8,128]{1,0:T(8,128)}), f32[8,128]{1,0:T(8,128)S(1)}, u32[]{:S(2)})",
    ),
    ("operand", "f32[8,128]{1,0:T(8,128)}"),
    ("result", "f32[8,128]{1,0:T(8,128)S(1)}"),
    (
        "operand",
        "((f32[8,128]{1,0:T(8,128)}), f32[8,128]{1,0:T(8,128)S(1)}, u32[]{:S(2)})",
    ),
    ("result", "f32[8,128]{1,0:T(8,128)}"),
    ("operand", "f32[8,128]{1,0:T(8,128)S(1)}"),
    (
        "result",
        "(f32[1]{0}, f32[1]{0}, f32[1]{0}, f32[1]{0}, f32[1]{0}, /*index=5*/f32[1]{0})",
    ),
    ("operand", "f32[1]{0}"),
    ("operand", "f32[1]{0}"),
    ("operand", "f32[1]{0}"),
    ("operand", "f32[1]{0}"),
    ("operand", "f32[1]{0}"),
    ("operand", "f32[1]{0}"),
    (
        "result",
        "(f32[8,128]{1,0:T(8,128)}, /*index=1*/f32[4]{0:S(5)})",
    ),
    ("operand", "f32[8,128]{1,0:T(8,128)}"),
    ("operand", "f32[4]{0:S(5)}"),
];

/// Every instruction of handwritten.hlo, worked out by hand:
/// (computation, name, opcode, bytes (-1: unknown), memory space).
#[rustfmt::skip]
const HANDWRITTEN_INSTRUCTIONS: &[(&str, &str, &str, i64, &str)] = &[
    ("%add_computation", "%x", "parameter", 4, "0"),
    ("%add_computation", "%y", "parameter", 4, "0"),
    ("%add_computation", "%sum", "add", 4, "0"),
    ("%fused_computation", "%param_0", "parameter", 8 * 128 * 4, "0"),
    ("%fused_computation", "%param_1", "parameter", 16 * 256 * 2, "1"),
    ("%fused_computation", "%slice", "slice", 8 * 128 * 2, "0"),
    ("%fused_computation", "%convert", "convert", 4096, "0"),
    ("%fused_computation", "%mul", "multiply", 4096, "0"),
    ("loop_body", "p", "parameter", 4 + 16, "0"),
    ("loop_body", "i", "get-tuple-element", 4, "0"),
    ("loop_body", "one", "constant", 4, "0"),
    ("loop_body", "next", "add", 4, "0"),
    ("loop_body", "v", "get-tuple-element", 16, "0"),
    ("loop_body", "t", "tuple", 20, "0"),
    ("loop_cond", "p", "parameter", 20, "0"),
    ("loop_cond", "i", "get-tuple-element", 4, "0"),
    ("loop_cond", "limit", "constant", 4, "0"),
    ("loop_cond", "lt", "compare", 1, "0"),
    ("%main.42", "%Arg_0.1", "parameter", 4096, "0"),
    ("%main.42", "%Arg_1.2", "parameter", 8192, "1"),
    // A scalar tiled T(128) takes a whole tile of 128 elements.
    ("%main.42", "%Arg_2.3", "parameter", 128 * 4, "5"),
    ("%main.42", "%fusion", "fusion", 4096, "0"),
    // {0,1}: 128 is minor, 8 major; exactly one (8,128) tile.
    ("%main.42", "%transpose", "transpose", 4096, "0"),
    ("%main.42", "%image", "constant", 8 * 8 * 2 * 4, "0"),
    ("%main.42", "%one_f", "constant", 4, "0"),
    ("%main.42", "%filter", "broadcast", 3 * 3 * 2 * 4 * 4, "0"),
    ("%main.42", "%conv", "convolution", 8 * 8 * 4 * 4, "0"),
    ("%reduce.to_apply", "%a", "parameter", 4, "0"),
    ("%reduce.to_apply", "%b", "parameter", 4, "0"),
    ("%reduce.to_apply", "%m", "maximum", 4, "0"),
    ("%main.42", "%reduce", "reduce", 4, "0"),
    ("%main.42", "%kernel", "constant", 16, "0"),
    ("%main.42", "%z", "constant", 8, "0"),
    // E(4): two elements a byte.
    ("%main.42", "%packed", "custom-call", 64 * 128 / 2, "0"),
    // <=16 counts as 16.
    ("%main.42", "%dyn", "custom-call", 16 * 4 * 4, "0"),
    ("%main.42", "%unk", "custom-call", -1, "0"),
    ("%main.42", "%pair", "custom-call", 4096 + 16, "mixed"),
    ("%main.42", "%gte", "get-tuple-element", 16, "5"),
    ("%main.42", "%scratch", "custom-call", 1024, "3"),
    ("%main.42", "%buf", "custom-call", 64, "0"),
    ("%main.42", "%handle", "custom-call", 0, "null"),
    ("%main.42", "%init", "tuple", 20, "0"),
    ("%main.42", "%while", "while", 20, "0"),
    ("%main.42", "%start", "copy-start", 4096 + 4096 + 4, "mixed"),
    ("%main.42", "%done", "copy-done", 4096, "1"),
    ("%main.42", "%ar", "all-reduce", 4096, "0"),
    ("%main.42", "%wide", "tuple", 6 * 4, "0"),
    ("%main.42", "%result", "tuple", 4096 + 16, "mixed"),
];

#[test]
fn handwritten_every_shape_is_found_byte_identical() {
    let src = read("handwritten.hlo");
    let (out, records) = scan_json(&src);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found = shapes(&records);
    let got: Vec<(&str, &str)> = found
        .iter()
        .map(|(role, s)| (*role, s["shape"].as_str().unwrap()))
        .collect();
    assert_eq!(got, HANDWRITTEN_SHAPES);
    for (_, s) in &found {
        let (a, b) = span(s);
        assert_eq!(&src[a..b], s["shape"].as_str().unwrap().as_bytes());
        assert!(s["error"].is_null());
    }
}

#[test]
fn handwritten_instructions_bytes_and_spaces() {
    let (_, records) = scan_json(&read("handwritten.hlo"));
    let instructions: Vec<&Value> = records
        .iter()
        .filter(|r| r["kind"] == "instruction")
        .collect();
    assert_eq!(instructions.len(), HANDWRITTEN_INSTRUCTIONS.len());
    for (r, &(comp, name, opcode, bytes, space)) in
        instructions.iter().zip(HANDWRITTEN_INSTRUCTIONS)
    {
        assert_eq!(r["computation"], comp, "{r}");
        assert_eq!(r["name"], name);
        assert_eq!(r["opcode"], opcode, "{name}");
        if bytes < 0 {
            assert!(r["bytes"].is_null(), "{name}");
        } else {
            assert_eq!(r["bytes"], bytes, "{name}");
        }
        assert_eq!(
            r["memory_space"].to_string().trim_matches('"'),
            space,
            "{name}"
        );
    }
    let by_name = |n: &str| *instructions.iter().find(|r| r["name"] == n).unwrap();
    assert_eq!(
        by_name("%pair")["leaf_memory_spaces"],
        serde_json::json!([1, 5])
    );
    assert_eq!(
        by_name("%start")["leaf_memory_spaces"],
        serde_json::json!([0, 1, 2])
    );
    assert_eq!(
        by_name("%result")["leaf_memory_spaces"],
        serde_json::json!([0, 5])
    );
    assert_eq!(
        by_name("%handle")["leaf_memory_spaces"],
        serde_json::json!([])
    );
    assert_eq!(by_name("%buf")["shape_type"], "buffer");
    assert_eq!(by_name("%handle")["shape_type"], "opaque");
    assert_eq!(by_name("%pair")["shape_type"], "tuple");
    assert_eq!(by_name("%sum")["root"], true);
    assert_eq!(by_name("%fusion")["root"], false);
    assert_eq!(by_name("%ar")["line"], 65);
    assert_eq!(
        by_name("%pair")["attributes"][0]["attribute"],
        "operand_layout_constraints"
    );
}

#[test]
fn handwritten_totals() {
    let (_, records) = scan_json(&read("handwritten.hlo"));
    let totals = records.last().unwrap();
    // Worked out by hand from HANDWRITTEN_INSTRUCTIONS, leaf by leaf.
    let expected = serde_json::json!({
        "kind": "totals",
        "instructions": 48,
        "computations": 6,
        "shapes": 96,
        "errors": 0,
        "found": {"results": 48, "operands": 32, "attributes": 1, "parameters": 11, "entry_layout": 4, "other": 0},
        "memory_spaces": [
            {"memory_space": 0, "label": "device", "bytes": 45369, "arrays": 50, "unknown_arrays": 1},
            {"memory_space": 1, "label": "fast/VMEM", "bytes": 28672, "arrays": 5, "unknown_arrays": 0},
            {"memory_space": 2, "label": null, "bytes": 4, "arrays": 1, "unknown_arrays": 0},
            {"memory_space": 3, "label": null, "bytes": 1024, "arrays": 1, "unknown_arrays": 0},
            {"memory_space": 5, "label": "host", "bytes": 560, "arrays": 4, "unknown_arrays": 0},
        ],
        // %Arg_0.1 f32[8,128] in one 8x128 tile: 4096; %Arg_1.2 bf16[16,256]
        // S(1): 8192; %Arg_2.3 s32[] in a T(128) tile, S(5): 512.
        "entry_parameters": [
            {"memory_space": 0, "label": "device", "bytes": 4096, "arrays": 1, "unknown_arrays": 0},
            {"memory_space": 1, "label": "fast/VMEM", "bytes": 8192, "arrays": 1, "unknown_arrays": 0},
            {"memory_space": 5, "label": "host", "bytes": 512, "arrays": 1, "unknown_arrays": 0},
        ],
        // ROOT %result: f32[8,128] tiled (4096) and f32[4] S(5) (16).
        "entry_result": [
            {"memory_space": 0, "label": "device", "bytes": 4096, "arrays": 1, "unknown_arrays": 0},
            {"memory_space": 5, "label": "host", "bytes": 16, "arrays": 1, "unknown_arrays": 0},
        ],
        // ENTRY, loop_body and loop_cond (the while's); not %fused_computation,
        // %add_computation or %reduce.to_apply; no tuple, get-tuple-element,
        // copy-start or while result, no parameter of loop_body/loop_cond.
        // S(0): 4096 each for %Arg_0.1, %fusion, %transpose, %ar and
        // %packed (s4 packed: 64*128/2), %image 512, %one_f 4, %filter 288,
        // %conv 1024, %reduce 4, %kernel 16, %z 8, %dyn 256, %buf 64,
        // %unk unknown (15 arrays); loop_body one, next 4+4; loop_cond
        // limit 4, lt 1: 22,669 bytes in 19 arrays.
        // S(1): %Arg_1.2 8192, %pair's first leaf 4096, %done 4096.
        // S(3): %scratch. S(5): %Arg_2.3 512, %pair's second leaf 16.
        "top_level_values": [
            {"memory_space": 0, "label": "device", "bytes": 22669, "arrays": 19, "unknown_arrays": 1},
            {"memory_space": 1, "label": "fast/VMEM", "bytes": 16384, "arrays": 3, "unknown_arrays": 0},
            {"memory_space": 3, "label": null, "bytes": 1024, "arrays": 1, "unknown_arrays": 0},
            {"memory_space": 5, "label": "host", "bytes": 528, "arrays": 2, "unknown_arrays": 0},
        ],
    });
    assert_eq!(*totals, expected);
}

#[test]
fn json_schema() {
    let (_, records) = scan_json(&read("handwritten.hlo"));
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let shape_keys = [
        "shape",
        "span",
        "shape_type",
        "bytes",
        "padding_bytes",
        "compiler_unpadded_bytes",
        "memory_space",
        "leaf_memory_spaces",
        "error",
    ];
    let check_shape = |s: &Value, extra: &[&str]| {
        let mut want: Vec<&str> = extra.to_vec();
        want.extend(shape_keys);
        assert_eq!(keys(s), want, "{s}");
        assert!(s["shape"].is_string());
        assert_eq!(s["span"].as_array().unwrap().len(), 2);
        assert!(s["bytes"].is_u64() || s["bytes"].is_null());
        assert!(s["padding_bytes"].is_u64() || s["padding_bytes"].is_null());
        let m = &s["memory_space"];
        assert!(m.is_i64() || m == "mixed" || m.is_null());
        assert!(s["leaf_memory_spaces"]
            .as_array()
            .unwrap()
            .iter()
            .all(Value::is_i64));
    };
    assert_eq!(records.last().unwrap()["kind"], "totals");
    assert_eq!(records.iter().filter(|r| r["kind"] == "totals").count(), 1);
    for r in &records {
        match r["kind"].as_str().unwrap() {
            "module" => {
                assert_eq!(
                    keys(r),
                    [
                        "kind",
                        "name",
                        "line",
                        "entry_computation_layout",
                        "attributes"
                    ]
                );
                let l = &r["entry_computation_layout"];
                assert_eq!(keys(l), ["parameters", "result"]);
                for p in l["parameters"].as_array().unwrap() {
                    check_shape(p, &[]);
                }
                check_shape(&l["result"], &[]);
            }
            "computation" => {
                assert_eq!(
                    keys(r),
                    [
                        "kind",
                        "name",
                        "entry",
                        "nested",
                        "line",
                        "parameters",
                        "result"
                    ]
                );
                for p in r["parameters"].as_array().unwrap() {
                    check_shape(p, &["name"]);
                }
                if !r["result"].is_null() {
                    check_shape(&r["result"], &[]);
                }
            }
            "instruction" => {
                let mut want = vec!["kind", "computation", "line", "name", "root", "opcode"];
                want.extend(shape_keys);
                want.extend(["operands", "attributes"]);
                assert_eq!(keys(r), want);
                assert!(r["line"].is_u64() && r["root"].is_boolean());
                let result: serde_json::Map<String, Value> = shape_keys
                    .iter()
                    .map(|&k| (k.to_string(), r[k].clone()))
                    .collect();
                check_shape(&Value::Object(result), &[]);
                for s in r["operands"].as_array().unwrap() {
                    check_shape(s, &[]);
                }
                for s in r["attributes"].as_array().unwrap() {
                    check_shape(s, &["attribute"]);
                }
            }
            "totals" => {
                assert_eq!(
                    keys(r),
                    [
                        "kind",
                        "instructions",
                        "computations",
                        "shapes",
                        "errors",
                        "found",
                        "memory_spaces",
                        "entry_parameters",
                        "entry_result",
                        "top_level_values"
                    ]
                );
                for list in [
                    "memory_spaces",
                    "entry_parameters",
                    "entry_result",
                    "top_level_values",
                ] {
                    for m in r[list].as_array().unwrap() {
                        assert_eq!(
                            keys(m),
                            ["memory_space", "label", "bytes", "arrays", "unknown_arrays"]
                        );
                    }
                }
            }
            k => panic!("unexpected kind {k}"),
        }
    }
    // The entry computation and the nested one are flagged.
    let comps: Vec<(&str, bool, bool)> = records
        .iter()
        .filter(|r| r["kind"] == "computation")
        .map(|r| {
            (
                r["name"].as_str().unwrap(),
                r["entry"].as_bool().unwrap(),
                r["nested"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        comps,
        [
            ("%add_computation", false, false),
            ("%fused_computation", false, false),
            ("loop_body", false, false),
            ("loop_cond", false, false),
            ("%main.42", true, false),
            ("%reduce.to_apply", false, true),
        ]
    );
}

/// `src` with string literals and comments blanked out, written
/// independently of the scanner.
fn blank_strings_and_comments(src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let mut i = 0;
    while i < src.len() {
        let end = if src[i] == b'"' {
            let mut j = i + 1;
            while j < src.len() && src[j] != b'"' && src[j] != b'\n' {
                j += if src[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(src.len())
        } else if src[i..].starts_with(b"/*") {
            find(src, i + 2, b"*/").map_or(src.len(), |j| j + 2)
        } else if src[i..].starts_with(b"//") {
            find(src, i, b"\n").unwrap_or(src.len())
        } else {
            i += 1;
            continue;
        };
        out[i..end].fill(b' ');
        i = end;
    }
    out
}

fn find(src: &[u8], from: usize, what: &[u8]) -> Option<usize> {
    src[from..]
        .windows(what.len())
        .position(|w| w == what)
        .map(|p| from + p)
}

/// Positions of `<element type>[` in text (at a word start).
fn type_occurrences(text: &[u8]) -> Vec<usize> {
    const TYPES: &[&str] = &[
        "pred",
        "s1",
        "s2",
        "s4",
        "s8",
        "s16",
        "s32",
        "s64",
        "u1",
        "u2",
        "u4",
        "u8",
        "u16",
        "u32",
        "u64",
        "f16",
        "bf16",
        "f32",
        "f64",
        "c64",
        "c128",
        "f8e5m2",
        "f8e4m3",
        "f8e4m3fn",
        "f8e4m3b11fnuz",
        "f8e3m4",
        "f8e5m2fnuz",
        "f8e4m3fnuz",
        "f8e8m0fnu",
        "f4e2m1fn",
        "token",
        "opaque",
    ];
    let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'%');
    let mut found = Vec::new();
    for i in 0..text.len() {
        if i > 0 && word(text[i - 1]) {
            continue;
        }
        for t in TYPES {
            if text[i..].starts_with(t.as_bytes()) && text.get(i + t.len()) == Some(&b'[') {
                found.push(i);
            }
        }
    }
    found
}

/// Lines that start an instruction (`[ROOT] [%]name = `), counted
/// independently of the scanner.
fn instruction_lines(text: &[u8]) -> usize {
    text.split(|&b| b == b'\n')
        .filter(|line| {
            let s = String::from_utf8_lossy(line);
            let s = s.trim_start();
            let s = s.strip_prefix("ROOT ").unwrap_or(s);
            let s = s.strip_prefix('%').unwrap_or(s);
            let name: String = s
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
                .collect();
            !name.is_empty() && s[name.len()..].trim_start().starts_with("= ")
        })
        .count()
}

#[test]
fn real_dumps_every_shape_is_covered() {
    for name in REAL.iter().chain(&["handwritten.hlo"]) {
        let src = read(name);
        let (out, records) = scan_json(&src);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let found = shapes(&records);
        let spans: Vec<(usize, usize)> = found.iter().map(|(_, s)| span(s)).collect();
        for (_, s) in &found {
            let (a, b) = span(s);
            assert_eq!(
                &src[a..b],
                s["shape"].as_str().unwrap().as_bytes(),
                "{name}"
            );
            assert!(s["error"].is_null(), "{name}: {s}");
        }
        // Shapes never overlap: a tuple is one shape, not its leaves again.
        for w in spans.windows(2) {
            assert!(w[0].1 <= w[1].0, "{name}: overlapping {w:?}");
        }
        let occurrences = type_occurrences(&blank_strings_and_comments(&src));
        assert!(occurrences.len() >= spans.len(), "{name}");
        for o in occurrences {
            assert!(
                spans.iter().any(|&(a, b)| a <= o && o < b),
                "{name}: shape at byte {o} not reported: {}",
                String::from_utf8_lossy(&src[o..(o + 60).min(src.len())])
            );
        }
        let instructions = records
            .iter()
            .filter(|r| r["kind"] == "instruction")
            .count();
        assert_eq!(instructions, instruction_lines(&src), "{name}");
        // Each instruction's result is the shape right after its `= `.
        for r in records.iter().filter(|r| r["kind"] == "instruction") {
            let (a, _) = span(r);
            assert_eq!(&src[a - 2..a], b"= ", "{name}: {r}");
        }
    }
}

#[test]
fn real_dump_counts() {
    // Independent counts for the smallest dumps, by reading them.
    let (_, records) = scan_json(&read("jax_triton_add_kernel.hlo"));
    let t = records.last().unwrap();
    assert_eq!(t["instructions"], 6);
    assert_eq!(t["computations"], 2);
    // 3 in the entry layout, 6 results, 2 in operand_layout_constraints.
    assert_eq!(t["shapes"], 11);
    assert_eq!(t["memory_spaces"][0]["bytes"], 6 * 4096);
    // An async collective with nested tuple results, as scheduled GPU
    // modules print it.
    let src = concat!(
        "HloModule m, entry_computation_layout={(c64[128,64,256]{1,0,2})->c64[128,64,256]{1,0,2}}\n\n",
        "ENTRY %main (p: c64[128,64,256]) -> c64[128,64,256] {\n",
        "  %p = c64[128,64,256]{1,0,2} parameter(0)\n",
        "  %all-to-all-start = ((c64[128,64,256]{1,0,2}), c64[128,64,256]{1,0,2}) all-to-all-start(c64[128,64,256]{1,0,2} %p), replica_groups={{0,1}}, dimensions={0}, backend_config={\"is_sync\":false}\n",
        "  ROOT %all-to-all-done = c64[128,64,256]{1,0,2} all-to-all-done(((c64[128,64,256]{1,0,2}), c64[128,64,256]{1,0,2}) %all-to-all-start), metadata={op_name=\"jit(f)/all_to_all[axis=0]\" source_file=\"a.py\"}\n",
        "}\n",
    );
    let (_, records) = scan_json(src.as_bytes());
    let start = records
        .iter()
        .find(|r| r["name"] == "%all-to-all-start")
        .unwrap();
    assert_eq!(
        start["shape"],
        "((c64[128,64,256]{1,0,2}), c64[128,64,256]{1,0,2})"
    );
    assert_eq!(start["bytes"], 2 * 128 * 64 * 256 * 8);
    let done = records
        .iter()
        .find(|r| r["name"] == "%all-to-all-done")
        .unwrap();
    assert_eq!(
        done["operands"][0]["shape"],
        "((c64[128,64,256]{1,0,2}), c64[128,64,256]{1,0,2})"
    );
}

#[test]
fn table_rows_are_aligned_and_shapes_verbatim() {
    let src = read("handwritten.hlo");
    let out = layout(&["scan", data("handwritten.hlo").to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let header = lines[0];
    assert!(header.starts_with("NAME"));
    let shape_col = header.find("SHAPE").unwrap();
    let bytes_end = header.find("BYTES").unwrap() + "BYTES".len();
    let (_, records) = scan_json(&src);
    let mut expected = Vec::new();
    for r in &records {
        if r["kind"] == "module" {
            let l = &r["entry_computation_layout"];
            for p in l["parameters"].as_array().unwrap() {
                expected.push(p["shape"].as_str().unwrap().to_string());
            }
            expected.push(l["result"]["shape"].as_str().unwrap().to_string());
        }
        if r["kind"] == "instruction" {
            expected.push(r["shape"].as_str().unwrap().to_string());
        }
    }
    let rows: Vec<&str> = lines[1..]
        .iter()
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with("-- "))
        .copied()
        .collect();
    assert_eq!(rows.len(), expected.len());
    for (row, shape) in rows.iter().zip(&expected) {
        assert_eq!(&row[shape_col..], shape, "row {row:?}");
        // Bytes are right-aligned under BYTES.
        assert_ne!(row.as_bytes()[bytes_end - 1], b' ', "row {row:?}");
    }
    assert!(text.contains("\n-- ENTRY %main.42\n"));
    assert!(text.contains("\n-- %reduce.to_apply (nested computation)\n"));
    assert!(text.contains("\n-- %main.42 (continued)\n"));
    let row = |name: &str| {
        *rows
            .iter()
            .find(|r| r.split_whitespace().take(2).any(|w| w == name))
            .unwrap()
    };
    assert!(row("%unk").contains(" ?        ?  S(0) "));
    assert!(row("%pair").contains(" 4,112        0  mixed "));
    assert!(row("%handle").contains(" 0        0  - "));
    assert!(row("%gte").contains(" 16        0  S(5) "));
    // s32[] tiled by 128: 512 bytes allocated for 4.
    let tiled = rows
        .iter()
        .find(|r| r.starts_with("(parameter 2) "))
        .unwrap();
    assert!(tiled.contains(" 512      508  S(5) "), "{tiled:?}");
    // Padding is right-aligned under PADDING.
    let padding_end = header.find("PADDING").unwrap() + "PADDING".len();
    for r in &rows {
        assert_ne!(r.as_bytes()[padding_end - 1], b' ', "row {r:?}");
    }
    assert!(row("%result").starts_with("ROOT %result "));
    for total in [
        "S(0)   device               45,369 bytes",
        "S(1)   fast/VMEM            28,672 bytes",
        "S(2)                             4 bytes",
        "S(5)   host                    560 bytes",
    ] {
        assert!(text.contains(total), "missing {total:?} in\n{text}");
    }
    assert!(text.contains("shapes found: 96 ("));
}

#[test]
fn stdin_and_file_give_the_same_output() {
    for name in ["handwritten.hlo", "torchxla_pp2_rank1.hlo"] {
        let path = data(name);
        for mode in [&[][..], &["--json"][..]] {
            let mut file_args = vec!["scan", path.to_str().unwrap()];
            file_args.extend(mode);
            let mut stdin_args = vec!["scan", "-"];
            stdin_args.extend(mode);
            let from_file = layout(&file_args, b"");
            let from_stdin = layout(&stdin_args, &read(name));
            assert_eq!(from_file.status.code(), Some(0));
            assert_eq!(from_file.stdout, from_stdin.stdout, "{name} {mode:?}");
        }
    }
}

#[test]
fn crlf_line_ends_find_the_same_shapes() {
    let src = read("handwritten.hlo");
    let crlf: Vec<u8> = src
        .iter()
        .flat_map(|&b| {
            if b == b'\n' {
                vec![b'\r', b'\n']
            } else {
                vec![b]
            }
        })
        .collect();
    let (out, records) = scan_json(&crlf);
    assert_eq!(out.status.code(), Some(0));
    let got: Vec<(&str, String)> = shapes(&records)
        .into_iter()
        .map(|(role, s)| (role, s["shape"].as_str().unwrap().to_string()))
        .collect();
    let want: Vec<(&str, String)> = HANDWRITTEN_SHAPES
        .iter()
        .map(|&(r, s)| (r, s.to_string()))
        .collect();
    assert_eq!(got, want);
}

const BAD: &str = "HloModule bad, entry_computation_layout={(f32[2]{1})->f32[2]{0}}

ENTRY %main (p: f32[2]) -> f32[2] {
  %a = f32[2]{5} parameter(0)
  %b = f99[2] add(f32[2]{0} %a, f32[2,3]{1,0:T(2,*)} %a), metadata={op_name=\"f32[2]{9}\"}
  %c = (f32[2]{0}, s32[) tuple(f32[2]{0} %a)
  ROOT %d = f32[2]{0} negate(f32[2]{0} %a)
}
";

#[test]
fn parse_errors_are_reported_and_the_scan_goes_on() {
    let (out, records) = scan_json(BAD.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("5 shape(s) failed to parse"), "{stderr}");
    let entry = &records[0]["entry_computation_layout"];
    assert!(entry["parameters"][0]["error"]
        .as_str()
        .unwrap()
        .contains("minor_to_major"));
    assert!(entry["result"]["error"].is_null());
    let instr = |n: &str| {
        records
            .iter()
            .find(|r| r["kind"] == "instruction" && r["name"] == n)
            .unwrap()
    };
    let a = instr("%a");
    assert_eq!(a["shape"], "f32[2]{5}");
    assert!(a["bytes"].is_null() && a["memory_space"].is_null() && a["shape_type"].is_null());
    assert!(a["error"].as_str().unwrap().contains("out of range"));
    let b = instr("%b");
    assert_eq!(b["shape"], "f99[2]");
    assert!(b["error"].as_str().unwrap().contains("element type"));
    assert!(b["operands"][0]["error"].is_null());
    assert_eq!(b["operands"][1]["shape"], "f32[2,3]{1,0:T(2,*)}");
    assert!(b["operands"][1]["error"].is_string());
    assert_eq!(
        b["operands"].as_array().unwrap().len(),
        2,
        "metadata is not scanned"
    );
    let c = instr("%c");
    assert_eq!(c["shape"], "(f32[2]{0}, s32[)");
    assert_eq!(c["opcode"], "tuple");
    assert!(c["error"].is_string());
    // The scan went on to the end.
    let d = instr("%d");
    assert_eq!(d["root"], true);
    assert_eq!(d["bytes"], 8);
    let t = records.last().unwrap();
    assert_eq!(t["errors"], 5);
    assert_eq!(t["instructions"], 4);

    // The table lists the failures with name, text and error.
    let out = layout(&["scan", "-"], BAD.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("5 shape(s) failed to parse:"), "{text}");
    assert!(
        text.contains("line 4  %a (result)  `f32[2]{5}`: minor_to_major entry 5 is out of range")
    );
    assert!(text.contains("line 5  %b (operand shape 1)  `f32[2,3]{1,0:T(2,*)}`: "));
    assert!(text.contains("bad entry parameter 0"));
}

#[test]
fn unreadable_input_exits_2() {
    let out = layout(&["scan", "/nonexistent/dump.hlo"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/dump.hlo"));
    assert!(out.stdout.is_empty());
    // A directory is read as a dump directory now (tests/scan_dir.rs);
    // this one has no buffer assignment: bad input, not unreadable.
    let dir = data("");
    let out = layout(&["scan", dir.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no buffer assignment in"));
    assert!(out.stdout.is_empty());
}

#[test]
fn empty_and_shapeless_input() {
    // Nothing HLO-like (shapes in strings and comments do not count): an
    // error, and no records.
    for input in [
        &b""[..],
        b"just some words\n\"f32[2] in a string\" /* f32[3] */\n",
    ] {
        let (out, records) = scan_json(input);
        assert_eq!(out.status.code(), Some(1));
        assert!(records.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr)
            .starts_with("layout scan: no HLO in standard input"));
    }
}

#[test]
fn stray_shapes_and_bare_instructions() {
    // Instructions outside any computation (a snippet), and a shape on a
    // line that is not an instruction.
    let text = "%fusion.3 = bf16[32,4096]{1,0:T(8,128)(2,1)S(1)} fusion(bf16[32,8192]{1,0:T(8,128)(2,1)S(1)} %fusion.32), kind=kCustom\n\
                the shape was f32[4]{0}\n";
    let (out, records) = scan_json(text.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(records[0]["kind"], "instruction");
    assert!(records[0]["computation"].is_null());
    assert_eq!(records[0]["bytes"], 32 * 4096 * 2);
    assert_eq!(records[0]["memory_space"], 1);
    assert_eq!(records[1]["kind"], "other");
    assert_eq!(records[1]["line"], 2);
    assert_eq!(records[1]["shapes"][0]["shape"], "f32[4]{0}");
}

#[test]
fn multi_line_instructions_and_old_literals() {
    // Attributes on continuation lines, the result shape on one line and
    // the opcode on the next (as in XLA's tests), a literal that prints
    // shapes (old dumps): its tuple is not one shape.
    let text = "ENTRY e {\n  a = f32[2]{0} parameter(0)\n  convolution = bf16[4]{0}\n      convert(f32[2]{0} a),\n      metadata={op_name=\"x\"}\n  c = (f32[2], s32[]) constant((f32[2] {1, 2}, s32[] 3))\n}\n";
    let (out, records) = scan_json(text.as_bytes());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let instr: Vec<&Value> = records
        .iter()
        .filter(|r| r["kind"] == "instruction")
        .collect();
    assert_eq!(instr.len(), 3);
    assert_eq!(instr[1]["name"], "convolution");
    assert_eq!(instr[1]["opcode"], "convert");
    assert_eq!(instr[1]["operands"][0]["shape"], "f32[2]{0}");
    assert_eq!(instr[2]["shape"], "(f32[2], s32[])");
    let literal: Vec<&str> = instr[2]["operands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["shape"].as_str().unwrap())
        .collect();
    assert_eq!(literal, ["f32[2]", "s32[]"]);
}
