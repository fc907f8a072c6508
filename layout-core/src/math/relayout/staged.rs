//! Runs of 2 or 4 one- or two-byte elements, contiguous on both sides (the
//! `(2,1)` and `(4,1)` sub-tiles of a tiling), that the rest of the box
//! transposes, where the runs start on whole runs in the destination but
//! not in the source: an odd dimension on the source's side
//! (`bf16[129,4097]{1,0}` -> `{0,1:T(8,128)(2,1)}`) starts every other
//! source row at an odd element. The `units` kernel takes runs as single
//! elements only where both sides hold whole runs; here each block's
//! source rows are first copied to the stack, where every run is whole,
//! and the block is transposed from there a run at a time. The mirror,
//! runs whole in the source only, transposes each block into a copy on
//! the stack and writes its columns from there.

use super::loops::{each, each_ahead};
use super::modes::{Mode, Nest};
use super::simd;
use super::transpose::{self, Whole};
use super::tuning::{COLS, ROWS, STAGED_RUNS, UNITS_LEAST};

/// The nest over runs of `r` elements of box `n` (source offsets and
/// strides in elements, destination ones in runs), where `n`'s first
/// loop is such runs, the destination holds whole runs, the runs are
/// contiguous along the rest's first destination loop and its first
/// source loop, and there are at least [`UNITS_LEAST`] of them; else
/// `None`.
pub(crate) fn nest(n: &Nest, r: u64) -> Option<Nest> {
    let rest = runs_box(n, r, |m| m.dst, n.dst)?;
    Some(Nest::scaled(rest, 1, r, n.src, n.dst / r))
}

/// The loops after the first of box `n`, where its first loop is runs of
/// `r` elements contiguous on both sides, whole on one side (`side`
/// gives a loop's stride there, `base` is the box's offset there), at
/// least [`UNITS_LEAST`] of them, contiguous along the rest's first
/// destination loop and its first source loop; else `None`.
fn runs_box(n: &Nest, r: u64, side: fn(&Mode) -> u64, base: u64) -> Option<&[Mode]> {
    let (m0, rest) = n.loops().split_first()?;
    if (m0.range, m0.src, m0.dst) != (r, 1, 1) || rest.len() < 2 {
        return None;
    }
    let count = rest.iter().fold(1u64, |c, m| c.saturating_mul(m.range));
    let whole = |x: u64| x.is_multiple_of(r);
    if count < UNITS_LEAST || !whole(base) || !rest.iter().all(|m| whole(side(m))) {
        return None;
    }
    if rest[0].dst != r || rest[1..].iter().map(|m| m.src).min() != Some(r) {
        return None;
    }
    Some(rest)
}

/// Whether [`copy`] takes the runs' nest `u` (its tests, without copying).
pub(crate) fn fits(u: &Nest, size: usize, r: usize) -> bool {
    let (pm, qm) = sides(size, r);
    transpose::each_box_whole(u, pm, qm, &mut |_| {})
}

/// The rows and columns of a block of runs of `r` elements of `size`
/// bytes: the general blocks' sides, within [`STAGED_RUNS`].
fn sides(size: usize, r: usize) -> (usize, usize) {
    let (p, q) = transpose::sides(size * r);
    (p, q.min(STAGED_RUNS / p.max(1)))
}

/// Copies the runs' nest `u` ([`nest`]) of box runs of `R` elements.
/// `false` where the blocks do not apply (nothing is copied then).
#[inline(never)]
pub(crate) fn copy<T: Copy + 'static, const R: usize>(u: &Nest, src: &[T], dst: &mut [T]) -> bool {
    let Some(&any) = src.first() else {
        return false;
    };
    let (pm, qm) = sides(core::mem::size_of::<T>(), R);
    let dst = dst.as_chunks_mut::<R>().0;
    let mut a = [[any; R]; STAGED_RUNS];
    let run = |s: usize| -> [T; R] { core::array::from_fn(|k| src[s + k]) };
    transpose::each_box_whole(u, pm, qm, &mut |part| {
        let (b, s, d) = match part {
            Whole::Blocks(b, s, d) => (b, s, d),
            Whole::Line(n) => return each(n.loops(), n.src, n.dst, |s, d| dst[d] = run(s)),
        };
        let (rows, cols) = (b.rows(), b.cols());
        let (p, q) = (rows.len(), cols.len());
        let (ps, qs) = b.strides();
        if ps != 1 || qs != R || p * q > STAGED_RUNS {
            // Not runs of runs (or, were the blocks ever planned larger
            // than the copy holds, too many): one run at a time.
            each(b.outer(), s, d, |s, d| {
                for (j, &c) in cols.iter().enumerate() {
                    for (i, &r) in rows.iter().enumerate() {
                        dst[d + c + i * ps] = run(s + r + j * qs);
                    }
                }
            });
            return;
        }
        // Row `i` of the copy starts at `i * q`.
        let mut a_rows = [0usize; ROWS];
        for (i, r) in a_rows[..p].iter_mut().enumerate() {
            *r = i * q;
        }
        each(b.outer(), s, d, |s, d| {
            for (i, &r) in rows.iter().enumerate() {
                let from = s + r;
                a[i * q..(i + 1) * q]
                    .as_flattened_mut()
                    .copy_from_slice(&src[from..from + q * R]);
            }
            let (pn, qn) = simd::table_block(&a, 0, &a_rows[..p], dst, d, cols);
            for (j, &c) in cols.iter().enumerate() {
                let from = if j < qn { pn } else { 0 };
                for i in from..p {
                    dst[d + c + i] = a[i * q + j];
                }
            }
        });
    })
}

/// The mirror of [`nest`]: the nest over runs of `r` elements of box `n`
/// whose runs are whole in the source but not in the destination (a
/// `(4,1)` tiling into an order with an odd dimension), source offsets
/// and strides in runs, destination ones in elements; else `None`.
pub(crate) fn nest_out(n: &Nest, r: u64) -> Option<Nest> {
    let rest = runs_box(n, r, |m| m.src, n.src)?;
    Some(Nest::scaled(rest, r, 1, n.src / r, n.dst))
}

/// Copies the runs' nest `u` ([`nest_out`]) of runs of `R` elements: each
/// block transposed a run at a time into a copy on the stack, whose
/// columns (whole runs there) are then written to the destination.
/// `false` where the blocks do not apply (nothing is copied then).
#[inline(never)]
pub(crate) fn copy_out<T: Copy + 'static, const R: usize>(
    u: &Nest,
    src: &[T],
    dst: &mut [T],
) -> bool {
    let Some(&any) = src.first() else {
        return false;
    };
    let (pm, qm) = sides(core::mem::size_of::<T>(), R);
    let src = src.as_chunks::<R>().0;
    let mut t = [[any; R]; STAGED_RUNS];
    transpose::each_box_whole(u, pm, qm, &mut |part| {
        let (b, s, d) = match part {
            Whole::Blocks(b, s, d) => (b, s, d),
            Whole::Line(n) => {
                return each(n.loops(), n.src, n.dst, |s, d| {
                    dst[d..d + R].copy_from_slice(&src[s]);
                });
            }
        };
        let (rows, cols) = (b.rows(), b.cols());
        let (p, q) = (rows.len(), cols.len());
        let (ps, qs) = b.strides();
        if ps != R || qs != 1 || p * q > STAGED_RUNS {
            // Not runs of runs (or too many): one run at a time.
            each(b.outer(), s, d, |s, d| {
                for (j, &c) in cols.iter().enumerate() {
                    for (i, &r) in rows.iter().enumerate() {
                        let at = d + c + i * ps;
                        dst[at..at + R].copy_from_slice(&src[s + r + j * qs]);
                    }
                }
            });
            return;
        }
        // Column `j` of the copy starts at `j * p`.
        let mut t_cols = [0usize; COLS];
        for (j, c) in t_cols[..q].iter_mut().enumerate() {
            *c = j * p;
        }
        // The destination lines of the next block's columns (each column
        // `p` runs long, starting anywhere in a line), asked for while
        // this block is copied: the columns are written a few bytes into
        // many rows, which the hardware does not fetch ahead (`u8`
        // `(4,1)` tiles into rows of an odd length and `(2,1)` ones of
        // 16-bit types: 1.3x to 1.4x faster in paired rounds).
        let line = (64 / core::mem::size_of::<T>().max(1)).max(1);
        let len = p * R;
        each_ahead(b.outer(), s, d, 1, |s, d, next| {
            if let Some((_, x)) = next {
                for &c in cols {
                    for l in (0..len).step_by(line) {
                        simd::prefetch_write(dst, x + c + l);
                    }
                    simd::prefetch_write(dst, (x + c + len).saturating_sub(1));
                }
            }
            let (pn, qn) = simd::table_block(src, s, rows, &mut t, 0, &t_cols[..q]);
            for j in 0..q {
                let from = if j < qn { pn } else { 0 };
                for (i, &r) in rows.iter().enumerate().skip(from) {
                    t[j * p + i] = src[s + r + j];
                }
            }
            for (j, &c) in cols.iter().enumerate() {
                let at = d + c;
                dst[at..at + p * R].copy_from_slice(t[j * p..(j + 1) * p].as_flattened());
            }
        });
    })
}

/// Whether [`copy_out`] takes the runs' nest `u` (without copying).
pub(crate) fn fits_out(u: &Nest, size: usize, r: usize) -> bool {
    fits(u, size, r)
}
