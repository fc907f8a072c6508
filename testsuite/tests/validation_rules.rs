//! One case per rule: the error kind, the exact offending text, and the
//! message with its numbers.

use xla_layout::{parse, parse_array, parse_array_unvalidated, validate_all, ErrorKind};

/// `(input, kind, text the span covers, message)`.
const CASES: &[(&str, ErrorKind, &str, &str)] = &[
    // Syntax.
    ("", ErrorKind::Empty, "", "expected a shape, found nothing"),
    (
        "f32[2]/* open",
        ErrorKind::UnterminatedComment,
        "/* open",
        "unterminated `/*` comment",
    ),
    (
        "f32[2<3]",
        ErrorKind::InvalidCharacter,
        "<",
        "unexpected character",
    ),
    (
        "f32[9223372036854775808]",
        ErrorKind::IntegerOutOfRange,
        "9223372036854775808",
        "integer does not fit in i64 (XLA would wrap it)",
    ),
    (
        "f32[<=9223372036854775808]",
        ErrorKind::IntegerOutOfRange,
        "9223372036854775808",
        "integer does not fit in i64 (XLA would wrap it)",
    ),
    ("f32[2,3", ErrorKind::Expected, "", "expected `,` or `]`"),
    (
        "f33[2]",
        ErrorKind::UnknownElementType,
        "f33",
        "unknown element type",
    ),
    (
        "f32[2]{0} x",
        ErrorKind::ExtraContent,
        "x",
        "extra content after the shape",
    ),
    (
        "f32[2]{}",
        ErrorKind::ExtraContent,
        "{}",
        "extra content after the shape",
    ),
    (
        "f32[2]{0:Q(1)}",
        ErrorKind::UnknownAttribute,
        "Q",
        "unknown layout attribute (expected one of D T L # * E S SC P M)",
    ),
    (
        "f32[2,3]{1,0:S(1)T(2,2)}",
        ErrorKind::AttributeOrder,
        "T",
        "layout attribute `T` must come before `S`",
    ),
    (
        "f32[2]{0:E(4)E(4)}",
        ErrorKind::AttributeOrder,
        "E",
        "layout attribute `E` is repeated",
    ),
    (
        "f32[10,10]{1,0:D(X,C)}",
        ErrorKind::InvalidDimLevelType,
        "X",
        "expected a dimension level type (D, C, S or H)",
    ),
    (
        "f32[2]{0:#(f32)}",
        ErrorKind::ExpectedUnsignedType,
        "f32",
        "expected an unsigned integer type (u1..u64)",
    ),
    ("bf16[32]{0:E(8}", ErrorKind::Expected, "}", "expected `)`"),
    (
        "f32[2]{0:T(4,1,128)*}",
        ErrorKind::Expected,
        "}",
        "expected `(`",
    ),
    (
        "token[3]",
        ErrorKind::NonArrayWithDimensions,
        "token[3]",
        "token and opaque shapes take no dimensions, found 1",
    ),
    (
        "b((f32[2]))",
        ErrorKind::BufferOfNonArray,
        "b((f32[2]))",
        "a buffer b(...) must hold an array shape",
    ),
    // Dimensions.
    (
        "f32[2,-1]",
        ErrorKind::NegativeDimension,
        "-1",
        "dimension 1 has negative size -1",
    ),
    (
        "f32[<=-4]",
        ErrorKind::NegativeBound,
        "<=-4",
        "dimension 0 has negative bound -4",
    ),
    (
        "f32[4294967296,4294967296]",
        ErrorKind::ElementCountOverflow,
        "4294967296",
        "element count overflows i64 (dimension 1 of size 4294967296)",
    ),
    (
        "c128[1152921504606846976]",
        ErrorKind::ByteSizeOverflow,
        "c128[1152921504606846976]",
        "1152921504606846976 elements of 16 bytes overflow i64",
    ),
    (
        "s8[4611686018427387905]{0:T(4611686018427387904)}",
        ErrorKind::AllocationOverflow,
        "T(4611686018427387904)",
        "the tiled allocation overflows i64",
    ),
    // minor_to_major.
    (
        "f32[123,456,789]{1:T(2,*,128)}",
        ErrorKind::MinorToMajorLength,
        "{1:T(2,*,128)}",
        "minor_to_major has 1 entry but the shape has rank 3",
    ),
    (
        "f32[2,3]{2,0}",
        ErrorKind::MinorToMajorOutOfRange,
        "2",
        "minor_to_major entry 2 is out of range for rank 2 (entries must be 0..=1)",
    ),
    (
        "f32[2,3]{-1,0}",
        ErrorKind::MinorToMajorOutOfRange,
        "-1",
        "minor_to_major entry -1 is out of range for rank 2 (entries must be 0..=1)",
    ),
    (
        "f32[2,3]{1,1}",
        ErrorKind::MinorToMajorDuplicate,
        "1",
        "minor_to_major lists dimension 1 twice (positions 0 and 1)",
    ),
    // Tiles.
    (
        "f32[2,3]{1,0:T()}",
        ErrorKind::EmptyTile,
        "()",
        "tile 0 is empty",
    ),
    (
        "f32[2,3]{1,0:T(2,0)}",
        ErrorKind::ZeroTileEntry,
        "0",
        "tile 0 entry 1 is 0; tile sizes must be at least 1",
    ),
    (
        "f32[2,3]{1,0:T(2,2)(-1,2)}",
        ErrorKind::NegativeTileEntry,
        "-1",
        "tile 1 entry 0 is negative (-1); tile sizes must be at least 1",
    ),
    (
        "f32[2,3]{1,0:T(2,*)}",
        ErrorKind::TrailingCombine,
        "*",
        "tile 0 ends with `*`, which has no more minor dimension to combine with",
    ),
    // Other attributes.
    (
        "f32[2,3]{1,0:L(0)}",
        ErrorKind::TailPaddingNotPositive,
        "L(0)",
        "L(0): tail padding alignment must be at least 1",
    ),
    (
        "f32[2]{0:E(-4)}",
        ErrorKind::NegativeElementSize,
        "E(-4)",
        "E(-4): element size in bits must be at least 0",
    ),
    (
        "f32[2]{0:S(128)}",
        ErrorKind::MemorySpaceOutOfRange,
        "S(128)",
        "S(128): memory space must be in 0..=127",
    ),
    (
        "f32[2]{0:S(-1)}",
        ErrorKind::MemorySpaceOutOfRange,
        "S(-1)",
        "S(-1): memory space must be in 0..=127",
    ),
    (
        "pred[3,4]{1,0:SC(2:1)}",
        ErrorKind::SplitDimensionOutOfRange,
        "(2:1)",
        "SC(2:...): split dimension 2 is out of range for rank 2",
    ),
    (
        "f32[2,3]{1,0:SC(1:1)(1:2)}",
        ErrorKind::SplitDimensionDuplicate,
        "(1:2)",
        "SC(1:...): physical dimension 1 is split twice",
    ),
    (
        "f32[2]{0:SC(0:1,1)}",
        ErrorKind::SplitIndicesNotIncreasing,
        "(0:1,1)",
        "SC(0:...): split index 1 follows 1; indices must be positive and strictly increasing",
    ),
    (
        "f32[2]{0:SC(0:0)}",
        ErrorKind::SplitIndicesNotIncreasing,
        "(0:0)",
        "SC(0:...): split index 0 follows 0; indices must be positive and strictly increasing",
    ),
    (
        "f32[4,3]{0,1:SC(0:3)}",
        ErrorKind::SplitIndexOutOfBounds,
        "(0:3)",
        "SC(0:...): split index 3 is out of bounds for a dimension of size 3",
    ),
    (
        "f32[?,4]{1,0:SC(0:2)}",
        ErrorKind::SplitIndexOutOfBounds,
        "(0:2)",
        "SC(0:...): split index 2 cannot split an unbounded (`?`) dimension",
    ),
    (
        "b(f32[2]{0:T(2)})",
        ErrorKind::BufferTiled,
        "T(2)",
        "a buffer b(...) cannot hold a tiled array",
    ),
    (
        "b(f32[<=2])",
        ErrorKind::BufferDynamic,
        "<=2",
        "a buffer b(...) cannot hold an array with dynamic (`<=N` or `?`) dimensions",
    ),
    (
        "f32[2]{0:#(u32)}",
        ErrorKind::SparseLayout,
        "#(u32)",
        "sparse layouts are not supported (index type #(..))",
    ),
    (
        "f32[2]{0:*(u16)}",
        ErrorKind::SparseLayout,
        "*(u16)",
        "sparse layouts are not supported (pointer type *(..))",
    ),
    (
        "f32[10,10]{1,0:T(128,8)P(f32[10,10])}",
        ErrorKind::SparseLayout,
        "P(f32[10,10])",
        "sparse layouts are not supported (physical shape P(..))",
    ),
];

#[test]
fn every_rule_has_its_kind_span_and_message() {
    for &(input, kind, text, message) in CASES {
        let err = parse(input).expect_err(input);
        assert_eq!(err.kind(), kind, "{input}: {err}");
        assert_eq!(&input[err.span().range()], text, "{input}: span");
        assert_eq!(err.to_string(), message, "{input}");
    }
}

#[test]
fn capacity_limits_are_errors() {
    let rank17 = format!("f32[{}]", vec!["1"; 17].join(","));
    let e = parse(&rank17).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::CapacityExceeded);
    assert_eq!(e.to_string(), "rank 17 exceeds this crate's capacity of 16");
    let tiles9 = format!("f32[2]{{0:T{}}}", "(1)".repeat(9));
    assert_eq!(
        parse(&tiles9).unwrap_err().kind(),
        ErrorKind::CapacityExceeded
    );
    let nested = |n: usize| format!("{}f32[]{}", "(".repeat(n), ")".repeat(n));
    assert!(
        parse(&nested(32)).is_ok(),
        "32 levels of tuples are within capacity"
    );
    assert_eq!(
        parse(&nested(33)).unwrap_err().kind(),
        ErrorKind::NestingTooDeep
    );
    let long_m2m = format!("f32[2]{{{}}}", vec!["0"; 20].join(","));
    let e = parse(&long_m2m).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::MinorToMajorLength);
    assert_eq!(e.values()[0], 20);
}

#[test]
fn all_errors_of_one_shape_at_once() {
    let text = "f32[2,3]{1,1:T(0,*)L(0)S(200)}";
    let s = parse_array_unvalidated(text).unwrap();
    let kinds: Vec<ErrorKind> = validate_all(&s).iter().map(|e| e.kind()).collect();
    assert_eq!(
        kinds,
        [
            ErrorKind::MinorToMajorDuplicate,
            ErrorKind::ZeroTileEntry,
            ErrorKind::TrailingCombine,
            ErrorKind::TailPaddingNotPositive,
            ErrorKind::MemorySpaceOutOfRange,
        ]
    );
    // `parse` reports the first of them.
    assert_eq!(
        parse(text).unwrap_err().kind(),
        ErrorKind::MinorToMajorDuplicate
    );
}

#[test]
fn help_lines_where_they_help() {
    let e = parse("f32[2,3]{1,0:S(1)T(2,2)}").unwrap_err();
    assert!(e.help().unwrap().contains("D T L # * E S SC P M"));
    let e = parse("f32[2,3]{1,0:T(2,*)}").unwrap_err();
    assert!(e.help().is_some());
    assert_eq!(e.rule(), "tile");
}

#[test]
fn accepted_edge_cases_from_decisions() {
    for ok in [
        "f32[2,3,4]{2,1,0:T(2,*,2)}",
        "f32[2]{0:D(C)}",
        "f32[2]{0:S(127)}",
        "f32[4]{0:E(4)}",
        "f32[2]/*c*/{0}",
        "f32[0496]",
        "s8[-0]",
        "opaque[]",
        "b(f32[2])",
        "pred[123,456]{1,0:SC(1:50,200)}",
        "f32[?]",
        "s4[]{:T(256)E(4)}",
        "f32[2]{0:M(-1)}",
        "f32[<=3,4]{1,0:SC(0:2)}",
        "f32[4,3]{0,1:SC(0:2)}",
        "b(f32[2]{0:L(2)E(4)S(1)SC(0:1)M(2)})",
    ] {
        assert!(parse(ok).is_ok(), "{ok}: {:?}", parse(ok));
    }
    assert!(parse_array("opaque[]").is_err());
}

/// `Layout::equal` and `LayoutEq` against the parts of the text that differ.
#[test]
fn layout_equality_as_xla_defines_it() {
    use layout_core::{parse_array, LayoutEq};
    let l = |t: &str| *parse_array(t).unwrap().layout();
    let base = l("s4[64,128]{1,0:T(8,128)(2,1)L(1024)E(4)S(1)SC(0:32)}");
    assert!(base.equal(&base));
    assert!(base.equal(&l(
        "s4[64,128]{1,0:T(8,128)(2,1)L(1024)E(4)S(1)SC(0:32)M(16)}"
    )));
    // Each variant differs in one part; the option for that part alone
    // makes it equal again, every other option does not.
    type Opt = fn(LayoutEq) -> LayoutEq;
    let options: [(&str, Opt); 5] = [
        ("tiles", LayoutEq::ignore_tiles),
        ("tail", LayoutEq::ignore_tail_padding),
        ("size", LayoutEq::ignore_element_size),
        ("space", LayoutEq::ignore_memory_space),
        ("split", LayoutEq::ignore_split_configs),
    ];
    let variants = [
        ("tiles", "s4[64,128]{1,0:T(8,128)L(1024)E(4)S(1)SC(0:32)}"),
        (
            "tiles",
            "s4[64,128]{1,0:T(8,128)(4,1)L(1024)E(4)S(1)SC(0:32)}",
        ),
        (
            "tiles",
            "s4[64,128]{1,0:T(*,128)(2,1)L(1024)E(4)S(1)SC(0:32)}",
        ),
        ("tail", "s4[64,128]{1,0:T(8,128)(2,1)E(4)S(1)SC(0:32)}"),
        ("size", "s4[64,128]{1,0:T(8,128)(2,1)L(1024)S(1)SC(0:32)}"),
        ("space", "s4[64,128]{1,0:T(8,128)(2,1)L(1024)E(4)SC(0:32)}"),
        ("split", "s4[64,128]{1,0:T(8,128)(2,1)L(1024)E(4)S(1)}"),
        (
            "split",
            "s4[64,128]{1,0:T(8,128)(2,1)L(1024)E(4)S(1)SC(0:16)}",
        ),
        (
            "split",
            "s4[64,128]{1,0:T(8,128)(2,1)L(1024)E(4)S(1)SC(0:32)(1:64)}",
        ),
    ];
    for (part, text) in variants {
        let other = l(text);
        assert!(!base.equal(&other), "{text}");
        assert_ne!(base, other);
        for (name, ignore) in options {
            assert_eq!(
                ignore(LayoutEq::XLA).eq(&base, &other),
                name == part,
                "{text} ignoring {name}"
            );
        }
        assert!(
            LayoutEq::XLA.minor_to_major_only().eq(&base, &other),
            "{text}"
        );
    }
    let transposed = l("s4[64,128]{0,1:T(8,128)(2,1)L(1024)E(4)S(1)SC(0:32)}");
    assert!(!LayoutEq::XLA.minor_to_major_only().eq(&base, &transposed));
    assert!(!LayoutEq::default().eq(&l("f32[2]{0}"), &l("f32[2,1]{1,0}")));
}
