//! `layout relayout` on real files, run as a user would.

mod support;
use support::layout;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use layout_core::parse_array;

fn run(from: &str, to: &str, input: &Path, output: &Path) -> Output {
    layout(
        &[
            "relayout",
            "--from",
            from,
            "--to",
            to,
            input.to_str().unwrap(),
            output.to_str().unwrap(),
        ],
        b"",
    )
}

/// [`run`] on two files of `dir`.
fn run_in(dir: &tempfile::TempDir, from: &str, to: &str, input: &str, output: &str) -> Output {
    run(from, to, &path(dir, input), &path(dir, output))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts that the run failed with `code` and said `needle` on stderr.
fn refused(out: &Output, code: i32, needle: &str) {
    assert_eq!(out.status.code(), Some(code), "{}", stderr(out));
    assert!(stderr(out).contains(needle), "{}", stderr(out));
}

/// The names in `dir`, sorted: no temporary file may be left behind.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// `n` little-endian f32 values 0, 1, 2, ...
fn f32_ramp(n: usize) -> Vec<u8> {
    (0..n).flat_map(|i| (i as f32).to_le_bytes()).collect()
}

/// An `.npy` file written by hand: version 1.0, the dict padded with
/// spaces and a newline so the data starts at a multiple of 64.
fn npy_file(descr: &str, fortran_order: bool, shape: &str, data: &[u8]) -> Vec<u8> {
    let order = if fortran_order { "True" } else { "False" };
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': {order}, 'shape': {shape}, }}");
    while (10 + dict.len() + 1) % 64 != 0 {
        dict.push(' ');
    }
    dict.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.extend_from_slice(data);
    out
}

/// The dict text and the data of a version 1.0 `.npy` file.
fn split_npy(bytes: &[u8]) -> (String, &[u8]) {
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "the data is 64-byte aligned");
    let dict = String::from_utf8(bytes[10..10 + len].to_vec()).unwrap();
    assert!(dict.ends_with('\n'));
    (dict, &bytes[10 + len..])
}

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn path(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

/// `f32[10,200]` row-major.
const ROWS: &str = "f32[10,200]{1,0}";
/// `f32[10,200]` in 8 x 128 tiles (16 x 256 slots).
const TILED: &str = "f32[10,200]{1,0:T(8,128)}";

/// Writes a ramp of `f32[10,200]` to `a.bin` in `d` and relayouts it
/// into `t.bin` in tiles, which must succeed: the ramp's bytes and the
/// run's output.
fn tile_ramp(d: &tempfile::TempDir) -> (Vec<u8>, Output) {
    let input = f32_ramp(10 * 200);
    fs::write(path(d, "a.bin"), &input).unwrap();
    let out = run(ROWS, TILED, &path(d, "a.bin"), &path(d, "t.bin"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    (input, out)
}

#[test]
fn raw_files_round_trip_through_tiles() {
    let d = dir();
    let (rows, tiled) = (ROWS, TILED);
    let (input, out) = tile_ramp(&d);
    assert!(String::from_utf8_lossy(&out.stdout).contains("t.bin"));
    let t = fs::read(path(&d, "t.bin")).unwrap();
    let shape = parse_array(tiled).unwrap();
    // Padded to 16 x 256 slots.
    assert_eq!(t.len() as u64, shape.size_in_bytes().unwrap());
    assert_eq!(t.len(), 16 * 256 * 4);
    for (i, j) in [(3u64, 150u64), (9, 199), (0, 0), (8, 127)] {
        let at = shape.byte_offset(&[i, j]).unwrap() as usize;
        let value = f32::from_le_bytes(t[at..at + 4].try_into().unwrap());
        assert_eq!(value, (i * 200 + j) as f32, "element ({i}, {j})");
    }
    // Tile padding is zeros: (9, 200) is past dim 1, in the last tile.
    assert_eq!(&t[t.len() - 4..], &[0, 0, 0, 0]);

    let out = run(tiled, rows, &path(&d, "t.bin"), &path(&d, "b.bin"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read(path(&d, "b.bin")).unwrap(), input);
    assert_eq!(names(d.path()), ["a.bin", "b.bin", "t.bin"]);
}

#[test]
fn npy_in_raw_out_and_raw_in_npy_out() {
    let d = dir();
    let data: Vec<u8> = (0..15i32).flat_map(|v| (v * 7).to_le_bytes()).collect();
    fs::write(path(&d, "a.npy"), npy_file("<i4", false, "(3, 5)", &data)).unwrap();

    // Row-major .npy to a raw column-major file.
    let out = run_in(&d, "s32[3,5]{1,0}", "s32[3,5]{0,1}", "a.npy", "cols.bin");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let cols = fs::read(path(&d, "cols.bin")).unwrap();
    assert_eq!(cols.len(), 60);
    for i in 0..3 {
        for j in 0..5 {
            let at = (j * 3 + i) * 4;
            let v = i32::from_le_bytes(cols[at..at + 4].try_into().unwrap());
            assert_eq!(v, ((i * 5 + j) * 7) as i32);
        }
    }

    // Back to a row-major .npy: a proper header, then the data.
    let out = run_in(&d, "s32[3,5]{0,1}", "s32[3,5]{1,0}", "cols.bin", "back.npy");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let back = fs::read(path(&d, "back.npy")).unwrap();
    let (dict, body) = split_npy(&back);
    assert!(
        dict.starts_with("{'descr': '<i4', 'fortran_order': False, 'shape': (3, 5), }"),
        "{dict}"
    );
    assert_eq!(body, data);

    // A column-major --to makes a Fortran-order .npy of the same bytes as
    // the raw column-major file, and reads back with a column-major --from.
    let out = run_in(&d, "s32[3,5]{1,0}", "s32[3,5]{0,1}", "a.npy", "f.npy");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let f = fs::read(path(&d, "f.npy")).unwrap();
    let (dict, body) = split_npy(&f);
    assert!(dict.contains("'fortran_order': True"), "{dict}");
    assert!(dict.contains("'shape': (3, 5)"), "{dict}");
    assert_eq!(body, cols);
    let out = run_in(&d, "s32[3,5]{0,1}", "s32[3,5]{1,0}", "f.npy", "g.bin");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read(path(&d, "g.bin")).unwrap(), data);
}

#[test]
fn one_dimensional_and_one_byte_npy_headers() {
    let d = dir();
    fs::write(
        path(&d, "p.npy"),
        npy_file("|b1", false, "(4,)", &[1, 0, 0, 1]),
    )
    .unwrap();
    let out = run_in(&d, "pred[4]{0}", "pred[4]{0}", "p.npy", "q.npy");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let q = fs::read(path(&d, "q.npy")).unwrap();
    let (dict, body) = split_npy(&q);
    assert!(dict.contains("'descr': '|b1'"), "{dict}");
    assert!(dict.contains("'shape': (4,)"), "{dict}");
    assert_eq!(body, [1, 0, 0, 1]);
}

/// `np.save` of `np.arange(6).astype(ml_dtypes.bfloat16).reshape(2, 3)`
/// (ml_dtypes 0.6, NumPy 2.4): the header as it wrote it, then the six
/// values 0.0 to 5.0 as bf16.
const ML_DTYPES_BF16: &[u8] = b"\x93NUMPY\x01\x00v\x00{'descr': '<V2', 'fortran_order': False, 'shape': (2, 3), }                                                          \n\x00\x00\x80\x3f\x00\x40\x40\x40\x80\x40\xa0\x40";

#[test]
fn ml_dtypes_npy_files_hold_raw_bytes() {
    let d = dir();
    fs::write(path(&d, "a.npy"), ML_DTYPES_BF16).unwrap();
    // bf16 from ml_dtypes' file to a raw column-major file.
    let out = run_in(&d, "bf16[2,3]{1,0}", "bf16[2,3]{0,1}", "a.npy", "cols.bin");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let data = &ML_DTYPES_BF16[128..];
    let value = |b: &[u8], k: usize| u16::from_le_bytes([b[2 * k], b[2 * k + 1]]);
    let cols = fs::read(path(&d, "cols.bin")).unwrap();
    for i in 0..2 {
        for j in 0..3 {
            assert_eq!(value(&cols, j * 2 + i), value(data, i * 3 + j));
        }
    }
    // And back into an .npy: NumPy's raw-bytes type string, the same data.
    let out = run_in(&d, "bf16[2,3]{0,1}", "bf16[2,3]{1,0}", "cols.bin", "b.npy");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let b = fs::read(path(&d, "b.npy")).unwrap();
    let (dict, body) = split_npy(&b);
    assert!(
        dict.starts_with("{'descr': '|V2', 'fortran_order': False, 'shape': (2, 3), }"),
        "{dict}"
    );
    assert_eq!(body, data);
    // Which reads back, as ml_dtypes' own file does.
    let out = run_in(&d, "bf16[2,3]{1,0}", "bf16[2,3]{1,0}", "b.npy", "c.bin");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read(path(&d, "c.bin")).unwrap(), data);

    // One-byte types: `<V1`, and `<f1` for float8_e5m2 (ml_dtypes' type
    // strings); `s4` unpacked, one element per byte.
    let bytes = [0x00, 0x3c, 0x40, 0x42, 0x44, 0x45];
    for (from, descr) in [
        ("f8e5m2[2,3]{1,0}", "<f1"),
        ("f8e4m3fn[2,3]{1,0}", "<V1"),
        ("s4[2,3]{1,0}", "|V1"),
    ] {
        fs::write(path(&d, "e.npy"), npy_file(descr, false, "(2, 3)", &bytes)).unwrap();
        let to = from.replace("{1,0}", "{0,1}");
        let out = run_in(&d, from, &to, "e.npy", "e.bin");
        assert_eq!(out.status.code(), Some(0), "{from}: {}", stderr(&out));
        let e = fs::read(path(&d, "e.bin")).unwrap();
        assert_eq!(e, [0x00, 0x42, 0x3c, 0x44, 0x40, 0x45], "{from}");
        let out = run_in(&d, &to, from, "e.bin", "f.npy");
        assert_eq!(out.status.code(), Some(0), "{from}: {}", stderr(&out));
        let f = fs::read(path(&d, "f.npy")).unwrap();
        let (dict, body) = split_npy(&f);
        assert!(dict.contains("'descr': '|V1'"), "{from}: {dict}");
        assert_eq!(body, bytes, "{from}");
    }

    // The wrong width, and `<f1` for any other type, are refused.
    let cases = [
        ("bf16[2,3]{1,0}", "<V1", "has dtype '<V1' but --from bf16[2,3]{1,0} is '|V2' (bf16 as raw 2-byte values, as ml_dtypes saves it)"),
        ("f8e4m3fn[2,3]{1,0}", "<f1", "has dtype '<f1' but --from f8e4m3fn[2,3]{1,0} is '|V1'"),
        ("u8[2,3]{1,0}", "<V1", "has dtype '<V1' but --from u8[2,3]{1,0} is '|u1'"),
    ];
    for (from, descr, message) in cases {
        fs::write(path(&d, "e.npy"), npy_file(descr, false, "(2, 3)", &bytes)).unwrap();
        let out = run_in(&d, from, from, "e.npy", "g.bin");
        refused(&out, 1, message);
    }
    assert!(!path(&d, "g.bin").exists());

    // Packed `s4` unpacks into an .npy file, a value per byte
    // (sign-extended; ml_dtypes reads the low four bits), but the packed
    // side itself has no .npy form.
    fs::write(path(&d, "p.bin"), [0x21, 0x8f, 0x70]).unwrap();
    let out = run_in(&d, "s4[2,3]{1,0:E(4)}", "s4[2,3]{1,0}", "p.bin", "h.npy");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let h = fs::read(path(&d, "h.npy")).unwrap();
    assert_eq!(split_npy(&h).1, [1, 2, 0xff, 0xf8, 0, 7]);
    let out = run_in(&d, "s4[2,3]{1,0}", "s4[2,3]{1,0:E(4)}", "h.npy", "q.npy");
    refused(
        &out,
        1,
        "an .npy file holds s4 in 8 bits each, but --to s4[2,3]{1,0:E(4)} stores it in 4 bits; as NumPy stores it: s4[2,3]{1,0}",
    );
    assert!(!path(&d, "q.npy").exists());
}

#[test]
fn a_size_mismatch_is_refused_and_nothing_is_written() {
    let d = dir();
    fs::write(path(&d, "a.bin"), [0u8; 95]).unwrap();
    let out = run_in(&d, "f32[4,6]{1,0}", "f32[4,6]{0,1}", "a.bin", "b.bin");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("95 bytes"), "{err}");
    assert!(err.contains("96 bytes"), "{err}");
    assert!(err.contains("f32[4,6]{1,0}"), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(names(d.path()), ["a.bin"]);
}

#[test]
fn a_failed_run_leaves_an_existing_output_untouched() {
    let d = dir();
    fs::write(path(&d, "a.bin"), [0u8; 95]).unwrap();
    fs::write(path(&d, "b.bin"), b"keep me").unwrap();
    let out = run_in(&d, "f32[4,6]{1,0}", "f32[4,6]{0,1}", "a.bin", "b.bin");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(fs::read(path(&d, "b.bin")).unwrap(), b"keep me");

    // Failing at the very end: OUTPUT is a directory, so the rename fails
    // after the temporary file was written; it is removed again.
    fs::write(path(&d, "c.bin"), [0u8; 96]).unwrap();
    fs::create_dir(path(&d, "out")).unwrap();
    fs::write(path(&d, "out").join("inside"), b"x").unwrap();
    let out = run_in(&d, "f32[4,6]{1,0}", "f32[4,6]{0,1}", "c.bin", "out");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert_eq!(names(d.path()), ["a.bin", "b.bin", "c.bin", "out"]);
    assert_eq!(names(&path(&d, "out")), ["inside"]);

    // A successful run replaces it.
    fs::write(path(&d, "a.bin"), [7u8; 96]).unwrap();
    let out = run_in(&d, "f32[4,6]{1,0}", "f32[4,6]{1,0}", "a.bin", "b.bin");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read(path(&d, "b.bin")).unwrap(), [7u8; 96]);
}

#[test]
fn npy_sides_must_be_row_major() {
    let d = dir();
    let data = f32_ramp(20);
    fs::write(path(&d, "a.npy"), npy_file("<f4", false, "(4, 5)", &data)).unwrap();
    fs::write(path(&d, "b.npy"), b"keep").unwrap();
    let out = run_in(
        &d,
        "f32[4,5]{1,0:T(2,2)}",
        "f32[4,5]{1,0}",
        "a.npy",
        "b.npy",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(
            "an .npy file holds a row-major array; --from must be row-major, e.g. f32[4,5]{1,0}"
        ),
        "{err}"
    );
    // A column-major --from is the Fortran order the file does not have.
    let out = run_in(&d, "f32[4,5]{0,1}", "f32[4,5]{1,0}", "a.npy", "b.npy");
    refused(&out, 1, "row-major");
    // The same for an .npy OUTPUT, refused before reading anything.
    let out = run_in(
        &d,
        "f32[4,5]{1,0}",
        "f32[4,5]{1,0:T(2,2)}",
        "missing.bin",
        "b.npy",
    );
    refused(&out, 1, "--to must be row-major");
    assert_eq!(fs::read(path(&d, "b.npy")).unwrap(), b"keep");
    assert_eq!(names(d.path()), ["a.npy", "b.npy"]);
}

#[test]
fn npy_headers_must_match_from() {
    let d = dir();
    let data = f32_ramp(20);
    fs::write(path(&d, "a.npy"), npy_file("<f4", false, "(4, 5)", &data)).unwrap();
    let cases = [
        (
            "s32[4,5]{1,0}",
            "has dtype '<f4' but --from s32[4,5]{1,0} is '<i4'",
        ),
        (
            "f32[5,4]{1,0}",
            "has shape [4, 5] but --from f32[5,4]{1,0} has dims [5, 4]",
        ),
        ("f32[20]{0}", "has shape [4, 5]"),
        (
            "bf16[4,10]{1,0}",
            "has dtype '<f4' but --from bf16[4,10]{1,0} is '|V2' (bf16 as raw 2-byte values, as ml_dtypes saves it)",
        ),
    ];
    for (from, message) in cases {
        let out = run(from, from, &path(&d, "a.npy"), &path(&d, "b.bin"));
        assert_eq!(out.status.code(), Some(1), "{from}");
        assert!(stderr(&out).contains(message), "{from}: {}", stderr(&out));
    }
    // A Fortran-order file needs a column-major --from (rank 2 and up).
    fs::write(path(&d, "f.npy"), npy_file("<f4", true, "(4, 5)", &data)).unwrap();
    let out = run_in(&d, "f32[4,5]{1,0}", "f32[4,5]{1,0}", "f.npy", "b.bin");
    refused(
        &out,
        1,
        "give --from the column-major layout, e.g. f32[4,5]{0,1}",
    );
    fs::write(path(&d, "v.npy"), npy_file("<f4", true, "(20,)", &data)).unwrap();
    let out = run_in(&d, "f32[20]{0}", "f32[20]{0}", "v.npy", "v.bin");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read(path(&d, "v.bin")).unwrap(), data);
    fs::remove_file(path(&d, "v.bin")).unwrap();

    // A header that says more data than there is.
    let mut short = npy_file("<f4", false, "(4, 5)", &data);
    short.truncate(short.len() - 4);
    fs::write(path(&d, "short.npy"), short).unwrap();
    let out = run_in(&d, "f32[4,5]{1,0}", "f32[4,5]{0,1}", "short.npy", "b.bin");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("the data of"), "{err}");
    assert!(
        err.contains("76 bytes but f32[4,5]{1,0} takes 80 bytes"),
        "{err}"
    );
    assert_eq!(names(d.path()), ["a.npy", "f.npy", "short.npy", "v.npy"]);
}

#[test]
fn unreadable_inputs_exit_2() {
    let d = dir();
    let out = run_in(&d, "f32[4]{0}", "f32[4]{0}", "missing.bin", "b.bin");
    refused(&out, 2, "cannot read");
    let out = run("f32[4]{0}", "f32[4]{0}", d.path(), &path(&d, "b.bin"));
    assert_eq!(out.status.code(), Some(2));
    // Not an .npy file, though named one.
    fs::write(path(&d, "fake.npy"), [0u8; 16]).unwrap();
    let out = run_in(&d, "f32[4]{0}", "f32[4]{0}", "fake.npy", "b.bin");
    refused(&out, 2, "as an .npy file");
    assert_eq!(names(d.path()), ["fake.npy"]);
}

#[test]
fn invalid_or_different_shapes_exit_1() {
    let d = dir();
    fs::write(path(&d, "a.bin"), [0u8; 16]).unwrap();
    let out = run_in(&d, "f32[4]{1}", "f32[4]{0}", "a.bin", "b.bin");
    refused(&out, 1, "f32[4]{1}\n");
    assert!(stderr(&out).contains('^'), "{}", stderr(&out));
    let out = run_in(&d, "f32[4]{0}", "f32[5]{0}", "a.bin", "b.bin");
    refused(
        &out,
        1,
        "dimension 0 has size 4 in the source and 5 in the destination",
    );
    // A missing directory for OUTPUT.
    let out = run_in(&d, "f32[4]{0}", "f32[4]{0}", "a.bin", "no/such/b.bin");
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(names(d.path()), ["a.bin"]);
}

#[test]
fn empty_and_huge_arrays() {
    let d = dir();
    fs::write(path(&d, "empty.bin"), b"").unwrap();
    let out = run_in(
        &d,
        "f32[0,5]{1,0}",
        "f32[0,5]{0,1:T(8,128)}",
        "empty.bin",
        "e.bin",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(fs::read(path(&d, "e.bin")).unwrap().is_empty());
    let out = run_in(&d, "f32[0,5]{1,0}", "f32[0,5]{1,0}", "empty.bin", "e.npy");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let e = fs::read(path(&d, "e.npy")).unwrap();
    let (dict, body) = split_npy(&e);
    assert!(dict.contains("'shape': (0, 5)"), "{dict}");
    assert!(body.is_empty());

    // Sizes past memory (or past u64) are refused before anything is
    // allocated or written.
    for (from, to, message) in [
        (
            "u8[3037000499,3037000499]{1,0}",
            "u8[3037000499,3037000499]{0,1}",
            "takes 9223372030926249001 bytes",
        ),
        (
            "u8[3037000499,3037000499]{1,0}",
            "u8[3037000499,3037000499]{0,1:T(8,128)}",
            "overflows",
        ),
        (
            "u8[4294967296,4294967296]{1,0}",
            "u8[4294967296,4294967296]{0,1}",
            "overflows",
        ),
    ] {
        let out = run(from, to, &path(&d, "empty.bin"), &path(&d, "h.bin"));
        assert_eq!(out.status.code(), Some(1), "{from}: {}", stderr(&out));
        assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
        assert!(stderr(&out).contains(message), "{}", stderr(&out));
    }
    assert_eq!(names(d.path()), ["e.bin", "e.npy", "empty.bin"]);
}

/// `layout relayout --from FROM --to TO INPUT OUTPUT` with `stdin`.
fn relayout_piped(from: &str, to: &str, input: &str, output: &str, stdin: &[u8]) -> Output {
    layout(
        &["relayout", "--from", from, "--to", to, input, output],
        stdin,
    )
}

#[test]
fn standard_input_and_output_carry_raw_bytes() {
    let d = dir();
    let (rows, tiled) = (ROWS, TILED);
    // The file way, to compare with.
    let (input, _) = tile_ramp(&d);
    let want = fs::read(path(&d, "t.bin")).unwrap();

    // Standard input to standard output: the data is all stdout says.
    let piped = relayout_piped(rows, tiled, "-", "-", &input);
    assert_eq!(piped.status.code(), Some(0), "{}", stderr(&piped));
    assert_eq!(piped.stdout, want);
    // Standard input to a file, a file to standard output, and back.
    let o = path(&d, "s.bin");
    let o = o.to_str().unwrap();
    let out = relayout_piped(rows, tiled, "-", o, &input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read(o).unwrap(), want);
    let back = relayout_piped(tiled, rows, o, "-", b"");
    assert_eq!(back.status.code(), Some(0), "{}", stderr(&back));
    assert_eq!(back.stdout, input);

    // Too few or too many bytes on stdin: refused, nothing written.
    let x = path(&d, "x.bin");
    let short = relayout_piped(
        rows,
        tiled,
        "-",
        x.to_str().unwrap(),
        &input[..input.len() - 1],
    );
    refused(
        &short,
        1,
        "standard input has fewer bytes than f32[10,200]{1,0} takes (8000)",
    );
    let mut long = input.clone();
    long.push(0);
    let long = relayout_piped(rows, tiled, "-", "-", &long);
    refused(
        &long,
        1,
        "standard input has more bytes than f32[10,200]{1,0} takes (8000)",
    );
    assert!(long.stdout.is_empty());
    assert_eq!(names(d.path()), ["a.bin", "s.bin", "t.bin"]);
}
