use xla_layout::layout;

fn main() {
    let _ = layout!(f32[2, 3]{1, 1:T(0, *)L(0)S(200)});
}
