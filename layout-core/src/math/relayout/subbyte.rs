//! Packed slots of 1, 2 or 4 bits (`E(n)` on both sides, the same width)
//! that no whole-byte kernel takes: transposes whose rows start at odd
//! slots, odd extents, runs that start at different places in their
//! bytes. The box is planned as blocks of the general transpose
//! (`transpose.rs`); each block's source rows are unpacked to a byte per
//! slot on the stack, transposed there as bytes, and each destination
//! column packed back, whole bytes at a time where it is aligned. Runs
//! (contiguous on both sides) are unpacked and packed the same way, a
//! piece at a time.

use super::loops::each;
use super::modes::Nest;
use super::simd;
use super::transpose::{self, Blocks};
use super::tuning::{COLS_HERE, PIECE, ROWS, RUN_SLOTS, SPAN};

/// Copies box `n` of `w`-bit slots (`w` 1, 2 or 4); `false`, with nothing
/// copied, for other widths.
#[inline(never)]
pub(crate) fn copy(n: &Nest, w: usize, src: &[u8], dst: &mut [u8]) -> bool {
    if !matches!(w, 1 | 2 | 4) {
        return false;
    }
    let modes = n.loops();
    if let Some((m0, rest)) = modes.split_first() {
        // Long runs one by one; short ones (an `E(4)` `(2,1)` sub-tile)
        // are rows of the blocks below.
        if m0.src == 1 && m0.dst == 1 && (m0.range >= RUN_SLOTS || rest.is_empty()) {
            let len = m0.range as usize;
            let mut buf = [0u8; PIECE];
            each(rest, n.src, n.dst, |s, d| {
                for at in (0..len).step_by(PIECE) {
                    let k = PIECE.min(len - at);
                    unpack(src, s + at, w, &mut buf[..k]);
                    pack(&buf[..k], dst, d + at, w);
                }
            });
            return true;
        }
    }
    // Each block's rows as bytes, then its columns.
    let mut a = [[0u8; 1]; ROWS * COLS_HERE];
    let mut t = [[0u8; 1]; ROWS * COLS_HERE];
    let mut span_buf = [0u8; PIECE];
    let mut row_buf = [0u8; PIECE];
    let mut whole = [0u8; SPAN];
    transpose::each_box(n, ROWS, COLS_HERE, &mut |b: &Blocks, s, d| {
        let (rows, cols) = (b.rows(), b.cols());
        let (p, q) = (rows.len(), cols.len());
        let (ps, qs) = b.strides();
        // Row `i` of `a` starts at `i * q`; column `j` of `t` at `j * p`.
        let mut a_rows = [0usize; ROWS];
        for (i, r) in a_rows[..p].iter_mut().enumerate() {
            *r = i * q;
        }
        let mut t_cols = [0usize; COLS_HERE];
        for (j, c) in t_cols[..q].iter_mut().enumerate() {
            *c = j * p;
        }
        // The slots a block's source spans: where that is short (rows
        // and columns interleaved, as in `(2,1)` sub-tiles), the span is
        // unpacked at once and each column gathered from it.
        let mut rows_across = |a: &mut [[u8; 1]], t: &mut [[u8; 1]], s: usize| {
            for (i, &r) in rows.iter().enumerate() {
                let row = a[i * q..(i + 1) * q].as_flattened_mut();
                if qs == 1 {
                    unpack(src, s + r, w, row);
                } else {
                    // The span the row's slots lie in, then every `qs`-th.
                    let per = (PIECE - 1) / qs + 1;
                    for (k, part) in row.chunks_mut(per).enumerate() {
                        let at = s + r + k * per * qs;
                        let span = (part.len() - 1) * qs + 1;
                        unpack(src, at, w, &mut row_buf[..span]);
                        for (j, x) in part.iter_mut().enumerate() {
                            *x = row_buf[j * qs];
                        }
                    }
                }
            }
            let (pn, qn) = simd::table_block(a, 0, &a_rows[..p], t, 0, &t_cols[..q]);
            for j in 0..q {
                let from = if j < qn { pn } else { 0 };
                for i in from..p {
                    t[j * p + i] = a[i * q + j];
                }
            }
        };
        let last = rows.iter().max().copied().unwrap_or(0);
        let span = (q - 1)
            .checked_mul(qs)
            .and_then(|x| x.checked_add(last + 1))
            .filter(|&x| x <= SPAN);
        each(b.outer(), s, d, |s, d| {
            if let Some(span) = span {
                unpack(src, s, w, &mut whole[..span]);
                for j in 0..q {
                    for (i, &r) in rows.iter().enumerate() {
                        t[j * p + i] = [whole[r + j * qs]];
                    }
                }
            } else {
                rows_across(&mut a, &mut t, s);
            }
            for (j, &c) in cols.iter().enumerate() {
                let column = t[j * p..(j + 1) * p].as_flattened();
                if ps == 1 {
                    pack(column, dst, d + c, w);
                } else {
                    // The span the column's slots lie in: read, the
                    // column's slots changed, written back.
                    let per = (PIECE - 1) / ps + 1;
                    for (k, part) in column.chunks(per).enumerate() {
                        let at = d + c + k * per * ps;
                        let span = (part.len() - 1) * ps + 1;
                        unpack(dst, at, w, &mut span_buf[..span]);
                        for (i, &x) in part.iter().enumerate() {
                            span_buf[i * ps] = x;
                        }
                        pack(&span_buf[..span], dst, at, w);
                    }
                }
            }
        });
    })
}

/// Slots `at..at + out.len()` of `src` (`w` bits each), one per byte of
/// `out`.
fn unpack(src: &[u8], at: usize, w: usize, out: &mut [u8]) {
    let k = 8 / w;
    let mask = ((1u16 << w) - 1) as u8;
    let one = |slot: usize| (src[slot / k] >> (w * (slot % k))) & mask;
    let n = out.len();
    // Up to the first whole byte, the whole bytes, then the rest.
    let head = ((k - at % k) % k).min(n);
    for (i, o) in out[..head].iter_mut().enumerate() {
        *o = one(at + i);
    }
    let whole = (n - head) / k;
    let from = (at + head) / k;
    let fast = if w == 4 {
        simd::nibbles_to_bytes(&src[from..from + whole], &mut out[head..head + whole * k])
    } else {
        0
    };
    for (chunk, &byte) in out[head + fast * k..head + whole * k]
        .chunks_exact_mut(k)
        .zip(&src[from + fast..from + whole])
    {
        for (j, o) in chunk.iter_mut().enumerate() {
            *o = (byte >> (w * j)) & mask;
        }
    }
    for (i, o) in out.iter_mut().enumerate().skip(head + whole * k) {
        *o = one(at + i);
    }
}

/// The low `w` bits of each byte of `values` into slots `at..` of `dst`;
/// the other slots of the bytes at either end are kept.
fn pack(values: &[u8], dst: &mut [u8], at: usize, w: usize) {
    let k = 8 / w;
    let mask = ((1u16 << w) - 1) as u8;
    let one = |dst: &mut [u8], slot: usize, v: u8| {
        let shift = w * (slot % k);
        let byte = &mut dst[slot / k];
        *byte = (*byte & !(mask << shift)) | ((v & mask) << shift);
    };
    let n = values.len();
    let head = ((k - at % k) % k).min(n);
    for (i, &v) in values[..head].iter().enumerate() {
        one(dst, at + i, v);
    }
    let whole = (n - head) / k;
    let from = (at + head) / k;
    let fast = if w == 4 {
        simd::bytes_to_nibbles(
            &values[head..head + whole * k],
            &mut dst[from..from + whole],
        )
    } else {
        0
    };
    for (chunk, byte) in values[head + fast * k..head + whole * k]
        .chunks_exact(k)
        .zip(&mut dst[from + fast..from + whole])
    {
        let mut b = 0u8;
        for (j, &v) in chunk.iter().enumerate() {
            b |= (v & mask) << (w * j);
        }
        *byte = b;
    }
    for (i, &v) in values.iter().enumerate().skip(head + whole * k) {
        one(dst, at + i, v);
    }
}
