//! Unit tests of the test-only reference model (testsuite/tests/support/reference.rs)
//! against the worked numbers of XLA's documented examples (docs/tiling.md).

#[path = "support/reference.rs"]
mod reference;

use reference::{reference_layout, reference_padded, RefLayout, TileEntry};

/// Tile from sizes; 0 stands for the combine marker `*`.
fn t(entries: &[usize]) -> Vec<TileEntry> {
    entries
        .iter()
        .map(|&e| if e == 0 { None } else { Some(e) })
        .collect()
}

/// Row-major (last dim fastest) linear id of a logical index.
fn id(dims: &[usize], index: &[usize]) -> usize {
    assert_eq!(dims.len(), index.len());
    index.iter().zip(dims).fold(0, |acc, (&i, &d)| {
        assert!(i < d);
        acc * d + i
    })
}

fn offset(layout: &RefLayout, dims: &[usize], index: &[usize]) -> usize {
    layout.offsets[id(dims, index)]
}

/// Logical index of a row-major id.
fn unravel(dims: &[usize], mut id: usize) -> Vec<usize> {
    let mut index = vec![0; dims.len()];
    for (slot, &d) in index.iter_mut().zip(dims).rev() {
        *slot = id % d;
        id /= d;
    }
    index
}

fn assert_injective_within(layout: &RefLayout) {
    let mut seen = vec![false; layout.allocated];
    for &o in &layout.offsets {
        assert!(o < layout.allocated, "offset {o} >= {}", layout.allocated);
        assert!(!seen[o], "offset {o} used twice");
        seen[o] = true;
    }
}

#[test]
fn figure1_f32_3x5_t2x2() {
    let dims = [3, 5];
    let l = reference_layout(&dims, &[1, 0], &[t(&[2, 2])], 1);
    #[rustfmt::skip]
    let expected = vec![
        0, 1, 4, 5, 8,
        2, 3, 6, 7, 10,
        12, 13, 16, 17, 20,
    ];
    assert_eq!(l.offsets, expected);
    assert_eq!(offset(&l, &dims, &[2, 3]), 17);
    assert_eq!(l.allocated, 24);
}

#[test]
fn figure1_with_tail_padding() {
    let l = reference_layout(&[3, 5], &[1, 0], &[t(&[2, 2])], 10);
    assert_eq!(l.allocated, 30);
    assert_eq!(
        l.offsets,
        reference_layout(&[3, 5], &[1, 0], &[t(&[2, 2])], 1).offsets
    );
}

#[test]
fn tail_padding_untiled() {
    let l = reference_layout(&[3, 5], &[1, 0], &[], 4);
    assert_eq!(l.allocated, 16);
    assert_eq!(l.offsets, (0..15).collect::<Vec<_>>());
    let l = reference_layout(&[3, 5], &[1, 0], &[], 5);
    assert_eq!(l.allocated, 15);
}

#[test]
fn figure2_4x8_t2x4_t2x1() {
    let dims = [4, 8];
    let l = reference_layout(&dims, &[1, 0], &[t(&[2, 4]), t(&[2, 1])], 1);
    #[rustfmt::skip]
    let expected = vec![
        0, 2, 4, 6, 8, 10, 12, 14,
        1, 3, 5, 7, 9, 11, 13, 15,
        16, 18, 20, 22, 24, 26, 28, 30,
        17, 19, 21, 23, 25, 27, 29, 31,
    ];
    assert_eq!(l.offsets, expected);
    assert_eq!(l.allocated, 32);
    // The doc's closed form for this figure.
    for r in 0..4 {
        for c in 0..8 {
            let lin = ((r / 2) * 2 + c / 4) * 8 + (c % 4) * 2 + r % 2;
            assert_eq!(offset(&l, &dims, &[r, c]), lin);
        }
    }
    // LayoutUtil::LinearIndex (first tile only) would give 5 here.
    assert_eq!(offset(&l, &dims, &[1, 1]), 3);
}

#[test]
fn figure4_8x8_t2x4_t2x1x1x1() {
    let dims = [8, 8];
    let l = reference_layout(&dims, &[1, 0], &[t(&[2, 4]), t(&[2, 1, 1, 1])], 1);
    assert_eq!(offset(&l, &dims, &[6, 5]), 51);
    assert_eq!(l.allocated, 64);
    // Final shape (2,2,2,4,2,1,1,1): after (2,4) the index is
    // (r/2, c/4, r%2, c%4); the second tile splits r/2 into (r/4, (r/2)%2).
    for r in 0..8 {
        for c in 0..8 {
            let lin = (((r / 4) * 2 + c / 4) * 2 + r % 2) * 4 * 2 + (c % 4) * 2 + (r / 2) % 2;
            assert_eq!(offset(&l, &dims, &[r, c]), lin, "({r},{c})");
        }
    }
}

#[test]
fn bf16_32x256_t8x128_t2x1x1x1() {
    let dims = [32, 256];
    let l = reference_layout(&dims, &[1, 0], &[t(&[8, 128]), t(&[2, 1, 1, 1])], 1);
    assert_eq!(l.allocated, 8192);
    // Final shape (2,2,8,128,2,1,1,1).
    for r in 0..32 {
        for c in 0..256 {
            let lin = (((r / 16 * 2 + c / 128) * 8 + r % 8) * 128 + c % 128) * 2 + (r / 8) % 2;
            assert_eq!(offset(&l, &dims, &[r, c]), lin, "({r},{c})");
        }
    }
}

#[test]
fn combine_example() {
    let dims = [2, 7, 8, 11, 10];
    let l = reference_layout(&dims, &[4, 3, 2, 1, 0], &[t(&[0, 0, 2, 0, 3])], 1);
    assert_eq!(l.allocated, 12432);
    assert_eq!(offset(&l, &dims, &[0, 0, 1, 0, 0]), 3);
    assert_eq!(offset(&l, &dims, &[1, 6, 7, 10, 9]), 12430);
    // Same as F32[112,110] tiled by (2,3): merging adjacent dims keeps the
    // row-major ids.
    let merged = reference_layout(&[112, 110], &[1, 0], &[t(&[2, 3])], 1);
    assert_eq!(l, merged);
}

#[test]
fn combine_with_prefix_and_second_level() {
    // f32[3,2,3,5]{3,2,1,0:T(*,2,2)(2,1)}: dim 0 untouched, dims 1,2 merged
    // into 6, then (2,2) and a (2,1) sub-tile.
    let dims = [3, 2, 3, 5];
    let l = reference_layout(&dims, &[3, 2, 1, 0], &[t(&[0, 2, 2]), t(&[2, 1])], 1);
    let merged = reference_layout(&[3, 6, 5], &[2, 1, 0], &[t(&[2, 2]), t(&[2, 1])], 1);
    assert_eq!(l, merged);
    assert_injective_within(&l);
}

#[test]
fn one_d_triple_tile() {
    let l = reference_layout(&[4096], &[0], &[t(&[1024]), t(&[128]), t(&[2, 1])], 1);
    assert_eq!(l.allocated, 4096);
    for (e, o) in [
        (0, 0),
        (1, 2),
        (127, 254),
        (128, 1),
        (129, 3),
        (255, 255),
        (256, 256),
        (1023, 1023),
        (1024, 1024),
    ] {
        assert_eq!(l.offsets[e], o, "element {e}");
    }
}

#[test]
fn index_util_vectors_untiled() {
    let l = reference_layout(&[100], &[0], &[], 1);
    assert_eq!(l.offsets[42], 42);
    assert_eq!(l.allocated, 100);

    let d = [10, 20];
    let l = reference_layout(&d, &[0, 1], &[], 1);
    assert_eq!(offset(&l, &d, &[0, 0]), 0);
    assert_eq!(offset(&l, &d, &[9, 19]), 199);
    assert_eq!(offset(&l, &d, &[3, 5]), 53);
    let l = reference_layout(&d, &[1, 0], &[], 1);
    assert_eq!(offset(&l, &d, &[0, 0]), 0);
    assert_eq!(offset(&l, &d, &[9, 19]), 199);
    assert_eq!(offset(&l, &d, &[3, 5]), 65);

    let d = [10, 20, 30];
    let l = reference_layout(&d, &[2, 1, 0], &[], 1);
    assert_eq!(offset(&l, &d, &[3, 5, 7]), 1957);
    assert_eq!(offset(&l, &d, &[8, 15, 27]), 5277);
    let l = reference_layout(&d, &[1, 2, 0], &[], 1);
    assert_eq!(offset(&l, &d, &[3, 5, 7]), 1945);
    assert_eq!(offset(&l, &d, &[8, 15, 27]), 5355);

    let d = [10, 20, 30, 40];
    let l = reference_layout(&d, &[3, 2, 1, 0], &[], 1);
    assert_eq!(offset(&l, &d, &[3, 5, 7, 9]), 78289);
    assert_eq!(offset(&l, &d, &[8, 15, 27, 33]), 211113);
}

/// IndexUtil::MultidimensionalIndexToLinearIndex (docs/tiling.md).
fn index_util_linear(dims: &[usize], m2m: &[usize], index: &[usize]) -> usize {
    m2m.iter()
        .rev()
        .fold(0, |acc, &dim| acc * dims[dim] + index[dim])
}

#[test]
fn untiled_matches_index_util_for_rank7() {
    // Small analogue of f32[10,20,30,40,30,20,10] (too big to materialise).
    let dims = [2, 3, 4, 5, 3, 2, 2];
    for m2m in [
        vec![6, 5, 4, 3, 2, 1, 0],
        vec![0, 1, 2, 3, 4, 5, 6],
        vec![4, 5, 1, 2, 6, 0, 3],
    ] {
        let l = reference_layout(&dims, &m2m, &[], 1);
        assert_eq!(l.allocated, 2 * 3 * 4 * 5 * 3 * 2 * 2);
        for (i, &o) in l.offsets.iter().enumerate() {
            assert_eq!(o, index_util_linear(&dims, &m2m, &unravel(&dims, i)));
        }
    }
}

/// LayoutUtil::LinearIndex (docs/tiling.md): one tile, k <= rank.
fn single_tile_linear(dims: &[usize], m2m: &[usize], tile: &[usize], index: &[usize]) -> usize {
    let k = tile.len();
    let mut tile_mult: usize = tile.iter().product();
    let mut within_mult = 1;
    let mut lin = 0;
    for (minor, &dim) in m2m.iter().enumerate() {
        let (d, i) = (dims[dim], index[dim]);
        if minor < k {
            let ts = tile[k - 1 - minor];
            lin += tile_mult * (i / ts) + within_mult * (i % ts);
            tile_mult *= d.div_ceil(ts);
            within_mult *= ts;
        } else {
            lin += i * tile_mult;
            tile_mult *= d;
        }
    }
    lin
}

#[test]
fn single_tile_matches_layout_util_linear_index() {
    let cases: &[(&[usize], &[usize], &[usize])] = &[
        (&[3, 5], &[1, 0], &[2, 2]),
        (&[3, 5], &[0, 1], &[2, 2]),
        (&[7, 9, 5], &[2, 1, 0], &[4, 3]),
        (&[7, 9, 5], &[0, 2, 1], &[4, 3]),
        (&[7, 9, 5], &[1, 0, 2], &[2, 3, 4]),
        (&[5, 6, 7, 3], &[3, 0, 2, 1], &[3]),
        (&[5, 6, 7, 3], &[2, 3, 1, 0], &[8, 128]),
    ];
    for &(dims, m2m, tile) in cases {
        let l = reference_layout(dims, m2m, &[t(tile)], 1);
        assert_injective_within(&l);
        for (i, &o) in l.offsets.iter().enumerate() {
            let index = unravel(dims, i);
            assert_eq!(
                o,
                single_tile_linear(dims, m2m, tile, &index),
                "{dims:?} {m2m:?} T{tile:?} at {index:?}"
            );
        }
    }
}

#[test]
fn scalars() {
    let l = reference_layout(&[], &[], &[t(&[128])], 1);
    assert_eq!(l.offsets, vec![0]);
    assert_eq!(l.allocated, 128);
    let l = reference_layout(&[], &[], &[t(&[256])], 1);
    assert_eq!(l.allocated, 256);
    let l = reference_layout(&[], &[], &[], 1);
    assert_eq!(
        l,
        RefLayout {
            offsets: vec![0],
            allocated: 1
        }
    );
}

#[test]
fn tile_longer_than_rank() {
    // f32[5]{0:T(2,4)}: treated as f32[1,5] -> padded (2,8).
    let l = reference_layout(&[5], &[0], &[t(&[2, 4])], 1);
    assert_eq!(l.allocated, 16);
    assert_eq!(l.offsets, vec![0, 1, 2, 3, 8]);
}

#[test]
fn zero_sized_dims() {
    let l = reference_layout(&[0, 5], &[1, 0], &[t(&[2, 2])], 1);
    assert_eq!(l.offsets, Vec::<usize>::new());
    assert_eq!(l.allocated, 0);
    let l = reference_layout(&[3, 0], &[1, 0], &[], 4);
    assert_eq!(l.allocated, 0);
}

#[test]
fn legacy_padding_example() {
    // 2x3 `a b c / d e f`, padded to 3x5, column-major.
    let l = reference_padded(&[2, 3], &[3, 5], &[0, 1]);
    assert_eq!(l.allocated, 15);
    assert_eq!(l.offsets, vec![0, 3, 6, 1, 4, 7]);
    let mut memory = vec!['0'; l.allocated];
    for (&o, name) in l.offsets.iter().zip("abcdef".chars()) {
        memory[o] = name;
    }
    let memory: Vec<String> = memory.iter().map(char::to_string).collect();
    assert_eq!(memory.join(" "), "a d 0 b e 0 c f 0 0 0 0 0 0 0");
}

#[test]
fn legacy_padding_row_major() {
    let l = reference_padded(&[10, 20], &[15, 21], &[1, 0]);
    assert_eq!(l.allocated, 15 * 21);
    assert_eq!(l.offsets[id(&[10, 20], &[3, 5])], 3 * 21 + 5);
    // No padding: same as the plain layout.
    let l = reference_padded(&[2, 3, 4], &[2, 3, 4], &[0, 2, 1]);
    assert_eq!(l, reference_layout(&[2, 3, 4], &[0, 2, 1], &[], 1));
}

/// Doc formula of the seed example, generalised to dims `[a0, 1, c0, d0]`
/// with `c0 % 8 == 0` and `d0 % 128 == 0`.
fn seed_formula(dims: &[usize; 4], [a, b, c, d]: [usize; 4]) -> usize {
    let (a0, c0, d0) = (dims[0], dims[2], dims[3]);
    (((((b * a0 + a) * (c0 / 8) + c / 8) * (d0 / 128) + d / 128) * 4 + (c % 8) / 2) * 128 + d % 128)
        * 2
        + c % 2
}

#[test]
fn seed_example_small_analogue() {
    // bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)} is too big; use
    // bf16[8,1,40,1024] with the same layout (327 680 cells).
    let dims = [8, 1, 40, 1024];
    let l = reference_layout(&dims, &[3, 2, 0, 1], &[t(&[8, 128]), t(&[2, 1])], 1);
    assert_eq!(l.allocated, 8 * 40 * 1024);
    for (i, &o) in l.offsets.iter().enumerate() {
        let x = unravel(&dims, i);
        assert_eq!(o, seed_formula(&dims, [x[0], x[1], x[2], x[3]]));
    }
    // The doc's formula at the full size gives 63 048 281 for (3,0,13,300).
    assert_eq!(
        seed_formula(&[8, 1, 1280, 16384], [3, 0, 13, 300]),
        63_048_281
    );
}

#[test]
fn million_cells_is_fine() {
    let dims = [1000, 1000];
    let l = reference_layout(&dims, &[1, 0], &[t(&[8, 128]), t(&[2, 1])], 1);
    assert_eq!(l.allocated, 1000 * 1024);
    assert_injective_within(&l);
}
