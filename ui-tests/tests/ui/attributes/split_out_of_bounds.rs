use xla_layout::layout;

fn main() {
    let _ = layout!(f32[4, 3]{0, 1:SC(0:3)});
}
