//! `View::new` and `ViewMut::new` accept an item type's natural Rust type,
//! for static and `?` item types alike; `new_checked` takes any
//! `RankedLayout` and checks at run time.
#![deny(warnings)]

use xla_layout::{
    layout, ElementTag, ElementType, PackedView, PackedViewMut, RankedLayout, TypedLayout, View,
    ViewMut,
};

layout! {
    pub type Fig1 = f32[3,5]{1,0:T(2,2)};
    pub type Mask = pred[2,3]{0,1};
    pub type Rows = s32[?,4]{1,0};
    pub type Int4 = s4[8]{0:E(4)};
    pub type Bits = u1[?]{0:E(1)};
}

fn tag<L: TypedLayout>(_: L) -> ElementType {
    <L::Tag as ElementTag>::ELEMENT_TYPE
}

fn main() {
    let data: Vec<f32> = (0..24).map(|x| x as f32).collect();
    let v = View::new(Fig1, &data).unwrap();
    assert_eq!(v[[2, 3]], 17.0);

    let mut mask = [false; 6];
    ViewMut::new(Mask, &mut mask).unwrap()[[1, 0]] = true;
    assert_eq!(mask, [false, true, false, false, false, false]);

    let rows = Rows::new([3]).unwrap();
    let mut ints = [0i32; 12];
    ViewMut::new(rows, &mut ints).unwrap()[[2, 1]] = 5;
    assert_eq!(ints[9], 5);

    // Packed views of s4 read i8.
    let mut weights = [0u8; Int4::SIZE_IN_BYTES];
    PackedViewMut::new(Int4, &mut weights).unwrap().set([1], -1i8).unwrap();
    let w = PackedView::new(Int4, &weights).unwrap();
    let first: Option<i8> = w.get([1]);
    assert_eq!(first, Some(-1));
    assert_eq!(weights[0], 0xF0);
    let bits = Bits::new([12]).unwrap();
    let mut store = [0u8; 2];
    PackedViewMut::new(bits, &mut store).unwrap().set([11], 1u8).unwrap();
    assert_eq!(store, [0, 0x08]);
    assert_eq!(bits.size_in_bytes(), 2);

    // Generic code over any layout checks the element type at run time.
    fn sum<L: RankedLayout<2>>(l: L, data: &[f32]) -> Option<f32> {
        Some(View::new_checked(l, data).ok()?.iter().sum())
    }
    assert_eq!(sum(Fig1, &data), Some(v.iter().sum()));
    assert_eq!(sum(rows, &[1.0; 12]), None); // s32 is not f32

    // Every valid item type names its element type, natural or not.
    assert_eq!(tag(Fig1), ElementType::F32);
    assert_eq!(tag(Int4), ElementType::S4);
}
