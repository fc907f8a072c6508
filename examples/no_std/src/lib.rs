//! A `#![no_std]` static library using `xla_layout` with no standard library:
//! the `layout!` macro in both forms, and the `layout_core` runtime (parsing
//! in a `const`, offsets at run time). Building it is the test: the
//! crate-level `#[panic_handler]` would collide with std's if any crate in
//! the graph linked std, and the `const` assertions below check the macro's
//! tables against the runtime while compiling. See `README.md`.
#![no_std]
#![forbid(unsafe_code)]

use xla_layout::{layout, parse_array, ArrayShape, StaticLayout, StaticShape};

layout! {
    /// Activations as a TPU stores them: 8x128 tiles of pairs of rows, in
    /// fast memory.
    pub type Act = bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)};
    /// Row-major 4x8.
    pub type Rows = f32[4,8]{1,0};
    /// The same 4x8 matrix in 2x4 tiles, then pairs of rows interleaved.
    pub type Tiled = f32[4,8]{1,0:T(2,4)(2,1)};
}

/// Expression form, string-literal input, with `E(4)` packing.
pub const PACKED: StaticLayout<2> = layout!("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}");

/// Expression form with legacy padding.
pub const PADDED: StaticLayout<2> = layout!(f32[2,3]{0,1}, padded = [3, 5], padding_value = zero);

/// The runtime parser, evaluated at compile time.
pub const SEED: ArrayShape = match parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}") {
    Ok(s) => s,
    Err(_) => panic!("invalid layout"),
};

/// The packed layout again, parsed by the runtime at compile time.
const PACKED_RUNTIME: ArrayShape = match parse_array("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}") {
    Ok(s) => s,
    Err(_) => panic!("invalid layout"),
};

/// `Result::ok` is not `const`; this is.
const fn ok(r: Result<u64, xla_layout::Error>) -> u64 {
    match r {
        Ok(v) => v,
        Err(_) => panic!("runtime error"),
    }
}

// Compile-time checks: the macro's tables and specialised code agree with
// the runtime, in `const` evaluation.
const _: () = {
    let i = [3, 0, 13, 300];
    assert!(Act::offset(i) == 63_048_281);
    assert!(ok(SEED.offset(&[3, 0, 13, 300])) == Act::offset(i) as u64);
    assert!(Act::LAYOUT.offset(i) == Act::offset(i));
    assert!(ok(SEED.size_in_bytes()) == Act::LAYOUT.size_in_bytes() as u64);
    assert!(Act::LAYOUT.memory_space() == 1);
    assert!(PACKED.size_in_bytes() == 28_311_552);
    assert!(ok(PACKED_RUNTIME.size_in_bytes()) == PACKED.size_in_bytes() as u64);
    assert!(ok(PACKED_RUNTIME.offset(&[9215, 6143])) == PACKED.offset([9215, 6143]) as u64);
    assert!(PADDED.allocated_elements() == 15);
    assert!(PADDED.offset([1, 0]) == 1 && PADDED.offset([0, 1]) == 3);
    assert!(Tiled::offset([0, 1]) == 2 && Tiled::offset([1, 0]) == 1);
};

/// Copies a logical matrix between two layouts of the same dims (a kernel
/// generic over `StaticShape`).
pub fn relayout<A: StaticShape<2>, B: StaticShape<2>>(src: &[f32], dst: &mut [f32]) {
    let [rows, cols] = A::DIMS;
    for r in 0..rows {
        for c in 0..cols {
            dst[B::offset([r, c])] = src[A::offset([r, c])];
        }
    }
}

/// Row-major to tiled, through the item-form types.
pub fn rows_to_tiled(
    src: &[f32; Rows::ALLOCATED_ELEMENTS],
    dst: &mut [f32; Tiled::ALLOCATED_ELEMENTS],
) {
    relayout::<Rows, Tiled>(src, dst);
}

/// The library's relayout at run time, on byte buffers of any two layouts
/// (parsed with no heap): `false` if a text is invalid, the layouts do not
/// describe the same array, or a buffer has the wrong length.
pub fn relayout_text(from: &str, src: &[u8], to: &str, dst: &mut [u8]) -> bool {
    match (parse_array(from), parse_array(to)) {
        (Ok(a), Ok(b)) => xla_layout::relayout_bytes(&a, src, &b, dst).is_ok(),
        _ => false,
    }
}

/// The runtime at run time: parses `text` (no heap) and returns the element
/// offset of `index`, or `None` if the text or the index is invalid.
pub fn offset_of(text: &str, index: &[u64]) -> Option<u64> {
    parse_array(text).ok()?.offset(index).ok()
}

/// The offset of an activation element through the macro's specialised
/// arithmetic, checked against the runtime's answer for the same text.
pub fn act_offset(index: [usize; 4]) -> Option<usize> {
    if !Act::LAYOUT.in_bounds(index) {
        return None;
    }
    let fast = Act::offset(index);
    let wide = index.map(|x| x as u64);
    (offset_of(Act::LAYOUT.text(), &wide) == Some(fast as u64)).then_some(fast)
}

// Keep the functions above in the static library: a staticlib only exports
// `#[no_mangle]` symbols, which this crate does not use (`forbid(unsafe_code)`
// rejects them); `#[used]` statics keep the code without any.
#[used]
static KEEP_RELAYOUT: fn(&[f32; Rows::ALLOCATED_ELEMENTS], &mut [f32; Tiled::ALLOCATED_ELEMENTS]) =
    rows_to_tiled;
#[used]
static KEEP_OFFSET_OF: fn(&str, &[u64]) -> Option<u64> = offset_of;
#[used]
static KEEP_ACT_OFFSET: fn([usize; 4]) -> Option<usize> = act_offset;

/// No std, so no std panic handler: this one spins.
#[cfg(not(test))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {
        core::hint::spin_loop();
    }
}
