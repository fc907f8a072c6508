use xla_layout::layout;

fn main() {
    let _ = layout!(c128[1152921504606846976]);
}
