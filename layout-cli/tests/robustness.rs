//! No input or output condition makes `layout` panic, abort or hang:
//! deeply nested dumps, closed pipes, full disks, huge dimensions.

mod support;
use support::layout;

use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Exit status when the output could not be written.
const EXIT_OUTPUT: i32 = 3;

fn bin() -> Command {
    // The draw tests expect the whole window: no terminal width.
    let mut c = Command::new(env!("CARGO_BIN_EXE_layout"));
    c.env_remove("COLUMNS");
    c
}

/// `depth` computations nested inline (`to_apply={ ... }`), one instruction
/// each, around a leaf instruction.
fn nested_dump(depth: usize) -> Vec<u8> {
    let mut s = String::from("HloModule deep\n\nENTRY %main () -> f32[2] {\n");
    for i in 0..depth {
        s.push_str(&format!("  %i{i} = f32[2]{{0}} call(), to_apply={{\n"));
    }
    s.push_str("  ROOT %leaf = f32[2]{0} constant({1, 2})\n");
    for _ in 0..depth {
        s.push_str("}\n");
    }
    s.push_str("}\n");
    s.into_bytes()
}

/// Runs `layout args` with stdout the write end of a pipe whose reader has
/// already exited: every write to it fails with a broken pipe. Standard
/// input holds one shape (for `check` and `scan -`).
fn with_closed_pipe(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("stdin.hlo");
    // One shape: a valid line for `check`, a stray shape for `scan`.
    std::fs::write(&dump, "f32[2]{0}\n").unwrap();
    let mut reader = bin()
        .arg("--version")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let pipe = reader.stdin.take().unwrap();
    assert!(reader.wait().unwrap().success());
    bin()
        .args(args)
        .stdin(std::fs::File::open(&dump).unwrap())
        .stdout(Stdio::from(pipe))
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// Runs `layout args` with stdin `input` and stdout (or stderr) on a full
/// disk.
#[cfg(target_os = "linux")]
fn with_full_disk(args: &[&str], input: &[u8], stderr_too: bool) -> Output {
    use std::io::Write;
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full");
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(full().unwrap())
        .stderr(if stderr_too {
            Stdio::from(full().unwrap())
        } else {
            Stdio::piped()
        })
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The command may not read stdin at all.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn deeply_nested_computations_do_not_overflow_the_stack() {
    const DEPTH: usize = 20_000;
    /// `hlo::walk::MAX_NESTING`.
    const FOLLOWED: usize = 64;
    let dump = nested_dump(DEPTH);
    let out = layout(&["scan", "--json", "-"], &dump);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let records: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let nested = records
        .iter()
        .filter(|r| r["kind"] == "computation" && r["nested"] == true)
        .count();
    assert_eq!(nested, FOLLOWED);
    // The instruction at the deepest followed level holds the rest: the
    // results of the deeper instructions and the leaf, as attribute shapes.
    let deepest = records
        .iter()
        .find(|r| r["kind"] == "instruction" && r["name"] == format!("%i{FOLLOWED}"))
        .unwrap();
    let attrs = deepest["attributes"].as_array().unwrap();
    assert_eq!(attrs.len(), DEPTH - FOLLOWED);
    assert!(attrs
        .iter()
        .all(|a| a["attribute"] == "to_apply" && a["shape"] == "f32[2]{0}"));
    let totals = records.last().unwrap();
    assert_eq!(totals["kind"], "totals");
    assert_eq!(totals["instructions"], FOLLOWED + 1);
    assert_eq!(totals["computations"], FOLLOWED + 1);
    assert_eq!(totals["shapes"], DEPTH + 2);
    // The table too.
    let out = layout(&["scan", "-"], &dump);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(&format!(
        "-- %i{}.to_apply (nested computation)",
        FOLLOWED - 1
    )));
    assert!(!text.contains(&format!("%i{FOLLOWED}.to_apply")));
}

/// Every command, with the status it has when its output is read.
const COMMANDS: &[(&[&str], i32)] = &[
    (&[], 0),
    (&["explain"], 0),
    (&["explain", "f32[2,3]{0,1:T(2,2)}", "--index", "1,2"], 0),
    (&["draw", "f32[3,5]{1,0:T(2,2)}"], 0),
    (&["offsets", "f32[2048,2048]{0,1:T(8,128)}"], 0),
    (&["offsets", "f32[2,3]", "--index", "1,1"], 0),
    (&["offsets", "f32[2,3]{1,1}"], 1),
    (&["check"], 0),
    (&["scan", "-"], 0),
    (&["scan", "--json", "-"], 0),
    (&["--help"], 0),
    (&["--version"], 0),
];

#[test]
fn a_closed_pipe_ends_quietly_with_the_usual_status() {
    for &(args, code) in COMMANDS {
        let out = with_closed_pipe(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
    // A scan that meets a bad shape still says so in its status (the
    // message about it is part of the output nobody reads).
    let dir = std::env::temp_dir().join(format!("layout-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dump = dir.join("bad.hlo");
    std::fs::write(&dump, "%x = f32[2]{1} add()\n").unwrap();
    for json in [false, true] {
        let mut args = vec!["scan", dump.to_str().unwrap()];
        if json {
            args.push("--json");
        }
        let out = with_closed_pipe(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    // Tens of megabytes of offsets: the reader leaves after the first bytes.
    let mut child = bin()
        .args(["offsets", "f32[2048,2048]{0,1:T(8,128)}"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 10];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    assert_eq!(&first, b"{\"canonica");
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_reported_with_status_3() {
    for &(args, _) in COMMANDS {
        let out = with_full_disk(args, b"f32[2]\n%x = f32[2]{0} add()\n", false);
        assert_eq!(out.status.code(), Some(EXIT_OUTPUT), "{args:?}");
        assert!(
            stderr(&out).contains("cannot write the output"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let dir = std::env::temp_dir().join(format!("layout-full-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("x.svg");
    let out = with_full_disk(
        &["draw", "f32[3,5]", "--svg", svg.to_str().unwrap()],
        b"",
        false,
    );
    assert_eq!(out.status.code(), Some(EXIT_OUTPUT));
    assert!(svg.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_stderr_changes_nothing_but_the_message() {
    // Errors on stderr: their status stands.
    for (args, code) in [
        (&["explain", "f32["][..], 1),
        (&["draw", "f32[2,3]", "--rows", "5"], 1),
        (&["scan", "/nonexistent/dump.hlo"], 2),
        (&["frobnicate"], 2),
    ] {
        let out = with_full_disk(args, b"", true);
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
    // Both full: the output error is still the status.
    let out = with_full_disk(&["explain"], b"", true);
    assert_eq!(out.status.code(), Some(EXIT_OUTPUT));
}

#[test]
fn empty_arrays_with_huge_dims_are_explained_and_drawn() {
    let shape = "f32[0,9223372036854775807]{1,0:T(2,2)}";
    let out = layout(&["explain", shape], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let field = |label: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(label))
            .unwrap_or_else(|| panic!("no {label} in {text}"))
            .trim()
            .to_string()
    };
    assert_eq!(field("tile 0"), "(2,2) -> [0, 4611686018427387904, 2, 2]");
    // The outer stride is 2^62 * 2 * 2 = 2^64: too large, said so, not wrapped.
    assert_eq!(
        field("tile strides"),
        "[2^64 or more, 4, 2, 1] elements per step of each tiled dimension"
    );
    assert_eq!(field("elements"), "0");
    assert_eq!(field("allocated"), "0 slots (0.0% padding)");
    assert_eq!(field("size"), "0 bytes");
    for shape in [shape, "f32[9223372036854775807,0]{1,0:T(2,2)}"] {
        let out = layout(&["draw", shape], b"");
        assert_eq!(out.status.code(), Some(0), "{shape}: {}", stderr(&out));
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            format!("{shape}: rows dim 0, columns dim 1\n(no elements: the slice is empty)\n")
        );
    }
}

#[test]
fn huge_dims_are_drawn_cropped_with_their_padded_extent() {
    // 2^62 - 1 columns, padded by the tile to 2^62.
    let out = layout(&["draw", "s8[1,4611686018427387903]{1,0:T(1,2)}"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].ends_with("(top-left 1x64 of 1x4,611,686,018,427,387,904)"),
        "{}",
        lines[0]
    );
    let row: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(row.len(), 1 + 64);
    assert_eq!(row[..4], ["0", "0", "1", "2"]);
    assert_eq!(row[64], "63");
}

/// A dump of `n` small computations, each called from ENTRY, about 100
/// bytes each.
fn many_computations(n: usize) -> String {
    let mut s = String::from("HloModule many\n\n");
    for i in 0..n {
        s.push_str(&format!(
            "%c{i} (p: f32[4]) -> f32[4] {{\n  %p = f32[4]{{0}} parameter(0)\n  ROOT %r = f32[4]{{0}} negate(f32[4]{{0}} %p)\n}}\n\n"
        ));
    }
    s.push_str("ENTRY %main (p: f32[4]) -> f32[4] {\n  %p = f32[4]{0} parameter(0)\n");
    for i in 0..n {
        s.push_str(&format!("  %w{i} = f32[4]{{0}} call(%p), to_apply=%c{i}\n"));
    }
    s.push_str("  ROOT %t = f32[4]{0} copy(%p)\n}\n");
    s
}

#[test]
fn scan_memory_follows_the_input_not_the_computations() {
    // 100,000 computations, 13 MB: the table and the JSON fit in 64 MiB
    // of heap (`prlimit --data`; an allocation past it aborts), input
    // included; before, each computation held about 1.3 KB per pass.
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("many.hlo");
    std::fs::write(&dump, many_computations(100_000)).unwrap();
    for json in [false, true] {
        let mut c = Command::new("prlimit");
        c.arg(format!("--data={}", 64 << 20))
            .arg(env!("CARGO_BIN_EXE_layout"))
            .args(["scan", dump.to_str().unwrap()]);
        if json {
            c.arg("--json");
        }
        let out = c
            .stderr(Stdio::piped())
            .stdout(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "json {json}: {}", stderr(&out));
        // The totals are all there: every computation is top level, since
        // ENTRY calls each (its `negate`; a callee's `parameter` and the
        // `call` are other values again), and so are ENTRY's parameter and
        // ROOT.
        let text = String::from_utf8(out.stdout).unwrap();
        let last = text.lines().last().unwrap().to_string();
        if json {
            let totals: Value = serde_json::from_str(&last).unwrap();
            assert_eq!(totals["computations"], 100_001);
            assert_eq!(
                totals["top_level_values"][0]["arrays"],
                100_000 + 2,
                "{totals}"
            );
        }
    }
}
