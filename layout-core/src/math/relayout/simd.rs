//! Transposed blocks with SSE2 shuffles (the `simd` feature, on x86 and
//! x86-64): the block's rows are loaded 16 bytes at a time, each square
//! of `L` rows by `L` elements (16 bytes a side) is transposed in
//! registers, and its columns are stored 16 bytes at a time. Scalar moves
//! cost a load and a store per element; a square of 4-byte elements takes
//! 4 loads, 8 shuffles and 4 stores for 16 of them.
//!
//! The shuffles come from `safe_arch`, whose functions are safe to call on
//! any target with SSE2 (every x86-64 one). Only the byte slots of
//! [`RelayoutPlan::run_bytes`](super::RelayoutPlan::run_bytes) (`[u8; N]`)
//! are loaded this way; other element types never reach here without the
//! feature's byte views (see `view.rs`).

#[cfg(all(
    feature = "simd",
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
mod sse2 {
    use core::any::Any;

    use safe_arch::{
        load_unaligned_m128i, m128i, prefetch_t1, unpack_high_i16_m128i, unpack_high_i32_m128i,
        unpack_high_i64_m128i, unpack_high_i8_m128i, unpack_low_i16_m128i, unpack_low_i32_m128i,
        unpack_low_i64_m128i, unpack_low_i8_m128i,
    };

    /// Copies the `P` x `Q` block whose source rows are `rows` (`Q` elements
    /// each) to the destination rows `to + j * dq` (`P` elements each, `j` in
    /// `0..Q`): `false`, with nothing copied, when the element is not a byte
    /// slot of 1, 2, 4 or 8 bytes or the block is not made of whole squares.
    #[inline(always)]
    pub(crate) fn block<T: 'static, const P: usize, const Q: usize>(
        rows: &[&[T; Q]; P],
        dst: &mut [T],
        to: usize,
        dq: usize,
    ) -> bool {
        match core::mem::size_of::<T>() {
            1 => tiles::<T, 1, 16, P, Q>(rows, dst, to, dq, Shuffle::<1>),
            2 => tiles::<T, 2, 8, P, Q>(rows, dst, to, dq, Shuffle::<2>),
            4 => tiles::<T, 4, 4, P, Q>(rows, dst, to, dq, Shuffle::<4>),
            8 => tiles::<T, 8, 2, P, Q>(rows, dst, to, dq, Shuffle::<8>),
            _ => false,
        }
    }

    /// Whether `T` is a byte slot [`block`] can load (`[u8; 1]`,
    /// `[u8; 2]`, `[u8; 4]` or `[u8; 8]`).
    #[inline(always)]
    pub(crate) fn bytes<T: 'static>() -> bool {
        use core::any::TypeId;
        let t = TypeId::of::<T>();
        t == TypeId::of::<[u8; 1]>()
            || t == TypeId::of::<[u8; 2]>()
            || t == TypeId::of::<[u8; 4]>()
            || t == TypeId::of::<[u8; 8]>()
    }

    /// Asks for the line that holds `src[at]`, if there is one, to be
    /// fetched into L2 (not L1) ahead of its use.
    #[inline(always)]
    pub(crate) fn prefetch<T>(src: &[T], at: usize) {
        if let Some(x) = src.get(at) {
            prefetch_t1(x);
        }
    }

    /// Interleaving of two vectors' low or high halves, element by element,
    /// for elements of `S` bytes.
    #[derive(Clone, Copy)]
    struct Shuffle<const S: usize>;

    impl<const S: usize> Shuffle<S> {
        #[inline(always)]
        fn low(self, a: m128i, b: m128i) -> m128i {
            match S {
                1 => unpack_low_i8_m128i(a, b),
                2 => unpack_low_i16_m128i(a, b),
                4 => unpack_low_i32_m128i(a, b),
                _ => unpack_low_i64_m128i(a, b),
            }
        }

        #[inline(always)]
        fn high(self, a: m128i, b: m128i) -> m128i {
            match S {
                1 => unpack_high_i8_m128i(a, b),
                2 => unpack_high_i16_m128i(a, b),
                4 => unpack_high_i32_m128i(a, b),
                _ => unpack_high_i64_m128i(a, b),
            }
        }

        /// Transposes the `R` rows of `L` elements held in `v` (row `i`
        /// in `v[i]`), `R` a power of two up to `L`: `log2(R)` rounds,
        /// each interleaving vector `i` with vector `i + R/2` at the
        /// element's width. Each round rotates the bits of an element's
        /// place (row bits, then lane bits) by one, so afterwards vector
        /// `m` holds columns `m * L/R ..` of the rows, `R` elements each.
        #[inline(always)]
        fn transpose<const R: usize>(self, v: &mut [m128i; R]) {
            let mut round = 1;
            while round < R {
                let w = *v;
                for i in 0..R / 2 {
                    v[2 * i] = self.low(w[i], w[i + R / 2]);
                    v[2 * i + 1] = self.high(w[i], w[i + R / 2]);
                }
                round *= 2;
            }
        }
    }

    /// [`block`] for `S`-byte slots, `L` = `16 / S` of them to a vector,
    /// in tiles of `R` rows by `L` columns (`R` = `P` when `P < L`).
    #[inline(always)]
    fn tiles<T: 'static, const S: usize, const L: usize, const P: usize, const Q: usize>(
        rows: &[&[T; Q]; P],
        dst: &mut [T],
        to: usize,
        dq: usize,
        shuffle: Shuffle<S>,
    ) -> bool {
        match P.min(L) {
            16 => tile_rows::<T, S, L, 16, P, Q>(rows, dst, to, dq, shuffle),
            8 => tile_rows::<T, S, L, 8, P, Q>(rows, dst, to, dq, shuffle),
            4 => tile_rows::<T, S, L, 4, P, Q>(rows, dst, to, dq, shuffle),
            2 => tile_rows::<T, S, L, 2, P, Q>(rows, dst, to, dq, shuffle),
            _ => false,
        }
    }

    /// [`tiles`] of `R` rows. Each destination row's part is written
    /// whole before the next row's (a tile's rows are read again from
    /// the cache), which measured faster than the reverse order.
    #[inline(always)]
    fn tile_rows<
        T: 'static,
        const S: usize,
        const L: usize,
        const R: usize,
        const P: usize,
        const Q: usize,
    >(
        rows: &[&[T; Q]; P],
        dst: &mut [T],
        to: usize,
        dq: usize,
        shuffle: Shuffle<S>,
    ) -> bool {
        if !P.is_multiple_of(R) || !Q.is_multiple_of(L) {
            return false;
        }
        // The rows as bytes: only where `T` is `[u8; S]`.
        let row = |i: usize| (rows[i] as &dyn Any).downcast_ref::<[[u8; S]; Q]>();
        if row(0).is_none() {
            return false;
        }
        // Each vector's columns, `R` elements (`R * S` bytes) each.
        let per = L / R;
        for j0 in (0..Q).step_by(L) {
            for i0 in (0..P).step_by(R) {
                let mut v = [m128i::default(); R];
                for (k, v) in v.iter_mut().enumerate() {
                    // Always `Some` (the rows are all `[u8; S]`), 16 bytes.
                    let Some(r) = row(i0 + k) else { return false };
                    let Ok(bytes) = r[j0..j0 + L].as_flattened().try_into() else {
                        return false;
                    };
                    *v = load_unaligned_m128i(bytes);
                }
                shuffle.transpose(&mut v);
                for (m, v) in v.into_iter().enumerate() {
                    let bytes = <[u8; 16]>::from(v);
                    for (t, part) in bytes.chunks_exact(R * S).enumerate() {
                        let at = to + (j0 + m * per + t) * dq + i0;
                        let out = <&mut [T; R]>::try_from(&mut dst[at..at + R]).ok();
                        let out =
                            out.and_then(|o| (o as &mut dyn Any).downcast_mut::<[[u8; S]; R]>());
                        let Some(out) = out else { return false };
                        out.as_flattened_mut().copy_from_slice(part);
                    }
                }
            }
        }
        true
    }
}

#[cfg(all(
    feature = "simd",
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
pub(super) use sse2::{block, bytes, prefetch};

#[cfg(not(all(
    feature = "simd",
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
)))]
pub(super) use none::{block, bytes, prefetch};

/// Without the feature (or without SSE2): no type is loaded as bytes,
/// nothing is copied or fetched here.
#[cfg(not(all(
    feature = "simd",
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
)))]
mod none {
    #[inline(always)]
    pub(crate) fn block<T, const P: usize, const Q: usize>(
        _: &[&[T; Q]; P],
        _: &mut [T],
        _: usize,
        _: usize,
    ) -> bool {
        false
    }

    #[inline(always)]
    // The same signature as with the feature.
    #[allow(clippy::extra_unused_type_parameters)]
    pub(crate) fn bytes<T>() -> bool {
        false
    }

    #[inline(always)]
    pub(crate) fn prefetch<T>(_: &[T], _: usize) {}
}
