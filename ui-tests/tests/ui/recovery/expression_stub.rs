use xla_layout::layout;

// One error for the bad layout; the uses of it type-check against a stub.
const OFFSET: usize = layout!(f32[2, 3]{2, 0}).offset([1, 2]);

fn main() {
    let bytes: usize = layout!(f32[2, 3]{1, 0:S(200)}).size_in_bytes();
    let _ = (OFFSET, bytes);
}
