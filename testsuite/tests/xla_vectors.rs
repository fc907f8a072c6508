//! Parity with XLA: thousands of shape strings with XLA's own verdict and
//! canonical print (from `tools/xla_oracle.py`), adjusted by
//! docs/decisions.md; see `layout-cli/tests/data/README.md`. Every string must get the same
//! verdict and a byte-identical canonical form.

use serde_json::Value;

#[test]
fn runtime_agrees_with_xla_on_every_vector() {
    let data = include_str!("../../layout-cli/tests/data/xla_vectors.jsonl");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in data.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let input = v["input"].as_str().unwrap();
        let ok = v["ok"].as_bool().unwrap();
        let canonical = v["canonical"].as_str();
        let ours = xla_layout::parse(input);
        count += 1;
        match (&ours, ok) {
            (Ok(s), true) => {
                let printed = s.to_string();
                if Some(printed.as_str()) != canonical {
                    failures.push(format!("{input:?}: printed {printed:?}, XLA {canonical:?}"));
                }
            }
            (Err(_), false) => {}
            (Ok(s), false) => failures.push(format!(
                "{input:?}: accepted as {s}, expected a rejection ({})",
                v["rule"]
            )),
            (Err(e), true) => failures.push(format!(
                "{input:?}: rejected ({e}), expected {canonical:?} ({})",
                v["rule"]
            )),
        }
    }
    assert!(count >= 1500, "only {count} vectors");
    assert!(
        failures.is_empty(),
        "{} of {count} vectors disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
