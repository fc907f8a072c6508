//! Relayout in windows: `RelayoutPlan::run_bytes_windowed` (a buffer from
//! the caller, no heap) and `par_run_bytes_windowed` (the `rayon`
//! feature). The windows, in order, are the bytes `run_bytes` writes,
//! whatever the window size and the destination's padding (`L(n)` tails,
//! tiles wider than the window, legacy padding, `*` layouts, packed
//! slots); no window is longer than asked for; a destination too big for
//! memory is an error or a stream, never an abort.

use xla_layout::{
    parse_array, ArrayShape, Error, ErrorDetail, ErrorKind, PaddingValue, RelayoutMismatch,
    RelayoutPlan, Span,
};

/// Pairs with every kind of destination padding, small enough to copy
/// whole in a debug build.
fn pairs() -> Vec<(ArrayShape, ArrayShape)> {
    let texts = [
        ("f32[4]{0}", "f32[4]{0:L(1000)}"),
        ("u8[4,4]{1,0}", "u8[4,4]{0,1:L(20000)}"),
        ("u8[2,3]{1,0}", "u8[2,3]{1,0:T(1,5000)}"),
        ("f32[2,3]{1,0}", "f32[2,3]{0,1:T(1,700)}"),
        ("f32[5,7]{1,0}", "f32[5,7]{0,1:T(2,4)}"),
        ("u8[2,7,8]{2,1,0:T(*,2,3)}", "u8[2,7,8]{0,1,2:L(700)}"),
        ("u8[2,7,8]{0,1,2}", "u8[2,7,8]{2,1,0:T(*,2,3)}"),
        ("bf16[16,256]{1,0}", "bf16[16,256]{0,1:T(8,128)(2,1)}"),
        ("u8[40,300]{1,0}", "u8[40,300]{0,1:T(32,128)(4,1)}"),
        ("s4[6,10]{1,0}", "s4[6,10]{0,1:T(4,8)E(4)}"),
        ("s4[6,10]{1,0:E(4)}", "s4[6,10]{0,1:E(4)}"),
        ("pred[9,5]{1,0}", "pred[9,5]{0,1:E(1)}"),
        ("f64[3,9]{0,1}", "f64[3,9]{1,0:T(2,2)L(300)}"),
    ];
    let mut out: Vec<(ArrayShape, ArrayShape)> = texts
        .iter()
        .map(|(a, b)| {
            let p = |t: &str| parse_array(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            (p(a), p(b))
        })
        .collect();
    // Legacy padding with a value other than zero.
    let a = parse_array("s32[2,3]{1,0}").unwrap();
    let b = parse_array("s32[2,3]{0,1}")
        .unwrap()
        .with_legacy_padding(&[3, 5], PaddingValue::One)
        .unwrap();
    out.push((a, b));
    out
}

/// Bytes that differ from slot to slot.
fn source(plan: &RelayoutPlan) -> Vec<u8> {
    (0..plan.source_bytes())
        .map(|i| (i.wrapping_mul(151) % 251 + 1) as u8)
        .collect()
}

fn whole(plan: &RelayoutPlan, src: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; plan.destination_bytes() as usize];
    plan.run_bytes(src, &mut out).unwrap();
    out
}

/// The windows `run_bytes_windowed` hands over with a buffer of `len`
/// bytes, checked against the bound the API documents.
fn serial_windows(plan: &RelayoutPlan, src: &[u8], len: usize) -> Vec<Vec<u8>> {
    let mut buf = vec![0xA5u8; len];
    let mut windows = Vec::new();
    plan.run_bytes_windowed(src, &mut buf, |w: &[u8]| {
        windows.push(w.to_vec());
        Ok::<(), Error>(())
    })
    .unwrap();
    windows
}

/// Every window but the last is exactly `len` rounded down to whole
/// window units (the whole destination when `len` holds it); none is
/// empty or longer than `len`.
fn check_sizes(plan: &RelayoutPlan, windows: &[Vec<u8>], len: usize, what: &str) {
    let dst = plan.destination_bytes() as usize;
    let unit = plan.window_unit() as usize;
    let size = if len >= dst { dst } else { len - len % unit };
    let (last, rest) = windows.split_last().expect(what);
    for w in rest {
        assert_eq!(w.len(), size, "{what}");
    }
    assert!(!last.is_empty() && last.len() <= size, "{what}");
}

#[test]
fn windows_equal_whole_for_tiny_windows_and_huge_padding() {
    for (a, b) in pairs() {
        let plan = RelayoutPlan::new(&a, &b).unwrap();
        let src = source(&plan);
        let expected = whole(&plan, &src);
        let unit = plan.window_unit() as usize;
        for len in [1usize, 2, 3, 4, 5, 8, 13, 16, 17, 64, 1000, 1 << 20] {
            // Windows of a few bytes over a short destination; the long
            // ones (padding tails) in windows of 16 bytes and more.
            if len < unit || (len < 16 && expected.len() > 4096) {
                continue;
            }
            let what = format!("{a} -> {b} in windows of {len}");
            let windows = serial_windows(&plan, &src, len);
            check_sizes(&plan, &windows, len, &what);
            assert_eq!(windows.concat(), expected, "{what}");
            #[cfg(feature = "rayon")]
            {
                let mut par = Vec::new();
                plan.par_run_bytes_windowed(&src, len, |w: &[u8]| {
                    par.push(w.to_vec());
                    Ok::<(), Error>(())
                })
                .unwrap();
                check_sizes(&plan, &par, len, &what);
                assert_eq!(par.concat(), expected, "{what} (rayon)");
            }
        }
    }
}

/// A window buffer that cannot hold one slot is refused before any
/// window, naming the smallest usable length; one that holds the whole
/// destination is enough even when it is smaller than a unit.
#[test]
fn a_buffer_smaller_than_a_slot_is_refused_by_name() {
    let a = parse_array("f32[8]{0}").unwrap();
    let b = parse_array("f32[8]{0:L(100)}").unwrap();
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    assert_eq!(plan.window_unit(), 4);
    for len in [0usize, 1, 3] {
        let mut called = false;
        let e = plan
            .run_bytes_windowed(&[0; 32], &mut vec![0; len], |_: &[u8]| {
                called = true;
                Ok::<(), Error>(())
            })
            .unwrap_err();
        assert!(!called);
        assert_eq!(
            e.detail(),
            ErrorDetail::RelayoutMismatch(RelayoutMismatch::WindowBuffer {
                len: len as u64,
                min: 4
            })
        );
    }
    // A source of the wrong length is the first error.
    let e = plan
        .run_bytes_windowed(&[0; 31], &mut [0; 64], |_: &[u8]| Ok::<(), Error>(()))
        .unwrap_err();
    assert_eq!(
        e.detail(),
        ErrorDetail::RelayoutMismatch(RelayoutMismatch::SourceLength { len: 31, size: 32 })
    );
    // Three packed 4-bit slots take 2 bytes: a 2-byte buffer is the
    // whole destination.
    let s = parse_array("s4[3]{0:E(4)}").unwrap();
    let plan = RelayoutPlan::new(&s, &s).unwrap();
    assert_eq!(plan.destination_bytes(), 2);
    assert_eq!(
        serial_windows(&plan, &[0x21, 0x03], 2),
        vec![vec![0x21, 0x03]]
    );
    assert_eq!(
        serial_windows(&plan, &[0x21, 0x03], 1),
        vec![vec![0x21], vec![0x03]]
    );
}

/// What the sink saw before it stopped the copy.
struct Seen {
    windows: usize,
    longest: usize,
    /// The first 16 bytes.
    head: Vec<u8>,
    nonzero_after_head: bool,
}

/// Runs `from` -> `to` in windows of `len` bytes (serial, or on rayon's
/// threads), stopping after `stop` windows: a destination of gigabytes
/// costs a few windows.
fn first_windows(from: &str, to: &str, len: usize, stop: usize, par: bool) -> Seen {
    let plan = RelayoutPlan::new(&parse_array(from).unwrap(), &parse_array(to).unwrap()).unwrap();
    let src = source(&plan);
    let mut seen = Seen {
        windows: 0,
        longest: 0,
        head: Vec::new(),
        nonzero_after_head: false,
    };
    let stopped = Error::new(ErrorKind::Expected, Span::NONE, [0; 3]);
    let mut sink = |w: &[u8]| {
        if seen.windows == 0 {
            seen.head = w[..w.len().min(16)].to_vec();
            seen.nonzero_after_head = w[16.min(w.len())..].iter().any(|&x| x != 0);
        } else {
            seen.nonzero_after_head |= w.iter().any(|&x| x != 0);
        }
        seen.windows += 1;
        seen.longest = seen.longest.max(w.len());
        if seen.windows == stop {
            Err(stopped)
        } else {
            Ok(())
        }
    };
    let r = if par {
        #[cfg(feature = "rayon")]
        {
            plan.par_run_bytes_windowed(&src, len, &mut sink)
        }
        #[cfg(not(feature = "rayon"))]
        unreachable!()
    } else {
        let mut buf = vec![0u8; len];
        plan.run_bytes_windowed(&src, &mut buf, &mut sink)
    };
    assert_eq!(r.unwrap_err().kind(), ErrorKind::Expected);
    seen
}

#[test]
fn huge_padding_comes_window_by_window() {
    let modes: &[bool] = if cfg!(feature = "rayon") {
        &[false, true]
    } else {
        &[false]
    };
    for &par in modes {
        // A gigabyte tail after four bytes.
        let s = first_windows("u8[4]{0}", "u8[4]{0:L(1000000000)}", 4096, 3, par);
        assert_eq!((s.windows, s.longest), (3, 4096));
        assert_eq!(s.head[..5], [1, 152, 52, 203, 0]);
        assert!(s.head[4..].iter().all(|&x| x == 0));
        assert!(!s.nonzero_after_head);
        // Each row a tile of half a billion slots (2 GB of f32 each).
        let s = first_windows(
            "f32[2,3]{1,0}",
            "f32[2,3]{1,0:T(1,500000000)}",
            1000,
            5,
            par,
        );
        assert_eq!((s.windows, s.longest), (5, 1000));
        assert!(s.head[..12].iter().all(|&x| x != 0));
        assert!(s.head[12..].iter().all(|&x| x == 0));
        assert!(!s.nonzero_after_head);
        // A row of the destination (one step of its outer loop) is 1 MB.
        let s = first_windows("u8[4,1000000]{0,1}", "u8[4,1000000]{1,0}", 64, 2, par);
        assert_eq!((s.windows, s.longest), (2, 64));
    }
}

/// The last window of a destination with a long padding tail holds the
/// end of the data when the data is at the end: `L(n)` tails and wide
/// tiles both ways, the whole destination streamed in small windows.
#[test]
fn long_streams_end_where_the_whole_copy_ends() {
    for (from, to) in [
        ("u8[3,5]{1,0}", "u8[3,5]{0,1:T(1,4000)L(200000)}"),
        ("u8[3,5]{1,0:T(1,4000)L(200000)}", "u8[3,5]{0,1:T(2,3000)}"),
    ] {
        let Ok(b) = parse_array(to) else { continue };
        let plan = RelayoutPlan::new(&parse_array(from).unwrap(), &b).unwrap();
        let src = source(&plan);
        let expected = whole(&plan, &src);
        let windows = serial_windows(&plan, &src, 4096);
        check_sizes(&plan, &windows, 4096, from);
        assert_eq!(windows.concat(), expected, "{from} -> {to}");
    }
}

/// A destination of 9.2 EB: the rayon windows cannot be allocated, which
/// is an error, not an abort; the serial windows stream it in a buffer
/// of the caller's (stopped here after two); `f32` of that length does
/// not even parse.
#[test]
fn a_destination_too_big_for_memory_is_an_error() {
    let a = parse_array("u8[4]{0}").unwrap();
    let b = parse_array("u8[4]{0:L(9223372036854775807)}").unwrap();
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    assert_eq!(plan.destination_bytes(), 9223372036854775807);
    #[cfg(feature = "rayon")]
    {
        let mut called = false;
        let e = plan
            .par_run_bytes_windowed(&[1, 2, 3, 4], usize::MAX, |_: &[u8]| {
                called = true;
                Ok::<(), Error>(())
            })
            .unwrap_err();
        assert!(!called);
        assert_eq!(e.kind(), ErrorKind::OutOfMemory);
        assert_eq!(e.to_string(), "cannot allocate 9223372036854775807 bytes");
        // The same for a plan without merged chains (`*`), whose windows
        // are made one per thread.
        let a = parse_array("u8[2,7,8]{2,1,0:T(*,2,3)}").unwrap();
        let b = parse_array("u8[2,7,8]{0,1,2:L(9223372036854775807)}").unwrap();
        let plan = RelayoutPlan::new(&a, &b).unwrap();
        assert!(!plan.is_blocked());
        let src = source(&plan);
        let e = plan
            .par_run_bytes_windowed(&src, usize::MAX, |_: &[u8]| Ok::<(), Error>(()))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::OutOfMemory);
        // In windows it can have, it streams: stopped after three.
        let mut windows = 0;
        let stopped = Error::new(ErrorKind::Expected, Span::NONE, [0; 3]);
        let e = plan
            .par_run_bytes_windowed(&src, 1024, |w: &[u8]| {
                assert_eq!(w.len(), 1024);
                windows += 1;
                if windows == 3 {
                    Err(stopped)
                } else {
                    Ok(())
                }
            })
            .unwrap_err();
        assert_eq!((e.kind(), windows), (ErrorKind::Expected, 3));
    }
    let s = first_windows(
        "u8[4]{0}",
        "u8[4]{0:L(9223372036854775807)}",
        1 << 16,
        2,
        false,
    );
    assert_eq!((s.windows, s.longest), (2, 1 << 16));
    assert_eq!(s.head[..4], [1, 152, 52, 203]);
    assert!(parse_array("f32[4]{0:L(9223372036854775807)}").is_err());
}
