//! Firmware for a Cortex-M3 (`thumbv7m-none-eabi`, QEMU's `lm3s6965evb`
//! board) that uses `xla_layout` with no standard library and no allocator:
//! the item form of `layout!` (a specialised `offset` function), the
//! expression form (a `StaticLayout` constant), a `?` layout sized at run
//! time, a typed `View` over a static array, and a relayout of that array
//! into row-major order on the stack and back. It first prints the RAM
//! it was linked for (`build.rs`). Every result is printed
//! over semihosting and checked; the exit status (semihosting
//! `SYS_EXIT`) is 0 only when every check passed. See `README.md`.
#![no_std]
#![no_main]
#![forbid(unsafe_code)]

use core::sync::atomic::{AtomicBool, Ordering};

use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hprintln};
use xla_layout::{layout, relayout, StaticLayout, View, ViewMut};

layout! {
    /// The README's seed: activations in 8x128 tiles of pairs of rows, in
    /// memory space 1.
    type Seed = bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)};
    /// Rows of 128 in 8x128 tiles, with the number of rows chosen at run
    /// time.
    type D = f32[?,128]{1,0:T(8,128)};
    /// The same 3x5 tiling as `L`, as an item type for a typed view.
    type Tiles = f32[3,5]{1,0:T(2,2)};
    /// The same array, row-major: where the relayout puts it.
    type Rows = f32[3,5]{1,0};
}

/// Expression form: a 3x5 matrix in 2x2 tiles (24 elements with padding).
const L: StaticLayout<2> = layout!(f32[3, 5]{1,0:T(2,2)});

/// Element `k` of the allocation holds `k`, so a view read returns the
/// physical offset of the logical index.
static DATA: [f32; Tiles::ALLOCATED_ELEMENTS] = {
    let mut a = [0.0f32; Tiles::ALLOCATED_ELEMENTS];
    let mut k = 0;
    while k < a.len() {
        a[k] = k as f32;
        k += 1;
    }
    a
};

/// Set when a check fails; decides the exit status.
static FAILED: AtomicBool = AtomicBool::new(false);

/// `Seed::offset` kept out of line, so its code can be measured in the ELF
/// (`README.md` has the numbers).
#[inline(never)]
fn seed_offset(index: [usize; 4]) -> usize {
    Seed::offset(index)
}

/// Prints `what value` and records a failure when `value != expected`.
fn check(what: &str, value: usize, expected: usize) {
    if value == expected {
        hprintln!("{} {}", what, value);
    } else {
        hprintln!("FAIL {}: {} (expected {})", what, value, expected);
        FAILED.store(true, Ordering::Relaxed);
    }
}

#[entry]
fn main() -> ! {
    // The RAM this image was linked for (`build.rs`; 64 KiB unless cut).
    hprintln!("ram {} KiB", env!("LAYOUT_RAM_KIB"));
    // The index goes through `black_box` so the offset is computed here, on
    // the Cortex-M3, not folded by the compiler.
    let seed = seed_offset(core::hint::black_box([3, 0, 13, 300]));
    check("seed offset", seed, 63_048_281);
    check("seed bytes", Seed::SIZE_IN_BYTES, 335_544_320);

    check(
        "L offset [2,3]",
        L.offset(core::hint::black_box([2, 3])),
        17,
    );
    check("L elements", L.allocated_elements(), 24);

    match D::new([core::hint::black_box(20)]) {
        Ok(d) => {
            check("D elements", d.allocated_elements(), 24 * 128);
            check("D offset [19,127]", d.offset([19, 127]), 19 * 128 + 127);
        }
        Err(_) => {
            hprintln!("FAIL D::new([20])");
            FAILED.store(true, Ordering::Relaxed);
        }
    }

    match View::new(Tiles, &DATA[..]) {
        Ok(v) => {
            check("view [2,3]", v[[2, 3]] as usize, 17);
            check("view [1,4]", v[[1, 4]] as usize, L.offset([1, 4]));
            check("view [3,0] absent", v.get([3, 0]).is_none() as usize, 1);
        }
        Err(_) => {
            hprintln!("FAIL View::new");
            FAILED.store(true, Ordering::Relaxed);
        }
    }

    // Every element of the tiled array, moved to row-major order: element
    // (i, j) lands at i * 5 + j and holds its tiled offset.
    let mut rows = [0.0f32; Rows::ALLOCATED_ELEMENTS];
    let moved = match (
        View::new(Tiles, &DATA[..]),
        ViewMut::new(Rows, &mut rows[..]),
    ) {
        (Ok(from), Ok(mut to)) => relayout(&from, &mut to).is_ok(),
        _ => false,
    };
    check("relayout ok", moved as usize, 1);
    check("relayout [2,3]", rows[2 * 5 + 3] as usize, 17);
    let mut all = 0;
    for i in 0..3 {
        for j in 0..5 {
            all += (rows[i * 5 + j] as usize == L.offset([i, j])) as usize;
        }
    }
    check("relayout elements", all, 15);

    // And back into tiles, over a buffer of 9s: the 15 elements return to
    // their offsets and the 9 padding slots are written as zeros.
    let mut back = [9.0f32; Tiles::ALLOCATED_ELEMENTS];
    let returned = match (
        View::new(Rows, &rows[..]),
        ViewMut::new(Tiles, &mut back[..]),
    ) {
        (Ok(from), Ok(mut to)) => relayout(&from, &mut to).is_ok(),
        _ => false,
    };
    check("relayout back ok", returned as usize, 1);
    let (mut same, mut zeros) = (0, 0);
    for (o, &x) in back.iter().enumerate() {
        same += (x == DATA[o] && L.index_of(o).is_some()) as usize;
        zeros += (x == 0.0 && L.index_of(o).is_none()) as usize;
    }
    check("relayout back elements", same, 15);
    check("relayout back padding", zeros, 9);

    if FAILED.load(Ordering::Relaxed) {
        hprintln!("some checks failed");
        debug::exit(debug::EXIT_FAILURE);
    } else {
        hprintln!("all checks passed");
        debug::exit(debug::EXIT_SUCCESS);
    }
    // `SYS_EXIT` does not return under QEMU; on a board without a debugger
    // attached, stay here.
    loop {
        cortex_m::asm::wfi();
    }
}

/// A failed assertion or index out of range: report it and exit non-zero.
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    hprintln!("panic: {}", info);
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::wfi();
    }
}
