//! Running the `layout` binary from the integration tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

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
