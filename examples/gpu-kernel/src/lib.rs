//! Two PTX kernels (`nvptx64-nvidia-cuda`) that copy a 64x256 `f32` matrix
//! between row-major order and 8x128 tiles, one element per thread, with
//! the offsets of the `layout!` item types. Nightly only (`abi_ptx` for the
//! kernel ABI, `stdarch_nvptx` for the thread and block registers). See
//! `README.md` for the build and what is checked.
#![no_std]
#![feature(abi_ptx, stdarch_nvptx)]
#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::nvptx;

mod layouts;
pub use layouts::{Rows, Tiled};

/// Elements in either layout (the tiles divide the dims: no padding).
const ELEMENTS: usize = Rows::ALLOCATED_ELEMENTS;
const _: () = assert!(Tiled::ALLOCATED_ELEMENTS == ELEMENTS);

/// This thread's logical index `[row, column]`, one thread per element in
/// row-major order over a one-dimensional grid; `None` for the threads of
/// the last block past the end.
fn logical_index() -> Option<[usize; 2]> {
    // SAFETY: reading the special registers `%tid.x`, `%ctaid.x` and
    // `%ntid.x` has no preconditions inside a kernel.
    let (thread, block, threads) = unsafe {
        (
            nvptx::_thread_idx_x(),
            nvptx::_block_idx_x(),
            nvptx::_block_dim_x(),
        )
    };
    let id = block as usize * threads as usize + thread as usize;
    if id < ELEMENTS {
        let [_, cols] = Rows::DIMS;
        Some([id / cols, id % cols])
    } else {
        None
    }
}

/// Row-major `src` to tiled `dst`: `dst[Tiled::offset(i)] = src[Rows::offset(i)]`.
///
/// # Safety
///
/// Launch with at least 16384 threads in x (for example 64 blocks of 256).
/// `src` must point to 16384 readable `f32`s and `dst` to 16384 writable
/// `f32`s in global memory, not overlapping.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn rows_to_tiled(src: *const f32, dst: *mut f32) {
    if let Some(i) = logical_index() {
        // SAFETY: both offsets are below ELEMENTS (the layouts' allocation)
        // and the caller passes buffers of ELEMENTS f32s that do not overlap.
        unsafe { *dst.add(Tiled::offset(i)) = *src.add(Rows::offset(i)) };
    }
}

/// Tiled `src` to row-major `dst`: the inverse of [`rows_to_tiled`].
///
/// # Safety
///
/// As for [`rows_to_tiled`].
#[no_mangle]
pub unsafe extern "ptx-kernel" fn tiled_to_rows(src: *const f32, dst: *mut f32) {
    if let Some(i) = logical_index() {
        // SAFETY: both offsets are below ELEMENTS (the layouts' allocation)
        // and the caller passes buffers of ELEMENTS f32s that do not overlap.
        unsafe { *dst.add(Rows::offset(i)) = *src.add(Tiled::offset(i)) };
    }
}

/// Nothing in the kernels can panic (no slice indexing; the division is by
/// a constant); a panic would stop the thread here.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
