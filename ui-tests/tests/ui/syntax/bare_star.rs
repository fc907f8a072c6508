use xla_layout::layout;

fn main() {
    let _ = layout!(f32[2]{0:T(4, 1, 128)*});
}
