// f8e4m3b11fnuz has no Rust type under any feature; s4 never has one
// (packed values go through `PackedView`). (bf16 has one with the `half`
// feature, which the test suite turns on.)
use xla_layout::{layout, View};

layout! {
    pub type Weights = f8e4m3b11fnuz[4,8]{1,0};
    pub type Int4 = s4[4,8]{1,0};
}

fn main() {
    let _ = View::new(Weights, &[0u8; 32]);
    let _ = View::new(Int4, &[0i8; 32]);
}
