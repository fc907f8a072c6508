//! The worked numbers of XLA's shape documentation (see docs/tiling.md), asserted
//! against the runtime.

use xla_layout::{compare_indices, parse, parse_array, ArrayShape, Dim, ErrorKind, PaddingValue};

fn arr(s: &str) -> ArrayShape {
    parse_array(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn table(s: &ArrayShape, rows: u64, cols: u64) -> Vec<Vec<u64>> {
    (0..rows)
        .map(|r| (0..cols).map(|c| s.offset(&[r, c]).unwrap()).collect())
        .collect()
}

#[test]
fn figure_1_t2x2() {
    let s = arr("f32[3,5]{1,0:T(2,2)}");
    assert_eq!(
        table(&s, 3, 5),
        [[0, 1, 4, 5, 8], [2, 3, 6, 7, 10], [12, 13, 16, 17, 20]]
    );
    assert_eq!(s.allocated_elements(), Ok(24));
    assert_eq!(s.size_in_bytes(), Ok(96));
    assert_eq!(s.unpadded_size_in_bytes(), Ok(60));
}

#[test]
fn figure_2_two_levels() {
    let s = arr("f32[4,8]{1,0:T(2,4)(2,1)}");
    let t = table(&s, 4, 8);
    for r in 0..4u64 {
        for c in 0..8u64 {
            let expect = ((r / 2) * 2 + c / 4) * 8 + (c % 4) * 2 + r % 2;
            assert_eq!(t[r as usize][c as usize], expect, "({r},{c})");
        }
    }
    assert_eq!(t[0], [0, 2, 4, 6, 8, 10, 12, 14]);
    assert_eq!(t[3], [17, 19, 21, 23, 25, 27, 29, 31]);
    assert_eq!(s.offset(&[1, 1]), Ok(3));
    assert_eq!(s.physical_shape(2).unwrap().as_slice(), &[2, 2, 1, 4, 2, 1]);
}

#[test]
fn figure_4_element_6_5() {
    let s = arr("f32[8,8]{1,0:T(2,4)(2,1,1,1)}");
    assert_eq!(s.physical_shape(1).unwrap().as_slice(), &[4, 2, 2, 4]);
    assert_eq!(
        s.physical_shape(2).unwrap().as_slice(),
        &[2, 2, 2, 4, 2, 1, 1, 1]
    );
    assert_eq!(s.offset(&[6, 5]), Ok(51));
}

#[test]
fn bf16_32x256_doc_example() {
    let s = arr("bf16[32,256]{1,0:T(8,128)(2,1,1,1)}");
    assert_eq!(s.physical_shape(1).unwrap().as_slice(), &[4, 2, 8, 128]);
    assert_eq!(
        s.physical_shape(2).unwrap().as_slice(),
        &[2, 2, 8, 128, 2, 1, 1, 1]
    );
    assert_eq!(s.allocated_elements(), Ok(8192));
}

#[test]
fn combine_example() {
    let s = arr("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
    assert_eq!(s.tiled_shape().unwrap().as_slice(), &[56, 37, 2, 3]);
    assert_eq!(s.allocated_elements(), Ok(12432));
    assert_eq!(s.offset(&[0, 0, 1, 0, 0]), Ok(3));
    assert_eq!(s.offset(&[1, 6, 7, 10, 9]), Ok(12430));
}

#[test]
fn seed_example() {
    let s = arr("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
    assert_eq!(
        s.physical_shape(0).unwrap().as_slice(),
        &[1, 8, 1280, 16384]
    );
    assert_eq!(
        s.tiled_shape().unwrap().as_slice(),
        &[1, 8, 160, 128, 4, 128, 2, 1]
    );
    assert_eq!(s.allocated_elements(), Ok(167_772_160));
    assert_eq!(s.size_in_bytes(), Ok(335_544_320));
    assert_eq!(s.layout().memory_space(), 1);
    assert_eq!(s.offset(&[3, 0, 13, 300]), Ok(63_048_281));
    assert_eq!(s.byte_offset(&[3, 0, 13, 300]), Ok(126_096_562));
    // The doc's closed form at a spread of indices.
    for (a, b, c, d) in [
        (0, 0, 0, 0),
        (7, 0, 1279, 16383),
        (5, 0, 641, 9000),
        (1, 0, 9, 129),
    ] {
        let lin = ((((((b * 8 + a) * 160 + c / 8) * 128 + d / 128) * 4 + (c % 8) / 2) * 128
            + d % 128)
            * 2)
            + c % 2;
        assert_eq!(s.offset(&[a, b, c, d]), Ok(lin));
    }
}

#[test]
fn triple_tile_1d() {
    let s = arr("bf16[4096]{0:T(1024)(128)(2,1)}");
    assert_eq!(s.tiled_shape().unwrap().as_slice(), &[4, 4, 128, 2, 1]);
    for (e, o) in [
        (0, 0),
        (1, 2),
        (127, 254),
        (128, 1),
        (129, 3),
        (255, 255),
        (256, 256),
        (1023, 1023),
        (1024, 1024),
    ] {
        assert_eq!(s.offset(&[e]), Ok(o), "element {e}");
    }
}

#[test]
fn index_util_vectors() {
    assert_eq!(arr("f32[100]").offset(&[42]), Ok(42));
    let cm = arr("f32[10,20]{0,1}");
    assert_eq!(cm.offset(&[0, 0]), Ok(0));
    assert_eq!(cm.offset(&[9, 19]), Ok(199));
    assert_eq!(cm.offset(&[3, 5]), Ok(53));
    assert_eq!(cm.index_of(53).unwrap().as_slice(), &[3, 5]);
    let rm = arr("f32[10,20]{1,0}");
    assert_eq!(rm.offset(&[3, 5]), Ok(65));
    assert_eq!(rm.index_of(65).unwrap().as_slice(), &[3, 5]);
    assert_eq!(rm.offset(&[9, 19]), Ok(199));
    let r3 = arr("f32[10,20,30]{2,1,0}");
    assert_eq!(r3.offset(&[3, 5, 7]), Ok(1957));
    assert_eq!(r3.offset(&[8, 15, 27]), Ok(5277));
    let p3 = arr("f32[10,20,30]{1,2,0}");
    assert_eq!(p3.offset(&[3, 5, 7]), Ok(1945));
    assert_eq!(p3.offset(&[8, 15, 27]), Ok(5355));
    let r4 = arr("f32[10,20,30,40]{3,2,1,0}");
    assert_eq!(r4.offset(&[3, 5, 7, 9]), Ok(78289));
    assert_eq!(r4.offset(&[8, 15, 27, 33]), Ok(211113));
    for m2m in ["6,5,4,3,2,1,0", "0,1,2,3,4,5,6", "4,5,1,2,6,0,3"] {
        let s = arr(&format!("f32[10,20,30,40,30,20,10]{{{m2m}}}"));
        for lin in [
            0u64, 1439999999, 1145567336, 43883404, 617295214, 1117613654,
        ] {
            let idx = s.index_of(lin).unwrap();
            assert_eq!(s.offset(idx.as_slice()), Ok(lin), "{m2m} {lin}");
            assert_eq!(s.untiled_multi_index(lin).unwrap(), idx);
        }
    }
    assert_eq!(arr("f32[5,8,10,4]{3,2,1,0}").dimension_stride(1), Ok(40));
    assert_eq!(compare_indices(&[1, 2], &[1, 2]), 0);
}

#[test]
fn bump_indices() {
    let s = arr("s32[2,2]");
    let mut i = [0u64, 0];
    let mut seen = vec![i];
    while s.next_index(&mut i) {
        seen.push(i);
    }
    assert_eq!(seen, [[0, 0], [0, 1], [1, 0], [1, 1]]);
    assert_eq!(i, [1, 1]);
}

#[test]
fn sizes_section_6_5() {
    let cases: &[(&str, u64)] = &[
        ("f32[]", 4),
        ("f32[10,20]", 800),
        ("f64[]", 8),
        ("f64[10,20]", 1600),
        ("c64[]", 8),
        ("c64[10,20]", 1600),
        ("s4[64,128]{1,0:E(4)}", 4096),
        ("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}", 28_311_552),
        ("s4[0,64,128]{2,1,0:E(4)}", 0),
        ("s4[63,127,0]{2,1,0:E(4)}", 0),
        ("f32[3,5]{1,0:T(2,2)}", 96),
        ("f32[8,128]{1,0:T(8,128)}", 4096),
        ("bf16[1,6144]{1,0:T(2,128)(2,1)}", 24_576),
        ("bf16[32,6144]{1,0:T(8,128)(2,1)}", 393_216),
        ("s32[]{:T(128)}", 512),
        ("f32[]{:T(256)}", 1024),
        ("f32[32,1,1]{2,1,0:T(2,128)S(5)}", 32_768),
        ("f32[123,456]{0,1:T(2,128)}", 233_472),
        ("pred[123,456]{1,0:T(2,128)}", 63_488),
        (
            "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
            335_544_320,
        ),
        ("f32[3,5]{1,0:T(2,2)L(10)}", 120),
        // docs/decisions.md: L(n) applies untiled too (XLA's ArraySize says 60).
        ("f32[3,5]{1,0:L(7)}", 84),
    ];
    for &(s, bytes) in cases {
        assert_eq!(arr(s).size_in_bytes(), Ok(bytes), "{s}");
    }
    assert_eq!(
        arr("bf16[1,6144]{1,0:T(2,128)(2,1)}").element_count(),
        Ok(6144)
    );
}

#[test]
fn elements_in() {
    for (s, n) in [
        ("s32[]", 1),
        ("s32[0]", 0),
        ("s32[1]", 1),
        ("s32[1,1]", 1),
        ("s32[2]", 2),
        ("s32[2,1]", 2),
        ("s32[3,5]", 15),
        ("s32[3,0,5]", 0),
        ("s32[0,3,0]", 0),
        ("s32[1,3,5]", 15),
        ("s32[13,17]", 221),
    ] {
        assert_eq!(arr(s).element_count(), Ok(n), "{s}");
    }
}

#[test]
fn byte_strides_and_dimensions() {
    assert_eq!(
        arr("f32[3,5,7]").byte_strides().unwrap().as_slice(),
        &[140, 28, 4]
    );
    assert_eq!(
        arr("f16[5,7,9]").byte_strides().unwrap().as_slice(),
        &[126, 18, 2]
    );
    let s = arr("f32[2,3]");
    assert_eq!(s.dim(-1), Ok(Dim::Static(3)));
    assert_eq!(s.dim(-2), Ok(Dim::Static(2)));
    assert_eq!(
        s.dim(-3).unwrap_err().kind(),
        ErrorKind::DimensionNumberOutOfRange
    );
    assert_eq!(arr("f32[1,2,3,4]").dim(-1), Ok(Dim::Static(4)));
    assert_eq!(arr("f32[2,1,1]").true_rank(), 1);
    assert_eq!(arr("f32[3,0,1]").true_rank(), 2);
}

#[test]
fn default_layouts() {
    assert_eq!(arr("f32[2,3]").layout().to_string(), "{1,0}");
    assert_eq!(arr("f32[2,3,4]").layout().to_string(), "{2,1,0}");
    assert_eq!(arr("f32[2,3,4,5]").layout().to_string(), "{3,2,1,0}");
    assert_eq!(arr("f32[2,3,4,5,6]").layout().to_string(), "{4,3,2,1,0}");
    let l = xla_layout::Layout::descending(3);
    assert_eq!(l.move_dim_to_major(0), l);
    assert_eq!(l.move_dim_to_major(1).minor_to_major(), &[2, 0, 1]);
    let s = arr("f32[10,10,10]{0,2,1}");
    assert_eq!(s.layout().move_dim_to_major(0).minor_to_major(), &[2, 1, 0]);
    assert!(arr("f32[1,2,3,4]{3,2,1,0}").layout().is_descending());
    assert!(arr("f32[1,2,3,4]{0,1,2,3}").layout().is_ascending());
    assert!(!arr("f32[1,2,3,4]{0,2,1,3}").layout().is_ascending());
}

#[test]
fn legacy_padding_seed_example() {
    // 2x3 array a b c / d e f, padded to 3x5, column-major, zero padding.
    let s = arr("f32[2,3]{0,1}")
        .with_legacy_padding(&[3, 5], PaddingValue::Zero)
        .unwrap();
    let names = [["a", "b", "c"], ["d", "e", "f"]];
    let mut memory = vec!["0"; s.allocated_elements().unwrap() as usize];
    for r in 0..2u64 {
        for c in 0..3u64 {
            memory[s.offset(&[r, c]).unwrap() as usize] = names[r as usize][c as usize];
        }
    }
    assert_eq!(memory.join(" "), "a d 0 b e 0 c f 0 0 0 0 0 0 0");
    assert_eq!(s.index_of(2), None);
    assert_eq!(s.index_of(3).unwrap().as_slice(), &[0, 1]);
    // Old shape_util_test: f32[10,20] padded to (15,21) is 1260 bytes.
    let p = arr("f32[10,20]")
        .with_legacy_padding(&[15, 21], PaddingValue::Unknown)
        .unwrap();
    assert_eq!(p.size_in_bytes(), Ok(1260));
    let err = arr("f32[2,3]")
        .with_legacy_padding(&[3, 2], PaddingValue::Zero)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::PaddingTooSmall);
    let err = arr("f32[2,3]")
        .with_legacy_padding(&[3], PaddingValue::Zero)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::PaddingLength);
}

#[test]
fn round_trips_section_1_7() {
    let cases = [
        ("f32[123,456]", "f32[123,456]{1,0}"),
        ("f32[?,784]", "f32[?,784]{1,0}"),
        ("f32[123,<=456]", "f32[123,<=456]{1,0}"),
        (
            "(f32[42], u32[<=123,<=456])",
            "(f32[42]{0}, u32[<=123,<=456]{1,0})",
        ),
        (
            "(f32[1572864],s8[5120,1024])",
            "(f32[1572864]{0}, s8[5120,1024]{1,0})",
        ),
        (
            "(f32[1],(f32[2], token[]), opaque[], f32[3])",
            "(f32[1]{0}, (f32[2]{0}, token[]), opaque[], f32[3]{0})",
        ),
        (
            "f32[123,456,789]{0,1,2:T(2, * , 128)}",
            "f32[123,456,789]{0,1,2:T(2,*,128)}",
        ),
        (
            "f32[ 1, 2,3, 4, 5]{0, 1, 2,3, 4 }",
            "f32[1,2,3,4,5]{0,1,2,3,4}",
        ),
        ("f32[]", "f32[]"),
        ("f32[]{:T(256)}", "f32[]{:T(256)}"),
        ("f32[2]{0:D(C)}", "f32[2]{0}"),
        ("f32[0496]", "f32[496]{0}"),
        ("s8[-0]", "s8[0]{0}"),
        ("f32[2]/*c*/{0}", "f32[2]{0}"),
        ("b(f32[2])", "b(f32[2]{0})"),
        ("f32[4]{0:E(32)}", "f32[4]{0:E(32)}"),
    ];
    for (input, printed) in cases {
        let s = parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(s.to_string(), printed, "{input}");
    }
    for same in [
        "f32[123,456]{0,1}",
        "f32[123,456]{0,1:T(2,128)}",
        "bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}",
        "s4[123,456]{1,0:T(2,128)E(4)}",
        "pred[123,456]{1,0:T(2,128)S(3)}",
        "pred[123,456]{1,0:S(3)}",
        "f32[123,456]{1,0:T(16,128)M(1024)}",
        "pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}",
        "pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}",
        "pred[123,456]{1,0:SC(1:50,200)}",
        "opaque[]",
        "token[]",
        "f32[2,3]{1,0:S(1)}",
        "bf16[2,3,4]{1,2,0:T(16,256)(2,1)}",
        "bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}",
        "bf16[4096]{0:T(1024)(128)(2,1)}",
        "f32[<=23,44,<=55]{2,1,0}",
    ] {
        let s = parse(same).unwrap_or_else(|e| panic!("{same}: {e}"));
        assert_eq!(s.to_string(), same);
    }
}

#[test]
fn parse_failures_section_6_2() {
    for bad in [
        "f32[123,456]foobar{0,1}",
        "f32[123,456]{foo}",
        "f32[123,456]dense{foo}",
        "f32[123,456,789]{1:T(2, * , 128)}",
        "f32[10,10]{1,0:D(X,C)}",
        "f32[10,10]{1,0:T(128,8)P(f32[10,10])}",
        "f32[2,3]{1,0:S(1)T(2,2)}",
        "f32[-1]",
        "f32[<=?]",
        "f32[2]{}",
        "(f32[2]){0}",
    ] {
        assert!(parse(bad).is_err(), "{bad} should fail");
    }
    assert_eq!(
        parse("f32[123,456,789]{1:T(2, * , 128)}")
            .unwrap_err()
            .kind(),
        ErrorKind::MinorToMajorLength
    );
}

#[test]
fn for_each_index_section_6_6() {
    for (dims, n) in [
        ("", 1),
        ("0", 0),
        ("16", 16),
        ("3,0", 0),
        ("0,2", 0),
        ("4,16", 64),
        ("6,11,17", 1122),
        ("6,11,5,17", 5610),
    ] {
        let s = arr(&format!("f32[{dims}]"));
        let mut logical = 0;
        s.for_each_index(|_| logical += 1);
        assert_eq!(logical, n, "[{dims}] in logical order");
        let sizes: Vec<u64> = s.dims().iter().map(|d| d.layout_size().unwrap()).collect();
        let (base, incr) = (vec![0; sizes.len()], vec![1; sizes.len()]);
        let mut count = 0;
        s.for_each_index_in(&base, &sizes, &incr, |_| {
            count += 1;
            true
        });
        assert_eq!(count, n, "[{dims}]");
        let mut memory = 0;
        s.for_each_index_in_memory_order(|_| memory += 1);
        assert_eq!(memory, n, "[{dims}] in memory order");
    }
    let mut seen = Vec::new();
    arr("f32[10,10]").for_each_index_in(&[2, 3], &[3, 1], &[2, 1], |i| {
        seen.push(i.to_vec());
        true
    });
    assert_eq!(seen, [[2, 3], [4, 3]]);
    // Stopping early.
    let mut calls = 0;
    arr("f32[4,4]").for_each_index_in(&[0, 0], &[4, 4], &[1, 1], |_| {
        calls += 1;
        calls < 5
    });
    assert_eq!(calls, 5);
}

#[test]
fn element_type_table_section_1_2() {
    use xla_layout::{ElementType, ALL_ELEMENT_TYPES};
    assert_eq!(ALL_ELEMENT_TYPES.len(), 32);
    for t in ALL_ELEMENT_TYPES {
        assert_eq!(ElementType::from_name(t.name()), Some(t));
        assert_eq!(t.byte_width(), t.bit_width().div_ceil(8));
    }
    let sub_byte: Vec<&str> = ALL_ELEMENT_TYPES
        .iter()
        .filter(|t| t.is_sub_byte())
        .map(|t| t.name())
        .collect();
    assert_eq!(sub_byte, ["s1", "s2", "s4", "u1", "u2", "u4", "f4e2m1fn"]);
    for (name, value, bits, bytes) in [
        ("pred", 1, 1, 1),
        ("s4", 21, 4, 1),
        ("bf16", 16, 16, 2),
        ("f32", 11, 32, 4),
        ("f8e8m0fnu", 33, 8, 1),
        ("f4e2m1fn", 32, 4, 1),
        ("c64", 15, 64, 8),
        ("c128", 18, 128, 16),
        ("opaque", 14, 0, 0),
    ] {
        let t = ElementType::from_name(name).unwrap();
        assert_eq!(
            (t.xla_enum_value(), t.bit_width(), t.byte_width()),
            (value, bits, bytes),
            "{name}"
        );
    }
    assert_eq!(ElementType::from_name("opaque_type"), None);
    assert_eq!(ElementType::from_name("tuple"), None);
}
