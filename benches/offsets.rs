//! Offset throughput of the four ways to compute an element offset, on four
//! layouts of `[512, 1024]`:
//!
//! - `item`: the item form's specialised `L::offset` (straight-line
//!   arithmetic with constant divisors),
//! - `hand`: the same arithmetic written by hand from the tiling rules,
//! - `expr`: the expression form's table-driven `StaticLayout::offset`,
//! - `runtime`: `parse_array(..)`'s `ArrayShape::offset(&[u64])`, which
//!   checks the index and plans the layout on every call.
//!
//! Every iteration sums the offsets of the same 4096 pseudo-random in-bounds
//! indices (precomputed, passed through `black_box`), so nothing folds.
//! Before measuring, `hand`, `expr` and `runtime` are checked against `item`
//! on all 512 x 1024 indices, so the comparison is between equal functions.
//!
//! Run with `cargo bench --bench offsets`. For `row_major` and `permuted`,
//! `item` and `hand` turn into the same LLVM IR and LLVM merges them into
//! one function, so any gap between those two shows the measurement noise
//! on the machine running the bench.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xla_layout::{layout, StaticLayout};

const ROWS: usize = 512;
const COLS: usize = 1024;
const N: usize = 4096;

layout! {
    /// Row-major.
    type RowMajor = f32[512,1024]{1,0};
    /// Column-major.
    type Permuted = f32[512,1024]{0,1};
    /// 8x128 tiles.
    type Tiled = f32[512,1024]{1,0:T(8,128)};
    /// 8x128 tiles, then pairs of rows interleaved (bf16 packing).
    type Packed = bf16[512,1024]{1,0:T(8,128)(2,1)};
}

const ROW_MAJOR: StaticLayout<2> = layout!(f32[512,1024]{1,0});
const PERMUTED: StaticLayout<2> = layout!(f32[512,1024]{0,1});
const TILED: StaticLayout<2> = layout!(f32[512,1024]{1,0:T(8,128)});
const PACKED: StaticLayout<2> = layout!(bf16[512,1024]{1,0:T(8,128)(2,1)});

/// `{1,0}`: physical shape `[512, 1024]`.
#[inline]
fn hand_row_major([i, j]: [usize; 2]) -> usize {
    i * 1024 + j
}

/// `{0,1}`: physical shape `[1024, 512]`.
#[inline]
fn hand_permuted([i, j]: [usize; 2]) -> usize {
    j * 512 + i
}

/// `T(8,128)`: `[512, 1024]` -> `[64, 8, 8, 128]` (tile row, tile column,
/// row in tile, column in tile); a tile is 8 x 128 = 1024 elements.
#[inline]
fn hand_tiled([i, j]: [usize; 2]) -> usize {
    (i / 8) * 8192 + (j / 128) * 1024 + (i % 8) * 128 + j % 128
}

/// `T(8,128)(2,1)`: the second level tiles the minor `[8, 128]` of
/// `[64, 8, 8, 128]` by `(2, 1)`, giving `[64, 8, 4, 128, 2, 1]`: within an
/// 8 x 128 tile, rows `2k` and `2k + 1` are interleaved element by element.
#[inline]
fn hand_packed([i, j]: [usize; 2]) -> usize {
    (i / 8) * 8192 + (j / 128) * 1024 + ((i % 8) / 2) * 256 + (j % 128) * 2 + i % 2
}

/// 4096 in-bounds indices from a fixed xorshift64 sequence.
fn indices() -> Vec<[usize; 2]> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..N)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            [(x >> 32) as usize % ROWS, (x & 0xFFFF_FFFF) as usize % COLS]
        })
        .collect()
}

fn sum(idx: &[[usize; 2]], f: impl Fn([usize; 2]) -> usize) -> usize {
    idx.iter().fold(0usize, |s, &i| s.wrapping_add(f(i)))
}

/// One layout: four functions that must agree, and their text.
struct Case {
    text: &'static str,
    item: fn([usize; 2]) -> usize,
    hand: fn([usize; 2]) -> usize,
    expr: StaticLayout<2>,
}

/// Every index of the layout: `hand`, `expr` and `runtime` equal `item`.
fn check(c: &Case) {
    let shape = xla_layout::parse_array(c.text).expect("valid layout");
    for i in 0..ROWS {
        for j in 0..COLS {
            let want = (c.item)([i, j]);
            assert_eq!((c.hand)([i, j]), want, "{}: hand at [{i}, {j}]", c.text);
            assert_eq!(
                c.expr.offset([i, j]),
                want,
                "{}: expr at [{i}, {j}]",
                c.text
            );
            assert_eq!(
                shape.offset(&[i as u64, j as u64]),
                Ok(want as u64),
                "{}: runtime at [{i}, {j}]",
                c.text
            );
        }
    }
}

/// Measures the four variants of one layout. `item` and `hand` are passed
/// to `sum` as function items (zero-sized, each its own instantiation), so
/// both are inlined into their loops alike.
macro_rules! bench_layout {
    ($c:expr, $idx:expr, $idx64:expr, $name:literal, $text:literal, $item:ty, $hand:path, $expr:path) => {{
        let case = Case {
            text: $text,
            item: <$item>::offset,
            hand: $hand,
            expr: $expr,
        };
        check(&case);
        let idx: &[[usize; 2]] = $idx;
        let idx64: &[[u64; 2]] = $idx64;
        let shape = xla_layout::parse_array(black_box($text)).expect("valid layout");
        let mut g = $c.benchmark_group($name);
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function("item", |b| b.iter(|| sum(black_box(idx), <$item>::offset)));
        g.bench_function("hand", |b| b.iter(|| sum(black_box(idx), $hand)));
        g.bench_function("expr", |b| {
            b.iter(|| sum(black_box(idx), |i| $expr.offset(i)))
        });
        g.bench_function("runtime", |b| {
            b.iter(|| {
                let shape = black_box(&shape);
                black_box(idx64)
                    .iter()
                    .fold(0u64, |s, i| s.wrapping_add(shape.offset(i).unwrap_or(0)))
            })
        });
        g.finish();
    }};
}

fn offsets(c: &mut Criterion) {
    let idx = indices();
    let idx64: Vec<[u64; 2]> = idx.iter().map(|&[i, j]| [i as u64, j as u64]).collect();
    bench_layout!(
        c,
        &idx,
        &idx64,
        "row_major",
        "f32[512,1024]{1,0}",
        RowMajor,
        hand_row_major,
        ROW_MAJOR
    );
    bench_layout!(
        c,
        &idx,
        &idx64,
        "permuted",
        "f32[512,1024]{0,1}",
        Permuted,
        hand_permuted,
        PERMUTED
    );
    bench_layout!(
        c,
        &idx,
        &idx64,
        "tiled",
        "f32[512,1024]{1,0:T(8,128)}",
        Tiled,
        hand_tiled,
        TILED
    );
    bench_layout!(
        c,
        &idx,
        &idx64,
        "packed",
        "bf16[512,1024]{1,0:T(8,128)(2,1)}",
        Packed,
        hand_packed,
        PACKED
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = offsets
}
criterion_main!(benches);
