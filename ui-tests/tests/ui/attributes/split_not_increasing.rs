use xla_layout::layout;

fn main() {
    let _ = layout!(f32[8]{0:SC(0:3, 3)});
}
