//! `View::typed` and `ViewMut::typed` accept the layout's natural Rust type,
//! for static and `?` item types alike.
#![deny(warnings)]

use xla_layout::{layout, ElementTag, TypedLayout, View, ViewMut};

layout! {
    pub type Fig1 = f32[3,5]{1,0:T(2,2)};
    pub type Mask = pred[2,3]{0,1};
    pub type Rows = s32[?,4]{1,0};
    pub type Int4 = s4[8]{0:E(4)};
}

fn tag<L: TypedLayout<Tag = ElementTag<N>>, const N: u32>(_: L) -> u32 {
    N
}

fn main() {
    let data: Vec<f32> = (0..24).map(|x| x as f32).collect();
    let v = View::typed(Fig1, &data).unwrap();
    assert_eq!(v[[2, 3]], 17.0);

    let mut mask = [false; 6];
    ViewMut::typed(Mask, &mut mask).unwrap()[[1, 0]] = true;
    assert_eq!(mask, [false, true, false, false, false, false]);

    let rows = Rows::new([3]).unwrap();
    let mut ints = [0i32; 12];
    ViewMut::typed(rows, &mut ints).unwrap()[[2, 1]] = 5;
    assert_eq!(ints[9], 5);

    // Every valid item type names its element type, natural or not.
    assert_eq!(tag(Fig1), 11);
    assert_eq!(tag(Int4), 21);
}
