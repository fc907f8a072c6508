//! Fuzz target for `layout relayout`'s argument and header path: the
//! `--from` and `--to` texts, the output's `.npy` header and INPUT's
//! `.npy` header checked against `--from`, then the relayout itself on
//! small arrays (`xla_layout_cli::relayout::in_memory`, the command's own
//! checks without the files).
//!
//! Two input forms:
//! - a file starting with the `.npy` magic (the `npy_header` corpus): an
//!   `.npy` INPUT whose `--from` is the dense layout its header describes,
//!   when it reads, relaid to the same dims in the opposite order and back;
//! - otherwise a flag byte (bit 0: INPUT is `.npy`, bit 1: OUTPUT is
//!   `.npy`), the `--from` text, a newline, the `--to` text, a newline,
//!   and INPUT's bytes.
//!
//! Besides never panicking:
//! - a refusal has status 1 or 2 and one message ending in a newline;
//! - an accepted run writes exactly the header plus the `--to` layout's
//!   bytes; `--to` equal to `--from` copies the data unchanged; a dense
//!   `.npy` input relaid to the opposite order and back is unchanged.
#![no_main]

use layout_core::{parse_array, ALL_ELEMENT_TYPES};
use libfuzzer_sys::fuzz_target;
use xla_layout_cli::npy::read_header;
use xla_layout_cli::relayout::{in_memory, numpy_descr, raw_descr};

/// Sources and destinations larger than this are checked, not run.
const LIMIT: u64 = 1 << 16;

fuzz_target!(|data: &[u8]| {
    if data.starts_with(b"\x93NUMPY") {
        npy_input(data);
        return;
    }
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut lines = rest.splitn(3, |&b| b == b'\n');
    let (Some(from), Some(to), Some(input)) = (lines.next(), lines.next(), lines.next()) else {
        return;
    };
    let (Ok(from), Ok(to)) = (std::str::from_utf8(from), std::str::from_utf8(to)) else {
        return;
    };
    let (npy_in, npy_out) = (flags & 1 != 0, flags & 2 != 0);
    check(from, to, input, (npy_in, npy_out));
});

/// Runs one relayout and checks what it says; the bytes written.
fn check(from: &str, to: &str, input: &[u8], npy: (bool, bool)) -> Option<Vec<u8>> {
    match in_memory((from, to), input, npy, LIMIT) {
        Err((code, message)) => {
            assert!(code == 1 || code == 2, "{code}: {message}");
            assert!(message.ends_with('\n'), "{message:?}");
            None
        }
        Ok(None) => None,
        Ok(Some(out)) => {
            let dst = parse_array(to).expect("--to was accepted");
            let bytes = dst.size_in_bytes().expect("a planned size");
            let header = if npy.1 {
                // Version 1.0 header: its length after the magic.
                let mut r = out.as_slice();
                let (_, offset) = read_header(&mut r).expect("the written header reads");
                offset
            } else {
                0
            };
            assert_eq!(out.len() as u64, header + bytes);
            if from == to && !npy.0 && !npy.1 {
                assert_eq!(out, input);
            }
            Some(out)
        }
    }
}

/// An `.npy` INPUT: its dense layout as `--from` (when the header reads and
/// its dtype is one `layout` knows), relaid to the opposite order and back.
fn npy_input(data: &[u8]) {
    let mut rest = data;
    let Ok((header, offset)) = read_header(&mut rest) else {
        // The command refuses it too.
        check("f32[2]{0}", "f32[2]{0}", data, (true, false));
        return;
    };
    let Some(t) = ALL_ELEMENT_TYPES.iter().find(|t| {
        let d = numpy_descr(**t).or(raw_descr(**t));
        d.is_some_and(|d| d.get(1..) == header.descr.get(1..))
    }) else {
        return;
    };
    let dims: Vec<String> = header.shape.iter().map(u64::to_string).collect();
    let rank = dims.len();
    let order = |ascending: bool| {
        let mut m: Vec<String> = (0..rank).map(|d| d.to_string()).collect();
        if !ascending {
            m.reverse();
        }
        m.join(",")
    };
    let shape =
        |ascending: bool| format!("{}[{}]{{{}}}", t.name(), dims.join(","), order(ascending));
    let (from, to) = (shape(header.fortran_order), shape(!header.fortran_order));
    let Some(there) = check(&from, &to, data, (true, false)) else {
        return;
    };
    let back = check(&to, &from, &there, (false, false)).expect("the way back runs");
    let start = usize::try_from(offset).unwrap_or(usize::MAX);
    assert_eq!(back, data[start.min(data.len())..]);
}
