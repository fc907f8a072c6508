//! Typed relayout writes the legacy padding value, as the byte path does:
//! for a destination with legacy padding and a padding value that is not
//! zero, `relayout` on views, `RelayoutPlan::between` with `run`,
//! `run_bytes` (and `par_run` with `rayon`) give the same bytes as
//! `RelayoutPlan::new` with `run_bytes` on the run-time shapes, for
//! several element types, packed `s4` included; and the `layout!` macro's
//! types and constants carry the same value as a layout built at run time.

use xla_layout::{
    layout, parse_array, relayout, ArrayShape, Element, PaddingValue, RelayoutPlan, StaticLayout,
    StaticShape, View, ViewMut,
};

/// The padding values with an encoding that is not all zero bits.
const VALUES: [PaddingValue; 3] = [
    PaddingValue::One,
    PaddingValue::Lowest,
    PaddingValue::Highest,
];

/// A typed element as its little-endian bytes, and made from test bits.
trait Bytes: Element + PartialEq + core::fmt::Debug {
    fn of(bits: u64) -> Self;
    fn put(&self, out: &mut Vec<u8>);
}

macro_rules! bytes {
    ($($t:ty: |$b:ident| $of:expr;)*) => {$(
        impl Bytes for $t {
            fn of($b: u64) -> Self {
                $of
            }
            fn put(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}

bytes! {
    i8: |b| b as i8;
    u16: |b| b as u16;
    i32: |b| b as i32;
    f32: |b| f32::from_bits(b as u32);
    f64: |b| f64::from_bits(b.wrapping_mul(0x9E37_79B9_7F4A_7C15));
}

impl Bytes for bool {
    fn of(bits: u64) -> Self {
        bits & 1 == 1
    }
    fn put(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
}

#[cfg(feature = "half")]
impl Bytes for half::bf16 {
    fn of(bits: u64) -> Self {
        half::bf16::from_bits(bits as u16)
    }
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

fn to_bytes<T: Bytes>(s: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    for x in s {
        x.put(&mut out);
    }
    out
}

/// Test data: `n` values from a simple generator (never all zero).
fn values<T: Bytes>(n: usize, seed: u64) -> Vec<T> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            T::of(x)
        })
        .collect()
}

/// `text` with legacy padding to `padded`, holding `value`.
fn padded(text: &str, padded: &[u64], value: PaddingValue) -> ArrayShape {
    parse_array(text)
        .unwrap()
        .with_legacy_padding(padded, value)
        .unwrap()
}

/// Every typed entry against the byte path, from `src` to `dst` (rank 2).
fn check_typed<T: Bytes>(src: &ArrayShape, dst: &ArrayShape, seed: u64) {
    let ctx = format!(
        "{src} -> {dst} padded {:?}",
        dst.legacy_padding().map(|p| p.padding_value())
    );
    let bytes = RelayoutPlan::new(src, dst).unwrap();
    let a = StaticLayout::<2>::from_shape(src, "source").unwrap();
    let b = StaticLayout::<2>::from_shape(dst, "destination").unwrap();
    assert_eq!(
        b.legacy_padding_value(),
        dst.legacy_padding().map(|p| p.padding_value()),
        "{ctx}"
    );
    let data: Vec<T> = values(a.allocated_elements(), seed);
    let mut want = vec![0xA5u8; bytes.destination_bytes() as usize];
    bytes.run_bytes(&to_bytes(&data), &mut want).unwrap();

    // The garbage the destination starts with: never the padding value.
    let garbage: Vec<T> = values(b.allocated_elements(), seed ^ 0x5555);

    let mut out = garbage.clone();
    relayout(
        &View::new(a, &data).unwrap(),
        &mut ViewMut::new(b, &mut out).unwrap(),
    )
    .unwrap();
    assert_eq!(to_bytes(&out), want, "{ctx}: relayout on views");

    let plan = RelayoutPlan::between(&a, &b).unwrap();
    let mut out = garbage.clone();
    plan.run(&data, &mut out).unwrap();
    assert_eq!(to_bytes(&out), want, "{ctx}: between, run");

    let mut raw = vec![0x5Au8; want.len()];
    plan.run_bytes(&to_bytes(&data), &mut raw).unwrap();
    assert_eq!(raw, want, "{ctx}: between, run_bytes");

    let mut out = garbage.clone();
    bytes.run(&data, &mut out).unwrap();
    assert_eq!(to_bytes(&out), want, "{ctx}: new, run");

    #[cfg(feature = "rayon")]
    {
        let mut out = garbage.clone();
        plan.par_run(&data, &mut out).unwrap();
        assert_eq!(to_bytes(&out), want, "{ctx}: between, par_run");
        let mut raw = vec![0x5Au8; want.len()];
        plan.par_run_bytes(&to_bytes(&data), &mut raw).unwrap();
        assert_eq!(raw, want, "{ctx}: between, par_run_bytes");
    }
}

/// For each padding value: rows into a transposed, padded destination;
/// into a tiled, padded one; and from a padded source into a padded one.
fn check_type<T: Bytes>(ty: &str) {
    let rows = parse_array(&format!("{ty}[5,7]{{1,0}}")).unwrap();
    for (k, v) in VALUES.into_iter().enumerate() {
        let seed = 17 + k as u64;
        let cols = padded(&format!("{ty}[5,7]{{0,1}}"), &[6, 9], v);
        check_typed::<T>(&rows, &cols, seed);
        let tiled = padded(&format!("{ty}[5,7]{{1,0:T(2,4)}}"), &[5, 8], v);
        check_typed::<T>(&rows, &tiled, seed);
        let other = VALUES[(k + 1) % VALUES.len()];
        let from = padded(&format!("{ty}[5,7]{{1,0}}"), &[7, 7], other);
        check_typed::<T>(&from, &cols, seed);
    }
}

#[test]
fn typed_relayout_writes_the_legacy_padding_value_f32() {
    check_type::<f32>("f32");
}

#[test]
fn typed_relayout_writes_the_legacy_padding_value_f64() {
    check_type::<f64>("f64");
}

#[test]
fn typed_relayout_writes_the_legacy_padding_value_s8() {
    check_type::<i8>("s8");
}

#[test]
fn typed_relayout_writes_the_legacy_padding_value_u16_s32_pred() {
    check_type::<u16>("u16");
    check_type::<i32>("s32");
    check_type::<bool>("pred");
}

#[cfg(feature = "half")]
#[test]
fn typed_relayout_writes_the_legacy_padding_value_bf16() {
    check_type::<half::bf16>("bf16");
}

#[test]
fn padding_values_as_typed_elements() {
    // The bits each value takes, read back through the typed run.
    let src = parse_array("f32[1,1]{1,0}").unwrap();
    let a = StaticLayout::<2>::from_shape(&src, "source").unwrap();
    let fill = |v: PaddingValue| {
        let dst = padded("f32[1,1]{1,0}", &[1, 2], v);
        let b = StaticLayout::<2>::from_shape(&dst, "destination").unwrap();
        let mut out = [7.0f32; 2];
        RelayoutPlan::between(&a, &b)
            .unwrap()
            .run(&[3.0], &mut out)
            .unwrap();
        assert_eq!(out[0], 3.0);
        out[1]
    };
    assert_eq!(fill(PaddingValue::One), 1.0);
    assert_eq!(fill(PaddingValue::Lowest), f32::NEG_INFINITY);
    assert_eq!(fill(PaddingValue::Highest), f32::INFINITY);
    assert_eq!(fill(PaddingValue::Zero).to_bits(), 0);
    assert_eq!(fill(PaddingValue::Unknown).to_bits(), 0);
    let s8 = |v: PaddingValue| {
        let src = parse_array("s8[1]{0}").unwrap();
        let dst = padded("s8[1]{0}", &[2], v);
        let a = StaticLayout::<1>::from_shape(&src, "source").unwrap();
        let b = StaticLayout::<1>::from_shape(&dst, "destination").unwrap();
        let mut out = [5i8; 2];
        relayout(
            &View::new(a, &[-3i8]).unwrap(),
            &mut ViewMut::new(b, &mut out).unwrap(),
        )
        .unwrap();
        out
    };
    assert_eq!(s8(PaddingValue::One), [-3, 1]);
    assert_eq!(s8(PaddingValue::Lowest), [-3, i8::MIN]);
    assert_eq!(s8(PaddingValue::Highest), [-3, i8::MAX]);
}

#[test]
fn packed_s4_through_between_matches_the_byte_path() {
    let src = parse_array("s4[5,7]{1,0:E(4)}").unwrap();
    let a = StaticLayout::<2>::from_shape(&src, "source").unwrap();
    let dsts: [(&str, &[u64]); 3] = [
        ("s4[5,7]{0,1:E(4)}", &[6, 9]),
        ("s4[5,7]{1,0:T(2,4)E(4)}", &[5, 9]),
        ("s4[5,7]{0,1}", &[7, 8]),
    ];
    for v in VALUES {
        for (text, pad) in dsts {
            let dst = padded(text, pad, v);
            let b = StaticLayout::<2>::from_shape(&dst, "destination").unwrap();
            assert_eq!(b.legacy_padding_value(), Some(v));
            let bytes = RelayoutPlan::new(&src, &dst).unwrap();
            let data: Vec<u8> = values::<u16>(bytes.source_bytes() as usize, 9)
                .into_iter()
                .map(|x| x as u8)
                .collect();
            let mut want = vec![0xA5u8; bytes.destination_bytes() as usize];
            bytes.run_bytes(&data, &mut want).unwrap();
            let mut got = vec![0x5Au8; want.len()];
            RelayoutPlan::between(&a, &b)
                .unwrap()
                .run_bytes(&data, &mut got)
                .unwrap();
            assert_eq!(got, want, "{src} -> {dst} padded {v:?}");
            // The padding value is really there: zeros would differ.
            let zero = padded(text, pad, PaddingValue::Zero);
            let mut zeros = vec![0u8; want.len()];
            RelayoutPlan::new(&src, &zero)
                .unwrap()
                .run_bytes(&data, &mut zeros)
                .unwrap();
            assert_ne!(zeros, want, "{dst}: padded with {v:?}");
        }
    }
}

layout! {
    /// `f32`, transposed, padded with the lowest value.
    type PadF32 = f32[5,7]{0,1}, padded = [6, 9], padding_value = lowest;
    /// `s8`, tiled, padded with the highest value.
    type PadS8 = s8[5,7]{1,0:T(2,4)}, padded = [5, 8], padding_value = highest;
    /// `s32`, padded with one.
    type PadS32 = s32[5,7]{0,1}, padded = [7, 8], padding_value = one;
    /// `*`: no digit tables, so relayout goes element by element.
    type PadStar = f32[5,7]{1,0:T(*,4)}, padded = [6, 8], padding_value = highest;
    /// Row-major sources.
    type RowsF32 = f32[5,7]{1,0};
    type RowsS8 = s8[5,7]{1,0};
    type RowsS32 = s32[5,7]{1,0};
}

#[cfg(feature = "half")]
layout! {
    type PadBf16 = bf16[5,7]{0,1:T(2,4)}, padded = [6, 8], padding_value = one;
    type RowsBf16 = bf16[5,7]{1,0};
}

/// An item type against the same layout built at run time: the same
/// `StaticLayout` (padding value included), and `relayout` between item
/// types writes what the byte path writes.
fn check_item<T: Bytes, S: StaticShape<2> + Default, D: StaticShape<2> + Default>(
    text: &str,
    pad: (&[u64], PaddingValue),
) {
    let dst = padded(text, pad.0, pad.1);
    let runtime = StaticLayout::<2>::from_shape(&dst, D::LAYOUT.text());
    match runtime {
        Ok(runtime) => assert_eq!(D::LAYOUT, runtime, "{text}"),
        // Built at run time only with digit tables.
        Err(_) => assert!(!D::LAYOUT.has_digit_tables(), "{text}"),
    }
    assert_eq!(D::LAYOUT.legacy_padding_value(), Some(pad.1), "{text}");
    assert_eq!(D::LEGACY_PADDING_VALUE, Some(pad.1), "{text}");
    assert_eq!(S::LEGACY_PADDING_VALUE, None, "{text}");

    let src = parse_array(S::LAYOUT.text()).unwrap();
    let data: Vec<T> = values(S::ALLOCATED_ELEMENTS, 3);
    let bytes = RelayoutPlan::new(&src, &dst).unwrap();
    let mut want = vec![0u8; bytes.destination_bytes() as usize];
    bytes.run_bytes(&to_bytes(&data), &mut want).unwrap();
    let mut out: Vec<T> = values(D::ALLOCATED_ELEMENTS, 4);
    relayout(
        &View::new_checked(S::default(), &data).unwrap(),
        &mut ViewMut::new_checked(D::default(), &mut out).unwrap(),
    )
    .unwrap();
    assert_eq!(to_bytes(&out), want, "{text}: relayout between item types");
    let mut out: Vec<T> = values(D::ALLOCATED_ELEMENTS, 6);
    RelayoutPlan::between(&S::LAYOUT, &D::LAYOUT)
        .unwrap()
        .run(&data, &mut out)
        .unwrap();
    assert_eq!(
        to_bytes(&out),
        want,
        "{text}: between the item types' layouts"
    );
    if D::LAYOUT.has_digit_tables() {
        check_typed::<T>(&src, &dst, 5);
    }
}

#[test]
fn macro_types_carry_the_padding_value() {
    check_item::<f32, RowsF32, PadF32>("f32[5,7]{0,1}", (&[6, 9], PaddingValue::Lowest));
    check_item::<i8, RowsS8, PadS8>("s8[5,7]{1,0:T(2,4)}", (&[5, 8], PaddingValue::Highest));
    check_item::<i32, RowsS32, PadS32>("s32[5,7]{0,1}", (&[7, 8], PaddingValue::One));
    check_item::<f32, RowsF32, PadStar>("f32[5,7]{1,0:T(*,4)}", (&[6, 8], PaddingValue::Highest));
    assert!(!PadStar::LAYOUT.has_digit_tables());
    let star = RelayoutPlan::between(&RowsF32::LAYOUT, &PadStar::LAYOUT).unwrap();
    assert!(!star.is_blocked(), "element by element");
    #[cfg(feature = "half")]
    check_item::<half::bf16, RowsBf16, PadBf16>(
        "bf16[5,7]{0,1:T(2,4)}",
        (&[6, 8], PaddingValue::One),
    );
}

#[test]
fn macro_constants_carry_the_padding_value() {
    const E: StaticLayout<2> = layout!(f32[2,3]{0,1}, padded = [3, 5], padding_value = highest);
    const Z: StaticLayout<2> = layout!(f32[2,3]{0,1}, padded = [3, 5], padding_value = zero);
    const N: StaticLayout<2> = layout!(f32[2,3]{0,1});
    // No `padding_value` given: XLA's default, unknown (written as zeros).
    const U: StaticLayout<2> = layout!(f32[2,3]{0,1}, padded = [3, 5]);
    assert_eq!(E.legacy_padding_value(), Some(PaddingValue::Highest));
    assert_eq!(Z.legacy_padding_value(), Some(PaddingValue::Zero));
    assert_eq!(N.legacy_padding_value(), None);
    assert_eq!(U.legacy_padding_value(), Some(PaddingValue::Unknown));
    assert_ne!(E, Z, "the padding value is part of the layout");
    let runtime = StaticLayout::<2>::from_shape(
        &padded("f32[2,3]{0,1}", &[3, 5], PaddingValue::Highest),
        E.text(),
    )
    .unwrap();
    assert_eq!(E, runtime);
    let rows = StaticLayout::<2>::parse("f32[2,3]{1,0}").unwrap();
    let mut out = [0.5f32; 15];
    relayout(
        &View::new(rows, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap(),
        &mut ViewMut::new(E, &mut out).unwrap(),
    )
    .unwrap();
    let inf = f32::INFINITY;
    // Column-major in a 3x5 box: a d pad b e pad c f pad, then 6 pads.
    assert_eq!(
        out,
        [1.0, 4.0, inf, 2.0, 5.0, inf, 3.0, 6.0, inf, inf, inf, inf, inf, inf, inf]
    );
}
