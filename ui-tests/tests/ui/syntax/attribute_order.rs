use xla_layout::layout;

fn main() {
    let _ = layout!(f32[2, 3]{1, 0:S(1)T(2, 2)});
}
