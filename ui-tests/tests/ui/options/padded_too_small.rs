use xla_layout::layout;

fn main() {
    let _ = layout!(f32[2, 3]{0, 1}, padded = [3, 2]);
}
