use xla_layout::layout;

fn main() {
    let _ = layout!(f32[2]{0:E(-4)});
}
