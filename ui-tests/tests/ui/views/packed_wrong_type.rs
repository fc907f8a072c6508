// An s4 layout is read as i8; u8 (u4's type) and wide types are refused.
use xla_layout::{layout, PackedView};

layout! {
    pub type Int4 = s4[8]{0:E(4)};
    pub type Wide = f32[8]{0};
}

fn main() {
    let bytes = [0u8; 4];
    let _ = PackedView::<u8, _, 1>::new(Int4, &bytes);
    let _ = PackedView::<u8, _, 1>::new(Wide, &bytes);
}
