use xla_layout::{layout, StaticShape};

layout! {
    // The literal does not parse; its rank (2) is read off the dimensions.
    pub type Bad = "f32[4,8]{1,0";
}

fn offset_of<L: StaticShape<2>>() -> usize {
    L::offset([1, 2])
}

fn main() {
    let _ = offset_of::<Bad>() + Bad::offset([0, 0]);
}
