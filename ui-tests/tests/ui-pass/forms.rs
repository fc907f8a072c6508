//! Every form of the macro compiles, and its results are usable in `const`.
#![deny(warnings)]

use xla_layout::{layout, StaticLayout, StaticShape};

const FIG1: StaticLayout<2> = layout!(f32[3,5]{1,0:T(2,2)});
const SEED: StaticLayout<4> = layout!("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
const PADDED: StaticLayout<2> = layout!(f32[2,3]{0,1}, padded = [3, 5], padding_value = zero);
const SCALAR: StaticLayout<0> = layout!(s32[]{:T(128)});
const O: usize = FIG1.offset([2, 3]);
const _: () = assert!(O == 17);
const _: () = assert!(SEED.offset([3, 0, 13, 300]) == 63_048_281);
const _: () = assert!(PADDED.allocated_elements() == 15);
const _: () = assert!(SCALAR.allocated_elements() == 128);

layout! {
    /// A private layout.
    type Private = u8[16]{0};
    pub type Act = bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)};
    pub(crate) type Combined = f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)};
}

const _: () = assert!(Act::offset([3, 0, 13, 300]) == 63_048_281);
const _: () = assert!(Combined::offset([1, 6, 7, 10, 9]) == 12430);

fn generic<L: StaticShape<4>>() -> usize {
    L::offset([0, 0, 0, 1]) + L::ALLOCATED_ELEMENTS
}

fn main() {
    assert_eq!(Private::offset([3]), 3);
    assert_eq!(generic::<Act>(), 2 + 167_772_160);
    assert_eq!(SEED.to_string(), "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
    assert_eq!(<Act as StaticShape<4>>::MEMORY_SPACE, 1);
}
