use xla_layout::layout;

fn main() {
    // The shape does not parse, and the options have problems of their
    // own: all three are reported.
    let _ = layout!(f33[2, 3], paded = [3, 5], padding_value = zeros);
}
