//! Packed views of sub-byte integers and `pred`: every element sits at the
//! bit `ArrayShape::bit_offset` names, writes touch only their own bits,
//! and values out of range are refused. (And the run-time checked
//! constructors of packed and plain views.)

use layout_core::{parse_array, ErrorKind, PackedView, PackedViewMut, StaticLayout, View, ViewMut};
use xla_layout::layout;

/// Writes a distinct value at every index and checks, byte by byte, that
/// it landed at `bit_offset` (least significant bit first).
fn check_bits<const R: usize>(text: &'static str, values: impl Fn(usize) -> i8) {
    let shape = parse_array(text).unwrap();
    let l: StaticLayout<R> = StaticLayout::parse(text).unwrap();
    let width = shape.element_type().bit_width();
    let mut bytes = vec![0u8; l.size_in_bytes()];
    let mut v = PackedViewMut::<i8, _, R>::new(l, &mut bytes).unwrap();
    let all: Vec<[usize; R]> = layout_core::LogicalIndices::new(l.dims()).collect();
    for (n, i) in all.iter().enumerate() {
        v.set(*i, values(n)).unwrap();
    }
    for (n, i) in all.iter().enumerate() {
        assert_eq!(v.get(*i), Some(values(n)), "{text} {i:?}");
    }
    for (n, i) in all.iter().enumerate() {
        let idx: Vec<u64> = i.iter().map(|&x| x as u64).collect();
        let bit = shape.bit_offset(&idx).unwrap() as usize;
        let field = (bytes[bit / 8] >> (bit % 8)) & ((1 << width) - 1);
        let expect = (values(n) as u8) & ((1 << width) - 1);
        assert_eq!(field, expect, "{text} {i:?} at bit {bit}");
    }
}

#[test]
fn elements_sit_at_their_bit_offset() {
    check_bits::<2>("s4[3,5]{1,0:E(4)}", |n| (n % 16) as i8 - 8);
    check_bits::<2>("s4[3,5]{0,1:T(2,2)E(4)}", |n| 7 - (n % 16) as i8);
    check_bits::<2>("s2[5,3]{1,0:T(2,4)E(2)}", |n| (n % 4) as i8 - 2);
    check_bits::<3>("s1[2,3,5]{2,0,1:E(1)}", |n| -((n % 3 == 0) as i8));
    check_bits::<2>("s4[16,256]{1,0:T(8,128)(2,1)E(4)}", |n| {
        ((n * 7) % 16) as i8 - 8
    });
}

#[test]
fn low_nibble_first() {
    let l: StaticLayout<1> = StaticLayout::parse("u4[3]{0:E(4)}").unwrap();
    let bytes = [0x21, 0x0F];
    let v = PackedView::<u8, _, 1>::new(l, &bytes).unwrap();
    assert_eq!(v.iter().collect::<Vec<_>>(), [1, 2, 15]);
    assert_eq!(v.as_bytes(), &bytes);
}

#[test]
fn signed_values_are_sign_extended() {
    let l: StaticLayout<1> = StaticLayout::parse("s2[4]{0:E(2)}").unwrap();
    // 0b11_10_01_00: 0, 1, -2, -1.
    let v = PackedView::<i8, _, 1>::new(l, &[0b1110_0100]).unwrap();
    assert_eq!(v.iter().collect::<Vec<_>>(), [0, 1, -2, -1]);
}

#[test]
fn writes_leave_neighbours_alone() {
    let l: StaticLayout<1> = StaticLayout::parse("u1[16]{0:E(1)}").unwrap();
    let mut bytes = [0xFF, 0x00];
    let mut v = PackedViewMut::<u8, _, 1>::new(l, &mut bytes).unwrap();
    v.set([3], 0).unwrap();
    v.set([9], 1).unwrap();
    assert_eq!(bytes, [0b1111_0111, 0b0000_0010]);
}

#[test]
fn pred_packed_one_bit_each() {
    layout! { type Mask = pred[2,4]{1,0:E(1)}; }
    let mut bytes = [0u8; 1];
    let mut v = PackedViewMut::<bool, _, 2>::new(Mask, &mut bytes).unwrap();
    v.set([1, 2], true).unwrap();
    v.set([0, 0], true).unwrap();
    assert_eq!(v.get([1, 2]), Some(true));
    assert_eq!(v.get([1, 3]), Some(false));
    assert_eq!(bytes, [0b0100_0001]);
    // Unpacked pred (a byte each) is a plain `View<bool>`.
    layout! { type Bytes = pred[2]{0}; }
    assert!(View::new(Bytes, &[true, false]).is_ok());
    assert!(PackedView::<bool, _, 1>::new(Bytes, &[0u8; 2]).is_err());
}

#[test]
fn out_of_range_values_are_errors_not_truncated() {
    let l: StaticLayout<1> = StaticLayout::parse("s4[2]{0:E(4)}").unwrap();
    let mut bytes = [0x55];
    let mut v = PackedViewMut::<i8, _, 1>::new(l, &mut bytes).unwrap();
    for bad in [8, 9, -9, i8::MIN, i8::MAX] {
        let e = v.set([0], bad).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::ValueOutOfRange);
    }
    assert_eq!(
        v.set([1], 9).unwrap_err().to_string(),
        "value 9 does not fit in s4 (-8..=7)"
    );
    v.set([0], -8).unwrap();
    v.set([1], 7).unwrap();
    assert_eq!(bytes, [0x78]);

    let l: StaticLayout<1> = StaticLayout::parse("s1[8]{0:E(1)}").unwrap();
    let mut bytes = [0u8];
    let mut v = PackedViewMut::<i8, _, 1>::new(l, &mut bytes).unwrap();
    assert!(v.set([0], 1).is_err());
    v.set([0], -1).unwrap();
    assert_eq!(v.get([0]), Some(-1));
}

#[test]
fn index_errors_name_the_dimension() {
    let l: StaticLayout<2> = StaticLayout::parse("u4[2,3]{1,0:E(4)}").unwrap();
    let mut bytes = [0u8; 3];
    let mut v = PackedViewMut::<u8, _, 2>::new(l, &mut bytes).unwrap();
    assert_eq!(
        v.set([1, 3], 0).unwrap_err().to_string(),
        "index 3 is out of bounds for dimension 1 of size 3"
    );
    assert_eq!(v.get([2, 0]), None);
}

#[test]
fn mismatches_are_refused_with_both_names() {
    let s4: StaticLayout<1> = StaticLayout::parse("s4[4]{0:E(4)}").unwrap();
    let e = PackedView::<u8, _, 1>::new(s4, &[0; 2]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ViewMismatch);
    assert!(e
        .to_string()
        .starts_with("the layout stores s4 but the packed view reads u8"));
    // Not packed: one byte per element is not a packed layout.
    let loose: StaticLayout<1> = StaticLayout::parse("s4[4]{0}").unwrap();
    assert_eq!(
        PackedView::<i8, _, 1>::new(loose, &[0; 4]).unwrap_err().to_string(),
        "the layout's elements take 8 bits; a packed view needs them packed at the type's own width (4 bits, `E(4)`)"
    );
    // Too short: 7 u4 take 4 bytes.
    let u4: StaticLayout<1> = StaticLayout::parse("u4[7]{0:E(4)}").unwrap();
    assert_eq!(
        PackedView::<u8, _, 1>::new(u4, &[0; 3])
            .unwrap_err()
            .to_string(),
        "the buffer has 3 bytes but the layout takes 4"
    );
    assert!(PackedView::<u8, _, 1>::new(u4, &[0; 4]).is_ok());
    // Full-width types are not packed views.
    let f32s: StaticLayout<1> = StaticLayout::parse("s8[4]{0}").unwrap();
    assert!(PackedView::<i8, _, 1>::new(f32s, &[0; 4]).is_err());
}

/// `new` checks an item type's element type at compile time (the ui
/// cases); `new_checked`, for generic code, takes any Rust type and
/// refuses the wrong one at run time, with the same errors as a
/// `StaticLayout` gets.
#[test]
fn checked_constructors_refuse_item_types_at_run_time() {
    layout! {
        type Int4 = s4[4]{0:E(4)};
        type Fig1 = f32[3,5]{1,0:T(2,2)};
    }
    let e = PackedView::<u8, _, 1>::new_checked(Int4, &[0; 2]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ViewMismatch);
    assert!(e
        .to_string()
        .starts_with("the layout stores s4 but the packed view reads u8"));
    let mut bytes = [0u8; 2];
    PackedViewMut::<i8, _, 1>::new_checked(Int4, &mut bytes)
        .unwrap()
        .set([1], -1)
        .unwrap();
    assert_eq!(bytes, [0xF0, 0]);
    assert!(PackedViewMut::<u8, _, 1>::new_checked(Int4, &mut bytes).is_err());

    let wide = [0.0f64; 24];
    assert_eq!(
        View::new_checked(Fig1, &wide).unwrap_err().to_string(),
        "the layout stores f32 but the view's element type is f64"
    );
    let mut data = [0.0f32; 24];
    ViewMut::new_checked(Fig1, &mut data).unwrap()[[2, 3]] = 1.0;
    assert_eq!(data[17], 1.0);
    let mut ints = [0i32; 24];
    assert!(ViewMut::new_checked(Fig1, &mut ints).is_err());
}
