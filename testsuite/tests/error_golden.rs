//! Every kind's message for a grid of numbers, compared with the messages
//! the library printed before `ErrorDetail` (`testsuite/tests/data/error_messages.txt`,
//! written by the code before the change): typed details changed no
//! message. `UPDATE_ERROR_MESSAGES=1` writes the file again.

use layout_core::{parse, Error, ErrorKind, Span};

/// Numbers every kind gets: the shapes the library raises (small sizes,
/// sub-kind codes 0..=5, element type codes, wide sizes).
const COMMON: &[[i128; 3]] = &[
    [0, 0, 0],
    [1, 2, 3],
    [2, 2, 0],
    [3, 7, 5],
    [4, 16, 4],
    [5, 11, 12],
    [1, 1, 1],
    [0, 5, 8],
    [2, 18_446_744_073_709_551_615, 3],
    [3, 1, 2],
    [1, 11, 16],
    [9, 3, 0],
];

/// Numbers only some kinds get: negative values where a field is signed.
const SIGNED: &[(ErrorKind, [i128; 3])] = &[
    (ErrorKind::NegativeDimension, [1, -3, 0]),
    (ErrorKind::NegativeBound, [0, -1, 0]),
    (ErrorKind::NegativeTileEntry, [0, 1, -2]),
    (ErrorKind::MinorToMajorOutOfRange, [-1, 2, 0]),
    (ErrorKind::TailPaddingNotPositive, [-4, 0, 0]),
    (ErrorKind::NegativeElementSize, [-1, 0, 0]),
    (ErrorKind::MemorySpaceOutOfRange, [-2, 0, 0]),
    (ErrorKind::SplitDimensionOutOfRange, [-1, 2, 0]),
    (ErrorKind::SplitIndicesNotIncreasing, [0, -2, 3]),
    (ErrorKind::SplitIndexOutOfBounds, [0, 5, -1]),
    (ErrorKind::DimensionNumberOutOfRange, [-3, 2, 0]),
    (ErrorKind::PaddingTooSmall, [0, -1, 3]),
    (ErrorKind::ValueOutOfRange, [-9, 22, 0]),
    (ErrorKind::ValueOutOfRange, [300, 2, 0]),
    (ErrorKind::ViewMismatch, [1, 13, -1]),
    (ErrorKind::RelayoutMismatch, [1, -1, 11]),
    (ErrorKind::RelayoutMismatch, [5, 4, -1]),
];

/// Texts whose errors carry a token or a span.
const TEXTS: &[&str] = &[
    "",
    "f32[2,3",
    "f32[2,3]{1,0:T(2,*)}",
    "f32[2,3]{2,0}",
    "f32[2]{0:S(200)}",
    "f32[2]{0:T(2)T(2)}",
    "f32[2]{0:S(1)T(2)}",
    "token[3]",
    "f33[2]",
    "f32[2]{0:#(u8)}",
    "f32[2]{0:*(u8)}",
    "f32[2]{0:P(f32[2])}",
    "f32[9223372036854775807,2]",
];

/// Kinds whose `i64` field gets `u64::MAX` in `COMMON` (see
/// `every_message_is_as_before`).
const CLAMPED: &[ErrorKind] = &[
    ErrorKind::NegativeDimension,
    ErrorKind::NegativeBound,
    ErrorKind::SplitIndicesNotIncreasing,
    ErrorKind::SplitIndexOutOfBounds,
    ErrorKind::PaddingTooSmall,
];

fn messages() -> String {
    let mut out = String::new();
    for kind in ErrorKind::ALL {
        let extra = SIGNED.iter().filter(|(k, _)| *k == kind).map(|(_, v)| v);
        for v in COMMON.iter().chain(extra) {
            let e = Error::wide(kind, Span::NONE, *v);
            out.push_str(&format!("{kind:?} {v:?}: {e}\n"));
        }
    }
    for text in TEXTS {
        match parse(text) {
            Ok(_) => out.push_str(&format!("{text:?}: ok\n")),
            Err(e) => out.push_str(&format!("{text:?}: {:?} {:?} {e}\n", e.kind(), e.span())),
        }
    }
    out.push_str(&format!(
        "size_of::<Error>() = {}\n",
        std::mem::size_of::<Error>()
    ));
    out
}

#[test]
fn every_message_is_as_before() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/error_messages.txt");
    let now = messages();
    if std::env::var_os("UPDATE_ERROR_MESSAGES").is_some() {
        std::fs::write(path, &now).expect("write");
    }
    let before = std::fs::read_to_string(path).expect("tests/data/error_messages.txt");
    for (i, (a, b)) in before.lines().zip(now.lines()).enumerate() {
        // The one documented change: `u64::MAX` given by hand for a field
        // that is an `i64` (a size or index as written in the text) is
        // clamped to `i64::MAX`. The library never raises such numbers.
        let clamped = CLAMPED.iter().any(|k| a.starts_with(&format!("{k:?} [")))
            && a.split_once("]: ").map(|(k, m)| {
                format!(
                    "{k}]: {}",
                    m.replace("18446744073709551615", "9223372036854775807")
                )
            }) == Some(b.to_string());
        assert!(a == b || clamped, "line {}:\n{a}\n{b}", i + 1);
    }
    assert_eq!(before.lines().count(), now.lines().count());
}
