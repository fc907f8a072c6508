// `View::new` on an item type of `layout!` takes its element type's natural
// Rust type alone (f32 here): any other slice is a compile error naming
// both types, never a run-time `ViewMismatch`.
use xla_layout::{layout, View, ViewMut};

layout! {
    pub type Fig1 = f32[3,5]{1,0:T(2,2)};
}

fn main() {
    let wide = [0.0f64; 24];
    let _ = View::new(Fig1, &wide);
    let mut ints = [0i32; 24];
    let _ = ViewMut::new(Fig1, &mut ints);
    let _ = View::<f64, _, 2>::new(Fig1, &wide[..]);
}
