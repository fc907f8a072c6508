//! The runtime side of the error messages the macro and the CLI show: help
//! lines for the user's rank and "did you mean" element types.

use layout_core::{parse, ElementType, Error, ErrorKind, Span, ALL_ELEMENT_TYPES};

fn row_major_help(rank: usize) -> String {
    let e = Error::new(ErrorKind::MinorToMajorDuplicate, Span::NONE, [0; 3]);
    e.help_for(rank).expect("help").to_string()
}

#[test]
fn minor_to_major_help_shows_the_users_rank() {
    let tail = |rank| {
        let help = row_major_help(rank);
        help.rsplit("; ").next().expect("example").to_string()
    };
    assert_eq!(tail(0), "{} is row-major for rank 0");
    assert_eq!(tail(1), "{0} is row-major for rank 1");
    assert_eq!(tail(2), "{1,0} is row-major for rank 2");
    assert_eq!(tail(3), "{2,1,0} is row-major for rank 3");
    assert_eq!(tail(6), "{5,4,3,2,1,0} is row-major for rank 6");
    assert_eq!(tail(7), "{6,5,...,1,0} is row-major for rank 7");
    assert_eq!(tail(64), "{63,62,...,1,0} is row-major for rank 64");
    // Every minor_to_major error gets it, from the parser too.
    for text in ["f32[2,3,4]{1,0}", "f32[2,3,4]{3,1,0}", "f32[2,3,4]{1,1,0}"] {
        let e = parse(text).unwrap_err();
        assert_eq!(e.rule(), "minor_to_major", "{text}");
        assert!(
            e.help_for(3).unwrap().to_string().contains("{2,1,0}"),
            "{text}"
        );
    }
}

#[test]
fn help_for_is_help_wherever_the_rank_does_not_matter() {
    for kind in ErrorKind::ALL {
        let e = Error::new(kind, Span::NONE, [1, 2, 3]);
        let for_rank = e.help_for(4).map(|h| h.to_string());
        if e.rule() == "minor_to_major" {
            assert!(for_rank.unwrap().contains("{3,2,1,0}"), "{kind:?}");
            // The fixed text stays as it was for callers without a rank.
            assert!(e.help().unwrap().contains("{1,0} is row-major for rank 2"));
        } else {
            assert_eq!(for_rank.as_deref(), e.help(), "{kind:?}");
        }
    }
}

#[test]
fn closest_element_types() {
    use ElementType::*;
    for (name, want) in [
        ("f33", Some(F32)),
        ("f23", Some(F32)),
        ("F32", Some(F32)),
        ("BF16", Some(Bf16)),
        ("bfloat16", Some(Bf16)),
        ("BFloat16", Some(Bf16)),
        ("bf61", Some(Bf16)),
        ("bool", Some(Pred)),
        ("prde", Some(Pred)),
        ("i8", Some(S8)),
        ("int64", Some(S64)),
        ("uint32", Some(U32)),
        ("double", Some(F64)),
        ("half", Some(F16)),
        ("complex64", Some(C64)),
        ("f8e4m3fm", Some(F8e4m3fn)),
        ("tokn", Some(Token)),
        // Ties and strangers: no guess.
        ("s3", None),
        ("u3", None),
        ("x", None),
        ("tensor", None),
        ("", None),
        (&"f".repeat(100), None),
    ] {
        assert_eq!(ElementType::closest(name), want, "{name}");
    }
    // A real name is its own closest.
    for t in ALL_ELEMENT_TYPES {
        assert_eq!(ElementType::closest(t.name()), Some(t));
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]

    /// Any name, any rank: no panic, and a guess is always a real type
    /// whose name is close to the input (ignoring letter case) or an alias.
    #[test]
    fn hints_never_panic(name in "\\PC{0,40}", rank in 0usize..200) {
        if let Some(t) = ElementType::closest(&name) {
            proptest::prop_assert!(ALL_ELEMENT_TYPES.contains(&t));
            proptest::prop_assert!(name.len() <= 32, "{name}");
        }
        let e = Error::new(ErrorKind::MinorToMajorLength, Span::NONE, [1, 2, 0]);
        let help = e.help_for(rank).unwrap().to_string();
        let example = format!("is row-major for rank {rank}");
        proptest::prop_assert!(help.ends_with(&example), "{help}");
    }
}

#[test]
fn every_element_type_is_found_by_its_xla_enum_value() {
    for t in ALL_ELEMENT_TYPES {
        assert_eq!(
            ElementType::from_xla_enum_value(t.xla_enum_value()),
            Some(t)
        );
    }
    for missing in [0, 13, 34, 1000, u32::MAX] {
        assert_eq!(ElementType::from_xla_enum_value(missing), None);
    }
}

#[test]
fn view_type_mismatches_name_both_types() {
    use layout_core::{StaticLayout, View};
    let message = |text: &'static str| {
        let l: StaticLayout<1> = StaticLayout::parse(text).unwrap();
        View::new(l, &[0.0f64; 8]).unwrap_err().to_string()
    };
    assert_eq!(
        message("f32[8]{0}"),
        "the layout stores f32 but the view's element type is f64"
    );
    assert!(message("f16[8]{0}").starts_with(
        "the layout stores f16 but the view's element type is f64; views of bf16 and f16 use `half::bf16`"
    ));
    assert_eq!(
        message("u4[8]{0}"),
        "the layout stores u4 but the view's element type is f64; sub-byte integers are read through `PackedView`"
    );
    // Values that name no type (an error made by hand) still print.
    let odd = Error::new(ErrorKind::ViewMismatch, Span::NONE, [1, 13, -1]);
    assert_eq!(
        odd.to_string(),
        "the layout stores another element type than the view's element type"
    );
}
