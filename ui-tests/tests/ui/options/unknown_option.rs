use xla_layout::layout;

fn main() {
    let _ = layout!(f32[2, 3], pad = [3, 5]);
}
