//! Transposed blocks with SSE2 shuffles (the `simd` feature, on x86 and
//! x86-64). A block's rows are loaded 16 bytes at a time; each tile of
//! `R` rows by `L` elements (`L` = 16 bytes, `R` = `L` or the block's
//! rows if fewer) is transposed in registers by `log2(R)` rounds of
//! interleaving, and its columns are stored `R` elements at a time. Scalar
//! moves cost a load and a store per element; a 4 x 4 tile of 4-byte
//! elements takes 4 loads, 8 shuffles and 4 stores for 16 of them.
//!
//! The loads, shuffles and prefetches are `safe_arch`'s safe functions
//! (SSE2 is part of every x86-64 target). They apply to the byte slots of
//! [`RelayoutPlan::run_bytes`](super::RelayoutPlan::run_bytes) (`[u8; N]`)
//! and the runs of them the `(2,1)` and `(4,1)` sub-tiles make, told
//! apart by type; typed copies reach them through their byte views
//! (`Element::__bytes`). Slots of 1, 2 and 4 bytes: 8-byte ones stay
//! scalar (see `block`). Without the feature, or off x86, `block` copies
//! nothing and the scalar loops in `kernels.rs` run.
//!
//! Smaller kernels use the same interleaves: `split` turns a run of
//! pairs back into two rows (the `(2,1)` sub-tiles of 16-bit layouts back
//! to rows), and `weave_nibbles` / `unweave_nibbles` do the same for the
//! `(2,1)` sub-tiles of `E(4)` layouts, where a byte holds one nibble of
//! each row. Each returns how much it did; the caller's scalar loop does
//! the rest. (Weaving two rows of whole elements into pairs needs none:
//! the compiler vectorises that loop itself.) `transpose_nibbles`
//! transposes a tile of `E(4)` nibbles: the nibbles of each pair of rows
//! apart into bytes, then 16 x 16 bytes by interleaving.

#[cfg(all(
    feature = "simd",
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
mod sse2 {
    use core::any::Any;

    use safe_arch::{
        bitand_m128i, bitor_m128i, load_unaligned_m128i, m128i, pack_i16_to_u8_m128i, prefetch_et0,
        prefetch_t1, set_splat_i16_m128i, set_splat_i8_m128i, shl_imm_u16_m128i, shr_imm_u16_m128i,
        unpack_high_i16_m128i, unpack_high_i32_m128i, unpack_high_i8_m128i, unpack_low_i16_m128i,
        unpack_low_i32_m128i, unpack_low_i8_m128i,
    };

    /// A slot the shuffles load as bytes: `[u8; N]` (the byte slots of
    /// [`RelayoutPlan::run_bytes`](super::super::RelayoutPlan::run_bytes)),
    /// or a run of them taken as one element (the `(2,1)` and `(4,1)`
    /// sub-tiles).
    pub(super) trait Slot: Sized + 'static {
        fn bytes(x: &[Self]) -> &[u8];
        fn bytes_mut(x: &mut [Self]) -> &mut [u8];
    }

    impl<const N: usize> Slot for [u8; N] {
        #[inline(always)]
        fn bytes(x: &[Self]) -> &[u8] {
            x.as_flattened()
        }
        #[inline(always)]
        fn bytes_mut(x: &mut [Self]) -> &mut [u8] {
            x.as_flattened_mut()
        }
    }

    impl<const N: usize, const M: usize> Slot for [[u8; N]; M] {
        #[inline(always)]
        fn bytes(x: &[Self]) -> &[u8] {
            x.as_flattened().as_flattened()
        }
        #[inline(always)]
        fn bytes_mut(x: &mut [Self]) -> &mut [u8] {
            x.as_flattened_mut().as_flattened_mut()
        }
    }

    /// Copies the `P` x `Q` block whose source rows are `rows` (`Q` elements
    /// each) to the destination rows `to + j * dq` (`P` elements each, `j` in
    /// `0..Q`): `false`, with nothing copied, when `T` is not a [`Slot`] or
    /// the block is not made of whole tiles. The size picks the slot types
    /// to try. 8-byte slots stay scalar: their 2 x 2 tiles measured from
    /// 0.8x to 1.1x of the scalar copy (f64 2000 x 3000), depending on how
    /// the code around them compiled.
    #[inline(always)]
    pub(crate) fn block<T: 'static, const P: usize, const Q: usize>(
        rows: &[&[T; Q]; P],
        dst: &mut [T],
        to: usize,
        dq: usize,
    ) -> bool {
        match const { core::mem::size_of::<T>() } {
            1 => slot::<T, [u8; 1], P, Q>(rows, dst, to, dq),
            2 => {
                slot::<T, [u8; 2], P, Q>(rows, dst, to, dq)
                    || slot::<T, [[u8; 1]; 2], P, Q>(rows, dst, to, dq)
            }
            4 => {
                slot::<T, [u8; 4], P, Q>(rows, dst, to, dq)
                    || slot::<T, [[u8; 2]; 2], P, Q>(rows, dst, to, dq)
                    || slot::<T, [[u8; 1]; 4], P, Q>(rows, dst, to, dq)
            }
            _ => false,
        }
    }

    /// Whether `T` is a [`Slot`], which [`block`] can load.
    #[inline(always)]
    pub(crate) fn bytes<T: 'static>() -> bool {
        match core::mem::size_of::<T>() {
            1 => is::<T, [u8; 1]>(),
            2 => is::<T, [u8; 2]>() || is::<T, [[u8; 1]; 2]>(),
            4 => is::<T, [u8; 4]>() || is::<T, [[u8; 2]; 2]>() || is::<T, [[u8; 1]; 4]>(),
            _ => false,
        }
    }

    #[inline(always)]
    pub(super) fn is<T: 'static, U: 'static>() -> bool {
        core::any::TypeId::of::<T>() == core::any::TypeId::of::<U>()
    }

    /// [`block`] where `T` is `U`: `L` = `16 / S` slots to a vector, in
    /// tiles of `R` rows by `L` columns (`R` = `L`, or `P` when `P < L`).
    #[inline(always)]
    fn slot<T: 'static, U: Slot, const P: usize, const Q: usize>(
        rows: &[&[T; Q]; P],
        dst: &mut [T],
        to: usize,
        dq: usize,
    ) -> bool {
        if !is::<T, U>() {
            return false;
        }
        // The slot's size and the tile's rows as one constant, so that a
        // build without optimisations compiles only the arm it takes (a
        // match on a run-time value compiles every arm, for every slot
        // type and block size: most of a debug build's code).
        match const { tile_key(core::mem::size_of::<U>(), P) } {
            116 => tile_rows::<T, U, 1, 16, 16, P, Q>(rows, dst, to, dq),
            108 => tile_rows::<T, U, 1, 16, 8, P, Q>(rows, dst, to, dq),
            104 => tile_rows::<T, U, 1, 16, 4, P, Q>(rows, dst, to, dq),
            102 => tile_rows::<T, U, 1, 16, 2, P, Q>(rows, dst, to, dq),
            208 => tile_rows::<T, U, 2, 8, 8, P, Q>(rows, dst, to, dq),
            204 => tile_rows::<T, U, 2, 8, 4, P, Q>(rows, dst, to, dq),
            202 => tile_rows::<T, U, 2, 8, 2, P, Q>(rows, dst, to, dq),
            404 => tile_rows::<T, U, 4, 4, 4, P, Q>(rows, dst, to, dq),
            402 => tile_rows::<T, U, 4, 4, 2, P, Q>(rows, dst, to, dq),
            _ => false,
        }
    }

    /// A slot of `s` bytes and a block of `p` rows: `100 * s + r`, `r`
    /// the rows of one tile (`16 / s`, or `p` when fewer). (One integer:
    /// a match on a constant tuple still tests its fields at run time.)
    const fn tile_key(s: usize, p: usize) -> usize {
        let l = 16 / if s == 0 { 1 } else { s };
        100 * s + if p < l { p } else { l }
    }

    /// A transposed block given by tables (the general transpose of
    /// `transpose.rs`): block row `p` starts at source slot `s + rows[p]`
    /// and runs over the columns, contiguous; block column `q` goes to the
    /// destination run at `d + cols[q]`, `rows.len()` slots long. Tiles
    /// of `R` rows by `L` columns (16 bytes of a row) are shuffled, the
    /// last of a side ending at the block's edge where the whole tiles
    /// leave more than a quarter of one; returns the rows and columns so
    /// covered, from 0 (`(0, 0)` where `T` is not a byte slot; the caller
    /// copies the rest).
    #[inline(always)]
    pub(crate) fn table_block<T: 'static>(
        src: &[T],
        s: usize,
        rows: &[usize],
        dst: &mut [T],
        d: usize,
        cols: &[usize],
    ) -> (usize, usize) {
        let t = Table { s, rows, d, cols };
        match const { core::mem::size_of::<T>() } {
            1 if is::<T, [u8; 1]>() => t.tiles::<T, [u8; 1], 1, 16>(src, dst),
            2 if is::<T, [u8; 2]>() => t.tiles::<T, [u8; 2], 2, 8>(src, dst),
            2 if is::<T, [[u8; 1]; 2]>() => t.tiles::<T, [[u8; 1]; 2], 2, 8>(src, dst),
            4 if is::<T, [u8; 4]>() => t.tiles::<T, [u8; 4], 4, 4>(src, dst),
            4 if is::<T, [[u8; 2]; 2]>() => t.tiles::<T, [[u8; 2]; 2], 4, 4>(src, dst),
            4 if is::<T, [[u8; 1]; 4]>() => t.tiles::<T, [[u8; 1]; 4], 4, 4>(src, dst),
            _ => (0, 0),
        }
    }

    /// The tables of [`table_block`].
    struct Table<'a> {
        s: usize,
        rows: &'a [usize],
        d: usize,
        cols: &'a [usize],
    }

    impl Table<'_> {
        /// [`table_block`] for `T` = `U` (`S` bytes, `L` to a vector),
        /// with tiles of `L` rows where the block has that many, else of
        /// the largest power of two it has.
        #[inline(always)]
        fn tiles<T: 'static, U: Slot, const S: usize, const L: usize>(
            &self,
            src: &[T],
            dst: &mut [T],
        ) -> (usize, usize) {
            let p = self.rows.len();
            // (`L` in constant tests: only the tiles a slot type can
            // have are compiled, also without optimisations.)
            if const { L >= 16 } && p >= 16 {
                self.tiles_of::<T, U, S, L, 16>(src, dst)
            } else if const { L >= 8 } && p >= 8 {
                self.tiles_of::<T, U, S, L, 8>(src, dst)
            } else if p >= 4 {
                self.tiles_of::<T, U, S, L, 4>(src, dst)
            } else if p >= 2 {
                self.tiles_of::<T, U, S, L, 2>(src, dst)
            } else {
                (0, 0)
            }
        }

        #[inline(always)]
        fn tiles_of<T: 'static, U: Slot, const S: usize, const L: usize, const R: usize>(
            &self,
            src: &[T],
            dst: &mut [T],
        ) -> (usize, usize) {
            let (p, q) = (self.rows.len(), self.cols.len());
            if p < R || q < L {
                return (0, 0);
            }
            // Each vector's columns, `R` slots (`R * S` bytes) each.
            let per = L / R;
            // Whole tiles from 0, then, where the tiles leave a rest of
            // more than a quarter of a tile, a last tile that ends at the
            // block's edge: it moves some slots a second time, to the
            // same places (a copy, so the same values). A smaller rest
            // is left to the caller, one slot at a time, which costs
            // less than a tile (as in the squares' edges).
            let overlap = |n: usize, t: usize| n % t * 4 > t;
            let starts = |n: usize, t: usize| {
                (0..n / t)
                    .map(move |k| k * t)
                    .chain(overlap(n, t).then(|| n - t))
            };
            let ends = |n: usize, t: usize| if overlap(n, t) { n } else { n / t * t };
            for q0 in starts(q, L) {
                for p0 in starts(p, R) {
                    let mut v = [m128i::default(); R];
                    for (k, v) in v.iter_mut().enumerate() {
                        let at = self.s + self.rows[p0 + k] + q0;
                        let Some(r) = src.get(at..at + L) else {
                            return (0, 0);
                        };
                        let r = <&[T; L]>::try_from(r).ok();
                        let r = r.and_then(|r| (r as &dyn Any).downcast_ref::<[U; L]>());
                        let Some(Ok(bytes)) = r.map(|r| U::bytes(r).try_into()) else {
                            return (0, 0);
                        };
                        *v = load_unaligned_m128i(bytes);
                    }
                    Shuffle::<S>.transpose(&mut v);
                    for (m, v) in v.into_iter().enumerate() {
                        let bytes = <[u8; 16]>::from(v);
                        for (t, part) in bytes.chunks_exact(R * S).enumerate() {
                            let at = self.d + self.cols[q0 + m * per + t] + p0;
                            let out = dst.get_mut(at..at + R);
                            let out = out.and_then(|o| <&mut [T; R]>::try_from(o).ok());
                            let out =
                                out.and_then(|o| (o as &mut dyn Any).downcast_mut::<[U; R]>());
                            let Some(out) = out else { return (0, 0) };
                            U::bytes_mut(out).copy_from_slice(part);
                        }
                    }
                }
            }
            (ends(p, R), ends(q, L))
        }
    }

    /// Nibbles `phase, phase + 1, ..` of `src` (nibble `2b` is the low
    /// half of byte `b`, `phase` 0 or 1) into a byte each of `out`, 32 at a
    /// time: how many were done (a multiple of 32; the caller does the
    /// rest). At phase 1 each 32 take the low nibble of a 17th byte, read
    /// one byte on.
    #[inline(always)]
    pub(crate) fn nibbles_to_bytes(src: &[u8], phase: usize, out: &mut [u8]) -> usize {
        let low = set_splat_i8_m128i(0x0F);
        let mut done = 0;
        for (k, o) in out.as_chunks_mut::<32>().0.iter_mut().enumerate() {
            let at = 16 * k;
            let (Some(x), Some(y)) = (src.get(at..at + 16), src.get(at + phase..at + phase + 16))
            else {
                break;
            };
            let (Ok(x), Ok(y)) = (<&[u8; 16]>::try_from(x), <&[u8; 16]>::try_from(y)) else {
                break;
            };
            let (x, y) = (load_unaligned_m128i(x), load_unaligned_m128i(y));
            // At phase 0 byte `b` gives (low, high); at phase 1 the high
            // nibble of byte `b`, then the low one of byte `b + 1`.
            let (first, second) = if phase == 0 {
                (
                    bitand_m128i(x, low),
                    bitand_m128i(shr_imm_u16_m128i::<4>(x), low),
                )
            } else {
                (
                    bitand_m128i(shr_imm_u16_m128i::<4>(x), low),
                    bitand_m128i(y, low),
                )
            };
            let (o0, o1) = o.split_at_mut(16);
            o0.copy_from_slice(&<[u8; 16]>::from(unpack_low_i8_m128i(first, second)));
            o1.copy_from_slice(&<[u8; 16]>::from(unpack_high_i8_m128i(first, second)));
            done += 32;
        }
        done
    }

    /// The inverse of [`nibbles_to_bytes`]: the low nibbles of each pair
    /// of bytes of `values` into one byte of `dst` (the first low), 16
    /// destination bytes at a time: how many were written.
    #[inline(always)]
    pub(crate) fn bytes_to_nibbles(values: &[u8], dst: &mut [u8]) -> usize {
        let (low, bytes) = (set_splat_i8_m128i(0x0F), set_splat_i16_m128i(0x00FF));
        let mut done = 0;
        for (v, o) in values
            .as_chunks::<32>()
            .0
            .iter()
            .zip(dst.as_chunks_mut::<16>().0)
        {
            let (a, b) = v.split_at(16);
            let (Ok(a), Ok(b)) = (<&[u8; 16]>::try_from(a), <&[u8; 16]>::try_from(b)) else {
                return done;
            };
            let (a, b) = (load_unaligned_m128i(a), load_unaligned_m128i(b));
            // The even and the odd bytes, each widened to 16 bits and
            // packed back (below 256: nothing saturates).
            let even = pack_i16_to_u8_m128i(bitand_m128i(a, bytes), bitand_m128i(b, bytes));
            let odd = pack_i16_to_u8_m128i(shr_imm_u16_m128i::<8>(a), shr_imm_u16_m128i::<8>(b));
            // Masked to 4 bits, a shift of the 16-bit lanes moves no bit
            // into the next byte.
            let r = bitor_m128i(
                bitand_m128i(even, low),
                shl_imm_u16_m128i::<4>(bitand_m128i(odd, low)),
            );
            *o = r.into();
            done += 16;
        }
        done
    }

    /// Asks for the line that holds `src[at]`, if there is one, to be
    /// fetched into L2 (not L1) ahead of its use.
    #[inline(always)]
    pub(crate) fn prefetch<T>(src: &[T], at: usize) {
        if let Some(x) = src.get(at) {
            prefetch_t1(x);
        }
    }

    /// Asks for the line that holds `dst[at]`, if there is one, to be
    /// fetched into L1 ahead of a write to it.
    #[inline(always)]
    pub(crate) fn prefetch_write<T>(dst: &[T], at: usize) {
        if let Some(x) = dst.get(at) {
            prefetch_et0(x);
        }
    }

    /// One run of pairs split into two rows, `a[i] = run[2i]` and
    /// `b[i] = run[2i + 1]` (the `(2,1)` sub-tiles back to rows), 16 bytes
    /// of each row at a time: how many elements of each row were written
    /// (a multiple of 16 bytes; the rest is the caller's).
    #[inline(always)]
    pub(crate) fn split<T: 'static>(run: &[T], a: &mut [T], b: &mut [T]) -> usize {
        match core::mem::size_of::<T>() {
            1 => split_as::<T, [u8; 1], 1, 16, 32>(run, a, b),
            2 => split_as::<T, [u8; 2], 2, 8, 16>(run, a, b),
            4 => split_as::<T, [u8; 4], 4, 4, 8>(run, a, b),
            _ => 0,
        }
    }

    /// Byte `i` of `a` and of `b` (nibbles `2i`, `2i + 1` of two rows)
    /// into bytes `2i`, `2i + 1` of `out`, each one nibble of `a` (low)
    /// and the same nibble of `b` (high); 16 bytes of each row at a time:
    /// how many bytes of each row were done.
    #[inline(always)]
    pub(crate) fn weave_nibbles(a: &[u8], b: &[u8], out: &mut [u8]) -> usize {
        let (low, high) = (set_splat_i8_m128i(0x0F), set_splat_i8_m128i(0xF0u8 as i8));
        let (xs, ys) = (a.as_chunks::<16>().0, b.as_chunks::<16>().0);
        let outs = out.as_chunks_mut::<16>().0;
        let n = xs.len().min(ys.len()).min(outs.len() / 2);
        let (xs, ys, outs) = (&xs[..n], &ys[..n], &mut outs[..2 * n]);
        for i in 0..n {
            let (x, y) = (load_unaligned_m128i(&xs[i]), load_unaligned_m128i(&ys[i]));
            // Even nibbles: `x`'s low under `y`'s low; odd: the highs.
            let even = bitor_m128i(
                bitand_m128i(x, low),
                bitand_m128i(shl_imm_u16_m128i::<4>(y), high),
            );
            let odd = bitor_m128i(
                bitand_m128i(shr_imm_u16_m128i::<4>(x), low),
                bitand_m128i(y, high),
            );
            outs[2 * i] = unpack_low_i8_m128i(even, odd).into();
            outs[2 * i + 1] = unpack_high_i8_m128i(even, odd).into();
        }
        16 * n
    }

    /// The inverse of [`weave_nibbles`]: bytes `2i`, `2i + 1` of `input`
    /// into byte `i` of `a` (their low nibbles) and of `b` (their high
    /// nibbles).
    #[inline(always)]
    pub(crate) fn unweave_nibbles(input: &[u8], a: &mut [u8], b: &mut [u8]) -> usize {
        let ins = input.as_chunks::<32>().0;
        let (xs, ys) = (a.as_chunks_mut::<16>().0, b.as_chunks_mut::<16>().0);
        let mut done = 0;
        for ((i, x), y) in ins.iter().zip(xs).zip(ys) {
            let (i0, i1) = i.split_at(16);
            let (Ok(i0), Ok(i1)) = (i0.try_into(), i1.try_into()) else {
                return done;
            };
            let (a, b) = unweave(load_unaligned_m128i(i0), load_unaligned_m128i(i1));
            (*x, *y) = (a.into(), b.into());
            done += 16;
        }
        done
    }

    /// The 32 bytes `i0`, `i1` as 16 pairs: byte `i` of the first vector
    /// returned is the low nibble of pair `i`'s first byte under the low
    /// nibble of its second; of the second vector, the high nibbles.
    #[inline(always)]
    fn unweave(i0: m128i, i1: m128i) -> (m128i, m128i) {
        let (low, high) = (set_splat_i8_m128i(0x0F), set_splat_i8_m128i(0xF0u8 as i8));
        let bytes = set_splat_i16_m128i(0x00FF);
        // The even and the odd bytes, each widened to 16 bits and packed
        // back (the values are below 256, so nothing saturates).
        let even = pack_i16_to_u8_m128i(bitand_m128i(i0, bytes), bitand_m128i(i1, bytes));
        let odd = pack_i16_to_u8_m128i(shr_imm_u16_m128i::<8>(i0), shr_imm_u16_m128i::<8>(i1));
        (
            bitor_m128i(
                bitand_m128i(even, low),
                bitand_m128i(shl_imm_u16_m128i::<4>(odd), high),
            ),
            bitor_m128i(
                bitand_m128i(shr_imm_u16_m128i::<4>(even), low),
                bitand_m128i(odd, high),
            ),
        )
    }

    /// The rows of `tile` (a multiple of 32 of them, of 128 nibbles: 64
    /// bytes each) transposed: nibble column `q` of the tile becomes
    /// destination row `q`, `tile.len()` nibbles (`tile.len() / 2` bytes)
    /// at `dst[to + q * col..]`, row `2k`'s nibble low and row `2k + 1`'s
    /// high in byte `k`. For each 16 bytes of the rows (32 nibble
    /// columns), each 32 rows go in two steps, a vector at a time: each
    /// pair of rows becomes two rows of bytes (byte `j` of one holds the
    /// low nibble of byte `j` of both rows, of the other the high one:
    /// already destination bytes), then each 16 rows of bytes are
    /// transposed, 16 x 16. The 32 rows after them follow at once, so
    /// that those 32 destination rows get their pieces one after another,
    /// whole lines for 128 rows. (Making the bytes of all the rows first
    /// took 4 KiB more on the stack and wrote each destination line in
    /// pieces 16 bytes at a time, one piece per 32 rows, with the rest of
    /// the tile's destination rows between them.) `false`, with the
    /// destination partly written, only if a destination row does not fit
    /// (the caller checked that they do), or `tile` is no multiple of 32
    /// rows.
    pub(crate) fn transpose_nibbles(
        tile: &[[u8; 64]],
        dst: &mut [u8],
        to: usize,
        col: usize,
    ) -> bool {
        if !tile.len().is_multiple_of(32) {
            return false;
        }
        let (low, high) = (set_splat_i8_m128i(0x0F), set_splat_i8_m128i(0xF0u8 as i8));
        for g in 0..4 {
            for (h, rows) in tile.chunks_exact(32).enumerate() {
                // `v[0]`: the even nibbles (`x`'s low under `y`'s low);
                // `v[1]`: the odd (the highs).
                let mut v = [[m128i::default(); 16]; 2];
                for (k, pair) in rows.chunks_exact(2).enumerate() {
                    let (Some(x), Some(y)) = (
                        pair[0][16 * g..].first_chunk::<16>(),
                        pair[1][16 * g..].first_chunk::<16>(),
                    ) else {
                        continue;
                    };
                    let (x, y) = (load_unaligned_m128i(x), load_unaligned_m128i(y));
                    v[0][k] = bitor_m128i(
                        bitand_m128i(x, low),
                        bitand_m128i(shl_imm_u16_m128i::<4>(y), high),
                    );
                    v[1][k] = bitor_m128i(
                        bitand_m128i(shr_imm_u16_m128i::<4>(x), low),
                        bitand_m128i(y, high),
                    );
                }
                for (side, v) in v.iter_mut().enumerate() {
                    Shuffle::<1>.transpose(v);
                    // Vector `m`: byte column `16 g + m`, nibble column
                    // `2 (16 g + m) + side`.
                    for (m, x) in v.iter().enumerate() {
                        let q = 2 * (16 * g + m) + side;
                        let at = to + q * col + 16 * h;
                        let Some(out) = dst.get_mut(at..at + 16) else {
                            return false;
                        };
                        out.copy_from_slice(&<[u8; 16]>::from(*x));
                    }
                }
            }
        }
        true
    }

    /// One run of bytes taken 4 at a time (the `(4,1)` sub-tiles of a
    /// 1-byte type) split into four rows: byte `4i + k` into `rows[k][i]`,
    /// 16 bytes of each row at a time (four vectors interleaved four
    /// times: each round rotates the bits of a byte's place by one, and
    /// four rounds move its place in the 4-tuple to the top, the row).
    /// How many bytes of each row were done.
    #[inline(always)]
    pub(crate) fn split4<T: 'static>(run: &[T], rows: [&mut [T]; 4]) -> usize {
        if !is::<T, [u8; 1]>() {
            return 0;
        }
        let [a, b, c, d] = rows;
        let (a, b) = (a.as_chunks_mut::<16>().0, b.as_chunks_mut::<16>().0);
        let (c, d) = (c.as_chunks_mut::<16>().0, d.as_chunks_mut::<16>().0);
        let mut done = 0;
        let outs = a.iter_mut().zip(b).zip(c).zip(d);
        for (r, (((a, b), c), d)) in run.as_chunks::<64>().0.iter().zip(outs) {
            // Always `Some`: `T` is `[u8; 1]`.
            let Some(r) = (r as &dyn Any).downcast_ref::<[[u8; 1]; 64]>() else {
                return done;
            };
            let (q, _) = r.as_flattened().as_chunks::<16>();
            let mut v = [q[0], q[1], q[2], q[3]].map(|x| load_unaligned_m128i(&x));
            Shuffle::<1>.transpose(&mut v);
            Shuffle::<1>.transpose(&mut v);
            for (o, x) in [a, b, c, d].into_iter().zip(v) {
                let Some(o) = (o as &mut dyn Any).downcast_mut::<[[u8; 1]; 16]>() else {
                    return done;
                };
                o.as_flattened_mut().copy_from_slice(&<[u8; 16]>::from(x));
            }
            done += 16;
        }
        done
    }

    /// The inverse of [`split4`]: four rows of bytes woven into one run of
    /// 4-tuples, `rows[k][i]` into `run[4i + k]` (the rows to `(4,1)`
    /// sub-tiles), 16 bytes of each row at a time (two rounds of
    /// interleaving). How many bytes of each row were done.
    #[inline(always)]
    pub(crate) fn weave4<T: 'static>(rows: [&[T]; 4], run: &mut [T]) -> usize {
        if !is::<T, [u8; 1]>() {
            return 0;
        }
        let [a, b, c, d] = rows.map(|r| r.as_chunks::<16>().0);
        let ins = a.iter().zip(b).zip(c).zip(d);
        let mut done = 0;
        for (r, (((a, b), c), d)) in run.as_chunks_mut::<64>().0.iter_mut().zip(ins) {
            let mut v = [m128i::default(); 4];
            for (v, x) in v.iter_mut().zip([a, b, c, d]) {
                // Always `Some`: `T` is `[u8; 1]`.
                let Some(x) = (x as &dyn Any).downcast_ref::<[[u8; 1]; 16]>() else {
                    return done;
                };
                let Ok(x) = x.as_flattened().try_into() else {
                    return done;
                };
                *v = load_unaligned_m128i(x);
            }
            Shuffle::<1>.transpose(&mut v);
            let Some(r) = (r as &mut dyn Any).downcast_mut::<[[u8; 1]; 64]>() else {
                return done;
            };
            for (o, x) in r
                .as_flattened_mut()
                .as_chunks_mut::<16>()
                .0
                .iter_mut()
                .zip(v)
            {
                *o = <[u8; 16]>::from(x);
            }
            done += 16;
        }
        done
    }

    /// [`split`] where `T` is `U` (`S` bytes, `L` to a vector, `L2 = 2L`).
    /// A pair of vectors holds `L` pairs; interleaving them `log2(L)`
    /// times rotates the bits of each element's place back to rows.
    #[inline(always)]
    fn split_as<T: 'static, U: Slot, const S: usize, const L: usize, const L2: usize>(
        run: &[T],
        a: &mut [T],
        b: &mut [T],
    ) -> usize {
        if !is::<T, U>() {
            return 0;
        }
        let runs = run.as_chunks::<L2>().0;
        let (xs, ys) = (a.as_chunks_mut::<L>().0, b.as_chunks_mut::<L>().0);
        let mut done = 0;
        for ((r, x), y) in runs.iter().zip(xs).zip(ys) {
            // Always `Some`: `T` is `U`.
            let from = (r as &dyn Any).downcast_ref::<[U; L2]>();
            let x = (x as &mut dyn Any).downcast_mut::<[U; L]>();
            let y = (y as &mut dyn Any).downcast_mut::<[U; L]>();
            let (Some(from), Some(x), Some(y)) = (from, x, y) else {
                return done;
            };
            let (lo, hi) = U::bytes(from).split_at(16);
            let (Ok(lo), Ok(hi)) = (lo.try_into(), hi.try_into()) else {
                return done;
            };
            let mut v = [load_unaligned_m128i(lo), load_unaligned_m128i(hi)];
            for _ in 0..L.trailing_zeros() {
                Shuffle::<S>.transpose(&mut v);
            }
            U::bytes_mut(x).copy_from_slice(&<[u8; 16]>::from(v[0]));
            U::bytes_mut(y).copy_from_slice(&<[u8; 16]>::from(v[1]));
            done += L;
        }
        done
    }

    /// Interleaving of two vectors' low or high halves, element by element,
    /// for elements of `S` bytes.
    #[derive(Clone, Copy)]
    pub(super) struct Shuffle<const S: usize>;

    impl<const S: usize> Shuffle<S> {
        #[inline(always)]
        fn low(self, a: m128i, b: m128i) -> m128i {
            match S {
                1 => unpack_low_i8_m128i(a, b),
                2 => unpack_low_i16_m128i(a, b),
                _ => unpack_low_i32_m128i(a, b),
            }
        }

        #[inline(always)]
        fn high(self, a: m128i, b: m128i) -> m128i {
            match S {
                1 => unpack_high_i8_m128i(a, b),
                2 => unpack_high_i16_m128i(a, b),
                _ => unpack_high_i32_m128i(a, b),
            }
        }

        /// Transposes the `R` rows of `L` elements held in `v` (row `i`
        /// in `v[i]`), `R` a power of two up to `L`: `log2(R)` rounds,
        /// each interleaving vector `i` with vector `i + R/2` at the
        /// element's width. Each round rotates the bits of an element's
        /// place (row bits, then lane bits) by one, so afterwards vector
        /// `m` holds columns `m * L/R ..` of the rows, `R` elements each.
        #[inline(always)]
        pub(super) fn transpose<const R: usize>(self, v: &mut [m128i; R]) {
            self.rounds(v, R.trailing_zeros());
        }

        /// `k` rounds of [`Shuffle::transpose`]'s interleaving: each
        /// rotates the bits of an element's place (row bits, then lane
        /// bits) by one, so that as many rounds as the place has bits
        /// give the vectors back as they were.
        #[inline(always)]
        pub(super) fn rounds<const R: usize>(self, v: &mut [m128i; R], k: u32) {
            for _ in 0..k {
                let w = *v;
                for i in 0..R / 2 {
                    v[2 * i] = self.low(w[i], w[i + R / 2]);
                    v[2 * i + 1] = self.high(w[i], w[i + R / 2]);
                }
            }
        }
    }

    /// [`slot`]'s tiles of `R` rows. Each destination row's part is written
    /// whole before the next row's (a tile's rows are read again from
    /// the cache), which measured faster than the reverse order.
    #[inline(always)]
    fn tile_rows<
        T: 'static,
        U: Slot,
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
    ) -> bool {
        if !P.is_multiple_of(R) || !Q.is_multiple_of(L) {
            return false;
        }
        // The rows as bytes (`T` is `U`, `S` bytes).
        let row = |i: usize| (rows[i] as &dyn Any).downcast_ref::<[U; Q]>();
        if row(0).is_none() {
            return false;
        }
        // Each vector's columns, `R` elements (`R * S` bytes) each.
        let per = L / R;
        for j0 in (0..Q).step_by(L) {
            for i0 in (0..P).step_by(R) {
                let mut v = [m128i::default(); R];
                for (k, v) in v.iter_mut().enumerate() {
                    // Always `Some` (the rows are all `[U; Q]`), 16 bytes.
                    let Some(r) = row(i0 + k) else { return false };
                    let Ok(bytes) = U::bytes(&r[j0..j0 + L]).try_into() else {
                        return false;
                    };
                    *v = load_unaligned_m128i(bytes);
                }
                Shuffle::<S>.transpose(&mut v);
                for (m, v) in v.into_iter().enumerate() {
                    let bytes = <[u8; 16]>::from(v);
                    for (t, part) in bytes.chunks_exact(R * S).enumerate() {
                        let at = to + (j0 + m * per + t) * dq + i0;
                        let out = <&mut [T; R]>::try_from(&mut dst[at..at + R]).ok();
                        let out = out.and_then(|o| (o as &mut dyn Any).downcast_mut::<[U; R]>());
                        let Some(out) = out else { return false };
                        U::bytes_mut(out).copy_from_slice(part);
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
/// Whether [`split_few`] splits anything (SSE2).
pub(super) const SPLIT_FEW: bool = true;

#[cfg(all(
    feature = "simd",
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
mod few_rows;

#[cfg(all(
    feature = "simd",
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
pub(super) use few_rows::{split_few, weave_few};

#[cfg(all(
    feature = "simd",
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
pub(super) use sse2::{
    block, bytes, bytes_to_nibbles, nibbles_to_bytes, prefetch, prefetch_write, split, split4,
    table_block, transpose_nibbles, unweave_nibbles, weave4, weave_nibbles,
};

#[cfg(not(all(
    feature = "simd",
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
)))]
/// Whether [`split_few`] splits anything (not without SSE2).
pub(super) const SPLIT_FEW: bool = false;

#[cfg(not(all(
    feature = "simd",
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
)))]
pub(super) use none::{
    block, bytes, bytes_to_nibbles, nibbles_to_bytes, prefetch, prefetch_write, split, split4,
    split_few, table_block, transpose_nibbles, unweave_nibbles, weave4, weave_few, weave_nibbles,
};

/// Asks for the first line of each row of the block at `at` (`rows`:
/// each row's offset from it; `per` offsets to an element of `src`, 1
/// for whole elements, the slots of a byte for packed ones): the next
/// block's rows while one is copied, where rows far apart leave the
/// hardware's prefetchers behind.
#[inline(always)]
pub(super) fn prefetch_rows<T>(src: &[T], at: usize, rows: &[usize], per: usize) {
    for &r in rows {
        prefetch(src, at.wrapping_add(r) / per.max(1));
    }
}

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
    pub(crate) fn nibbles_to_bytes(_: &[u8], _: usize, _: &mut [u8]) -> usize {
        0
    }

    #[inline(always)]
    pub(crate) fn bytes_to_nibbles(_: &[u8], _: &mut [u8]) -> usize {
        0
    }

    #[inline(always)]
    pub(crate) fn table_block<T>(
        _: &[T],
        _: usize,
        _: &[usize],
        _: &mut [T],
        _: usize,
        _: &[usize],
    ) -> (usize, usize) {
        (0, 0)
    }

    #[inline(always)]
    // The same signature as with the feature.
    #[allow(clippy::extra_unused_type_parameters)]
    pub(crate) fn bytes<T>() -> bool {
        false
    }

    #[inline(always)]
    pub(crate) fn prefetch<T>(_: &[T], _: usize) {}

    #[inline(always)]
    pub(crate) fn prefetch_write<T>(_: &[T], _: usize) {}

    #[inline(always)]
    pub(crate) fn split<T>(_: &[T], _: &mut [T], _: &mut [T]) -> usize {
        0
    }

    #[inline(always)]
    pub(crate) fn split4<T>(_: &[T], _: [&mut [T]; 4]) -> usize {
        0
    }

    #[inline(always)]
    pub(crate) fn weave4<T>(_: [&[T]; 4], _: &mut [T]) -> usize {
        0
    }

    #[inline(always)]
    pub(crate) fn weave_nibbles(_: &[u8], _: &[u8], _: &mut [u8]) -> usize {
        0
    }

    #[inline(always)]
    pub(crate) fn weave_few<T, const R: usize>(_: [&[T]; R], _: &mut [T]) -> usize {
        0
    }

    #[inline(always)]
    pub(crate) fn split_few<T, const R: usize>(_: &[T], _: [&mut [T]; R]) -> usize {
        0
    }

    #[inline(always)]
    pub(crate) fn unweave_nibbles(_: &[u8], _: &mut [u8], _: &mut [u8]) -> usize {
        0
    }

    #[inline(always)]
    pub(crate) fn transpose_nibbles(_: &[[u8; 64]], _: &mut [u8], _: usize, _: usize) -> bool {
        false
    }
}
