//! `Error::detail`: every kind's typed detail agrees with its error (kind,
//! message, rule, help), goes back to the same error, and `Debug` reads
//! like the message.

use layout_core::{
    parse, parse_array, Error, ErrorDetail, ErrorKind, NoDigitTables, RelayoutMismatch,
    RelayoutPlan, Span, StaticLayout, View, ViewMismatch,
};

const NUMBERS: &[[i128; 3]] = &[
    [0, 0, 0],
    [1, 2, 3],
    [2, 2, 0],
    [3, 7, 5],
    [4, 16, 4],
    [5, 11, 12],
    [0, 5, 8],
    [2, 18_446_744_073_709_551_615, 3],
];

#[test]
fn every_kind_has_a_detail_that_says_its_message() {
    for kind in ErrorKind::ALL {
        for v in NUMBERS {
            let e = Error::wide(kind, Span::new(3, 5), *v);
            let d = e.detail();
            assert_eq!(d.kind(), kind, "{v:?}");
            assert_eq!(d.to_string(), e.to_string(), "{kind:?} {v:?}");
            assert_eq!(e.rule(), kind.rule());
            assert_eq!(e.help(), kind.help());
            // The detail makes the same error again.
            let again = Error::from_detail(d, e.span());
            assert_eq!(again.kind(), kind);
            assert_eq!(again.span(), e.span());
            assert_eq!(again.detail(), d, "{kind:?} {v:?}");
            assert_eq!(again.to_string(), e.to_string());
        }
    }
}

#[test]
fn details_of_library_errors_keep_every_number() {
    let errors = [
        parse("f32[2,3]{2,0}").unwrap_err(),
        parse("f32[2,3]{1,0:T(2,-4)}").unwrap_err(),
        parse("f32[2]{0:S(1)T(2)}").unwrap_err(),
        parse("f32[2,3").unwrap_err(),
        parse("f32[9223372036854775808]").unwrap_err(),
        parse_array("f32[2,3]")
            .unwrap()
            .offset(&[0, u64::MAX])
            .unwrap_err(),
    ];
    for e in errors {
        let again = Error::from_detail(e.detail(), e.span());
        assert_eq!(again, e, "{e}");
        assert_eq!(again.values(), e.values());
    }
}

#[test]
fn sub_kinds_are_typed() {
    let a = parse_array("f32[2,3]{1,0}").unwrap();
    let b = parse_array("s32[2,3]{1,0}").unwrap();
    let e = RelayoutPlan::new(&a, &b).unwrap_err();
    assert_eq!(
        e.detail(),
        ErrorDetail::RelayoutMismatch(RelayoutMismatch::ElementType {
            src: Some(layout_core::ElementType::F32),
            dst: Some(layout_core::ElementType::S32),
        })
    );
    let plan = RelayoutPlan::new(&a, &a).unwrap();
    let e = plan.run_bytes(&[0; 20], &mut [0; 24]).unwrap_err();
    assert_eq!(
        e.detail(),
        ErrorDetail::RelayoutMismatch(RelayoutMismatch::SourceLength { len: 20, size: 24 })
    );
    let l: StaticLayout<1> = StaticLayout::parse("f32[8]{0:E(16)}").unwrap();
    let e = View::new(l, &[0.0f32; 8]).unwrap_err();
    assert_eq!(
        e.detail(),
        ErrorDetail::ViewMismatch(ViewMismatch::Packed { bits: 16 })
    );
    let e = StaticLayout::<5>::parse("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}").unwrap_err();
    assert!(matches!(
        e.detail(),
        ErrorDetail::NoDigitTables {
            reason: NoDigitTables::Combine,
            digits: 4
        }
    ));
}

#[test]
fn debug_reads_like_the_message() {
    let e = parse("f32[2,3]{2,0}").unwrap_err();
    assert_eq!(
        format!("{e:?}"),
        "MinorToMajorOutOfRange at 9..10: minor_to_major entry 2 is out of range for rank 2 (entries must be 0..=1)"
    );
    let e: Result<(), Error> = Err(Error::from_detail(
        ErrorDetail::OutOfMemory { bytes: 64 },
        Span::NONE,
    ));
    // The panic message `unwrap` prints is what this checks.
    #[allow(clippy::unnecessary_literal_unwrap)]
    let shown = std::panic::catch_unwind(|| e.unwrap()).unwrap_err();
    let shown = shown.downcast_ref::<String>().unwrap();
    assert!(
        shown.ends_with("OutOfMemory at 0..0: cannot allocate 64 bytes"),
        "{shown}"
    );
}

#[test]
fn details_are_values() {
    use std::collections::HashSet;
    const D: ErrorDetail = ErrorDetail::IndexOutOfBounds {
        dimension: 1,
        index: 7,
        size: 3,
    };
    const E: Error = Error::from_detail(D, Span::NONE);
    let copy = D;
    let set: HashSet<ErrorDetail> = [D, copy, E.detail()].into_iter().collect();
    assert_eq!(set.len(), 1);
    assert_eq!(
        E.to_string(),
        "index 7 is out of bounds for dimension 1 of size 3"
    );
    assert_eq!(E.values(), [1, 7, 3]);
}
