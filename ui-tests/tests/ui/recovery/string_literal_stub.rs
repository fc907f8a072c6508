use xla_layout::{layout, StaticLayout, Unresolved};

// One error per invocation: the stub takes its type from where it is used,
// so there is no `expected StaticLayout<2>, found StaticLayout<0>` after it.
const L: StaticLayout<2> = layout!("f32[3,5");
const D: Unresolved<2, 1> = layout!("f32[?,5]{2,0}");

fn main() {
    let three: StaticLayout<3> = layout!("f32[3,5]{1,0");
    let unused = layout!("f33[3]");
    let offset = layout!("f32[2,3]{1,0:T(2,*)}").offset([1, 2]);
    let extents = layout!(f32[?, 5]{1, 0:T(2, *)}).resolve([4]);
    let _ = (L, D, three, unused, offset, extents);
}
