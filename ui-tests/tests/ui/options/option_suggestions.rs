use xla_layout::layout;

fn main() {
    let _ = layout!(f32[2, 3], paded = [3, 5]);
    let _ = layout!(f32[2, 3], padded = [3, 5], padding_value = zeros);
    let _ = layout!(f32[2, 3], padded = [3, 5], padding_value = Highest);
}
