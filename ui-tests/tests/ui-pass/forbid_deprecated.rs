//! A crate that forbids `deprecated` can use the item form: the generated
//! code carries no `allow(deprecated)` unless the type is deprecated.
#![forbid(deprecated)]
#![deny(warnings)]

use xla_layout::layout;

layout! {
    pub type Rows = f32[3,5]{1,0};
    pub type Batch = f32[?,5]{1,0};
}

fn main() {
    assert_eq!(Rows::offset([1, 2]), 7);
    assert_eq!(Batch::new([2]).unwrap().offset([1, 2]), 7);
}
