//! `layout scan` on memory: the padding of every value, in the table and
//! in `--json`, on the real dumps in `tests/data/hlo/`.

mod support;
use support::layout;

use std::path::PathBuf;

use serde_json::Value;

fn read(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hlo")
        .join(name);
    std::fs::read(path).unwrap()
}

fn scan_json(input: &[u8]) -> Vec<Value> {
    let out = layout(&["scan", "--json", "-"], input);
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The unpadded bytes of every array in `shape`, summed with the library.
fn unpadded_of(shape: &str) -> Option<u64> {
    fn sum(s: &layout_core::Shape) -> Option<u64> {
        match s {
            layout_core::Shape::Array(a) | layout_core::Shape::Buffer(a) => {
                a.unpadded_size_in_bytes().ok()
            }
            layout_core::Shape::Tuple(t) => {
                t.iter().try_fold(0u64, |acc, e| acc.checked_add(sum(&e)?))
            }
            _ => Some(0),
        }
    }
    sum(&layout_core::parse(shape).ok()?)
}

#[test]
fn real_dumps_padding_is_allocated_minus_unpadded() {
    for name in [
        "handwritten.hlo",
        "jax_triton_add_kernel.hlo",
        "torchxla_bert_dp5.hlo",
        "torchxla_pp2_rank1.hlo",
    ] {
        let records = scan_json(&read(name));
        let mut checked = 0;
        for r in records.iter().filter(|r| r["kind"] == "instruction") {
            let shape = r["shape"].as_str().unwrap();
            match (r["bytes"].as_u64(), unpadded_of(shape)) {
                (Some(bytes), Some(unpadded)) => {
                    assert_eq!(r["padding_bytes"], bytes - unpadded, "{name}: {r}");
                    checked += 1;
                }
                _ => assert!(r["padding_bytes"].is_null(), "{name}: {r}"),
            }
        }
        assert!(checked > 0, "{name}");
    }
    let records = scan_json(&read("handwritten.hlo"));
    let module = records.iter().find(|r| r["kind"] == "module").unwrap();
    let tiled = &module["entry_computation_layout"]["parameters"][2];
    assert_eq!(tiled["shape"], "s32[]{:T(128)S(5)}");
    assert_eq!(
        (tiled["bytes"].as_u64(), tiled["padding_bytes"].as_u64()),
        (Some(512), Some(508))
    );
}

#[test]
fn table_bytes_and_padding_have_thousands_separators() {
    let hlo = b"HloModule m\n\nENTRY %main {\n  %p = f32[3,5]{1,0:T(8,128)} parameter(0)\n  ROOT %q = f32[300,5]{1,0:T(8,128)} copy(%p)\n}\n";
    let out = layout(&["scan", "-"], hlo);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let row = |n: &str| {
        text.lines()
            .find(|l| {
                l.split_whitespace().next() == Some(n) || l.starts_with(&format!("ROOT {n} "))
            })
            .unwrap_or_else(|| panic!("no {n} in\n{text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    // 8x128 f32 slots for 15 elements: 4096 - 60 bytes.
    assert_eq!(row("%p")[2..4], ["4,096", "4,036"]);
    // 38 x 8 rows of 128 slots: 155,648 bytes for 6,000 of data.
    assert_eq!(row("%q")[3..5], ["155,648", "149,648"]);
}

/// The rows of a ranked list (header first), split into cells; the shape
/// (last, may hold spaces) is left out.
fn ranked(args: &[&str], stdin: &[u8]) -> Vec<Vec<String>> {
    let out = layout(args, stdin);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.starts_with("NAME"), "{text}");
    let shape_col = header.find("SHAPE").unwrap();
    text.lines()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            l[..shape_col]
                .split_whitespace()
                .filter(|c| *c != "ROOT")
                .map(str::to_string)
                .collect()
        })
        .collect()
}

fn data_path(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hlo")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn sort_bytes_and_top_rank_the_largest_values_of_a_real_dump() {
    for name in ["handwritten.hlo", "torchxla_bert_dp5.hlo"] {
        let path = data_path(name);
        let rows = ranked(&["scan", &path, "--sort", "bytes", "--top", "5"], b"");
        assert_eq!(
            rows[0],
            ["NAME", "COMPUTATION", "OPCODE", "BYTES", "PADDING", "SPACE"]
        );
        assert_eq!(rows.len(), 1 + 5, "{name}");
        // Thousands separators, as in the totals.
        let bytes: Vec<u64> = rows[1..]
            .iter()
            .map(|r| r[3].replace(',', "").parse().unwrap())
            .collect();
        assert!(bytes.windows(2).all(|w| w[0] >= w[1]), "{name}: {bytes:?}");
        // The largest is the largest of all instructions in --json.
        let largest = scan_json(&read(name))
            .iter()
            .filter(|r| r["kind"] == "instruction")
            .filter_map(|r| r["bytes"].as_u64())
            .max()
            .unwrap();
        assert_eq!(bytes[0], largest, "{name}");
    }
}

#[test]
fn sort_padding_puts_the_most_padded_first() {
    let hlo = b"HloModule m\n\nENTRY %main {\n  %a = f32[8,128]{1,0:T(8,128)} parameter(0)\n  %b = f32[3,5]{1,0:T(8,128)} parameter(1)\n  %c = f32[300,5]{1,0:T(8,128)} copy(%b)\n  %d = f32[?,5]{1,0} parameter(2)\n  ROOT %e = s32[]{:T(128)} constant(0)\n}\n";
    let rows = ranked(&["scan", "-", "--sort", "padding"], hlo);
    let order: Vec<(&str, &str)> = rows[1..]
        .iter()
        .map(|r| (r[0].as_str(), r[4].as_str()))
        .collect();
    // Unknown sizes last; ties in input order.
    assert_eq!(
        order,
        [
            ("%c", "149,648"),
            ("%b", "4,036"),
            ("%e", "508"),
            ("%a", "0"),
            ("%d", "?")
        ]
    );
    let top = ranked(&["scan", "-", "--sort", "padding", "--top", "1"], hlo);
    assert_eq!(top.len(), 2);
    assert_eq!(top[1][0], "%c");
}

#[test]
fn sort_padding_without_padding_says_so() {
    let hlo = b"HloModule m\n\nENTRY %main {\n  %a = f32[8,128]{1,0:T(8,128)} parameter(0)\n  ROOT %b = f32[1024,1024]{1,0} copy(%a)\n}\n";
    let out = layout(&["scan", "-", "--sort", "padding", "--top", "1"], hlo);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("No padding: each of the 2 instruction(s) is allocated exactly"),
        "{text}"
    );
    assert!(!text.contains("%b"), "{text}");
    // By bytes the rows are listed, with thousands separators.
    let rows = ranked(&["scan", "-", "--sort", "bytes", "--top", "1"], hlo);
    assert_eq!(rows[1][3], "4,194,304");
}

#[test]
fn computation_keeps_one_computations_instructions() {
    let name = "torchxla_bert_dp5.hlo";
    let records = scan_json(&read(name));
    let comp = records
        .iter()
        .find(|r| r["kind"] == "computation" && r["entry"] == false)
        .unwrap()["name"]
        .as_str()
        .unwrap()
        .to_string();
    let expected: Vec<&str> = records
        .iter()
        .filter(|r| r["kind"] == "instruction" && r["computation"] == comp.as_str())
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert!(!expected.is_empty());
    let path = data_path(name);
    for given in [comp.clone(), comp.trim_start_matches('%').to_string()] {
        let rows = ranked(&["scan", &path, "--computation", &given], b"");
        let names: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
        assert_eq!(names, expected, "--computation {given}");
        assert!(rows[1..].iter().all(|r| r[1] == comp));
    }
    // A name the dump does not have is an error, with the close names.
    let out = layout(
        &["scan", &path, "--computation", "no such computation"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("layout scan: no computation named no such computation in "),
        "{err}"
    );
}

#[test]
fn an_unknown_computation_suggests_close_names() {
    let path = data_path("handwritten.hlo");
    for (given, suggested) in [
        ("main", "did you mean %main.42?"),
        ("%fused_computaton", "%fused_computation"),
        ("Fused_Computation.1", "%fused_computation"),
    ] {
        let out = layout(&["scan", &path, "--computation", given], b"");
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("no computation named {given} in ")),
            "{err}"
        );
        assert!(err.contains(suggested), "{given}: {err}");
        assert!(out.stdout.is_empty());
    }
    // Nothing close: no suggestion.
    let out = layout(&["scan", &path, "--computation", "zzz"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(!String::from_utf8(out.stderr)
        .unwrap()
        .contains("did you mean"));
}

#[test]
fn input_without_hlo_is_an_error() {
    for (input, args) in [
        (&b""[..], &["scan", "-"][..]),
        (b"hello, world\nnot a dump\n", &["scan", "-"][..]),
        (b"just text", &["scan", "--json", "-"][..]),
        (b"just text", &["scan", "--sort", "bytes", "-"][..]),
    ] {
        let out = layout(args, input);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            "layout scan: no HLO in standard input: no HloModule header, computation, instruction or shape found\n"
        );
    }
    // One stray shape is something to report.
    let out = layout(&["scan", "-"], b"f32[2]{0}\n");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn ranking_options_are_not_for_json() {
    let path = data_path("handwritten.hlo");
    for flag in [
        &["--sort", "bytes"][..],
        &["--top", "3"],
        &["--computation", "main.42"],
    ] {
        let mut args = vec!["scan", "--json", path.as_str()];
        args.extend(flag);
        assert_eq!(layout(&args, b"").status.code(), Some(2), "{flag:?}");
    }
    let bad = layout(&["scan", &path, "--sort", "size"], b"");
    assert_eq!(bad.status.code(), Some(2));
}
