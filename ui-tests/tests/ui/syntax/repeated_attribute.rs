use xla_layout::layout;

fn main() {
    let _ = layout!(f32[8]{0:E(4)E(4)});
}
