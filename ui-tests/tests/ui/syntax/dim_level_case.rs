use xla_layout::layout;

fn main() {
    let _ = layout!(f32[10, 10]{1, 0:D(D, c)});
}
