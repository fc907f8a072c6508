use xla_layout::{layout, StaticShape, View};

layout! {
    pub type Good = f32[4, 8]{1, 0:T(2, 4)};
    pub type Bad = f32[4, 8]{1, 0:T(2, *)};
}

fn offset_of<L: StaticShape<2>>() -> usize {
    L::offset([1, 2])
}

fn main() {
    // Only the bad tile is reported: `Bad` still exists with rank 2.
    let _ = offset_of::<Good>() + offset_of::<Bad>() + Bad::offset([0, 0]) + Bad::ALLOCATED_ELEMENTS;
    // Nor does a view of it add an error (the stub has no element type).
    let _ = View::new(Bad, &[0.0f32; 32]);
}
