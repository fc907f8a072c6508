#![deny(deprecated)]

use xla_layout::layout;

layout! {
    #[deprecated = "use `New`"]
    pub type Old = f32[3, 5];
    pub type New = f32[3, 5];
}

fn main() {
    // The only deprecation error is this use; the expansion raises none.
    let _ = Old::offset([1, 2]) + New::offset([1, 2]);
}
