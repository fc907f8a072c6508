//! `layout scan DIR` run as a user would, on the dump directories in
//! tests/data/dump/ (see its README.md): a real JAX dump from the CPU and
//! a hand-written TPU-style one with tiles, then cut-off and inconsistent
//! copies of them made in temporary directories.

mod support;
use support::layout;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

/// A dump directory in tests/data/dump/.
fn dump(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/dump")
        .join(name)
}

fn run(args: &[&str]) -> (Output, String, String) {
    let out = layout(args, b"");
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out, stdout, stderr)
}

fn scan(dir: &Path) -> (Output, String, String) {
    run(&["scan", dir.to_str().unwrap()])
}

fn scan_json(dir: &Path) -> (Output, Vec<Value>) {
    let (out, stdout, _) = run(&["scan", "--json", dir.to_str().unwrap()]);
    let records = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out, records)
}

/// The value named `name` in a module record.
fn value<'a>(module: &'a Value, name: &str) -> &'a Value {
    module["allocations"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| a["values"].as_array().unwrap())
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no value {name}"))
}

/// The lines of `text` whose words are `words`, spaces collapsed.
fn has_row(text: &str, words: &[&str]) -> bool {
    text.lines()
        .any(|l| l.split_whitespace().collect::<Vec<_>>() == words)
}

#[test]
fn a_jax_cpu_dump_lists_allocations_values_and_totals() {
    let (out, stdout, stderr) = scan(&dump("jax_cpu"));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.starts_with(
        "module jit_step: module_0000.jit_step.cpu_after_optimizations-buffer-assignment.txt\n  \
         HLO: module_0000.jit_step.cpu_after_optimizations.txt\n  \
         total from: module_0000.jit_step.cpu_after_optimizations-buffer-assignment-values.txt\n"
    ));
    // An allocation, then its values: opcode from the HLO, offset, the
    // compiler's size, ours, the padding, the shape.
    for row in [
        &["allocation", "10", "1,024", "1,024", "preallocated-temp"][..],
        &[
            "ynn_fusion",
            "fusion",
            "0",
            "1,024",
            "1,024",
            "0",
            "f32[8,32]{1,0}",
        ],
        &[
            "add_tanh_fusion",
            "fusion",
            "0",
            "1,024",
            "1,024",
            "0",
            "f32[8,32]{1,0}",
        ],
        &[
            "w.1",
            "parameter",
            "0",
            "2,048",
            "2,048",
            "0",
            "f32[16,32]{1,0}",
        ],
        &[
            "tuple.1{}",
            "tuple",
            "0",
            "16",
            "-",
            "-",
            "(f32[32]{0},",
            "bf16[8,32]{1,0})",
        ],
        &["reduce_sum.5", "add", "0", "4", "4", "0", "f32[]"],
        // jit_scale: the loop's values share allocation 5's bytes.
        &["allocation", "5", "129", "129", "preallocated-temp"],
        &["wrapped_compare", "fusion", "128", "1", "1", "0", "pred[]"],
        &[
            "arg_tuple.3{0}",
            "(phi)",
            "parameter",
            "64",
            "4",
            "4",
            "0",
            "s32[]",
        ],
    ] {
        assert!(has_row(&stdout, row), "no row {row:?} in\n{stdout}");
    }
    assert!(stdout.contains(
        "totals:\n  11 allocation(s): the compiler's 4,384 bytes (4.3 KiB; Total bytes used); \
         by our value sizes 4,384\n  12 value(s), 11 array(s): the compiler's sizes 5,392, \
         ours 5,392, unpadded 5,392, padding 0 (0.0%)\n  11 of 11 array size(s) agree\n"
    ));
    assert!(stdout.contains(
        "  6 allocation(s): the compiler's 261 bytes (Total bytes used); by our value sizes 261\n"
    ));
    assert!(stdout.contains(
        "jax_cpu: 2 module(s)\n  17 allocation(s): the compiler's \
         4,645 bytes (4.5 KiB; Total bytes used); by our value sizes 4,645\n"
    ));
    assert!(stdout.contains("  26 of 26 array size(s) agree\n"));
    assert!(stdout.contains(
        "HLO without a buffer assignment (2; `layout scan FILE` reads one): \
         module_0000.jit_step.before_optimizations.txt, module_0002.jit_scale.before_optimizations.txt\n"
    ));
}

#[test]
fn a_jax_cpu_dump_as_json() {
    let (out, records) = scan_json(&dump("jax_cpu"));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(records.len(), 3);
    let step = &records[0];
    assert_eq!(step["kind"], "module");
    assert_eq!(step["module"], "jit_step");
    assert_eq!(
        step["hlo_file"],
        "module_0000.jit_step.cpu_after_optimizations.txt"
    );
    let t = &step["totals"];
    assert_eq!(t["compiler_total_bytes"], 4384);
    assert_eq!(t["allocated_bytes"], 4384);
    assert_eq!(t["bytes_by_values"], 4384);
    assert_eq!(
        (t["values"].as_u64(), t["arrays"].as_u64()),
        (Some(12), Some(11))
    );
    assert_eq!(
        (t["agree"].as_u64(), t["differ"].as_u64()),
        (Some(11), Some(0))
    );
    let w = value(step, "w.1");
    assert_eq!(w["compiler_bytes"], 2048);
    assert_eq!(w["bytes"], 2048);
    assert_eq!(w["padding_bytes"], 0);
    assert_eq!(w["agrees"], true);
    assert_eq!(w["opcode"], "parameter");
    assert_eq!(w["computation"], "main.2");
    assert_eq!(w["line"], 3);
    let tuple = value(step, "tuple.1");
    assert_eq!(tuple["shape_type"], "tuple");
    assert_eq!(tuple["shape_index"], "{}");
    assert_eq!(tuple["agrees"], Value::Null);
    // A fusion body's value (thread-local) is found in its computation.
    assert_eq!(value(step, "reduce_sum.3")["computation"], "region_0.1");
    let scale = &records[1];
    assert_eq!(scale["module"], "jit_scale");
    let phi = value(scale, "while.0");
    assert_eq!(phi["phi"], true);
    let dir = &records[2];
    assert_eq!(dir["kind"], "directory");
    assert_eq!(dir["modules"], 2);
    assert_eq!(dir["totals"]["compiler_total_bytes"], 4645);
    assert_eq!(dir["totals"]["bytes_by_values"], 4645);
    assert_eq!(dir["hlo_without_assignment"].as_array().unwrap().len(), 2);
}

#[test]
fn a_tpu_dump_shows_the_tiles_padding() {
    let (out, stdout, stderr) = scan(&dump("tpu"));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for row in [
        &[
            "x",
            "parameter",
            "0",
            "4,096",
            "4,096",
            "4,036",
            "f32[3,5]{1,0:T(8,128)}",
        ][..],
        &[
            "iota",
            "iota",
            "0",
            "4,194,304",
            "4,194,304",
            "4,063,232",
            "s32[1024,8,4]{2,1,0:T(8,128)}",
        ],
        &[
            "gather",
            "gather",
            "4,194,304",
            "65,536",
            "65,536",
            "62,464",
            "f32[128,6]{1,0:T(8,128)}",
        ],
        &[
            "convert",
            "convert",
            "0",
            "4,096",
            "4,096",
            "96",
            "bf16[2,1000]{1,0:T(2,128)(2,1)}",
        ],
        &[
            "y",
            "parameter",
            "0",
            "8,192",
            "8,192",
            "1,792",
            "bf16[16,200]{1,0:T(8,128)(2,1)}",
        ],
        &[
            "constant.1",
            "constant",
            "0",
            "512",
            "512",
            "508",
            "f32[]{:T(128)}",
        ],
        &[
            "copy",
            "copy",
            "0",
            "4,096",
            "4,096",
            "4,036",
            "f32[3,5]{1,0:T(8,128)S(1)}",
        ],
        &[
            "allocation",
            "6",
            "4,096",
            "4,096",
            "color",
            "1,",
            "preallocated-temp",
        ],
        &[
            "allocation",
            "7",
            "4,259,840",
            "4,259,840",
            "preallocated-temp",
        ],
    ] {
        assert!(has_row(&stdout, row), "no row {row:?} in\n{stdout}");
    }
    assert!(stdout.contains(
        "  8 allocation(s): the compiler's 4,411,920 bytes (4.2 MiB; Total bytes used); \
         by our value sizes 4,411,920\n  by memory space: device (0) 4,407,824, \
         fast/VMEM (1) 4,096\n  10 value(s), 9 array(s): the compiler's sizes \
         4,416,000, ours 4,416,000, unpadded 275,800, padding 4,140,200 (93.8%)\n  \
         unpadded as the compiler reports it (E(n) not packed): 177,496\n  \
         9 of 9 array size(s) agree\n"
    ));

    let (_, records) = scan_json(&dump("tpu"));
    let m = &records[0];
    let pred = value(m, "m");
    assert_eq!(pred["bytes"], 131_072);
    assert_eq!(pred["unpadded_bytes"], 131_072);
    assert_eq!(pred["compiler_unpadded_bytes"], 32_768);
    assert_eq!(value(m, "copy")["color"], 1);
    assert_eq!(m["allocations"][6]["color"], 1);
    assert_eq!(m["allocations"][7]["bytes"], 4_259_840);
    assert_eq!(
        m["totals"]["allocated_bytes_by_color"],
        serde_json::json!([{"color": 0, "bytes": 4_407_824}, {"color": 1, "bytes": 4096}])
    );
    assert_eq!(m["values_file"], Value::Null);
}

#[test]
fn a_directory_without_a_buffer_assignment_is_bad_input() {
    let hlo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/hlo");
    let (out, stdout, stderr) = scan(&hlo);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout, "");
    assert!(stderr.contains("no buffer assignment in"), "{stderr}");

    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("m.before_optimizations.txt"), "HloModule m\n").unwrap();
    let (out, stdout, stderr) = scan(d.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("it holds 1 HLO file(s), which `layout scan FILE` reads one at a time"),
        "{stderr}"
    );
}

#[test]
fn ranking_options_are_for_one_file() {
    for flag in [
        &["--sort", "bytes"][..],
        &["--top", "3"],
        &["--computation", "main"],
    ] {
        let mut args = vec!["scan"];
        args.extend_from_slice(flag);
        let dir = dump("tpu");
        args.push(dir.to_str().unwrap());
        let (out, stdout, stderr) = run(&args);
        assert_eq!(out.status.code(), Some(2), "{flag:?}");
        assert_eq!(stdout, "");
        assert!(stderr.contains("not a dump directory"), "{stderr}");
    }
}

/// A copy of the TPU dump in a temporary directory, its buffer assignment
/// replaced by `text`.
fn tpu_with(text: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(dump("tpu")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), d.path().join(entry.file_name())).unwrap();
    }
    std::fs::write(d.path().join(TPU_ASSIGNMENT), text).unwrap();
    d
}

const TPU_ASSIGNMENT: &str =
    "module_0007.jit_train_step.tpu_after_optimizations-buffer-assignment.txt";

fn tpu_assignment() -> String {
    std::fs::read_to_string(dump("tpu").join(TPU_ASSIGNMENT)).unwrap()
}

#[test]
fn a_cut_off_file_is_reported_with_its_line_and_the_rest_is_read() {
    let full = tpu_assignment();
    // Cut in the middle of line 18 (a value of allocation 7).
    let at = full.find("(size=65536,off").unwrap() + "(size=65536,off".len();
    let d = tpu_with(&full[..at]);
    let (out, stdout, stderr) = scan(d.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains(&format!(
            "{TPU_ASSIGNMENT}:18: a value line needs `,offset=BYTES`"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{TPU_ASSIGNMENT}: no `Total bytes used:` line")),
        "{stderr}"
    );
    // What was read is still listed.
    assert!(has_row(
        &stdout,
        &[
            "iota",
            "iota",
            "0",
            "4,194,304",
            "4,194,304",
            "4,063,232",
            "s32[1024,8,4]{2,1,0:T(8,128)}"
        ]
    ));
    assert!(stdout
        .contains("the compiler's 4,411,920 bytes (4.2 MiB; summed; no Total bytes used read)"));

    // Cut after each line: no panic, and exit 1 for every cut before the
    // total (the last cuts keep it).
    let lines: Vec<&str> = full.split_inclusive('\n').collect();
    for n in [0, 1, 2, 5, 12, 16, 19] {
        let d = tpu_with(&lines[..n].concat());
        let (out, _, stderr) = scan(d.path());
        assert_eq!(out.status.code(), Some(1), "cut after {n} lines: {stderr}");
    }
}

#[test]
fn a_total_that_the_allocations_do_not_make_is_reported() {
    let text = tpu_assignment().replace(
        "allocation 5: size 512, constant:\n value: <3 constant.1 @0> (size=512,offset=0): f32[]{:T(128)}\n",
        "",
    );
    let d = tpu_with(&text);
    let (out, stdout, stderr) = scan(d.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains(&format!(
            "{TPU_ASSIGNMENT}:19: the allocations add up to 4411408 bytes, but `Total bytes used:` says 4411920"
        )),
        "{stderr}"
    );
    assert!(stdout.contains(
        "the compiler's 4,411,920 bytes (4.2 MiB; Total bytes used), though the allocations add up to 4,411,408"
    ));
}

#[test]
fn a_size_that_differs_from_ours_is_marked() {
    // As if the compiler had not padded the second-minor dimension to 8.
    let text = tpu_assignment()
        .replace("allocation 0: size 4096,", "allocation 0: size 2048,")
        .replace("<0 x @0> (size=4096,", "<0 x @0> (size=2048,")
        .replace("Total bytes used: 4411920", "Total bytes used: 4409872");
    let d = tpu_with(&text);
    let (out, stdout, stderr) = scan(d.path());
    // A difference is a finding, not an error.
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(has_row(
        &stdout,
        &[
            "x",
            "parameter",
            "0",
            "2,048",
            "4,096*",
            "4,036",
            "f32[3,5]{1,0:T(8,128)}"
        ]
    ));
    assert!(has_row(
        &stdout,
        &[
            "allocation",
            "0",
            "2,048",
            "4,096*",
            "parameter",
            "0,",
            "shape",
            "|f32[3,5]|",
            "at",
            "ShapeIndex",
            "{}"
        ]
    ));
    assert!(stdout.contains("* our size differs from the compiler's\n"));
    assert!(stdout.contains("  8 of 9 array size(s) agree\n"));
    let (_, records) = scan_json(d.path());
    assert_eq!(value(&records[0], "x")["agrees"], false);
    assert_eq!(records[0]["totals"]["differ"], 1);
}

#[test]
fn a_shape_that_does_not_parse_is_bad_input() {
    let text = tpu_assignment().replace("f32[128,6]{1,0:T(8,128)}", "f32[128,6]{1,0:T(8,128}");
    let d = tpu_with(&text);
    let (out, stdout, stderr) = scan(d.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains(&format!(
            "{TPU_ASSIGNMENT}:18: the shape of <7 gather> does not parse"
        )),
        "{stderr}"
    );
    assert!(has_row(
        &stdout,
        &[
            "gather",
            "gather",
            "4,194,304",
            "65,536",
            "?",
            "?",
            "f32[128,6]{1,0:T(8,128}"
        ]
    ));
}

/// A reader that goes away is not an error; a full disk is exit 3.
#[test]
fn a_closed_pipe_and_a_full_disk() {
    use std::process::{Command, Stdio};
    let dir = dump("jax_cpu");
    for json in [false, true] {
        let mut args = vec!["scan", dir.to_str().unwrap()];
        if json {
            args.push("--json");
        }
        // A pipe whose reader has already exited.
        let mut reader = Command::new(env!("CARGO_BIN_EXE_layout"))
            .arg("--version")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let pipe = reader.stdin.take().unwrap();
        assert!(reader.wait().unwrap().success());
        let out = Command::new(env!("CARGO_BIN_EXE_layout"))
            .args(&args)
            .stdout(Stdio::from(pipe))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");

        #[cfg(target_os = "linux")]
        {
            let full = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let out = Command::new(env!("CARGO_BIN_EXE_layout"))
                .args(&args)
                .stdout(full)
                .stderr(Stdio::piped())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(3), "{args:?}");
            assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write the output"));
        }
    }
}
