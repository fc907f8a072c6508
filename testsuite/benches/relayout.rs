//! Relayout speed: each pair of the README's table copies one array from
//! one layout to another through a prepared `RelayoutPlan`, next to
//! `copy_from_slice` over the same number of bytes (`memcpy`) in the same
//! group, so the ratio of their medians is the fraction of memory speed.
//! Transposes also run ndarray's `assign(&a.t())` on the same array.
//! With the `rayon` feature, `par_run_bytes` (`threads`) is compared with
//! `copy_from_slice` on the same threads (`memcpy_threads`, one slice per
//! thread): one core's copy does not reach the memory's full speed (on the
//! project's 2-core machine two copies together run about 1.5x faster), so
//! one-thread memcpy would flatter the threaded copy.
//!
//! `memcpy_cold` and `relayout_cold` time the same copies from a cold
//! cache: before each one, a 64 MiB buffer (twice the L3 of the machine
//! these benches were written on) is read, so both buffers come from
//! memory there. On a machine whose L3 holds more (the project's machine
//! of 2026-11-27 has 300 MiB), the cold columns are not cold. Repeated
//! warm copies of the 16 MiB arrays (the seed layout, the `s4` pairs)
//! keep much of both buffers in the L3, where `memcpy` runs about twice
//! as fast as from memory and the relayout's own instructions set its
//! speed.
//!
//! With the `simd` feature the groups are named `relayout_simd_<pair>`
//! instead of `relayout_<pair>`, so that a run with it and one without
//! keep their results apart.
//!
//! Run: `cargo bench -p xla-layout-testsuite --bench relayout --features rayon,simd` (without
//! `rayon`, no `threads` rows), then `python3 tools/bench_table.py
//! relayout` prints the README's table, `python3 tools/bench_table.py
//! relayout between` the table of transposes into and between tilings;
//! without `simd`, `python3 tools/bench_table.py relayout safe`.
//! `RELAYOUT_PAIRS=name,name` runs only the pairs named.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use xla_layout::{parse_array, RelayoutPlan};

/// The pairs of the issue, `int4` as NumPy holds it (a byte per value)
/// into the TPU's packed tiles, and a 2-byte transpose, with the element size
/// for ndarray's transpose (0: no ndarray run; `u16` stands in for bf16).
const PAIRS: &[(&str, &str, &str, usize)] = &[
    (
        "f32_rows_to_cols",
        "f32[4096,4096]{1,0}",
        "f32[4096,4096]{0,1}",
        4,
    ),
    (
        "f32_rows_to_tiled",
        "f32[4096,4096]{1,0}",
        "f32[4096,4096]{1,0:T(8,128)}",
        0,
    ),
    (
        "f32_tiled_to_cols",
        "f32[4096,4096]{1,0:T(8,128)}",
        "f32[4096,4096]{0,1}",
        0,
    ),
    (
        "bf16_rows_to_tiled",
        "bf16[4096,4096]{1,0}",
        "bf16[4096,4096]{1,0:T(8,128)(2,1)}",
        0,
    ),
    (
        "bf16_tiled_to_rows",
        "bf16[4096,4096]{1,0:T(8,128)(2,1)}",
        "bf16[4096,4096]{1,0}",
        0,
    ),
    (
        "bf16_seed_to_rows",
        "bf16[8,4,256,1024]{3,2,0,1:T(8,128)(2,1)}",
        "bf16[8,4,256,1024]{3,2,1,0}",
        0,
    ),
    (
        "s4_packed_to_tiled",
        "s4[4096,8192]{1,0:E(4)}",
        "s4[4096,8192]{1,0:T(8,128)(2,1)E(4)}",
        0,
    ),
    (
        "s4_bytes_to_tiled",
        "s4[4096,8192]{1,0}",
        "s4[4096,8192]{1,0:T(8,128)(2,1)E(4)}",
        0,
    ),
    (
        "bf16_rows_to_cols",
        "bf16[4096,4096]{1,0}",
        "bf16[4096,4096]{0,1}",
        2,
    ),
    (
        "f64_cols_to_rows",
        "f64[2000,3000]{0,1}",
        "f64[2000,3000]{1,0}",
        8,
    ),
    // Transposes into and between tilings (`python3 tools/bench_table.py
    // relayout between`).
    (
        "f32_cols_to_tiled",
        "f32[4096,4096]{0,1}",
        "f32[4096,4096]{1,0:T(8,128)}",
        0,
    ),
    (
        "u8_cols_to_tiled",
        "u8[4096,4096]{0,1}",
        "u8[4096,4096]{1,0:T(8,128)}",
        0,
    ),
    (
        "f32_tiled_to_tiled_cols",
        "f32[4096,4096]{1,0:T(8,128)}",
        "f32[4096,4096]{0,1:T(8,128)}",
        0,
    ),
    (
        "bf16_tiled_to_tiled_cols",
        "bf16[4096,4096]{1,0:T(8,128)(2,1)}",
        "bf16[4096,4096]{0,1:T(8,128)(2,1)}",
        0,
    ),
    (
        "s8_tiled_to_tiled_cols",
        "s8[4096,4096]{1,0:T(32,128)(4,1)}",
        "s8[4096,4096]{0,1:T(32,128)(4,1)}",
        0,
    ),
    (
        "s4_packed_to_tiled_cols",
        "s4[4096,8192]{1,0:E(4)}",
        "s4[4096,8192]{0,1:T(8,128)(2,1)E(4)}",
        0,
    ),
    (
        "s4_tiled_to_packed_cols",
        "s4[4096,8192]{1,0:T(8,128)(2,1)E(4)}",
        "s4[4096,8192]{0,1:E(4)}",
        0,
    ),
    (
        "s4_tiled_to_tiled_cols",
        "s4[4096,8192]{1,0:T(8,128)(2,1)E(4)}",
        "s4[4096,8192]{0,1:T(8,128)(2,1)E(4)}",
        0,
    ),
];

/// Bytes read before each cold copy: twice the L3 of the project's
/// machine (32 MiB), so that neither buffer is left in any cache.
const EVICT_BYTES: usize = 64 << 20;

fn relayout(c: &mut Criterion) {
    let filter: Option<String> = std::env::var("RELAYOUT_PAIRS").ok();
    // Read, not written: evicting clean lines costs the timed copy
    // nothing.
    let evict: Vec<u64> = (0..EVICT_BYTES as u64 / 8).collect();
    let cold = || black_box(evict.iter().fold(0u64, |s, x| s.wrapping_add(*x)));
    for &(name, from, to, nd) in PAIRS {
        if filter
            .as_deref()
            .is_some_and(|f| !f.split(',').any(|p| p == name))
        {
            continue;
        }
        let (a, b) = (parse_array(from).unwrap(), parse_array(to).unwrap());
        let plan = RelayoutPlan::new(&a, &b).unwrap();
        let src: Vec<u8> = (0..plan.source_bytes())
            .map(|i| (i * 7 + 3) as u8)
            .collect();
        let mut dst = vec![0u8; plan.destination_bytes() as usize];
        let mut copy = vec![0u8; src.len()];
        let kind = if cfg!(feature = "simd") {
            "relayout_simd"
        } else {
            "relayout"
        };
        let mut g = c.benchmark_group(format!("{kind}_{name}"));
        g.sample_size(10);
        g.warm_up_time(std::time::Duration::from_millis(500));
        g.measurement_time(std::time::Duration::from_secs(3));
        g.throughput(Throughput::Bytes(src.len() as u64));
        g.bench_function("memcpy", |bench| {
            bench.iter(|| copy.copy_from_slice(black_box(&src)))
        });
        g.bench_function("relayout", |bench| {
            bench.iter(|| plan.run_bytes(black_box(&src), &mut dst).unwrap())
        });
        g.bench_function("memcpy_cold", |bench| {
            bench.iter_batched(
                cold,
                |_| copy.copy_from_slice(black_box(&src)),
                BatchSize::PerIteration,
            )
        });
        g.bench_function("relayout_cold", |bench| {
            bench.iter_batched(
                cold,
                |_| plan.run_bytes(black_box(&src), &mut dst).unwrap(),
                BatchSize::PerIteration,
            )
        });
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            let part = src.len().div_ceil(rayon::current_num_threads());
            g.bench_function("memcpy_threads", |bench| {
                bench.iter(|| {
                    let src = black_box(&src);
                    copy.par_chunks_mut(part)
                        .zip(src.par_chunks(part))
                        .for_each(|(d, s)| d.copy_from_slice(s))
                })
            });
            g.bench_function("threads", |bench| {
                bench.iter(|| plan.par_run_bytes(black_box(&src), &mut dst).unwrap())
            });
        }
        if nd > 0 {
            let dims = a.dims();
            let (r, c) = (
                dims[0].layout_size().unwrap() as usize,
                dims[1].layout_size().unwrap() as usize,
            );
            let column_major = a.layout().minor_to_major() == [0, 1];
            match nd {
                2 => ndarray_transpose::<u16>(&mut g, r, c, column_major),
                4 => ndarray_transpose::<f32>(&mut g, r, c, column_major),
                _ => ndarray_transpose::<f64>(&mut g, r, c, column_major),
            }
        }
        g.finish();
    }
}

/// ndarray's transpose of an `r x c` array into its other order.
fn ndarray_transpose<T: Copy + Default + From<u8>>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    r: usize,
    c: usize,
    column_major: bool,
) {
    // The source in its memory order; the destination the other way.
    let (sr, sc) = if column_major { (c, r) } else { (r, c) };
    let a = ndarray::Array2::<T>::from_shape_fn((sr, sc), |(i, j)| T::from((i * 7 + j) as u8));
    let mut b = ndarray::Array2::<T>::default((sc, sr));
    g.bench_function("ndarray", |bench| {
        bench.iter(|| b.assign(&black_box(&a).t()))
    });
}

criterion_group!(benches, relayout);
criterion_main!(benches);
