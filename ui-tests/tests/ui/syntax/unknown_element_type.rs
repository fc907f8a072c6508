use xla_layout::layout;

fn main() {
    let _ = layout!(f33[2, 3]);
}
