//! `layout oom` end to end, on the report texts in tests/data/oom/: plain
//! and log-prefixed, a vmem report, entries without shapes, cut-off labels
//! and malformed entries. The expected numbers are the reports' own.

mod support;

use std::path::PathBuf;

use serde_json::Value;
use support::layout;

fn report(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/oom")
        .join(name)
}

fn path(name: &str) -> String {
    report(name).to_str().unwrap().to_string()
}

/// `layout oom --json` on a report: the status and the document.
fn oom_json(name: &str) -> (Option<i32>, Value, String) {
    let out = layout(&["oom", "--json", &path(name)], b"");
    let doc = serde_json::from_slice(&out.stdout).unwrap();
    (
        out.status.code(),
        doc,
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn by_rank(doc: &Value, rank: u64) -> &Value {
    doc["allocations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["rank"] == rank)
        .unwrap()
}

#[test]
fn every_allocation_of_the_hbm_report_is_reproduced() {
    let (code, doc, stderr) = oom_json("hbm.txt");
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(doc["memory_space"], "hbm");
    assert_eq!(doc["capacity_bytes"], 16u64 << 30);
    assert_eq!(doc["allocations"].as_array().unwrap().len(), 8);
    for a in doc["allocations"].as_array().unwrap() {
        if a["shape"].is_null() {
            continue;
        }
        assert_eq!(a["agrees"], true, "{a}");
        // The report's rounded figures are within its precision of ours.
        let (ours, theirs) = (
            a["bytes"].as_u64().unwrap(),
            a["reported_bytes"].as_u64().unwrap(),
        );
        assert!(ours.abs_diff(theirs) * 200 <= theirs, "{a}");
    }
    // 8.00G for 128.00M, with an inferred T(8,128).
    let a = by_rank(&doc, 2);
    assert_eq!(a["tiled_shape"], "f32[256,512,128,2]{3,2,1,0:T(8,128)}");
    assert_eq!(
        (&a["tiling"], &a["tiling_inferred"]),
        (&"T(8,128)".into(), &true.into())
    );
    assert_eq!(a["bytes"], 8u64 << 30);
    assert_eq!(a["unpadded_bytes"], 128u64 << 20);
    assert_eq!(a["expansion"], 64.0);
    // 32.00G, and the order the compiler's label hints: 1.00G.
    let a = by_rank(&doc, 1);
    assert_eq!(a["tiling_source"], "shape");
    assert_eq!(a["best"]["shape"], "s32[8388608,8,4]{0,2,1:T(4,128)}");
    assert_eq!(a["best"]["bytes"], 1u64 << 30);
    assert!(a["causes"][0]
        .as_str()
        .unwrap()
        .starts_with("dim 2 (x) = 4 is minor-most"));
    // pred in 32 bits: the compiler's unpadded figure is 1 byte each.
    let a = by_rank(&doc, 4);
    assert_eq!(
        (a["bytes"].as_u64(), a["unpadded_bytes"].as_u64()),
        (Some(256 << 20), Some(64 << 20))
    );
    assert!(a["causes"][0]
        .as_str()
        .unwrap()
        .starts_with("E(32): each pred is stored in 32 bits"));
    assert!(a["best"].is_null());
    // A label whole up to its result shape gives the tiling; one cut off
    // inside it does not, and the rule infers it.
    assert_eq!(by_rank(&doc, 6)["tiling_source"], "label");
    assert_eq!(by_rank(&doc, 6)["tiling"], "T(8,128)(2,1)");
    assert_eq!(by_rank(&doc, 7)["tiling_source"], "inferred");
    assert_eq!(by_rank(&doc, 7)["bytes"], 512_000);
    // No shape: nothing recomputed, but listed.
    let a = by_rank(&doc, 8);
    assert!(a["shape"].is_null() && a["bytes"].is_null() && a["agrees"].is_null());
    assert_eq!(a["reported_bytes"], 4096);
    assert_eq!(a["label"], "register allocator spill slots");
    // Totals: the sum of the parts.
    let t = &doc["totals"];
    let sum = |key: &str| -> u64 {
        doc["allocations"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| a[key].as_u64())
            .sum()
    };
    assert_eq!(t["bytes"], sum("bytes"));
    assert_eq!(t["reported_bytes"], sum("reported_bytes"));
    assert_eq!(t["padding_bytes"], sum("bytes") - sum("unpadded_bytes"));
    let saving: u64 = doc["allocations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| !a["best"].is_null())
        .map(|a| a["bytes"].as_u64().unwrap() - a["best"]["bytes"].as_u64().unwrap())
        .sum();
    assert_eq!(t["best_saving_bytes"], saving);
    assert_eq!(
        (t["measured"].as_u64(), t["listed"].as_u64()),
        (Some(7), Some(8))
    );
}

#[test]
fn log_prefixes_change_nothing() {
    let (code, plain, _) = oom_json("hbm.txt");
    let (code_logged, logged, _) = oom_json("hbm_logged.txt");
    assert_eq!((code, code_logged), (Some(0), Some(0)));
    assert_eq!(plain, logged);
    // And from stdin.
    let text = std::fs::read(report("hbm_logged.txt")).unwrap();
    let out = layout(&["oom", "--json", "-"], &text);
    assert_eq!(serde_json::from_slice::<Value>(&out.stdout).unwrap(), plain);
}

#[test]
fn the_vmem_report() {
    let (code, doc, _) = oom_json("vmem.txt");
    assert_eq!(code, Some(0));
    assert_eq!(doc["memory_space"], "vmem");
    assert_eq!(doc["used_bytes"], 16_850_616); // 16.07M, rounded
    let a = by_rank(&doc, 2);
    assert_eq!(
        (a["bytes"].as_u64(), a["unpadded_bytes"].as_u64()),
        (Some(65_536), Some(3_072))
    );
    assert_eq!(a["agrees"], true);
    assert_eq!(a["best"]["shape"], "f32[128,6]{0,1:T(8,128)}");
    assert!(by_rank(&doc, 1)["shape"].is_null());
    assert_eq!(by_rank(&doc, 3)["causes"], Value::Array(vec![]));
}

#[test]
fn the_table_fits_80_columns_and_says_what_to_change() {
    for name in ["hbm.txt", "vmem.txt"] {
        let out = layout(&["oom", &path(name)], b"");
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        for line in text.lines() {
            // Only a shape, never broken, may run past 80.
            let has_long_word = line.split(' ').any(|w| w.len() > 40);
            assert!(line.chars().count() <= 80 || has_long_word, "{line}");
        }
        if name == "hbm.txt" {
            assert!(
                text.starts_with("Out of memory in hbm: used 41.50G of 16.00G, over by 25.50G.")
            );
            assert!(text.contains("   change   transpose to s32[8,4,8388608] (axes 1,2,0): 1.00G instead of 32.00G,\n            saves 31.00G\n   layout   s32[8388608,8,4]{0,2,1:T(4,128)} (inferred)\n"), "{text}");
            assert!(text.contains("   tiling   T(8,128) (inferred)\n"));
            assert!(text.contains("   tiling   T(8,128)(2,1) (from the XLA label)\n"));
            assert!(text.contains("   note     no shape in the report: nothing to recompute\n"));
        }
    }
}

#[test]
fn malformed_entries_are_reported_by_line_and_the_rest_is_read() {
    let (code, doc, stderr) = oom_json("malformed.txt");
    assert_eq!(code, Some(1));
    let lines: Vec<u64> = doc["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [3, 7, 8]);
    assert!(
        stderr.contains("layout oom: line 3: allocation 1: cannot read the size `lots`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 7: allocation 2: the shape"),
        "{stderr}"
    );
    // Entry 1 is left out; entry 3 is read, and disagrees with the report.
    let ranks: Vec<u64> = doc["allocations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["rank"].as_u64().unwrap())
        .collect();
    assert_eq!(ranks, [2, 3]);
    assert_eq!(by_rank(&doc, 3)["agrees"], false);
    assert_eq!(by_rank(&doc, 3)["bytes"], 64u64 << 20);
}

#[test]
fn no_report_and_no_file() {
    let out = layout(
        &["oom", "-"],
        b"HloModule m\nENTRY e { ROOT p = f32[2] parameter(0) }\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("no out-of-memory report in standard input"));
    let out = layout(&["oom", &path("no-such-report.txt")], b"");
    assert_eq!(out.status.code(), Some(2));
    // Garbage in, no panic.
    let junk: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    let out = layout(&["oom", "-"], &junk);
    assert_eq!(out.status.code(), Some(1));
    let out = layout(&["oom", "-"], b"1. Size: 99999999999999999999999999999E\n   Shape: f32[99999999999,99999999999,99999999999]{2,1,0}\n");
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
}

#[test]
fn the_readme_walk_through_is_the_tools_output() {
    // The package's readme is the repository's README.md; `cargo package`
    // copies it into the packaged crate's root.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let packaged = dir.join("README.md");
    let readme_path = if packaged.exists() {
        packaged
    } else {
        dir.join("../README.md")
    };
    let readme = std::fs::read_to_string(readme_path).unwrap();
    let (_, rest) = readme
        .split_once("`layout oom` recomputes it and explains it:\n\n```text\n")
        .unwrap();
    let (block, _) = rest.split_once("```").unwrap();
    let out = layout(&["oom", &path("hbm.txt")], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(block), "{block}\nnot in\n{text}");
    // And the entry quoted above it is in the report.
    let (_, rest) = readme.split_once("Take this entry of a report").unwrap();
    let (_, rest) = rest.split_once("```text\n").unwrap();
    let (entry, _) = rest.split_once("```").unwrap();
    let report = std::fs::read_to_string(report("hbm.txt")).unwrap();
    for line in entry.lines() {
        assert!(report.contains(line), "{line}");
    }
}
