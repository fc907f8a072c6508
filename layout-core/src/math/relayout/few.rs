//! A few rows woven into one run of tuples, or one run of tuples split
//! into a few rows (`weave` and `split` for 3 to [`FEW_ROWS`] rows): a
//! small dimension innermost on one side only, next to a dimension that
//! is innermost on the other (`u8[8,2,553414]{2,1,0}` -> `{0,2,1}` weaves
//! 8 rows into 8-tuples). Each step reads or writes every row and one
//! run, all in order, a piece of [`FEW_PIECE`] tuples at a time. Rows of
//! 1- and 2-byte elements are woven a vector of each row at a time by
//! `simd` (padded to 4 or 8 rows, interleaved, each tuple stored with the
//! next one's first slots as padding); runs of 8-tuples (and of 4-tuples
//! of 2-byte elements) are split so too. The rest is made (or taken
//! apart) a tuple at a time, as an array of a size the compiler knows.
//! The tuned blocks (`squares.rs`) keep the rows of 2 (and of 4 for
//! one-byte elements), which they weave and split in vector registers
//! with [`weave`], [`split`], [`weave4`] and [`split4`], kept here.

use super::loops::each;
use super::modes::Nest;
use super::simd;
use super::tuning::{FEW_LEAST, FEW_PIECE, FEW_ROWS};

/// What box `n` of elements of `size` bytes is to these kernels:
/// `Some((true, r))` where its first loop is `r` source rows woven into
/// `r`-tuples along its second, `Some((false, r))` where its first loop
/// is a run of `r`-tuples split along its second into `r` rows; `None`
/// for other boxes, for 2 rows (and 4 of one-byte elements: the tuned
/// blocks' weave and split), more than [`FEW_ROWS`], or rows shorter
/// than [`FEW_LEAST`].
pub(crate) fn shape(n: &Nest, size: usize) -> Option<(bool, usize)> {
    let [m0, m1, ..] = n.loops() else {
        return None;
    };
    if m0.dst != 1 || m1.src != 1 {
        return None;
    }
    // Rows woven: the first loop is the rows (a tuple in the
    // destination); split: the second is (a tuple in the source).
    let (weave, rows, len) = if m1.dst == m0.range && (3..=FEW_ROWS).contains(&m0.range) {
        (true, m0.range, m1.range)
    } else if m0.src == m1.range {
        (false, m1.range, m0.range)
    } else {
        return None;
    };
    let tuned = rows == 2 || (rows == 4 && size == 1);
    if tuned || !(3..=FEW_ROWS).contains(&rows) || len < FEW_LEAST {
        return None;
    }
    Some((weave, usize::try_from(rows).ok()?))
}

/// Copies box `n` (of [`shape`] `Some`): `false`, with nothing copied,
/// for any other box.
#[inline(never)]
pub(crate) fn copy<T: Copy + 'static>(n: &Nest, src: &[T], dst: &mut [T]) -> bool {
    let Some((weave, rows)) = shape(n, core::mem::size_of::<T>()) else {
        return false;
    };
    match rows {
        3 => go::<T, 3>(weave, n, src, dst),
        4 => go::<T, 4>(weave, n, src, dst),
        5 => go::<T, 5>(weave, n, src, dst),
        6 => go::<T, 6>(weave, n, src, dst),
        7 => go::<T, 7>(weave, n, src, dst),
        8 => go::<T, 8>(weave, n, src, dst),
        _ => return false,
    }
    true
}

/// [`copy`] for `R` rows.
fn go<T: Copy + 'static, const R: usize>(weave: bool, n: &Nest, src: &[T], dst: &mut [T]) {
    let (m0, m1) = (n.modes[0], n.modes[1]);
    let outer = &n.loops()[2..];
    if weave {
        // `R` rows `m0.src` apart, `m1.range` each.
        let (len, row) = (m1.range as usize, m0.src as usize);
        each(outer, n.src, n.dst, |s, d| {
            weave_rows::<T, R>(src, s, row, &mut dst[d..d + len * R]);
        });
    } else {
        let (len, row) = (m0.range as usize, m1.dst as usize);
        each(outer, n.src, n.dst, |s, d| {
            split_run::<T, R>(&src[s..s + len * R], dst, d, row);
        });
    }
}

/// The lines copy of box `n` (of [`shape`] `Some`), the relayout's
/// ceiling: the same pieces of the rows and of the run, in the same
/// order, copied as they are (`put(source offset, destination offset,
/// length)`, in slots) instead of woven or split.
pub(crate) fn lines(n: &Nest, size: usize, put: &mut dyn FnMut(usize, usize, usize)) {
    let Some((weave, rows)) = shape(n, size) else {
        return;
    };
    let (m0, m1) = (n.modes[0], n.modes[1]);
    // The rows' length and stride, and the tuples' side.
    let (len, row) = if weave {
        (m1.range as usize, m0.src as usize)
    } else {
        (m0.range as usize, m1.dst as usize)
    };
    each(&n.loops()[2..], n.src, n.dst, |s, d| {
        for at in (0..len).step_by(FEW_PIECE) {
            let k = FEW_PIECE.min(len - at);
            for r in 0..rows {
                if weave {
                    put(s + r * row + at, d + at * rows + r * k, k);
                } else {
                    put(s + at * rows + r * k, d + r * row + at, k);
                }
            }
        }
    });
}

/// Rows `s + r * row` (`r < R`) of `src` woven into `out`, tuple `i`
/// made of element `i` of each row. The vector shuffles store each tuple
/// with the next one's first slots as padding, which the next store
/// overwrites: inside `out`, only the last piece's last tuples are left
/// to the loop here.
#[inline(always)]
fn weave_rows<T: Copy + 'static, const R: usize>(src: &[T], s: usize, row: usize, out: &mut [T]) {
    let len = out.len() / R;
    for at in (0..len).step_by(FEW_PIECE) {
        let k = FEW_PIECE.min(len - at);
        let rows: [&[T]; R] =
            core::array::from_fn(|r| &src[s + at + r * row..s + at + r * row + k]);
        let done = simd::weave_few(rows, &mut out[at * R..]);
        let (piece, _) = out[at * R..(at + k) * R].as_chunks_mut::<R>();
        for (i, o) in piece.iter_mut().enumerate().skip(done) {
            *o = core::array::from_fn(|r| rows[r][i]);
        }
    }
}

/// The tuples of `run` split into rows `d + r * row` (`r < R`) of `dst`,
/// element `r` of tuple `i` to element `i` of row `r`: every row's piece
/// written in the same pass over the tuples.
#[inline(always)]
fn split_run<T: Copy + 'static, const R: usize>(run: &[T], dst: &mut [T], d: usize, row: usize) {
    let (run, _) = run.as_chunks::<R>();
    for (k, piece) in run.chunks(FEW_PIECE).enumerate() {
        let len = piece.len();
        // The rows' pieces, `row` apart (at least the run's length: the
        // destination's rows do not overlap).
        let mut rest = &mut dst[d + k * FEW_PIECE..];
        let mut rows: [&mut [T]; R] = core::array::from_fn(|r| {
            let here = core::mem::take(&mut rest);
            let (head, tail) = if r + 1 < R {
                here.split_at_mut(row)
            } else {
                (here, &mut [][..])
            };
            rest = tail;
            &mut head[..len]
        });
        // Whole vectors of each row where `simd` takes them (8 rows, and
        // 4 of 2-byte elements), then the rest. (Other rows keep the loop
        // alone: with the call beside it, even one that does nothing,
        // the loop compiled slower, 0.8x on rows of 5 bytes.)
        if const { simd::SPLIT_FEW && (R == 8 || (R == 4 && core::mem::size_of::<T>() == 2)) } {
            let done = simd::split_few(piece.as_flattened(), rows.each_mut().map(|r| &mut **r));
            split_tuples(&piece[done..], rows.each_mut().map(|r| &mut r[done..]));
        } else {
            split_tuples(piece, rows);
        }
    }
}

/// The tuples of `piece` split into `rows`, element `r` of tuple `i` to
/// element `i` of row `r`.
#[inline(always)]
fn split_tuples<T: Copy, const R: usize, X: core::ops::DerefMut<Target = [T]>>(
    piece: &[[T; R]],
    mut rows: [X; R],
) {
    // Bytes eight tuples at a time: eight bytes of each row written at
    // once, one store rather than eight (wider elements one tuple at a
    // time, which the compiler vectorises: 2-byte elements in eights
    // measured 0.82x to 0.92x).
    let (groups, tail) = if const { core::mem::size_of::<T>() == 1 } {
        piece.as_chunks::<8>()
    } else {
        (&[][..], piece)
    };
    for (g, group) in groups.iter().enumerate() {
        for (r, out) in rows.iter_mut().enumerate() {
            if let Some(o) = out.get_mut(8 * g..).and_then(|o| o.first_chunk_mut::<8>()) {
                *o = core::array::from_fn(|k| group[k][r]);
            }
        }
    }
    let at = 8 * groups.len();
    for (i, t) in tail.iter().enumerate() {
        for (out, &x) in rows.iter_mut().zip(t) {
            out[at + i] = x;
        }
    }
}

/// Rows `a` and `b` woven into one run of pairs: `run[2i] = a[i]`,
/// `run[2i + 1] = b[i]`.
pub(crate) fn weave<T: Copy + 'static>(a: &[T], b: &[T], run: &mut [T]) {
    // The compiler vectorises this loop as it is (`simd` shuffles here
    // measured 6% more instructions).
    for ((o, x), y) in run.chunks_exact_mut(2).zip(a).zip(b) {
        o[0] = *x;
        o[1] = *y;
    }
}

/// One run of pairs split into rows `a` and `b`: the inverse of
/// [`weave`].
pub(crate) fn split<T: Copy + 'static>(run: &[T], a: &mut [T], b: &mut [T]) {
    let k = simd::split(run, a, b);
    for ((i, x), y) in run[2 * k..]
        .chunks_exact(2)
        .zip(&mut a[k..])
        .zip(&mut b[k..])
    {
        *x = i[0];
        *y = i[1];
    }
}

/// Four rows woven into one run of 4-tuples: `rows[k][i]` into
/// `run[4i + k]`.
pub(crate) fn weave4<T: Copy + 'static>(rows: [&[T]; 4], run: &mut [T]) {
    let k = simd::weave4(rows, run);
    let [a, b, c, d] = rows;
    let heads = a[k..].iter().zip(&b[k..]).zip(&c[k..]).zip(&d[k..]);
    for (x, (((a, b), c), d)) in run[4 * k..].chunks_exact_mut(4).zip(heads) {
        x.copy_from_slice(&[*a, *b, *c, *d]);
    }
}

/// One run of 4-tuples split into four rows: `run[4i + k]` into
/// `rows[k][i]`.
pub(crate) fn split4<T: Copy + 'static>(run: &[T], rows: [&mut [T]; 4]) {
    let [a, b, c, d] = rows;
    let k = simd::split4(run, [&mut *a, &mut *b, &mut *c, &mut *d]);
    let tails = a[k..]
        .iter_mut()
        .zip(&mut b[k..])
        .zip(&mut c[k..])
        .zip(&mut d[k..]);
    for (x, (((a, b), c), d)) in run[4 * k..].chunks_exact(4).zip(tails) {
        (*a, *b, *c, *d) = (x[0], x[1], x[2], x[3]);
    }
}
