// Without the `half` feature bf16 has no Rust type; s4 never has one
// (packed values go through `PackedView`).
use xla_layout::{layout, View};

layout! {
    pub type Weights = bf16[4,8]{1,0};
    pub type Int4 = s4[4,8]{1,0};
}

fn main() {
    let _ = View::typed(Weights, &[0u16; 32]);
    let _ = View::typed(Int4, &[0i8; 32]);
}
