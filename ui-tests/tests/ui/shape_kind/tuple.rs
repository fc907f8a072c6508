use xla_layout::layout;

fn main() {
    let _ = layout!((f32[2], f32[3]));
}
