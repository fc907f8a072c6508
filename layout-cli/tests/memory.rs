//! `layout scan` on memory: the padding of every value, in the table and
//! in `--json`, on the real dumps in `tests/data/hlo/`.

mod support;
use support::layout;

use std::path::PathBuf;

use serde_json::Value;

fn read(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/hlo")
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
fn table_padding_has_thousands_separators() {
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
    assert_eq!(row("%p")[2..4], ["4096", "4,036"]);
    // 38 x 8 rows of 128 slots: 155,648 bytes for 6,000 of data.
    assert_eq!(row("%q")[3..5], ["155648", "149,648"]);
}
