use xla_layout::layout;

fn main() {
    let _ = layout!(pred[3, 4]{1, 0:SC(2:1)});
}
