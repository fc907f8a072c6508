use xla_layout::{layout, PackedView, RankedLayout};

layout! {
    pub type Bad = f32[?, 8]{1, 0:T(2, *)};
}

fn main() {
    // Only the bad tile is reported: `Bad` keeps `new` and `offset`.
    let b = Bad::new([4]).unwrap();
    let _ = b.offset([1, 2]) + b.offset_of([0, 0]);
    // Nor does a view of it add an error (the stub has no element type).
    let _ = PackedView::<i8, _, 2>::new(b, &[0u8; 16]);
}
