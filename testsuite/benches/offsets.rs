//! Offset throughput of every way to compute an element offset, on five
//! layouts (the four of `[512, 1024]` and the seed 4-D activation layout):
//!
//! - `item`: the item form's specialised `L::offset` (straight-line
//!   arithmetic with constant divisors), the baseline;
//! - `hand`: the same arithmetic written by hand from the tiling rules;
//! - `expr`: the expression form, `const L: StaticLayout<R> = layout!(..)`
//!   then `L.offset(i)`: digit tables that fold into constants;
//! - `dyn`: the item form of the same layout with its first dimension
//!   written `?` and sized at run time (`new([n])`);
//! - `plan`: a prepared run-time `Plan` (`Plan::new` once, then
//!   `offset_unchecked`), what code that parses shapes at run time uses;
//! - `runtime`: `ArrayShape::offset`, which checks the index and plans the
//!   layout again on every call (keep a `Plan` instead).
//!
//! Every iteration sums the offsets of the same 4096 pseudo-random
//! in-bounds indices (precomputed, passed through `black_box`), so nothing
//! folds. Before measuring, every path is checked against `item` on those
//! indices.
//!
//! The `memory_order` group walks a `View` of the tiled layouts in memory
//! order (`View::iter_memory_order`, digit wheels, no division per
//! element) against the old way (`index_of` for every slot) and a plain
//! slice sum over the same elements.
//!
//! Run with `cargo bench -p xla-layout-testsuite --bench offsets`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xla_layout::{layout, Plan, StaticLayout, View};

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
    /// The seed activation layout.
    type Seed = bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)};

    type DynRowMajor = f32[?,1024]{1,0};
    type DynPermuted = f32[?,1024]{0,1};
    type DynTiled = f32[?,1024]{1,0:T(8,128)};
    type DynPacked = bf16[?,1024]{1,0:T(8,128)(2,1)};
    type DynSeed = bf16[?,1,1280,16384]{3,2,0,1:T(8,128)(2,1)};
}

const ROW_MAJOR: StaticLayout<2> = layout!(f32[512,1024]{1,0});
const PERMUTED: StaticLayout<2> = layout!(f32[512,1024]{0,1});
const TILED: StaticLayout<2> = layout!(f32[512,1024]{1,0:T(8,128)});
const PACKED: StaticLayout<2> = layout!(bf16[512,1024]{1,0:T(8,128)(2,1)});
const SEED: StaticLayout<4> = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)});

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

/// The seed `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`: dims in the
/// order 1, 0, 2, 3 (`[1, 8, 1280, 16384]`), tiled to
/// `[1, 8, 160, 128, 4, 128, 2, 1]`.
#[inline]
fn hand_seed([b, _, r, c]: [usize; 4]) -> usize {
    b * 20_971_520
        + (r / 8) * 131_072
        + (c / 128) * 1024
        + ((r % 8) / 2) * 256
        + (c % 128) * 2
        + r % 2
}

/// 4096 in-bounds indices of `dims` from a fixed xorshift64 sequence.
fn indices<const R: usize>(dims: [usize; R]) -> Vec<[usize; R]> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..N)
        .map(|_| {
            std::array::from_fn(|d| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 16) as usize % dims[d]
            })
        })
        .collect()
}

fn sum<const R: usize>(idx: &[[usize; R]], f: impl Fn([usize; R]) -> usize) -> usize {
    idx.iter().fold(0usize, |s, &i| s.wrapping_add(f(i)))
}

/// Measures every path of one layout, after checking them against `item`.
macro_rules! bench_layout {
    ($c:expr, $name:literal, $text:literal, $dims:expr, $item:ty, $hand:path, $expr:path, $dyn:ty) => {{
        let idx = indices($dims);
        let idx64: Vec<_> = idx.iter().map(|i| i.map(|x| x as u64)).collect();
        let shape = xla_layout::parse_array(black_box($text)).expect("valid layout");
        let plan = Plan::new(&shape).expect("plannable");
        let dynamic = <$dyn>::new([$dims[0]]).expect("sizes fit");
        for (i, w) in idx.iter().zip(&idx64) {
            let want = <$item>::offset(*i);
            assert_eq!($expr.offset(*i), want, "{}: expr at {i:?}", $text);
            assert_eq!(dynamic.offset(*i), want, "{}: dyn at {i:?}", $text);
            assert_eq!(plan.offset_unchecked(w) as usize, want, "{}: plan", $text);
            assert_eq!(shape.offset(w), Ok(want as u64), "{}: runtime", $text);
            assert_eq!($hand(*i), want, "{}: hand at {i:?}", $text);
        }
        let mut g = $c.benchmark_group($name);
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function("item", |b| b.iter(|| sum(black_box(&idx), <$item>::offset)));
        g.bench_function("hand", |b| b.iter(|| sum(black_box(&idx), $hand)));
        g.bench_function("expr", |b| {
            b.iter(|| sum(black_box(&idx), |i| $expr.offset(i)))
        });
        g.bench_function("dyn", |b| {
            let dynamic = black_box(&dynamic);
            b.iter(|| sum(black_box(&idx), |i| dynamic.offset(i)))
        });
        g.bench_function("plan", |b| {
            let plan = black_box(&plan);
            b.iter(|| {
                black_box(&idx64)
                    .iter()
                    .fold(0u64, |s, i| s.wrapping_add(plan.offset_unchecked(i)))
            })
        });
        g.bench_function("ranked", |b| {
            // Digit tables built at run time from the parsed shape.
            let ranked = black_box(StaticLayout::from_shape(&shape, $text).expect("digits"));
            b.iter(|| sum(black_box(&idx), |i| ranked.offset(i)))
        });
        g.bench_function("runtime", |b| {
            let shape = black_box(&shape);
            b.iter(|| {
                black_box(&idx64)
                    .iter()
                    .fold(0u64, |s, i| s.wrapping_add(shape.offset(i).unwrap_or(0)))
            })
        });
        g.finish();
    }};
}

fn offsets(c: &mut Criterion) {
    bench_layout!(
        c,
        "row_major",
        "f32[512,1024]{1,0}",
        [512, 1024],
        RowMajor,
        hand_row_major,
        ROW_MAJOR,
        DynRowMajor
    );
    bench_layout!(
        c,
        "permuted",
        "f32[512,1024]{0,1}",
        [512, 1024],
        Permuted,
        hand_permuted,
        PERMUTED,
        DynPermuted
    );
    bench_layout!(
        c,
        "tiled",
        "f32[512,1024]{1,0:T(8,128)}",
        [512, 1024],
        Tiled,
        hand_tiled,
        TILED,
        DynTiled
    );
    bench_layout!(
        c,
        "packed",
        "bf16[512,1024]{1,0:T(8,128)(2,1)}",
        [512, 1024],
        Packed,
        hand_packed,
        PACKED,
        DynPacked
    );
    bench_layout!(
        c,
        "seed",
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}",
        [8, 1, 1280, 16384],
        Seed,
        hand_seed,
        SEED,
        DynSeed
    );
}

/// Memory-order walks of a `View` over the tiled `[512, 1024]` layouts.
fn memory_order(c: &mut Criterion) {
    for (name, layout) in [("tiled", TILED), ("row_major", ROW_MAJOR)] {
        let data: Vec<f32> = (0..layout.allocated_elements()).map(|x| x as f32).collect();
        let view = View::new(layout, &data).expect("view");
        let elements = 512 * 1024;
        let mut g = c.benchmark_group(format!("memory_order_{name}"));
        g.throughput(Throughput::Elements(elements as u64));
        g.sample_size(20);
        g.bench_function("wheels", |b| {
            b.iter(|| {
                black_box(&view)
                    .iter_memory_order()
                    .fold(0.0f32, |s, (_, &v)| s + v)
            })
        });
        g.bench_function("index_of", |b| {
            let l = black_box(&layout);
            b.iter(|| {
                (0..l.allocated_elements())
                    .filter_map(|o| l.index_of(o).map(|_| data[o]))
                    .fold(0.0f32, |s, v| s + v)
            })
        });
        g.bench_function("slice", |b| {
            b.iter(|| black_box(&data).iter().fold(0.0f32, |s, &v| s + v))
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = offsets, memory_order
}
criterion_main!(benches);
