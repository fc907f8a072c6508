use xla_layout::{layout, View, ViewMut};

layout! {
    pub type Fig1 = f32[3,5]{1,0:T(2,2)};
}

fn main() {
    let wide = [0.0f64; 24];
    let _ = View::typed(Fig1, &wide);
    let mut ints = [0i32; 24];
    let _ = ViewMut::typed(Fig1, &mut ints);
}
