//! A kernel-style example: transpose a row-major matrix into a TPU-style
//! tiled layout and back, with every layout a compile-time constant, checked
//! against a naive transpose. Run with `cargo run --example transpose`.
#![warn(clippy::pedantic)]

use xla_layout::{layout, relayout, StaticShape, View, ViewMut};

layout! {
    /// The input: 64 x 256 floats, row-major.
    pub type Input = f32[64,256]{1,0};
    /// The output: its transpose, 256 x 64, in (8,128) tiles.
    pub type Output = f32[256,64]{1,0:T(8,128)};
    /// The same output without tiles, for the naive reference.
    pub type Plain = f32[256,64]{1,0};
    /// The input's bytes seen as the 256 x 64 transpose: column-major.
    pub type InputT = f32[256,64]{0,1};
}

/// Transposes tile by tile: the output is walked in memory order (8 x 128
/// tiles), so writes are sequential; reads stride through the input.
fn tiled_transpose<A: StaticShape<2>, B: StaticShape<2>>(src: &[f32], dst: &mut [f32]) {
    let [rows, cols] = B::DIMS;
    for tile_r in (0..rows).step_by(8) {
        for tile_c in (0..cols).step_by(128) {
            for r in tile_r..(tile_r + 8).min(rows) {
                for c in tile_c..(tile_c + 128).min(cols) {
                    dst[B::offset([r, c])] = src[A::offset([c, r])];
                }
            }
        }
    }
}

fn naive_transpose(src: &[f32], dst: &mut [f32]) {
    let [rows, cols] = Input::DIMS;
    for r in 0..rows {
        for c in 0..cols {
            dst[c * rows + r] = src[r * cols + c];
        }
    }
}

fn main() {
    #[allow(clippy::cast_precision_loss)] // small integers, exact in f32
    let input: Vec<f32> = (0..Input::ALLOCATED_ELEMENTS).map(|x| x as f32).collect();
    let mut tiled = vec![f32::NAN; Output::ALLOCATED_ELEMENTS];
    tiled_transpose::<Input, Output>(&input, &mut tiled);
    let mut naive = vec![0.0; Plain::ALLOCATED_ELEMENTS];
    naive_transpose(&input, &mut naive);

    let out = View::new(Output, &tiled).expect("layout and slice agree");
    let reference = View::new(Plain, &naive).expect("layout and slice agree");
    let mut checked = 0;
    for (a, b) in out.iter().zip(reference.iter()) {
        assert_eq!(a.to_bits(), b.to_bits());
        checked += 1;
    }
    assert_eq!(checked, 256 * 64);

    // The library does the same in one call: the input's bytes are the
    // transpose in column-major order, and a relayout moves them into the
    // tiled layout.
    let mut moved = vec![f32::NAN; Output::ALLOCATED_ELEMENTS];
    let from = View::new(InputT, &input).expect("layout and slice agree");
    let mut to = ViewMut::new(Output, &mut moved).expect("layout and slice agree");
    relayout(&from, &mut to).expect("same array");
    let by_library = View::new(Output, &moved).expect("layout and slice agree");
    let by_hand = View::new(Output, &tiled).expect("layout and slice agree");
    assert!(by_library
        .iter()
        .zip(by_hand.iter())
        .all(|(a, b)| a.to_bits() == b.to_bits()));
    // Its padding slots (64 of each tile row's 128) are zeros, not NaN.
    assert_eq!(moved.iter().filter(|x| x.is_nan()).count(), 0);

    // Write through a mutable view and read it back through the layout.
    let mut view = ViewMut::new(Output, &mut tiled).expect("layout and slice agree");
    view[[255, 63]] = -1.0;
    assert!((tiled[Output::offset([255, 63])] + 1.0).abs() < f32::EPSILON);

    println!(
        "transposed {}x{} into {} ({} bytes, {} tiles of 8x128): {checked} elements match the naive transpose",
        Input::DIMS[0],
        Input::DIMS[1],
        Output::TEXT,
        Output::SIZE_IN_BYTES,
        Output::ALLOCATED_ELEMENTS / 1024,
    );
}
