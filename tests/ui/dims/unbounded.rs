use layout::layout;

fn main() {
    let _ = layout!(f32[?, 128]{1, 0});
}
