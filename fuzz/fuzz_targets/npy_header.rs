//! Fuzz target for the `.npy` header reader of `layout relayout`.
//!
//! The input is the start of a file. Besides never panicking (and never
//! reading more than the header's length field allows, at most
//! `MAX_HEADER_LEN` bytes of dict):
//! - a header that reads ends where the reader stopped: the data offset is
//!   the number of bytes consumed;
//! - written back with `header_bytes`, it reads back equal, 64-byte
//!   aligned, with the data offset at the written length.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xla_layout_cli::npy::{header_bytes, read_header};

fuzz_target!(|data: &[u8]| {
    let mut rest = data;
    let Ok((header, offset)) = read_header(&mut rest) else {
        return;
    };
    assert_eq!(offset, (data.len() - rest.len()) as u64);
    let written = header_bytes(&header);
    assert_eq!(written.len() % 64, 0);
    let mut again = written.as_slice();
    let (back, back_offset) = read_header(&mut again).expect("a written header reads back");
    assert_eq!(back, header);
    assert_eq!(back_offset, written.len() as u64);
    assert!(again.is_empty());
});
