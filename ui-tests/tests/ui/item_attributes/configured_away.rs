use xla_layout::layout;

layout! {
    #[cfg(any())]
    pub type Gone = f32[3, 5];
}

fn main() {
    // The one error is this use: the type's impls went with it.
    let _ = Gone::offset([1, 2]);
}
