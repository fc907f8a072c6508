//! Generated paths resolve without the facade: layout-core + layout-macros.
#![deny(warnings)]

use layout_core::{StaticLayout, StaticShape};
use layout_macros::layout;

const FIG1: StaticLayout<2> = layout!(f32[3,5]{1,0:T(2,2)});

layout! {
    pub type Seed = bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)};
}

fn main() {
    assert_eq!(FIG1.offset([2, 3]), 17);
    assert_eq!(<Seed as StaticShape<4>>::offset([3, 0, 13, 300]), 63_048_281);
}
