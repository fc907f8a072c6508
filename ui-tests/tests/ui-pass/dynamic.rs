//! `?` dimensions: extents supplied at run time, everything else fixed.
#![deny(warnings)]

use xla_layout::{layout, RankedLayout, Unresolved, View};

const ROWS: Unresolved<2, 1> = layout!(f32[?,128]{1,0:T(8,128)});

layout! {
    pub type Batch = bf16[?,<=4,?]{2,1,0};
}

fn main() {
    let l = ROWS.resolve([20]).unwrap();
    assert_eq!(l.dims(), [20, 128]);
    assert_eq!(l.allocated_elements(), 24 * 128);
    let b = Batch::new([3, 5]).unwrap();
    assert_eq!(b.layout().dims(), [3, 4, 5]);
    assert_eq!(b.offset([2, 3, 4]), 2 * 20 + 3 * 5 + 4);
    assert_eq!(b.offset_of([0, 0, 1]), 1);
    assert!(Batch::new([usize::MAX, 2]).is_err());
    let data = vec![1.5f32; l.allocated_elements()];
    let v = View::new(l, &data).unwrap();
    assert_eq!(v[[19, 127]], 1.5);
}
