use xla_layout::{layout, StaticLayout};

// Exactly one error: the stub is a `StaticLayout<2>`, as declared.
const L: StaticLayout<2> = layout!("f32[3,5");

fn main() {
    let _ = L.offset([1, 2]);
}
