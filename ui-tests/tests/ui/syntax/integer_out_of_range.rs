use xla_layout::layout;

fn main() {
    let _ = layout!(f32[9223372036854775808]);
}
