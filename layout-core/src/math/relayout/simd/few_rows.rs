//! The few rows of `few.rs` (3 to 8 rows woven into tuples, or split
//! back out) in vector registers: the interleaves of `simd.rs`'s
//! transposes, with the rows padded to a power of two.

use core::any::Any;

use safe_arch::{load_unaligned_m128i, m128i};

use super::sse2::{is, Shuffle, Slot};

/// `R` rows (3 to 8) of 1- or 2-byte slots woven into one run of
/// `R`-tuples, `rows[k][i]` into `run[R i + k]` (`few.rs`), a vector
/// of each row at a time: the rows, padded with empty ones to `P` (4
/// or 8), are interleaved `log2(P)` times, which leaves the tuples in
/// order, each `P` slots long; each is stored where its `R` slots go,
/// and the next one's store overwrites the padding. How many tuples
/// were done (a multiple of the slots in a vector; none where `T` is
/// another type, and none past the last whole vector whose padding
/// would fall outside `run`).
#[inline(always)]
pub(crate) fn weave_few<T: 'static, const R: usize>(rows: [&[T]; R], run: &mut [T]) -> usize {
    match (core::mem::size_of::<T>(), R) {
        (1, 3) => few_as::<T, [u8; 1], 1, 16, R, 4>(rows, run),
        (1, 5..=8) => few_as::<T, [u8; 1], 1, 16, R, 8>(rows, run),
        (2, 3 | 4) => few_as::<T, [u8; 2], 2, 8, R, 4>(rows, run),
        (2, 5..=8) => few_as::<T, [u8; 2], 2, 8, R, 8>(rows, run),
        _ => 0,
    }
}

/// The inverse of [`weave_few`] for 8 rows (and 4 of 2-byte slots),
/// whose tuples fill whole vectors: one run of `R`-tuples split into
/// `R` rows, `run[R i + k]` into `rows[k][i]`, 16 bytes of the run in
/// each vector; the vectors are interleaved as many more times as
/// make the rounds of [`weave_few`] a whole turn, which leaves row `k`
/// in vector `k`. How many tuples were done (none for other rows and
/// types). Tuples narrower than a power of two stay with the caller:
/// loaded one by one, with the next one's first slots as padding,
/// they took as many instructions as the caller's loop
/// (`bf16[738,64,152,5]` `{3,1,2,0}` -> `{1,3,0,2}` ran at 0.79x).
#[inline(always)]
pub(crate) fn split_few<T: 'static, const R: usize>(run: &[T], rows: [&mut [T]; R]) -> usize {
    let mut rows = rows;
    match (core::mem::size_of::<T>(), R) {
        (1, 8) => unfew_as::<T, [u8; 1], 1, 16, R>(run, &mut rows),
        (2, 4 | 8) => unfew_as::<T, [u8; 2], 2, 8, R>(run, &mut rows),
        _ => 0,
    }
}

/// [`weave_few`] where `T` is `U` (`S` bytes, `L` to a vector), the
/// rows padded to `P`.
#[inline(always)]
fn few_as<T: 'static, U: Slot, const S: usize, const L: usize, const R: usize, const P: usize>(
    rows: [&[T]; R],
    run: &mut [T],
) -> usize {
    if !is::<T, U>() {
        return 0;
    }
    let len = rows.iter().map(|r| r.len()).min().unwrap_or(0);
    // Whole vectors of every row, and room for the last tuple's
    // padding.
    let mut groups = len / L;
    while groups > 0 && groups * L * R + (P - R) > run.len() {
        groups -= 1;
    }
    for g in 0..groups {
        let mut v = [m128i::default(); P];
        for (v, row) in v.iter_mut().zip(rows) {
            // Always `Some`: `T` is `U`, and `g < len / L`.
            let Some(x) = row[g * L..].first_chunk::<L>() else {
                return g * L;
            };
            let Some(x) = (x as &dyn Any).downcast_ref::<[U; L]>() else {
                return g * L;
            };
            let Ok(x) = U::bytes(x).try_into() else {
                return g * L;
            };
            *v = load_unaligned_m128i(x);
        }
        Shuffle::<S>.transpose(&mut v);
        // Vector `m` holds tuples `m L / P ..` of the group, `P`
        // slots each.
        let per = L / P;
        for (m, x) in v.into_iter().enumerate() {
            let bytes = <[u8; 16]>::from(x);
            for k in 0..per {
                let at = (g * L + m * per + k) * R;
                let Some(out) = run[at..].first_chunk_mut::<P>() else {
                    return g * L;
                };
                let Some(out) = (out as &mut dyn Any).downcast_mut::<[U; P]>() else {
                    return g * L;
                };
                U::bytes_mut(out).copy_from_slice(&bytes[k * P * S..(k + 1) * P * S]);
            }
        }
    }
    groups * L
}

/// [`split_few`] where `T` is `U`.
#[inline(always)]
fn unfew_as<T: 'static, U: Slot, const S: usize, const L: usize, const R: usize>(
    run: &[T],
    rows: &mut [&mut [T]; R],
) -> usize {
    if !is::<T, U>() {
        return 0;
    }
    let len = rows.iter().map(|r| r.len()).min().unwrap_or(0);
    // The run's vectors, `R` to a group of `L` tuples.
    let (vectors, _) = run.as_chunks::<L>();
    for (g, group) in vectors.chunks_exact(R).take(len / L).enumerate() {
        let mut v = [m128i::default(); R];
        for (v, x) in v.iter_mut().zip(group) {
            // Always `Some`: `T` is `U`.
            let Some(x) = (x as &dyn Any).downcast_ref::<[U; L]>() else {
                return g * L;
            };
            let Ok(x) = U::bytes(x).try_into() else {
                return g * L;
            };
            *v = load_unaligned_m128i(x);
        }
        // `log2(R)` rounds wove the rows; the place has `log2(R) +
        // log2(L)` bits, so `log2(L)` more turn it back.
        Shuffle::<S>.rounds(&mut v, L.trailing_zeros());
        for (row, x) in rows.iter_mut().zip(v) {
            let Some(out) = row[g * L..].first_chunk_mut::<L>() else {
                return g * L;
            };
            let Some(out) = (out as &mut dyn Any).downcast_mut::<[U; L]>() else {
                return g * L;
            };
            U::bytes_mut(out).copy_from_slice(&<[u8; 16]>::from(x));
        }
    }
    (len / L).min(vectors.len() / R) * L
}
