use xla_layout::layout;

fn main() {
    let _ = layout!(f32[10, 10]{1, 0:T(128, 8)P(f32[10, 10])});
}
