//! The matrix's two layouts, in one place for the kernels (`src/lib.rs`)
//! and the host loader (`host/src/lib.rs` includes this file with
//! `#[path]`), so the GPU and the CPU reference use the same `layout!` items.

use xla_layout::layout;

layout! {
    /// The matrix in row-major order.
    pub type Rows = f32[64,256]{1,0};
    /// The same matrix in 8x128 tiles, the tiles in row-major order.
    pub type Tiled = f32[64,256]{1,0:T(8,128)};
}
