//! Unit tests of the squares' planning: the sides of a square and the
//! blocks that ask for their successor's rows.

extern crate alloc;

use super::*;
use alloc::format;

/// Squares are whole blocks, at most `SQUARE_BYTES` and `SQUARE_ROWS`
/// a side, and a narrow block's other side takes the rows it leaves.
#[test]
fn squares_keep_their_bounds() {
    for size in [1usize, 2, 4, 8, 16] {
        let line = 64 / size.min(64);
        let full = (SQUARE_BYTES / size).max(line);
        for (p, q) in [(line, line), (32, 32), (16, 4), (2, 32), (8, 8)] {
            for pn in [p, 3 * p, 64 * p, 1000 * p] {
                for qn in [q, 7 * q, 100 * q, 999 * q] {
                    let (pm, qm) = square(pn, qn, p, q, size, SQUARE_ROWS);
                    let at = format!("size {size}, {p} x {q} in {pn} x {qn}");
                    assert!(pm % p == 0 && qm % q == 0 && pm > 0 && qm > 0, "{at}");
                    let bound = full.max(p).max(q);
                    assert!(pm <= bound && qm <= bound, "{at}: {pm} x {qm}");
                    let rows = SQUARE_ROWS.max(p).max(q);
                    assert!(pm + qm <= 2 * rows, "{at}: {pm} x {qm}");
                    if pn >= rows && qn >= rows {
                        assert!(pm <= rows && qm <= rows, "{at}: {pm} x {qm}");
                    }
                    if pn < pm.min(qm) {
                        assert_eq!(pm, pn, "{at}");
                    }
                }
            }
        }
    }
    // 64 rows of `s8`: the other side takes 960 of the 1024 rows.
    assert_eq!(square(64, 832, 64, 64, 1, SQUARE_ROWS), (64, 960));
    assert_eq!(square(4000, 4000, 64, 64, 1, SQUARE_ROWS), (512, 512));
    // Crowded blocks: 256 rows a side.
    assert_eq!(square(4096, 4096, 64, 64, 1, CROWDED_ROWS), (256, 256));
    assert_eq!(square(4000, 4000, 16, 16, 4, SQUARE_ROWS), (256, 256));
}

fn nest(loops: &[(u64, u64, u64)]) -> Nest {
    Nest::of(loops, 0, 0)
}

/// The next block's source rows are asked for where a small block's
/// rows leave gaps in the source, and only there.
#[test]
fn small_blocks_with_gaps_fetch_the_next() {
    let fetch = |loops: &[(u64, u64, u64)], size: usize| {
        Tuned::plan(&nest(loops), size, true).map(|t| (t.kind, t.fetch))
    };
    // `u32[1,8,982,678]{1,0,3,2:T(4,128)}` -> `{3,2,0,1:T(4,128)}`:
    // 8 of each 512-element tile read, 128 x 8 blocks.
    let padded = [
        (128, 512, 1),
        (4, 347136, 128),
        (5, 65536, 512),
        (245, 1388544, 3072),
        (8, 1, 755712),
    ];
    assert_eq!(fetch(&padded, 4), Some((RelayoutKernel::Squares, true)));
    // `f32[1000,64,16]{2,1,0}` -> `{1,2,0}`: each block's rows are
    // back to back in the source.
    let dense = [(64, 16, 1), (16, 1, 64), (1000, 1024, 1024)];
    assert_eq!(fetch(&dense, 4), Some((RelayoutKernel::Squares, false)));
    // A 2-D transpose: blocks far larger than `FETCH_BYTES`.
    let large = [(4000, 4000, 1), (4000, 1, 4000)];
    assert_eq!(fetch(&large, 4), Some((RelayoutKernel::Squares, false)));
}
