//! Running the `layout` binary from the integration tests, and the dumps
//! in tests/data/hlo/.
// Each test file uses some of these.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The path of a dump in tests/data/hlo/.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hlo")
        .join(name)
}

/// The bytes of a dump in tests/data/hlo/.
pub fn read(name: &str) -> Vec<u8> {
    std::fs::read(data(name)).unwrap()
}

/// `layout scan --json -` on `input`: the output and its JSON records.
pub fn scan_json(input: &[u8]) -> (Output, Vec<serde_json::Value>) {
    let out = layout(&["scan", "--json", "-"], input);
    let lines = String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out, lines)
}

/// Runs `layout` with `args`, feeding `stdin` from another thread so that a
/// large output cannot block on a full pipe.
pub fn layout(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_layout"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || pipe.write_all(&input));
    let out = child.wait_with_output().unwrap();
    // The child may exit without reading stdin (a path argument, a usage
    // error): a broken pipe on our side is not a failure.
    let _ = writer.join().unwrap();
    out
}
