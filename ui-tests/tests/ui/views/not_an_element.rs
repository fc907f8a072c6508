// A Rust type that stores no XLA element type: the error says which types
// and features views take.
use xla_layout::{StaticLayout, View};

fn main() {
    let l: StaticLayout<1> = StaticLayout::parse("s64[4]{0}").unwrap();
    let _ = View::new(l, &[0i128; 4][..]);
}
