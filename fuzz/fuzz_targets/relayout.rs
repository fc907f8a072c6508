//! Fuzz target for relayout's plan and run (`RelayoutPlan`), on the
//! library alone.
//!
//! Input: the source layout's text, a newline, the destination's text, a
//! newline, then any bytes: the first is the window size of the windowed
//! run (1 to 256 bytes), the rest seed the source's bytes.
//!
//! Besides never panicking, for every pair that plans:
//! - `describe` prints, and names a kernel exactly when there is a box;
//! - for sources and destinations of at most 64 KiB: the run writes every
//!   destination byte (two runs into differently filled buffers agree),
//!   the threaded run and the windowed run write the same bytes, every
//!   element's slot holds the source's slot where both sides have slots
//!   of one width, and the plan back restores the source's elements.
#![no_main]

use layout_core::{parse_array, ArrayShape, Error, RelayoutPlan};
use libfuzzer_sys::fuzz_target;

/// Sources and destinations larger than this are planned, not run.
const LIMIT: u64 = 1 << 16;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == b'\n');
    let (Some(from), Some(to), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
        return;
    };
    let (Ok(from), Ok(to)) = (std::str::from_utf8(from), std::str::from_utf8(to)) else {
        return;
    };
    let (Ok(a), Ok(b)) = (parse_array(from), parse_array(to)) else {
        return;
    };
    let Ok(plan) = RelayoutPlan::new(&a, &b) else {
        return;
    };
    let steps = plan.describe();
    let text = steps.to_string();
    assert!(text.starts_with("slots: "), "{text}");
    assert_eq!(steps.kernel().is_none(), steps.boxes() == 0, "{text}");
    if plan.source_bytes() > LIMIT || plan.destination_bytes() > LIMIT {
        return;
    }
    let n = plan.destination_bytes() as usize;
    // Layouts without digit chains walk every element once per window
    // (bounded memory, documented): windows of a few bytes over 64 KiB
    // take minutes under the sanitizer, so they get at least 64 windows'
    // worth there.
    let mut window = usize::from(rest.first().copied().unwrap_or(0)) + 1;
    if !plan.is_blocked() {
        window = window.max(n / 64);
    }
    let src = bytes(plan.source_bytes() as usize, rest);
    let (mut dst, mut again) = (vec![0u8; n], vec![0xA5u8; n]);
    plan.run_bytes(&src, &mut dst)
        .expect("lengths are the plan's");
    plan.run_bytes(&src, &mut again)
        .expect("lengths are the plan's");
    assert!(dst == again, "{from} -> {to}: a byte depends on the buffer");
    let mut threads = vec![0x5Au8; n];
    plan.par_run_bytes(&src, &mut threads)
        .expect("lengths are the plan's");
    assert!(threads == dst, "{from} -> {to}: threads differ");
    let mut windows = Vec::with_capacity(n);
    plan.par_run_bytes_windowed(&src, window, |w: &[u8]| {
        windows.extend_from_slice(w);
        Ok::<(), Error>(())
    })
    .expect("windows of a planned copy");
    assert!(windows == dst, "{from} -> {to}: windows of {window} differ");
    let (wa, wb) = (a.element_size_in_bits(), b.element_size_in_bits());
    if wa == wb {
        each_element(&a, &b, |x, y| {
            for k in 0..wa {
                assert_eq!(
                    bit(&dst, y * wb + k),
                    bit(&src, x * wa + k),
                    "{from} -> {to}"
                );
            }
        });
    }
    // Back again: every element as it was (its value bits; a wider slot's
    // upper bits are the sign or zero extension).
    let back = RelayoutPlan::new(&b, &a).expect("the pair planned one way");
    let mut round = vec![0u8; src.len()];
    back.run_bytes(&dst, &mut round)
        .expect("lengths are the plan's");
    let value = u64::from(a.element_type().bit_width()).min(wa).min(wb);
    each_element(&a, &a, |x, _| {
        for k in 0..value {
            assert_eq!(
                bit(&round, x * wa + k),
                bit(&src, x * wa + k),
                "{from} -> {to} -> back"
            );
        }
    });
});

/// `n` bytes from a seed (xorshift, seeded by `rest`).
fn bytes(n: usize, rest: &[u8]) -> Vec<u8> {
    let mut s = rest.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    }) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as u8
        })
        .collect()
}

/// Calls `f(source slot, destination slot)` for every element.
fn each_element(a: &ArrayShape, b: &ArrayShape, mut f: impl FnMut(u64, u64)) {
    a.for_each_index(|index| {
        let (Ok(x), Ok(y)) = (a.offset(index), b.offset(index)) else {
            panic!("{a}: an index of the array has no offset");
        };
        f(x, y);
    });
}

fn bit(buf: &[u8], i: u64) -> bool {
    buf[(i / 8) as usize] >> (i % 8) & 1 == 1
}
